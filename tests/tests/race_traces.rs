//! Every race schedule of `../shared/races` (caches per controller, resourceVersion
//! conflicts, expectations; README there), run by rollout-core's schedule mode, must produce
//! exactly the trace the real Kubernetes v1.28.4 controllers produced, step by step, as
//! `compare.py` compares them.

use rollout_core::races::schedule::{run_race_trace, RaceScenario};
use rollout_tests::{first_difference, json_files, races_dir};

fn compare_one(name: &str) -> Result<(), String> {
    let dir = races_dir();
    let text =
        std::fs::read_to_string(dir.join("scenarios").join(name)).map_err(|e| e.to_string())?;
    let scenario = RaceScenario::from_json(&text).map_err(|e| format!("scenario: {e}"))?;
    let ours = serde_json::to_value(run_race_trace(&scenario)).map_err(|e| e.to_string())?;
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("traces").join(name)).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    if ours["setupTicks"] != expected["setupTicks"] {
        return Err(format!(
            "setupTicks: expected {}, got {}",
            expected["setupTicks"], ours["setupTicks"]
        ));
    }
    match first_difference("steps", &expected["steps"], &ours["steps"]) {
        None => Ok(()),
        Some(d) => Err(d),
    }
}

#[test]
fn race_schedules_match_kubernetes() {
    let names: Vec<String> = json_files(&races_dir().join("scenarios"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), 39, "expected the 39 race schedules");
    let failures: Vec<String> = names
        .iter()
        .filter_map(|n| compare_one(n).err().map(|d| format!("{n}: {d}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} race traces differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}
