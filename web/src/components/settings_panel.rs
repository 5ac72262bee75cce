//! The settings: the Deployment spec (replicas, strategy, its parameters) and the cluster
//! model, each with the API's validation message next to it.

use crate::bounds;
use crate::components::{bounds_readout, text_field, BoundsReadoutProps, Select, TextFieldProps};
use crate::settings::{Field, FormControl, Problems, Settings, StrategyKind};
use crate::state::Msg;
use rollout_facade::version::KubernetesVersion;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Replica counts the slider stops at: every count up to 20, then coarser steps to 10,000.
pub const SLIDER_STOPS: &[i32] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 25, 30, 35, 40, 45,
    50, 60, 70, 80, 90, 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1500, 2000,
    3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000,
];

/// The slider position closest to `replicas`.
pub fn slider_index(replicas: &str) -> usize {
    let n = replicas.trim().parse::<i64>().unwrap_or(0);
    SLIDER_STOPS
        .iter()
        .enumerate()
        .min_by_key(|(_, &s)| (i64::from(s) - n).abs())
        .map_or(0, |(i, _)| i)
}

/// What [`settings_panel`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct SettingsPanelProps {
    /// What the form shows.
    pub settings: Settings,
    /// What the Deployment reflects (for "edited" badges).
    pub applied: Settings,
    /// What is wrong.
    pub problems: Problems,
    /// Whether the simulation has started (edits then wait for Apply or Reset).
    pub started: bool,
    /// Receives every change.
    pub on_msg: Callback<Msg>,
}

/// The settings form.
pub fn settings_panel(props: &SettingsPanelProps) -> Html {
    let form = Form {
        props,
        first: props.problems.first_field(),
    };
    html! {
        <>
        { spec_section(&form) }
        { model_section(&form) }
        { traffic_section(&form) }
        </>
    }
}

/// The Deployment's spec: replicas, the strategy and its two limits (with the bounds they
/// give), the fields under "more", and Apply.
fn spec_section(form: &Form) -> Html {
    let props = form.props;
    let s = &props.settings;
    let p = &props.problems;
    let first = form.first;
    let pair_errors = [Field::MaxSurge, Field::MaxUnavailable].map(|f| {
        form.error(f).map(|message| {
            if first == Some(f) {
                html! { <p class="validation" id={format!("{}-error", f.id())} role="alert" data-testid="validation-message">{ message }</p> }
            } else {
                html! { <p class="validation validation-secondary" id={format!("{}-error", f.id())}>{ message }</p> }
            }
        })
    });

    let on_slider = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let i = input.value().parse::<usize>().unwrap_or(0);
            if let Some(v) = SLIDER_STOPS.get(i) {
                on_msg.emit(Msg::Edit(Field::Replicas, v.to_string()));
            }
        })
    };
    let on_apply = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on_msg.emit(Msg::ApplySpec))
    };
    let spec_edited = props.started && s.spec_differs(&props.applied);
    let spec_valid = Field::SPEC.iter().all(|f| p.for_field(*f).is_none());
    let readout = match s.strategy {
        StrategyKind::RollingUpdate if spec_valid => bounds::resolve(s).ok(),
        _ => None,
    };
    let index = slider_index(&s.replicas);

    html! {
    <section class="panel settings" aria-labelledby="settings-title">
        <h2 class="panel-title" id="settings-title">{ "Deployment spec" }</h2>
        <p class="panel-sub">
            if props.started {
                { "Edits are queued as updates: Apply, or kubectl scale for replicas." }
            } else {
                { "Changes apply at once until you take the first step." }
            }
        </p>
        <form class="fields" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            { text_field(&TextFieldProps {
                id: Field::Replicas.id().into(),
                label: Field::Replicas.label().into(),
                hint: "Desired pods: a whole number up to 10,000".into(),
                inputmode: "numeric".into(),
                testid: "replicas-input".into(),
                value: s.replicas.clone().into(),
                error: form.error(Field::Replicas),
                primary_error: first == Some(Field::Replicas),
                error_below: false,
                badge: form.badge(Field::Replicas),
                disabled: false,
                on_change: form.edit(Field::Replicas),
                extra: html! {
                <input
                    class="slider"
                    type="range"
                    min="0"
                    max={(SLIDER_STOPS.len() - 1).to_string()}
                    step="1"
                    value={index.to_string()}
                    aria-label="Replicas (slider)"
                    aria-valuetext={SLIDER_STOPS[index].to_string()}
                    data-testid="replicas-slider"
                    oninput={on_slider}
                />
                },
            }) }
            { strategy_field(form) }
            <div class="field-pair">
                { form.field(Field::MaxSurge, "Extra pods: 1 or 25% (rounded up)", "max-surge-input", false) }
                { form.field(Field::MaxUnavailable, "Pods down: 1 or 25% (rounded down)", "max-unavailable-input", false) }
            </div>
            { for pair_errors.into_iter().flatten() }
            if let Some(b) = readout {
                { bounds_readout(&BoundsReadoutProps { bounds: b }) }
            }
            <details class="more-fields">
                <summary>{ "minReadySeconds, progress deadline, history" }</summary>
                { form.field(Field::MinReadySeconds, "Seconds a ready pod waits before it counts as available", "min-ready-input", true) }
                { form.field(Field::ProgressDeadlineSeconds, "Seconds without progress before ProgressDeadlineExceeded", "progress-deadline-input", true) }
                { form.field(Field::RevisionHistoryLimit, "Old ReplicaSets kept for rollbacks", "history-limit-input", true) }
            </details>
        </form>
        <div class="apply-row">
            <button
                type="button"
                class="btn btn-primary"
                data-testid="apply-button"
                disabled={!spec_edited}
                onclick={on_apply}
            >
                { "Apply changes" }
            </button>
            <span class="apply-hint">
                if spec_edited {
                    { "Queues the edits as patches (kubectl apply) for the next round." }
                } else if props.started {
                    { "No edits to apply." }
                } else {
                    { "Before the first step there is nothing to apply." }
                }
            </span>
        </div>
    </section>
    }
}

/// The strategy menu, its hint and its problem.
fn strategy_field(form: &Form) -> Html {
    let s = &form.props.settings;
    let first = form.first;
    let strategy_error = form.error(Field::Strategy);
    html! {
        <div class={classes!("field", strategy_error.is_some().then_some("field-invalid"))}>
            <div class="field-head">
                <label class="field-label" for={Field::Strategy.id()}>{ "Strategy" }</label>
                if let Some(b) = form.badge(Field::Strategy) {
                    <span class="badge badge-edited">{ b }</span>
                }
            </div>
            <Select
                id={Field::Strategy.id()}
                testid="strategy-select"
                value={s.strategy.as_str()}
                options={vec![
                    (AttrValue::Static("RollingUpdate"), AttrValue::Static("RollingUpdate")),
                    (AttrValue::Static("Recreate"), AttrValue::Static("Recreate")),
                ]}
                describedby={Some(AttrValue::Static("strategy-hint"))}
                on_change={form.edit(Field::Strategy)}
            />
            <p class="field-hint" id="strategy-hint">
                if s.strategy == StrategyKind::Recreate {
                    { "Delete every old pod, then create the new ones" }
                } else {
                    { "Replace pods gradually, within the two limits below" }
                }
            </p>
            if let Some(e) = strategy_error {
                if first == Some(Field::Strategy) {
                    <p class="validation" role="alert" data-testid="validation-message">{ e }</p>
                } else {
                    <p class="validation validation-secondary">{ e }</p>
                }
            }
        </div>
    }
}

/// The cluster model: the controllers' reaction, pod start and stop, nodes, time, and the
/// never-ready image.
fn model_section(form: &Form) -> Html {
    let props = form.props;
    let s = &props.settings;
    let on_never_ready = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_msg.emit(Msg::SetNeverReady(input.checked()));
        })
    };
    let on_reaction = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |v: String| on_msg.emit(Msg::SetInstantReactions(v == "instant")))
    };
    // Like the rest of the model, the reaction shapes every round: once the simulation has
    // started a change waits for Reset (the core says as much: `Session::set_instant_reactions`).
    let reaction_waits = props.started && s.instant_reactions != props.applied.instant_reactions;
    let model_edited = props.started && s.model_differs(&props.applied);
    html! {
    <section class="panel settings" aria-labelledby="model-title">
        <h2 class="panel-title" id="model-title">{ "Cluster model" }</h2>
        <p class="panel-sub">
            if model_edited {
                <strong class="badge badge-edited">{ "Reset to apply" }</strong>
                { " These settings shape the whole run." }
            } else {
                { "How fast pods start and stop. Used from the start (or on Reset)." }
            }
        </p>
        <form class="fields fields-model" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            { kubernetes_field(props) }
            <div class="field field-reaction">
                <div class="field-head">
                    <label class="field-label" for="reaction">{ "Controller reaction" }</label>
                    if reaction_waits {
                        <span class="badge badge-edited">{ "applies on Reset" }</span>
                    }
                </div>
                <Select
                    id="reaction"
                    testid="reaction-select"
                    value={if s.instant_reactions { "instant" } else { "per-hop" }}
                    options={vec![
                        (AttrValue::Static("instant"), AttrValue::Static("instant")),
                        (AttrValue::Static("per-hop"), AttrValue::Static("one round per hop")),
                    ]}
                    describedby={Some(AttrValue::Static("reaction-hint"))}
                    on_change={on_reaction}
                />
                <p class="field-hint" id="reaction-hint" data-testid="reaction-hint">
                    if reaction_waits {
                        { "The controllers' reaction can change only before the first step: Reset to start over with it." }
                    } else if s.instant_reactions {
                        { "Controllers react within the round, as in a real cluster (settled rounds)" }
                    } else {
                        { "Each hop (pod ready → ReplicaSet status → Deployment → scale) waits a round: status trails the pods (informer lag)" }
                    }
                </p>
            </div>
            { form.field(Field::ReadyAfterRounds, "Rounds from creation to Ready", "ready-after-input", true) }
            { form.field(Field::ReadyJitterRounds, "Each pod up to this many rounds later (seeded)", "jitter-input", true) }
            { form.field(Field::Nodes, "Pods spread round-robin over them", "nodes-input", true) }
            { form.field(Field::TerminationRounds, "Rounds a deleted pod stays Terminating", "termination-input", true) }
            { form.field(Field::SecondsPerRound, "Simulated time per round", "seconds-per-round-input", true) }
            { form.field(Field::Failure, "How the next image's app fails, as model.failures and rollout plan --fail name it: crash:after=5s, probe:after=5s, readiness:from=30s,to=90s, slow:ready=45s or pull (empty: it does not)", "failure-input", false) }
            <div class="field field-switch">
                <input
                    id="never-ready"
                    type="checkbox"
                    role="switch"
                    class="switch"
                    data-testid="never-ready-toggle"
                    checked={s.never_ready}
                    aria-describedby="never-ready-hint"
                    onchange={on_never_ready}
                />
                <div>
                    <label class="field-label" for="never-ready">{ "New image never becomes ready" }</label>
                    <p class="field-hint" id="never-ready-hint">
                        { "The next image rolled out is a misspelt tag whose pods never start (like the documentation's nginx:1.161)." }
                    </p>
                </div>
            </div>
        </form>
    </section>
    }
}

/// The Service in front of the Deployment and the requests it gets (the scenario's
/// `model.traffic`): a switch, then the load, a pod's capacity, the endpoint delay, the app's
/// exit after SIGTERM and the `preStop` sleep. No controller reads them, so a change applies at
/// once, wherever the session stands.
fn traffic_section(form: &Form) -> Html {
    let props = form.props;
    let s = &props.settings;
    let on_switch = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_msg.emit(Msg::SetTraffic(input.checked()));
        })
    };
    html! {
    <section class="panel settings" aria-labelledby="traffic-title" data-testid="traffic-settings">
        <h2 class="panel-title" id="traffic-title">{ "Service and requests" }</h2>
        <p class="panel-sub">{ "A model of the users: steady requests to a Service in front of the pods. The controllers never read it, so changes apply at once." }</p>
        <form class="fields fields-model" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class="field field-switch">
                <input id="traffic" type="checkbox" role="switch" class="switch" data-testid="traffic-toggle"
                    checked={s.traffic} aria-describedby="traffic-hint" onchange={on_switch} />
                <div>
                    <label class="field-label" for="traffic">{ "Show the Service and its requests" }</label>
                    <p class="field-hint" id="traffic-hint">
                        { "Its endpoints on the pods, the requests each pod gets, and a strip of served and failed requests a second under the stage." }
                    </p>
                </div>
            </div>
            if s.traffic {
                { form.field(Field::Load, "Requests a second sent to the Service, spread evenly over the endpoints the proxies send to", "load-input", true) }
                { form.field(Field::PodCapacity, "Requests a second one pod serves at most; the excess fails (empty: no limit)", "pod-capacity-input", true) }
                { form.field(Field::EndpointDelaySeconds, "Seconds for an endpoint change to reach kube-proxy on every node", "endpoint-delay-input", true) }
                { form.field(Field::ExitAfterSigtermSeconds, "Seconds the app takes to exit once it gets SIGTERM", "exit-after-sigterm-input", true) }
                { form.field(Field::PreStopSleepSeconds, "lifecycle.preStop sleep before SIGTERM: the pod keeps answering meanwhile", "pre-stop-input", true) }
            }
        </form>
    </section>
    }
}

/// Which Kubernetes release's controllers run: 1.37 (the app's default) or 1.28, the release
/// the conformance fixtures were recorded from. Like the rest of the model it applies at once
/// before the first step and on Reset afterwards.
fn kubernetes_field(props: &SettingsPanelProps) -> Html {
    let s = &props.settings;
    let waits = props.started && s.kubernetes != props.applied.kubernetes;
    let on_change = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |v: String| {
            if let Ok(k) = crate::settings::kubernetes_of(&v) {
                on_msg.emit(Msg::SetKubernetes(k));
            }
        })
    };
    let options: Vec<(AttrValue, AttrValue)> = KubernetesVersion::ALL
        .iter()
        .rev()
        .map(|v| {
            let label = if *v == KubernetesVersion::DEFAULT {
                format!("{} (supported today)", v.release())
            } else {
                v.release().to_string()
            };
            (AttrValue::Static(v.as_str()), AttrValue::from(label))
        })
        .collect();
    html! {
        <div class="field field-kubernetes">
            <div class="field-head">
                <label class="field-label" for="kubernetes">{ "Kubernetes" }</label>
                if waits {
                    <span class="badge badge-edited">{ "applies on Reset" }</span>
                }
            </div>
            <Select
                id="kubernetes"
                testid="kubernetes-select"
                value={s.kubernetes.as_str()}
                {options}
                describedby={Some(AttrValue::Static("kubernetes-hint"))}
                {on_change}
            />
            <p class="field-hint" id="kubernetes-hint" data-testid="kubernetes-hint">
                if waits {
                    { "The Kubernetes version can change only before the first step: Reset to start over with it." }
                } else if s.kubernetes.reports_terminating_replicas() {
                    { "The controllers as released today: status.terminatingReplicas counts pods being deleted (since 1.35), the ReplicaSet controller waits for its own writes (since 1.36)" }
                } else {
                    { "The controllers the conformance traces were recorded from: no status.terminatingReplicas (on since 1.35), no wait for the ReplicaSet controller's own writes (on since 1.36)" }
                }
            </p>
        </div>
    }
}

/// The form's fields as the panel draws them: their problems, badges and edits.
struct Form<'a> {
    props: &'a SettingsPanelProps,
    /// The field of the first problem (its message is the summary, said as an alert).
    first: Option<Field>,
}

impl Form<'_> {
    /// A field's problem, if any.
    fn error(&self, f: Field) -> Option<AttrValue> {
        let p = &self.props.problems;
        p.for_field(f).map(|problem| {
            if self.first == Some(f) {
                AttrValue::from(p.summary.clone())
            } else {
                AttrValue::from(problem.message.clone())
            }
        })
    }

    /// "not applied yet" or "applies on Reset" on an edited field.
    fn badge(&self, f: Field) -> Option<AttrValue> {
        let props = self.props;
        if !props.started || !props.settings.field_differs(&props.applied, f) {
            return None;
        }
        Some(AttrValue::Static(if f.is_spec() {
            "not applied yet"
        } else {
            "applies on Reset"
        }))
    }

    /// Edits a field.
    fn edit(&self, f: Field) -> Callback<String> {
        let on_msg = self.props.on_msg.clone();
        Callback::from(move |v: String| on_msg.emit(Msg::Edit(f, v)))
    }

    /// A text field.
    fn field(&self, f: Field, hint: &'static str, testid: &'static str, numeric: bool) -> Html {
        let s = &self.props.settings;
        let first = self.first;
        let rolling_only = matches!(f, Field::MaxSurge | Field::MaxUnavailable);
        // The pair is too narrow for the API's long messages: they go below both fields.
        let error_below = rolling_only;
        let disabled = rolling_only && s.strategy == StrategyKind::Recreate;
        html! {
            { text_field(&TextFieldProps {
                id: f.id().into(),
                label: f.label().into(),
                hint: if disabled { "Only RollingUpdate uses it" } else { hint }.into(),
                inputmode: if numeric { "numeric" } else { "text" }.into(),
                testid: testid.into(),
                value: s.get(f).to_string().into(),
                error: self.error(f),
                primary_error: first == Some(f),
                error_below,
                badge: self.badge(f),
                disabled,
                on_change: self.edit(f),
                extra: Html::default(),
            }) }
        }
    }
}
