//! Every conformance scenario, simulated by rollout-core, must produce exactly the trace the
//! real Kubernetes v1.28.4 controllers produced (compared as `compare.py` does: every round,
//! every field, `*Raw` fields ignored).

use rollout_core::sim::run_trace;
use rollout_tests::{conformance_dir, first_difference, json_files, read_scenario};
use std::path::Path;

/// Fixtures this implementation does not pass yet. The list may only shrink: a listed
/// fixture that passes fails the suite, so the entry must be removed.
const KNOWN_FAILING: &[&str] = &[];

fn check_dir(sub: &str) -> (usize, Vec<String>) {
    let dir = conformance_dir();
    let scenarios = dir.join("scenarios").join(sub);
    let traces = dir.join("traces").join(sub);
    let names = json_files(&scenarios);
    let mut failures = Vec::new();
    for path in &names {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let stem = file.trim_end_matches(".json").to_string();
        let outcome = compare_one(path, &traces.join(&file));
        let known = KNOWN_FAILING.contains(&stem.as_str());
        match (outcome, known) {
            (Ok(()), false) => {}
            (Ok(()), true) => {
                failures.push(format!("{stem}: passes now; remove it from KNOWN_FAILING"))
            }
            (Err(_), true) => {}
            (Err(diff), false) => failures.push(format!("{stem}: {diff}")),
        }
    }
    (names.len(), failures)
}

fn compare_one(scenario_path: &Path, trace_path: &Path) -> Result<(), String> {
    let scenario = read_scenario(scenario_path)?;
    let ours = serde_json::to_value(run_trace(scenario)).map_err(|e| e.to_string())?;
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(trace_path).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    match first_difference("rounds", &expected["rounds"], &ours["rounds"]) {
        None => Ok(()),
        Some(d) => Err(d),
    }
}

#[test]
fn named_scenarios_match_kubernetes() {
    let (count, failures) = check_dir("");
    assert_eq!(count, 18, "expected the 18 named scenarios");
    assert!(
        failures.is_empty(),
        "{} of {count} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn random_scenarios_match_kubernetes() {
    let (count, failures) = check_dir("random");
    assert_eq!(count, 200, "expected the 200 random scenarios");
    assert!(
        failures.is_empty(),
        "{} of {count} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn settled_scenarios_match_kubernetes() {
    let (count, failures) = check_dir("settle");
    assert_eq!(count, 142, "expected the 142 settled scenarios");
    assert!(
        failures.is_empty(),
        "{} of {count} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
