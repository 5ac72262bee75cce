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
