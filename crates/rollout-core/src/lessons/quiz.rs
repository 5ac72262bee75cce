//! The quiz: a prediction before every controller step of any scenario. Which question fits
//! depends on the step that comes next, so the quiz peeks at it on a clone.
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

/// The question to ask before the next step of `sim`, if it is a controller sync.
pub fn next_question(sim: &Simulation) -> Option<QuizQuestion> {
    let mut peek = sim.clone_without_history();
    let kind = peek.step()?.kind.clone();
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

    /// The quiz over a whole preset: every controller step gets a question whose expected
    /// answer is what that very step does; the score counts.
    #[test]
    fn every_controller_step_of_a_preset_gets_a_question_that_comes_true() {
        for id in ["rolling-basic", "proportional-scaling", "recreate"] {
            let mut sim = Simulation::new(crate::presets::preset(id).unwrap().scenario);
            let mut score = Score::default();
            let mut kinds = std::collections::BTreeSet::new();
            while !sim.finished() {
                let q = next_question(&sim);
                let e = q.as_ref().map(|q| expected(&q.ask, &sim).unwrap());
                let record = sim.step().unwrap().clone();
                let controller = matches!(
                    record.kind,
                    StepKind::SyncDeployment { .. } | StepKind::SyncReplicaSet { .. }
                );
                assert_eq!(q.is_some(), controller, "{id}: {:?}", record.kind);
                let (Some(q), Some(e)) = (q, e) else { continue };
                assert_eq!(e.steps, 1, "{id}: the question is about this very step");
                kinds.insert(q.ask.kind().id());
                match (&q.ask, &e.answer) {
                    (Ask::CreatedInNextSync(_), Answer::Number(n)) => assert_eq!(
                        record
                            .manage
                            .as_ref()
                            .and_then(|m| m.slow_start.as_ref())
                            .map_or(0, |s| s.successes) as i64,
                        *n
                    ),
                    (Ask::NextDeletedPod, Answer::Pods(p)) => {
                        assert_eq!(record.manage.as_ref().unwrap().deletions[0].pod.name, p[0])
                    }
                    (Ask::DesiredAfterNextSync(rs), Answer::Number(n)) => assert_eq!(
                        i64::from(moment::resolve(sim.api(), *rs).unwrap().spec.replicas),
                        *n
                    ),
                    other => panic!("{id}: {other:?}"),
                }
                if score.asked % 2 == 0 {
                    let mut back = sim.clone();
                    back.step_back();
                    let answer = match &e.answer {
                        Answer::Number(n) => n.to_string(),
                        Answer::Pods(p) => p[0].clone(),
                        _ => unreachable!(),
                    };
                    score.record(check(&q.question(), &back, &answer).unwrap().correct);
                } else {
                    score.record(false);
                }
            }
            assert!(score.asked > 10, "{id}: {score:?}");
            assert_eq!(score.right, score.asked.div_ceil(2), "{id}");
            assert!(kinds.contains("number"), "{id}");
        }
    }
}
