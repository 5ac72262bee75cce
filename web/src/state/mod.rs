//! The app's single source of truth, driven by one `use_reducer`: the settings as typed, the
//! simulation, playback, and the kubectl console. Every user action is a [`Msg`]; the view is
//! a function of [`Lab`] (see [`Frame`]).
//!
//! By idea: [`Msg`] and the limits here; the [`Lab`] and its reducer (`lab`), the scenario the
//! settings build (`scenario`), the highlight of what changed (`snapshot`) and the [`Frame`]
//! the page is drawn from (`frame`).
//!
//! The [`Simulation`] keeps its whole history (that is what makes stepping back O(1)), so it is
//! never cloned: the reducer state holds it in an `Rc<RefCell<…>>` and mutates it in place, and
//! a version counter tells Yew (and memoised views) that it changed.

use crate::explain::{explain, Explanation};
use crate::images;
use crate::settings::{
    self, check_create, check_update, first_create, parse_model, Field, Problems, Settings,
    DEFAULT_IMAGE, DEPLOYMENT_NAME,
};
use rollout_facade::api::Time;
use rollout_facade::scenario::{Action, ActionKind, DeploymentInput, ModelExtras, Scenario};
use rollout_facade::session::{Command, Reply, RunEnd, Session, Settled};
use rollout_facade::sim::Simulation;
use rollout_facade::ui_support::{
    departed_pods, event_source, kubectl_command, rollout_history, DepartedPod, HistoryEntry,
};
use rollout_facade::version::KubernetesVersion;
use rollout_facade::view::{
    age, chart_series, cluster_view, deployment_view, ChartPoint, ClusterView, ConditionView,
    ReplicaSetView,
};
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use yew::Reducible;

pub mod compare;
mod frame;
mod lab;
pub mod race_search;
pub mod races;
mod scenario;
mod snapshot;
#[cfg(test)]
mod tests;
pub mod traffic;

pub use crate::explain::StepNote;
pub use frame::{EventRow, Frame, PendingRow, GET_PODS_UP_TO};
pub use lab::{end_notice, Lab};
pub use scenario::{app_scenario, build_scenario, default_scenario, importable};
use scenario::{default_input, session_of};
pub use snapshot::Snapshot;

/// Playback speeds, in steps per second.
pub const SPEEDS: [u32; 7] = [1, 2, 4, 8, 15, 30, 60];
/// The speed the app starts at (2 steps a second: each step is a change, readable one by one).
pub const DEFAULT_SPEED: usize = 1;
/// Rounds added when the user steps or plays past the end of the scenario.
pub const EXTEND_BY: u32 = 10;
/// The longest a chunk of "jump to the end" may run before the page gets to draw.
pub const CHUNK_MS: f64 = 12.0;
/// Lines kept in the kubectl console.
pub const CONSOLE_LINES: usize = 8;
/// Events kept for the events table (newest).
pub const EVENT_ROWS: usize = 100;

/// Milliseconds from an arbitrary origin.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
            * 1000.0
    }
}

/// One command in the kubectl console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleEntry {
    /// What the user ran.
    pub command: String,
    /// What kubectl printed.
    pub output: String,
    /// Whether kubectl refused (an `error:` line).
    pub error: bool,
    /// The round the change takes effect in, when one was queued.
    pub round: Option<u32>,
}

/// Everything that can happen.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A settings field changed.
    Edit(Field, String),
    /// The "new image never becomes ready" switch.
    SetNeverReady(bool),
    /// The "Service and requests" switch (the scenario's `model.traffic`).
    SetTraffic(bool),
    /// "Controller reaction": instant (settled rounds) or one round per hop (lock-step).
    /// Applies at once before the first step, on Reset afterwards.
    SetInstantReactions(bool),
    /// Which Kubernetes release's controllers run (the scenario's `kubernetesVersion`).
    /// Applies at once before the first step, on Reset afterwards.
    SetKubernetes(rollout_facade::version::KubernetesVersion),
    /// Start from a preset (`custom`: the default settings).
    LoadPreset(String),
    /// Start from a scenario in the conformance format (JSON text).
    Import(String),
    /// One step forward.
    Step,
    /// One step back.
    StepBack,
    /// Through the moment at these seconds on the clock (every sync of it), as one move:
    /// Compare's Step, which takes both stages to the next moment either of them changes.
    StepTo(Time),
    /// To the start of the next round.
    StepRound,
    /// To the start of this round (or the previous one when already there).
    BackRound,
    /// Play or pause.
    TogglePlay,
    /// A playback tick.
    Tick,
    /// Playback speed (index into [`SPEEDS`]).
    SetSpeed(usize),
    /// Run to the end of the scenario.
    ToEnd,
    /// Go to the start of a round.
    SeekRound(u32),
    /// Run the next chunk of a seek.
    Advance,
    /// Start over from the settings.
    Reset,
    /// `kubectl set image` to the next version.
    UpdateImage,
    /// `kubectl scale` to the replicas field.
    Scale,
    /// `kubectl rollout pause`.
    PauseRollout,
    /// `kubectl rollout resume`.
    ResumeRollout,
    /// `kubectl rollout undo [--to-revision=N]` (0 = previous).
    Undo(i64),
    /// The legacy server-side rollback annotation.
    LegacyRollback(i64),
    /// Queue the edited spec fields as patches (`kubectl apply`).
    ApplySpec,
    /// Drop a pending action (index into the scenario's actions).
    Cancel(usize),
    /// Hide the notice.
    DismissNotice,
    /// Show a notice (what an import read or left out, an export that failed …).
    Notice(String),
    /// Inspect an object (`deployment/NAME`, `replicaset/NAME`, `pod/NAME`) in "Inside the
    /// controllers", opening it.
    Select(String),
    /// Open or close "Inside the controllers".
    ToggleInside,
    /// A request from the "Inside the controllers" panel.
    Inside(crate::inside::Request),
    /// `kubectl create quota pods-quota --hard=pods=N` (the text of N), or with `None`
    /// `kubectl delete quota pods-quota`.
    SetQuota(Option<String>),
    /// Open a lesson (by id) at a step (0-based).
    OpenLesson(String, usize),
    /// Open a challenge (by id).
    OpenChallenge(String),
    /// The lesson's next step (the simulation runs to its moment).
    LessonNext,
    /// The lesson's previous step.
    LessonBack,
    /// The answer being typed, or the pod clicked.
    LessonAnswer(String),
    /// Check the answer against what the simulation then does.
    LessonCheck,
    /// "Show me": run to the step the question asked about.
    LessonShowMe,
    /// "Hint": where to look, without the answer (`lessons::hint::nudge`).
    LessonHint,
    /// A challenge's prediction (which one, the text).
    ChallengeAnswer(usize, String),
    /// Check the challenge's goals on the session so far (its scenario run to the end).
    ChallengeCheck,
    /// Leave the lesson or challenge (the simulation stays).
    CloseGuide,
    /// The quiz on or off: a prediction before every controller step.
    ToggleQuiz,
    /// The quiz answer being typed (or the pod clicked).
    QuizAnswer(String),
    /// Check the quiz answer against what the next step does.
    QuizCheck,
    /// The quiz question's hint (`lessons::hint::nudge`).
    QuizHint,
}

impl Msg {
    /// Whether it moves the session or gives it a command: what makes a status notice (where
    /// the session came to rest) out of date.
    pub fn moves(&self) -> bool {
        matches!(
            self,
            Msg::Step
                | Msg::StepBack
                | Msg::StepTo(_)
                | Msg::StepRound
                | Msg::BackRound
                | Msg::TogglePlay
                | Msg::ToEnd
                | Msg::SeekRound(_)
                | Msg::Reset
                | Msg::UpdateImage
                | Msg::Scale
                | Msg::PauseRollout
                | Msg::ResumeRollout
                | Msg::Undo(_)
                | Msg::LegacyRollback(_)
                | Msg::ApplySpec
                | Msg::Cancel(_)
                | Msg::SetQuota(_)
                | Msg::Inside(crate::inside::Request::Act(_))
        )
    }
}
