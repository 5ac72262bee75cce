//! A lesson or a challenge followed in the app: which one, the step shown, the answer typed
//! and the feedback, as part of the one reducer's state (`state::Lab::lesson`). The lesson's
//! moments, text, questions and goals are the core's (`rollout_core::lessons`); this module
//! only keeps where the learner is and reads it out for the panel.

use rollout_core::lessons::challenge::{evaluate, GoalResult};
use rollout_core::lessons::question::{self, Feedback, Kind};
use rollout_core::lessons::{moment, text, Challenge, Lesson, Target};
use rollout_core::sim::Simulation;

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
}

impl GuideState {
    /// A lesson, at its first step.
    pub fn lesson(lesson: &'static Lesson) -> GuideState {
        GuideState {
            guide: Guide::Lesson { lesson, step: 0 },
            answer: String::new(),
            feedback: None,
            error: None,
        }
    }

    /// A challenge, unchecked.
    pub fn challenge(challenge: &'static Challenge) -> GuideState {
        let predictions = challenge
            .goals
            .iter()
            .filter(|g| matches!(g, rollout_core::lessons::Goal::PredictAfterScale { .. }))
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
        }
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
    pub score: rollout_core::lessons::quiz::Score,
}

impl QuizState {
    /// Counts a check made before the step numbered `at` (only the first per step scores;
    /// an unreadable answer does not count).
    pub fn record(&mut self, at: usize, result: Result<Feedback, String>) {
        let first = self
            .feedback
            .as_ref()
            .is_none_or(|(s, r)| *s != at || r.is_err());
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
    /// The text with its numbers.
    pub text: String,
    /// What to point at.
    pub target: Option<Target>,
    /// The question: its prompt, the kind of answer, and the options of a choice.
    pub question: Option<(String, Kind, Vec<String>)>,
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
        target: s.highlight.as_ref().and_then(|h| h.target(sim)),
        question,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollout_core::lessons::{lesson, lessons};

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
            let Some(q) = rollout_core::lessons::quiz::next_question(&lab.sim()) else {
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
