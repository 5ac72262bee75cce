//! Every scenario the project ships or is measured against stays within the page's limits
//! (`rollout_core::limits`, the work limit included): the conformance scenarios, the race
//! scenarios (their schedule and expectations aside), the benchmarks and the presets. A limit
//! that refused one of them would refuse what the app, links and `rollout trace` are meant to
//! run.

use rollout_core::limits::check_scenario;
use rollout_core::scenario::{Scenario, SCENARIO_KEYS};
use rollout_tests::{conformance_dir, json_files};
use std::path::Path;

/// Checks every `.json` of `dir` (only a scenario's fields when `race`), returning how many
/// and the refusals.
fn check_dir(dir: &Path, race: bool) -> (usize, Vec<String>) {
    let mut refused = Vec::new();
    let files = json_files(dir);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        if race {
            value
                .as_object_mut()
                .unwrap()
                .retain(|k, _| SCENARIO_KEYS.contains(&k.as_str()));
        }
        let s = Scenario::from_value(&value).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(e) = check_scenario(&s) {
            refused.push(format!("{}: {e}", path.display()));
        }
    }
    (files.len(), refused)
}

#[test]
fn shipped_scenarios_are_within_the_page_limits() {
    let conformance = conformance_dir().join("scenarios");
    let shared = conformance_dir().join("..");
    let mut total = 0;
    let mut refused = Vec::new();
    for (dir, race) in [
        (conformance.clone(), false),
        (conformance.join("random"), false),
        (conformance.join("settle"), false),
        (shared.join("races/scenarios"), true),
        (shared.join("bench"), false),
    ] {
        let (n, r) = check_dir(&dir, race);
        assert!(n > 0, "no scenarios in {}", dir.display());
        total += n;
        refused.extend(r);
    }
    // 18 named, 200 random, 142 settled, 39 races, 2 benchmarks.
    assert_eq!(total, 401);
    for p in rollout_core::presets::presets() {
        if let Err(e) = check_scenario(&p.scenario) {
            refused.push(format!("preset {}: {e}", p.id));
        }
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}
