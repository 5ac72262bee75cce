//! The crash loops the tests of the kubelet's restarts, the stage's view, its gauges and
//! `kubectl get pods` share (test-only): one scenario each, so their hand-worked figures speak of
//! the same cluster.

use crate::scenario::Scenario;

/// One pod of `web:2`, which crashes 5 s after each start and is never ready (a 10 s start-up):
/// 1 s settled rounds, one node, no grace period. Started at 0 s, it exits at 5 s and is started
/// again at once, exits at 10 s and waits 10 s, is started at 20 s.
pub(crate) fn one_crashing_pod() -> Scenario {
    Scenario::from_json(
        r#"{"name":"crash","rounds":60,"secondsPerRound":1,"readyAfterRounds":10,
            "terminationRounds":0,"nodes":1,"settle":true,
            "model":{"failures":{"web:2":"crash:after=5s"}},
            "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":1,
                "image":"web:2"}}]}"#,
    )
    .expect("the fixture reads")
}

/// 1 replica of `web:1`, then `web:2` in round 10, which crashes 5 s after each start;
/// maxSurge 1, maxUnavailable 0; 1 s settled rounds, pods ready 10 s after their start (so the
/// new one, which crashes first, never is). The new pod starts at 10 s and exits at 15
/// (restarted at once), 20 (back-off 10 s → 30), 35 (20 s → 55), 60 (40 s → 100).
pub(crate) fn rollout_to_a_crashing_version() -> Scenario {
    Scenario::from_json(
        r#"{"name":"crash","rounds":200,"secondsPerRound":1,"readyAfterRounds":10,
            "terminationRounds":0,"nodes":1,"settle":true,
            "model":{"failures":{"web:2":"crash:after=5s"}},
            "actions":[
              {"round":0,"type":"create","deployment":{"name":"web","replicas":1,"image":"web:1",
                "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
              {"round":10,"type":"setImage","image":"web:2"}]}"#,
    )
    .expect("the fixture reads")
}
