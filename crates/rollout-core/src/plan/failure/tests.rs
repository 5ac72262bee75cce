//! The failure forecast's figures, worked by hand.

use super::*;

/// 4 replicas of web:1 (ready 10 s after start, 1 s settled rounds), web:2 set at 30 s with
/// the strategy given.
fn rollout(max_unavailable: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"name":"f","rounds":2000,"secondsPerRound":1,"readyAfterRounds":10,
            "terminationRounds":0,"nodes":1,"settle":true,
            "actions":[
              {{"round":0,"type":"create","deployment":{{"name":"web","replicas":4,"image":"web:1",
                "strategy":{{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":{max_unavailable}}}}}}},
              {{"round":30,"type":"setImage","image":"web:2"}}]}}"#
    ))
    .unwrap()
}

#[test]
fn max_unavailable_0_loses_nothing_and_reports_the_deadline() {
    // The surge pod (maxSurge 1) crashes 5 s after each start and is never ready (10 s
    // start-up): no old pod may go. Progressing was last updated at 30 s (the new ReplicaSet's
    // pod): the deadline is reported strictly after 600 s, at 631 s, 601 s after the start.
    // The undo in the next round deletes the surge pod; the 4 old pods are all available: at
    // once.
    let crash = AppFailure::Crash { after: 5 };
    let f = failure_forecast(&rollout("0"), &crash, &crate::limits::Limits::PAGE).unwrap();
    assert_eq!(
        f,
        FailureForecast {
            failure: "crash:after=5s".into(),
            replicas: 4,
            min_available: 4,
            capacity_lost: 0,
            lowest_seconds: 601,
            pods_stuck: 1,
            // Started at 30 s: restarts at 35, 50 (40 + 10), 75 (55 + 20), 120 (80 + 40), 205
            // (125 + 80), 370 (210 + 160), then every 300 s after the exit: 675 is past 631.
            restarts: 6,
            deadline_exceeded_seconds: Some(601),
            undo_seconds: Some(0),
            completes_after_seconds: None,
            notes: vec![],
            failed_requests: f.failed_requests,
            sent_requests: f.sent_requests,
        }
    );
}

#[test]
fn max_unavailable_25_percent_loses_one_pod_until_the_undo() {
    // 25 % of 4 = 1: one old pod goes at once (4 → 3 available), 2 new pods crash-loop. The
    // undo scales the old ReplicaSet back to 4: the new old pod is ready 10 s later.
    let crash = AppFailure::Crash { after: 5 };
    let f = failure_forecast(&rollout("\"25%\""), &crash, &crate::limits::Limits::PAGE).unwrap();
    assert_eq!((f.min_available, f.capacity_lost), (3, 1));
    assert_eq!(f.lowest_seconds, 601, "from 30 s to the deadline at 631 s");
    assert_eq!(f.pods_stuck, 2);
    assert_eq!(f.deadline_exceeded_seconds, Some(601));
    assert_eq!(f.undo_seconds, Some(10));
}

#[test]
fn an_app_ready_before_it_crashes_completes_and_then_loses_capacity() {
    // Crashing 60 s after each start, ready after 10 s: each new pod is available from 10 s to
    // 60 s after its start, so the rollout completes; then the pods crash and availability
    // falls: no deadline is reported while they come back.
    let crash = AppFailure::Crash { after: 60 };
    let f = failure_forecast(&rollout("0"), &crash, &crate::limits::Limits::PAGE).unwrap();
    assert!(f.completes_after_seconds.is_some(), "{f:?}");
    assert!(f.capacity_lost > 0, "{f:?}");
}

#[test]
fn a_readiness_window_under_the_default_probe() {
    // The default readiness probe (every 10 s from each pod's admission, 3 failures) on pods
    // failing readiness from 20 s to 60 s after each start: a new pod is Ready at 10 s and
    // available, fails at 20, 30, 40 s and is out of Ready at 40 s, back at 60 s. With
    // maxUnavailable 0 the old pods cover: nothing is lost before completion; the rollout
    // completes once the new pods are Ready, and then each new pod leaves Ready for 20 s, all
    // about together: capacity falls.
    let window = AppFailure::Readiness {
        from: 20,
        to: Some(60),
    };
    let f = failure_forecast(&rollout("0"), &window, &crate::limits::Limits::PAGE).unwrap();
    assert!(f.completes_after_seconds.is_some(), "{f:?}");
    assert_eq!(f.deadline_exceeded_seconds, None);
    assert!(f.capacity_lost > 0, "{f:?}");
    assert!(
        f.notes[0].contains("default readinessProbe and livenessProbe"),
        "{f:?}"
    );
}
