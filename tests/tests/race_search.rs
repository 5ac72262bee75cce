//! The race search (`rollout races`): without expectations it finds a schedule that breaks
//! a promise on each of the five configurations of `../shared/races`, and the schedule it
//! reports replays to a trace whose last step shows the violation; with the real controllers
//! it finds none on 3 replicas (maxSurge 1, maxUnavailable 0).

use rollout_core::races::schedule::{run_race_trace, RaceScenario};
use rollout_core::races::search::{search, SearchError, SearchOptions};
use rollout_tests::races_dir;

fn scenario(name: &str) -> RaceScenario {
    let path = races_dir().join("scenarios").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    RaceScenario::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

const CONFIGURATIONS: [&str; 5] = [
    "3-surge1-unav0",
    "3-25pct",
    "4-surge0-unav1",
    "5-surge2-unav1-graceful",
    "10-25pct",
];

#[test]
fn without_expectations_every_configuration_has_a_race_that_replays() {
    for config in CONFIGURATIONS {
        let name = format!("race-{config}-01-noexp");
        let rs = scenario(&name);
        assert!(!rs.expectations, "{name} is the counterfactual");
        let report = search(
            &rs,
            SearchOptions {
                depth: 12,
                max_states: 2_000_000,
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let found = report
            .violation
            .unwrap_or_else(|| panic!("{name}: no race found to depth 12"));
        assert_eq!(
            found.schedule.len(),
            report.depth + rs.leading_actions(),
            "{name}"
        );
        // Replay: the same scenario with the counterexample as its schedule.
        let mut source = rs.source.clone();
        source["schedule"] = serde_json::json!(found.schedule);
        let replay = RaceScenario::from_value(&source).unwrap();
        let trace = run_race_trace(&replay);
        let last = trace.steps.last().expect("a step");
        assert!(!last.violations.is_empty(), "{name}: replay breaks nothing");
        assert_eq!(last.violations, found.violations, "{name}");
        // Shortest: no step before the last breaks a promise.
        assert!(
            trace.steps[..trace.steps.len() - 1]
                .iter()
                .all(|s| s.violations.is_empty()),
            "{name}: a shorter prefix already broke a promise"
        );
        println!(
            "{name}: {} steps, {} states: {:?}",
            report.depth, report.states, found.schedule
        );
    }
}

/// The 5-pod race of `race-teach-expectations-noexp` (or a shorter one) on 3 replicas.
#[test]
fn without_expectations_the_three_replica_race_has_five_pods_at_most_five_steps() {
    let rs = scenario("race-3-surge1-unav0-01-noexp");
    let report = search(&rs, SearchOptions::default()).unwrap();
    let found = report.violation.expect("a race");
    assert!(report.depth <= 5, "{found:?}");
    assert_eq!(found.violations, ["maxSurge: 5 pods > 3 + 1"]);
}

/// The real controllers: no schedule breaks a promise. Depth 12 (the figure) in
/// release builds; a debug build searches to depth 9, the same code on fewer states, so
/// `cargo test` stays quick (`cargo test --release -p rollout-tests --test race_search` runs
/// the full depth).
#[test]
fn the_real_controllers_have_no_race_on_three_replicas() {
    let depth = if cfg!(debug_assertions) { 9 } else { 12 };
    let rs = scenario("race-3-surge1-unav0-01-real");
    let report = search(
        &rs,
        SearchOptions {
            depth,
            max_states: 5_000_000,
        },
    )
    .unwrap();
    assert_eq!(
        report.violation, None,
        "news: a race with the real controllers"
    );
    assert_eq!(report.depth, depth);
    assert!(report.states > 1000, "states: {}", report.states);
}

#[test]
fn a_search_beyond_its_cap_is_refused_with_a_message() {
    let rs = scenario("race-3-surge1-unav0-01-real");
    let err = search(
        &rs,
        SearchOptions {
            depth: 12,
            max_states: 50,
        },
    )
    .unwrap_err();
    assert!(matches!(err, SearchError::TooManyStates { cap: 50, .. }));
    assert!(err
        .to_string()
        .starts_with("more than 50 states before depth 12"));
    let err = search(
        &rs,
        SearchOptions {
            depth: 3,
            max_states: usize::MAX,
        },
    )
    .unwrap_err();
    assert!(matches!(err, SearchError::CapTooHigh(_)), "{err}");
}

/// Kubernetes 1.37: the ReplicaSet controller waits until its caches hold its own last
/// writes (KEP-5647). Without expectations, every configuration's race above (the new
/// ReplicaSet's pods created twice before the cache shows the first) is gone: the second
/// `sync-rs` finds its cache older than the pods it created and returns. The real
/// controllers stay without a race. Depth 12 in release builds, 8 in debug (as above).
#[test]
fn with_the_1_36_guard_no_configuration_has_a_race_even_without_expectations() {
    let depth = if cfg!(debug_assertions) { 8 } else { 12 };
    for config in CONFIGURATIONS {
        for mode in ["noexp", "real"] {
            let name = format!("race-{config}-01-{mode}");
            let mut rs = scenario(&name);
            rs.scenario.kubernetes_version = rollout_core::version::KubernetesVersion::V1_37;
            let report = search(
                &rs,
                SearchOptions {
                    depth,
                    max_states: 2_000_000,
                },
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(report.violation, None, "{name} under 1.37");
            assert_eq!(report.depth, depth, "{name}");
        }
    }
}
