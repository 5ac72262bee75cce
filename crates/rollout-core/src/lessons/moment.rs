//! Moments of a scenario named by what happens, evaluated on a [`Simulation`] as it steps.
//!
//! A lesson never says "step 17" or "round 5": a round's length and what a step is change with
//! the cluster model (lock-step or settled rounds), what the controllers do does not. So a
//! lesson step says "until the Deployment controller first scales the new ReplicaSet up"
//! ([`Moment::ScaledUp`]`(`[`Rs::New`]`)`), and [`run_to`] steps until that is true.
//!
//! Two kinds of moment: those about *the step just taken* (an action applied, a scale event,
//! pods created or deleted) need at least one new step, so the same moment twice in a row means
//! "the next time"; those about *the state* (a pod ready, the rollout complete) hold at once
//! if they already hold.

use crate::api::{Deployment, ReplicaSet};
use crate::deployment::util;
use crate::kubectl::rollout_status::rollout_status_of;
use crate::sim::{Simulation, StepKind, StepRecord};
use crate::store::ApiServer;
use serde::Serialize;
use std::sync::Arc;

/// A ReplicaSet named by its role in the rollout, not by its generated name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "rs", content = "n", rename_all = "camelCase")]
pub enum Rs {
    /// The Deployment's new ReplicaSet (its template equals the Deployment's).
    New,
    /// The old ReplicaSet with the most pods (ties: the older).
    Old,
    /// The n-th ReplicaSet the Deployment controller created (1-based), `web-rev<n>`.
    Nth(u32),
}

/// How many pods a state moment waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "count", content = "n", rename_all = "camelCase")]
pub enum Count {
    /// At least this many.
    AtLeast(i32),
    /// As many as the ReplicaSet's `spec.replicas` (and at least one).
    All,
}

/// Something that happens in a rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "moment", content = "of", rename_all = "camelCase")]
pub enum Moment {
    /// Where the simulation stands (no step taken).
    Now,
    /// The user's action of this `type` (`create`, `setImage`, `scale`, `pause`, `resume` …)
    /// has been applied through the API server.
    Action(&'static str),
    /// The Deployment controller has created this ReplicaSet.
    ReplicaSetCreated(Rs),
    /// The Deployment controller has scaled this ReplicaSet up (a `ScalingReplicaSet` event).
    ScaledUp(Rs),
    /// The Deployment controller has scaled this ReplicaSet down.
    ScaledDown(Rs),
    /// The ReplicaSet controller has created pods for this ReplicaSet.
    PodsCreated(Rs),
    /// The ReplicaSet controller has deleted pods of this ReplicaSet.
    PodsDeleted(Rs),
    /// The Deployment controller's history clean-up has deleted a ReplicaSet.
    ReplicaSetDeleted,
    /// A step took a decision in this Kubernetes function (`oldPodsRunning` …).
    Decided(&'static str),
    /// State: this many pods of the ReplicaSet are Ready.
    PodsReady(Rs, Count),
    /// State: this many pods of the ReplicaSet are available (ready for minReadySeconds).
    PodsAvailable(Rs, Count),
    /// State: a pod of the ReplicaSet has restarted at least this many times (its container
    /// crashed or was killed, and the kubelet started it again: `restartCount`).
    Restarted(Rs, i32),
    /// State: `kubectl rollout status` reports success.
    RolloutComplete,
    /// State: the Progressing condition has reason `ProgressDeadlineExceeded`.
    DeadlineExceeded,
    /// A whole round has run (the clock is about to move on).
    RoundEnd,
    /// The clock reaches a second in which requests to the Service fail, by the traffic run
    /// of the script (`crate::traffic`, the scenario's `model.traffic`).
    RequestsFail,
    /// The clock reaches a second in which the Service serves every request again.
    RequestsServed,
}

impl Moment {
    /// Whether the moment is about the state (true at once if it already holds) rather than
    /// about a step.
    pub fn is_state(&self) -> bool {
        matches!(
            self,
            Moment::Now
                | Moment::PodsReady(..)
                | Moment::PodsAvailable(..)
                | Moment::Restarted(..)
                | Moment::RolloutComplete
                | Moment::DeadlineExceeded
        )
    }

    /// What happens, in words (for the lesson panel and test messages).
    pub fn describe(&self) -> String {
        match self {
            Moment::Now => "now".into(),
            Moment::Action(t) => format!("until your `{t}` is applied"),
            Moment::ReplicaSetCreated(rs) => {
                format!("until the Deployment controller creates {}", rs.describe())
            }
            Moment::ScaledUp(rs) => {
                format!(
                    "until the Deployment controller scales {} up",
                    rs.describe()
                )
            }
            Moment::ScaledDown(rs) => {
                format!(
                    "until the Deployment controller scales {} down",
                    rs.describe()
                )
            }
            Moment::PodsCreated(rs) => {
                format!(
                    "until the ReplicaSet controller creates pods for {}",
                    rs.describe()
                )
            }
            Moment::PodsDeleted(rs) => {
                format!(
                    "until the ReplicaSet controller deletes pods of {}",
                    rs.describe()
                )
            }
            Moment::ReplicaSetDeleted => "until history clean-up deletes a ReplicaSet".into(),
            Moment::Decided(f) => format!("until a controller decides in {f}"),
            Moment::PodsReady(rs, c) => {
                let (who, verb) = c.describe();
                format!("until {who} of {} {verb} ready", rs.describe())
            }
            Moment::PodsAvailable(rs, c) => {
                let (who, verb) = c.describe();
                format!("until {who} of {} {verb} available", rs.describe())
            }
            Moment::Restarted(rs, n) => format!(
                "until a pod of {} has restarted {n} {}",
                rs.describe(),
                if *n == 1 { "time" } else { "times" }
            ),
            Moment::RolloutComplete => "until the rollout is complete".into(),
            Moment::DeadlineExceeded => "until ProgressDeadlineExceeded".into(),
            Moment::RoundEnd => "until the end of the round".into(),
            Moment::RequestsFail => "until requests to the Service fail".into(),
            Moment::RequestsServed => "until the Service serves every request".into(),
        }
    }
}

impl Rs {
    fn describe(&self) -> String {
        match self {
            Rs::New => "the new ReplicaSet".into(),
            Rs::Old => "the old ReplicaSet".into(),
            Rs::Nth(n) => format!("ReplicaSet number {n}"),
        }
    }
}

impl Count {
    fn describe(&self) -> (String, &'static str) {
        match self {
            Count::AtLeast(1) => ("a pod".into(), "is"),
            Count::AtLeast(n) => (format!("{n} pods"), "are"),
            Count::All => ("all pods".into(), "are"),
        }
    }
}

/// The Deployment lessons are about: the first by name (as an unnamed scenario action).
pub fn deployment(api: &ApiServer) -> Option<&Arc<Deployment>> {
    api.deployments().next()
}

/// The Deployment's ReplicaSets, oldest first.
pub fn replica_sets(api: &ApiServer) -> Vec<Arc<ReplicaSet>> {
    let Some(d) = deployment(api) else {
        return Vec::new();
    };
    let mut rss = api.replica_sets_of(d);
    util::sort_replica_sets(&mut rss, util::by_creation_timestamp);
    rss
}

/// The ReplicaSet `rs` names now, if there is one.
pub fn resolve(api: &ApiServer, rs: Rs) -> Option<Arc<ReplicaSet>> {
    let d = deployment(api)?;
    let mut rss = replica_sets(api);
    match rs {
        Rs::New => util::find_new_replica_set(d, &mut rss),
        Rs::Old => {
            let new = util::find_new_replica_set(d, &mut rss);
            rss.iter()
                .filter(|r| {
                    new.as_ref()
                        .is_none_or(|n| n.metadata.uid != r.metadata.uid)
                })
                .fold(None::<&Arc<ReplicaSet>>, |best, r| match best {
                    Some(b) if api.pods_of_iter(b).count() >= api.pods_of_iter(r).count() => {
                        Some(b)
                    }
                    _ => Some(r),
                })
                .cloned()
        }
        Rs::Nth(n) => {
            let name = format!("{}-rev{n}", d.metadata.name);
            api.replica_set(&name).cloned()
        }
    }
}

/// Active pods of a ReplicaSet that are Ready, and that are available.
pub fn ready_and_available(api: &ApiServer, rs: &ReplicaSet) -> (i32, i32) {
    let now = api.now();
    api.pods_of_iter(rs)
        .filter(|p| p.is_active())
        .fold((0, 0), |(r, a), p| {
            (
                r + i32::from(p.is_ready()),
                a + i32::from(p.is_available(rs.spec.min_ready_seconds, now)),
            )
        })
}

fn count_met(count: Count, have: i32, rs: &ReplicaSet) -> bool {
    match count {
        Count::AtLeast(n) => have >= n,
        Count::All => have >= rs.spec.replicas.max(1),
    }
}

fn scaling_event(record: &StepRecord, verb: &str, name: &str) -> bool {
    matches!(record.kind, StepKind::SyncDeployment { .. })
        && record.events.iter().any(|e| {
            e.reason == "ScalingReplicaSet"
                && e.message
                    .starts_with(&format!("Scaled {verb} replica set {name} "))
        })
}

/// Whether the state moment holds now.
fn state_holds(moment: &Moment, api: &ApiServer) -> bool {
    match moment {
        Moment::Now => true,
        Moment::PodsReady(rs, c) => {
            resolve(api, *rs).is_some_and(|r| count_met(*c, ready_and_available(api, &r).0, &r))
        }
        Moment::PodsAvailable(rs, c) => {
            resolve(api, *rs).is_some_and(|r| count_met(*c, ready_and_available(api, &r).1, &r))
        }
        Moment::Restarted(rs, n) => resolve(api, *rs).is_some_and(|r| {
            api.pods_of_iter(&r)
                .any(|p| p.is_active() && p.restart_count >= *n)
        }),
        Moment::RolloutComplete => deployment(api).is_some_and(|d| rollout_status_of(d, 0).done),
        Moment::DeadlineExceeded => deployment(api).is_some_and(|d| {
            util::get_deployment_condition(&d.status, "Progressing")
                .is_some_and(|c| c.reason == util::reason::TIMED_OUT)
        }),
        _ => false,
    }
}

/// Whether the step just taken (`record`, from `before` to the simulation's state) is the
/// moment.
pub fn step_is(moment: &Moment, before: &ApiServer, sim: &Simulation, record: &StepRecord) -> bool {
    let api = sim.api();
    let name_of = |rs: Rs| resolve(api, rs).map(|r| r.metadata.name.clone());
    match moment {
        Moment::Action(t) => {
            record.kind == StepKind::Actions
                && record.errors.is_empty()
                && record
                    .actions
                    .iter()
                    .any(|a| a.get("type").and_then(|v| v.as_str()) == Some(t))
        }
        Moment::ReplicaSetCreated(rs) => {
            name_of(*rs).is_some_and(|n| before.replica_set(&n).is_none())
        }
        Moment::ScaledUp(rs) => name_of(*rs).is_some_and(|n| scaling_event(record, "up", &n)),
        Moment::ScaledDown(rs) => name_of(*rs).is_some_and(|n| scaling_event(record, "down", &n)),
        Moment::PodsCreated(rs) => name_of(*rs).is_some_and(|n| {
            record.kind == (StepKind::SyncReplicaSet { name: n })
                && record
                    .manage
                    .as_ref()
                    .and_then(|m| m.slow_start.as_ref())
                    .is_some_and(|s| s.successes > 0)
        }),
        Moment::PodsDeleted(rs) => {
            // The ReplicaSet may be gone by now (deleted by clean-up is a later step), so
            // resolve it before the step too.
            let n = name_of(*rs).or_else(|| resolve(before, *rs).map(|r| r.metadata.name.clone()));
            n.is_some_and(|n| {
                record.kind == (StepKind::SyncReplicaSet { name: n })
                    && record
                        .manage
                        .as_ref()
                        .is_some_and(|m| !m.deletions.is_empty())
            })
        }
        Moment::ReplicaSetDeleted => before
            .replica_sets()
            .any(|r| api.replica_set(&r.metadata.name).is_none()),
        Moment::Decided(f) => record.decisions.iter().any(|d| d.function == *f),
        Moment::RoundEnd => sim.at_round_start(),
        state => state_holds(state, api),
    }
}

/// The round in which `moment` first held, for the step `record` that reached it: a state
/// that only holds because the clock moved on at the end of the round (minReadySeconds
/// passing) is reached in the next round.
pub fn round_reached(moment: &Moment, sim: &Simulation, record: &StepRecord) -> u32 {
    if moment.is_state() && sim.at_round_start() && sim.round() != record.round {
        let mut then = sim.api().clone();
        then.set_now(record.time);
        if !state_holds(moment, &then) {
            return sim.round();
        }
    }
    record.round
}

/// Steps `sim` until `moment`; returns the number of steps taken. A state moment that already
/// holds takes none. `Err` when the scenario ends first.
pub fn run_to(sim: &mut Simulation, moment: &Moment) -> Result<usize, String> {
    if let Moment::RequestsFail | Moment::RequestsServed = moment {
        return run_to_requests(sim, moment);
    }
    if moment.is_state() && state_holds(moment, sim.api()) {
        return Ok(0);
    }
    let mut taken = 0;
    loop {
        let before = sim.api().clone();
        let Some(record) = sim.step().cloned() else {
            return Err(format!(
                "the scenario ended (round {}) before {}",
                sim.round(),
                moment.describe()
            ));
        };
        taken += 1;
        if step_is(moment, &before, sim, &record) {
            return Ok(taken);
        }
    }
}

/// Steps `sim` until the clock's second has failed requests ([`Moment::RequestsFail`]) or has
/// none ([`Moment::RequestsServed`]), by the traffic run of its script: the run is worked out
/// once, and the clock read after each step. A moment that holds takes no step.
fn run_to_requests(sim: &mut Simulation, moment: &Moment) -> Result<usize, String> {
    let run = crate::traffic::run_scenario(sim.scenario(), None, None)?;
    let failing = matches!(moment, Moment::RequestsFail);
    let holds = |sim: &Simulation| {
        (run.figures_at(clock_second(sim)).failed() > 0 && clock_second(sim) >= 0) == failing
    };
    let mut taken = 0;
    while !holds(sim) {
        if sim.step().is_none() {
            return Err(format!(
                "the scenario ended (round {}) before {}",
                sim.round(),
                moment.describe()
            ));
        }
        taken += 1;
    }
    Ok(taken)
}

/// The second of the clock whose requests a page shows with the state it draws: within a
/// round, the round's own second; at a round's start (the state is the last round's until the
/// next one runs) the second just before the clock, so the Service matches the pods drawn.
/// Example: `kubectl scale` applied in round 20 (1 s rounds); at the start of round 21 the
/// stage shows the new pod and the Service second 20, in which the proxies have not heard of
/// it; the first step of round 21 shows second 21, in which they send it requests. Before
/// anything has run: -1, no second yet.
pub fn clock_second(sim: &Simulation) -> crate::api::Time {
    if sim.at_round_start() {
        sim.now() - 1
    } else {
        sim.now()
    }
}
