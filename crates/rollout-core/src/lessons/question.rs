//! Predict-the-next-step questions. The expected answer is never written in a lesson: it is
//! computed by running a clone of the simulation forward from the question's moment
//! ([`expected`]), and the feedback explains it with the decision record of the step that
//! did it (the same `Decision`s the explanation panel shows).

use super::moment::{self, Moment, Rs};
use crate::record::Decision;
use crate::scenario::DeploymentInput;
use crate::sim::{Simulation, StepKind, StepRecord};
use serde::Serialize;

/// A question a lesson step asks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    /// The question, with `{placeholders}` (see [`super::text`]).
    pub prompt: &'static str,
    /// What is asked, and so how the answer is computed.
    pub ask: Ask,
}

/// One option of a "which settings does the API refuse?" question: a change to the
/// Deployment as a JSON merge into its scenario form (`{"strategy": {...}}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SettingOption {
    /// What the learner sees, with `{surgeSpec}` and `{unavailableSpec}` read from the
    /// Deployment with the change applied ([`SettingOption::text`]): the values are the ones
    /// the API server judges, written nowhere else.
    pub label: &'static str,
    /// The change, merged into the Deployment's `create` fields.
    pub patch: &'static str,
}

impl SettingOption {
    /// The label as the learner sees it: `current` (the Deployment's fields) with the change
    /// merged, its strategy's values as written, e.g. `maxSurge: 0, maxUnavailable: 110%`.
    pub fn text(&self, current: &DeploymentInput) -> Result<String, String> {
        let new = patched(current, self.patch)?;
        let strategy = new.strategy.unwrap_or_default();
        super::text::fill_with(self.label, |key| {
            let v = match key {
                "surgeSpec" => &strategy.max_surge,
                "unavailableSpec" => &strategy.max_unavailable,
                _ => return Err(format!("unknown placeholder {key:?}")),
            };
            v.as_ref()
                .map(|v| v.to_string())
                .ok_or_else(|| format!("the change leaves {key} unset"))
        })
    }
}

/// The labels of `options` for the Deployment in `sim`, as a lesson panel lists them.
pub fn option_labels(options: &[SettingOption], sim: &Simulation) -> Result<Vec<String>, String> {
    let d = moment::deployment(sim.api()).ok_or("no Deployment exists")?;
    let current = DeploymentInput::from_deployment(d);
    options.iter().map(|o| o.text(&current)).collect()
}

/// What a question asks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "ask", content = "of", rename_all = "camelCase")]
pub enum Ask {
    /// Number: the ReplicaSet's `spec.replicas` after the Deployment controller's next sync.
    DesiredAfterNextSync(Rs),
    /// Number: how many pods the ReplicaSet controller creates in its next sync of the
    /// ReplicaSet.
    CreatedInNextSync(Rs),
    /// Pod: the pod the ReplicaSet controller deletes next (the first that `getPodsToDelete`
    /// ranks, when it deletes several in one sync).
    NextDeletedPod,
    /// Round: the round in which the moment happens (or "never").
    RoundOf(Moment),
    /// Round: the round in which `kubectl rollout status` reports success for the current
    /// template, or "never" (if it does not before the scenario ends or the template changes).
    Completes,
    /// Choice: which of these settings the API server refuses (all of them to be named).
    Refused(&'static [SettingOption]),
    /// Number: how many requests to the Service fail from now until the script's next command
    /// (or its end), by the traffic model (`crate::traffic`, the scenario's `model.traffic`).
    FailedRequests,
}

/// The four kinds of answer input (the page's `data-kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// A number.
    Number,
    /// A pod (clicked on the stage).
    Pod,
    /// A round, or "never".
    Round,
    /// One or more of the options.
    Choice,
}

impl Kind {
    /// `number`, `pod`, `round` or `choice`.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::Pod => "pod",
            Kind::Round => "round",
            Kind::Choice => "choice",
        }
    }
}

impl Ask {
    /// The kind of answer it takes.
    pub fn kind(&self) -> Kind {
        match self {
            Ask::DesiredAfterNextSync(_) | Ask::CreatedInNextSync(_) | Ask::FailedRequests => {
                Kind::Number
            }
            Ask::NextDeletedPod => Kind::Pod,
            Ask::RoundOf(_) | Ask::Completes => Kind::Round,
            Ask::Refused(_) => Kind::Choice,
        }
    }
}

/// An answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum Answer {
    /// A count.
    Number(i64),
    /// A pod; as an expected answer, every pod that is right.
    Pods(Vec<String>),
    /// A round; `None` = never.
    Round(Option<u32>),
    /// Option indices (0-based), sorted.
    Choices(Vec<usize>),
}

impl Answer {
    /// Reads what a learner typed or clicked for a question of `kind`: a number; a pod's
    /// name; a round or `never`; option indices separated by commas or spaces.
    pub fn parse(kind: Kind, text: &str) -> Result<Answer, String> {
        let t = text.trim();
        match kind {
            Kind::Number => t
                .parse()
                .map(Answer::Number)
                .map_err(|_| format!("{t:?} is not a whole number")),
            Kind::Pod if t.is_empty() => Err("pick a pod".into()),
            Kind::Pod => Ok(Answer::Pods(vec![t.to_string()])),
            Kind::Round if t.eq_ignore_ascii_case("never") => Ok(Answer::Round(None)),
            Kind::Round => t
                .parse()
                .map(|r| Answer::Round(Some(r)))
                .map_err(|_| format!("{t:?} is neither a round number nor \"never\"")),
            Kind::Choice => {
                let mut picked = t
                    .split([',', ' '])
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().map_err(|_| format!("{s:?} is not an option")))
                    .collect::<Result<Vec<usize>, String>>()?;
                crate::order::sort_by(&mut picked, usize::cmp);
                picked.dedup();
                Ok(Answer::Choices(picked))
            }
        }
    }

    /// Whether `given` is right when `self` is the expected answer.
    pub fn accepts(&self, given: &Answer) -> bool {
        match (self, given) {
            (Answer::Pods(ok), Answer::Pods(g)) => g.len() == 1 && ok.contains(&g[0]),
            (a, b) => a == b,
        }
    }

    /// The answer in words.
    pub fn describe(&self) -> String {
        match self {
            Answer::Number(n) => n.to_string(),
            Answer::Pods(p) => p.join(" or "),
            Answer::Round(Some(r)) => format!("round {r}"),
            Answer::Round(None) => "never".into(),
            Answer::Choices(c) if c.is_empty() => "none of them".into(),
            Answer::Choices(c) => c
                .iter()
                .map(|i| format!("option {}", i + 1))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// The answer the simulation gives, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expected {
    /// The answer.
    pub answer: Answer,
    /// Sentences that explain it in plain language, with live numbers.
    pub explanation: Vec<String>,
    /// The decisions of the step that did it (what the explanation panel shows).
    pub decisions: Vec<Decision>,
    /// The round and time of the step that did it (absent: it never happened).
    pub round: Option<u32>,
    /// Seconds.
    pub time: Option<i64>,
    /// How many steps "show me" takes from the question's moment to that step.
    pub steps: usize,
}

/// The result of checking an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Feedback {
    /// Whether the answer was right.
    pub correct: bool,
    /// For a wrong answer: why, without the answer ([`super::hint::hint`]).
    pub hint: Option<String>,
    /// What the simulation does.
    pub expected: Expected,
}

fn from_step(
    answer: Answer,
    record: &StepRecord,
    steps: usize,
    mut lines: Vec<String>,
) -> Expected {
    let actor = match &record.kind {
        StepKind::Actions => "your kubectl command".to_string(),
        StepKind::SyncDeployment { name } => format!("the Deployment controller's sync of {name}"),
        StepKind::SyncReplicaSet { name } => format!("the ReplicaSet controller's sync of {name}"),
        StepKind::Kubelet => "the kubelet".to_string(),
    };
    lines.insert(
        0,
        format!(
            "In round {} (t = {} s), {actor}:",
            record.round, record.time
        ),
    );
    // The decisions (the Go functions and their arithmetic) stay in `decisions`, for the
    // panel's "In the code": the explanation is plain language.
    Expected {
        answer,
        explanation: lines,
        decisions: record.decisions.clone(),
        round: Some(record.round),
        time: Some(record.time),
        steps,
    }
}

/// Steps `probe` until `pred` holds for a step; the step's record and how many steps it took.
fn step_until(
    probe: &mut Simulation,
    mut pred: impl FnMut(&Simulation, &StepRecord) -> bool,
) -> Option<(StepRecord, usize)> {
    let mut n = 0;
    loop {
        let record = probe.step()?.clone();
        n += 1;
        if pred(probe, &record) {
            return Some((record, n));
        }
    }
}

fn ended(probe: &Simulation, what: &str) -> String {
    format!(
        "The scenario ran to round {} without {what}.",
        probe.round()
    )
}

/// The answer the simulation gives to `ask` from where `sim` stands (computed on a clone;
/// `sim` is unchanged).
pub fn expected(ask: &Ask, sim: &Simulation) -> Result<Expected, String> {
    let mut probe = sim.clone_without_history();
    match ask {
        Ask::DesiredAfterNextSync(rs) => {
            let (record, n) = step_until(&mut probe, |_, r| {
                matches!(r.kind, StepKind::SyncDeployment { .. })
            })
            .ok_or_else(|| ended(&probe, "another Deployment sync"))?;
            let r = moment::resolve(probe.api(), *rs)
                .ok_or("after that sync there is no such ReplicaSet")?;
            let mut lines = vec![format!(
                "{} now asks for {} {}.",
                r.metadata.name,
                r.spec.replicas,
                if r.spec.replicas == 1 {
                    "replica"
                } else {
                    "replicas"
                }
            )];
            lines.extend(
                record
                    .events
                    .iter()
                    .map(|e| format!("{}.", e.message.trim_end_matches('.'))),
            );
            Ok(from_step(
                Answer::Number(i64::from(r.spec.replicas)),
                &record,
                n,
                lines,
            ))
        }
        Ask::CreatedInNextSync(rs) => {
            let name = moment::resolve(sim.api(), *rs)
                .map(|r| r.metadata.name.clone())
                .ok_or("there is no such ReplicaSet now")?;
            let (record, n) = step_until(&mut probe, |_, r| {
                r.kind == (StepKind::SyncReplicaSet { name: name.clone() })
            })
            .ok_or_else(|| ended(&probe, "another sync of the ReplicaSet"))?;
            let created = record
                .manage
                .as_ref()
                .and_then(|m| m.slow_start.as_ref())
                .map_or(0, |s| s.successes);
            let said = match created {
                0 => format!("It created no pod for {name}."),
                1 => format!("It created one pod for {name}."),
                c => format!("It created {c} pods for {name}."),
            };
            Ok(from_step(
                Answer::Number(created as i64),
                &record,
                n,
                vec![said],
            ))
        }
        Ask::NextDeletedPod => {
            let (record, n) = step_until(&mut probe, |_, r| {
                r.manage.as_ref().is_some_and(|m| !m.deletions.is_empty())
            })
            .ok_or_else(|| ended(&probe, "deleting a pod"))?;
            let deletions = &record.manage.as_ref().expect("checked above").deletions;
            let lines = deletions
                .iter()
                .map(|d| match &d.kept {
                    Some(k) => format!(
                        "{} goes before {}, the first pod kept: {}",
                        d.pod.name,
                        k.name,
                        d.criterion.describe()
                    ),
                    None => format!("{} goes: every pod of the ReplicaSet goes", d.pod.name),
                })
                .collect();
            let pods = deletions
                .iter()
                .take(1)
                .map(|d| d.pod.name.clone())
                .collect();
            Ok(from_step(Answer::Pods(pods), &record, n, lines))
        }
        Ask::RoundOf(m) => {
            let start = probe.steps_taken();
            match moment::run_to(&mut probe, m) {
                Ok(0) => Err(format!("{} already holds", m.describe())),
                Ok(_) => {
                    let record = probe.last_step().expect("a step was taken").clone();
                    let n = probe.steps_taken() - start;
                    let round = moment::round_reached(m, &probe, &record);
                    let mut e = from_step(Answer::Round(Some(round)), &record, n, vec![]);
                    let what = m.describe().trim_start_matches("until ").to_string();
                    if round != record.round {
                        e.explanation[0] =
                            format!("At the start of round {round} (t = {} s):", probe.now());
                        e.round = Some(round);
                        e.time = Some(probe.now());
                    }
                    let mut what = what.chars();
                    let first = what.next().map(|c| c.to_ascii_uppercase().to_string());
                    let what = first.unwrap_or_default() + what.as_str();
                    e.explanation.push(format!("{what}, in round {round}."));
                    Ok(e)
                }
                Err(e) => Ok(never(e, &probe)),
            }
        }
        Ask::Completes => {
            let image = moment::deployment(sim.api())
                .map(|d| d.spec.template.image.clone())
                .ok_or("no Deployment exists")?;
            let mut changed = false;
            let mut before = probe.clone();
            let found = step_until(&mut probe, |p, _| {
                let Some(d) = moment::deployment(p.api()) else {
                    return false;
                };
                if d.spec.template.image != image {
                    changed = true;
                    return true;
                }
                let done = crate::kubectl::rollout_status::rollout_status_of(d, 0).done;
                if !done {
                    before = p.clone();
                }
                done
            });
            match found {
                Some((record, n)) if !changed => {
                    let status = moment::deployment(probe.api())
                        .map(|d| crate::kubectl::rollout_status::rollout_status_of(d, 0).message)
                        .unwrap_or_default();
                    Ok(from_step(
                        Answer::Round(Some(record.round)),
                        &record,
                        n,
                        vec![format!("kubectl rollout status: {}", status.trim_end())],
                    ))
                }
                Some((record, n)) => Ok(gave_up(sim, n).unwrap_or_else(|| {
                    never(
                        format!(
                            "In round {} the template changed before the rollout of {image} completed.",
                            record.round
                        ),
                        &before,
                    )
                })),
                None => Ok(gave_up(sim, usize::MAX)
                    .unwrap_or_else(|| never(ended(&probe, "the rollout completing"), &probe))),
            }
        }
        Ask::FailedRequests => failed_requests(sim),
        Ask::Refused(options) => {
            let d = moment::deployment(sim.api()).ok_or("no Deployment exists")?;
            let old = DeploymentInput::from_deployment(d);
            let mut refused = Vec::new();
            let mut lines = Vec::new();
            for (i, o) in options.iter().enumerate() {
                let new = patched(&old, o.patch)?;
                let label = o.text(&old)?;
                let outcome = crate::validation::validate_update(&new, &old);
                match crate::validation::status_message(&outcome) {
                    Some(msg) => {
                        refused.push(i);
                        lines.push(format!("{label}: refused: {}", field_and_reason(msg)));
                    }
                    None => lines.push(format!("{label}: accepted")),
                }
            }
            Ok(Expected {
                answer: Answer::Choices(refused),
                explanation: lines,
                decisions: Vec::new(),
                round: None,
                time: None,
                steps: 0,
            })
        }
    }
}

/// The seconds [`Ask::FailedRequests`] counts: from the clock to the script's next command
/// after it (or the end of the run).
pub fn request_window(sim: &Simulation, run: &crate::traffic::TrafficRun) -> (i64, i64) {
    let from = sim.now();
    let spr = sim.scenario().seconds_per_round.max(1);
    let next = sim
        .scenario()
        .actions
        .iter()
        .map(|a| i64::from(a.round) * spr)
        .filter(|&t| t > from)
        .min();
    (from, next.unwrap_or(run.end()).min(run.end()).max(from))
}

/// [`Ask::FailedRequests`]: the failed requests of the traffic run over [`request_window`],
/// explained by the first second in which some fail (the core's why, naming the pod), which
/// "Show me" steps to.
///
/// Example, `?lesson=readiness-probes` step 1: `kubectl scale` to 4 at 20 s, no readiness
/// probe, the app answering 8 s after its start, load 40: from 21 s (the proxies told) to 27 s
/// the new pod gets 10 req/s and does not answer: 70.
fn failed_requests(sim: &Simulation) -> Result<Expected, String> {
    let run = crate::traffic::run_scenario(sim.scenario(), None, None)?;
    let (from, to) = request_window(sim, &run);
    let t = run.totals(from, to);
    let mut lines = vec![format!(
        "From t = {from} s to {to} s the Service gets {} requests; {} fail.",
        t.sent, t.failed
    )];
    let first = run
        .spans()
        .iter()
        .filter(|s| s.to > from && s.from < to && s.figures.failed() > 0)
        .map(|s| s.from.max(from))
        .min();
    let Some(at) = first else {
        return Ok(Expected {
            answer: Answer::Number(t.failed as i64),
            explanation: lines,
            decisions: Vec::new(),
            round: None,
            time: None,
            steps: 0,
        });
    };
    let last = run
        .spans()
        .iter()
        .filter(|s| s.to > from && s.from < to && s.figures.failed() > 0)
        .map(|s| s.to.min(to))
        .max()
        .unwrap_or(at);
    if let Some(why) = run.second(at).why {
        lines.push(format!("From t = {at} s: {why}."));
    }
    lines.push(format!(
        "Requests fail in {} seconds, the last at t = {} s.",
        t.seconds_with_failures,
        last - 1
    ));
    // "Show me" runs to the first second with failures.
    let mut probe = sim.clone_without_history();
    let mut steps = 0;
    while probe.now() < at && probe.step().is_some() {
        steps += 1;
    }
    let (round, time) = (probe.round(), probe.now());
    Ok(Expected {
        answer: Answer::Number(t.failed as i64),
        explanation: lines,
        decisions: probe
            .last_step()
            .map(|r| r.decisions.clone())
            .unwrap_or_default(),
        round: Some(round),
        time: Some(time),
        steps,
    })
}

/// The API server's refusal without the object and the Go value it quotes: `Deployment.apps
/// "web" is invalid: spec.x: Invalid value: intstr.IntOrString{…}: may not be 0 when …` →
/// `spec.x: may not be 0 when …` (the lesson's option already shows the value as written).
pub fn field_and_reason(message: &str) -> String {
    let body = message
        .split_once(" is invalid: ")
        .map_or(message, |(_, b)| b);
    match body.split_once(": Invalid value: ") {
        Some((field, rest)) => {
            let reason = rest.rsplit_once(": ").map_or(rest, |(_, r)| r);
            format!("{field}: {reason}")
        }
        None => body.to_string(),
    }
}

/// A rollout that will not complete, explained by the moment it gives up: the step, within
/// `within` steps of `sim`, at which the Deployment controller marks Progressing False with
/// reason ProgressDeadlineExceeded (`syncRolloutStatus`, `util.DeploymentTimedOut`). Show me
/// runs to that step. `None`: the deadline is not exceeded first (or there is none).
///
/// Example, `?lesson=bad-image` step 2: set image at round 4 to a tag that never starts,
/// progressDeadlineSeconds 30, 5 s rounds: the last progress is at t = 20 s, and the sync at
/// t = 55 s (round 11) is the first past 20 + 30 = 50 s, long before the undo at round 16.
fn gave_up(sim: &Simulation, within: usize) -> Option<Expected> {
    let mut probe = sim.clone_without_history();
    let n = moment::run_to(&mut probe, &Moment::DeadlineExceeded).ok()?;
    if n == 0 || n > within {
        return None;
    }
    let record = probe.last_step()?.clone();
    let d = moment::deployment(probe.api())?;
    let s = crate::kubectl::rollout_status::rollout_status_of(d, 0);
    let status = s
        .error
        .map(|e| crate::kubectl::check_err::client_error(&e))
        .unwrap_or_else(|| s.message.trim_end().to_string());
    let deadline = d.spec.progress_deadline_seconds.unwrap_or(600);
    Some(from_step(
        Answer::Round(None),
        &record,
        n,
        vec![
            format!("No progress for more than progressDeadlineSeconds {deadline} s: Progressing is now False (ProgressDeadlineExceeded)."),
            format!("`kubectl rollout status` gives up: {status}"),
            "The controller does not roll back by itself: without a new command the rollout never completes.".into(),
        ],
    ))
}

fn never(why: String, probe: &Simulation) -> Expected {
    let mut explanation = vec![why];
    if let Some(d) = moment::deployment(probe.api()) {
        let s = crate::kubectl::rollout_status::rollout_status_of(d, 0);
        explanation.push(format!(
            "At round {}, kubectl rollout status says: {}",
            probe.round(),
            s.error
                .map(|e| crate::kubectl::check_err::client_error(&e))
                .unwrap_or_else(|| s.message.trim_end().to_string())
        ));
    }
    Expected {
        answer: Answer::Round(None),
        explanation,
        decisions: Vec::new(),
        round: None,
        time: None,
        steps: 0,
    }
}

/// A Deployment's scenario form with a JSON merge patch applied (objects merge, anything else
/// replaces). `Err` if the result is not a Deployment.
pub fn patched(input: &DeploymentInput, patch: &str) -> Result<DeploymentInput, String> {
    let mut value = serde_json::to_value(input).map_err(|e| e.to_string())?;
    let patch: serde_json::Value = serde_json::from_str(patch).map_err(|e| e.to_string())?;
    merge(&mut value, &patch);
    serde_json::from_value(value).map_err(|e| format!("patch {patch}: {e}"))
}

/// JSON merge patch (RFC 7386): `null` removes a field.
pub fn merge(target: &mut serde_json::Value, patch: &serde_json::Value) {
    match (target.as_object_mut(), patch.as_object()) {
        (Some(t), Some(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge(t.entry(k.clone()).or_insert(serde_json::Value::Null), v);
                }
            }
        }
        _ => *target = patch.clone(),
    }
}

/// Checks a learner's answer (as typed or clicked) against what the simulation does from here.
/// `Err` for an answer that cannot be read (the learner may try again) or a question that
/// cannot be asked here.
pub fn check(question: &Question, sim: &Simulation, answer: &str) -> Result<Feedback, String> {
    let given = Answer::parse(question.ask.kind(), answer)?;
    let expected = expected(&question.ask, sim)?;
    let correct = expected.answer.accepts(&given);
    Ok(Feedback {
        correct,
        hint: (!correct).then(|| super::hint::hint(&question.ask, sim, &given, &expected)),
        expected,
    })
}
