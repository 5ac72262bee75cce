//! A lesson or a challenge followed in the app: which one, the step shown, the answer typed
//! and the feedback, as part of the one reducer's state (`state::Lab::lesson`). The lesson's
//! moments, text, questions and goals are the core's (`rollout_facade::lessons`); this module
//! only keeps where the learner is and reads it out for the panel.

use rollout_facade::lessons::challenge::{evaluate, GoalResult};
use rollout_facade::lessons::question::{self, Expected, Feedback, Kind};
use rollout_facade::lessons::{moment, text, Challenge, Lesson, Target};
use rollout_facade::sim::Simulation;
use rollout_facade::view::PodState;
use std::rc::Rc;

/// The simulation at a lesson step's moment, kept while the stage moves on (Show me, Step):
/// the step's text, its question and its answers are read here, and Next runs from here.
#[derive(Clone, Debug)]
pub struct StepMoment(pub Rc<Simulation>);

impl PartialEq for StepMoment {
    /// The same moment: the simulation is deterministic, so the same scenario after the same
    /// number of steps is the same state.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
            || self.0.steps_taken() == other.0.steps_taken()
                && self.0.scenario() == other.0.scenario()
    }
}

impl StepMoment {
    /// `sim` as it stands (its history is not kept: the session has it).
    pub fn of(sim: &Simulation) -> StepMoment {
        StepMoment(Rc::new(sim.clone_without_history()))
    }
}

/// What the learner follows.
#[derive(Clone, Debug, PartialEq)]
pub enum Guide {
    /// A lesson, at a step (0-based).
    Lesson {
        /// The lesson.
        lesson: &'static Lesson,
        /// The step shown.
        step: usize,
    },
    /// A challenge.
    Challenge {
        /// The challenge.
        challenge: &'static Challenge,
        /// Each goal checked on the last run the learner asked for.
        results: Option<Vec<GoalResult>>,
        /// Predictions typed, one per prediction goal.
        answers: Vec<String>,
    },
}

/// The guide's state: what is followed, the answer being typed and the last feedback.
#[derive(Clone, Debug, PartialEq)]
pub struct GuideState {
    /// The lesson or challenge.
    pub guide: Guide,
    /// The answer as typed (or the pod clicked).
    pub answer: String,
    /// The last check of the answer (`Err`: it could not be read).
    pub feedback: Option<Result<Feedback, String>>,
    /// A lesson step whose moment could not be reached (a core change broke the lesson).
    pub error: Option<String>,
    /// The simulation at the lesson step's moment (`None` for a challenge).
    pub moment: Option<StepMoment>,
    /// What "Show me" revealed at this step: the answer and why.
    pub shown: Option<Expected>,
    /// What the Hint button said at this step (`Err`: the question cannot be asked here).
    pub hint: Option<Result<String, String>>,
}

impl GuideState {
    /// A lesson, at its first step.
    pub fn lesson(lesson: &'static Lesson) -> GuideState {
        GuideState {
            guide: Guide::Lesson { lesson, step: 0 },
            answer: String::new(),
            feedback: None,
            error: None,
            moment: None,
            shown: None,
            hint: None,
        }
    }

    /// A challenge, unchecked.
    pub fn challenge(challenge: &'static Challenge) -> GuideState {
        let predictions = challenge
            .goals
            .iter()
            .filter(|g| matches!(g, rollout_facade::lessons::Goal::PredictAfterScale { .. }))
            .count();
        GuideState {
            guide: Guide::Challenge {
                challenge,
                results: None,
                answers: vec![String::new(); predictions],
            },
            answer: String::new(),
            feedback: None,
            error: None,
            moment: None,
            shown: None,
            hint: None,
        }
    }

    /// The current lesson step's question, if it has one.
    pub fn question(&self) -> Option<&'static question::Question> {
        match &self.guide {
            Guide::Lesson { lesson, step } => lesson.steps.get(*step)?.question.as_ref(),
            Guide::Challenge { .. } => None,
        }
    }

    /// Whether the current question is answered by clicking a pod.
    pub fn asks_for_a_pod(&self) -> bool {
        self.question().is_some_and(|q| q.ask.kind() == Kind::Pod)
    }

    /// Forgets the answer, its check and what Show me revealed (a new step).
    pub fn clear_answer(&mut self) {
        self.answer.clear();
        self.feedback = None;
        self.shown = None;
        self.hint = None;
    }
}

/// The quiz: the answer being typed, the last check (for the step it was asked before) and
/// the running score (each step's first check counts).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuizState {
    /// The answer as typed (or the pod clicked).
    pub answer: String,
    /// The last check and the step count it was asked at.
    pub feedback: Option<(usize, Result<Feedback, String>)>,
    /// Right answers and questions answered.
    pub score: rollout_facade::lessons::quiz::Score,
    /// Whether the last check counted in the score (only a step's first check does).
    pub counted: bool,
    /// The Hint button's hint and the step count it was asked at.
    pub hint: Option<(usize, String)>,
}

impl QuizState {
    /// Counts a check made before the step numbered `at` (only the first per step scores;
    /// an unreadable answer does not count).
    pub fn record(&mut self, at: usize, result: Result<Feedback, String>) {
        let first = self
            .feedback
            .as_ref()
            .is_none_or(|(s, r)| *s != at || r.is_err());
        self.counted = first && result.is_ok();
        if let (true, Ok(f)) = (first, &result) {
            self.score.record(f.correct);
        }
        self.feedback = Some((at, result));
    }
}

/// Runs `sim` to the moment of `lesson`'s step `to`, from the moment of step `from` (or from
/// the start with `None`).
pub fn run_lesson(
    lesson: &Lesson,
    sim: &mut Simulation,
    from: Option<usize>,
    to: usize,
) -> Result<(), String> {
    let first = from.map_or(0, |f| f + 1);
    for (i, step) in lesson.steps.iter().enumerate().take(to + 1).skip(first) {
        moment::run_to(sim, &step.until)
            .map_err(|e| format!("{} step {}: {e}", lesson.id, i + 1))?;
    }
    Ok(())
}

/// Checks the typed answer of a lesson step's question.
pub fn check(
    lesson: &Lesson,
    step: usize,
    sim: &Simulation,
    answer: &str,
) -> Option<Result<Feedback, String>> {
    let q = lesson.steps.get(step)?.question.as_ref()?;
    Some(question::check(q, sim, answer))
}

/// Checks a challenge's goals on the session's scenario (run to its end).
pub fn check_challenge(
    challenge: &Challenge,
    sim: &Simulation,
    answers: &[String],
) -> Vec<GoalResult> {
    let answers: Vec<i64> = answers
        .iter()
        .map(|a| a.trim().parse().unwrap_or(i64::MIN))
        .collect();
    evaluate(challenge.goals, sim.scenario(), &answers)
}

/// The Hint button at a lesson step's question: where to look, without the answer
/// (`lessons::hint::nudge`). `None`: the step asks nothing.
pub fn nudge(lesson: &Lesson, step: usize, at: &Simulation) -> Option<Result<String, String>> {
    let q = lesson.steps.get(step)?.question.as_ref()?;
    Some(rollout_facade::lessons::hint::nudge(&q.ask, at))
}

/// "Show me": the answer the simulation gives at the moment, and why.
pub fn show_me(lesson: &Lesson, step: usize, at: &Simulation) -> Option<Expected> {
    let q = lesson.steps.get(step)?.question.as_ref()?;
    question::expected(&q.ask, at).ok()
}

/// The lesson after `id` in the menu's order.
pub fn next_lesson(id: &str) -> Option<&'static Lesson> {
    let all = rollout_facade::lessons::lessons();
    let i = all.iter().position(|l| l.id == id)?;
    all.get(i + 1)
}

/// The challenge after `id` in the menu's order.
pub fn next_challenge(id: &str) -> Option<&'static Challenge> {
    let all = rollout_facade::lessons::challenges();
    let i = all.iter().position(|c| c.id == id)?;
    all.get(i + 1)
}

/// What the lesson panel shows for the lesson step `guide` is at, read at the step's moment
/// (`current`, the session's simulation, before the moment is known).
pub fn view_of(guide: &GuideState, current: &Simulation) -> Option<StepView> {
    match &guide.guide {
        Guide::Lesson { lesson, step } => Some(step_view(
            lesson,
            *step,
            guide.moment.as_ref().map_or(current, |m| &m.0),
        )),
        Guide::Challenge { .. } => None,
    }
}

/// What the lesson panel shows for the current step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    /// Lesson id.
    pub id: &'static str,
    /// Lesson title.
    pub title: &'static str,
    /// The documentation section.
    pub doc_title: &'static str,
    /// Its address.
    pub doc_url: &'static str,
    /// 0-based step.
    pub step: usize,
    /// How many steps.
    pub steps: usize,
    /// The text with its numbers, in plain language.
    pub text: String,
    /// The same moment in the code (the Go functions and their arithmetic), if the step has it.
    pub code: Option<String>,
    /// The next lesson (id, title), offered at the last step.
    pub next: Option<(&'static str, &'static str)>,
    /// For a "which pod?" question: the running pods to pick from, beside the question.
    pub pods: Vec<PodChoice>,
    /// What to point at.
    pub target: Option<Target>,
    /// The question: its prompt, the kind of answer, and the options of a choice.
    pub question: Option<(String, Kind, Vec<String>)>,
}

/// A pod a "which pod?" question offers: its name and what the learner compares.
#[derive(Clone, Debug, PartialEq)]
pub struct PodChoice {
    /// The pod's name.
    pub name: String,
    /// `Available`, `Ready`, `Running, not ready`, `Pending`.
    pub state: &'static str,
    /// Its node (empty: not scheduled).
    pub node: String,
}

/// The pods that are not terminating, by ReplicaSet, oldest first.
fn pod_choices(sim: &Simulation) -> Vec<PodChoice> {
    let api = sim.api();
    moment::replica_sets(api)
        .iter()
        .flat_map(|rs| {
            let mut pods: Vec<_> = api.pods_of_iter(rs).filter(|p| p.is_active()).collect();
            rollout_facade::order::sort_by(&mut pods, |a, b| a.metadata.name.cmp(&b.metadata.name));
            pods.into_iter()
                .map(|p| PodChoice {
                    name: p.metadata.name.clone(),
                    state: PodState::of(p, rs.spec.min_ready_seconds, api.now()).label(),
                    node: p.node_name.clone(),
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The current step of a lesson, read out on `sim`.
pub fn step_view(lesson: &'static Lesson, step: usize, sim: &Simulation) -> StepView {
    let s = &lesson.steps[step];
    let text =
        text::fill(s.text, sim).unwrap_or_else(|e| format!("(This step cannot be shown: {e})"));
    let question = s.question.as_ref().map(|q| {
        let prompt = text::fill(q.prompt, sim).unwrap_or_else(|e| e);
        let options = match q.ask {
            question::Ask::Refused(options) => {
                question::option_labels(options, sim).unwrap_or_else(|e| vec![e])
            }
            _ => Vec::new(),
        };
        (prompt, q.ask.kind(), options)
    });
    StepView {
        id: lesson.id,
        title: lesson.title,
        doc_title: lesson.doc.title,
        doc_url: lesson.doc.url,
        step,
        steps: lesson.steps.len(),
        text,
        code: (!s.code.is_empty()).then(|| text::fill(s.code, sim).unwrap_or_else(|e| e)),
        next: next_lesson(lesson.id).map(|l| (l.id, l.title)),
        pods: match &s.question {
            Some(q) if q.ask.kind() == Kind::Pod => pod_choices(sim),
            _ => Vec::new(),
        },
        target: s.highlight.as_ref().and_then(|h| h.target(sim)),
        question,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollout_facade::lessons::{lesson, lessons};

    #[test]
    fn running_step_by_step_equals_running_at_once() {
        for l in lessons() {
            let scenario = l.scenario.scenario().unwrap();
            let mut at_once = Simulation::new(scenario.clone());
            run_lesson(l, &mut at_once, None, l.steps.len() - 1).unwrap();
            let mut stepwise = Simulation::new(scenario);
            run_lesson(l, &mut stepwise, None, 0).unwrap();
            for i in 1..l.steps.len() {
                run_lesson(l, &mut stepwise, Some(i - 1), i).unwrap();
            }
            assert_eq!(at_once.steps_taken(), stepwise.steps_taken(), "{}", l.id);
        }
    }

    fn guide(lab: &crate::state::Lab) -> &GuideState {
        lab.guide.as_ref().expect("a guide")
    }

    #[test]
    fn the_reducer_follows_a_lesson_checks_answers_and_shows_me() {
        use crate::state::{Lab, Msg};
        let mut lab = Lab::default();
        lab.update(Msg::OpenLesson("rolling-update".into(), 0));
        assert_eq!(lab.preset, "lesson");
        // Answers the current question; whether the check says it is right.
        let answer = |lab: &mut Lab, text: &str| {
            lab.update(Msg::LessonAnswer(text.into()));
            lab.update(Msg::LessonCheck);
            let feedback = guide(lab).feedback.as_ref().unwrap();
            feedback.as_ref().unwrap().correct
        };
        assert!(!answer(&mut lab, "2"));
        assert!(answer(&mut lab, "1"));
        lab.update(Msg::LessonAnswer("one".into()));
        lab.update(Msg::LessonCheck);
        assert!(
            guide(&lab).feedback.as_ref().unwrap().is_err(),
            "unreadable: try again"
        );
        let at = lab.sim().steps_taken();
        lab.update(Msg::LessonShowMe);
        assert!(lab.sim().steps_taken() > at, "show me runs the step");
        lab.update(Msg::LessonNext);
        lab.update(Msg::LessonNext);
        assert_eq!(
            guide(&lab).guide,
            Guide::Lesson {
                lesson: lesson("rolling-update").unwrap(),
                step: 2
            }
        );
        // A click on a pod answers the "which pod goes next" question.
        lab.update(Msg::Select("pod/web-rev1-00002".into()));
        assert_eq!(guide(&lab).answer, "web-rev1-00002");
        let steps = lab.sim().steps_taken();
        lab.update(Msg::LessonBack);
        assert!(lab.sim().steps_taken() < steps);
        assert!(matches!(guide(&lab).guide, Guide::Lesson { step: 1, .. }));
        lab.update(Msg::CloseGuide);
        assert!(lab.guide.is_none());
        let mut lab = Lab::default();
        lab.update(Msg::OpenLesson("no-such".into(), 0));
        assert!(lab.notice.is_some() && lab.guide.is_none());
    }

    /// Every step of every lesson as the panel shows it, pressing Show me at every question
    /// when `show` (and checking a wrong answer first): the texts.
    fn walk_in_the_app(id: &str, show: bool) -> Vec<String> {
        use crate::state::{Lab, Msg};
        let mut lab = Lab::default();
        lab.update(Msg::OpenLesson(id.into(), 0));
        let mut texts = Vec::new();
        loop {
            let g = guide(&lab).clone();
            assert_eq!(g.error, None, "{id}");
            let view = view_of(&g, &lab.sim()).unwrap();
            let at = format!("{id} step {}", view.step + 1);
            let mut shown = vec![view.text.clone()];
            shown.extend(view.code.clone());
            if let Some((prompt, _, options)) = &view.question {
                shown.push(prompt.clone());
                shown.extend(options.iter().cloned());
            }
            if show && g.question().is_some() {
                lab.update(Msg::LessonAnswer("12345".into()));
                lab.update(Msg::LessonCheck);
                let f = guide(&lab).feedback.clone().unwrap();
                if let Ok(f) = f {
                    assert!(!f.correct, "{at}");
                    shown.extend(f.hint);
                }
                let before = lab.sim().steps_taken();
                lab.update(Msg::LessonShowMe);
                let e = guide(&lab).shown.clone().expect("show me shows");
                assert_eq!(
                    lab.sim().steps_taken(),
                    before + e.steps,
                    "{at}: the stage plays it"
                );
                shown.extend(e.explanation.iter().cloned());
                let again = view_of(guide(&lab), &lab.sim()).unwrap();
                assert_eq!(again, view, "{at}: the step stays as it was");
            }
            for t in &shown {
                assert!(
                    !t.contains('{') && !t.contains('}') && !t.contains("cannot be shown"),
                    "{at}: {t}"
                );
            }
            texts.push(view.text);
            if view.step + 1 == view.steps {
                break;
            }
            lab.update(Msg::LessonNext);
        }
        texts
    }

    #[test]
    fn show_me_works_at_every_question_and_next_goes_on_from_the_step() {
        for l in lessons() {
            let plain = walk_in_the_app(l.id, false);
            assert_eq!(plain.len(), l.steps.len(), "{}", l.id);
            assert_eq!(walk_in_the_app(l.id, true), plain, "{}", l.id);
        }
    }

    #[test]
    fn a_pod_clicked_answers_the_question_and_the_last_step_offers_the_next_lesson() {
        use crate::state::{Lab, Msg};
        let mut lab = Lab::default();
        lab.update(Msg::OpenLesson("rolling-update".into(), 2));
        let g = guide(&lab).clone();
        assert!(g.asks_for_a_pod());
        let at = g.moment.as_ref().unwrap().0.clone();
        let right = show_me(lesson("rolling-update").unwrap(), 2, &at).unwrap();
        let question::Answer::Pods(pods) = &right.answer else {
            unreachable!()
        };
        lab.update(Msg::Select(format!("pod/{}", pods[0])));
        let f = guide(&lab).feedback.clone().unwrap().unwrap();
        assert!(f.correct, "the click is the answer, checked at once");
        assert!(!lab.inside_open, "and the page stays on the question");
        lab.update(Msg::LessonNext);
        lab.update(Msg::LessonNext);
        let view = view_of(guide(&lab), &lab.sim()).unwrap();
        assert_eq!(view.step + 1, view.steps);
        assert_eq!(view.next.map(|n| n.0), Some("max-surge-max-unavailable"));
        assert_eq!(next_lesson("inside-replicaset-controller"), None);
        assert!(next_challenge("tight-band").is_some());
    }

    #[test]
    fn the_reducer_checks_a_challenge_on_the_session() {
        use crate::settings::Field;
        use crate::state::{Lab, Msg};
        let mut lab = Lab::default();
        lab.update(Msg::OpenChallenge("tight-band".into()));
        lab.update(Msg::ChallengeCheck);
        let results = |lab: &Lab| match &guide(lab).guide {
            Guide::Challenge { results, .. } => results.clone().unwrap(),
            _ => unreachable!(),
        };
        assert_eq!(
            results(&lab).iter().map(|g| g.met).collect::<Vec<_>>(),
            [false, false, true]
        );
        lab.update(Msg::Edit(Field::MaxSurge, "1".into()));
        lab.update(Msg::Edit(Field::MaxUnavailable, "1".into()));
        lab.update(Msg::ChallengeCheck);
        assert!(results(&lab).iter().all(|g| g.met), "{:?}", results(&lab));
        let mut lab = Lab::default();
        lab.update(Msg::OpenChallenge("predict-proportional".into()));
        lab.update(Msg::ChallengeAnswer(0, "11".into()));
        lab.update(Msg::ChallengeAnswer(1, "7".into()));
        lab.update(Msg::ChallengeCheck);
        assert!(results(&lab).iter().all(|g| g.met));
    }

    #[test]
    fn the_quiz_scores_the_first_answer_of_each_step() {
        use crate::state::{Lab, Msg};
        let mut lab = Lab::from_preset("rolling-basic").unwrap();
        lab.update(Msg::ToggleQuiz);
        let mut asked = 0;
        while asked < 4 {
            let Some(q) = rollout_facade::lessons::quiz::next_question(&lab.sim()) else {
                lab.update(Msg::Step);
                continue;
            };
            let e = question::expected(&q.ask, &lab.sim()).unwrap();
            let right = match &e.answer {
                question::Answer::Number(n) => n.to_string(),
                question::Answer::Pods(p) => p[0].clone(),
                _ => unreachable!(),
            };
            // Wrong first on odd questions: the first check is what scores.
            if asked % 2 == 1 {
                lab.update(Msg::QuizAnswer("12345".into()));
                lab.update(Msg::QuizCheck);
            }
            lab.update(Msg::QuizAnswer(right));
            lab.update(Msg::QuizCheck);
            asked += 1;
            lab.update(Msg::Step);
        }
        let score = lab.quiz.as_ref().unwrap().score;
        assert_eq!((score.right, score.asked), (2, 4));
        lab.update(Msg::ToggleQuiz);
        assert!(lab.quiz.is_none());
    }

    /// The lessons say what changed since 1.28 with the release the lab runs: Recreate's
    /// terminating pods in the ReplicaSet's status since 1.35, the ReplicaSet controller
    /// waiting for its own writes since 1.36.
    #[test]
    fn lessons_speak_of_the_release_the_lab_runs() {
        use rollout_facade::version::KubernetesVersion as K;
        let text = |id: &str, step: usize, k: K| {
            let lab = crate::state::Lab::from_lesson_at(id, step, k).unwrap();
            let view = view_of(lab.guide.as_ref().unwrap(), &lab.sim()).unwrap();
            view.text
        };
        let new = text("recreate", 2, K::V1_37);
        assert!(
            new.contains(
                "Since Kubernetes 1.35 its status counts them too: status.terminatingReplicas is"
            ),
            "{new}"
        );
        let old = text("recreate", 2, K::V1_28);
        assert!(old.contains("Kubernetes 1.28 does not count them"), "{old}");
        let new = text("inside-replicaset-controller", 1, K::V1_37);
        assert!(new.contains("Since Kubernetes 1.36 it also waits"), "{new}");
        let old = text("inside-replicaset-controller", 1, K::V1_28);
        assert!(
            old.contains("Before Kubernetes 1.36 these expectations"),
            "{old}"
        );
    }

    #[test]
    fn a_step_view_has_its_numbers_and_its_question() {
        let l = lesson("rolling-update").unwrap();
        let mut sim = Simulation::new(l.scenario.scenario().unwrap());
        run_lesson(l, &mut sim, None, 0).unwrap();
        let v = step_view(l, 0, &sim);
        assert!(v.text.contains("rounded up to 1"), "{}", v.text);
        assert_eq!(v.question.as_ref().unwrap().1, Kind::Number);
        let wrong = check(l, 0, &sim, "2").unwrap().unwrap();
        assert!(!wrong.correct);
        let right = check(l, 0, &sim, "1").unwrap().unwrap();
        assert!(right.correct);
    }
}
