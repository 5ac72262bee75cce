//! The race explorer (`rollout_core::races::explorer`) shows, after every step of every race
//! schedule of `../shared/races`, exactly what the real v1.28.4 controllers' trace records: the
//! API server's ReplicaSets, both controllers' caches, the pending expectations, the errors and
//! the broken promises, in the scenario's own mode. Stepped one step at a time, as a learner
//! steps it, with a step back and forward again on the way.

use rollout_core::races::explorer::{CacheView, Mode, RaceExplorer, RaceFrame};
use rollout_core::races::schedule::RaceScenario;
use rollout_tests::{json_files, races_dir};
use serde_json::{json, Value};

fn mode_of(name: &str) -> Mode {
    if name.ends_with("-noexp.json") {
        Mode::WithoutExpectations
    } else if name.ends_with("-norv.json") {
        Mode::LastWriteWins
    } else {
        assert!(name.ends_with("-real.json"), "{name}");
        Mode::Real
    }
}

fn brief(name: &Value, spec: &Value, available: &Value, pods: &Value) -> Value {
    json!({"name": name, "specReplicas": spec, "availableReplicas": available, "pods": pods})
}

/// A trace's ReplicaSet list in brief (truth or a cache).
fn trace_list(list: &Value) -> Vec<Value> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            brief(
                &r["name"],
                &r["specReplicas"],
                &r["availableReplicas"],
                &r["pods"],
            )
        })
        .collect()
}

/// A cache as the explorer shows it: the cached values (the truth's, when stale, only beside).
fn cache_list(c: &CacheView) -> Vec<Value> {
    c.replica_sets
        .iter()
        .map(|l| {
            let v = serde_json::to_value(l).unwrap();
            brief(
                &v["name"],
                &v["specReplicas"]["cached"],
                &v["availableReplicas"]["cached"],
                &v["pods"]["cached"],
            )
        })
        .collect()
}

fn check(name: &str, i: usize, f: &RaceFrame, want: &Value) -> Result<(), String> {
    let truth: Vec<Value> = f
        .truth
        .iter()
        .map(|r| {
            let v = serde_json::to_value(r).unwrap();
            brief(
                &v["name"],
                &v["specReplicas"],
                &v["availableReplicas"],
                &v["pods"],
            )
        })
        .collect();
    let expectations: Value = f
        .expectations
        .iter()
        .map(|e| (e.replica_set.clone(), json!({"add": e.add, "del": e.del})))
        .collect::<serde_json::Map<_, _>>()
        .into();
    let pairs = [
        ("step", json!(f.step), want["step"].clone()),
        ("time", json!(f.time), want["time"].clone()),
        (
            "truth",
            json!(truth),
            json!(trace_list(&want["replicaSets"])),
        ),
        (
            "deployment cache",
            json!(cache_list(&f.deployment_cache)),
            json!(trace_list(&want["caches"]["deployment"]["replicaSets"])),
        ),
        (
            "deployment cache's deployments",
            json!(f
                .deployment_cache
                .deployments
                .iter()
                .map(|d| {
                    let v = serde_json::to_value(d).unwrap();
                    json!({
                        "name": v["name"],
                        "generation": v["generation"]["cached"],
                        "observedGeneration": v["observedGeneration"]["cached"],
                        "specReplicas": v["specReplicas"]["cached"],
                        "updatedReplicas": v["updatedReplicas"]["cached"],
                        "availableReplicas": v["availableReplicas"]["cached"],
                    })
                })
                .collect::<Vec<_>>()),
            want["caches"]["deployment"]["deployments"].clone(),
        ),
        (
            "replicaset cache",
            json!(cache_list(&f.replica_set_cache)),
            json!(trace_list(&want["caches"]["replicaset"]["replicaSets"])),
        ),
        (
            "expectations",
            expectations,
            want.get("expectations").cloned().unwrap_or(json!({})),
        ),
        (
            "errors",
            json!(f.errors),
            want.get("errors").cloned().unwrap_or(json!([])),
        ),
        (
            "violations",
            json!(f.violations),
            want.get("violations").cloned().unwrap_or(json!([])),
        ),
    ];
    for (what, ours, theirs) in pairs {
        if ours != theirs {
            return Err(format!(
                "{name} step {i}: {what}: expected {theirs}, got {ours}"
            ));
        }
    }
    Ok(())
}

fn explore_one(name: &str) -> Result<(), String> {
    let dir = races_dir();
    let text = std::fs::read_to_string(dir.join("scenarios").join(name)).unwrap();
    let scenario = RaceScenario::from_json(&text).map_err(|e| e.to_string())?;
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("traces").join(name)).unwrap())
            .unwrap();
    let mode = mode_of(name);
    let mut x = RaceExplorer::new(scenario);
    let script = x.script().to_vec();
    for (i, step) in script.iter().enumerate() {
        x.step(step.clone())?;
        let frame = x.frame(mode);
        check(name, i, &frame, &trace["steps"][i])?;
        if i % 7 == 3 {
            // Back and forward again: the same frame.
            x.back();
            x.step(step.clone())?;
            if x.frame(mode) != frame {
                return Err(format!("{name} step {i}: a step back and again differs"));
            }
        }
    }
    Ok(())
}

#[test]
fn the_explorer_shows_what_the_real_controllers_traced_after_every_step() {
    let names: Vec<String> = json_files(&races_dir().join("scenarios"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), 39, "expected the 39 race schedules");
    let failures: Vec<String> = names.iter().filter_map(|n| explore_one(n).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The walk-throughs carry the teaching schedules of `../shared/races` (read from there).
#[test]
fn the_walkthroughs_are_the_teaching_schedules() {
    for w in &rollout_core::races::walkthroughs::WALKTHROUGHS {
        let path = races_dir()
            .join("scenarios")
            .join(format!("race-teach-{}-real.json", w.id));
        let fixture = RaceScenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut ours = w.scenario();
        assert_eq!(ours.schedule, fixture.schedule, "{}", w.id);
        assert_eq!(ours.scenario.name, format!("race-teach-{}", w.id));
        // The same cluster; the fixture's name and description are its own.
        ours.scenario.name = fixture.scenario.name.clone();
        ours.scenario.description = fixture.scenario.description.clone();
        assert_eq!(
            ours.scenario, fixture.scenario,
            "{}: the same cluster",
            w.id
        );
    }
}
