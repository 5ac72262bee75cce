//! Challenges: a situation, goals, and the check of a learner's attempt on the run it
//! produces.
//!
//! The learner changes the Deployment's settings and adds kubectl actions; the scenario that
//! results is run to its end and each [`Goal`] is met or not, with the round and the number
//! that broke it. The rollout figures follow `../shared/plan/plan_metrics.py` (the rollout
//! starts at the first `setImage`; pods = active + terminating over the Deployment's
//! ReplicaSets; available = the sum of their `availableReplicas`; complete = what
//! `kubectl rollout status` calls success, after the last `setImage`; in settled rounds the
//! pods are the round's `peakPods`, which counts the moments between passes), computed here on
//! the round snapshots. `crate::plan` (the planner's forecast figures, branch h-plan) can
//! replace [`figures`] once it is on main.

use super::question::merge;
use super::ScenarioSource;
use crate::plan::rollout_complete as rollout_done;
use crate::scenario::{Action, ActionKind, Scenario};
use crate::sim::{Simulation, StepKind};
use crate::trace::TraceRound;
use serde::Serialize;
use std::sync::Arc;

/// What the learner has to achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "goal", content = "value", rename_all = "camelCase")]
pub enum Goal {
    /// The rollout completes (`kubectl rollout status` success), within this many seconds
    /// of its start if given (plan_metrics.py's durationSeconds: rounds × secondsPerRound, so
    /// the limit means the same in settled and lock-step rounds of any length).
    Completes(Option<u32>),
    /// Never fewer available pods than this during the rollout.
    MinAvailable(i32),
    /// Never more pods (active + terminating) than this during the rollout.
    MaxPods(i32),
    /// Progressing never has reason `ProgressDeadlineExceeded`.
    NoDeadlineExceeded,
    /// The Deployment ends on this image.
    FinalImage(&'static str),
    /// The Deployment ends with this spec.replicas.
    Replicas(i32),
    /// No pod create is refused (no `FailedCreate` event).
    NoRefusedCreates,
    /// At most this many ReplicaSets are ever created.
    MaxReplicaSetsCreated(u32),
    /// At most this many ReplicaSets exist at the end.
    ReplicaSetsAtEnd(u32),
    /// The first pod the ReplicaSet controller deletes is this one.
    FirstDeleted(&'static str),
    /// The learner's prediction number `answer` (0-based) equals the size (spec.replicas) of
    /// the `rs`-th ReplicaSet right after the Deployment controller's first sync following a
    /// `kubectl scale`.
    PredictAfterScale {
        /// The ReplicaSet (1-based creation order, `web-rev<n>`).
        rs: u32,
        /// Which of the learner's answers.
        answer: usize,
    },
}

impl Goal {
    /// The goal in words.
    pub fn describe(&self) -> String {
        match self {
            Goal::Completes(None) => "the rollout completes".into(),
            Goal::Completes(Some(n)) => format!("the rollout completes within {n} s"),
            Goal::MinAvailable(n) => format!("never fewer than {n} available pods"),
            Goal::MaxPods(n) => format!("never more than {n} pods"),
            Goal::NoDeadlineExceeded => "the progress deadline is never exceeded".into(),
            Goal::FinalImage(i) => format!("the Deployment ends on {i}"),
            Goal::Replicas(n) => format!("the Deployment ends with {n} replicas"),
            Goal::NoRefusedCreates => "no pod create is refused".into(),
            Goal::MaxReplicaSetsCreated(n) => format!("at most {n} ReplicaSets are ever created"),
            Goal::ReplicaSetsAtEnd(n) => format!("at most {n} ReplicaSets are left at the end"),
            Goal::FirstDeleted(p) => format!("{p} is the first pod deleted"),
            Goal::PredictAfterScale { rs, .. } => format!(
                "predict how many replicas ReplicaSet number {rs} asks for right after the scale"
            ),
        }
    }
}

impl Goal {
    /// The number or name the goal sets (`{goal:N}` in a story): `9` for
    /// `MinAvailable(9)`, the image of `FinalImage`; `None` for a goal without one.
    pub fn value_text(&self) -> Option<String> {
        match self {
            Goal::Completes(n) => n.map(|n| n.to_string()),
            Goal::MinAvailable(n) | Goal::MaxPods(n) | Goal::Replicas(n) => Some(n.to_string()),
            Goal::MaxReplicaSetsCreated(n) | Goal::ReplicaSetsAtEnd(n) => Some(n.to_string()),
            Goal::FinalImage(s) | Goal::FirstDeleted(s) => Some((*s).to_string()),
            Goal::NoDeadlineExceeded | Goal::NoRefusedCreates => None,
            Goal::PredictAfterScale { rs, .. } => Some(rs.to_string()),
        }
    }
}

/// A goal checked on a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoalResult {
    /// The goal.
    pub goal: Goal,
    /// Whether it is met.
    pub met: bool,
    /// The round that broke it (or that met it, for a completion or a prediction).
    pub round: Option<u32>,
    /// The number that broke it (or the best reached).
    pub value: Option<i64>,
    /// The verdict in words, e.g. `never fewer than 9 available pods: broken in round 5 (8)`.
    pub text: String,
}

/// A level: a situation and what to achieve in it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// Stable id, used in links (`?challenge=tight-band`).
    pub id: &'static str,
    /// Menu title.
    pub title: &'static str,
    /// 1 = easiest; the menu's order.
    pub level: u8,
    /// The situation and the task.
    pub story: &'static str,
    /// What the learner may change or do.
    pub hint: &'static str,
    /// The situation (its actions stay; the learner's are added).
    pub scenario: ScenarioSource,
    /// Every goal must be met.
    pub goals: &'static [Goal],
    /// A known solution, as an [`Attempt`] in JSON.
    pub solution: &'static str,
    /// A known failing attempt, as an [`Attempt`] in JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failing: Option<&'static str>,
}

/// What a learner did: changes to the Deployment's settings (a JSON merge into its `create`
/// fields), kubectl actions added to the situation's, and the numbers predicted.
#[derive(Clone, Debug, PartialEq, Default, serde::Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Attempt {
    /// e.g. `{"strategy": {"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": 0}}`.
    pub deployment: serde_json::Value,
    /// Actions in the scenario format.
    pub actions: Vec<serde_json::Value>,
    /// Predictions, in the order the goals ask for them.
    pub answers: Vec<i64>,
}

impl Attempt {
    /// Reads an attempt from JSON.
    pub fn from_json(text: &str) -> Result<Attempt, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

impl Challenge {
    /// The situation's scenario.
    pub fn base(&self) -> Result<Scenario, String> {
        self.scenario.scenario()
    }

    /// The scenario an attempt makes of the situation: the `create` action's Deployment with
    /// the settings merged in, and the learner's actions added (in round order, after the
    /// situation's own actions of the same round).
    pub fn scenario_of(&self, attempt: &Attempt) -> Result<Scenario, String> {
        let mut scenario = self.base()?;
        if !attempt.deployment.is_null() {
            let create = scenario
                .actions
                .iter_mut()
                .find_map(|a| match &mut a.kind {
                    ActionKind::Create { deployment } => Some(deployment),
                    _ => None,
                })
                .ok_or("the situation creates no Deployment")?;
            let mut value = serde_json::to_value(&*create).map_err(|e| e.to_string())?;
            merge(&mut value, &attempt.deployment);
            *create = serde_json::from_value(value).map_err(|e| format!("settings: {e}"))?;
        }
        for (i, a) in attempt.actions.iter().enumerate() {
            let action = Action::from_value(i, a).map_err(|e| e.to_string())?;
            scenario.actions.push(action);
        }
        crate::order::sort_by_key(&mut scenario.actions, |a| a.round);
        Ok(scenario)
    }

    /// Runs an attempt and checks every goal.
    pub fn evaluate(&self, attempt: &Attempt) -> Result<Vec<GoalResult>, String> {
        let scenario = self.scenario_of(attempt)?;
        Ok(evaluate(self.goals, &scenario, &attempt.answers))
    }

    /// The story with its numbers filled in (see [`Challenge::fill`]).
    pub fn story_text(&self) -> Result<String, String> {
        self.fill(self.story)
    }

    /// The hint with its numbers filled in (see [`Challenge::fill`]).
    pub fn hint_text(&self) -> Result<String, String> {
        self.fill(self.hint)
    }

    /// Fills a challenge's prose from its situation and goals, so that no number in it is
    /// typed: `{goal:N}` (the number or name goal N sets, 0-based), `{at:N}` (the round of
    /// the situation's action N, 0-based), `{set:N}` (what that action sets: an image, a
    /// replica count), `{readyAfter}` (seconds from a pod's creation to Ready),
    /// `{secondsPerRound}`, `{podQuota}`; anything else as in [`super::text`], on the
    /// situation's simulation right after its Deployment is created (`{replicas}`,
    /// `{image}`, `{surgeSpec}`, `{maxTotal}`, `{progressDeadline}` …).
    pub fn fill(&self, text: &str) -> Result<String, String> {
        let scenario = self.base()?;
        let mut sim = Simulation::new(scenario.clone()).without_history();
        super::moment::run_to(&mut sim, &super::Moment::Action("create"))?;
        let nth = |arg: Option<&str>| -> Result<usize, String> {
            arg.and_then(|a| a.parse().ok())
                .ok_or_else(|| "needs an index".to_string())
        };
        super::text::fill_with(text, |key| {
            let (name, arg) = match key.split_once(':') {
                Some((n, a)) => (n, Some(a)),
                None => (key, None),
            };
            let action = |arg| {
                scenario
                    .actions
                    .get(nth(arg)?)
                    .ok_or_else(|| "no such action".to_string())
            };
            match name {
                "goal" => self
                    .goals
                    .get(nth(arg)?)
                    .ok_or("no such goal")?
                    .value_text()
                    .ok_or_else(|| "that goal sets no number".into()),
                "at" => Ok(action(arg)?.round.to_string()),
                "set" => match &action(arg)?.kind {
                    ActionKind::SetImage { image, .. } => Ok(image.clone()),
                    ActionKind::Scale { replicas, .. } => Ok(replicas.to_string()),
                    _ => Err("that action sets nothing".into()),
                },
                "readyAfter" => Ok((i64::from(scenario.ready_after_rounds)
                    * scenario.seconds_per_round)
                    .to_string()),
                "secondsPerRound" => Ok(scenario.seconds_per_round.to_string()),
                "podQuota" => scenario
                    .pod_quota
                    .map(|q| q.to_string())
                    .ok_or_else(|| "no pod quota".into()),
                _ => super::text::fill(&format!("{{{key}}}"), &sim),
            }
        })
    }

    /// Whether every goal of an attempt is met.
    pub fn solved_by(&self, attempt: &Attempt) -> Result<bool, String> {
        Ok(self.evaluate(attempt)?.iter().all(|g| g.met))
    }
}

/// What a run gives the goals: the round snapshots and what the steps did.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// Every round's snapshot.
    pub rounds: Vec<Arc<TraceRound>>,
    /// The first pod the ReplicaSet controller deleted, and the round.
    pub first_deleted: Option<(String, u32)>,
    /// The ReplicaSets' sizes (by name) right after the first Deployment sync that followed
    /// a `scale`, and its round.
    pub after_scale: Option<(Vec<(String, i32)>, u32)>,
    /// The first round of each `setImage`, in order.
    pub set_image_rounds: Vec<u32>,
}

/// Runs a scenario to its end, keeping what the goals look at.
pub fn run(scenario: &Scenario) -> Run {
    let mut sim = Simulation::new(scenario.clone()).without_history();
    let mut out = Run::default();
    let mut scale_pending = false;
    while let Some(record) = sim.step() {
        match &record.kind {
            StepKind::Actions => {
                for a in &record.actions {
                    match a.get("type").and_then(|t| t.as_str()) {
                        Some("scale") => scale_pending = out.after_scale.is_none(),
                        Some("setImage") => out.set_image_rounds.push(record.round),
                        _ => {}
                    }
                }
            }
            StepKind::SyncDeployment { .. } if scale_pending => {
                scale_pending = false;
                let round = record.round;
                let sizes = super::moment::replica_sets(sim.api())
                    .iter()
                    .map(|r| (r.metadata.name.clone(), r.spec.replicas))
                    .collect();
                out.after_scale = Some((sizes, round));
            }
            StepKind::SyncReplicaSet { .. } if out.first_deleted.is_none() => {
                if let Some(d) = record.manage.as_ref().and_then(|m| m.deletions.first()) {
                    out.first_deleted = Some((d.pod.name.clone(), record.round));
                }
            }
            _ => {}
        }
    }
    out.rounds = sim.trace_rounds().cloned().collect();
    out
}

/// The figures of a rollout on the round snapshots (`../shared/plan/plan_metrics.py`).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutFigures {
    /// The round of the first `setImage`.
    pub start_round: u32,
    /// The first round after the last `setImage` whose snapshot is a complete rollout.
    pub complete_round: Option<u32>,
    /// The most pods, and the first round with that many.
    pub peak_pods: (i64, u32),
    /// The fewest available pods, and the first round with that few.
    pub min_available: (i64, u32),
    /// The first round whose Progressing condition is `ProgressDeadlineExceeded`.
    pub deadline_exceeded_round: Option<u32>,
}

/// The rollout figures of a run (the first Deployment by name); `None` without a `setImage`
/// or without the Deployment.
pub fn figures(run: &Run) -> Option<RolloutFigures> {
    let start = *run.set_image_rounds.first()?;
    let last = *run.set_image_rounds.last()?;
    let mut f = RolloutFigures {
        start_round: start,
        complete_round: None,
        peak_pods: (i64::MIN, start),
        min_available: (i64::MAX, start),
        deadline_exceeded_round: None,
    };
    let mut seen = false;
    for r in run.rounds.iter().filter(|r| r.round >= start) {
        let Some(d) = r.deployments.first() else {
            continue;
        };
        seen = true;
        let rss = r.replica_sets.iter().filter(|x| x.deployment == d.name);
        let (pods, available) = rss.fold((0i64, 0i64), |(p, a), x| {
            (
                p + i64::from(x.pods.active + x.pods.terminating),
                a + i64::from(x.available_replicas),
            )
        });
        // Settled rounds record the most pods at any moment of the round (between passes).
        let pods = d.peak_pods.map_or(pods, i64::from);
        if pods > f.peak_pods.0 {
            f.peak_pods = (pods, r.round);
        }
        if available < f.min_available.0 {
            f.min_available = (available, r.round);
        }
        if f.deadline_exceeded_round.is_none()
            && d.conditions.iter().any(|c| {
                c.type_ == "Progressing" && c.reason == crate::deployment::util::reason::TIMED_OUT
            })
        {
            f.deadline_exceeded_round = Some(r.round);
        }
        if r.round > last && rollout_done(d) {
            f.complete_round = Some(r.round);
            break;
        }
    }
    seen.then_some(f)
}

fn rounds(n: u32) -> String {
    if n == 1 {
        "1 round".into()
    } else {
        format!("{n} rounds")
    }
}

fn result(
    goal: Goal,
    met: bool,
    round: Option<u32>,
    value: Option<i64>,
    how: String,
) -> GoalResult {
    GoalResult {
        goal,
        met,
        round,
        value,
        text: format!("{}: {how}", goal.describe()),
    }
}

/// Checks every goal on the run of `scenario`, with the learner's predictions.
pub fn evaluate(goals: &[Goal], scenario: &Scenario, answers: &[i64]) -> Vec<GoalResult> {
    let run = run(scenario);
    let figures = figures(&run);
    let last = run.rounds.last();
    let last_d = last.and_then(|r| r.deployments.first());
    goals
        .iter()
        .map(|&goal| {
            let no_rollout = || result(goal, false, None, None, "no rollout took place".into());
            match goal {
                Goal::Completes(within) => {
                    let Some(f) = &figures else {
                        return no_rollout();
                    };
                    // durationSeconds of plan_metrics.py.
                    let seconds =
                        |c: u32| i64::from(c - f.start_round) * scenario.seconds_per_round;
                    match (f.complete_round, within) {
                        (None, _) => result(
                            goal,
                            false,
                            None,
                            None,
                            format!("not complete by round {}", last.map_or(0, |r| r.round)),
                        ),
                        (Some(c), Some(n)) if seconds(c) > i64::from(n) => result(
                            goal,
                            false,
                            Some(c),
                            Some(seconds(c)),
                            format!(
                                "complete in round {c}, {} s ({}) after it started in round {}",
                                seconds(c),
                                rounds(c - f.start_round),
                                f.start_round
                            ),
                        ),
                        (Some(c), _) => result(
                            goal,
                            true,
                            Some(c),
                            Some(seconds(c)),
                            format!(
                                "met: complete in round {c}, {} s ({}) after it started",
                                seconds(c),
                                rounds(c - f.start_round)
                            ),
                        ),
                    }
                }
                Goal::MinAvailable(n) => {
                    let Some(f) = &figures else {
                        return no_rollout();
                    };
                    let (low, round) = f.min_available;
                    if low < i64::from(n) {
                        result(
                            goal,
                            false,
                            Some(round),
                            Some(low),
                            format!("broken in round {round}: {low} available"),
                        )
                    } else {
                        result(
                            goal,
                            true,
                            None,
                            Some(low),
                            format!("met: never fewer than {low}"),
                        )
                    }
                }
                Goal::MaxPods(n) => {
                    let Some(f) = &figures else {
                        return no_rollout();
                    };
                    let (peak, round) = f.peak_pods;
                    if peak > i64::from(n) {
                        result(
                            goal,
                            false,
                            Some(round),
                            Some(peak),
                            format!("broken in round {round}: {peak} pods"),
                        )
                    } else {
                        result(goal, true, None, Some(peak), format!("met: at most {peak}"))
                    }
                }
                Goal::NoDeadlineExceeded => {
                    let first = run.rounds.iter().find(|r| {
                        r.deployments.first().is_some_and(|d| {
                            d.conditions.iter().any(|c| {
                                c.type_ == "Progressing"
                                    && c.reason == crate::deployment::util::reason::TIMED_OUT
                            })
                        })
                    });
                    match first {
                        Some(r) => result(
                            goal,
                            false,
                            Some(r.round),
                            None,
                            format!("broken in round {}: ProgressDeadlineExceeded", r.round),
                        ),
                        None => result(goal, true, None, None, "met".into()),
                    }
                }
                Goal::FinalImage(image) => match last_d {
                    Some(d) if d.image == image && rollout_done(d) => {
                        result(goal, true, None, None, "met".into())
                    }
                    Some(d) if d.image == image => result(
                        goal,
                        false,
                        last.map(|r| r.round),
                        None,
                        format!("{image} is set but not rolled out"),
                    ),
                    Some(d) => result(
                        goal,
                        false,
                        last.map(|r| r.round),
                        None,
                        format!("it ends on {}", d.image),
                    ),
                    None => result(goal, false, None, None, "there is no Deployment".into()),
                },
                Goal::Replicas(n) => match last_d {
                    Some(d) => result(
                        goal,
                        d.spec_replicas == n,
                        None,
                        Some(i64::from(d.spec_replicas)),
                        format!("it ends with {}", d.spec_replicas),
                    ),
                    None => result(goal, false, None, None, "there is no Deployment".into()),
                },
                Goal::NoRefusedCreates => {
                    let refused = run.rounds.iter().find_map(|r| {
                        let n = r
                            .events
                            .iter()
                            .filter(|e| e.reason == "FailedCreate")
                            .count();
                        (n > 0).then_some((r.round, n as i64))
                    });
                    match refused {
                        Some((round, n)) => result(
                            goal,
                            false,
                            Some(round),
                            Some(n),
                            format!("broken in round {round}: {n} FailedCreate"),
                        ),
                        None => result(goal, true, None, None, "met".into()),
                    }
                }
                Goal::MaxReplicaSetsCreated(n) => {
                    let mut seen: Vec<&str> = Vec::new();
                    let mut broke = None;
                    for r in &run.rounds {
                        for rs in &r.replica_sets {
                            if !seen.contains(&rs.name.as_str()) {
                                seen.push(&rs.name);
                                if seen.len() as u32 > n && broke.is_none() {
                                    broke = Some(r.round);
                                }
                            }
                        }
                    }
                    let count = seen.len() as i64;
                    match broke {
                        Some(round) => result(
                            goal,
                            false,
                            Some(round),
                            Some(count),
                            format!("broken in round {round}: {count} created"),
                        ),
                        None => result(
                            goal,
                            true,
                            None,
                            Some(count),
                            format!("met: {count} created"),
                        ),
                    }
                }
                Goal::ReplicaSetsAtEnd(n) => {
                    let count = last.map_or(0, |r| r.replica_sets.len()) as i64;
                    result(
                        goal,
                        count <= i64::from(n),
                        last.map(|r| r.round),
                        Some(count),
                        format!("{count} at the end"),
                    )
                }
                Goal::FirstDeleted(pod) => match &run.first_deleted {
                    Some((p, round)) => result(
                        goal,
                        p == pod,
                        Some(*round),
                        None,
                        format!("{p} went first, in round {round}"),
                    ),
                    None => result(goal, false, None, None, "no pod was deleted".into()),
                },
                Goal::PredictAfterScale { rs, answer } => {
                    let Some((sizes, round)) = &run.after_scale else {
                        return result(goal, false, None, None, "there was no scale".into());
                    };
                    let name = format!("{}-rev{rs}", last_d.map_or("web", |d| d.name.as_str()));
                    let Some(size) = sizes
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, s)| i64::from(*s))
                    else {
                        return result(
                            goal,
                            false,
                            Some(*round),
                            None,
                            format!("{name} did not exist then"),
                        );
                    };
                    match answers.get(answer) {
                        Some(&a) if a == size => result(
                            goal,
                            true,
                            Some(*round),
                            Some(size),
                            format!("met: {name} asked for {size}"),
                        ),
                        Some(&a) => result(
                            goal,
                            false,
                            Some(*round),
                            Some(size),
                            format!("you said {a}; {name} asked for {size} in round {round}"),
                        ),
                        None => result(
                            goal,
                            false,
                            Some(*round),
                            Some(size),
                            "no prediction given".into(),
                        ),
                    }
                }
            }
        })
        .collect()
}
