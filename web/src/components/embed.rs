//! The embed layout: the same lab (one [`Lab`] reducer, the same ReplicaSet cards and chart) in
//! a compact frame for an iframe of about 800 × 500 or a `mount()`ed element, without the page
//! chrome, with the controls its options choose and an "Open in Rollout Lab" link. The JavaScript
//! API drives it through its [`Controller`] (`crate::hooks::use_controller`).

use crate::components::clock::clock;
use crate::components::logo::logo;
use crate::components::service_view::ServiceView;
use crate::components::settings_panel::{slider_index, SLIDER_STOPS};
use crate::components::traffic_strip::TrafficStrip;
use crate::components::transport::{
    icon, outcome_key, ICON_BACK, ICON_PAUSE, ICON_PLAY, ICON_RESET, ICON_ROUND, ICON_ROUND_BACK,
    ICON_STEP,
};
use crate::components::{chart_panel, ChartPanelProps, ReplicaSets};
use crate::hooks::{use_controller, use_playback, Controller};
use crate::settings::{Field, FormControl, StrategyKind};
use crate::share::{link_of, start_lab, title_of};
use crate::state::{Frame, Lab, Msg};
use rollout_facade::embed::{Control, EmbedOptions};
use rollout_facade::scenario::Scenario;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props of [`EmbedApp`].
#[derive(Properties, PartialEq, Clone, Default)]
pub struct EmbedAppProps {
    /// Start from this permalink fragment (wins over `scenario` and `preset`).
    #[prop_or_default]
    pub link: Option<AttrValue>,
    /// Start from this scenario (wins over `preset`).
    #[prop_or_default]
    pub scenario: Option<Rc<Scenario>>,
    /// Start from this preset.
    #[prop_or_default]
    pub preset: Option<AttrValue>,
    /// What to show.
    #[prop_or_default]
    pub options: EmbedOptions,
    /// The full app's address, for "Open in Rollout Lab" (none: no link).
    #[prop_or_default]
    pub app_url: Option<AttrValue>,
    /// Lets the JavaScript API drive this lab.
    #[prop_or_default]
    pub controller: Option<Controller>,
    /// The whole page (`?embed` in an iframe): its content is the page's `<main>` and its
    /// title the page's `<h1>`. Off for `<rollout-lab>` and `mount()`, whose host is a
    /// labelled region inside someone else's page.
    #[prop_or_default]
    pub page: bool,
    /// The level of the panels' headings (2: `<h2>` in `<section>` regions); 0 for none, as a
    /// `<rollout-lab>` has unless its `heading-level` says otherwise, so that two labs on a
    /// page add no headings to its outline and no regions of the same name.
    #[prop_or(2)]
    pub heading: u8,
}

/// A replicas / maxSurge / maxUnavailable value and its position on a slider.
fn int_or_percent_stops(current: &str) -> Vec<String> {
    let mut stops: Vec<String> = [
        "0", "1", "2", "3", "4", "5", "10%", "25%", "50%", "75%", "100%",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let current = current.trim();
    if !current.is_empty() && !stops.iter().any(|s| s == current) {
        stops.push(current.to_string());
    }
    stops
}

/// Rollout Lab, embedded.
#[function_component(EmbedApp)]
pub fn embed_app(props: &EmbedAppProps) -> Html {
    // `view=races` (`?embed&view=races`, `<rollout-lab view="races">`): the Races view in the
    // embed layout, for the whole life of this embed (so no hook is skipped between renders).
    if let Some(link) = &props.options.races {
        return html! {
            <@{if props.page { "main" } else { "div" }} class="app embed" data-testid="embed">
                <crate::components::races_view::RacesView link={link.clone()} embed=true app_url={props.app_url.clone()} page={props.page} heading={props.heading} />
            </@>
        };
    }
    let lab = use_reducer(|| embed_lab(props));
    use_controller(props.controller.clone(), &lab);
    use_playback(&lab);
    let frame = crate::hooks::use_frame(&lab);
    let frame: &Frame = &frame;
    let o = &props.options;
    let dismiss = send(&lab, Msg::DismissNotice);
    // A lesson (`lesson="ID"` on the element, `?embed&lesson=ID` in an iframe): its panel
    // above the controls, so a documentation page can embed exactly one lesson.
    let guide = lab.guide.clone().map(|guide| {
        let view = match &guide.guide {
            crate::lesson::Guide::Lesson { lesson, step } => {
                Some(crate::lesson::step_view(lesson, *step, &lab.sim()))
            }
            _ => None,
        };
        let d = lab.dispatcher();
        let on_msg = Callback::from(move |m: Msg| d.dispatch(m));
        html! { <crate::components::GuidePanel {guide} version={lab.version} {view} {on_msg} /> }
    });
    let problems = lab.problems();
    let started = lab.started();
    let rolling = lab.settings.strategy == StrategyKind::RollingUpdate;

    let sliders = [
        Control::Replicas,
        Control::MaxSurge,
        Control::MaxUnavailable,
    ]
    .iter()
    .any(|c| o.has(*c));
    let open_href = props
        .app_url
        .as_ref()
        .map(|base| format!("{base}#{}", link_of(&lab)));
    // The Service and its requests, when asked for (`traffic`).
    let traffic = match (&frame.traffic, o.traffic) {
        (Some(Ok(t)), true) => Some(t.clone()),
        _ => None,
    };
    let band = frame
        .cluster
        .deployments
        .first()
        .map_or(rolling, |d| d.strategy == "RollingUpdate");
    html! {
        <div class={classes!("app", "embed", (!o.chart).then_some("embed-no-chart"))} data-testid="embed">
            { embed_head(&lab, props.page, open_href) }
            <@{if props.page { "main" } else { "div" }} class="embed-body">
            { for guide }
            { controls(&lab, frame, o) }
            if let Some(st) = &frame.settled {
                <p class={classes!("settled-line", "embed-settled", format!("settled-{}", outcome_key(st.outcome)))}
                    id="embed-settled" data-testid="settled" data-outcome={outcome_key(st.outcome)}>
                    { st.sentence.clone() }
                </p>
            }
            if sliders {
                <div class="embed-sliders">
                    if o.has(Control::Replicas) {
                        { slider(&lab, Field::Replicas, "replicas-slider") }
                    }
                    if o.has(Control::MaxSurge) {
                        { slider(&lab, Field::MaxSurge, "max-surge-slider") }
                    }
                    if o.has(Control::MaxUnavailable) {
                        { slider(&lab, Field::MaxUnavailable, "max-unavailable-slider") }
                    }
                </div>
            }
            if !problems.is_empty() {
                <p class="embed-problem" role="alert" data-testid="validation-message">{ problems.summary.clone() }</p>
            }
            if let Some(n) = &lab.notice {
                <div class="notice" role="status" data-testid="notice">
                    <span>{ n.clone() }</span>
                    <button type="button" class="btn btn-small" onclick={dismiss} aria-label="Dismiss">{ "OK" }</button>
                </div>
            }
            if let Some(t) = &traffic {
                <ServiceView traffic={t.clone()} deployment={AttrValue::from(frame.deployment.clone())} />
            }
            <div class="embed-main">
                <ReplicaSets
                    replica_sets={frame.replica_sets.clone()}
                    departed={frame.departed.clone()}
                    before={lab.before.clone()}
                    heading={props.heading}
                    marks={traffic.as_ref().map(|t| Rc::new(crate::state::traffic::marks(&t.second).into_iter().collect()))}
                />
                if o.chart {
                    { chart_panel(&ChartPanelProps { points: frame.chart.clone(), horizon: frame.horizon, band, heading: props.heading }) }
                }
            </div>
            if let Some(t) = &traffic {
                <TrafficStrip traffic={t.clone()} />
            }
            { embed_foot(frame, o, started, traffic.as_ref()) }
            </@>
        </div>
    }
}

/// The lab an embed starts from: the one its controller staged, else its link, scenario or
/// preset (`crate::share::start_lab`), with what its parameters ignored in the notice.
fn embed_lab(props: &EmbedAppProps) -> Lab {
    if let Some(lab) = props.controller.as_ref().and_then(Controller::take_staged) {
        return lab;
    }
    let mut lab = start_lab(
        props.link.as_deref(),
        props.scenario.as_deref(),
        props.preset.as_deref(),
    );
    if props.options.traffic {
        lab.show_traffic();
    }
    if let Some(ignored) = props.options.ignored_words() {
        let extra = format!("Ignored in the embed parameters: {ignored}.");
        lab.notice = Some(match lab.notice.take() {
            Some(n) => format!("{n} {extra}"),
            None => extra,
        });
    }
    lab
}

/// A slider or menu edits the setting and, once the rollout has started, applies it as
/// kubectl would (before the first step, edits apply at once).
fn edit(lab: &UseReducerHandle<Lab>, field: Field, stops: Rc<Vec<String>>) -> Callback<InputEvent> {
    let d = lab.dispatcher();
    Callback::from(move |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let i = input.value().parse::<usize>().unwrap_or(0);
        if let Some(v) = stops.get(i) {
            d.dispatch(Msg::Edit(field, v.clone()));
            d.dispatch(Msg::ApplySpec);
        }
    })
}

/// A replicas, maxSurge or maxUnavailable slider, with the value it stands for (a percentage:
/// the pods it resolves to).
fn slider(lab: &UseReducerHandle<Lab>, field: Field, testid: &'static str) -> Html {
    let s = &lab.settings;
    let rolling = s.strategy == StrategyKind::RollingUpdate;
    let bounds = crate::bounds::resolve(s).ok();
    let (stops, index, shown) = match field {
        Field::Replicas => {
            let stops: Vec<String> = SLIDER_STOPS.iter().map(|n| n.to_string()).collect();
            (
                stops,
                slider_index(&s.replicas),
                s.replicas.trim().to_string(),
            )
        }
        _ => {
            let value = s.get(field).trim().to_string();
            let stops = int_or_percent_stops(&value);
            let index = stops.iter().position(|x| *x == value).unwrap_or(0);
            let pods = bounds.as_ref().filter(|_| rolling).map(|b| {
                if field == Field::MaxSurge {
                    b.surge
                } else {
                    b.unavailable
                }
            });
            let shown = match pods {
                Some(n) if value.ends_with('%') => {
                    format!("{value} → {n} pod{}", if n == 1 { "" } else { "s" })
                }
                _ => value,
            };
            (stops, index, shown)
        }
    };
    let disabled = field != Field::Replicas && !rolling;
    let id = format!("embed-{testid}");
    let max = stops.len().saturating_sub(1).to_string();
    html! {
        <div class={classes!("embed-slider", disabled.then_some("is-disabled"))}>
            <label for={id.clone()}>{ field.label() }</label>
            <input id={id} type="range" min="0" max={max} step="1" value={index.to_string()}
                data-testid={testid} {disabled} aria-valuetext={shown.clone()}
                oninput={edit(lab, field, Rc::new(stops))} />
            <output data-testid={format!("{testid}-value")}>{ shown }</output>
        </div>
    }
}

/// A button's callback that sends `msg`.
fn send(lab: &UseReducerHandle<Lab>, msg: Msg) -> Callback<MouseEvent> {
    let d = lab.dispatcher();
    Callback::from(move |_: MouseEvent| d.dispatch(msg.clone()))
}

/// The embed's header: its title and "Open in Rollout Lab".
fn embed_head(lab: &Lab, page: bool, open_href: Option<String>) -> Html {
    html! {
    <header class="embed-head">
        { logo() }
        if page {
            <h1 class="embed-title" data-testid="embed-title">{ title_of(lab) }</h1>
        } else {
            <p class="embed-title" data-testid="embed-title">{ title_of(lab) }</p>
        }
        { crate::components::kubernetes_version(lab.kubernetes()) }
        if let Some(href) = open_href {
            <a class="embed-open" href={href} target="_blank" rel="noopener" data-testid="open-in-lab">
                { "Open in Rollout Lab" }<span aria-hidden="true">{ " ↗" }</span>
            </a>
        }
    </header>
    }
}

/// The playback controls the options ask for, and the clock.
fn controls(lab: &UseReducerHandle<Lab>, frame: &Frame, o: &EmbedOptions) -> Html {
    let send = |msg: Msg| send(lab, msg);
    let rolling = lab.settings.strategy == StrategyKind::RollingUpdate;
    let settled = frame.settled.is_some();
    let on_strategy = {
        let d = lab.dispatcher();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            d.dispatch(Msg::Edit(Field::Strategy, select.value()));
            d.dispatch(Msg::ApplySpec);
        })
    };
    let step_title = match &frame.settled {
        Some(st) => format!("Nothing more will happen: {}", st.sentence),
        None => "Step: to the next change in the cluster".to_string(),
    };
    let next_image = lab.next_image();
    html! {
    <div class="embed-controls" role="group" aria-label="Playback">
        if o.has(Control::Round) {
            <button type="button" class="btn btn-icon" data-testid="back-round-button" aria-label="Back one round"
                title="Back to the start of the round" disabled={!frame.can_back} onclick={send(Msg::BackRound)}>
                { icon(ICON_ROUND_BACK) }
            </button>
        }
        if o.has(Control::Step) {
            <button type="button" class="btn" data-testid="step-back-button" title="Step back"
                disabled={!frame.can_back} onclick={send(Msg::StepBack)}>
                { icon(ICON_BACK) }<span>{ "Back" }</span>
            </button>
            <button type="button" class="btn btn-primary" data-testid="step-button"
                title={step_title} aria-describedby={settled.then_some("embed-settled")}
                disabled={settled} onclick={send(Msg::Step)}>
                <span>{ "Step" }</span>{ icon(ICON_STEP) }
            </button>
        }
        if o.has(Control::Round) {
            <button type="button" class="btn btn-icon" data-testid="step-round-button" aria-label="Forward one round"
                title="Round: run the rest of this round, changes or not" onclick={send(Msg::StepRound)}>
                { icon(ICON_ROUND) }
            </button>
        }
        if o.has(Control::Play) {
            <button type="button" class={classes!("btn", "btn-play", lab.playing.then_some("is-playing"))}
                data-testid="play-button" aria-pressed={if lab.playing { "true" } else { "false" }}
                onclick={send(Msg::TogglePlay)}>
                if lab.playing {
                    { icon(ICON_PAUSE) }<span>{ "Pause" }</span>
                } else {
                    { icon(ICON_PLAY) }<span>{ "Play" }</span>
                }
            </button>
        }
        if o.has(Control::Image) {
            <button type="button" class="btn btn-accent" data-testid="update-image-button"
                title={rollout_facade::ui_support::kubectl_command(&rollout_facade::scenario::ActionKind::SetImage { name: None, image: next_image.to_string() }, &frame.deployment)}
                onclick={send(Msg::UpdateImage)}>
                { format!("Roll out {next_image}") }
            </button>
        }
        if o.has(Control::Reset) {
            <button type="button" class="btn btn-icon" data-testid="reset-button" aria-label="Reset"
                title="Start over" onclick={send(Msg::Reset)}>
                { icon(ICON_RESET) }
            </button>
        }
        if o.has(Control::Strategy) {
            <label class="embed-strategy">
                <span class="visually-hidden">{ "Strategy" }</span>
                <select data-testid="strategy-select" onchange={on_strategy}>
                    <option value="RollingUpdate" selected={rolling}>{ "RollingUpdate" }</option>
                    <option value="Recreate" selected={!rolling}>{ "Recreate" }</option>
                </select>
            </label>
        }
        <div class="round embed-round" data-testid="round" data-round={frame.round.to_string()}
            data-time={frame.time.to_string()} data-steps={frame.steps.to_string()}>
            { clock(frame.time, frame.round, None) }
        </div>
    </div>
    }
}

/// The foot: the commands pending and the step's sentence.
fn embed_foot(
    frame: &Frame,
    o: &EmbedOptions,
    started: bool,
    traffic: Option<&Rc<crate::state::traffic::TrafficFrame>>,
) -> Html {
    let why = traffic.and_then(|t| t.second.why.clone());
    // The step's sentence, with the time that passed before it ("30 s later: …").
    let explanation = frame.explanation.as_ref().map(|e| {
        match frame.step_note.as_ref().map(|n| n.seconds_later) {
            Some(s) if s > 0 => format!("{} later: {}", crate::explain::seconds(s), e.headline),
            _ => e.headline.clone(),
        }
    });
    // Commands given and not applied yet (before the first step too: the next Step applies
    // them, and says so).
    let pending = frame
        .pending
        .iter()
        .map(|p| p.command.clone())
        .collect::<Vec<_>>();
    let waiting = frame.budget.as_ref().and_then(|b| b.waiting.clone());
    html! {
    if o.explain || !pending.is_empty() || why.is_some() {
        <footer class="embed-foot" aria-live="polite">
            if !pending.is_empty() {
                <p class="embed-pending" data-testid="embed-pending">{ if started { format!("Pending: {}", pending.join("; ")) } else { format!("Pending, the first Step applies: {}", pending.join("; ")) } }</p>
            }
            if o.explain {
                <p class="embed-explain" data-testid="embed-explanation">
                    { explanation.unwrap_or_else(|| "Nothing has run yet: press Step.".to_string()) }
                </p>
            }
            // Why the rollout waits on a new pod whose app fails, in the core's words.
            if let Some(why) = waiting.filter(|_| o.explain) {
                <p class="embed-waiting" data-testid="budget-waiting">{ why }</p>
            }
            // Why requests to the Service fail, in the core's words.
            if let Some(why) = why {
                <p class="embed-waiting" data-testid="stage-traffic-why">{ format!("Requests fail: {why}.") }</p>
            }
        </footer>
    }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_include_the_current_value() {
        assert_eq!(int_or_percent_stops("25%").len(), 11);
        let s = int_or_percent_stops("30%");
        assert_eq!(s.last().map(String::as_str), Some("30%"));
    }
}
