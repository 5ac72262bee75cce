//! Compare side by side (issue #11 item 4): the page's session (A) beside a variant (B) whose
//! strategy, maxSurge, maxUnavailable, replicas or minReadySeconds the user edits. B is A's
//! scenario with the variant's values in A's first `create`, so both receive the same kubectl
//! actions at the same time; it is a core `Session` that follows A's clock (after each move of
//! A, the core's `Session::advance_to` runs B to the moment A shows, so both clocks read the
//! same seconds; B is rebuilt when A's actions change or A goes back). Under the stages, each
//! side's figures come from the core's `plan::forecast`: the time to complete, the peak pod
//! count and the lowest availability.
//!
//! The state is its own reducer ([`Compare`]), beside the app's; it decides nothing about
//! Kubernetes: the variant is checked by `settings::check_create` (the API's validation) and
//! every message is the core's.

use crate::settings::{check_create, first_create, Field, Settings, StrategyKind};
use rollout_facade::api::Time;
use rollout_facade::plan::{forecast, Forecast};
use rollout_facade::scenario::{ActionKind, Scenario};
use rollout_facade::session::Session;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The fields B can change, in form order.
pub const FIELDS: [Field; 5] = [
    Field::Strategy,
    Field::MaxSurge,
    Field::MaxUnavailable,
    Field::Replicas,
    Field::MinReadySeconds,
];

/// The permalink parameter: `cmp=RollingUpdate,1,0,10,0` (strategy, maxSurge, maxUnavailable,
/// replicas, minReadySeconds; `%` written as `%25`).
pub const PARAM: &str = "cmp";

/// B's settings as a permalink value, e.g. `RollingUpdate,1,0,10,0`.
pub fn encode(v: &Settings) -> String {
    FIELDS
        .iter()
        .map(|f| v.get(*f).replace('%', "%25").replace(',', "%2C"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The variant of a permalink value over `base` (A's settings); `None` when it is not five
/// values or names no strategy.
pub fn decode(value: &str, base: &Settings) -> Option<Settings> {
    let parts: Vec<String> = value
        .split(',')
        .map(|p| p.replace("%25", "%").replace("%2C", ","))
        .collect();
    if parts.len() != FIELDS.len() {
        return None;
    }
    let mut v = base.clone();
    StrategyKind::parse(&parts[0])?;
    for (f, text) in FIELDS.iter().zip(parts) {
        v.set(*f, text);
    }
    Some(v)
}

/// `fragment` (without `#`) with its `cmp=` part replaced by `variant`'s (or removed when
/// there is none): the one place the address bar and the copied link get it from.
pub fn with_param(fragment: &str, variant: Option<&Settings>) -> String {
    let mut parts: Vec<String> = fragment
        .trim_start_matches('#')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("cmp="))
        .map(str::to_string)
        .collect();
    if let Some(v) = variant {
        parts.push(format!("{PARAM}={}", encode(v)));
    }
    parts.join("&")
}

/// The `cmp=` value in a fragment or query (`#s=…&cmp=…`), if any.
pub fn param_of(fragment: &str) -> Option<&str> {
    fragment
        .trim_start_matches(['#', '?'])
        .split('&')
        .find_map(|kv| kv.strip_prefix("cmp="))
}

/// B's scenario: `a` with the variant in its first `create` (and in later `create`s of the
/// same Deployment). Errors are the API's validation message for the variant.
pub fn variant_scenario(a: &Scenario, variant: &Settings) -> Result<Scenario, String> {
    let base = first_create(a).ok_or("this scenario creates no Deployment to compare")?;
    let name = base.name.clone();
    let input = check_create(variant, base).map_err(|p| p.summary)?;
    let mut b = a.clone();
    for action in &mut b.actions {
        if let ActionKind::Create { deployment } = &mut action.kind {
            if deployment.name == name {
                *deployment = input.clone();
            }
        }
    }
    b.name = format!("{} (B)", a.name);
    Ok(b)
}

/// Where A is on the clock: its time, and whether it has begun that moment (a step into the
/// round at that time) rather than only reached it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    /// A's clock, in seconds.
    pub seconds: Time,
    /// A has run something at `seconds`.
    pub begun: bool,
}

impl Moment {
    /// Where `session` is.
    pub fn of(session: &Session) -> Moment {
        Moment {
            seconds: session.sim().now(),
            begun: !session.sim().at_round_start(),
        }
    }

    /// Whether `b` is further on than this moment (and must be rebuilt to show it).
    fn behind(&self, b: &Session) -> bool {
        let now = b.sim().now();
        now > self.seconds || (now == self.seconds && !self.begun && !b.sim().at_round_start())
    }
}

/// Runs `session` (B) to A's moment with the core's `Session::advance_to`: both clocks read the
/// same seconds. Returns the caption of the last sync that changed something, if one did.
fn follow(session: &mut Session, at: Moment) -> Option<String> {
    let moved = session.advance_to(at.seconds, at.begun);
    moved.last_change.map(|r| {
        let e = crate::explain::explain(&r, &session.deployment_name());
        crate::explain::caption(&e)
    })
}

/// One side's figures, as `plan::forecast` gives them (or why there are none).
pub type Figures = Result<Forecast, String>;

/// The forecast of a side as the page would play it: past the scenario's own rounds, up to
/// the rounds a run to the end looks (`limits::MAX_RUN_ROUNDS`), as Step and End go on.
fn figures(s: &Scenario) -> Figures {
    let mut s = s.clone();
    s.rounds = s.rounds.max(rollout_facade::limits::MAX_RUN_ROUNDS);
    forecast(&s)
}

/// Compare: on or off, B's settings, B's session and both sides' figures.
#[derive(Clone, Debug, Default)]
pub struct Compare {
    /// Showing the second stage.
    pub on: bool,
    /// B's settings as typed.
    pub variant: Settings,
    /// Why B cannot run (the API's message), if it cannot.
    pub problem: Option<String>,
    /// B, following A (absent when B cannot run).
    pub session: Option<Rc<RefCell<Session>>>,
    /// The scenario B was made from (A's, when B was built).
    from: Option<Scenario>,
    /// A's and B's figures.
    pub figures: Option<(Rc<Figures>, Rc<Figures>)>,
    /// Changes whenever B moves (for redraws).
    pub version: u64,
    /// B's last change, in one line.
    pub caption: Option<String>,
    /// A's moment, as last told.
    at: Moment,
}

impl PartialEq for Compare {
    fn eq(&self, other: &Self) -> bool {
        self.on == other.on
            && self.version == other.version
            && self.variant == other.variant
            && self.problem == other.problem
    }
}

/// What Compare is told.
#[derive(Clone, Debug)]
pub enum CompareMsg {
    /// Show it, with B starting as this variant (or as A's settings).
    Open(Option<Box<Settings>>),
    /// Hide it.
    Close,
    /// B's field changed.
    Set(Field, String),
    /// A moved: its scenario and the moment it shows.
    Follow(Rc<Scenario>, Moment),
    /// A has nothing more to do: B goes to its own next change.
    StepB,
}

impl Compare {
    /// B's session built afresh from `a` and followed to `at`, with both sides' figures.
    fn rebuild(&mut self, a: &Scenario, at: Moment) {
        self.from = Some(a.clone());
        self.version += 1;
        match variant_scenario(a, &self.variant) {
            Ok(b) => {
                self.problem = None;
                self.figures = Some((Rc::new(figures(a)), Rc::new(figures(&b))));
                match Session::new(b) {
                    Ok(mut s) => {
                        self.caption = follow(&mut s, at);
                        self.session = Some(Rc::new(RefCell::new(s)));
                    }
                    Err(e) => {
                        self.problem = Some(e);
                        self.session = None;
                    }
                }
            }
            Err(e) => {
                self.problem = Some(e);
                self.session = None;
                self.figures = None;
            }
        }
    }
}

impl Reducible for Compare {
    type Action = CompareMsg;

    fn reduce(self: Rc<Self>, msg: CompareMsg) -> Rc<Self> {
        let mut next = (*self).clone();
        match msg {
            CompareMsg::Open(variant) => {
                next.on = true;
                if let Some(v) = variant {
                    next.variant = *v;
                }
                // Built on the next Follow (the app sends one when Compare opens).
                next.from = None;
            }
            CompareMsg::Close => {
                next.on = false;
                next.session = None;
                next.from = None;
                next.figures = None;
            }
            CompareMsg::Set(field, text) => {
                next.variant.set(field, text);
                if let Some(a) = next.from.clone() {
                    let at = next.at;
                    next.rebuild(&a, at);
                }
            }
            CompareMsg::StepB => {
                let Some(s) = &next.session else {
                    return self;
                };
                let result = s.borrow_mut().step();
                match result {
                    Some(r) => {
                        next.caption = Some(r.headline);
                        next.version += 1;
                    }
                    None => return self,
                }
            }
            CompareMsg::Follow(a, at) => {
                if !next.on {
                    return self;
                }
                next.at = at;
                let behind = next
                    .session
                    .as_ref()
                    .is_some_and(|s| at.behind(&s.borrow()));
                if next.from.as_ref() != Some(&*a) || behind || next.session.is_none() {
                    next.rebuild(&a, at);
                } else if let Some(s) = &next.session {
                    // Where B is: its syncs and its clock (idle seconds move the clock
                    // without a sync, and B's stage must show that too).
                    let position = |s: &Session| {
                        let sim = s.sim();
                        (sim.steps_taken(), sim.now(), sim.at_round_start())
                    };
                    let before = position(&s.borrow());
                    let caption = follow(&mut s.borrow_mut(), at);
                    if position(&s.borrow()) != before {
                        next.version += 1;
                        if caption.is_some() {
                            next.caption = caption;
                        }
                    } else {
                        return self;
                    }
                }
            }
        }
        Rc::new(next)
    }
}

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

/// Props of [`CompareBar`].
#[derive(Properties, PartialEq, Clone)]
pub struct CompareBarProps {
    /// The state.
    pub compare: Rc<Compare>,
    /// A's settings, for the row that says what A is.
    pub a: Settings,
    /// Sends a message to Compare.
    pub on_msg: Callback<CompareMsg>,
    /// A has nothing more to do (its Step is off): B may step on alone.
    #[prop_or_default]
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
#[function_component(CompareBar)]
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
                    <caption>{ "The rollout of the last image change, forecast by the core (plan::forecast)" }</caption>
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

/// Compare's reducer for the app, wired to the page's lab: opened from a permalink's `cmp=`,
/// told every move of A, and written into the address bar while on.
#[hook]
pub fn use_compare(lab: &UseReducerHandle<crate::state::Lab>) -> UseReducerHandle<Compare> {
    let compare = {
        let lab = lab.clone();
        use_reducer(move || {
            let hash = web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .unwrap_or_default();
            let a = Settings::from_scenario(lab.sim().scenario())
                .map(|(s, _)| s)
                .unwrap_or_default();
            match param_of(&hash).and_then(|v| decode(v, &a)) {
                Some(variant) => Compare {
                    on: true,
                    variant,
                    ..Compare::default()
                },
                None => Compare {
                    variant: a,
                    ..Compare::default()
                },
            }
        })
    };
    // A moved (or Compare opened): B follows to A's time.
    {
        let (lab, d) = (lab.clone(), compare.dispatcher());
        use_effect_with((lab.version, compare.on), move |(_, on)| {
            if *on {
                let at = Moment::of(&lab.session());
                d.dispatch(CompareMsg::Follow(
                    Rc::new(lab.sim().scenario().clone()),
                    at,
                ));
            }
        });
    }
    // The address bar carries B's settings while Compare is on (`&cmp=…`).
    use_effect_with((compare.on, compare.variant.clone()), |(on, variant)| {
        let Some(w) = web_sys::window() else { return };
        let hash = w.location().hash().unwrap_or_default();
        let next = with_param(&hash, on.then_some(variant));
        if next != hash.trim_start_matches('#') {
            if let Ok(h) = w.history() {
                let url = if next.is_empty() {
                    w.location().pathname().unwrap_or_default()
                        + &w.location().search().unwrap_or_default()
                } else {
                    format!("#{next}")
                };
                h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                    .ok();
            }
        }
    });
    compare
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
        <CompareBar compare={(**compare).clone().into_rc()} a={a.clone()} {on_msg} {a_done} />
    }
}

/// What Step does while comparing: both stages go to the next moment either of them changes
/// (`Session::next_moment`: the earlier of A's and B's), through the whole of it, so at the
/// same clock each shows what its own settings made of that moment (B follows A there). Other
/// messages, and Step with Compare off, pass unchanged.
pub fn route_step(
    lab: &UseReducerHandle<crate::state::Lab>,
    compare: &UseReducerHandle<Compare>,
) -> Rc<dyn Fn(crate::state::Msg) -> crate::state::Msg> {
    use crate::state::Msg;
    let (lab, compare) = (lab.clone(), compare.clone());
    Rc::new(move |m: Msg| {
        if m != Msg::Step || !compare.on {
            return m;
        }
        let a = lab.session().next_moment();
        let b = compare
            .session
            .as_ref()
            .and_then(|s| s.borrow().next_moment());
        match a.into_iter().chain(b).min() {
            Some(t) => Msg::StepTo(t),
            None => m,
        }
    })
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
            <p class="compare-figs-title"><strong>{ side.to_ascii_uppercase() }</strong>{ ": the rollout, forecast by plan::forecast" }</p>
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
        <crate::components::Clock seconds={sim.now()} round={sim.round()} />
    };
    html! {
        <crate::components::stage::Stage testid="stage-b" title={AttrValue::from("B: the variant")} {tools}
            replica_sets={replica_sets} departed={rollout_facade::ui_support::departed_pods(sim)}
            {budget} caption={AttrValue::from(caption)} version={compare.version} live={false} />
    }
}

impl Compare {
    fn into_rc(self) -> Rc<Compare> {
        Rc::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ten_replicas() -> Scenario {
        let mut s = rollout_facade::presets::preset("rolling-basic")
            .unwrap()
            .scenario;
        for a in &mut s.actions {
            if let ActionKind::Create { deployment } = &mut a.kind {
                deployment.replicas = Some(10);
            }
        }
        s
    }

    #[test]
    fn the_permalink_value_round_trips() {
        let v = Settings {
            max_surge: "1".into(),
            max_unavailable: "25%".into(),
            replicas: "10".into(),
            ..Settings::default()
        };
        let text = encode(&v);
        assert_eq!(text, "RollingUpdate,1,25%25,10,0");
        assert_eq!(decode(&text, &Settings::default()).as_ref(), Some(&v));
        assert_eq!(
            param_of("#s=abc&cmp=Recreate,1,0,3,0&at=2"),
            Some("Recreate,1,0,3,0")
        );
        assert_eq!(
            with_param("#s=abc&cmp=Recreate,1,0,3,0&at=2", Some(&v)),
            "s=abc&at=2&cmp=RollingUpdate,1,25%25,10,0"
        );
        assert_eq!(with_param("s=abc&cmp=x", None), "s=abc");
        assert_eq!(decode("Sideways,1,0,3,0", &Settings::default()), None);
    }

    #[test]
    fn b_gets_the_same_actions_with_its_own_strategy() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_surge = "1".into();
        v.max_unavailable = "0".into();
        let b = variant_scenario(&a, &v).unwrap();
        assert_eq!(a.actions.len(), b.actions.len());
        for (x, y) in a.actions.iter().zip(&b.actions) {
            assert_eq!(x.round, y.round);
            assert_eq!(x.kind.type_name(), y.kind.type_name());
        }
        // 1 / 0 on 10 replicas rolls one pod at a time: slower than 25% / 25% (3 / 2).
        let (fa, fb) = (figures(&a).unwrap(), figures(&b).unwrap());
        assert!(fb.complete_round > fa.complete_round, "{fa:?} {fb:?}");
        // 10 + 1 surge pod, plus the old pods still terminating (counted in the peak).
        assert!(
            fb.peak_pods >= 11 && fb.peak_pods < fa.peak_pods,
            "{fa:?} {fb:?}"
        );
        assert_eq!(fb.min_available, Some(10));
    }

    #[test]
    fn a_bad_variant_gets_the_apis_message() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_surge = "0".into();
        v.max_unavailable = "0".into();
        let e = variant_scenario(&a, &v).unwrap_err();
        assert!(e.contains("may not be 0 when `maxSurge` is 0"), "{e}");
    }

    #[test]
    fn b_follows_a_round_by_round_through_idle_seconds() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_surge = "1".into();
        v.max_unavailable = "0".into();
        let mut s = Session::new(variant_scenario(&a, &v).unwrap()).unwrap();
        for seconds in 1..=40 {
            follow(
                &mut s,
                Moment {
                    seconds,
                    begun: false,
                },
            );
            assert_eq!(
                (s.sim().now(), s.sim().at_round_start()),
                (seconds, true),
                "B's clock after A's Round to 0:{seconds:02}"
            );
        }
    }

    #[test]
    fn b_is_redrawn_when_only_its_clock_moves() {
        // Before the image changes nothing happens: A's Round moves both clocks a second,
        // and B gets there without a sync. Its stage must still be drawn again.
        let a = Rc::new(ten_replicas());
        let mut c = Rc::new(Compare::default()).reduce(CompareMsg::Open(None));
        c = c.reduce(CompareMsg::Follow(a.clone(), Moment::default()));
        for seconds in 1..=3 {
            let version = c.version;
            c = c.reduce(CompareMsg::Follow(
                a.clone(),
                Moment {
                    seconds,
                    begun: false,
                },
            ));
            assert!(c.version > version, "B redrawn at 0:{seconds:02}");
            let b = c.session.as_ref().unwrap().borrow();
            assert_eq!(b.sim().now(), seconds);
        }
    }

    #[test]
    fn b_follows_a_by_time() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_unavailable = "0".into();
        let mut s = Session::new(variant_scenario(&a, &v).unwrap()).unwrap();
        // A has only reached 0:30: B stops as its clock reads 30 s.
        let reached = Moment {
            seconds: 30,
            begun: false,
        };
        let caption = follow(&mut s, reached);
        assert!(caption.is_some_and(|c| !c.is_empty()));
        assert_eq!(s.sim().now(), 30);
        assert!(s.sim().at_round_start());
        assert!(!reached.behind(&s));
        // A steps into 0:30: B runs that moment too, and its clock stays at 30 s.
        let begun = Moment {
            seconds: 30,
            begun: true,
        };
        follow(&mut s, begun);
        assert_eq!(s.sim().now(), 30);
        assert!(!s.sim().at_round_start());
        assert!(reached.behind(&s), "A went back to the start of 0:30");
        assert!(!begun.behind(&s));
    }
}
