//! The "known facts worth a test of their own" of `../shared/conformance/README.md`, each
//! checked on a small scenario of its own.

use rollout_core::deployment::util;
use rollout_core::scenario::Scenario;
use rollout_core::sim::run_trace;
use rollout_core::trace::TraceRound;
use std::sync::Arc;

fn rounds(actions: &str, extra: &str) -> Vec<Arc<TraceRound>> {
    let text = format!(
        r#"{{"name":"fact","rounds":16,"secondsPerRound":5,"readyAfterRounds":1,"terminationRounds":0,
            "neverReadyImages":["bad"],"nodes":1,{extra}"actions":[{actions}]}}"#
    );
    run_trace(Scenario::from_json(&text).expect("scenario")).rounds
}

fn events(rounds: &[Arc<TraceRound>], reason: &str) -> Vec<(u32, String)> {
    rounds
        .iter()
        .flat_map(|r| {
            r.events
                .iter()
                .filter(|e| e.reason == reason)
                .map(move |e| (r.round, e.message.clone()))
        })
        .collect()
}

#[test]
fn scale_messages_end_in_from_except_a_new_replica_sets_first() {
    let r = rounds(
        r#"{"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"v1"}},
           {"round":4,"type":"setImage","image":"v2"}"#,
        "",
    );
    let msgs = events(&r, "ScalingReplicaSet");
    assert_eq!(
        msgs[0],
        (0, "Scaled up replica set web-rev1 to 3".to_string())
    );
    assert_eq!(
        msgs[1],
        (4, "Scaled up replica set web-rev2 to 1".to_string())
    );
    assert!(
        msgs[2..].iter().all(|(_, m)| m.contains(" from ")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|(_, m)| m == "Scaled down replica set web-rev1 to 2 from 3"),
        "{msgs:?}"
    );
}

#[test]
fn progress_deadline_exceeded_is_set_strictly_after_the_deadline_without_an_event() {
    // Deadline 20 s; the last progress is recorded when the bad rollout starts.
    let r = rounds(
        r#"{"round":0,"type":"create","deployment":{"name":"web","replicas":2,"image":"v1","progressDeadlineSeconds":20}},
           {"round":4,"type":"setImage","image":"bad"}"#,
        "",
    );
    let progressing = |round: &TraceRound| {
        round.deployments[0]
            .conditions
            .iter()
            .find(|c| c.type_ == "Progressing")
            .cloned()
            .unwrap()
    };
    let first_timeout = r
        .iter()
        .find(|round| progressing(round).reason == "ProgressDeadlineExceeded")
        .expect("the rollout times out");
    let before = &r[first_timeout.round as usize - 1];
    let last_update = progressing(before).last_update_time.unwrap();
    assert!(
        first_timeout.time > last_update + 20,
        "strictly after the deadline"
    );
    assert!(before.time <= last_update + 20, "not a round earlier");
    assert_eq!(progressing(first_timeout).status, "False");
    assert!(r
        .iter()
        .all(|round| round.events.iter().all(|e| !e.reason.contains("Deadline"))));
}

#[test]
fn min_ready_seconds_counts_strictly() {
    // minReadySeconds 10 with 5 s rounds: a pod ready at t counts only when now > t + 10.
    let r = rounds(
        r#"{"round":0,"type":"create","deployment":{"name":"web","replicas":1,"image":"v1","minReadySeconds":10}}"#,
        "",
    );
    let rs = |round: usize| r[round].replica_sets[0].clone();
    // Ready in round 1 (t = 5); the ReplicaSet sees it in round 2 (t = 10).
    assert_eq!(rs(2).ready_replicas, 1);
    assert_eq!(rs(2).available_replicas, 0);
    assert_eq!(rs(3).available_replicas, 0, "t = 15 is not > 5 + 10");
    assert_eq!(rs(4).available_replicas, 1, "t = 20 > 15");
}

#[test]
fn both_values_resolving_to_zero_make_max_unavailable_one() {
    let surge = rollout_core::api::IntOrString::from("1%");
    let (s, u) = util::resolve_fenceposts(Some(&surge), Some(&surge), 10).unwrap();
    assert_eq!((s, u), (1, 0), "1% of 10 rounds up to 1 surge");
    let zero = rollout_core::api::IntOrString::from("10%");
    let (s, u) = util::resolve_fenceposts(
        Some(&rollout_core::api::IntOrString::Int(0)),
        Some(&zero),
        5,
    )
    .unwrap();
    assert_eq!(
        (s, u),
        (0, 1),
        "0 and 10% of 5 (0.5 rounded down) become maxUnavailable 1"
    );
}

#[test]
fn the_annotation_rollback_emits_its_three_event_kinds_and_renumbers() {
    let r = rounds(
        r#"{"round":0,"type":"create","deployment":{"name":"web","replicas":2,"image":"v1"}},
           {"round":3,"type":"setImage","image":"v2"},
           {"round":8,"type":"rollback","revision":1},
           {"round":12,"type":"rollback","revision":7},
           {"round":14,"type":"rollback","revision":0}"#,
        "",
    );
    // Rolling back to 0 means the previous revision: 2 by then, whose template differs.
    assert_eq!(
        events(&r, "DeploymentRollback"),
        vec![
            (
                8,
                "Rolled back deployment \"web\" to revision 1".to_string()
            ),
            (
                14,
                "Rolled back deployment \"web\" to revision 2".to_string()
            )
        ]
    );
    assert_eq!(
        events(&r, "DeploymentRollbackRevisionNotFound"),
        vec![(
            12,
            "Unable to find the revision to rollback to.".to_string()
        )]
    );
    let rev1 = r[10]
        .replica_sets
        .iter()
        .find(|rs| rs.name == "web-rev1")
        .unwrap();
    assert_eq!(rev1.revision, "3", "the re-used ReplicaSet is renumbered");
    assert_eq!(rev1.revision_history.as_deref(), Some("1"));
    let unchanged = rounds(
        r#"{"round":0,"type":"create","deployment":{"name":"web","replicas":2,"image":"v1"}},
           {"round":3,"type":"setImage","image":"v2"},
           {"round":8,"type":"rollback","revision":2}"#,
        "",
    );
    assert_eq!(
        events(&unchanged, "DeploymentRollbackTemplateUnchanged"),
        vec![(
            8,
            "The rollback revision contains the same template as current deployment \"web\""
                .to_string()
        )]
    );
}
