//! Playback: step back, step, whole rounds, play / pause at a speed, jump to the end, reset,
//! and a timeline to scrub through rounds.

use crate::components::clock::clock;
use crate::state::{Msg, SPEEDS};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`Transport`].
#[derive(Properties, PartialEq, Clone)]
pub struct TransportProps {
    /// The round of the next step.
    pub round: u32,
    /// The clock, in seconds.
    pub time: i64,
    /// Nothing of `round` has run yet.
    pub at_round_start: bool,
    /// Every round has run.
    pub finished: bool,
    /// There is a step to go back to.
    pub can_back: bool,
    /// Steps taken.
    pub steps: usize,
    /// The scenario's rounds.
    pub horizon: u32,
    /// Rounds that have actions.
    pub action_rounds: Vec<u32>,
    /// Playing.
    pub playing: bool,
    /// Running to a later round.
    pub seeking: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Why nothing more will happen (`None`: a step would still change something), as
    /// [`outcome_key`] and a sentence.
    #[prop_or_default]
    pub settled: Option<(&'static str, AttrValue)>,
    /// Whether the controllers react at once (settled rounds) rather than one round per hop
    /// (lock-step), shown under the clock.
    #[prop_or(true)]
    pub instant: bool,
    /// The rollout's state while a step would still change something, as a key (`progressing`,
    /// `complete`, `stalled`, `paused`) and `kubectl rollout status`'s line; `None` before the
    /// Deployment exists.
    #[prop_or_default]
    pub state: Option<(&'static str, AttrValue)>,
    /// The image "Roll out" sets, offered once nothing more will happen.
    #[prop_or_default]
    pub next_image: Option<AttrValue>,
    /// Receives the commands.
    pub on_msg: Callback<Msg>,
}

pub fn icon(path: &'static str) -> Html {
    html! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d={path} />
        </svg>
    }
}

pub const ICON_BACK: &str = "M7 5h2v14H7zM10 12l9-7v14z";
pub const ICON_STEP: &str = "M15 5h2v14h-2zM14 12L5 5v14z";
pub const ICON_PLAY: &str = "M7 4.5v15l13-7.5z";
pub const ICON_PAUSE: &str = "M6 5h4v14H6zM14 5h4v14h-4z";
const ICON_END: &str = "M4 5l8 7-8 7zM12 5l8 7-8 7zM20 5h2v14h-2z";
pub const ICON_ROUND_BACK: &str = "M20 5v14l-8-7zM12 5v14l-8-7z";
pub const ICON_ROUND: &str = "M4 5l8 7-8 7zM12 5l8 7-8 7z";
pub const ICON_RESET: &str = "M12 5a7 7 0 1 1-6.6 9.3l1.9-.6A5 5 0 1 0 12 7v3L7 6l5-4z";

/// An outcome as a word for attributes and CSS: `complete`, `deadline-exceeded`, `paused`,
/// `stuck`, `limit`.
pub fn outcome_key(o: rollout_facade::session::Outcome) -> &'static str {
    use rollout_facade::session::Outcome;
    match o {
        Outcome::Complete => "complete",
        Outcome::DeadlineExceeded => "deadline-exceeded",
        Outcome::Paused => "paused",
        Outcome::Stuck => "stuck",
        Outcome::Limit => "limit",
    }
}

/// The rollout's state for the status line while a step would still change something:
/// `kubectl rollout status` of the Deployment (from the core's view), led by a word for the
/// state, and the next pending command if one is queued. For example `In progress: Waiting
/// for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`.
pub fn rollout_state(
    d: &rollout_facade::view::DeploymentView,
    next_command: Option<&str>,
) -> (&'static str, AttrValue) {
    let status = &d.rollout_status;
    let (key, word, line) = if let Some(e) = &status.error {
        ("stalled", "Stalled", e.clone())
    } else if d.object.spec.paused {
        ("paused", "Paused", status.message.trim_end().to_string())
    } else if status.done {
        (
            "complete",
            "Complete",
            status.message.trim_end().to_string(),
        )
    } else {
        (
            "progressing",
            "In progress",
            status.message.trim_end().to_string(),
        )
    };
    let next = next_command.map_or(String::new(), |c| format!(" · pending: {c}"));
    (key, AttrValue::from(format!("{word}: {line}{next}")))
}

/// The transport bar.
#[function_component(Transport)]
pub fn transport(props: &TransportProps) -> Html {
    let send = |msg: Msg| {
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on_msg.emit(msg.clone()))
    };
    let on_speed = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_msg.emit(Msg::SetSpeed(input.value().parse().unwrap_or(0)));
        })
    };
    let on_timeline = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(r) = input.value().parse::<u32>() {
                on_msg.emit(Msg::SeekRound(r));
            }
        })
    };
    let sps = SPEEDS[props.speed.min(SPEEDS.len() - 1)];
    let speed_text = if sps == 1 {
        "1 step/s".to_string()
    } else {
        format!("{sps} steps/s")
    };
    let horizon = props.horizon.max(1);
    let position = props.round.min(horizon);
    let phase = if props.settled.is_some() {
        "at rest"
    } else if props.at_round_start {
        "round not started"
    } else {
        "round in progress"
    };
    let settled = props.settled.is_some();
    let step_title = match &props.settled {
        Some((_, why)) => format!(
            "Nothing more will happen: {why}. Roll out another image, or Reset to start over."
        ),
        None => "Step: to the next change in the cluster (→; Shift: a whole round)".to_string(),
    };
    let mut ticks = props.action_rounds.clone();
    ticks.dedup();
    html! {
        <section class="transport" aria-label="Playback">
            <div class="transport-buttons">
                { step_group(props, step_title.clone()) }
                <button type="button" class={classes!("btn", "btn-play", props.playing.then_some("is-playing"))}
                    data-testid="play-button" aria-pressed={if props.playing { "true" } else { "false" }}
                    title="Play or pause (Space)" disabled={settled && !props.playing} onclick={send(Msg::TogglePlay)}>
                    if props.playing {
                        { icon(ICON_PAUSE) }<span>{ "Pause" }</span>
                    } else {
                        { icon(ICON_PLAY) }<span>{ "Play" }</span>
                    }
                </button>
                <label class="speed">
                    <span class="speed-label">{ "Speed" }</span>
                    <input type="range" min="0" max={(SPEEDS.len() - 1).to_string()} step="1"
                        value={props.speed.to_string()} data-testid="speed-input"
                        aria-valuetext={speed_text.clone()} oninput={on_speed} />
                    <output class="speed-value">{ speed_text }</output>
                </label>
                <button type="button" class="btn" data-testid="end-button"
                    title="End: run until the rollout is complete or stalled" disabled={settled || props.seeking}
                    onclick={send(Msg::ToEnd)}>
                    { icon(ICON_END) }<span>{ if props.seeking { "Running…" } else { "End" } }</span>
                </button>
                <button type="button" class="btn" data-testid="reset-button"
                    title="Start over from the current settings" onclick={send(Msg::Reset)}>
                    { icon(ICON_RESET) }<span>{ "Reset" }</span>
                </button>
                <div class="round" data-testid="round" data-round={props.round.to_string()}
                    data-time={props.time.to_string()} data-steps={props.steps.to_string()}>
                    { clock(props.time, props.round, Some(phase)) }
                    <span class={classes!("reaction-mode", (!props.instant).then_some("reaction-per-hop"))}
                        data-testid="reaction-mode" data-instant={props.instant.to_string()}
                        title="Controller reaction (Cluster model settings)">
                        { if props.instant { "instant reactions (settled rounds)" } else { "one round per hop" } }
                    </span>
                </div>
            </div>
            // The one line that says the rollout's state: where it came to rest, with what to
            // do next, or `kubectl rollout status` while it goes on.
            if let Some((outcome, why)) = &props.settled {
                <div class={classes!("settled-line", format!("settled-{outcome}"))} data-testid="status-line" data-state={*outcome}>
                    <p id="settled-line" data-testid="settled" data-outcome={*outcome} role="status">{ why.clone() }</p>
                    <p class="settled-next">
                        <span>{ "Next: " }</span>
                        if let Some(image) = &props.next_image {
                            <button type="button" class="btn btn-small btn-primary" data-testid="settled-roll-out"
                                onclick={send(Msg::UpdateImage)}>{ format!("Roll out {image}") }</button>
                            <span>{ " or " }</span>
                        }
                        <button type="button" class="btn btn-small" data-testid="settled-reset"
                            onclick={send(Msg::Reset)}>{ "Reset" }</button>
                    </p>
                </div>
            } else if let Some((state, line)) = &props.state {
                <div class={classes!("settled-line", format!("settled-{state}"))} data-testid="status-line" data-state={*state}>
                    <p>{ line.clone() }</p>
                </div>
            }
            <div class="timeline">
                <label class="visually-hidden" for="timeline">{ "Timeline: go to the start of a round" }</label>
                <div class="timeline-track">
                    <input id="timeline" type="range" min="0" max={horizon.to_string()} step="1"
                        value={position.to_string()} data-testid="timeline"
                        aria-valuetext={format!("Round {position} of {horizon}")}
                        oninput={on_timeline} />
                    <div class="timeline-ticks" aria-hidden="true">
                        { for ticks.iter().filter(|r| **r <= horizon).map(|r| html! {
                            <span class="tick" style={format!("left: {}%", crate::chart::fmt(f64::from(*r) * 100.0 / f64::from(horizon)))}
                                title={format!("actions at round {r}")} />
                        }) }
                    </div>
                </div>
                <div class="timeline-scale" aria-hidden="true">
                    <span>{ "0" }</span><span>{ format!("round {horizon}") }</span>
                </div>
            </div>
        </section>
    }
}

/// Back a round, Back, Step (Shift: a whole round) and Round.
fn step_group(props: &TransportProps, step_title: String) -> Html {
    let send = |msg: Msg| {
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on_msg.emit(msg.clone()))
    };
    // Shift+click: a whole round, as Shift+→.
    let step_or_round = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: MouseEvent| {
            on_msg.emit(if e.shift_key() {
                Msg::StepRound
            } else {
                Msg::Step
            })
        })
    };
    let settled = props.settled.is_some();
    html! {
    <div class="btn-group" role="group" aria-label="Step">
        <button type="button" class="btn btn-icon" data-testid="back-round-button"
            title="Back to the start of the round (Shift+←)" aria-label="Back one round"
            disabled={!props.can_back} onclick={send(Msg::BackRound)}>
            { icon(ICON_ROUND_BACK) }
        </button>
        <button type="button" class="btn" data-testid="step-back-button"
            title="Step back (←)" disabled={!props.can_back} onclick={send(Msg::StepBack)}>
            { icon(ICON_BACK) }<span>{ "Back" }</span>
        </button>
        <button type="button" class="btn btn-primary" data-testid="step-button"
            title={step_title.clone()} aria-describedby={settled.then_some("settled-line")}
            disabled={settled} onclick={step_or_round}>
            <span>{ "Step" }</span>{ icon(ICON_STEP) }
        </button>
        <button type="button" class="btn btn-icon" data-testid="step-round-button"
            title="Round: run the rest of this round, changes or not (Shift+→)" aria-label="Forward one round"
            onclick={send(Msg::StepRound)}>
            { icon(ICON_ROUND) }
        </button>
    </div>
    }
}
