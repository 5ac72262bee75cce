//! The quiz: a prediction before every controller step of any scenario. Which question fits
//! depends on the step that comes next (the next sync that changes something, as the page's
//! Step takes it), so the quiz peeks at it on a clone.
//!
//! * Before a Deployment sync: "how many replicas will the new ReplicaSet ask for after it?"
//! * Before a ReplicaSet sync with too few pods: "how many pods will it create?"
//! * Before a ReplicaSet sync with too many pods: "which pod will it delete first?"
//!
//! The user's actions and the kubelet's passes get no question.

use super::moment::{self, Rs};
use super::question::{Ask, Question};
use crate::sim::{Simulation, StepKind};
use serde::Serialize;

/// A quiz question for the next step, its prompt already filled in.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QuizQuestion {
    /// The question, with the live names.
    pub prompt: String,
    /// What is asked (check answers with [`super::question::check`] on [`QuizQuestion::question`]).
    pub ask: Ask,
}

impl QuizQuestion {
    /// As a lesson question (its prompt has no placeholders left).
    pub fn question(&self) -> Question {
        Question {
            prompt: "",
            ask: self.ask,
        }
    }
}

/// The ReplicaSet named `name` as an [`Rs`] (`web-rev3` is the third one created).
fn nth(name: &str) -> Option<Rs> {
    name.rsplit_once("-rev")?.1.parse().ok().map(Rs::Nth)
}

/// The most single syncs [`next_question`] looks through for the next change (a few dozen
/// rounds of a small scenario; a Step further away than that gets no question).
const MAX_PEEK_SYNCS: usize = 2_000;

/// The next sync of `sim` that changes something (the user's commands, or a write that
/// changed a Deployment, ReplicaSet or Pod): the step the page's Step shows next, since
/// `Session::step` folds the syncs that change nothing into it. `peek` is left after it.
///
/// Example, `rolling-basic` after the first Step (web-rev2 created asking for 1): the
/// ReplicaSet controller syncs web-rev1 first (3 pods for 3: nothing to do), then web-rev2
/// (0 pods for 1: it creates one). Step shows the second, so the quiz asks about web-rev2.
fn next_change(peek: &mut Simulation) -> Option<StepKind> {
    for _ in 0..MAX_PEEK_SYNCS {
        let before = peek.api().content_version();
        let kind = peek.step()?.kind.clone();
        if kind == StepKind::Actions || peek.api().content_version() != before {
            return Some(kind);
        }
    }
    None
}

/// The question to ask before the page's next Step (the next sync that changes something),
/// if a controller takes it.
pub fn next_question(sim: &Simulation) -> Option<QuizQuestion> {
    let mut peek = sim.clone_without_history();
    let kind = next_change(&mut peek)?;
    let api = sim.api();
    match kind {
        StepKind::SyncDeployment { name } => {
            // About the new ReplicaSet if it exists after the sync (Recreate's barrier and a
            // paused Deployment create none), otherwise about the old one.
            let rs = if moment::resolve(peek.api(), Rs::New).is_some() {
                Rs::New
            } else {
                moment::resolve(peek.api(), Rs::Old)?;
                Rs::Old
            };
            let rs_name = moment::resolve(api, rs)
                .map(|r| r.metadata.name.clone())
                .unwrap_or_else(|| "the new ReplicaSet".into());
            Some(QuizQuestion {
                prompt: format!(
                    "The Deployment controller syncs {name}. How many replicas will {rs_name} ask for after this sync?"
                ),
                ask: Ask::DesiredAfterNextSync(rs),
            })
        }
        StepKind::SyncReplicaSet { name } => {
            let rs = api.replica_set(&name)?;
            let active = api.pods_of_iter(rs).filter(|p| p.is_active()).count() as i32;
            if active > rs.spec.replicas {
                Some(QuizQuestion {
                    prompt: format!(
                        "{name} has {active} pods and wants {}. Which pod will the ReplicaSet controller delete first?",
                        rs.spec.replicas
                    ),
                    ask: Ask::NextDeletedPod,
                })
            } else {
                Some(QuizQuestion {
                    prompt: format!(
                        "The ReplicaSet controller syncs {name} ({active} pods, spec.replicas {}). How many pods will it create?",
                        rs.spec.replicas
                    ),
                    ask: Ask::CreatedInNextSync(nth(&name)?),
                })
            }
        }
        StepKind::Actions | StepKind::Kubelet => None,
    }
}

/// A running score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Questions answered.
    pub asked: u32,
    /// Answered right.
    pub right: u32,
}

impl Score {
    /// Counts one answer.
    pub fn record(&mut self, correct: bool) {
        self.asked += 1;
        self.right += u32::from(correct);
    }
}

#[cfg(test)]
mod tests {
    use super::super::question::{check, expected, Answer};
    use super::*;
    use crate::session::Session;

    /// The quiz over a whole preset, stepped as the page steps (`Session::step`, one change
    /// at a time): every Step a controller takes gets a question about that very Step, whose
    /// expected answer is what it does; the Hint button's hint never quotes the answer; the
    /// score counts.
    #[test]
    fn every_controller_step_of_a_preset_gets_a_question_that_comes_true() {
        for id in ["rolling-basic", "proportional-scaling", "recreate"] {
            let mut session = Session::new(crate::presets::preset(id).unwrap().scenario).unwrap();
            let mut score = Score::default();
            let mut kinds = std::collections::BTreeSet::new();
            loop {
                let before = session.sim().clone();
                let q = next_question(&before);
                let e = q.as_ref().map(|q| expected(&q.ask, &before).unwrap());
                let Some(result) = session.step() else { break };
                let record = result.record;
                let at = format!("{id} round {} {:?}", record.round, record.kind);
                let controller = matches!(
                    record.kind,
                    StepKind::SyncDeployment { .. } | StepKind::SyncReplicaSet { .. }
                );
                if q.is_none() && record.round >= before.scenario().rounds {
                    break; // past the scenario's rounds: the quiz's peek stops there
                }
                assert_eq!(q.is_some(), controller, "{at}");
                let (Some(q), Some(e)) = (q, e) else { continue };
                assert_eq!(
                    e.steps, result.syncs,
                    "{at}: the question is about the sync this Step shows"
                );
                kinds.insert(q.ask.kind().id());
                match (&q.ask, &e.answer) {
                    (Ask::CreatedInNextSync(_), Answer::Number(n)) => assert_eq!(
                        record
                            .manage
                            .as_ref()
                            .and_then(|m| m.slow_start.as_ref())
                            .map_or(0, |s| s.successes) as i64,
                        *n,
                        "{at}"
                    ),
                    (Ask::NextDeletedPod, Answer::Pods(p)) => assert_eq!(
                        record.manage.as_ref().unwrap().deletions[0].pod.name,
                        p[0],
                        "{at}"
                    ),
                    (Ask::DesiredAfterNextSync(rs), Answer::Number(n)) => assert_eq!(
                        i64::from(
                            moment::resolve(session.sim().api(), *rs)
                                .unwrap()
                                .spec
                                .replicas
                        ),
                        *n,
                        "{at}"
                    ),
                    other => panic!("{at}: {other:?}"),
                }
                let nudge = super::super::hint::nudge(&q.ask, &before).unwrap();
                super::super::tests::assert_hint_keeps_the_answer(&at, "Hint", &nudge, &e);
                let answer = match &e.answer {
                    Answer::Number(n) => n.to_string(),
                    Answer::Pods(p) => p[0].clone(),
                    _ => unreachable!(),
                };
                let wrong = match &e.answer {
                    Answer::Number(n) => (n + 1).to_string(),
                    _ => "web-rev9-00009".into(),
                };
                let f = check(&q.question(), &before, &wrong).unwrap();
                assert!(!f.correct, "{at}");
                super::super::tests::assert_hint_keeps_the_answer(
                    &at,
                    &wrong,
                    f.hint.as_deref().unwrap_or_default(),
                    &e,
                );
                if score.asked % 2 == 0 {
                    score.record(check(&q.question(), &before, &answer).unwrap().correct);
                } else {
                    score.record(false);
                }
            }
            assert!(score.asked > 5, "{id}: {score:?}");
            assert_eq!(score.right, score.asked.div_ceil(2), "{id}");
            assert!(kinds.contains("number"), "{id}");
        }
    }

    /// The case: after `rolling-basic`'s first two Steps (the set image, then web-rev2
    /// created asking for 1), the next Step is the ReplicaSet controller creating web-rev2's
    /// first pod (its no-op sync of web-rev1, 3 pods for 3, folded in), so the quiz asks about
    /// web-rev2 and the answer is 1 (1 wanted − 0 pods).
    #[test]
    fn the_quiz_asks_about_the_controller_the_next_step_shows() {
        let mut session =
            Session::new(crate::presets::preset("rolling-basic").unwrap().scenario).unwrap();
        session.run_to_first_command();
        let mut asked = None;
        for _ in 0..4 {
            let q = next_question(session.sim());
            let step = session.step().unwrap();
            if let (Some(q), StepKind::SyncReplicaSet { name }) = (q, &step.record.kind) {
                asked = Some((q, name.clone()));
                break;
            }
        }
        let (q, name) = asked.expect("a ReplicaSet sync within four Steps");
        assert!(q.prompt.contains(&name), "{}: asked about {name}", q.prompt);
        assert!(name.ends_with("rev2"), "{name}");
    }
}
