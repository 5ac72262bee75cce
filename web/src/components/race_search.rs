//! "Find a race": a depth, the controllers (real, or a counterfactual), a button that searches
//! every schedule to that depth in the page's worker (`crate::hooks::use_race_search`), a
//! progress bar with the states visited, Cancel, and the outcome in words. A counterexample's
//! schedule goes to `on_found`, for the Races view to load.

use crate::hooks::use_race_search::use_race_search;
use crate::race_search::mode_of;
use rollout_facade::races::{Mode, DEFAULT_DEPTH, MAX_SCHEDULE_STEPS};
use serde_json::Value;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The props of [`RaceSearchPanel`].
#[derive(Properties, PartialEq)]
pub struct RaceSearchProps {
    /// What to search, as `findRace` takes it: a walk-through's id (a JSON string) or a race
    /// scenario (a JSON object).
    pub scenario: Rc<Value>,
    /// Called with a counterexample's whole schedule (steps in their text form, the leading
    /// `setImage` included) and the controllers it was found with, once per search that finds
    /// one.
    pub on_found: Callback<(Vec<String>, Mode)>,
    /// A `<section>` region named "Find a race"; off inside a `<rollout-lab>` without
    /// `heading-level`, whose parts must not add regions to the host page.
    #[prop_or(true)]
    pub region: bool,
    /// The controllers chosen at first.
    #[prop_or(Mode::Real)]
    pub mode: Mode,
}

/// The depth as typed: a whole number from 1 to the most steps a schedule holds.
fn depth_of(text: &str) -> Result<usize, String> {
    match text.trim().replace([',', '_'], "").parse::<usize>() {
        Ok(d) if (1..=MAX_SCHEDULE_STEPS).contains(&d) => Ok(d),
        _ => Err(format!(
            "Depth: a whole number from 1 to {}.",
            rollout_facade::limits::group(MAX_SCHEDULE_STEPS as i64)
        )),
    }
}

/// The "Find a race" panel.
#[function_component(RaceSearchPanel)]
pub fn race_search_panel(props: &RaceSearchProps) -> Html {
    let search = use_race_search();
    let depth = use_state(|| DEFAULT_DEPTH.to_string());
    let mode = use_state(|| props.mode);
    // The controllers the last search used (the menu may change after it).
    let searched = use_state(|| props.mode);
    let s = &*search.state;
    // A counterexample goes to the view once, when the search that found it ends.
    {
        // The mode cannot change while a search runs: it is the one the search used.
        let (on_found, found_with) = (props.on_found.clone(), *mode);
        let outcome = s.outcome.clone();
        use_effect_with(outcome, move |outcome| {
            if let Some(Ok(report)) = outcome {
                if let Some(found) = &report.violation {
                    on_found.emit((found.schedule.clone(), found_with));
                }
            }
        });
    }
    let parsed = depth_of(&depth);
    let find = {
        let (start, scenario, mode, parsed, searched) = (
            search.start.clone(),
            props.scenario.clone(),
            *mode,
            parsed.clone(),
            searched.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if let Ok(d) = parsed {
                searched.set(mode);
                start.emit((scenario.clone(), d, mode));
            }
        })
    };
    let cancel = search.cancel.reform(|_: MouseEvent| ());
    let on_depth = {
        let depth = depth.clone();
        Callback::from(move |e: InputEvent| {
            depth.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_mode = {
        let mode = mode.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(m) = mode_of(&v) {
                mode.set(m);
            }
        })
    };
    let state = if s.running { "running" } else { "idle" };
    let found = matches!(&s.outcome, Some(Ok(r)) if r.violation.is_some());
    let outcome = match &s.outcome {
        None => "",
        Some(Ok(_)) if found => "found",
        Some(Ok(_)) => "none",
        Some(Err(_)) => "stopped",
    };
    html! {
        <div class="race-search" role={props.region.then_some("region")} aria-label={props.region.then_some("Find a race")} data-testid="race-search" data-state={state}>
            <div class="race-search-controls">
                <label class="field-label">{ "Depth" }
                    <input type="number" min="1" max={MAX_SCHEDULE_STEPS.to_string()} inputmode="numeric"
                        data-testid="race-depth" value={(*depth).clone()} oninput={on_depth}
                        disabled={s.running} aria-invalid={parsed.is_err().to_string()} />
                </label>
                <label class="field-label">{ "Controllers" }
                    <select data-testid="race-mode" onchange={on_mode} disabled={s.running}>
                        { for Mode::EVERY.iter().map(|m| html! {
                            <option value={m.id()} selected={*m == *mode}>{ m.label() }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="btn btn-primary" data-testid="race-find" onclick={find}
                    disabled={s.running || parsed.is_err()}>{ "Find a race" }</button>
                if s.running {
                    <button type="button" class="btn" data-testid="race-cancel" onclick={cancel}>{ "Cancel" }</button>
                }
            </div>
            if let Err(e) = &parsed {
                <p class="plan-error" data-testid="race-depth-error">{ e.clone() }</p>
            }
            if s.running || s.states > 0 {
                <div class="race-search-progress">
                    <progress data-testid="race-progress" max={s.depth.max(1).to_string()} value={s.level.to_string()}
                        data-states={s.states.to_string()} aria-label="Search progress"
                        aria-valuetext={s.progress_text()} />
                    <span class="panel-sub" data-testid="race-states">{ s.progress_text() }</span>
                </div>
            }
            <p role="status" class={classes!("race-search-outcome", found.then_some("found"))}
                data-testid="race-outcome" data-outcome={outcome} data-mode={mode.id()}>{ s.status_text() }</p>
            if outcome == "none" {
                <p class="race-search-why" data-testid="race-none-why">{ searched.no_race_note() }</p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::depth_of;

    #[test]
    fn the_depth_field_reads_whole_numbers_in_range() {
        assert_eq!(depth_of(" 12 "), Ok(12));
        assert_eq!(depth_of("1,000"), Ok(1000));
        for bad in ["0", "-1", "3.5", "", "x", "10001"] {
            assert_eq!(
                depth_of(bad),
                Err("Depth: a whole number from 1 to 10,000.".into()),
                "{bad}"
            );
        }
    }
}
