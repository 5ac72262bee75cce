//! Compare's views (`crate::state::compare` holds its reducer): B's stage, the figures beside
//! each stage, the switch and the bar of B's settings.

use crate::settings::{Field, FormControl, Settings, StrategyKind};
use crate::state::compare::{Compare, CompareMsg, Figures};
use rollout_facade::plan::Forecast;
use std::rc::Rc;
use yew::prelude::*;

/// `2 rounds`, `1 round`.
fn rounds(n: u32) -> String {
    if n == 1 {
        "1 round".to_string()
    } else {
        format!("{n} rounds")
    }
}

/// One row of the figures table: the time to complete in seconds (the rounds beside it), the
/// peak pod count and the lowest availability.
fn figures_row(side: &'static str, title: &str, f: &Figures) -> Html {
    match f {
        Ok(f) => {
            let done = f.complete_round.map(|r| r - f.start_round);
            html! {
                <tr data-testid={format!("compare-figures-{side}")} data-complete-round={f.complete_round.map(|r| r.to_string())}
                    data-rounds={done.map(|r| r.to_string())} data-seconds={f.duration_seconds.map(|s| s.to_string())}
                    data-peak={f.peak_pods.to_string()}
                    data-min-available={f.min_available.map(|m| m.to_string())}>
                    <th scope="row">{ title.to_string() }</th>
                    <td>{ match (done, f.duration_seconds) {
                        (Some(r), Some(s)) => format!("{s} s ({})", rounds(r)),
                        (Some(r), None) => rounds(r),
                        _ => "does not complete".to_string(),
                    } }</td>
                    <td>{ f.peak_pods }</td>
                    <td>{ f.min_available.map_or("–".to_string(), |m| m.to_string()) }</td>
                </tr>
            }
        }
        Err(e) => html! {
            <tr data-testid={format!("compare-figures-{side}")}>
                <th scope="row">{ title.to_string() }</th>
                <td colspan="3">{ e.clone() }</td>
            </tr>
        },
    }
}

/// What [`compare_bar`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct CompareBarProps {
    /// The state.
    pub compare: Rc<Compare>,
    /// A's settings, for the row that says what A is.
    pub a: Settings,
    /// Sends a message to Compare.
    pub on_msg: Callback<CompareMsg>,
    /// A has nothing more to do (its Step is off): B may step on alone.
    pub a_done: bool,
}

/// `RollingUpdate 1 / 0, 10 replicas, minReadySeconds 0`.
fn describe(s: &Settings) -> String {
    let strategy = match s.strategy {
        StrategyKind::RollingUpdate => format!(
            "RollingUpdate, maxSurge {}, maxUnavailable {}",
            s.max_surge, s.max_unavailable
        ),
        StrategyKind::Recreate => "Recreate".to_string(),
    };
    format!(
        "{strategy}; {} replicas; minReadySeconds {}",
        s.replicas, s.min_ready_seconds
    )
}

/// B's settings and both sides' figures.
pub fn compare_bar(props: &CompareBarProps) -> Html {
    let c = &props.compare;
    let v = &c.variant;
    let input = |field: Field, testid: &'static str, label: &'static str, mode: &'static str| {
        let on_msg = props.on_msg.clone();
        let id = format!("compare-{}", field.id());
        let oninput = Callback::from(move |e: InputEvent| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_msg.emit(CompareMsg::Set(field, el.value()));
        });
        let disabled = v.strategy == StrategyKind::Recreate
            && matches!(field, Field::MaxSurge | Field::MaxUnavailable);
        html! {
            <div class="compare-field">
                <label for={id.clone()}>{ label }</label>
                <input id={id} type="text" inputmode={mode} data-testid={testid} value={v.get(field).to_string()}
                    {oninput} {disabled} aria-invalid={c.problem.is_some().then_some("true")} />
            </div>
        }
    };
    // Probing B's next change clones its simulation: only once A is done.
    let b_can_step = props.a_done && c.session.as_ref().is_some_and(|s| s.borrow().can_step());
    let on_strategy = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_msg.emit(CompareMsg::Set(Field::Strategy, el.value()));
        })
    };
    html! {
        <section class="compare-bar" data-testid="compare-bar" aria-labelledby="compare-title">
            <h2 class="compare-title" id="compare-title">{ "Compare: A is this page's Deployment, B a variant" }</h2>
            <p class="compare-a">{ "A: " }{ describe(&props.a) }</p>
            <div class="compare-fields" role="group" aria-label="B's settings">
                <div class="compare-field">
                    <label for="compare-strategy">{ "B strategy" }</label>
                    <select id="compare-strategy" data-testid="compare-strategy" onchange={on_strategy}>
                        { for [StrategyKind::RollingUpdate, StrategyKind::Recreate].iter().map(|k| html! {
                            <option value={k.as_str()} selected={*k == v.strategy}>{ k.as_str() }</option>
                        }) }
                    </select>
                </div>
                { input(Field::MaxSurge, "compare-max-surge", "maxSurge", "text") }
                { input(Field::MaxUnavailable, "compare-max-unavailable", "maxUnavailable", "text") }
                { input(Field::Replicas, "compare-replicas", "replicas", "numeric") }
                { input(Field::MinReadySeconds, "compare-min-ready", "minReadySeconds", "numeric") }
            </div>
            if props.a_done && b_can_step {
                <p class="compare-on">
                    { "A has nothing more to do; B is still going. " }
                    <button type="button" class="btn" data-testid="compare-step-b"
                        onclick={let m = props.on_msg.clone(); Callback::from(move |_: MouseEvent| m.emit(CompareMsg::StepB))}>
                        { "Step B" }
                    </button>
                </p>
            }
            if let Some(p) = &c.problem {
                <p class="validation compare-problem" role="alert" data-testid="compare-problem">{ p.clone() }</p>
            }
            if let Some((a, b)) = &c.figures {
                <table class="compare-figures" data-testid="compare-figures">
                    <caption>{ "The rollout of the last image change, as the planner forecasts it (the same controllers, run to the end)" }</caption>
                    <thead><tr>
                        <th scope="col">{ "Stage" }</th>
                        <th scope="col">{ "Time to complete" }</th>
                        <th scope="col">{ "Peak pods" }</th>
                        <th scope="col">{ "Lowest availability" }</th>
                    </tr></thead>
                    <tbody>
                        { figures_row("a", "A", a) }
                        { figures_row("b", "B", b) }
                    </tbody>
                </table>
            }
        </section>
    }
}

/// The Compare switch for the stage's bar; B starts as a copy of `a` (A's settings).
pub fn toggle(compare: &UseReducerHandle<Compare>, a: &Settings) -> Html {
    let on = compare.on;
    let onclick = {
        let (d, a) = (compare.dispatcher(), a.clone());
        Callback::from(move |_: MouseEvent| {
            d.dispatch(if on {
                CompareMsg::Close
            } else {
                CompareMsg::Open(Some(Box::new(a.clone())))
            })
        })
    };
    html! {
        <button type="button" class={classes!("btn", "btn-toggle", on.then_some("is-on"))} data-testid="compare-toggle"
            aria-pressed={if on { "true" } else { "false" }} {onclick}
            title="Compare: a second stage with a variant of the settings, in step with this one">
            <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 4h8v16H3zM13 4h8v16h-8zM5 6v12h4V6zM15 6v12h4V6z" /></svg>
            <span>{ if on { "Stop comparing" } else { "Compare" } }</span>
        </button>
    }
}

/// Compare's bar: B's settings and both sides' figures (nothing while Compare is off);
/// `a_done`: A's Step is off.
pub fn bar(compare: &UseReducerHandle<Compare>, a: &Settings, a_done: bool) -> Html {
    if !compare.on {
        return Html::default();
    }
    let on_msg = {
        let d = compare.dispatcher();
        Callback::from(move |m: CompareMsg| d.dispatch(m))
    };
    html! {
        { compare_bar(&CompareBarProps { compare: (**compare).clone().into_rc(), a: a.clone(), on_msg, a_done }) }
    }
}

/// One figure of a side: its name, its value in words, and the other side's when they differ.
fn figure_rows(mine: &Forecast, other: Option<&Forecast>, other_name: &str) -> Html {
    let duration = |f: &Forecast| match (f.complete_round, f.duration_seconds) {
        (Some(_), Some(s)) => format!("{s} s"),
        (Some(r), None) => rounds(r - f.start_round),
        _ => "does not complete".to_string(),
    };
    let lowest = |f: &Forecast| f.min_available.map_or("–".to_string(), |m| m.to_string());
    let items: Vec<(&str, &str, String, Option<String>)> = vec![
        (
            "duration",
            "Time to complete",
            duration(mine),
            other.map(duration),
        ),
        (
            "peak",
            "Peak pods",
            mine.peak_pods.to_string(),
            other.map(|o| o.peak_pods.to_string()),
        ),
        (
            "lowest",
            "Lowest availability",
            lowest(mine),
            other.map(lowest),
        ),
    ];
    items.into_iter().map(|(key, name, value, theirs)| {
        let differs = theirs.as_ref().is_some_and(|t| *t != value);
        html! {
            <div class={classes!("compare-fig", differs.then_some("compare-fig-differs"))}
                data-testid={format!("compare-fig-{key}")} data-differs={differs.to_string()}>
                <dt>{ name }</dt>
                <dd><strong>{ value }</strong>
                    if differs {
                        <span class="compare-fig-vs">{ format!(" (differs: {other_name} {})", theirs.unwrap_or_default()) }</span>
                    }
                </dd>
            </div>
        }
    }).collect()
}

/// A side's figures above its stage (`b`: B's, else A's), those that differ from the other
/// side's marked: the forecast of the last image change, by `plan::forecast`.
pub fn figures_beside(compare: &UseReducerHandle<Compare>, b: bool) -> Html {
    let Some((fa, fb)) = &compare.figures else {
        return Html::default();
    };
    let (mine, other, side, other_name) = if b {
        (fb, fa, "b", "A")
    } else {
        (fa, fb, "a", "B")
    };
    let body = match &**mine {
        Ok(f) => html! { <dl>{ figure_rows(f, (**other).as_ref().ok(), other_name) }</dl> },
        Err(e) => html! { <p>{ e.clone() }</p> },
    };
    html! {
        <section class="compare-figs" data-testid={format!("compare-figs-{side}")} aria-label={format!("{}'s rollout, forecast", side.to_ascii_uppercase())}>
            <p class="compare-figs-title"><strong>{ side.to_ascii_uppercase() }</strong>{ ": the rollout of the last image change, forecast to its end" }</p>
            { body }
        </section>
    }
}

/// B's stage (nothing while Compare is off or B cannot run).
pub fn stage_b(compare: &UseReducerHandle<Compare>) -> Html {
    if !compare.on {
        return Html::default();
    }
    let Some(s) = compare.session.as_ref() else {
        return Html::default();
    };
    let s = s.borrow();
    let sim = s.sim();
    let mut cluster = rollout_facade::view::cluster_view(sim);
    let replica_sets: Rc<Vec<Rc<rollout_facade::view::ReplicaSetView>>> = Rc::new(
        std::mem::take(&mut cluster.replica_sets)
            .into_iter()
            .map(Rc::new)
            .collect(),
    );
    let budget = cluster
        .deployments
        .first()
        .map(|d| rollout_facade::view::budget_view(d, replica_sets.iter().map(|rs| &**rs)));
    let caption = match &compare.caption {
        Some(c) => format!("B · {c}"),
        None => "B: nothing has changed yet".to_string(),
    };
    // B's own clock: the seconds A's shows while A steps (Step B moves it on alone).
    let tools = html! {
        { crate::components::clock(sim.now(), sim.round(), None) }
    };
    html! {
        <crate::components::stage::Stage testid="stage-b" title={AttrValue::from("B: the variant")} {tools}
            replica_sets={replica_sets} departed={rollout_facade::ui_support::departed_pods(sim)}
            {budget} caption={AttrValue::from(caption)} version={compare.version} live={false}
            kubernetes={Some(s.scenario().kubernetes_version)} />
    }
}

impl Compare {
    fn into_rc(self) -> Rc<Compare> {
        Rc::new(self)
    }
}
