//! The forecast of `rollout plan` (rollout_core::plan::forecast) must give the figures the
//! reference script `../shared/plan/plan_metrics.py` computes from the real Kubernetes trace
//! of every conformance scenario that has a `setImage` action: all six of them.

use rollout_tests::{conformance_dir, json_files, read_scenario};
use std::process::Command;

use rollout_core::plan::FIGURES;

/// Runs the reference script over every trace of `traces/<sub>`; one (file, figures) per
/// trace with a setImage action.
fn reference(sub: &str) -> Vec<(String, serde_json::Value)> {
    let dir = conformance_dir();
    let script = dir.join("../plan/plan_metrics.py");
    assert!(
        script.is_file(),
        "no reference script at {}",
        script.display()
    );
    let traces = dir.join("traces").join(sub);
    let files = json_files(&traces);
    let out = Command::new("python3")
        .arg(&script)
        .args(&files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "plan_metrics.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| {
            let (file, json) = line.split_once(' ').expect("`FILE {json}` lines");
            (file.to_string(), serde_json::from_str(json).expect("json"))
        })
        .collect()
}

/// Compares our forecast with the reference for every trace of `traces/<sub>`; returns how
/// many were compared, failing with every disagreement.
fn check(sub: &str) -> usize {
    let expected = reference(sub);
    let mut failures = Vec::new();
    for (file, want) in &expected {
        let path = conformance_dir().join("scenarios").join(sub).join(file);
        let scenario = read_scenario(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let got = match rollout_core::plan::forecast(&scenario) {
            Ok(f) => serde_json::to_value(f).unwrap(),
            Err(e) => {
                failures.push(format!("{file}: {e}"));
                continue;
            }
        };
        for key in FIGURES {
            if got.get(key) != want.get(key) {
                failures.push(format!(
                    "{file}: {key} is {:?}, the reference says {:?}",
                    got.get(key),
                    want.get(key)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} forecasts disagree with plan_metrics.py:\n{}",
        failures.len(),
        expected.len(),
        failures.join("\n")
    );
    expected.len()
}

#[test]
fn named_scenarios_forecast_as_the_reference() {
    assert_eq!(check(""), 17, "the named traces with a setImage action");
}

#[test]
fn random_scenarios_forecast_as_the_reference() {
    assert_eq!(
        check("random"),
        149,
        "the random traces with a setImage action"
    );
}

#[test]
fn settled_scenarios_forecast_as_the_reference() {
    assert_eq!(
        check("settle"),
        118,
        "the settled traces with a setImage action"
    );
}
