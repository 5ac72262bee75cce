//! The issue's hand-worked figures (README, "What users see: a Service and its requests"):
//! load 40 req/s, endpoint delay 1 s, an app answering 8 s after its container starts and
//! exiting at once on SIGTERM, 1 s settled rounds, a 3 s termination.

use super::*;
use crate::scenario::Scenario;

/// Three replicas of `web:1` created at 0 s; `actions` after it; a readiness probe (period 10 s)
/// when `readiness`; `preStop` sleeping `pre_stop` seconds.
fn scenario(readiness: bool, pre_stop: i64, actions: &str) -> Scenario {
    let probe = if readiness {
        r#"{"name": "web", "readinessProbe": {"periodSeconds": 10}}"#
    } else {
        r#"{"name": "web"}"#
    };
    Scenario::from_json(&format!(
        r#"{{"name": "t", "rounds": 120, "secondsPerRound": 1, "readyAfterRounds": 0,
            "terminationRounds": 3, "nodes": 3, "settle": true,
            "model": {{"probes": {{"appReadySeconds": 8, "containers": [{probe}]}},
                "traffic": {{"load": 40, "endpointDelaySeconds": 1,
                    "exitAfterSigtermSeconds": 0, "preStopSleepSeconds": {pre_stop}}}}},
            "actions": [
            {{"round": 0, "type": "create", "deployment": {{"name": "web", "replicas": 3, "image": "web:1"}}}}
            {actions}]}}"#
    ))
    .unwrap()
}

/// The last pod by name the proxies send to in `second` (the newest of one ReplicaSet).
fn newest_pod(second: &TrafficSecond) -> String {
    second.pods.last().unwrap().pod.clone()
}

/// The failed requests from `from` to the run's end.
fn failed_from(s: &Scenario, from: i64) -> TrafficTotals {
    let run = run_scenario(s, None, None).unwrap();
    run.totals(from, run.end())
}

#[test]
fn scaling_up_without_a_readiness_probe_fails_seventy_requests() {
    let s = scenario(
        false,
        0,
        r#",{"round": 30, "type": "scale", "replicas": 4}"#,
    );
    let run = run_scenario(&s, None, None).unwrap();
    let t = run.totals(30, run.end());
    // The new pod starts at 30 s and is Ready at once; the proxies send it 40 / 4 = 10 req/s
    // from 31 s; its app answers from 38 s: seconds 31 … 37.
    assert_eq!(t.failed, 70, "{t:?}");
    assert_eq!(t.failed_not_answering, 70);
    assert_eq!(t.seconds_with_failures, 7);
    assert_eq!(t.lowest_at, Some(31));
    assert!((t.lowest_served_fraction - 0.75).abs() < 1e-9);
    assert_eq!(
        run.figures_at(30).failed(),
        0,
        "the proxies do not know it yet"
    );
    assert_eq!(run.figures_at(37).not_answering, 10);
    assert_eq!(run.figures_at(38).failed(), 0);
    let second = run.second(31);
    let new = newest_pod(&second);
    let why = second.why.unwrap();
    assert!(
        why.starts_with(&format!("sent 10 req/s to {new}: Ready")),
        "{why}"
    );
    assert!(
        why.ends_with(": Ready as its container started at 30 s (no readiness probe), but the app answers from 8 s after the start (38 s)"),
        "{why}"
    );
    assert_eq!(second.pods.len(), 4);
    assert!(second.endpoints.iter().all(|e| e.sent_to));
}

#[test]
fn scaling_up_with_a_readiness_probe_fails_none() {
    let s = scenario(true, 0, r#",{"round": 30, "type": "scale", "replicas": 4}"#);
    let run = run_scenario(&s, None, None).unwrap();
    // Admitted at 30 s, its worker ticks at 30, 40 s: the app answers from 38 s, Ready at
    // 40 s, sent requests from 41 s.
    assert_eq!(run.totals(30, run.end()).failed, 0);
    let at40 = run.second(40);
    let name = newest_pod(&run.second(45));
    let new = at40.endpoints.iter().find(|e| e.pod == name).unwrap();
    assert!(new.now.unwrap().ready && !new.proxied.unwrap().ready && !new.sent_to);
    assert_eq!(run.second(41).pods.len(), 4);
}

#[test]
fn scaling_down_without_pre_stop_fails_ten_requests_and_with_it_none() {
    let actions = r#",{"round": 30, "type": "scale", "replicas": 4},
        {"round": 60, "type": "scale", "replicas": 3}"#;
    let s = scenario(true, 0, actions);
    let run = run_scenario(&s, None, None).unwrap();
    let t = run.totals(60, run.end());
    // The deleted pod's app exits at 60 s; the proxies still send it 10 req/s in second 60.
    assert_eq!(t.failed, 10, "{t:?}");
    assert_eq!(t.seconds_with_failures, 1);
    let why = run.second(60).why.unwrap();
    assert!(
        why.contains("Terminating since 60 s, its app exited at 60 s (no preStop sleep)"),
        "{why}"
    );
    let s = scenario(true, 5, actions);
    assert_eq!(failed_from(&s, 60).failed, 0);
}

#[test]
fn a_rolling_update_sums_its_windows() {
    // 3 replicas, maxSurge 25 % = 1, maxUnavailable 25 % = 0, image set at 30 s.
    let rollout = r#",{"round": 30, "type": "setImage", "image": "web:2"}"#;
    let failing = |run: &TrafficRun| -> Vec<(i64, i64, u32)> {
        run.spans()
            .iter()
            .filter(|s| s.from >= 30 && s.figures.failed() > 0)
            .map(|s| (s.from, s.to, s.figures.failed()))
            .collect()
    };
    // Without a readiness probe each new pod is Ready as it starts, so in settled rounds the
    // whole rollout happens at 30 s: the three old pods are deleted and exit at once while
    // the proxies still send them 14 + 13 + 13 req/s (second 30: 40), then the three new
    // pods get all 40 req/s while their apps boot (31 … 37: 7 × 40 = 280). 320 in all.
    let run = run_scenario(&scenario(false, 0, rollout), None, None).unwrap();
    assert_eq!(failing(&run), vec![(30, 38, 40)], "one span: equal figures");
    assert_eq!(run.totals(30, run.end()).failed, 320);
    let (at30, at31) = (run.second(30).why.unwrap(), run.second(31).why.unwrap());
    assert!(
        at30.contains("Terminating since 30 s, its app exited at 30 s"),
        "{at30}"
    );
    assert!(
        at31.contains("(no readiness probe), but the app answers from 8 s"),
        "{at31}"
    );
    // With a readiness probe (period 10 s) a new pod is Ready at the tick after its app
    // answers: 40, 50, 60 s. Each time an old pod is deleted; it is the first by name, which
    // gets the odd request (14 of 40 over three), and fails them for the 1 s the proxies take
    // to learn: 3 windows of 14 = 42.
    let run = run_scenario(&scenario(true, 0, rollout), None, None).unwrap();
    assert_eq!(
        failing(&run),
        vec![(40, 41, 14), (50, 51, 14), (60, 61, 14)]
    );
    assert_eq!(run.totals(30, run.end()).failed, 42);
    let why = run.second(50).why.unwrap();
    assert!(why.contains("Terminating since 50 s"), "{why}");
    // And a preStop sleep of 5 s, longer than the delay: none.
    let run = run_scenario(&scenario(true, 5, rollout), None, None).unwrap();
    assert_eq!(run.totals(30, run.end()).failed, 0);
    // Before the first pod is Ready (its first tick at 10 s) the Service has no endpoint.
    assert_eq!(failing_before(&run, 30), vec![(0, 11, 40)]);
}

/// The failing spans before `t`.
fn failing_before(run: &TrafficRun, t: i64) -> Vec<(i64, i64, u32)> {
    run.spans()
        .iter()
        .filter(|s| s.from < t && s.figures.failed() > 0)
        .map(|s| (s.from, s.to, s.figures.no_endpoint))
        .collect()
}

#[test]
fn a_pod_over_its_capacity_fails_the_excess_and_no_endpoint_fails_everything() {
    let mut s = scenario(true, 5, r#",{"round": 30, "type": "scale", "replicas": 2}"#);
    if let Some(m) = s.model.as_mut() {
        m.traffic.as_mut().unwrap().pod_capacity = Some(15);
    }
    let run = run_scenario(&s, None, None).unwrap();
    // Before any pod is Ready (0 … 10 s: the probe ticks at 10 s), nothing is an endpoint.
    assert_eq!(run.figures_at(0).no_endpoint, 40);
    // 3 pods: 14 + 13 + 13, all within 15. 2 pods from 31 s: 20 + 20, 5 over each.
    assert_eq!(run.figures_at(25).failed(), 0);
    let f = run.figures_at(40);
    assert_eq!((f.served, f.over_capacity), (30, 10), "{f:?}");
    let why = run.second(40).why.unwrap();
    assert!(
        why.contains("got 20 req/s and serves at most 15: 5 failed over its capacity"),
        "{why}"
    );
}

#[test]
fn the_controllers_run_as_without_the_model() {
    let s = scenario(
        false,
        0,
        r#",{"round": 30, "type": "setImage", "image": "web:2"}"#,
    );
    let mut plain = s.clone();
    plain.model.as_mut().unwrap().traffic = None;
    let (a, b) = (crate::sim::run_trace(s), crate::sim::run_trace(plain));
    assert!(a.rounds.len() > 30);
    assert_eq!(a.rounds, b.rounds);
}

#[test]
fn the_model_refuses_what_it_cannot_take_by_name() {
    let bad = |v: serde_json::Value| TrafficModel::from_value(&v).unwrap_err();
    assert!(bad(serde_json::json!({"load": 0})).contains("load: 0 is not a rate"));
    assert!(bad(serde_json::json!({"load": 2000000})).contains("more than 1,000,000"));
    assert!(bad(serde_json::json!({"podCapacity": 0})).starts_with("podCapacity: 0"));
    assert!(bad(serde_json::json!({"endpointDelaySeconds": -1}))
        .contains("endpointDelaySeconds: -1 s is outside 0 to 86,400 s"));
    assert!(bad(serde_json::json!({"load": -5})).contains("load"));
    assert!(bad(serde_json::json!({"lod": 5})).contains("unknown field `lod`"));
    assert!(bad(serde_json::json!({"load": 2.5})).contains("load: expected a whole number"));
    let e =
        Scenario::from_json(r#"{"rounds": 5, "actions": [], "model": {"traffic": {"load": 0}}}"#)
            .unwrap_err()
            .to_string();
    assert!(e.contains("traffic.load: 0"), "{e}");
}

#[test]
fn a_session_runs_its_script_with_the_traffic_model() {
    let s = scenario(
        false,
        0,
        r#",{"round": 30, "type": "scale", "replicas": 4}"#,
    );
    let session = crate::session::Session::new(s.clone()).unwrap();
    let run = session.traffic(None).unwrap();
    assert_eq!(run.totals(30, run.end()).failed, 70);
    // The front end's own assumptions instead of the scenario's: 80 req/s, 20 each.
    let heavier = TrafficModel {
        load: 80,
        ..s.model.as_ref().unwrap().traffic.clone().unwrap()
    };
    let run = session.traffic(Some(&heavier)).unwrap();
    assert_eq!(run.totals(30, run.end()).failed, 140);
    assert_eq!(run.model().load, 80);
}
