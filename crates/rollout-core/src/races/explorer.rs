//! The race explorer's front door: a schedule stepped by hand, the real controllers and the
//! two counterfactuals (`expectations: false`, `conflicts: false`) run side by side on the same
//! steps, and each step as plain data a front end draws (the API server's truth, each
//! controller's cache with what is stale marked, pending expectations, a caption in the API
//! server's and the controllers' words).
//!
//! For example `race-teach-expectations` (3 replicas, maxSurge 1, maxUnavailable 0): after
//! `setImage web:2, deliver-dc, sync-dc, deliver-rs, sync-rs` the ReplicaSet controller has
//! created one pod of `web-rev2` and expects it (`add: 1`). Its cache does not show the pod
//! yet, so a second `sync-rs` sees 0 of 1 pods; the real controller waits ("waiting for 1
//! creation to show"), while without expectations it creates another: 3 + 2 = 5 pods against
//! a bound of 3 + 1 = 4, and the frame of that mode lists `maxSurge: 5 pods > 3 + 1`.

use super::expectations::Pending;
use super::schedule::Step;
use super::schedule::{
    cached_replica_sets, CachedReplicaSet, Race, RaceScenario, StepOutcome, MAX_SCHEDULE_STEPS,
};
use crate::store::ApiServer;
use crate::trace::PodCounts;
use serde::Serialize;

/// Which controllers run: the real ones, or one of the README's two counterfactuals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// The ports of v1.28.4 as they are.
    Real,
    /// `expectations: false`: the ReplicaSet controller forgets its expectations before each
    /// sync.
    WithoutExpectations,
    /// `conflicts: false`: the API server keeps no resourceVersion; the last write wins.
    LastWriteWins,
    /// The real controllers of 1.36 and later: the same, and the ReplicaSet controller waits
    /// until its caches hold its own last writes (KEP-5647, [`super::consistency`]); the
    /// Deployment controller is not guarded. The scenario runs as 1.37.
    Guarded,
}

impl Mode {
    /// The three, in the order a front end shows them.
    pub const ALL: [Mode; 3] = [Mode::Real, Mode::WithoutExpectations, Mode::LastWriteWins];

    /// The three and the 1.36+ controllers ([`Mode::Guarded`]): every mode an explorer runs.
    pub const EVERY: [Mode; 4] = [
        Mode::Real,
        Mode::WithoutExpectations,
        Mode::LastWriteWins,
        Mode::Guarded,
    ];

    /// How a front end labels it.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Real => "the real controllers",
            Mode::WithoutExpectations => "without expectations",
            Mode::LastWriteWins => "last write wins",
            Mode::Guarded => "the real controllers, 1.36+",
        }
    }

    /// Its short name, as `rollout walk --mode`, `findRace`'s `mode` and the page's menu write
    /// it: `real`, `noexp` (the README's `expectations: false`) or `norv` (no resourceVersion
    /// check: `conflicts: false`).
    pub fn id(self) -> &'static str {
        match self {
            Mode::Real => "real",
            Mode::WithoutExpectations => "noexp",
            Mode::LastWriteWins => "norv",
            Mode::Guarded => "guard",
        }
    }

    /// What a search that found no race with these controllers means, for the learner:
    /// for the real ones, that this is the point of expectations and resourceVersion, and
    /// which counterfactual to search instead; for a counterfactual, to search deeper.
    pub fn no_race_note(self) -> &'static str {
        match self {
            Mode::Real => "That is the point: with their expectations and the API server's resourceVersion check, the real controllers keep maxSurge and maxUnavailable on every schedule. Choose \"without expectations\" or \"last write wins\" and search again to see a race.",
            Mode::WithoutExpectations | Mode::LastWriteWins => "This counterfactual can break a promise, but not within this depth: search deeper.",
            Mode::Guarded => "The 1.36+ controllers keep maxSurge and maxUnavailable too: expectations, the resourceVersion check and the ReplicaSet controller's wait for its own writes. The guard is a second line behind expectations, not a replacement for the Deployment controller's.",
        }
    }

    /// The mode with this short name ([`Mode::id`]).
    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::EVERY.into_iter().find(|m| m.id() == id)
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The scenario with this mode's switches.
    pub fn apply(self, base: &RaceScenario) -> RaceScenario {
        let mut s = base.clone();
        s.expectations = self != Mode::WithoutExpectations;
        s.conflicts = self != Mode::LastWriteWins;
        s.scenario.kubernetes_version = if self == Mode::Guarded {
            crate::version::KubernetesVersion::V1_37
        } else {
            crate::version::KubernetesVersion::V1_28
        };
        s
    }
}

/// A value as a cache sees it, with the API server's when the two differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Seen<T> {
    /// In the cache.
    pub cached: T,
    /// On the API server, only when it differs (the cache is stale).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truth: Option<T>,
}

impl<T: PartialEq + Copy> Seen<T> {
    fn of(cached: T, truth: Option<T>) -> Seen<T> {
        Seen {
            cached,
            truth: truth.filter(|t| *t != cached),
        }
    }

    /// Whether the cache is behind the API server on this value.
    pub fn stale(&self) -> bool {
        self.truth.is_some()
    }
}

/// A ReplicaSet as one controller's cache sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CachedLine {
    /// Its name.
    pub name: String,
    /// spec.replicas.
    pub spec_replicas: Seen<i32>,
    /// status.availableReplicas.
    pub available_replicas: Seen<i32>,
    /// Its pods, counted from the cache's pods.
    pub pods: Seen<PodCounts>,
    /// Deleted from the API server, still in the cache.
    pub deleted: bool,
}

/// A Deployment as the Deployment controller's cache sees it (the fields of the trace's
/// `caches.deployment.deployments`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CachedDeploymentLine {
    /// Its name.
    pub name: String,
    /// metadata.generation: behind the truth's after an edit the cache has not seen.
    pub generation: Seen<i64>,
    /// status.observedGeneration.
    pub observed_generation: Seen<i64>,
    /// spec.replicas.
    pub spec_replicas: Seen<i32>,
    /// status.updatedReplicas.
    pub updated_replicas: Seen<i32>,
    /// status.availableReplicas.
    pub available_replicas: Seen<i32>,
}

/// One controller's cache against the truth.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheView {
    /// Whose cache: "Deployment controller" or "ReplicaSet controller".
    pub owner: &'static str,
    /// Its Deployments (the Deployment controller's cache only; the ReplicaSet controller
    /// does not watch Deployments).
    pub deployments: Vec<CachedDeploymentLine>,
    /// The ReplicaSets it holds, by creation.
    pub replica_sets: Vec<CachedLine>,
    /// ReplicaSets on the API server it has not seen yet.
    pub unseen: Vec<String>,
}

impl CacheView {
    /// Whether anything in it is behind the API server.
    pub fn stale(&self) -> bool {
        !self.unseen.is_empty()
            || self.deployments.iter().any(|d| {
                d.generation.stale()
                    || d.observed_generation.stale()
                    || d.spec_replicas.stale()
                    || d.updated_replicas.stale()
                    || d.available_replicas.stale()
            })
            || self.replica_sets.iter().any(|l| {
                l.deleted
                    || l.spec_replicas.stale()
                    || l.available_replicas.stale()
                    || l.pods.stale()
            })
    }
}

/// A ReplicaSet's pending expectations, with what they wait for in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpectationLine {
    /// The ReplicaSet.
    pub replica_set: String,
    /// Creations still to be observed (negative: more observed than expected).
    pub add: i64,
    /// Deletions still to be observed.
    pub del: i64,
    /// E.g. "waiting for 1 creation to show".
    pub text: String,
}

/// Everything a front end draws for one mode after one step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RaceFrame {
    /// Which controllers.
    pub mode: Mode,
    /// Steps taken (0: just after the setup).
    pub steps_taken: usize,
    /// The step just taken, as a schedule writes it.
    pub step: Option<String>,
    /// The clock (seconds).
    pub time: i64,
    /// What happened, in the API server's and the controllers' words.
    pub caption: Vec<String>,
    /// The API server's ReplicaSets, by creation.
    pub truth: Vec<CachedReplicaSet>,
    /// The Deployment controller's cache.
    pub deployment_cache: CacheView,
    /// The ReplicaSet controller's cache.
    pub replica_set_cache: CacheView,
    /// The ReplicaSet controller's pending expectations.
    pub expectations: Vec<ExpectationLine>,
    /// What the step's syncs or action returned.
    pub errors: Vec<String>,
    /// The rolling update's promises broken on the truth now.
    pub violations: Vec<String>,
}

/// One mode's run: the race after each step (the first after the setup) and each step's
/// outcome.
#[derive(Clone, Debug)]
struct Run {
    states: Vec<Race>,
    outcomes: Vec<StepOutcome>,
}

/// A race schedule being explored by hand, in the three modes at once.
#[derive(Clone, Debug)]
pub struct RaceExplorer {
    scenario: RaceScenario,
    steps: Vec<Step>,
    runs: Vec<Run>,
}

impl RaceExplorer {
    /// The explorer just after the scenario's setup, no step taken (the scenario's own
    /// `schedule` is its script: [`RaceExplorer::script`]).
    pub fn new(scenario: RaceScenario) -> RaceExplorer {
        let runs = Mode::EVERY
            .iter()
            .map(|m| Run {
                states: vec![Race::new(&m.apply(&scenario))],
                outcomes: Vec::new(),
            })
            .collect();
        RaceExplorer {
            scenario,
            steps: Vec::new(),
            runs,
        }
    }

    /// The scenario's own schedule (a teaching walk-through's, a permalink's, a search's
    /// counterexample).
    pub fn script(&self) -> &[Step] {
        &self.scenario.schedule
    }

    /// The steps taken so far.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The steps taken, as a schedule writes them (for a permalink).
    pub fn schedule_text(&self) -> Vec<String> {
        self.steps.iter().map(Step::to_string).collect()
    }

    /// Takes `step` in every mode; refused past [`MAX_SCHEDULE_STEPS`].
    pub fn step(&mut self, step: Step) -> Result<(), String> {
        if self.steps.len() >= MAX_SCHEDULE_STEPS {
            return Err(format!(
                "a schedule holds at most {MAX_SCHEDULE_STEPS} steps"
            ));
        }
        for run in &mut self.runs {
            let mut race = run.states.last().expect("the setup state").clone();
            let outcome = race.step(&step);
            run.states.push(race);
            run.outcomes.push(outcome);
        }
        self.steps.push(step);
        Ok(())
    }

    /// The next step of the script, when the steps taken so far follow it.
    pub fn next_scripted(&self) -> Option<&Step> {
        let n = self.steps.len();
        (self.scenario.schedule.get(..n) == Some(&self.steps[..]))
            .then(|| self.scenario.schedule.get(n))
            .flatten()
    }

    /// Undoes the last step; false when none was taken.
    pub fn back(&mut self) -> bool {
        if self.steps.pop().is_none() {
            return false;
        }
        for run in &mut self.runs {
            run.states.pop();
            run.outcomes.pop();
        }
        true
    }

    /// Replaces the steps taken by `schedule` (a permalink, a search's counterexample).
    pub fn load(&mut self, schedule: &[Step]) -> Result<(), String> {
        while self.back() {}
        for step in schedule {
            self.step(step.clone())?;
        }
        Ok(())
    }

    /// What `mode` looks like after the steps taken.
    pub fn frame(&self, mode: Mode) -> RaceFrame {
        let run = &self.runs[mode.index()];
        let n = self.steps.len();
        let race = &run.states[n];
        let before = n.checked_sub(1).map(|i| &run.states[i]);
        let outcome = n.checked_sub(1).map(|i| &run.outcomes[i]);
        let truth = &race.state.truth;
        let truth_rss = cached_replica_sets(truth);
        let step = n.checked_sub(1).map(|i| &self.steps[i]);
        RaceFrame {
            mode,
            steps_taken: n,
            step: step.map(Step::to_string),
            time: race.now(),
            caption: match (step, before, outcome) {
                (Some(step), Some(before), Some(outcome)) => {
                    let mut lines = caption(step, before, race, outcome);
                    // Without expectations the controller forgets them before each sync: their
                    // catching up means nothing to it (the view lists none for it either).
                    if mode == Mode::WithoutExpectations {
                        lines.retain(|l| !l.starts_with("Its expectations"));
                    }
                    lines
                }
                _ => vec![format!(
                    "After the setup: fair rounds until the first rollout completed, at {} s. Each cache holds what it last caught up with.",
                    race.now()
                )],
            },
            deployment_cache: CacheView {
                deployments: deployment_lines(race.state.dc.listers(), truth),
                ..cache_view("Deployment controller", race.state.dc.listers(), &truth_rss)
            },
            replica_set_cache: cache_view(
                "ReplicaSet controller",
                race.state.rs.listers(),
                &truth_rss,
            ),
            expectations: race
                .state
                .expectations
                .pending()
                .map(|(rs, p)| ExpectationLine {
                    replica_set: rs.clone(),
                    add: p.add,
                    del: p.del,
                    text: expectation_text(p),
                })
                .collect(),
            truth: truth_rss,
            errors: outcome.map(|o| o.errors.clone()).unwrap_or_default(),
            violations: race.violations(),
        }
    }
}

/// A cache's ReplicaSets against the truth's.
fn cache_view(owner: &'static str, cache: &ApiServer, truth: &[CachedReplicaSet]) -> CacheView {
    let cached = cached_replica_sets(cache);
    let replica_sets = cached
        .iter()
        .map(|c| {
            let t = truth.iter().find(|t| t.name == c.name);
            CachedLine {
                name: c.name.clone(),
                spec_replicas: Seen::of(c.spec_replicas, t.map(|t| t.spec_replicas)),
                available_replicas: Seen::of(c.available_replicas, t.map(|t| t.available_replicas)),
                pods: Seen::of(c.pods, t.map(|t| t.pods)),
                deleted: t.is_none(),
            }
        })
        .collect();
    let unseen = truth
        .iter()
        .filter(|t| !cached.iter().any(|c| c.name == t.name))
        .map(|t| t.name.clone())
        .collect();
    CacheView {
        owner,
        deployments: Vec::new(),
        replica_sets,
        unseen,
    }
}

/// The Deployment controller's cached Deployments against the truth's.
fn deployment_lines(cache: &ApiServer, truth: &ApiServer) -> Vec<CachedDeploymentLine> {
    cache
        .deployments()
        .map(|d| {
            let t = truth.deployment(&d.metadata.name);
            CachedDeploymentLine {
                name: d.metadata.name.clone(),
                generation: Seen::of(d.metadata.generation, t.map(|t| t.metadata.generation)),
                observed_generation: Seen::of(
                    d.status.observed_generation,
                    t.map(|t| t.status.observed_generation),
                ),
                spec_replicas: Seen::of(d.spec.replicas, t.map(|t| t.spec.replicas)),
                updated_replicas: Seen::of(
                    d.status.updated_replicas,
                    t.map(|t| t.status.updated_replicas),
                ),
                available_replicas: Seen::of(
                    d.status.available_replicas,
                    t.map(|t| t.status.available_replicas),
                ),
            }
        })
        .collect()
}

/// `1 creation`, `2 deletions`.
fn count(n: i64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What pending expectations wait for: `add: 1` is "waiting for 1 creation to show"; `add: -1`
/// (without expectations, two creations observed for one expected) says so.
fn expectation_text(p: &Pending) -> String {
    let mut parts = Vec::new();
    if p.add > 0 {
        parts.push(count(p.add, "creation"));
    }
    if p.del > 0 {
        parts.push(count(p.del, "deletion"));
    }
    let mut text = if parts.is_empty() {
        String::new()
    } else {
        format!("waiting for {} to show", parts.join(" and "))
    };
    if p.add < 0 {
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&format!(
            "{} more observed than expected",
            count(-p.add, "creation")
        ));
    }
    text
}

/// The caption of `step`, taken from `before` to `after` with `outcome`.
fn caption(step: &Step, before: &Race, after: &Race, outcome: &StepOutcome) -> Vec<String> {
    let mut out = vec![match step {
        Step::SetImage(image) => format!(
            "kubectl set image: the API server stores the Deployment's new template ({image})."
        ),
        Step::SyncDc => "The Deployment controller syncs each Deployment, reading its own cache.".into(),
        Step::SyncRs => "The ReplicaSet controller syncs each ReplicaSet, reading its own cache and expectations.".into(),
        Step::DeliverDc => "The Deployment controller's cache catches up with the API server.".into(),
        Step::DeliverRs => "The ReplicaSet controller's cache catches up; its pod handlers (addPod, updatePod, deletePod) observe what changed.".into(),
        Step::Kubelet => "The kubelet runs: pods start, become ready, finish terminating.".into(),
        Step::Tick => format!("The clock moves to {} s.", after.now()),
    }];
    match step {
        Step::DeliverDc => {
            let (b, a) = (before.state.dc.listers(), after.state.dc.listers());
            out.extend(deployment_changes(b, a, CACHE));
            out.extend(changes(b, a, CACHE));
        }
        Step::DeliverRs => {
            out.extend(changes(
                before.state.rs.listers(),
                after.state.rs.listers(),
                CACHE,
            ));
            out.extend(observed(before, after));
        }
        Step::Kubelet => out.extend(changes(&before.state.truth, &after.state.truth, TRUTH)),
        _ => {}
    }
    for e in &outcome.events {
        out.push(format!("{} {}: {}", e.reason, e.name, e.message));
    }
    if matches!(step, Step::SyncDc | Step::SyncRs) && outcome.events.is_empty() {
        // A status write emits no event: say what it changed on the API server.
        out.extend(changes(&before.state.truth, &after.state.truth, TRUTH));
        out.extend(deployment_changes(
            &before.state.truth,
            &after.state.truth,
            TRUTH,
        ));
    }
    for e in &outcome.errors {
        out.push(error_text(e));
    }
    if *step == Step::SyncRs && outcome.events.is_empty() {
        for (rs, p) in after.state.expectations.pending() {
            if p.add > 0 || p.del > 0 {
                out.push(format!(
                    "{rs} waits: its expectations are not yet satisfied ({}), so it neither creates nor deletes.",
                    expectation_text(p)
                ));
            }
        }
    }
    if matches!(step, Step::SyncDc | Step::SyncRs)
        && outcome.events.is_empty()
        && outcome.errors.is_empty()
        && out.len() == 1
    {
        out.push("Nothing to do: what its cache shows already agrees with the spec.".into());
    }
    for v in after.violations() {
        out.push(format!("Promise broken: {v}."));
    }
    out
}

/// A sync's error with what it means: a 409 Conflict, or a cache that does not show an object
/// yet.
fn error_text(e: &str) -> String {
    if e.contains("the object has been modified") {
        format!("{e} (409 Conflict: the write was made from a stale copy; its resourceVersion is older than the API server's, so it is refused and retried on a later sync)")
    } else if e.contains("not found") {
        format!("{e} (the controller's cache does not show that object yet)")
    } else if e.contains("already exists") {
        format!("{e} (409 AlreadyExists: the object was created before, but the cache does not show it yet)")
    } else {
        e.to_string()
    }
}

/// How a caption line names whose view changed: a cache caught up ("It now sees web-rev2 for
/// the first time (0 of 1 pods).", "It now sees web-rev1 with spec.replicas 3 → 2.") or the
/// API server's truth ("On the API server, web-rev1 now has pods 3 → 2.").
#[derive(Clone, Copy)]
struct Lead {
    /// Before the name.
    before: &'static str,
    /// Between the name and what changed.
    with: &'static str,
    /// Before "deleted".
    deleted: &'static str,
}

const CACHE: Lead = Lead {
    before: "It now sees",
    with: "with",
    deleted: "as deleted",
};

const TRUTH: Lead = Lead {
    before: "On the API server,",
    with: "now has",
    deleted: "is deleted",
};

/// What changed in a ReplicaSet list between two views, e.g. "It now sees web-rev2 for the
/// first time (0 of 1 pods)." or "It now sees web-rev1 with pods 3 → 2."
fn changes(before: &ApiServer, after: &ApiServer, lead: Lead) -> Vec<String> {
    let (b, a) = (cached_replica_sets(before), cached_replica_sets(after));
    let mut out = Vec::new();
    for rs in &a {
        match b.iter().find(|x| x.name == rs.name) {
            None => out.push(format!(
                "{} {} for the first time ({} of {} pods).",
                lead.before, rs.name, rs.pods.active, rs.spec_replicas
            )),
            Some(old) if old != rs => {
                let mut parts = Vec::new();
                if old.spec_replicas != rs.spec_replicas {
                    parts.push(format!(
                        "spec.replicas {} → {}",
                        old.spec_replicas, rs.spec_replicas
                    ));
                }
                if old.pods.active != rs.pods.active {
                    parts.push(format!("pods {} → {}", old.pods.active, rs.pods.active));
                }
                if old.pods.ready != rs.pods.ready {
                    parts.push(format!("ready {} → {}", old.pods.ready, rs.pods.ready));
                }
                if old.pods.terminating != rs.pods.terminating {
                    parts.push(format!(
                        "terminating {} → {}",
                        old.pods.terminating, rs.pods.terminating
                    ));
                }
                if old.available_replicas != rs.available_replicas {
                    parts.push(format!(
                        "available {} → {}",
                        old.available_replicas, rs.available_replicas
                    ));
                }
                out.push(format!(
                    "{} {} {} {}.",
                    lead.before,
                    rs.name,
                    lead.with,
                    parts.join(", ")
                ));
            }
            _ => {}
        }
    }
    for rs in b.iter().filter(|x| !a.iter().any(|y| y.name == x.name)) {
        out.push(format!("{} {} {}.", lead.before, rs.name, lead.deleted));
    }
    out
}

/// What changed in the Deployments between two views: the template's generation, what the
/// status says, e.g. "It now sees the Deployment web with generation 1 → 2." or "On the API
/// server, the Deployment web now has availableReplicas 2 → 3."
fn deployment_changes(before: &ApiServer, after: &ApiServer, lead: Lead) -> Vec<String> {
    after
        .deployments()
        .filter_map(|d| {
            let old = before.deployment(&d.metadata.name)?;
            let mut parts = Vec::new();
            let mut field = |what: &str, b: i64, a: i64| {
                if b != a {
                    parts.push(format!("{what} {b} → {a}"));
                }
            };
            field("generation", old.metadata.generation, d.metadata.generation);
            field(
                "observedGeneration",
                old.status.observed_generation,
                d.status.observed_generation,
            );
            field(
                "updatedReplicas",
                old.status.updated_replicas.into(),
                d.status.updated_replicas.into(),
            );
            field(
                "availableReplicas",
                old.status.available_replicas.into(),
                d.status.available_replicas.into(),
            );
            (!parts.is_empty()).then(|| {
                format!(
                    "{} the Deployment {} {} {}.",
                    lead.before,
                    d.metadata.name,
                    lead.with,
                    parts.join(", ")
                )
            })
        })
        .collect()
}

/// Expectations the pod handlers satisfied at a `deliver-rs`.
fn observed(before: &Race, after: &Race) -> Vec<String> {
    before
        .state
        .expectations
        .pending()
        .filter_map(|(rs, p)| {
            let now = after.state.expectations.get(rs);
            let (add, del) = now.map_or((0, 0), |n| (n.add, n.del));
            (add != p.add || del != p.del).then(|| {
                format!(
                    "Its expectations for {rs} go from {} to {}.",
                    pending_brief(p.add, p.del),
                    pending_brief(add, del)
                )
            })
        })
        .collect()
}

fn pending_brief(add: i64, del: i64) -> String {
    format!("add {add}, del {del}")
}

#[cfg(test)]
mod tests;
