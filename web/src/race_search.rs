//! "Find a race": what the JavaScript API's `findRace` reads and runs (`crate::api::races`),
//! the same search as `rollout races SCENARIO --json` (the core's breadth-first search over
//! schedules, `rollout_facade::races::search_with_progress`), and how its outcome is said.
//!
//! ```js
//! findRace("expectations", { mode: "noexp" })
//! // {depth: 5, states: 152, violation: {schedule: ["setImage web:2", "deliver-dc", …],
//! //                                     violations: ["maxSurge: 5 pods > 3 + 1"]}}
//! findRace(raceScenario, { depth: 12, maxStates: 500000 }, (depth, states) => …)
//! ```
//!
//! The subject is a teaching walk-through's id (`expectations`, `conflict`, `stale-status`)
//! or a race scenario (`../shared/races/README.md`), as an object or JSON text. The options
//! are checked here, before the search: a depth or a state cap that is not a whole number, an
//! unknown option or mode, a scenario past the page's limits are refused with a message; a
//! cap above the core's limit is refused with the core's own message.

use rollout_facade::limits;
use rollout_facade::races::{
    search_with_progress, Mode, RaceScenario, SearchError, SearchOptions, SearchReport,
    Walkthrough, DEFAULT_DEPTH, DEFAULT_MAX_STATES, MAX_SCHEDULE_STEPS, MAX_STATES_LIMIT,
    WALKTHROUGHS,
};
use serde_json::Value;

/// What happens to a search in the worker (`crate::state::race_search` reduces them).
#[derive(Clone, Debug, PartialEq)]
pub enum RaceMsg {
    /// A search to this depth starts (the last outcome is forgotten).
    Start(usize),
    /// The worker's progress: the level, the states visited.
    Progress(usize, usize),
    /// The worker's report.
    Done(SearchReport),
    /// The worker's (or the worker's start's) error.
    Failed(String),
    /// Cancel was pressed (the worker is terminated).
    Cancel,
}

/// The options `findRace` takes.
pub const OPTION_NAMES: [&str; 3] = ["depth", "maxStates", "mode"];

/// A mode by its CLI name ([`Mode::from_id`]), or `findRace`'s refusal.
pub fn mode_of(id: &str) -> Result<Mode, String> {
    Mode::from_id(id).ok_or_else(|| {
        format!(
            "findRace: mode `{}`: expected real, noexp, norv or guard",
            limits::prefix(id, 40)
        )
    })
}

/// A search asked for: the scenario (its mode applied) and how far.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceQuery {
    /// The scenario, with the mode's switches when a mode was given.
    pub scenario: RaceScenario,
    /// Depth and state cap.
    pub options: SearchOptions,
}

/// The scenario `findRace` is given: a walk-through's id, or a race scenario (an object, or
/// JSON text).
pub fn scenario_of(subject: &Value) -> Result<RaceScenario, String> {
    let value = match subject {
        Value::String(text) if text.trim_start().starts_with('{') => {
            crate::js_input::json_of_text(text, "the race scenario")?
        }
        Value::String(id) => {
            return Walkthrough::find(id)
                .map(Walkthrough::scenario)
                .ok_or_else(|| {
                    let ids: Vec<&str> = WALKTHROUGHS.iter().map(|w| w.id).collect();
                    format!(
                        "findRace: no walk-through `{}`; there are {} (or give a race scenario)",
                        limits::prefix(id, 40),
                        ids.join(", ")
                    )
                })
        }
        Value::Null => return Err("findRace: the race scenario is missing".into()),
        other => other.clone(),
    };
    if !RaceScenario::is_race(&value) {
        return Err("Invalid race scenario: it has no schedule (a race scenario lists its steps in `schedule`)".into());
    }
    let rs = RaceScenario::from_value(&value).map_err(|e| format!("Invalid race scenario: {e}"))?;
    limits::check_scenario(&rs.scenario).map_err(|e| format!("Invalid race scenario: {e}"))?;
    Ok(rs)
}

/// A whole number option, at most `max` (`why` says what the limit is).
fn whole(v: &Value, name: &str, max: u64, why: &str) -> Result<Option<u64>, String> {
    match v {
        Value::Null => Ok(None),
        Value::Number(n) => match n.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            Some(n) => Err(format!(
                "findRace: {name} {n} is more than {}{why}",
                limits::group(max as i64)
            )),
            None => Err(format!(
                "findRace: {name} {n} is not a whole number of at least 0"
            )),
        },
        other => Err(format!(
            "findRace: {name} must be a whole number, not {}",
            limits::prefix(&other.to_string(), 40)
        )),
    }
}

/// Reads `findRace`'s options (`null`: the defaults, depth 12) for `scenario`.
pub fn query_of(scenario: RaceScenario, options: &Value) -> Result<RaceQuery, String> {
    let empty = serde_json::Map::new();
    let map = match options {
        Value::Null => &empty,
        Value::Object(map) => map,
        _ => return Err("findRace: the options must be an object".into()),
    };
    if let Some(k) = map.keys().find(|k| !OPTION_NAMES.contains(&k.as_str())) {
        return Err(format!(
            "findRace: unknown option `{}`, expected one of {}",
            limits::prefix(k, 40),
            OPTION_NAMES.join(", ")
        ));
    }
    let field = |k: &str| map.get(k).unwrap_or(&Value::Null);
    let depth = whole(
        field("depth"),
        "depth",
        MAX_SCHEDULE_STEPS as u64,
        ", the most steps a schedule holds",
    )?;
    // Above the core's limit the core's own message (rollout races --max-states says the same).
    let max_states = whole(field("maxStates"), "maxStates", u64::MAX, "")?;
    if let Some(cap) = max_states.filter(|&c| c > MAX_STATES_LIMIT as u64) {
        return Err(SearchError::CapTooHigh(cap).to_string());
    }
    let scenario = match field("mode") {
        Value::Null => scenario,
        Value::String(id) => mode_of(id)?.apply(&scenario),
        other => {
            return Err(format!(
                "findRace: mode must be real, noexp, norv or guard, not {}",
                limits::prefix(&other.to_string(), 40)
            ))
        }
    };
    Ok(RaceQuery {
        scenario,
        options: SearchOptions {
            depth: depth.map_or(DEFAULT_DEPTH, |d| d as usize),
            max_states: max_states.map_or(DEFAULT_MAX_STATES, |c| c as usize),
        },
    })
}

/// Runs the search, calling `progress(depth, states)` after each level and every 16,384
/// states (false stops it: "the search was cancelled").
pub fn run(
    query: &RaceQuery,
    progress: impl FnMut(usize, usize) -> bool,
) -> Result<SearchReport, String> {
    search_with_progress(&query.scenario, query.options, progress).map_err(|e| e.to_string())
}

/// The outcome in words: `No race to depth 12: 12,700 states.` or `Found a race in 5 steps:
/// deliver-dc, sync-dc, deliver-rs, sync-rs, sync-rs. Broken: maxSurge: 5 pods > 3 + 1.`
/// (the steps after the scenario's start).
pub fn outcome_text(report: &SearchReport) -> String {
    let states = limits::group(report.states as i64);
    match &report.violation {
        None => format!("No race to depth {}: {states} states.", report.depth),
        Some(found) => {
            let start = found.schedule.len().saturating_sub(report.depth);
            format!(
                "Found a race in {} step{}: {}. Broken: {}. ({states} states)",
                report.depth,
                if report.depth == 1 { "" } else { "s" },
                found.schedule[start..].join(", "),
                found.violations.join("; ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn query(subject: Value, options: Value) -> Result<RaceQuery, String> {
        query_of(scenario_of(&subject)?, &options)
    }

    #[test]
    fn walkthroughs_and_scenarios_are_read_and_bad_input_named() {
        let q = query(json!("expectations"), Value::Null).unwrap();
        assert_eq!(q.options.depth, DEFAULT_DEPTH);
        assert_eq!(q.options.max_states, DEFAULT_MAX_STATES);
        assert!(q.scenario.expectations && q.scenario.conflicts);
        let q = query(json!("conflict"), json!({"mode": "noexp", "depth": 3})).unwrap();
        assert!(!q.scenario.expectations && q.scenario.conflicts);
        assert_eq!(q.options.depth, 3);
        let q = query(json!("conflict"), json!({"mode": "norv"})).unwrap();
        assert!(q.scenario.expectations && !q.scenario.conflicts);
        let text = std::fs::read_to_string(
            "../../shared/races/scenarios/race-teach-expectations-noexp.json",
        )
        .unwrap();
        let q = query(Value::String(text.clone()), Value::Null).unwrap();
        assert!(
            !q.scenario.expectations,
            "the scenario's own switch, no mode given"
        );
        let object: Value = serde_json::from_str(&text).unwrap();
        let q = query(object, json!({"mode": "real"})).unwrap();
        assert!(
            q.scenario.expectations,
            "a mode overrides the scenario's switches"
        );

        let err = |s: Value, o: Value| query(s, o).unwrap_err();
        assert!(err(json!("nope"), Value::Null)
            .contains("no walk-through `nope`; there are expectations, conflict, stale-status"));
        assert!(err(json!({"name": "x"}), Value::Null).contains("no schedule"));
        assert!(err(json!({"schedule": ["jump"]}), Value::Null)
            .starts_with("Invalid race scenario: schedule[0]"));
        assert!(err(json!(7), Value::Null).starts_with("Invalid race scenario"));
        assert_eq!(
            err(json!("expectations"), json!({"deep": 3})),
            "findRace: unknown option `deep`, expected one of depth, maxStates, mode"
        );
        assert!(err(json!("expectations"), json!({"depth": 3.5}))
            .contains("depth 3.5 is not a whole number"));
        assert!(err(json!("expectations"), json!({"depth": -1}))
            .contains("depth -1 is not a whole number"));
        assert!(err(json!("expectations"), json!({"depth": "12"}))
            .contains("depth must be a whole number"));
        assert!(err(json!("expectations"), json!({"depth": 10_001}))
            .contains("more than 10,000, the most steps a schedule holds"));
        assert_eq!(
            err(json!("expectations"), json!({"mode": "fast"})),
            "findRace: mode `fast`: expected real, noexp, norv or guard"
        );
        // Every mode the Races view runs is taken, 1.37's guard too.
        for id in ["real", "noexp", "norv", "guard"] {
            assert!(mode_of(id).is_ok(), "{id}");
        }
        assert_eq!(
            err(json!("expectations"), json!([1])),
            "findRace: the options must be an object"
        );
        // Above the cap: the core's message, the same `rollout races --max-states` gives.
        let over = MAX_STATES_LIMIT + 1;
        assert_eq!(
            err(json!("expectations"), json!({ "maxStates": over })),
            SearchError::CapTooHigh(over as u64).to_string()
        );
    }

    #[test]
    fn the_search_finds_the_race_without_expectations_and_words_it() {
        let q = query(json!("expectations"), json!({"mode": "noexp"})).unwrap();
        let mut calls = 0;
        let report = run(&q, |_, _| {
            calls += 1;
            true
        })
        .unwrap();
        assert!(calls > 0);
        let found = report
            .violation
            .clone()
            .expect("a race without expectations");
        assert_eq!(found.schedule[0], "setImage web:2");
        assert_eq!(found.schedule.len(), report.depth + 1);
        assert!(!found.violations.is_empty());
        let text = outcome_text(&report);
        assert!(
            text.starts_with(&format!(
                "Found a race in {} steps: deliver-dc",
                report.depth
            )),
            "{text}"
        );
        assert!(text.contains("Broken: maxSurge"), "{text}");
        // Shallow and real: none, in words; a callback returning false stops the search.
        let q = query(json!("expectations"), json!({"depth": 3})).unwrap();
        let report = run(&q, |_, _| true).unwrap();
        assert_eq!(
            outcome_text(&report),
            format!(
                "No race to depth 3: {} states.",
                limits::group(report.states as i64)
            )
        );
        assert_eq!(
            run(&q, |_, _| false).unwrap_err(),
            "the search was cancelled"
        );
    }
}
