//! The reducer's state and what each message does to it.

use super::*;

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
    /// The notice says where the session came to rest (Step, Play or End with nothing more
    /// to do): the page's status line says that already, and the next move makes it stale.
    pub status_notice: bool,
    /// What the last run did, for the caption until the next move: End's `End: 24 s later,
    /// 30 changes.`, or the last change of the moment Compare's Step went through.
    pub ran: Option<String>,
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
            && self.status_notice == other.status_notice
            && self.ran == other.ran
            && self.selected == other.selected
            && self.inside_open == other.inside_open
            && self.guide == other.guide
            && self.quiz == other.quiz
    }
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
            status_notice: false,
            ran: None,
            selected: None,
            inside_open: false,
            guide: None,
            quiz: None,
        }
    }

    /// What a first visit opens on (the app, `?embed` and `<rollout-lab>` with no preset): the
    /// preset [`rollout_facade::presets::FIRST_VISIT`] run to its first command, so the
    /// Deployment runs and `kubectl set image` is a Step away (Back goes to the empty cluster).
    pub fn first_visit() -> Lab {
        let lab = Lab::from_preset(rollout_facade::presets::FIRST_VISIT).unwrap_or_default();
        lab.session.borrow_mut().run_to_first_command();
        lab
    }

    /// The lab an app or embed starts with when no permalink says otherwise: a scenario wins
    /// (one that cannot be imported: the default, saying why), then a preset, and with neither
    /// the first visit. `Err` names an unknown preset, which each front end treats its own way.
    pub fn starting(scenario: Option<&Scenario>, preset: Option<&str>) -> Result<Lab, String> {
        if let Some(s) = scenario {
            return Ok(match importable(s) {
                Ok(()) => Lab::from_scenario(s.clone(), "imported"),
                Err(why) => Lab {
                    notice: Some(why),
                    ..Lab::default()
                },
            });
        }
        match preset {
            Some(id) => Lab::from_preset(id).ok_or_else(|| id.to_string()),
            // No preset: a first visit, a Step from a rollout.
            None => Ok(Lab::first_visit()),
        }
    }

    /// A lab showing `session` as it stands (a version-2 permalink's session), its scenario
    /// the one Reset starts from.
    pub fn from_session(session: Session, preset: &str) -> Lab {
        let mut lab = Lab::from_scenario(session.scenario().clone(), preset);
        lab.session = Rc::new(RefCell::new(session));
        lab
    }

    /// A lab that follows a lesson from its step `step` (`None` for an unknown id), under the
    /// app's Kubernetes version ([`KubernetesVersion::DEFAULT`]).
    pub fn from_lesson(id: &str, step: usize) -> Option<Lab> {
        Lab::from_lesson_at(id, step, KubernetesVersion::DEFAULT)
    }

    /// A lab that follows a lesson from its step `step` under Kubernetes `k8s` (`None` for an
    /// unknown id).
    pub fn from_lesson_at(id: &str, step: usize, k8s: KubernetesVersion) -> Option<Lab> {
        let lesson = rollout_facade::lessons::lesson(id)?;
        let mut scenario = lesson.scenario.scenario().ok()?;
        scenario.kubernetes_version = k8s;
        let mut lab = Lab::from_scenario(scenario, "lesson");
        let step = step.min(lesson.steps.len() - 1);
        let mut guide = crate::lesson::GuideState::lesson(lesson);
        guide.guide = crate::lesson::Guide::Lesson { lesson, step };
        guide.error = lab
            .session
            .borrow_mut()
            .advance_with(|sim| crate::lesson::run_lesson(lesson, sim, None, step))
            .err();
        guide.moment = Some(crate::lesson::StepMoment::of(&lab.sim()));
        lab.guide = Some(guide);
        Some(lab)
    }

    /// A lab set up for a challenge (`None` for an unknown id), under the app's Kubernetes
    /// version.
    pub fn from_challenge(id: &str) -> Option<Lab> {
        let challenge = rollout_facade::lessons::challenge(id)?;
        let mut lab = Lab::from_scenario(app_scenario(challenge.base().ok()?), "challenge");
        lab.guide = Some(crate::lesson::GuideState::challenge(challenge));
        Some(lab)
    }

    fn update_guide(&mut self, msg: Msg) {
        use crate::lesson::Guide;
        let Some(mut g) = self.guide.take() else {
            return;
        };
        let moment = g.moment.as_ref().map(|m| m.0.steps_taken());
        match (msg, &mut g.guide) {
            (Msg::LessonNext, Guide::Lesson { lesson, step }) if *step + 1 < lesson.steps.len() => {
                // From the step's moment, wherever Show me or Step took the stage since.
                if !self.back_to_moment(moment) {
                    if let Some(mut lab) =
                        Lab::from_lesson_at(lesson.id, *step + 1, self.kubernetes())
                    {
                        lab.version = self.version.wrapping_add(1);
                        lab.speed = self.speed;
                        *self = lab;
                        return;
                    }
                }
                let from = *step;
                *step += 1;
                self.remember();
                let to = *step;
                g.error = self
                    .session
                    .borrow_mut()
                    .advance_with(|sim| crate::lesson::run_lesson(lesson, sim, Some(from), to))
                    .err();
                g.moment = Some(crate::lesson::StepMoment::of(&self.sim()));
                g.clear_answer();
                self.bump();
            }
            (Msg::LessonBack, Guide::Lesson { lesson, step }) if *step > 0 => {
                if let Some(mut lab) = Lab::from_lesson_at(lesson.id, *step - 1, self.kubernetes())
                {
                    lab.version = self.version.wrapping_add(1);
                    lab.speed = self.speed;
                    *self = lab;
                    return;
                }
            }
            (Msg::LessonAnswer(a), _) => g.answer = a,
            (Msg::LessonCheck, Guide::Lesson { lesson, step }) => {
                let at = g.moment.clone();
                let sim = self.sim();
                let at = at.as_ref().map_or(&*sim, |m| &*m.0);
                g.feedback = crate::lesson::check(lesson, *step, at, &g.answer);
            }
            (Msg::LessonHint, Guide::Lesson { lesson, step }) => {
                let at = g.moment.clone();
                let sim = self.sim();
                let at = at.as_ref().map_or(&*sim, |m| &*m.0);
                g.hint = crate::lesson::nudge(lesson, *step, at);
            }
            (Msg::LessonShowMe, Guide::Lesson { lesson, step }) => {
                let at = g.moment.clone();
                let expected = {
                    let sim = self.sim();
                    crate::lesson::show_me(lesson, *step, at.as_ref().map_or(&*sim, |m| &*m.0))
                };
                // The stage plays from the step's moment to the step that decided it; the
                // lesson stays at its step, and Next runs from its moment again.
                if let Some(e) = expected {
                    if self.back_to_moment(moment) {
                        self.remember();
                        self.session.borrow_mut().advance_with(|sim| {
                            for _ in 0..e.steps {
                                sim.step();
                            }
                        });
                        self.bump();
                    }
                    g.feedback = None;
                    g.shown = Some(e);
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

    /// Takes the session back to the lesson step's moment (Show me or Step may have moved it
    /// on). False if it cannot be reached by stepping back.
    fn back_to_moment(&mut self, moment: Option<usize>) -> bool {
        let Some(at) = moment else {
            return true;
        };
        let mut session = self.session.borrow_mut();
        let moved = session.sim().steps_taken() != at;
        while session.sim().steps_taken() > at && session.step_back() {}
        let there = session.sim().steps_taken() == at;
        drop(session);
        if moved && there {
            self.before = None;
            self.bump();
        }
        there
    }

    /// A lab that starts from a preset (`None` for an unknown id).
    pub fn from_preset(id: &str) -> Option<Lab> {
        if id == "custom" {
            return Some(Lab::default());
        }
        rollout_facade::presets::preset(id)
            .map(|p| Lab::from_scenario(app_scenario(p.scenario), p.id))
    }

    /// The Kubernetes version the lab's controllers behave as (its session's scenario's).
    pub fn kubernetes(&self) -> KubernetesVersion {
        self.session().scenario().kubernetes_version
    }

    /// This lab as it starts under Kubernetes `k8s` (itself when it already is): a lesson
    /// opened again at its step; otherwise the settings' version changed and, before the first
    /// step, applied at once; once started (the first visit, at its first command), the
    /// session started over from them as Reset does.
    /// What `?k8s=`, an element's `k8s` and `mount()`'s `k8s` do to the lab they start.
    pub fn at_kubernetes(mut self, k8s: KubernetesVersion) -> Lab {
        if self.kubernetes() == k8s {
            return self;
        }
        if let Some(crate::lesson::Guide::Lesson { lesson, step }) =
            self.guide.as_ref().map(|g| &g.guide)
        {
            return Lab::from_lesson_at(lesson.id, *step, k8s).unwrap_or(self);
        }
        self.settings.kubernetes = k8s;
        let mut base = (*self.base).clone();
        base.kubernetes_version = k8s;
        self.base = Rc::new(base);
        if self.started() {
            self.reset();
        } else {
            self.live_preview();
        }
        self
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

    /// Reset: the session started over from the settings (the first visit's state when they
    /// are the first visit's).
    fn reset(&mut self) {
        match build_scenario(&self.settings, &self.base) {
            Ok(s) => {
                if let Some(mut session) = self.within_limits(s) {
                    // The first visit's scenario unchanged: back to the first visit's state
                    // (the Deployment running, `kubectl set image` a Step away).
                    if self.is_first_visit_scenario() {
                        session.run_to_first_command();
                    }
                    self.applied = self.settings.clone();
                    self.console.clear();
                    self.notice = None;
                    self.replace_sim(session);
                }
            }
            Err(p) => {
                self.notice = Some(format!("Reset needs valid settings: {}", p.summary));
                self.bump();
            }
        }
    }

    /// Whether the lab shows the first visit's preset with its settings unchanged (Reset
    /// returns to the first visit's state then).
    fn is_first_visit_scenario(&self) -> bool {
        self.preset == rollout_facade::presets::FIRST_VISIT
            && rollout_facade::presets::preset(rollout_facade::presets::FIRST_VISIT)
                .and_then(|p| Settings::from_scenario(&p.scenario))
                .is_some_and(|(s, _)| {
                    // Under either Kubernetes version.
                    Settings {
                        kubernetes: self.settings.kubernetes,
                        ..s
                    } == self.settings
                })
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
        if msg.moves() {
            self.ran = None;
            if std::mem::take(&mut self.status_notice) {
                self.notice = None;
            }
        }
        match msg {
            m @ (Msg::OpenLesson(..)
            | Msg::OpenChallenge(_)
            | Msg::LoadPreset(_)
            | Msg::Import(_)) => self.start_over(m),
            m @ (Msg::ToggleQuiz | Msg::QuizAnswer(_) | Msg::QuizCheck | Msg::QuizHint) => {
                self.update_quiz(m)
            }
            m @ (Msg::LessonNext
            | Msg::LessonBack
            | Msg::LessonAnswer(_)
            | Msg::LessonCheck
            | Msg::LessonShowMe
            | Msg::LessonHint
            | Msg::ChallengeAnswer(..)
            | Msg::ChallengeCheck
            | Msg::CloseGuide) => self.update_guide(m),
            m @ (Msg::Edit(..)
            | Msg::SetNeverReady(_)
            | Msg::SetTraffic(_)
            | Msg::SetInstantReactions(_)
            | Msg::SetKubernetes(_)) => self.update_settings(m),
            m @ (Msg::Step
            | Msg::StepBack
            | Msg::StepTo(_)
            | Msg::StepRound
            | Msg::BackRound
            | Msg::TogglePlay
            | Msg::Tick
            | Msg::SetSpeed(_)
            | Msg::ToEnd
            | Msg::SeekRound(_)
            | Msg::Advance
            | Msg::Reset) => self.update_playback(m),
            m => self.update_cluster(m),
        }
    }

    /// A message that replaces the lab: a lesson, a challenge, a preset or an imported
    /// scenario opened (the speed kept).
    fn start_over(&mut self, msg: Msg) {
        // The Kubernetes version chosen in the settings stays (an imported scenario keeps its
        // own `kubernetesVersion`: absent, 1.28, as the format says).
        let k8s = self.settings.kubernetes;
        let next = match msg {
            Msg::OpenLesson(id, step) => Lab::from_lesson_at(&id, step, k8s)
                .ok_or_else(|| format!("There is no lesson called \"{id}\".")),
            Msg::OpenChallenge(id) => Lab::from_challenge(&id)
                .map(|lab| lab.at_kubernetes(k8s))
                .ok_or_else(|| format!("There is no challenge called \"{id}\".")),
            Msg::LoadPreset(id) => Lab::from_preset(&id)
                .map(|lab| lab.at_kubernetes(k8s))
                .ok_or_else(|| format!("There is no preset called \"{id}\".")),
            Msg::Import(text) => match Scenario::from_json(&text) {
                Ok(s) => importable(&s).map(|()| {
                    let mut lab = Lab::from_scenario(s, "imported");
                    lab.notice = Some("Scenario imported: step through it, or Reset.".into());
                    lab
                }),
                Err(e) => Err(format!("Could not read that scenario: {e}")),
            },
            _ => return,
        };
        match next {
            Ok(mut lab) => {
                lab.version = self.version.wrapping_add(1);
                lab.speed = self.speed;
                *self = lab;
            }
            Err(why) => self.notice = Some(why),
        }
    }

    /// The quiz's messages.
    fn update_quiz(&mut self, msg: Msg) {
        match msg {
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
                    rollout_facade::lessons::quiz::next_question(&self.sim()).map(|question| {
                        let answer = self
                            .quiz
                            .as_ref()
                            .map(|q| q.answer.clone())
                            .unwrap_or_default();
                        rollout_facade::lessons::question::check(
                            &question.question(),
                            &self.sim(),
                            &answer,
                        )
                    });
                if let (Some(q), Some(result)) = (self.quiz.as_mut(), checked) {
                    q.record(at, result);
                }
            }
            Msg::QuizHint => {
                let at = self.sim().steps_taken();
                let hint = rollout_facade::lessons::quiz::next_question(&self.sim()).map(|q| {
                    rollout_facade::lessons::hint::nudge(&q.ask, &self.sim()).unwrap_or_else(|e| e)
                });
                if let (Some(q), Some(hint)) = (self.quiz.as_mut(), hint) {
                    q.hint = Some((at, hint));
                }
            }
            _ => {}
        }
    }

    /// An edit of the settings, previewed live.
    fn update_settings(&mut self, msg: Msg) {
        match msg {
            Msg::Edit(field, value) if Field::TRAFFIC.contains(&field) => {
                self.settings.set(field, value);
                self.apply_traffic();
            }
            Msg::Edit(field, value) => {
                self.settings.set(field, value);
                self.live_preview();
            }
            Msg::SetNeverReady(on) => {
                self.settings.never_ready = on;
                self.live_preview();
            }
            Msg::SetTraffic(on) => {
                self.settings.traffic = on;
                self.apply_traffic();
            }
            Msg::SetInstantReactions(on) => {
                self.settings.instant_reactions = on;
                self.live_preview();
            }
            Msg::SetKubernetes(v) => {
                self.settings.kubernetes = v;
                self.live_preview();
            }
            _ => {}
        }
    }

    /// Moving through the session: steps, rounds, play, seeking, the end, Reset.
    fn update_playback(&mut self, msg: Msg) {
        match msg {
            Msg::Step => {
                self.playing = false;
                self.seek = None;
                self.step_to_change();
            }
            Msg::StepBack => {
                self.playing = false;
                self.seek = None;
                self.remember();
                if self.session.borrow_mut().step_back() {
                    self.bump();
                }
            }
            Msg::StepTo(seconds) => {
                self.playing = false;
                self.seek = None;
                self.remember();
                let moved = self.session.borrow_mut().advance_to(seconds, true);
                let name = self.deployment();
                self.ran = moved.last_change.map(|r| {
                    let e = crate::explain::explain(&r, &name);
                    format!(
                        "{} · {}",
                        crate::chart::m_ss(seconds),
                        crate::explain::caption(&e)
                    )
                });
                self.bump();
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
                } else if let Some(settled) = self.session.borrow().settled() {
                    self.notice = Some(settled.sentence);
                    self.status_notice = true;
                } else {
                    self.playing = true;
                }
                self.bump();
            }
            Msg::Tick => {
                if !self.playing {
                    return;
                }
                if !self.step_to_change() {
                    self.playing = false;
                    self.bump();
                }
            }
            Msg::SetSpeed(i) => self.speed = i.min(SPEEDS.len() - 1),
            Msg::ToEnd => {
                self.playing = false;
                self.seek = None;
                self.remember();
                let from = self.sim().now();
                let end = self.session.borrow_mut().run_to_end();
                // The time the clock moved (the scenario's rounds are a minimum, so it may go
                // on past the last change).
                let seconds = self.sim().now() - from;
                self.notice = Some(end_notice(&end, seconds));
                self.status_notice = true;
                self.ran = end_summary(&end, seconds);
                self.bump();
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
            Msg::Reset => self.reset(),
            _ => {}
        }
    }

    /// kubectl's commands, the notices, the selection and "Inside the controllers".
    fn update_cluster(&mut self, msg: Msg) {
        match msg {
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
                // A click on a pod answers a lesson's "which pod goes next?" at once, and
                // leaves "Inside the controllers" as it was (the page stays on the question).
                let asks = self.guide.as_ref().is_some_and(|g| g.asks_for_a_pod());
                if let (Some(pod), Some(g), true) =
                    (object.strip_prefix("pod/"), self.guide.as_mut(), asks)
                {
                    g.answer = pod.to_string();
                    self.update_guide(Msg::LessonCheck);
                } else {
                    self.inside_open = true;
                }
                self.selected = Some(object);
            }
            Msg::ToggleInside => self.inside_open = !self.inside_open,
            Msg::Inside(crate::inside::Request::Select(object)) => self.update(Msg::Select(object)),
            Msg::Inside(crate::inside::Request::Act(action)) => {
                self.kubectl(Command::Action { action });
            }
            Msg::SetQuota(text) => self.set_quota(text),
            _ => {}
        }
    }

    /// `kubectl create quota` / `kubectl delete quota`.
    fn set_quota(&mut self, pods: Option<String>) {
        self.kubectl(Command::SetPodQuota { pods });
    }

    /// Before the first step, valid settings re-create the simulation at once (keeping the
    /// queued actions); invalid ones are not applied.
    /// Shows the Service and its requests (an embed's `traffic`): the scenario's traffic model,
    /// or the core's defaults when it has none.
    pub fn show_traffic(&mut self) {
        if self.settings.traffic {
            return;
        }
        self.settings.traffic = true;
        self.apply_traffic();
    }

    /// The traffic settings, applied at once when they are valid: no controller reads them, so
    /// the session keeps its place (`Session::set_traffic_model`) and the stage's Service and
    /// strip follow.
    fn apply_traffic(&mut self) {
        let traffic = if self.settings.traffic {
            match settings::parse_traffic(&self.settings) {
                Ok(t) => Some(t),
                Err(_) => return,
            }
        } else {
            None
        };
        self.session.borrow_mut().set_traffic_model(traffic);
        for f in Field::TRAFFIC {
            self.applied.set(f, self.settings.get(f).to_string());
        }
        self.applied.traffic = self.settings.traffic;
        self.bump();
    }

    fn live_preview(&mut self) {
        if self.started() {
            return;
        }
        let template = self.sim().scenario().clone();
        if let Some(session) = build_scenario(&self.settings, &template)
            .ok()
            .and_then(|s| self.within_limits(s))
        {
            self.applied = self.settings.clone();
            self.replace_sim(session);
        }
    }

    /// The session of `s`, or `None` with the core's refusal in the notice: settings within
    /// their own limits can still pass the work limit (10,000 replicas in a preset with
    /// several rollouts), which is then said rather than another scenario started.
    fn within_limits(&mut self, s: Scenario) -> Option<Session> {
        match Session::new(s) {
            Ok(session) => Some(session),
            Err(e) => {
                self.notice = Some(format!("These settings are not applied: {e}"));
                self.bump();
                None
            }
        }
    }

    /// Steps to the next change ([`Session::step`]); when nothing more will happen, says why
    /// in the notice and returns false.
    fn step_to_change(&mut self) -> bool {
        self.remember();
        let stepped = self.session.borrow_mut().step().is_some();
        if !stepped {
            self.notice = self.session.borrow().settled().map(|s| s.sentence);
            self.status_notice = self.notice.is_some();
        }
        self.bump();
        stepped
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
        use rollout_facade::kubectl::check_err;
        let refused = match checked {
            None => Err(check_err::not_found("deployments.apps", &name)),
            Some(Err(p)) => Err(check_err::client_error(&p.summary)),
            Some(Ok(input)) => Ok(input),
        };
        let input = match refused {
            Ok(input) => input,
            Err(output) => {
                self.say(ConsoleEntry {
                    command: rollout_facade::ui_support::apply_command(
                        &rollout_facade::ui_support::manifest_file_name(&name),
                    ),
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

/// What End did, for the caption (the status line says where it stopped), e.g. `End: 24 s
/// later, 30 changes.`; `None` when it moved nothing.
pub fn end_summary(end: &RunEnd, seconds: i64) -> Option<String> {
    let changes = match end.steps {
        0 => "no change".to_string(),
        1 => "1 change".to_string(),
        n => format!("{n} changes"),
    };
    (end.steps > 0 || seconds > 0).then(|| {
        format!(
            "End: {} later, {changes}.",
            crate::explain::seconds(seconds)
        )
    })
}

/// What End says: how much simulated time the run covered (`seconds` on the clock) and where
/// it stopped, e.g.
/// `End: 24 s later, 30 changes. Deployment "web" successfully rolled out; nothing more will
/// happen.`
pub fn end_notice(end: &RunEnd, seconds: i64) -> String {
    let sentence = end.settled.sentence.trim_end_matches('.');
    let changes = match end.steps {
        0 => "no change".to_string(),
        1 => "1 change".to_string(),
        n => format!("{n} changes"),
    };
    if end.steps == 0 && seconds <= 0 {
        return format!("{sentence}.");
    }
    format!(
        "End: {} later, {changes}. {sentence}.",
        crate::explain::seconds(seconds)
    )
}
