//! What a step is for a person watching: the next reaction that changed an object's content.
//!
//! The stepper's steps are single syncs, and most of them change nothing: a Deployment
//! controller that finds 4 pods where 3 + maxSurge 1 are allowed waits. A session's step runs
//! syncs until one changes a Deployment, a ReplicaSet or a Pod (or the user's commands are
//! applied) and lists the syncs that changed nothing on the way, with their arithmetic. When
//! whole rounds pass without a change (pods are starting), it runs through them and says how
//! much time passed: "30 s later: 1 pod of web-rev2 became ready".

use crate::kubelet::PodChange;
use crate::limits::MAX_RUN_ROUNDS;
use crate::record::Decision;
use crate::sim::{Simulation, StepKind, StepRecord};
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};

/// A sync that changed nothing, folded into the step that follows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checked {
    /// The round it ran in.
    pub round: u32,
    /// What ran.
    pub kind: StepKind,
    /// Its decisions, with their numbers.
    pub decisions: Vec<Decision>,
    /// One sentence: `Deployment controller checked web: …`.
    pub sentence: String,
}

/// What one session step did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepResult {
    /// The reaction that changed something (or applied the user's commands).
    pub record: StepRecord,
    /// A sentence for a caption, e.g. `30 s later: 1 pod of web-rev2 became ready`.
    pub headline: String,
    /// Seconds of simulated time since the moment the previous step showed (0 when the change
    /// came in the same round).
    pub seconds_later: i64,
    /// Whole rounds in which nothing changed, run through on the way.
    pub quiet_rounds: u32,
    /// The syncs that changed nothing since the previous step (those of quiet rounds left
    /// out), oldest first.
    pub checked: Vec<Checked>,
    /// Things worth knowing about the state it reached (pods beyond maxSurge because
    /// terminating pods are not counted …).
    pub notes: Vec<String>,
    /// Single syncs it took.
    pub syncs: usize,
}

/// Where a scan for the next change ended.
pub(super) enum Scan {
    /// A step that changed something (the last single sync taken).
    Changed {
        /// The syncs before it that changed nothing (as [`StepResult::checked`]).
        checked: Vec<Checked>,
        /// Quiet rounds run through.
        quiet_rounds: u32,
        /// Single syncs taken, the changing one included.
        syncs: usize,
    },
    /// Nothing will change any more: every timer that could still fire has had its time.
    Quiet {
        /// Single syncs taken looking.
        syncs: usize,
    },
    /// Nothing changed within [`MAX_RUN_ROUNDS`] rounds (or the round limit was reached).
    GaveUp {
        /// Single syncs taken looking.
        syncs: usize,
    },
}

/// Whether a sync is a step's change: it applied the user's actions, or it changed the
/// content of a Deployment, ReplicaSet or Pod (`content_before`: the API server's
/// [`ApiServer::content_version`] before it; writes that store an identical object, events and
/// errors do not count).
pub(super) fn is_change(record: &StepRecord, content_before: u64, after: &ApiServer) -> bool {
    record.kind == StepKind::Actions || after.content_version() != content_before
}

/// A scan's listener that hears nothing (a probe on a copy). One function item rather than a
/// closure at each call: `scan` is generic over it, and every closure type is a copy of `scan`
/// in the app's wasm.
pub(super) fn unheard(_: &Simulation, _: bool) {}

/// Runs single syncs until one changes something. `on_sync` hears every sync taken (with
/// whether it was the change) so the session can keep its history.
///
/// After a whole round without a change, nothing changes until the next moment something is
/// due ([`Simulation::next_due_round`]): rounds that changed nothing at all are skipped to it
/// (their snapshots are the last one with the clock moved), and when nothing is due any more
/// the scan ends with [`Scan::Quiet`].
///
/// `idle_syncs` lets it run idle rounds by single syncs instead of skipping them, as long as a
/// whole round fits in it (it is decreased by the syncs spent): a restored permalink taking the
/// syncs its original spent (the original ran some idle rounds with Round rather than Step;
/// either way the cluster is the same). 0: skip as usual.
pub(super) fn scan(
    sim: &mut Simulation,
    idle_syncs: &mut usize,
    mut on_sync: impl FnMut(&Simulation, bool),
) -> Scan {
    let start_round = sim.round();
    let mut checked: Vec<Checked> = Vec::new();
    let mut syncs = 0;
    // Whole rounds run without a change: every round the scan crossed the end of, except the
    // one it started inside (or, at a round start, the round before when it was idle).
    let mut quiet = 0u32;
    let mut counts = sim.at_round_start();
    let mut last_round_quiet = sim.at_round_start() && sim.last_round_idle();
    loop {
        if sim.at_round_start() && last_round_quiet {
            match sim.next_due_round() {
                None => return Scan::Quiet { syncs },
                Some(due) if sim.last_round_idle() && due > sim.round() => {
                    if due.saturating_sub(start_round) > MAX_RUN_ROUNDS {
                        return Scan::GaveUp { syncs };
                    }
                    if *idle_syncs > 0 {
                        // Run one idle round (nothing changes in it) if it fits.
                        let (before, round) = (sim.steps_taken(), sim.round());
                        if sim.finished() {
                            sim.extend_rounds(round.saturating_add(1));
                        }
                        while sim.round() == round && sim.step().is_some() {}
                        let taken = sim.steps_taken() - before;
                        if taken > 0 && taken <= *idle_syncs {
                            *idle_syncs -= taken;
                            syncs += taken;
                            quiet += 1;
                            continue;
                        }
                        for _ in 0..taken {
                            sim.step_back();
                        }
                    }
                    let before = sim.round();
                    sim.extend_rounds(due.saturating_add(1));
                    sim.skip_idle_rounds();
                    quiet += sim.round() - before;
                }
                Some(_) => {}
            }
        }
        if quiet > MAX_RUN_ROUNDS || sim.round() >= crate::limits::MAX_ROUNDS {
            return Scan::GaveUp { syncs };
        }
        if sim.finished() {
            let next = sim.round().saturating_add(1);
            sim.extend_rounds(next);
        }
        let before = sim.api().content_version();
        let round = sim.round();
        if sim.step().is_none() {
            return Scan::GaveUp { syncs };
        }
        syncs += 1;
        let Some(record) = sim.last_step() else {
            return Scan::GaveUp { syncs };
        };
        let changed = is_change(record, before, sim.api());
        on_sync(sim, changed);
        if changed {
            // After a wait, only the checks of the round the change came in (the earlier ones
            // said the same); and each object's last check only (a settled round's passes
            // repeat them).
            if quiet > 0 {
                checked.retain(|c| c.round == round);
            }
            let mut latest: Vec<Checked> = Vec::new();
            for c in checked.into_iter().rev() {
                if !latest.iter().any(|l| l.kind == c.kind) {
                    latest.push(c);
                }
            }
            latest.reverse();
            let checked = latest;
            return Scan::Changed {
                checked,
                quiet_rounds: quiet,
                syncs,
            };
        }
        if let Some(c) = checked_of(record) {
            checked.push(c);
        }
        if sim.round() != round {
            if counts {
                quiet += 1;
            }
            counts = true;
            last_round_quiet = true;
        }
    }
}

/// Who ran, for a sentence.
fn actor_name(kind: &StepKind) -> &'static str {
    match kind {
        StepKind::Actions => "You",
        StepKind::SyncDeployment { .. } => "Deployment controller",
        StepKind::SyncReplicaSet { .. } => "ReplicaSet controller",
        StepKind::Kubelet => "Kubelet",
    }
}

fn object_of(kind: &StepKind) -> Option<&str> {
    match kind {
        StepKind::SyncDeployment { name } | StepKind::SyncReplicaSet { name } => Some(name),
        _ => None,
    }
}

/// A sync that changed nothing, as a line: `Deployment controller checked web: <its
/// decisions>`. Kubelet passes that changed nothing are left out (there is nothing to say).
fn checked_of(record: &StepRecord) -> Option<Checked> {
    let object = object_of(&record.kind)?;
    let why: Vec<&str> = record.decisions.iter().map(|d| d.text.as_str()).collect();
    let sentence = if why.is_empty() {
        format!(
            "{} checked {object}: nothing to do",
            actor_name(&record.kind)
        )
    } else {
        format!(
            "{} checked {object}: {}",
            actor_name(&record.kind),
            why.join("; ")
        )
    };
    Some(Checked {
        round: record.round,
        kind: record.kind.clone(),
        decisions: record.decisions.clone(),
        sentence,
    })
}

/// `1 pod`, `3 pods`.
pub(super) fn pods(n: usize) -> String {
    if n == 1 {
        "1 pod".to_string()
    } else {
        format!("{n} pods")
    }
}

/// What a changing step did, in a few words: its events, the kubelet's pod changes, or the
/// status it wrote.
pub(super) fn what_happened(record: &StepRecord, api: &ApiServer) -> String {
    let actor = actor_name(&record.kind);
    match &record.kind {
        StepKind::Actions => {
            let mut parts = Vec::new();
            for a in &record.actions {
                let line = crate::scenario::Action::from_value(0, a)
                    .map(|a| crate::ui_support::kubectl_command(&a.kind, &default_name(api)))
                    .unwrap_or_default();
                parts.push(line);
            }
            let mut text = format!("applied {}", parts.join(", "));
            if !record.errors.is_empty() {
                text.push_str(&format!(" (refused: {})", record.errors.join("; ")));
            }
            text
        }
        StepKind::Kubelet => {
            let mut ready: Vec<(String, usize)> = Vec::new();
            let mut scheduled = 0;
            let mut removed = 0;
            let mut unschedulable = 0;
            for c in &record.pod_changes {
                match c {
                    PodChange::BecameReady { pod } => {
                        let rs = crate::ui_support::replica_set_of_pod(pod).to_string();
                        match ready.iter_mut().find(|(r, _)| *r == rs) {
                            Some((_, n)) => *n += 1,
                            None => ready.push((rs, 1)),
                        }
                    }
                    PodChange::Scheduled { .. } => scheduled += 1,
                    PodChange::Removed { .. } => removed += 1,
                    // Worded from the kubelet's events and these, below.
                    PodChange::ContainerExited { .. } | PodChange::BecameNotReady { .. } => {}
                    PodChange::Unschedulable { .. } => unschedulable += 1,
                }
            }
            let mut parts: Vec<String> = ready
                .iter()
                .map(|(rs, n)| format!("{} of {rs} became ready", pods(*n)))
                .collect();
            if scheduled > 0 {
                parts.push(format!("{} scheduled to nodes", pods(scheduled)));
            }
            if removed > 0 {
                parts.push(format!("{} finished terminating", pods(removed)));
            }
            parts.extend(crate::kubelet::restarts::step_words(
                &record.pod_changes,
                &record.events,
            ));
            if unschedulable > 0 {
                parts.push(format!(
                    "the scheduler found no node for {}",
                    pods(unschedulable)
                ));
            }
            if parts.is_empty() {
                "the kubelet updated pods".to_string()
            } else {
                parts.join(", ")
            }
        }
        StepKind::SyncDeployment { name } | StepKind::SyncReplicaSet { name } => {
            let messages: Vec<&str> = record.events.iter().map(|e| e.message.as_str()).collect();
            // `Created pod: web-rev2-00001` and 249 like it: the first, and how many more.
            let kind_of = |m: &str| m.split(':').next().unwrap_or_default().to_string();
            match messages.as_slice() {
                [] => format!(
                    "{actor} updated {name}'s status: {}",
                    status_of(&record.kind, api)
                ),
                [one] => format!("{actor}: {one}"),
                [first, rest @ ..]
                    if first.contains(" pod: ")
                        && rest.iter().all(|m| kind_of(m) == kind_of(first)) =>
                {
                    format!("{actor}: {first} and {} more", pods(rest.len()))
                }
                [a, b] => format!("{actor}: {a}; {b}"),
                [a, b, rest @ ..] => {
                    format!("{actor}: {a}; {b}; and {} more events", rest.len())
                }
            }
        }
    }
}

/// An object's status in a few numbers: `2 of 3 up-to-date, 2 available` (a Deployment),
/// `2 pods, 1 ready, 1 available` (a ReplicaSet).
fn status_of(kind: &StepKind, api: &ApiServer) -> String {
    match kind {
        StepKind::SyncDeployment { name } => match api.deployment(name) {
            Some(d) => format!(
                "{} of {} up-to-date, {} available",
                d.status.updated_replicas, d.spec.replicas, d.status.available_replicas
            ),
            None => "gone".to_string(),
        },
        StepKind::SyncReplicaSet { name } => match api.replica_set(name) {
            Some(rs) => format!(
                "{}, {} ready, {} available",
                pods(usize::try_from(rs.status.replicas).unwrap_or(0)),
                rs.status.ready_replicas,
                rs.status.available_replicas
            ),
            None => "gone".to_string(),
        },
        _ => String::new(),
    }
}

/// The Deployment an action without a name applies to: the first by name.
fn default_name(api: &ApiServer) -> String {
    api.deployments()
        .next()
        .map_or_else(String::new, |d| d.metadata.name.clone())
}

/// The notes a state calls for. When a rolling update has more pods than replicas + maxSurge,
/// it is because terminating pods are not counted: the Deployment controller counts only
/// active pods (`GetActualReplicaCountForReplicaSets`), so it creates new pods while old ones
/// are still shutting down. Kubernetes 1.37 does the same: since 1.35 `status.terminatingReplicas`
/// reports them, but the rolling-update arithmetic leaves them out (a non-goal of KEP-3973).
pub(super) fn notes(api: &ApiServer, k8s: crate::version::KubernetesVersion) -> Vec<String> {
    let mut out = Vec::new();
    for d in api.deployments() {
        if !crate::deployment::util::is_rolling_update(d) {
            continue;
        }
        let surge = crate::deployment::util::max_surge(d);
        let (mut total, mut terminating) = (0usize, 0usize);
        for rs in api.replica_sets_of(d) {
            for p in api.pods_of_iter(&rs) {
                total += 1;
                if p.metadata.deletion_timestamp.is_some() {
                    terminating += 1;
                }
            }
        }
        let allowed = i64::from(d.spec.replicas) + i64::from(surge);
        if terminating > 0 && total as i64 > allowed {
            let why = if k8s.reports_terminating_replicas() {
                format!("Kubernetes {k8s} reports them (status.terminatingReplicas) but does not count them against maxSurge")
            } else {
                format!("Kubernetes {k8s} does not count terminating pods against maxSurge")
            };
            out.push(format!(
                "{name} has {total} pods, more than replicas {replicas} + maxSurge {surge} = {allowed}: {term} terminating, and {why}",
                name = d.metadata.name,
                total = total,
                replicas = d.spec.replicas,
                term = pods(terminating),
            ));
        }
    }
    out
}

/// `30 s later: ` (empty for 0 s).
pub(super) fn later(seconds: i64) -> String {
    match seconds {
        s if s <= 0 => String::new(),
        s if s < 120 || s % 60 != 0 => format!("{s} s later: "),
        s => format!("{} min later: ", s / 60),
    }
}
