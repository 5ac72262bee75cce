//! The Plan page's sweep: maxSurge × maxUnavailable as a heat map and replicas or
//! minReadySeconds as a line chart, run in the worker (`crate::plan_worker`) with a progress
//! bar and Cancel, so the page never waits; the limits a rollout must keep ("peak ≤ N",
//! "lowest availability ≥ M", "finished within T s") grey out the cells that break them.

use super::heat_map::{Figure, HeatMap};
use crate::plan_api::ModelOptions;
use crate::plan_worker::{start_worker, warm, Running, SweepState, WorkerMsg};
use rollout_facade::plan::constraints::Constraints;
use rollout_facade::scenario::DeploymentInput;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The line chart's values of an axis around the Deployment's own: replicas from 1 to twice
/// the current (at least 10) in at most 21 steps; minReadySeconds 0 … 60 s by 5.
pub fn line_values(axis: &str, replicas: i32) -> Vec<i32> {
    if axis == "minReadySeconds" {
        return (0..=60).step_by(5).collect();
    }
    let top = (replicas.saturating_mul(2)).clamp(10, 2_000);
    let step = ((top - 1) / 20 + 1).max(1);
    let mut v: Vec<i32> = (1..=top).step_by(step as usize).collect();
    if v.last() != Some(&top) {
        v.push(top);
    }
    v
}

/// Props of [`SweepPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct SweepPanelProps {
    /// The manifest as typed.
    pub text: AttrValue,
    /// The cluster model.
    pub model: ModelOptions,
    /// The manifest's Deployment, when it reads as one.
    pub deployment: Rc<Option<DeploymentInput>>,
    /// The manifest's own cell.
    pub current: Option<(i32, i32)>,
    /// A cell clicked: load its maxSurge and maxUnavailable into the manifest.
    pub on_pick: Callback<(i32, i32)>,
    /// The Plan page is shown (it stays mounted behind the other pages): only then are the
    /// sweep's workers started ahead of a sweep.
    pub visible: bool,
}

fn on_select<T: 'static>(state: &UseStateHandle<T>, read: fn(&str) -> T) -> Callback<Event> {
    let state = state.clone();
    Callback::from(move |e: Event| {
        let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
        state.set(read(&s.value()));
    })
}

/// One limit's input: empty is no limit.
fn limit_input<T: std::str::FromStr + std::fmt::Display + Copy + 'static>(
    id: &'static str,
    label: &'static str,
    value: Option<T>,
    set: Callback<Option<T>>,
) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        set.emit(input.value().trim().parse().ok());
    });
    html! {
        <label class="field-label limit" for={id}>{ label }
            <input {id} type="number" min="0" inputmode="numeric" data-testid={id} placeholder="any"
                value={value.map(|v| v.to_string()).unwrap_or_default()} {oninput} />
        </label>
    }
}

/// The sweep's progress in words and as the progress bar's `data-state`: running, stopped (a
/// message and no heat map) or done.
fn sweep_status(s: &SweepState) -> (String, &'static str) {
    let status = if s.running {
        format!("{} of {} combinations, in a worker…", s.done, s.total)
    } else {
        s.ms.map_or(String::new(), |ms| {
            format!("{} in {} ms (worker)", s.total, ms.round() as i64)
        })
    };
    let state = if s.running {
        "running"
    } else if s.message.is_some() && s.heat.is_none() {
        "stopped"
    } else {
        "done"
    };
    (status, state)
}

/// The sweep's controls, limits, progress, heat map and line chart.
#[function_component(SweepPanel)]
pub fn sweep_panel(props: &SweepPanelProps) -> Html {
    let figure = use_state(|| Figure::Duration);
    let size = use_state(|| 10i32);
    let line_axis = use_state(|| "replicas".to_string());
    let limits = use_state(Constraints::default);
    let sweep = use_reducer(SweepState::default);
    let running = use_mut_ref(Running::default);
    {
        // The worker and its helpers start as the Plan page is shown, so the first sweep finds
        // them ready (a page that never shows it starts none); they end with the panel.
        let running = running.clone();
        use_effect_with(props.visible, move |visible| {
            if *visible {
                warm(&running);
            }
        });
    }
    {
        let running = running.clone();
        use_effect_with((), move |_| move || running.borrow_mut().stop());
    }
    let run = {
        let (props, size, axis, sweep, running) = (
            props.clone(),
            size.clone(),
            line_axis.clone(),
            sweep.clone(),
            running.clone(),
        );
        Callback::from(move |_: MouseEvent| run_sweep(&props, *size, &axis, &sweep, &running))
    };
    let cancel = cancel_callback(&sweep, &running);
    let c = *limits;
    let (peak, low) = (c.max_peak.map(i64::from), c.min_available.map(i64::from));
    let set_peak = limit_setter(&limits, |c, v| Constraints {
        max_peak: v.map(|v| v as i32),
        ..c
    });
    let set_low = limit_setter(&limits, |c, v| Constraints {
        min_available: v.map(|v| v as i32),
        ..c
    });
    let set_within = limit_setter(&limits, |c, v| Constraints {
        within_seconds: v,
        ..c
    });
    let s = &*sweep;
    let fig = *figure;
    let stale = s.heat.is_some() && s.manifest != props.text.as_str();
    let current_line =
        props
            .deployment
            .as_ref()
            .as_ref()
            .and_then(|d| match s.line_axis.as_str() {
                "minReadySeconds" => Some(d.min_ready_seconds.unwrap_or(0)),
                _ => d.replicas,
            });
    let (status, state) = sweep_status(s);
    // Two boxes: the sweep (controls, limits, heat map) and the line chart, which the page
    // places beside the figures.
    html! { <>
        <section class="panel plan-sweep" aria-labelledby="sweep-title">
            <h3 id="sweep-title" class="visually-hidden">{ "Sweep" }</h3>
            <div class="plan-controls">
                <label class="field-label">{ "Colour" }
                    <select data-testid="plan-figure" onchange={on_select(&figure, Figure::of_key)}>
                        { for Figure::ALL.iter().map(|f| html! { <option value={f.key()} selected={*f == fig}>{ f.label() }</option> }) }
                    </select>
                </label>
                <label class="field-label">{ "Heat map" }
                    <select data-testid="plan-size" onchange={on_select(&size, |v| v.parse().unwrap_or(10))}>
                        <option value="10" selected={*size == 10}>{ "0…10" }</option>
                        <option value="20" selected={*size == 20}>{ "0…20" }</option>
                    </select>
                </label>
                <label class="field-label">{ "Line chart" }
                    <select data-testid="plan-axis" onchange={on_select(&line_axis, str::to_string)}>
                        <option value="replicas" selected={*line_axis == "replicas"}>{ "replicas" }</option>
                        <option value="minReadySeconds" selected={*line_axis == "minReadySeconds"}>{ "minReadySeconds" }</option>
                    </select>
                </label>
            </div>
            if fig == Figure::LostIfFails && props.model.get("fail").and_then(|v| v.as_str()).is_none_or(|t| t.trim().is_empty()) {
                <p class="field-hint" data-testid="lost-if-fails-hint">{ "Availability lost if it fails: type how the new version fails under the forecast (If the new version fails, e.g. crash:after=5s), then run the sweep: each cell is also forecast failing so." }</p>
            }
            <fieldset class="plan-limits">
                <legend class="visually-hidden">{ "Limits (empty: none)" }</legend>
                { limit_input("limit-peak", "Peak pods ≤", peak, set_peak) }
                { limit_input("limit-available", "Lowest availability ≥", low, set_low) }
                { limit_input("limit-within", "Finished within (s)", c.within_seconds, set_within) }
            </fieldset>
            <div class="sweep-status">
                <button type="button" class="btn btn-primary" data-testid="sweep-run" onclick={run} disabled={s.running}>{ "Run sweep" }</button>
                if s.running {
                    <button type="button" class="btn" data-testid="sweep-cancel" onclick={cancel}>{ "Cancel" }</button>
                }
                if s.running || s.total > 0 {
                    <progress data-testid="sweep-progress" max={s.total.max(1).to_string()} value={s.done.to_string()}
                        data-done={s.done.to_string()} data-total={s.total.to_string()} data-state={state}
                        aria-label="Sweep progress" />
                    <span class="panel-sub" data-testid="sweep-status">{ status }</span>
                }
            </div>
            if let Some(m) = &s.message {
                <p class="plan-error" role="alert" data-testid="sweep-message">{ m.clone() }</p>
            }
            if stale {
                <p class="panel-sub" data-testid="sweep-stale">{ "The manifest changed since this sweep; run it again to update." }</p>
            }
            if let Some(rows) = &s.heat {
                <HeatMap rows={rows.clone()} figure={fig} size={s.size} current={props.current}
                    constraints={c} on_pick={props.on_pick.clone()} />
            }
        </section>
        if let Some(rows) = &s.line {
            <figure class="panel plan-figure-box plan-line-box">
                <figcaption class="panel-sub">{ format!("{} against {}", fig.label(), s.line_axis) }</figcaption>
                { Html::from_html_unchecked(super::plan_line::line_chart(rows, fig, &s.line_axis, current_line).into()) }
            </figure>
        }
    </> }
}

/// Starts the sweep of `props`' manifest in the worker: a heat map of maxSurge ×
/// maxUnavailable up to `n`, and a line along `axis`.
fn run_sweep(
    props: &SweepPanelProps,
    n: i32,
    axis: &str,
    sweep: &UseReducerHandle<SweepState>,
    running: &Rc<RefCell<Running>>,
) {
    let input = Value::String(props.text.to_string());
    let options = props.model.to_value();
    let heat_axes = json!({"maxSurge": format!("0..{n}"), "maxUnavailable": format!("0..{n}")});
    let replicas = props.deployment.as_ref().as_ref().and_then(|d| d.replicas);
    let values = line_values(axis, replicas.unwrap_or(1));
    let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    let line_axes = json!({ axis: list.join(",") });
    // The worker checks the axes as `sweep()` does: a bad manifest or a Recreate
    // Deployment comes back as the job's error.
    let heat_size = (n + 1) * (n + 1);
    let jobs = json!({"jobs": [
        {"key": "heat", "input": input, "axes": heat_axes, "options": options, "size": heat_size},
        {"key": "line", "input": input, "axes": line_axes, "options": options, "size": values.len()},
    ]});
    let fresh = SweepState {
        running: true,
        size: n,
        total: (heat_size as usize + values.len()) as u32,
        line_axis: axis.to_string(),
        manifest: props.text.to_string(),
        ..SweepState::default()
    };
    sweep.dispatch(WorkerMsg::Start(Box::new(fresh)));
    if let Err(e) = start_worker(running, jobs, sweep.dispatcher()) {
        sweep.dispatch(WorkerMsg::Error(e));
        sweep.dispatch(WorkerMsg::Done(0.0));
    }
}

/// A callback that sets one of the limits (`set`: the limits with the new value).
fn limit_setter(
    limits: &UseStateHandle<Constraints>,
    set: fn(Constraints, Option<i64>) -> Constraints,
) -> Callback<Option<i64>> {
    let limits = limits.clone();
    Callback::from(move |v: Option<i64>| limits.set(set(*limits, v)))
}

/// Cancel: stops the worker.
fn cancel_callback(
    sweep: &UseReducerHandle<SweepState>,
    running: &Rc<RefCell<Running>>,
) -> Callback<MouseEvent> {
    let (sweep, running) = (sweep.clone(), running.clone());
    Callback::from(move |_: MouseEvent| {
        running.borrow_mut().stop();
        sweep.dispatch(WorkerMsg::Cancel);
        // Ready again for the next sweep (the page is shown: its button was pressed).
        warm(&running);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_values_span_the_setting() {
        assert_eq!(line_values("replicas", 3), (1..=10).collect::<Vec<_>>());
        let v = line_values("replicas", 100);
        assert!(
            v.len() <= 22 && v[0] == 1 && *v.last().unwrap() == 200,
            "{v:?}"
        );
        assert_eq!(line_values("minReadySeconds", 3).len(), 13);
    }
}
