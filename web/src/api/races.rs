//! `findRace`: the search for races of `rollout races SCENARIO --json`, from JavaScript
//! (`crate::race_search`). The app runs it in its worker (`plan-worker.js`, a `race` job).

use super::{error, js_of, js_text};
use crate::js_input;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const RACE_TYPES: &'static str = r#"
/** How far `findRace` searches, and which controllers. */
export interface RaceOptions {
  /** Steps after the scenario's start (after the setup and the schedule's leading setImage); default 12, at most 10,000. */
  depth?: number;
  /** Stop with an error beyond this many distinct states; default 2,000,000, at most 20,000,000. */
  maxStates?: number;
  /** The real controllers, without expectations (`expectations: false`) or last write wins (`conflicts: false`); default: the scenario's own switches (a walk-through's: real). */
  mode?: "real" | "noexp" | "norv";
}
/** What `rollout races SCENARIO --json` prints. */
export interface RaceReport {
  /** The counterexample's steps after the start, or the depth searched to when there is none. */
  depth: number;
  /** Distinct states visited (the start included). */
  states: number;
  /** The shortest schedule that breaks a promise (the whole schedule, its leading setImage included: put in the scenario's `schedule`, it replays the race), and the promises broken after its last step, as the trace words them; null: none to `depth`. */
  violation: null | { schedule: string[]; violations: string[] };
}
/** Called after each depth and every 16,384 states: the depth being explored, the states visited so far. Return false to stop the search (it then throws "the search was cancelled"). */
export type RaceProgress = (depth: number, states: number) => boolean | void;
/**
 * Searches every schedule of a race scenario breadth-first (state hashing over the truth, both caches and the expectations) for the shortest one that breaks maxSurge or maxUnavailable: what `rollout races SCENARIO --json` prints. `scenario` is a teaching walk-through's id ("expectations", "conflict", "stale-status") or a race scenario (object or JSON text, `../shared/races/README.md`). Runs on the calling thread: the app runs it in a Web Worker. Throws the validation message, or the core's when `maxStates` is above its limit or reached before `depth`.
 */
export function findRace(scenario: string | object, options?: RaceOptions | null, onProgress?: RaceProgress): RaceReport;
"#;

/// Searches the schedules of `scenario` (a walk-through's id, or a race scenario as an object
/// or JSON text) for a race, with `options` `{depth, maxStates, mode}`, calling `on_progress(depth,
/// states)` as it goes (false stops it); returns what `rollout races --json` prints.
/// (Its TypeScript declaration is in `RACE_TYPES`.)
#[wasm_bindgen(js_name = findRace, skip_typescript)]
pub fn find_race(
    scenario: JsValue,
    options: Option<JsValue>,
    on_progress: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let subject = match scenario.as_string() {
        Some(text) => serde_json::Value::String(text),
        None if scenario.is_undefined() || scenario.is_null() => serde_json::Value::Null,
        None => js_input::json_of_object(&scenario, "the race scenario").map_err(error)?,
    };
    let options = match options {
        Some(o) if !o.is_undefined() && !o.is_null() => {
            js_input::json_of_object(&o, "the options").map_err(error)?
        }
        _ => serde_json::Value::Null,
    };
    let progress = match on_progress {
        Some(f) if !f.is_undefined() && !f.is_null() => {
            Some(js_input::function(&f, "findRace's onProgress").map_err(error)?)
        }
        _ => None,
    };
    let rs = crate::race_search::scenario_of(&subject).map_err(error)?;
    let query = crate::race_search::query_of(rs, &options).map_err(error)?;
    let mut thrown = None;
    let result = crate::race_search::run(&query, |depth, states| {
        let Some(f) = &progress else { return true };
        match f.call2(
            &JsValue::NULL,
            &(depth as u32).into(),
            &(states as u32).into(),
        ) {
            Ok(v) => v.as_bool() != Some(false),
            Err(e) => {
                thrown = Some(e);
                false
            }
        }
    });
    if let Some(e) = thrown {
        return Err(error(format!("onProgress threw: {}", js_text(&e))));
    }
    js_of(&result.map_err(error)?)
}
