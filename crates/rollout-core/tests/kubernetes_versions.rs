//! The same rollouts under Kubernetes 1.28 and 1.37: what 1.37 adds (`terminatingReplicas`)
//! and what it leaves alone (every other figure, every event: the rolling-update arithmetic
//! does not read the new field).

use rollout_core::presets::preset;
use rollout_core::sim::Simulation;
use rollout_core::trace::{Trace, TraceRound};
use rollout_core::version::KubernetesVersion;

fn trace_of(id: &str, version: KubernetesVersion) -> Trace {
    let mut s = preset(id).unwrap().scenario;
    s.kubernetes_version = version;
    let mut sim = Simulation::new(s).without_history();
    sim.run();
    sim.trace()
}

/// A round with the 1.37 field removed and the passes (1.37 writes the field, so a settled
/// round may take one more pass) left out: what must be the same under both releases.
fn without_terminating(r: &TraceRound) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap();
    let obj = v.as_object_mut().unwrap();
    obj.remove("passes");
    for key in ["deployments", "replicaSets"] {
        for o in obj[key].as_array_mut().unwrap() {
            o.as_object_mut().unwrap().remove("terminatingReplicas");
        }
    }
    for e in obj["events"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("pass");
    }
    v
}

/// rolling-basic (3 replicas, 25 % / 25 %, pods terminating for 3 s): under 1.37 each old
/// ReplicaSet's `terminatingReplicas` counts its pods from their deletion until the kubelet
/// removes them, and the Deployment's sums them; under 1.28 neither is there. Everything
/// else, round by round, is the same.
#[test]
fn rolling_basic_counts_terminating_pods_under_1_37_only() {
    let old = trace_of("rolling-basic", KubernetesVersion::V1_28);
    let new = trace_of("rolling-basic", KubernetesVersion::V1_37);
    assert_eq!(old.oracle["kubernetesVersion"], "v1.28.4");
    assert_eq!(new.oracle["kubernetesVersion"], "v1.37.0");
    assert_eq!(new.scenario["kubernetesVersion"], "1.37");
    assert!(old.scenario.get("kubernetesVersion").is_none());
    let old_text = serde_json::to_string(&old.rounds).unwrap();
    assert!(!old_text.contains("terminatingReplicas"));
    assert_eq!(old.rounds.len(), new.rounds.len());
    let mut seen_terminating = 0;
    for (a, b) in old.rounds.iter().zip(&new.rounds) {
        assert_eq!(
            without_terminating(a),
            without_terminating(b),
            "round {}",
            a.round
        );
        let mut sum = 0;
        for rs in &b.replica_sets {
            // The status as of the ReplicaSet controller's last sync of the round: in a
            // settled round that is the pods at the round's end.
            assert_eq!(
                rs.terminating_replicas,
                Some(rs.pods.terminating),
                "round {} {}",
                b.round,
                rs.name
            );
            sum += rs.pods.terminating;
            seen_terminating = seen_terminating.max(rs.pods.terminating);
        }
        let d = &b.deployments[0];
        assert_eq!(d.terminating_replicas, Some(sum), "round {}", b.round);
        assert_eq!(a.deployments[0].terminating_replicas, None);
    }
    assert!(
        seen_terminating >= 1,
        "rolling-basic replaces pods one by one, each terminating 3 s"
    );
}

/// Every preset runs to the same pods, statuses and events under both releases, apart from
/// the new field (the three changes touch no arithmetic of a settled round).
#[test]
fn every_preset_is_the_same_rollout_under_both_releases() {
    for p in rollout_core::presets::presets() {
        let old = trace_of(p.id, KubernetesVersion::V1_28);
        let new = trace_of(p.id, KubernetesVersion::V1_37);
        assert_eq!(old.rounds.len(), new.rounds.len(), "{}", p.id);
        for (a, b) in old.rounds.iter().zip(&new.rounds) {
            assert_eq!(
                without_terminating(a),
                without_terminating(b),
                "{} round {}",
                p.id,
                a.round
            );
        }
    }
}

/// 1.37 `sync_test.go` `TestScale`, "scaling event with terminating pods is not partial …:
/// 10 -> 14" ("Ignores terminating pods"): a ReplicaSet of 10 that reports terminating pods
/// is scaled to 14 in one step, desired and max-replicas annotations 14 (maxSurge 0). Here 10
/// replicas are
/// scaled to 6 (4 pods terminate for 5 s) and then to 14 while they still terminate: under
/// 1.37 the ReplicaSet reports them, and is scaled to 14 as under 1.28.
#[test]
fn a_scale_ignores_terminating_pods_under_both_releases() {
    let text = r#"{"name":"scale","rounds":8,"secondsPerRound":1,"readyAfterRounds":1,
      "terminationRounds":5,"nodes":3,"settle":true,"actions":[
        {"round":0,"type":"create","deployment":{"name":"foo","replicas":10,"image":"app:1",
          "strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":1}}},
        {"round":2,"type":"scale","replicas":6},
        {"round":3,"type":"scale","replicas":14}]}"#;
    let run = |v: KubernetesVersion| {
        let mut s = rollout_core::scenario::Scenario::from_json(text).unwrap();
        s.kubernetes_version = v;
        let mut sim = Simulation::new(s).without_history();
        sim.run();
        sim.trace()
    };
    let (old, new) = (run(KubernetesVersion::V1_28), run(KubernetesVersion::V1_37));
    let round3 = |t: &Trace| t.rounds[3].replica_sets[0].clone();
    let (a, b) = (round3(&old), round3(&new));
    assert_eq!(b.spec_replicas, 14);
    assert_eq!(b.desired_replicas_annotation.as_deref(), Some("14"));
    assert_eq!(b.max_replicas_annotation.as_deref(), Some("14"));
    assert_eq!(
        b.pods.terminating, 4,
        "the 4 pods of the scale-down still terminate"
    );
    assert_eq!(b.terminating_replicas, Some(4));
    assert_eq!(a.terminating_replicas, None);
    assert_eq!(
        (a.spec_replicas, &a.desired_replicas_annotation, a.pods),
        (b.spec_replicas, &b.desired_replicas_annotation, b.pods)
    );
}
