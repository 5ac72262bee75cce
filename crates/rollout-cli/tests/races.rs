//! `rollout races` and `rollout trace` of a race scenario, as a user runs them.

use std::path::PathBuf;

mod common;
use common::{json, rollout};

/// 3 replicas, maxSurge 1, maxUnavailable 0, pods ready after 2 ticks; `extra` adds fields.
fn scenario(name: &str, extra: &str) -> PathBuf {
    let text = format!(
        r#"{{"name":"{name}","rounds":0,"secondsPerRound":1,"readyAfterRounds":2,
        "terminationRounds":0,"nodes":2,{extra}"actions":[{{"round":0,"type":"create",
        "deployment":{{"name":"web","replicas":3,"image":"web:1","strategy":
        {{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}}}}],
        "schedule":["setImage web:2"]}}"#
    );
    common::write("races", &format!("{name}.json"), &text)
}

#[test]
fn without_expectations_the_search_prints_a_race_that_trace_replays() {
    let path = scenario("noexp", r#""expectations":false,"#);
    let report = json(&rollout(&["races", path.to_str().unwrap(), "--json"]));
    let keys: Vec<&String> = report.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["depth", "states", "violation"]);
    let schedule = report["violation"]["schedule"].clone();
    assert_eq!(schedule[0], "setImage web:2", "a whole schedule");
    assert_eq!(
        report["violation"]["violations"],
        serde_json::json!(["maxSurge: 5 pods > 3 + 1"])
    );
    // Replayed by `rollout trace`: its last step breaks the same promise.
    let mut replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    replay["schedule"] = schedule;
    let replay_path = path.with_file_name("replay.json");
    std::fs::write(&replay_path, replay.to_string()).unwrap();
    let trace = json(&rollout(&["trace", replay_path.to_str().unwrap()]));
    let steps = trace["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, report["depth"].as_u64().unwrap() + 1);
    assert_eq!(
        steps.last().unwrap()["violations"],
        report["violation"]["violations"]
    );

    let text = rollout(&["races", path.to_str().unwrap()]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("breaks a promise"), "{text}");
    assert!(text.contains("broken: maxSurge: 5 pods > 3 + 1"), "{text}");
}

#[test]
fn the_real_controllers_have_no_race_to_a_small_depth() {
    let path = scenario("real", "");
    let report = json(&rollout(&[
        "races",
        path.to_str().unwrap(),
        "--depth",
        "6",
        "--json",
    ]));
    assert_eq!(report["violation"], serde_json::Value::Null);
    assert_eq!(report["depth"], 6);
    assert!(report["states"].as_u64().unwrap() > 6);
}

#[test]
fn bad_options_and_a_search_over_its_cap_are_refused_with_a_message() {
    let path = scenario("cap", "");
    let p = path.to_str().unwrap();
    for (args, words) in [
        (
            vec!["races", p, "--max-states", "20"],
            "more than 20 states",
        ),
        (
            vec!["races", p, "--max-states", "99999999999"],
            "above the limit",
        ),
        (vec!["races", p, "--depth", "deep"], "not a whole number"),
        (vec!["races", p, "--speed"], "unknown option --speed"),
        (vec!["races"], "a scenario is needed"),
    ] {
        let out = rollout(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

/// `rollout walk --teach expectations`: the second `sync-rs` waits in the real mode and, with
/// `--mode noexp`, creates a fifth pod and says which promise broke.
#[test]
fn walk_teaches_expectations_in_both_modes() {
    let real = rollout(&["walk", "--teach", "expectations"]);
    common::accepted(&real);
    let real = String::from_utf8(real.stdout).unwrap();
    assert!(
        real.starts_with("Why the ReplicaSet controller keeps expectations\n"),
        "{real}"
    );
    assert!(real.contains("[6] sync-rs"), "{real}");
    assert!(real.contains("web-rev2 waits: its expectations are not yet satisfied (waiting for 1 creation to show)"), "{real}");
    assert!(!real.contains("Promise broken"), "{real}");
    assert_eq!(real.matches("  Watch: ").count(), 10, "a note per step");

    let noexp = rollout(&["walk", "--teach", "expectations", "--mode", "noexp"]);
    let noexp = String::from_utf8(noexp.stdout).unwrap();
    assert!(
        noexp.contains("Promise broken: maxSurge: 5 pods > 3 + 1."),
        "{noexp}"
    );
    // The ReplicaSet controller's cache is behind: 0 pods cached, 2 on the API server.
    assert!(
        noexp.contains(
            "ReplicaSet controller's cache: web-rev1 3/3 ready of 3; web-rev2 0/0→2 ready of 1"
        ),
        "{noexp}"
    );
}

#[test]
fn walk_steps_a_scenario_file_and_refuses_what_it_cannot_walk() {
    let path = scenario("walk", "");
    let out = rollout(&["walk", path.to_str().unwrap(), "--mode", "norv"]);
    common::accepted(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Mode: last write wins"), "{text}");
    assert!(text.contains("[1] setImage web:2"), "{text}");
    let msg = common::refused(&rollout(&["walk", "--teach", "nope"]));
    assert!(
        msg.contains("no walk-through \"nope\"; there are expectations, conflict, stale-status"),
        "{msg}"
    );
    let msg = common::refused(&rollout(&[
        "walk",
        path.to_str().unwrap(),
        "--mode",
        "fast",
    ]));
    assert!(
        msg.contains("--mode fast: expected real, noexp, norv or guard"),
        "{msg}"
    );
}

/// `--kubernetes`: `rollout races` on the no-expectations race of 3 replicas finds the
/// double create under 1.28 and nothing under 1.37 (the ReplicaSet controller waits for its
/// own writes); `rollout walk --kubernetes 1.37` walks the 1.36+ controllers; a bad value is
/// refused with a clear message.
#[test]
fn races_and_walk_take_the_kubernetes_version() {
    let path = scenario("noexp-k8s", r#""expectations":false,"#);
    let path = path.to_str().unwrap();
    let old = rollout(&["races", path, "--depth", "6", "--kubernetes", "1.28"]);
    assert!(old.status.success());
    let out = String::from_utf8_lossy(&old.stdout);
    assert!(out.contains("broken: maxSurge: 5 pods > 3 + 1"), "{out}");
    let new = rollout(&["races", path, "--depth", "6", "--kubernetes", "1.37"]);
    assert!(new.status.success());
    let out = String::from_utf8_lossy(&new.stdout);
    assert!(
        out.starts_with("no schedule of up to 6 steps breaks a promise"),
        "{out}"
    );
    let walk = rollout(&["walk", "--teach", "expectations", "--kubernetes", "1.37"]);
    let text = String::from_utf8_lossy(&walk.stdout);
    assert!(text.contains("Mode: the real controllers, 1.36+"), "{text}");
    let msg = common::refused(&rollout(&["races", path, "--kubernetes", "1.30"]));
    assert!(
        msg.contains(
            "--kubernetes: unknown Kubernetes version `1.30`; Rollout Lab models 1.37 and 1.28"
        ),
        "{msg}"
    );
}

/// `rollout trace rolling-basic --kubernetes 1.37` prints `terminatingReplicas` on the
/// ReplicaSets and the Deployment (the documented extra field), 1.28 (the default) does not,
/// and a bad value is refused before anything runs.
#[test]
fn trace_prints_terminating_replicas_under_1_37_only() {
    let new = json(&rollout(&[
        "trace",
        "rolling-basic",
        "--kubernetes",
        "1.37",
    ]));
    assert_eq!(new["oracle"]["kubernetesVersion"], "v1.37.0");
    let rounds = new["rounds"].as_array().unwrap();
    let most = rounds
        .iter()
        .flat_map(|r| r["replicaSets"].as_array().unwrap())
        .map(|rs| {
            rs["terminatingReplicas"]
                .as_i64()
                .expect("reported under 1.37")
        })
        .max();
    assert_eq!(most, Some(1), "rolling-basic replaces pods one at a time");
    assert!(rounds
        .iter()
        .all(|r| r["deployments"][0]["terminatingReplicas"].is_i64()));
    let old = rollout(&["trace", "rolling-basic"]);
    assert!(!String::from_utf8_lossy(&old.stdout).contains("terminatingReplicas"));
    let msg = common::refused(&rollout(&["trace", "rolling-basic", "--kubernetes=latest"]));
    assert!(msg.contains("unknown Kubernetes version `latest`"), "{msg}");
}
