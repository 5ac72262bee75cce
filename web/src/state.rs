//! The app's single source of truth, driven by one `use_reducer`: the settings as typed, the
//! simulation, playback, and the kubectl console. Every user action is a [`Msg`]; the view is
//! a function of [`Lab`] (see [`Frame`]).
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
use rollout_core::api::Time;
use rollout_core::scenario::{Action, ActionKind, DeploymentInput, ModelExtras, Scenario};
use rollout_core::session::{Command, Reply, Session};
use rollout_core::sim::Simulation;
use rollout_core::ui_support::{
    departed_pods, event_source, kubectl_command, rollout_history, DepartedPod, HistoryEntry,
};
use rollout_core::view::{
    age, chart_series, cluster_view, deployment_view, ChartPoint, ClusterView, ConditionView,
    ReplicaSetView,
};
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use yew::Reducible;

/// Playback speeds, in steps per second.
pub const SPEEDS: [u32; 7] = [1, 2, 4, 8, 15, 30, 60];
/// The speed the app starts at (4 steps a second: about a round a second).
pub const DEFAULT_SPEED: usize = 2;
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
    /// Start from a preset (`custom`: the default settings).
    LoadPreset(String),
    /// Start from a scenario in the conformance format (JSON text).
    Import(String),
    /// One step forward.
    Step,
    /// One step back.
    StepBack,
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
}

/// What the Deployment looked like before the last move, to highlight what changed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Snapshot {
    /// The Deployment's conditions.
    pub conditions: Vec<ConditionView>,
    /// Each ReplicaSet's DESIRED, CURRENT, READY, AVAILABLE.
    pub counts: Vec<(String, [i32; 4])>,
    /// The replicas line.
    pub replicas_line: String,
    /// `kubectl rollout status`.
    pub rollout_status: String,
}

impl Snapshot {
    /// Of a simulation now (cheap: no pods).
    pub fn of(sim: &Simulation, deployment: &str) -> Snapshot {
        let api = sim.api();
        let d = api.deployment(deployment).map(|d| deployment_view(d));
        Snapshot {
            conditions: d.as_ref().map(|d| d.conditions.clone()).unwrap_or_default(),
            replicas_line: d
                .as_ref()
                .map(|d| d.replicas_line.clone())
                .unwrap_or_default(),
            rollout_status: d
                .as_ref()
                .map(|d| d.rollout_status.message.clone())
                .unwrap_or_default(),
            counts: api
                .replica_sets()
                .map(|rs| {
                    (
                        rs.metadata.name.clone(),
                        [
                            rs.spec.replicas,
                            rs.status.replicas,
                            rs.status.ready_replicas,
                            rs.status.available_replicas,
                        ],
                    )
                })
                .collect(),
        }
    }

    /// Whether a condition is new or different from before.
    pub fn condition_changed(&self, c: &ConditionView) -> bool {
        !self.conditions.iter().any(|b| {
            b.type_ == c.type_
                && b.status == c.status
                && b.reason == c.reason
                && b.message == c.message
        })
    }

    /// Which of a ReplicaSet's four counts changed (all, for a new ReplicaSet).
    pub fn counts_changed(&self, name: &str, now: [i32; 4]) -> [bool; 4] {
        match self.counts.iter().find(|(n, _)| n == name) {
            Some((_, before)) => std::array::from_fn(|i| before[i] != now[i]),
            None => [true; 4],
        }
    }
}

/// The reducer's state.
#[derive(Clone, Debug)]
pub struct Lab {
    /// What the form shows.
    pub settings: Settings,
    /// The settings the Deployment spec reflects (created with, or queued since).
    pub applied: Settings,
    /// The scenario Reset starts from (preset, import or the default): its create keeps the
    /// name, image and labels; its other actions are the script.
    pub base: Rc<Scenario>,
    /// The preset id (`custom`, a preset's id, or `imported`).
    pub preset: String,
    session: Rc<RefCell<Session>>,
    /// Bumped on every change of the simulation.
    pub version: u64,
    /// Playback is on.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Running (in chunks) towards the start of this round.
    pub seek: Option<u32>,
    /// The kubectl console, oldest first.
    pub console: Vec<ConsoleEntry>,
    /// The Deployment before the last move.
    pub before: Option<Rc<Snapshot>>,
    /// A message for the user (an import error, the end of the scenario …).
    pub notice: Option<String>,
    /// The object "Inside the controllers" inspects (`kind/name`; `None`: the Deployment).
    pub selected: Option<String>,
    /// "Inside the controllers" is open.
    pub inside_open: bool,
    /// The lesson or challenge being followed.
    pub guide: Option<crate::lesson::GuideState>,
    /// The quiz, when on.
    pub quiz: Option<crate::lesson::QuizState>,
}

impl PartialEq for Lab {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session)
            && self.version == other.version
            && self.settings == other.settings
            && self.applied == other.applied
            && self.preset == other.preset
            && self.playing == other.playing
            && self.speed == other.speed
            && self.seek == other.seek
            && self.console == other.console
            && self.notice == other.notice
            && self.selected == other.selected
            && self.inside_open == other.inside_open
            && self.guide == other.guide
            && self.quiz == other.quiz
    }
}

/// The scenario the app starts with: 3 replicas of nginx:1.14.2, 25% / 25%, 3 nodes. (Built
/// as values rather than read from JSON: it is a constant, and the app page's module is
/// counted in bytes.)
pub fn default_scenario() -> Scenario {
    use rollout_core::api::IntOrString;
    use rollout_core::scenario::StrategyInput;
    let percent = || Some(IntOrString::String("25%".into()));
    Scenario {
        name: "rollout-lab".into(),
        description: String::new(),
        rounds: 30,
        seconds_per_round: 5,
        ready_after_rounds: 1,
        termination_rounds: 0,
        never_ready_images: Vec::new(),
        nodes: 3,
        pod_quota: None,
        model: None,
        settle: false,
        actions: vec![Action {
            round: 0,
            kind: ActionKind::Create {
                deployment: DeploymentInput {
                    name: DEPLOYMENT_NAME.into(),
                    replicas: Some(3),
                    image: DEFAULT_IMAGE.into(),
                    strategy: Some(StrategyInput {
                        type_: Some("RollingUpdate".into()),
                        max_surge: percent(),
                        max_unavailable: percent(),
                        with_rolling_update: None,
                    }),
                    ..Default::default()
                },
            },
        }],
    }
}

fn default_input() -> DeploymentInput {
    DeploymentInput {
        name: DEPLOYMENT_NAME.into(),
        image: DEFAULT_IMAGE.into(),
        ..Default::default()
    }
}

/// `template` with the settings applied: its first create replaced by the settings' Deployment
/// and its cluster model by theirs.
pub fn build_scenario(settings: &Settings, template: &Scenario) -> Result<Scenario, Problems> {
    let base_input = first_create(template)
        .cloned()
        .unwrap_or_else(default_input);
    let spec = check_create(settings, &base_input);
    let model = parse_model(settings);
    let (input, model) = match (spec, model) {
        (Ok(i), Ok(m)) => (i, m),
        (spec, _) => {
            return Err(settings::all_problems(spec.map(|_| ()), settings));
        }
    };
    let mut s = template.clone();
    s.seconds_per_round = model.seconds_per_round;
    s.ready_after_rounds = model.ready_after_rounds;
    // The jitter's seed stays the template's (a preset's or an import's), so Reset replays the
    // same start-up times.
    s.model = match (model.ready_jitter, template.model.clone()) {
        (0, Some(m)) if m.seed == 0 => None,
        (0, Some(m)) => Some(ModelExtras {
            ready_jitter_rounds: 0,
            ..m
        }),
        (0, None) => None,
        (j, m) => Some(ModelExtras {
            ready_jitter_rounds: j,
            seed: m.map_or(1, |m| m.seed),
        }),
    };
    s.termination_rounds = model.termination_rounds;
    s.nodes = model.nodes;
    s.never_ready_images = if settings.never_ready {
        if template.never_ready_images.is_empty() {
            vec![images::never_ready_image(&input.image)]
        } else {
            template.never_ready_images.clone()
        }
    } else {
        Vec::new()
    };
    let create = ActionKind::Create { deployment: input };
    match s
        .actions
        .iter_mut()
        .find(|a| matches!(a.kind, ActionKind::Create { .. }))
    {
        Some(a) => a.kind = create,
        None => s.actions.insert(
            0,
            Action {
                round: 0,
                kind: create,
            },
        ),
    }
    Ok(s)
}

/// The most rounds an imported scenario may have (every step is kept for stepping back).
pub use rollout_core::limits::MAX_INTERACTIVE_ROUNDS as MAX_IMPORT_ROUNDS;

/// Whether the app can show a scenario: it creates a Deployment the settings can describe,
/// within the app's limits, and no action scales beyond them.
pub fn importable(s: &Scenario) -> Result<(), String> {
    let Some((settings, _)) = Settings::from_scenario(s) else {
        return Err("That scenario creates no Deployment: nothing to show.".into());
    };
    if s.rounds > MAX_IMPORT_ROUNDS {
        return Err(format!(
            "That scenario has {} rounds; Rollout Lab shows at most {}.",
            s.rounds,
            settings::group(i64::from(MAX_IMPORT_ROUNDS))
        ));
    }
    build_scenario(&settings, s)
        .map_err(|p| format!("That scenario cannot be shown: {}", p.summary))?;
    rollout_core::limits::check_scenario(s)
        .map_err(|e| format!("That scenario cannot be shown: {e}."))
}

/// The session of a scenario the settings produced (within the limits, which the settings
/// check); a scenario beyond them starts the default one.
fn session_of(scenario: Scenario) -> Session {
    Session::new(scenario).unwrap_or_else(|_| {
        Session::new(default_scenario()).expect("the default scenario is within the limits")
    })
}

impl Default for Lab {
    fn default() -> Self {
        Lab::from_scenario(default_scenario(), "custom")
    }
}

impl Lab {
    /// A lab that starts from `scenario` (its first create fills the settings).
    pub fn from_scenario(scenario: Scenario, preset: &str) -> Lab {
        let settings = Settings::from_scenario(&scenario)
            .map(|(s, _)| s)
            .unwrap_or_default();
        Lab {
            applied: settings.clone(),
            settings,
            preset: preset.to_string(),
            session: Rc::new(RefCell::new(session_of(scenario.clone()))),
            base: Rc::new(scenario),
            version: 0,
            playing: false,
            speed: DEFAULT_SPEED,
            seek: None,
            console: Vec::new(),
            before: None,
            notice: None,
            selected: None,
            inside_open: false,
            guide: None,
            quiz: None,
        }
    }

    /// A lab that follows a lesson from its step `step` (`None` for an unknown id).
    pub fn from_lesson(id: &str, step: usize) -> Option<Lab> {
        let lesson = rollout_core::lessons::lesson(id)?;
        let scenario = lesson.scenario.scenario().ok()?;
        let mut lab = Lab::from_scenario(scenario, "lesson");
        let step = step.min(lesson.steps.len() - 1);
        let mut guide = crate::lesson::GuideState::lesson(lesson);
        guide.guide = crate::lesson::Guide::Lesson { lesson, step };
        guide.error = lab
            .session
            .borrow_mut()
            .advance_with(|sim| crate::lesson::run_lesson(lesson, sim, None, step))
            .err();
        lab.guide = Some(guide);
        Some(lab)
    }

    /// A lab set up for a challenge (`None` for an unknown id).
    pub fn from_challenge(id: &str) -> Option<Lab> {
        let challenge = rollout_core::lessons::challenge(id)?;
        let mut lab = Lab::from_scenario(challenge.base().ok()?, "challenge");
        lab.guide = Some(crate::lesson::GuideState::challenge(challenge));
        Some(lab)
    }

    fn update_guide(&mut self, msg: Msg) {
        use crate::lesson::Guide;
        let Some(mut g) = self.guide.take() else {
            return;
        };
        match (msg, &mut g.guide) {
            (Msg::LessonNext, Guide::Lesson { lesson, step }) if *step + 1 < lesson.steps.len() => {
                let from = *step;
                *step += 1;
                self.remember();
                let to = *step;
                g.error = self
                    .session
                    .borrow_mut()
                    .advance_with(|sim| crate::lesson::run_lesson(lesson, sim, Some(from), to))
                    .err();
                g.answer.clear();
                g.feedback = None;
                self.bump();
            }
            (Msg::LessonBack, Guide::Lesson { lesson, step }) if *step > 0 => {
                if let Some(mut lab) = Lab::from_lesson(lesson.id, *step - 1) {
                    lab.version = self.version.wrapping_add(1);
                    lab.speed = self.speed;
                    *self = lab;
                    return;
                }
            }
            (Msg::LessonAnswer(a), _) => g.answer = a,
            (Msg::LessonCheck, Guide::Lesson { lesson, step }) => {
                g.feedback = crate::lesson::check(lesson, *step, &self.sim(), &g.answer);
            }
            (Msg::LessonShowMe, Guide::Lesson { lesson, step }) => {
                let q = lesson.steps[*step].question;
                let expected = q.and_then(|q| {
                    rollout_core::lessons::question::expected(&q.ask, &self.sim()).ok()
                });
                if let Some(e) = expected {
                    self.remember();
                    self.session.borrow_mut().advance_with(|sim| {
                        for _ in 0..e.steps {
                            sim.step();
                        }
                    });
                    self.bump();
                }
            }
            (Msg::ChallengeAnswer(i, a), Guide::Challenge { answers, .. }) => {
                if let Some(slot) = answers.get_mut(i) {
                    *slot = a;
                }
            }
            (
                Msg::ChallengeCheck,
                Guide::Challenge {
                    challenge,
                    results,
                    answers,
                },
            ) => {
                *results = Some(crate::lesson::check_challenge(
                    challenge,
                    &self.sim(),
                    answers,
                ));
            }
            (Msg::CloseGuide, _) => return,
            _ => {}
        }
        self.guide = Some(g);
    }

    /// A lab that starts from a preset (`None` for an unknown id).
    pub fn from_preset(id: &str) -> Option<Lab> {
        if id == "custom" {
            return Some(Lab::default());
        }
        rollout_core::presets::preset(id).map(|p| Lab::from_scenario(p.scenario, p.id))
    }

    /// Takes up to `steps` steps at once (restoring a permalink); returns how many it took.
    pub fn fast_forward(&mut self, steps: usize) -> usize {
        let mut taken = 0;
        {
            let mut session = self.session.borrow_mut();
            while taken < steps && !session.sim().finished() {
                session.mark();
                if !session.sync() {
                    break;
                }
                taken += 1;
            }
        }
        self.bump();
        taken
    }

    /// The simulation, to read.
    pub fn sim(&self) -> Ref<'_, Simulation> {
        Ref::map(self.session.borrow(), |s| s.sim())
    }

    /// The session (commands, pending commands and what they imply, links), to read.
    pub fn session(&self) -> Ref<'_, Session> {
        self.session.borrow()
    }

    /// The Deployment the controls act on.
    pub fn deployment(&self) -> String {
        first_create(&self.base).map_or_else(|| DEPLOYMENT_NAME.to_string(), |d| d.name.clone())
    }

    /// The image the Deployment was created with.
    pub fn initial_image(&self) -> String {
        first_create(&self.base).map_or_else(|| DEFAULT_IMAGE.to_string(), |d| d.image.clone())
    }

    /// Whether anything has run (settings edits then become queued updates).
    pub fn started(&self) -> bool {
        self.sim().steps_taken() > 0
    }

    /// What is wrong with the settings, as the API server (or the app) would say it.
    pub fn problems(&self) -> Problems {
        let base = first_create(&self.base)
            .cloned()
            .unwrap_or_else(default_input);
        let sim = self.sim();
        let spec = match sim.api().deployment(&self.deployment()) {
            Some(d) if self.started() => check_update(&self.settings, &base, d).map(|_| ()),
            _ => check_create(&self.settings, &base).map(|_| ()),
        };
        settings::all_problems(spec, &self.settings)
    }

    /// The image the next "Roll out a new image" sets.
    pub fn next_image(&self) -> String {
        images::next_image(
            self.sim().scenario(),
            &self.initial_image(),
            self.settings.never_ready,
        )
    }

    fn bump(&mut self) {
        self.version = self.version.wrapping_add(1);
    }

    fn replace_sim(&mut self, session: Session) {
        self.session = Rc::new(RefCell::new(session));
        self.before = None;
        self.playing = false;
        self.seek = None;
        self.bump();
    }

    fn remember(&mut self) {
        let snap = Snapshot::of(&self.sim(), &self.deployment());
        self.before = Some(Rc::new(snap));
    }

    fn say(&mut self, entry: ConsoleEntry) {
        self.console.push(entry);
        if self.console.len() > CONSOLE_LINES {
            let extra = self.console.len() - CONSOLE_LINES;
            self.console.drain(..extra);
        }
    }

    /// Runs a kubectl command in the session (refused as kubectl or the API server would
    /// refuse it, or queued for the next round) and reports it in the console as kubectl would.
    fn kubectl(&mut self, command: Command) -> Reply {
        let reply = {
            let mut session = self.session.borrow_mut();
            let reply = session.run(&command);
            if let Some(round) = reply.round {
                if session.scenario().rounds < round.saturating_add(EXTEND_BY) {
                    session.extend_rounds(round.saturating_add(EXTEND_BY));
                }
            }
            reply
        };
        self.say(ConsoleEntry {
            command: reply.command.clone(),
            output: reply.output.clone(),
            error: reply.refused,
            round: reply.round,
        });
        self.bump();
        reply
    }

    /// Applies a message.
    pub fn update(&mut self, msg: Msg) {
        match msg {
            Msg::OpenLesson(id, step) => match Lab::from_lesson(&id, step) {
                Some(mut lab) => {
                    lab.version = self.version.wrapping_add(1);
                    lab.speed = self.speed;
                    *self = lab;
                }
                None => self.notice = Some(format!("There is no lesson called \"{id}\".")),
            },
            Msg::OpenChallenge(id) => match Lab::from_challenge(&id) {
                Some(mut lab) => {
                    lab.version = self.version.wrapping_add(1);
                    lab.speed = self.speed;
                    *self = lab;
                }
                None => self.notice = Some(format!("There is no challenge called \"{id}\".")),
            },
            Msg::ToggleQuiz => {
                self.quiz = match self.quiz {
                    Some(_) => None,
                    None => Some(crate::lesson::QuizState::default()),
                }
            }
            Msg::QuizAnswer(a) => {
                if let Some(q) = self.quiz.as_mut() {
                    q.answer = a;
                }
            }
            Msg::QuizCheck => {
                let at = self.sim().steps_taken();
                let checked =
                    rollout_core::lessons::quiz::next_question(&self.sim()).map(|question| {
                        let answer = self
                            .quiz
                            .as_ref()
                            .map(|q| q.answer.clone())
                            .unwrap_or_default();
                        rollout_core::lessons::question::check(
                            &question.question(),
                            &self.sim(),
                            &answer,
                        )
                    });
                if let (Some(q), Some(result)) = (self.quiz.as_mut(), checked) {
                    q.record(at, result);
                }
            }
            m @ (Msg::LessonNext
            | Msg::LessonBack
            | Msg::LessonAnswer(_)
            | Msg::LessonCheck
            | Msg::LessonShowMe
            | Msg::ChallengeAnswer(..)
            | Msg::ChallengeCheck
            | Msg::CloseGuide) => self.update_guide(m),
            Msg::Edit(field, value) => {
                self.settings.set(field, value);
                self.live_preview();
            }
            Msg::SetNeverReady(on) => {
                self.settings.never_ready = on;
                self.live_preview();
            }
            Msg::LoadPreset(id) => match Lab::from_preset(&id) {
                Some(mut lab) => {
                    lab.version = self.version.wrapping_add(1);
                    lab.speed = self.speed;
                    *self = lab;
                }
                None => self.notice = Some(format!("There is no preset called \"{id}\".")),
            },
            Msg::Import(text) => match Scenario::from_json(&text) {
                Ok(s) => match importable(&s) {
                    Ok(()) => {
                        let mut lab = Lab::from_scenario(s, "imported");
                        lab.version = self.version.wrapping_add(1);
                        lab.speed = self.speed;
                        lab.notice = Some("Scenario imported: step through it, or Reset.".into());
                        *self = lab;
                    }
                    Err(why) => self.notice = Some(why),
                },
                Err(e) => self.notice = Some(format!("Could not read that scenario: {e}")),
            },
            Msg::Step => {
                self.playing = false;
                self.seek = None;
                self.step_once(true);
            }
            Msg::StepBack => {
                self.playing = false;
                self.seek = None;
                self.remember();
                if self.session.borrow_mut().step_back() {
                    self.bump();
                }
            }
            Msg::StepRound => {
                self.playing = false;
                self.seek = None;
                self.remember();
                self.session.borrow_mut().step_round();
                self.bump();
            }
            Msg::BackRound => {
                self.playing = false;
                self.seek = None;
                let (round, start) = {
                    let sim = self.sim();
                    (sim.round(), sim.at_round_start())
                };
                let target = if start {
                    round.saturating_sub(1)
                } else {
                    round
                };
                self.rewind_to(target);
            }
            Msg::TogglePlay => {
                self.seek = None;
                if self.playing {
                    self.playing = false;
                } else {
                    let mut session = self.session.borrow_mut();
                    if session.sim().finished() {
                        let rounds = session.scenario().rounds.saturating_add(EXTEND_BY);
                        session.extend_rounds(rounds);
                    }
                    drop(session);
                    self.playing = true;
                }
                self.bump();
            }
            Msg::Tick => {
                if !self.playing {
                    return;
                }
                if self.sim().finished() {
                    self.playing = false;
                    self.notice = Some(format!(
                        "End of the scenario (round {}). Step or play to go on.",
                        self.sim().scenario().rounds
                    ));
                    self.bump();
                } else {
                    self.step_once(false);
                }
            }
            Msg::SetSpeed(i) => self.speed = i.min(SPEEDS.len() - 1),
            Msg::ToEnd => {
                self.playing = false;
                let end = self.sim().scenario().rounds;
                self.seek = Some(end);
                self.remember();
                self.advance();
            }
            Msg::SeekRound(target) => {
                self.playing = false;
                let (round, start) = {
                    let sim = self.sim();
                    (sim.round(), sim.at_round_start())
                };
                if target < round || (target == round && !start) {
                    self.seek = None;
                    self.rewind_to(target);
                } else if target > round {
                    self.remember();
                    self.seek = Some(target);
                    self.advance();
                }
            }
            Msg::Advance => self.advance(),
            Msg::Reset => match build_scenario(&self.settings, &self.base) {
                Ok(s) => {
                    self.applied = self.settings.clone();
                    self.console.clear();
                    self.notice = None;
                    self.replace_sim(session_of(s));
                }
                Err(p) => {
                    self.notice = Some(format!("Reset needs valid settings: {}", p.summary));
                    self.bump();
                }
            },
            Msg::UpdateImage => {
                let image = self.next_image();
                self.kubectl(Command::SetImage { image });
            }
            Msg::Scale => {
                let text = self.settings.replicas.trim().to_string();
                let reply = self.kubectl(Command::Scale {
                    replicas: text.clone(),
                });
                if !reply.refused {
                    self.applied.replicas = text;
                }
            }
            Msg::PauseRollout => {
                self.kubectl(Command::Pause);
            }
            Msg::ResumeRollout => {
                self.kubectl(Command::Resume);
            }
            Msg::Undo(to_revision) => {
                self.kubectl(Command::Undo { to_revision });
            }
            Msg::LegacyRollback(revision) => {
                self.kubectl(Command::RollbackAnnotation { revision });
            }
            Msg::ApplySpec => self.apply_spec(),
            Msg::Cancel(index) => self.cancel(index),
            Msg::DismissNotice => self.notice = None,
            Msg::Notice(text) => self.notice = Some(text),
            Msg::Select(object) => {
                if let (Some(pod), Some(q)) = (object.strip_prefix("pod/"), self.quiz.as_mut()) {
                    q.answer = pod.to_string();
                }
                // A click on a pod answers a lesson's "which pod goes next?".
                if let (Some(pod), Some(g)) = (object.strip_prefix("pod/"), self.guide.as_mut()) {
                    if matches!(g.guide, crate::lesson::Guide::Lesson { .. }) {
                        g.answer = pod.to_string();
                    }
                }
                self.selected = Some(object);
                self.inside_open = true;
            }
            Msg::ToggleInside => self.inside_open = !self.inside_open,
            Msg::Inside(crate::inside::Request::Select(object)) => self.update(Msg::Select(object)),
            Msg::Inside(crate::inside::Request::Act(action)) => {
                self.kubectl(Command::Action { action });
            }
            Msg::SetQuota(text) => self.set_quota(text),
        }
    }

    /// `kubectl create quota` / `kubectl delete quota`.
    fn set_quota(&mut self, pods: Option<String>) {
        self.kubectl(Command::SetPodQuota { pods });
    }

    /// Before the first step, valid settings re-create the simulation at once (keeping the
    /// queued actions); invalid ones are not applied.
    fn live_preview(&mut self) {
        if self.started() {
            return;
        }
        let template = self.sim().scenario().clone();
        if let Ok(s) = build_scenario(&self.settings, &template) {
            self.applied = self.settings.clone();
            self.replace_sim(session_of(s));
        }
    }

    fn step_once(&mut self, extend: bool) {
        self.remember();
        let mut session = self.session.borrow_mut();
        if session.sim().finished() {
            if !extend {
                return;
            }
            let rounds = session.scenario().rounds.saturating_add(EXTEND_BY);
            session.extend_rounds(rounds);
        }
        session.mark();
        let moved = session.sync();
        drop(session);
        if moved {
            self.bump();
        }
    }

    /// Steps back to the start of round `target` (or as far as history goes).
    fn rewind_to(&mut self, target: u32) {
        self.remember();
        let before = self.sim().steps_taken();
        self.session.borrow_mut().rewind_to_round(target);
        if self.sim().steps_taken() != before {
            self.bump();
        }
    }

    /// Runs towards the seek target for at most [`CHUNK_MS`].
    fn advance(&mut self) {
        let Some(target) = self.seek else { return };
        let deadline = now_ms() + CHUNK_MS;
        let mut session = self.session.borrow_mut();
        let mut moved = false;
        loop {
            let sim = session.sim();
            if sim.finished() || (sim.round() >= target && sim.at_round_start()) {
                self.seek = None;
                break;
            }
            if !moved {
                session.mark();
            }
            session.sync();
            moved = true;
            if now_ms() > deadline {
                break;
            }
        }
        drop(session);
        if moved || self.seek.is_none() {
            self.bump();
        }
    }

    /// Queues the edited spec fields, each as the patch kubectl would send, if the API server
    /// would accept the result.
    fn apply_spec(&mut self) {
        if !self.started() {
            return;
        }
        let name = self.deployment();
        let base = first_create(&self.base)
            .cloned()
            .unwrap_or_else(default_input);
        let checked = {
            let sim = self.sim();
            sim.api()
                .deployment(&name)
                .map(|d| check_update(&self.settings, &base, d))
        };
        use rollout_core::kubectl::check_err;
        let refused = match checked {
            None => Err(check_err::not_found("deployments.apps", &name)),
            Some(Err(p)) => Err(check_err::client_error(&p.summary)),
            Some(Ok(input)) => Ok(input),
        };
        let input = match refused {
            Ok(input) => input,
            Err(output) => {
                self.say(ConsoleEntry {
                    command: format!("kubectl apply -f {name}.yaml"),
                    output,
                    error: true,
                    round: None,
                });
                self.bump();
                return;
            }
        };
        let s = self.settings.clone();
        let a = self.applied.clone();
        let mut kinds = Vec::new();
        if s.field_differs(&a, Field::Replicas) {
            if let Some(replicas) = input.replicas {
                kinds.push(ActionKind::Scale {
                    name: None,
                    replicas,
                });
            }
        }
        if [Field::Strategy, Field::MaxSurge, Field::MaxUnavailable]
            .iter()
            .any(|&f| s.field_differs(&a, f))
        {
            if let Some(strategy) = input.strategy.clone() {
                kinds.push(ActionKind::SetStrategy {
                    name: None,
                    strategy,
                });
            }
        }
        if s.field_differs(&a, Field::MinReadySeconds) {
            kinds.push(ActionKind::SetMinReadySeconds {
                name: None,
                value: input.min_ready_seconds.unwrap_or(0),
            });
        }
        if s.field_differs(&a, Field::ProgressDeadlineSeconds) {
            kinds.push(ActionKind::SetProgressDeadlineSeconds {
                name: None,
                value: input.progress_deadline_seconds.unwrap_or(600),
            });
        }
        if s.field_differs(&a, Field::RevisionHistoryLimit) {
            kinds.push(ActionKind::SetRevisionHistoryLimit {
                name: None,
                value: input.revision_history_limit.unwrap_or(10),
            });
        }
        for action in kinds {
            self.kubectl(Command::Action { action });
        }
        self.applied.take_spec(&s);
        self.bump();
    }

    /// Drops a pending action: the simulation is rebuilt without it and replayed to the same
    /// step (it is deterministic, so the past is unchanged).
    fn cancel(&mut self, index: usize) {
        if self.session.borrow_mut().cancel(index) {
            self.bump();
        }
    }
}

impl Reducible for Lab {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut next = (*self).clone();
        next.update(msg);
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

/// One row of the events table (`kubectl describe`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Normal or Warning.
    pub type_: String,
    /// Reason.
    pub reason: String,
    /// AGE.
    pub age: String,
    /// FROM.
    pub from: &'static str,
    /// Message.
    pub message: String,
    /// `Deployment/web`, `ReplicaSet/web-rev1`.
    pub object: String,
    /// The round it was recorded in.
    pub round: u32,
}

/// One pending action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingRow {
    /// Index in the scenario's actions (for cancelling).
    pub index: usize,
    /// The round it takes effect in.
    pub round: u32,
    /// The scenario's type name.
    pub type_name: &'static str,
    /// As a kubectl command.
    pub command: String,
}

/// Everything the page shows, computed once per simulation version.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The cluster now (its ReplicaSets are in [`Frame::replica_sets`]).
    pub cluster: ClusterView,
    /// The ReplicaSets in creation order, shared with the cards (no deep copies of pods).
    pub replica_sets: Rc<Vec<Rc<ReplicaSetView>>>,
    /// The pod-count chart of the Deployment.
    pub chart: Vec<ChartPoint>,
    /// Pods the last step removed.
    pub departed: Vec<DepartedPod>,
    /// The last step, explained.
    pub explanation: Option<Explanation>,
    /// Events about the Deployment (oldest first, the newest [`EVENT_ROWS`]).
    pub deployment_events: Vec<EventRow>,
    /// Events about everything (oldest first, the newest [`EVENT_ROWS`]).
    pub all_events: Vec<EventRow>,
    /// Events recorded in total.
    pub event_count: usize,
    /// `kubectl rollout history`.
    pub history: Vec<HistoryEntry>,
    /// Actions that have not been applied yet.
    pub pending: Vec<PendingRow>,
    /// Rounds with actions (for the timeline).
    pub action_rounds: Vec<u32>,
    /// The round of the next step.
    pub round: u32,
    /// The clock.
    pub time: Time,
    /// Nothing of this round has run yet.
    pub at_round_start: bool,
    /// Every round has run.
    pub finished: bool,
    /// There is a step to go back to.
    pub can_back: bool,
    /// Steps taken.
    pub steps: usize,
    /// The scenario's rounds.
    pub horizon: u32,
    /// The Deployment's name.
    pub deployment: String,
}

impl Frame {
    /// The frame of a lab now.
    pub fn of(lab: &Lab) -> Frame {
        let sim = lab.sim();
        let deployment = lab.deployment();
        let now = sim.now();
        let row = |e: &rollout_core::sim::LoggedEvent| EventRow {
            type_: e.event.type_.to_string(),
            reason: e.event.reason.to_string(),
            age: age(now - e.event.time),
            from: event_source(e.phase),
            message: e.event.message.clone(),
            object: format!("{}/{}", e.event.kind, e.event.name),
            round: e.round,
        };
        let mut deployment_events: Vec<EventRow> = sim
            .events()
            .rev()
            .filter(|e| e.event.kind == "Deployment" && e.event.name == deployment)
            .take(EVENT_ROWS)
            .map(|e| row(e))
            .collect();
        deployment_events.reverse();
        let mut all_events: Vec<EventRow> = sim
            .events()
            .rev()
            .take(EVENT_ROWS)
            .map(|e| row(e))
            .collect();
        all_events.reverse();
        let from = sim.next_action_round();
        let scenario = sim.scenario();
        let pending = scenario
            .actions
            .iter()
            .enumerate()
            .filter(|(_, a)| a.round >= from)
            .map(|(index, a)| PendingRow {
                index,
                round: a.round,
                type_name: a.kind.type_name(),
                command: kubectl_command(&a.kind, &deployment),
            })
            .collect();
        let mut action_rounds: Vec<u32> = scenario.actions.iter().map(|a| a.round).collect();
        action_rounds.dedup();
        let mut cluster = cluster_view(&sim);
        let replica_sets = Rc::new(
            std::mem::take(&mut cluster.replica_sets)
                .into_iter()
                .map(Rc::new)
                .collect(),
        );
        Frame {
            cluster,
            replica_sets,
            chart: chart_series(&sim, &deployment),
            departed: departed_pods(&sim),
            explanation: sim.last_step().map(|r| explain(r, &deployment)),
            deployment_events,
            all_events,
            event_count: sim.events().count(),
            history: rollout_history(sim.api(), &deployment),
            pending,
            action_rounds,
            round: sim.round(),
            time: now,
            at_round_start: sim.at_round_start(),
            finished: sim.finished(),
            can_back: sim.can_step_back(),
            steps: sim.steps_taken(),
            horizon: scenario.rounds,
            deployment,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab::default()
    }

    fn run_rounds(lab: &mut Lab, n: u32) {
        for _ in 0..n {
            lab.update(Msg::StepRound);
        }
    }

    #[test]
    fn the_default_scenario_is_valid_and_pending() {
        let json = r#"{"name":"rollout-lab","description":"","rounds":30,"secondsPerRound":5,
            "readyAfterRounds":1,"terminationRounds":0,"neverReadyImages":[],"nodes":3,
            "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":3,
            "image":"nginx:1.14.2","strategy":{"type":"RollingUpdate","maxSurge":"25%",
            "maxUnavailable":"25%"}}}]}"#;
        assert_eq!(default_scenario(), Scenario::from_json(json).unwrap());
        let lab = lab();
        assert_eq!(lab.settings, Settings::default());
        let f = Frame::of(&lab);
        assert_eq!(f.round, 0);
        assert_eq!(f.pending.len(), 1);
        assert_eq!(
            f.pending[0].command,
            "kubectl create deployment web --image=nginx:1.14.2 --replicas=3"
        );
        assert!(f.cluster.deployments.is_empty());
        assert!(lab.problems().is_empty());
    }

    #[test]
    fn edits_before_the_first_step_recreate_the_simulation() {
        let mut lab = lab();
        lab.update(Msg::Edit(Field::Replicas, "7".into()));
        assert_eq!(lab.applied.replicas, "7");
        lab.update(Msg::Step);
        lab.update(Msg::Step);
        let f = Frame::of(&lab);
        assert_eq!(f.replica_sets[0].desired, 7);
    }

    #[test]
    fn invalid_settings_are_shown_and_not_applied() {
        let mut lab = lab();
        lab.update(Msg::Edit(Field::MaxSurge, "0".into()));
        lab.update(Msg::Edit(Field::MaxUnavailable, "0".into()));
        let p = lab.problems();
        assert!(
            p.summary.ends_with("may not be 0 when `maxSurge` is 0"),
            "{}",
            p.summary
        );
        assert_eq!(lab.applied.max_surge, "0", "0 / 25% was valid and applied");
        assert_eq!(lab.applied.max_unavailable, "25%", "0 / 0 was not");
        let create = first_create(lab.sim().scenario()).unwrap().clone();
        let st = create.strategy.unwrap();
        assert_eq!(st.max_unavailable.unwrap().to_string(), "25%");
    }

    #[test]
    fn after_the_start_edits_wait_for_apply() {
        let mut lab = lab();
        run_rounds(&mut lab, 3);
        lab.update(Msg::Edit(Field::Replicas, "5".into()));
        assert!(lab.settings.spec_differs(&lab.applied));
        assert!(Frame::of(&lab).pending.is_empty());
        lab.update(Msg::ApplySpec);
        let f = Frame::of(&lab);
        assert_eq!(f.pending.len(), 1);
        assert_eq!(
            f.pending[0].command,
            "kubectl scale deployment/web --replicas=5"
        );
        assert_eq!(f.pending[0].round, 3);
        assert!(!lab.settings.spec_differs(&lab.applied));
        run_rounds(&mut lab, 1);
        assert_eq!(
            Frame::of(&lab).cluster.deployments[0].object.spec.replicas,
            5
        );
    }

    #[test]
    fn apply_refuses_what_the_api_refuses() {
        let mut lab = lab();
        run_rounds(&mut lab, 2);
        lab.update(Msg::Edit(Field::MaxSurge, "0".into()));
        lab.update(Msg::Edit(Field::MaxUnavailable, "0".into()));
        lab.update(Msg::ApplySpec);
        assert!(Frame::of(&lab).pending.is_empty());
        let last = lab.console.last().unwrap();
        assert!(last.error);
        assert!(last
            .output
            .starts_with("error: Deployment.apps \"web\" is invalid"));
    }

    #[test]
    fn update_image_is_pending_until_its_round() {
        let mut lab = lab();
        run_rounds(&mut lab, 4);
        lab.update(Msg::UpdateImage);
        let entry = lab.console.last().unwrap().clone();
        assert_eq!(
            entry.command,
            "kubectl set image deployment/web app=nginx:1.16.1"
        );
        assert_eq!(entry.output, "deployment.apps/web image updated");
        assert_eq!(entry.round, Some(4));
        assert_eq!(Frame::of(&lab).pending.len(), 1);
        lab.update(Msg::Step);
        assert!(Frame::of(&lab).pending.is_empty());
        // The next click rolls out the version after.
        assert_eq!(lab.next_image(), "nginx:1.18.0");
    }

    #[test]
    fn the_never_ready_switch_rolls_out_the_misspelt_tag_first() {
        let mut lab = lab();
        lab.update(Msg::SetNeverReady(true));
        assert_eq!(lab.sim().scenario().never_ready_images, vec!["nginx:1.161"]);
        assert_eq!(lab.next_image(), "nginx:1.161");
        run_rounds(&mut lab, 3);
        lab.update(Msg::UpdateImage);
        assert_eq!(lab.next_image(), "nginx:1.16.1");
        run_rounds(&mut lab, 8);
        let f = Frame::of(&lab);
        let status = &f.cluster.deployments[0].rollout_status;
        assert!(!status.done);
        assert_eq!(
            status.message,
            "Waiting for deployment \"web\" rollout to finish: 1 out of 3 new replicas have been updated...\n"
        );
    }

    #[test]
    fn undo_follows_kubectl() {
        let mut lab = Lab::from_preset("bad-image-stuck").unwrap();
        // Judged against the cluster once the pending create has been applied.
        lab.update(Msg::Undo(0));
        assert_eq!(
            lab.console.last().unwrap().output,
            "error: no rollout history found for deployment \"web\""
        );
        run_rounds(&mut lab, 15);
        lab.update(Msg::PauseRollout);
        run_rounds(&mut lab, 1);
        lab.update(Msg::Undo(0));
        assert!(lab
            .console
            .last()
            .unwrap()
            .output
            .starts_with("error: you cannot rollback a paused deployment"));
        lab.update(Msg::ResumeRollout);
        run_rounds(&mut lab, 1);
        lab.update(Msg::Undo(2));
        assert_eq!(
            lab.console.last().unwrap().output,
            "deployment.apps/web skipped rollback (current template already matches revision 2)"
        );
        lab.update(Msg::Undo(0));
        let last = lab.console.last().unwrap().clone();
        assert_eq!(last.command, "kubectl rollout undo deployment/web");
        assert_eq!(last.output, "deployment.apps/web rolled back");
        let pending = Frame::of(&lab).pending;
        assert_eq!(
            pending.last().unwrap().command,
            "kubectl rollout undo deployment/web"
        );
        run_rounds(&mut lab, 15);
        let f = Frame::of(&lab);
        assert!(
            f.cluster.deployments[0].rollout_status.done,
            "{:?}",
            f.cluster.deployments[0].rollout_status
        );
        // No DeploymentRollback event: the client-side undo is an ordinary template change.
        assert!(!f
            .all_events
            .iter()
            .any(|e| e.reason == "DeploymentRollback"));
    }

    #[test]
    fn the_legacy_rollback_emits_its_event() {
        let mut lab = Lab::from_preset("bad-image-stuck").unwrap();
        run_rounds(&mut lab, 15);
        lab.update(Msg::LegacyRollback(0));
        run_rounds(&mut lab, 1);
        let f = Frame::of(&lab);
        assert!(
            f.deployment_events
                .iter()
                .any(|e| e.reason == "DeploymentRollback"),
            "{:?}",
            f.deployment_events
        );
    }

    #[test]
    fn step_back_and_seek() {
        let mut lab = lab();
        run_rounds(&mut lab, 3);
        let at3 = Frame::of(&lab);
        lab.update(Msg::Step);
        lab.update(Msg::StepBack);
        assert_eq!(Frame::of(&lab).cluster, at3.cluster);
        lab.update(Msg::SeekRound(1));
        assert_eq!(
            (Frame::of(&lab).round, Frame::of(&lab).at_round_start),
            (1, true)
        );
        lab.update(Msg::SeekRound(5));
        while lab.seek.is_some() {
            lab.update(Msg::Advance);
        }
        assert_eq!(Frame::of(&lab).round, 5);
        lab.update(Msg::ToEnd);
        while lab.seek.is_some() {
            lab.update(Msg::Advance);
        }
        let f = Frame::of(&lab);
        assert!(f.finished);
        assert_eq!(f.round, 30);
        lab.update(Msg::Step);
        let f = Frame::of(&lab);
        assert_eq!(
            (f.horizon, f.round),
            (30 + EXTEND_BY, 30),
            "stepping past the end extends it"
        );
    }

    #[test]
    fn playing_stops_at_the_end() {
        let mut lab = Lab::from_preset("rolling-basic").unwrap();
        lab.update(Msg::ToEnd);
        while lab.seek.is_some() {
            lab.update(Msg::Advance);
        }
        lab.update(Msg::TogglePlay);
        assert!(lab.playing);
        // Play at the end extends the scenario and goes on.
        for _ in 0..1000 {
            lab.update(Msg::Tick);
        }
        assert!(!lab.playing);
        assert!(lab
            .notice
            .as_deref()
            .unwrap_or("")
            .starts_with("End of the scenario"));
    }

    #[test]
    fn cancelling_a_pending_action_keeps_the_past() {
        let mut lab = Lab::from_preset("rolling-basic").unwrap();
        run_rounds(&mut lab, 2);
        lab.update(Msg::Step);
        let before = Frame::of(&lab);
        let set_image = before
            .pending
            .iter()
            .find(|p| p.type_name == "setImage")
            .unwrap();
        lab.update(Msg::Cancel(set_image.index));
        let after = Frame::of(&lab);
        assert!(after.pending.is_empty());
        assert_eq!(after.cluster, before.cluster);
        assert_eq!(after.steps, before.steps);
        assert!(after.can_back);
    }

    #[test]
    fn presets_and_imports() {
        let mut lab = lab();
        lab.update(Msg::LoadPreset("recreate".into()));
        assert_eq!(lab.preset, "recreate");
        assert_eq!(lab.settings.strategy, settings::StrategyKind::Recreate);
        assert_eq!(lab.settings.termination_rounds, "5");
        let json = serde_json::to_string(lab.sim().scenario()).unwrap();
        lab.update(Msg::LoadPreset("custom".into()));
        lab.update(Msg::Import(json));
        assert_eq!(lab.preset, "imported");
        assert_eq!(lab.settings.strategy, settings::StrategyKind::Recreate);
        lab.update(Msg::Import("{".into()));
        assert!(lab
            .notice
            .as_deref()
            .unwrap()
            .starts_with("Could not read that scenario"));
        let notice = |lab: &Lab| lab.notice.clone().unwrap_or_default();
        lab.update(Msg::Import(r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":50000}}]}"#.into()));
        assert!(
            notice(&lab).contains("at most 10,000 replicas"),
            "{}",
            notice(&lab)
        );
        lab.update(Msg::Import(r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}},{"round":3,"type":"scale","replicas":99999}]}"#.into()));
        assert!(notice(&lab).contains("actions[1] (round 3): scales to 99999 replicas; Rollout Lab simulates at most 10,000 replicas"));
        lab.update(Msg::Import(r#"{"rounds":50000,"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}}]}"#.into()));
        assert!(notice(&lab).contains("at most 2,000"));
        lab.update(Msg::Import(r#"{"actions":[]}"#.into()));
        assert!(notice(&lab).contains("creates no Deployment"));
        assert_eq!(
            lab.preset, "imported",
            "the refused imports changed nothing"
        );
        lab.update(Msg::LoadPreset("nope".into()));
        assert_eq!(lab.preset, "imported");
    }

    #[test]
    fn reset_starts_over_from_the_settings_and_keeps_the_script() {
        let mut lab = Lab::from_preset("rolling-basic").unwrap();
        run_rounds(&mut lab, 2);
        lab.update(Msg::UpdateImage);
        lab.update(Msg::Edit(Field::Nodes, "1".into()));
        lab.update(Msg::Reset);
        let f = Frame::of(&lab);
        assert_eq!(f.steps, 0);
        let s = lab.sim().scenario().clone();
        assert_eq!(s.nodes, 1);
        assert_eq!(
            s.actions.len(),
            2,
            "create + the preset's setImage, not the user's"
        );
    }

    #[test]
    fn changes_are_highlighted_against_the_previous_state() {
        let mut lab = lab();
        lab.update(Msg::Step);
        lab.update(Msg::Step);
        let before = lab.before.clone().unwrap();
        let f = Frame::of(&lab);
        let d = &f.cluster.deployments[0];
        assert!(d.conditions.iter().all(|c| before.condition_changed(c)));
        // The ReplicaSet's status counts its pods one sync after it creates them.
        for _ in 0..4 {
            lab.update(Msg::Step);
        }
        let before = lab.before.clone().unwrap();
        let f = Frame::of(&lab);
        let rs = &f.replica_sets[0];
        assert_eq!(
            before.counts_changed(&rs.name, [rs.desired, rs.current, rs.ready, rs.available]),
            [false, true, false, false]
        );
    }

    #[test]
    fn scale_refuses_what_kubectl_refuses() {
        let mut lab = lab();
        lab.update(Msg::Edit(Field::Replicas, "abc".into()));
        lab.update(Msg::Scale);
        assert!(lab.console.last().unwrap().error);
        lab.update(Msg::Edit(Field::Replicas, "20000".into()));
        lab.update(Msg::Scale);
        assert!(lab
            .console
            .last()
            .unwrap()
            .output
            .contains("at most 10,000"));
        assert!(Frame::of(&lab).pending.len() == 1, "only the create");
    }

    #[test]
    fn a_pod_quota_is_created_refused_and_deleted_as_with_kubectl() {
        let mut lab = lab();
        let last = |lab: &Lab| lab.console.last().unwrap().clone();
        lab.update(Msg::SetQuota(None));
        assert_eq!(
            last(&lab).output,
            "Error from server (NotFound): resourcequotas \"pods-quota\" not found"
        );
        lab.update(Msg::SetQuota(Some("x".into())));
        assert!(last(&lab).error && last(&lab).output.starts_with("error: "));
        assert_eq!(lab.session().quota_after_pending(), None);
        lab.update(Msg::SetQuota(Some(" 3 ".into())));
        assert_eq!(
            last(&lab).command,
            "kubectl create quota pods-quota --hard=pods=3"
        );
        assert_eq!(last(&lab).output, "resourcequota/pods-quota created");
        assert_eq!(lab.session().quota_after_pending(), Some(3));
        lab.update(Msg::SetQuota(Some("5".into())));
        assert!(last(&lab).output.contains("(AlreadyExists)"));
        // It applies with the next round, and is lifted the same way.
        run_rounds(&mut lab, 1);
        assert_eq!(lab.sim().api().pod_quota(), Some(3));
        lab.update(Msg::SetQuota(None));
        assert_eq!(lab.session().quota_after_pending(), None);
        run_rounds(&mut lab, 1);
        assert_eq!(lab.sim().api().pod_quota(), None);
    }

    #[test]
    fn the_inside_panel_selects_and_queues_pod_actions() {
        use crate::inside::Request;
        let mut lab = lab();
        run_rounds(&mut lab, 2);
        assert!(!lab.inside_open);
        lab.update(Msg::Select("replicaset/x".into()));
        assert!(lab.inside_open);
        assert_eq!(lab.selected.as_deref(), Some("replicaset/x"));
        lab.update(Msg::Inside(Request::Select("pod/p".into())));
        assert_eq!(lab.selected.as_deref(), Some("pod/p"));
        let pod = lab.sim().api().pods().next().unwrap().metadata.name.clone();
        lab.update(Msg::Inside(Request::Act(ActionKind::SetPodDeletionCost {
            pod: pod.clone(),
            value: Some(-7),
        })));
        lab.update(Msg::Inside(Request::Act(ActionKind::RestartPod {
            pod: pod.clone(),
        })));
        let pending: Vec<&str> = Frame::of(&lab)
            .pending
            .iter()
            .map(|p| p.type_name)
            .collect();
        assert_eq!(pending, ["setPodDeletionCost", "restartPod"]);
        run_rounds(&mut lab, 1);
        let p = lab.sim().api().pod(&pod).unwrap().clone();
        assert_eq!((p.deletion_cost(), p.restart_count), (-7, 1));
        lab.update(Msg::ToggleInside);
        assert!(!lab.inside_open);
    }
}
