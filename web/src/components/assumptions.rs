//! What the Plan page assumes about the cluster, because a manifest does not say it: the
//! `rollout plan` flags and `plan()` options, in the same words and with the same defaults
//! (an empty field is the default, shown as its placeholder). The image pull, when the app
//! answers its probes, the termination (empty: the manifest's `terminationGracePeriodSeconds`,
//! which the forecast's model names), the nodes, the round, a new image that never becomes
//! ready; the traffic in front of it (load, a pod's capacity, the endpoint delay, the exit after
//! SIGTERM, the `preStop` sleep: `rollout plan`'s `--load` … `--pre-stop`, folded under one
//! summary until opened). The words of what follows (the start-up of a new pod, where the termination came
//! from) are the core's, from the forecast's resolved model.

use crate::plan_api::ModelOptions;
use rollout_facade::plan::manifest::ResolvedModel;
use serde_json::Value;
use yew::prelude::*;

/// What [`assumptions`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct AssumptionsProps {
    /// The options the forecast uses (the page's changes over the defaults).
    pub model: ModelOptions,
    /// The model the last forecast resolved (defaults filled in), when there is one.
    pub resolved: Option<ResolvedModel>,
    /// An assumption changed: its option name (`pull`) and the text typed (`true`/`false` for
    /// the bad image).
    pub on_change: Callback<(&'static str, String)>,
}

fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// One assumption: a number input named by its `rollout plan` flag (the title), whose
/// placeholder is the default the forecast used.
fn field(
    props: &AssumptionsProps,
    name: &'static str,
    label: &'static str,
    flag: String,
    default: String,
) -> Html {
    let on_change = props.on_change.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        on_change.emit((name, input.value()));
    });
    let id = format!("assume-{name}");
    // A rate takes up to six digits (and "no limit" as its placeholder).
    let rate = matches!(name, "load" | "podCapacity");
    html! {
        <label class="assume" for={id.clone()} title={flag}>
            <span>{ label }</span>
            <span class="assume-input">
                <input {id} class={classes!(rate.then_some("assume-rate"))} type="number" min="0" inputmode="numeric" data-testid={format!("assume-{name}")}
                    value={text_of(props.model.get(name))} placeholder={default} {oninput} />
                { match name { "nodes" => "", "load" | "podCapacity" => "req/s", _ => "s" } }
            </span>
        </label>
    }
}

/// The assumptions, each an input named by its `rollout plan` flag.
pub fn assumptions(props: &AssumptionsProps) -> Html {
    let m = &props.model;
    let r = props.resolved.as_ref();
    let field = |name, label, flag, default| field(props, name, label, flag, default);
    let bad_image = m.get("badImage") == Some(&Value::Bool(true))
        || m.get("badImage") == Some(&Value::String("true".into()));
    let on_bad = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_change.emit(("badImage", input.checked().to_string()));
        })
    };
    let n = |f: fn(&ResolvedModel) -> i64, fallback: i64| r.map_or(fallback, f).to_string();
    html! {
        <section class="plan-assumptions" id="plan-model" data-testid="plan-model" data-model={m.to_value().to_string()}
            aria-labelledby="assume-title">
            <h3 id="assume-title" class="assume-title">{ "Assumed, not read from the manifest" }</h3>
            <div class="assume-row">
                { field("pull", "Image pull", "--pull".into(), n(|r| r.startup.assumed.pull_seconds, 0)) }
                { field("appReady", "App ready", "--app-ready".into(), n(|r| r.startup.assumed.app_ready_seconds, 0)) }
                { field("termination", "Termination", r.map_or("--termination".into(), |r| format!("--termination: {}", r.termination_summary())), n(|r| r.termination_seconds, 30)) }
                { field("nodes", "Nodes", "--nodes".into(), n(|r| i64::from(r.nodes), 3)) }
                { field("secondsPerRound", "Round", "--seconds-per-round".into(), n(|r| r.seconds_per_round, 1)) }
                <label class="assume assume-check" for="assume-badImage" title="--bad-image">
                    <input id="assume-badImage" type="checkbox" data-testid="assume-badImage" checked={bad_image} onchange={on_bad} />
                    <span>{ "Bad image" }</span>
                </label>
            </div>
            { traffic_assumptions(props) }
            if let Some(r) = r {
                <p class="panel-sub assume-note" data-testid="assume-read">{ r.pod_summary() }</p>
            }
        </section>
    }
}

/// The five traffic assumptions (`--load` … `--pre-stop`) folded under one summary: closed
/// (the page's first screen keeps the editor, the figures and the heat map) and left to the
/// browser to open and close; the summary says the load and each assumption typed or brought
/// by a link ("Service and requests · 400 req/s, capacity 50"); opened, each field's
/// placeholder is the default the forecast used.
fn traffic_assumptions(props: &AssumptionsProps) -> Html {
    let r = props.resolved.as_ref();
    let n = |f: fn(&ResolvedModel) -> i64, fallback: i64| r.map_or(fallback, f).to_string();
    let typed = |name: &str, label: &str| {
        props
            .model
            .get(name)
            .map(|v| format!(", {label} {}", text_of(Some(v))))
            .unwrap_or_default()
    };
    let load = r.map_or(String::new(), |r| format!(" · {} req/s", r.traffic.load));
    let shown = format!(
        "{load}{}{}{}{}",
        typed("podCapacity", "capacity"),
        typed("endpointDelay", "delay"),
        typed("exitAfterSigterm", "exit"),
        typed("preStop", "preStop")
    );
    let field =
        |name, label, flag: &str, default| field(props, name, label, flag.to_string(), default);
    html! {
        <details class="assume-traffic" data-testid="assume-traffic">
            <summary>{ "Service and requests" }<span class="assume-load">{ shown }</span></summary>
            <div class="assume-row">
                { field("load", "Load", "--load", n(|r| i64::from(r.traffic.load), 100)) }
                { field("podCapacity", "Pod capacity", "--pod-capacity", r.and_then(|r| r.traffic.pod_capacity).map_or("no limit".into(), |c| c.to_string())) }
                { field("endpointDelay", "Endpoint delay", "--endpoint-delay", n(|r| r.traffic.endpoint_delay_seconds, 1)) }
                { field("exitAfterSigterm", "Exit after SIGTERM", "--exit-after-sigterm", n(|r| r.traffic.exit_after_sigterm_seconds, 0)) }
                { field("preStop", "preStop sleep", "--pre-stop", n(|r| r.traffic.pre_stop_sleep_seconds, 0)) }
            </div>
        </details>
    }
}
