//! Hints: why a prediction is wrong ([`hint`]) and, before any answer, where to look
//! ([`nudge`], the Hint button): the rule the controller applies, with the live numbers that
//! are not the answer, so the learner can work it out. The answer itself only appears when
//! the learner asks for it ("Show me"); `lessons::tests` checks every hint of every lesson
//! question and quiz question against its answer.
//!
//! Example, `?lesson=rolling-update` step 1 (3 replicas of nginx:1.14.2, maxSurge 25% → 1),
//! the learner predicts the new ReplicaSet asks for 3: "3 is more than the new ReplicaSet will
//! ask for. It may grow until the ReplicaSets together ask for replicas + maxSurge = 4 pods:
//! the limit of the Total pods gauge. Read on each old ReplicaSet's lane what it asks for
//! now." The learner reads web-rev1's 3 on its lane, counts 4 − 3 and tries again.

use super::moment::{self, Rs};
use super::question::{Answer, Ask, Expected};
use crate::api::{DeploymentStrategy, ReplicaSet};
use crate::deployment::util;
use crate::replicaset::ranking::Criterion;
use crate::sim::{Simulation, StepKind};
use std::sync::Arc;

/// Why `given` is not what the simulation does (`expected`, computed from `sim`, the
/// question's moment), in plain words with live numbers, never stating the answer: what was
/// off about `given`, then the rule ([`rule`]).
pub fn hint(ask: &Ask, sim: &Simulation, given: &Answer, expected: &Expected) -> String {
    if moment::deployment(sim.api()).is_none() {
        return NO_DEPLOYMENT.into();
    }
    let why = match (ask, given, &expected.answer) {
        (Ask::DesiredAfterNextSync(rs), Answer::Number(g), Answer::Number(a)) => {
            more_or_fewer(*g, *a, &format!("{} will ask for", rs_name(sim, *rs)))
        }
        (Ask::CreatedInNextSync(_), Answer::Number(g), Answer::Number(a)) => {
            more_or_fewer(*g, *a, "it will create")
        }
        (Ask::NextDeletedPod, Answer::Pods(g), Answer::Pods(right)) => {
            return pod_hint(
                sim,
                g.first().map(String::as_str).unwrap_or(""),
                right,
                expected,
            )
        }
        (Ask::RoundOf(_) | Ask::Completes, Answer::Round(g), Answer::Round(a)) => match (g, a) {
            (Some(g), Some(a)) if g < a => format!("Round {g} is too early."),
            (Some(g), Some(_)) => format!("Round {g} is too late."),
            (Some(_), None) => "Look at what could hold it up.".into(),
            (None, _) => "Something does move it on.".into(),
        },
        (Ask::FailedRequests, Answer::Number(g), Answer::Number(a)) => {
            more_or_fewer(*g, *a, "will fail")
        }
        (Ask::Refused(options), Answer::Choices(g), Answer::Choices(a)) => {
            let misjudged = (0..options.len())
                .filter(|i| g.contains(i) != a.contains(i))
                .count();
            format!(
                "You judged {misjudged} of the {} settings differently from the API server.",
                options.len()
            )
        }
        _ => return "That is not the kind of answer this question takes.".into(),
    };
    format!("{why} {}", rule(ask, sim, expected))
}

/// The Hint button: before any answer, where to look and the rule the controller applies,
/// with the live numbers that are not the answer. `Err`: the question cannot be asked here.
///
/// Example, `?lesson=rolling-update` step 1 (3 replicas, maxSurge 25% → 1, the answer 1):
/// "The new ReplicaSet may grow until the ReplicaSets together ask for replicas + maxSurge = 4
/// pods: the limit of the Total pods gauge. Read on each old ReplicaSet's lane what it asks
/// for now." The learner reads web-rev1's 3 on the stage and works out 4 − 3 alone; the hint
/// quotes neither the 3 nor maxSurge's 1 (the answer).
pub fn nudge(ask: &Ask, sim: &Simulation) -> Result<String, String> {
    if moment::deployment(sim.api()).is_none() {
        return Ok(NO_DEPLOYMENT.into());
    }
    let expected = super::question::expected(ask, sim)?;
    Ok(match ask {
        Ask::NextDeletedPod => {
            let look = deciding_criterion(sim, &expected).map_or("", look_at);
            format!("The pod that goes belongs to the ReplicaSet that is to shrink. {ORDER}{look}")
        }
        _ => rule(ask, sim, &expected),
    })
}

const NO_DEPLOYMENT: &str =
    "There is no Deployment yet: step on until `kubectl apply` has created it.";

/// The rule that decides `ask`, with the live numbers that are not the answer (a number equal
/// to the answer is named, not quoted: [`quote`]).
fn rule(ask: &Ask, sim: &Simulation, expected: &Expected) -> String {
    let d = moment::deployment(sim.api()).expect("checked by the callers");
    let live = Live::of(sim);
    let a = &expected.answer;
    match ask {
        Ask::DesiredAfterNextSync(rs) => {
            // A resize: a scaling event, or a paused Deployment's sync, which only scales.
            let scaling = expected.decisions.iter().any(|x| {
                x.function == "scale"
                    || x.function == "isScalingEvent"
                        && x.values
                            .iter()
                            .any(|(k, _)| k == "desiredReplicasAnnotation")
            });
            if scaling {
                live.resize_rule(a)
            } else if !util::is_rolling_update(d) {
                "With strategy Recreate, every old ReplicaSet goes to zero first, and the new one is created at full size only once no old pod runs. Look at what each ReplicaSet asks for, and whether an old pod still runs.".into()
            } else if new_after(sim, *rs, expected) {
                format!(
                    "The new ReplicaSet may grow until the ReplicaSets together ask for replicas + maxSurge{} pods: the limit of the Total pods gauge. Read on each old ReplicaSet's lane what it asks for now.",
                    quote(" =", live.max_total, a)
                )
            } else {
                format!(
                    "An old ReplicaSet gives up pods only while at least replicas − maxUnavailable{} stay available; its pods that are not available may go at once, since removing them costs no availability. Count the available pods on the stage (the Available gauge).",
                    quote(" =", live.min_available, a)
                )
            }
        }
        Ask::CreatedInNextSync(rs) => format!(
            "The ReplicaSet controller creates the pods {} is missing: its spec.replicas when it syncs (DESIRED on its lane) minus the pods it has. The Deployment controller syncs first in each round and may change spec.replicas.",
            rs_name(sim, *rs)
        ),
        Ask::NextDeletedPod => ORDER.into(),
        Ask::RoundOf(_) | Ask::Completes => {
            format!("{} {}", round_rule(ask, sim, &live), live.clock())
        }
        Ask::Refused(_) => "The API server checks the values as written, before any rounding: maxUnavailable may be at most 100%, neither may be negative, and maxSurge and maxUnavailable may not both be zero.".into(),
        Ask::FailedRequests => requests_rule(sim),
    }
}

/// `" = 4"` after a rule's name, or nothing when 4 is the answer itself (the learner reads it
/// on the stage instead).
fn quote(sep: &str, n: i32, answer: &Answer) -> String {
    if *answer == Answer::Number(i64::from(n)) {
        String::new()
    } else {
        format!("{sep} {n}")
    }
}

/// The numbers a hint quotes, read from the simulation now.
struct Live {
    replicas: i32,
    surge: i32,
    unavailable: i32,
    max_total: i32,
    min_available: i32,
    available: i32,
    min_ready: i32,
    /// Each ReplicaSet with the replicas it asks for, oldest first.
    rss: Vec<(String, i32)>,
    now: i64,
    seconds_per_round: i64,
    ready_after: i64,
}

impl Live {
    fn of(sim: &Simulation) -> Live {
        let api = sim.api();
        let d = moment::deployment(api).expect("checked by the caller");
        let rss = moment::replica_sets(api);
        let s = sim.scenario();
        Live {
            replicas: d.spec.replicas,
            surge: util::max_surge(d),
            unavailable: util::max_unavailable(d),
            max_total: d.spec.replicas + util::max_surge(d),
            min_available: util::min_available(d),
            available: rss
                .iter()
                .map(|r| moment::ready_and_available(api, r).1)
                .sum(),
            min_ready: d.spec.min_ready_seconds,
            rss: rss
                .iter()
                .map(|r| (r.metadata.name.clone(), r.spec.replicas))
                .collect(),
            now: sim.now(),
            seconds_per_round: s.seconds_per_round,
            ready_after: i64::from(s.ready_after_rounds) * s.seconds_per_round,
        }
    }

    /// `web-rev1 3, web-rev2 1`, or `none yet`.
    fn asks(&self) -> String {
        if self.rss.is_empty() {
            return "no ReplicaSet exists yet".into();
        }
        self.rss
            .iter()
            .map(|(n, r)| format!("{n} {r}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// How the controller shares a change of the Deployment's size (`scale`), quoting the new
    /// replicas unless it is the answer.
    fn resize_rule(&self, answer: &Answer) -> String {
        let active = self.rss.iter().filter(|(_, r)| *r > 0).count();
        if active <= 1 {
            return format!(
                "The Deployment's spec.replicas changed{}. Does the controller resize the ReplicaSets, even while paused? When only one ReplicaSet has replicas, a resize goes to it alone.",
                quote(" to", self.replicas, answer)
            );
        }
        format!(
            "A resize mid-rollout adds replicas{} + maxSurge − what the ReplicaSets ask for together, shared in proportion to each ReplicaSet's size (the larger first for a pod left over). Read what each lane asks for now.",
            quote("", self.replicas, answer)
        )
    }

    fn clock(&self) -> String {
        format!(
            "Now t = {} s; a round is {} s long, and a new pod is ready {} s after it is created{}.",
            self.now,
            self.seconds_per_round,
            self.ready_after,
            if self.min_ready > 0 {
                format!(", available {} s later (minReadySeconds)", self.min_ready)
            } else {
                String::new()
            }
        )
    }
}

/// "9 is more than it will create." / "fewer than", or why a negative count cannot be.
fn more_or_fewer(given: i64, answer: i64, what: &str) -> String {
    if given < 0 {
        format!("{given} cannot be: a count is never negative.")
    } else if given > answer {
        format!("{given} is more than {what}.")
    } else {
        format!("{given} is fewer than {what}.")
    }
}

fn rs_name(sim: &Simulation, rs: Rs) -> String {
    moment::resolve(sim.api(), rs).map_or_else(
        || match rs {
            Rs::New => "the new ReplicaSet".into(),
            Rs::Old => "the old ReplicaSet".into(),
            Rs::Nth(n) => format!("ReplicaSet number {n}"),
        },
        |r| r.metadata.name.clone(),
    )
}

/// Whether the ReplicaSet the question names is the Deployment's new one after the sync that
/// answers it (it may not exist before).
fn new_after(sim: &Simulation, rs: Rs, expected: &Expected) -> bool {
    match rs {
        Rs::New => true,
        Rs::Old => false,
        Rs::Nth(_) => {
            let mut probe = sim.clone_without_history();
            for _ in 0..expected.steps {
                probe.step();
            }
            let named = moment::resolve(probe.api(), rs).map(|r| r.metadata.uid);
            let new = moment::resolve(probe.api(), Rs::New).map(|r| r.metadata.uid);
            named.is_some() && named == new
        }
    }
}

/// The ReplicaSet a pod belongs to.
fn owner_of(sim: &Simulation, pod: &str) -> Option<Arc<ReplicaSet>> {
    moment::replica_sets(sim.api())
        .into_iter()
        .find(|r| sim.api().pods_of_iter(r).any(|p| p.metadata.name == pod))
}

/// The ranking of `getPodsToDelete` (`controller_utils.go`, `ActivePodsWithRanks.Less`), in
/// words. "More pods on its node" counts the pods of every ReplicaSet of the Deployment
/// (`getPodsRankedByRelatedPodsOnSameNode` ranks against all of them).
const ORDER: &str = "The ReplicaSet controller deletes first a pod that is not yet scheduled, then Pending, then not ready, then with a lower pod-deletion-cost, then one whose node runs more of the Deployment's pods (of any of its ReplicaSets), then ready more recently, then with more restarts, then newer.";

/// Why `given` is not the pod the ReplicaSet controller deletes next.
fn pod_hint(sim: &Simulation, given: &str, right: &[String], expected: &Expected) -> String {
    let active = sim.api().pod(given).is_some_and(|p| p.is_active());
    if !active {
        return format!("No running pod is called {given:?}: click one of the pods on the stage.");
    }
    let deleting = right.first().and_then(|p| owner_of(sim, p));
    let mine = owner_of(sim, given);
    match (mine, deleting) {
        (Some(m), Some(d)) if m.metadata.name != d.metadata.name => format!(
            "{given} belongs to {}, which keeps its pods. The pod that goes belongs to the ReplicaSet that is to shrink: the Deployment controller scales down one that is {}.",
            m.metadata.name,
            if util::is_rolling_update(moment::deployment(sim.api()).expect("a pod's Deployment")) {
                "old, as far as maxUnavailable allows"
            } else {
                "too big"
            }
        ),
        (_, d) => {
            let look = deciding_criterion(sim, expected).map_or("", look_at);
            let within = d.map_or_else(String::new, |d| format!(" within {}", d.metadata.name));
            format!("Another pod{within} goes before {given}. {ORDER}{look}")
        }
    }
}

/// The criterion that put the deleted pod before the first one kept, from the step that
/// answers the question.
fn deciding_criterion(sim: &Simulation, expected: &Expected) -> Option<Criterion> {
    let mut probe = sim.clone_without_history();
    let mut record = None;
    for _ in 0..expected.steps {
        record = probe.step().cloned();
    }
    let record = record?;
    if !matches!(record.kind, StepKind::SyncReplicaSet { .. }) {
        return None;
    }
    record
        .manage
        .as_ref()?
        .deletions
        .first()
        .map(|d| d.criterion)
}

/// What to compare among the pods, for the criterion that decides.
fn look_at(c: Criterion) -> &'static str {
    match c {
        Criterion::Unassigned => " Here it comes down to which pods have no node yet.",
        Criterion::Phase => " Here it comes down to which pods are still Pending.",
        Criterion::Readiness => " Here it comes down to which pods are not ready.",
        Criterion::DeletionCost => " Here it comes down to the pods' pod-deletion-cost.",
        Criterion::NodeRank => {
            " Here it comes down to how many of the Deployment's pods, new ones included, share each pod's node."
        }
        Criterion::ReadyTime => " Here it comes down to when each pod became ready.",
        Criterion::Restarts => " Here it comes down to the pods' restarts.",
        Criterion::CreationTime => " Here it comes down to when each pod was created.",
        Criterion::Tie => {
            " Here the pods are alike in every way, and the controller breaks the tie by UID."
        }
    }
}

/// What decides the round a moment happens in, with live numbers.
fn round_rule(ask: &Ask, sim: &Simulation, live: &Live) -> String {
    let d = moment::deployment(sim.api()).expect("checked by the caller");
    let never_ready = sim
        .scenario()
        .never_ready_images
        .contains(&d.spec.template.image);
    match ask {
        Ask::Completes if never_ready => format!(
            "The rollout completes when all {} replicas run {} and are available. Do its pods ever become ready?",
            live.replicas, d.spec.template.image
        ),
        Ask::Completes => format!(
            "The rollout completes when all {} replicas run {}, are available, and no old pod is left. Each wave replaces at most maxSurge {} + maxUnavailable {} pods, and waits for the new pods to become available. Up to date now: {}; available: {}.",
            live.replicas,
            d.spec.template.image,
            live.surge,
            live.unavailable,
            d.status.updated_replicas,
            live.available
        ),
        Ask::RoundOf(m) => match m {
            moment::Moment::PodsAvailable(rs, _) => {
                let ready_at = moment::resolve(sim.api(), *rs)
                    .and_then(|r| {
                        sim.api()
                            .pods_of_iter(&r)
                            .filter(|p| p.is_active())
                            .filter_map(|p| p.ready_time())
                            .min()
                    })
                    .map_or_else(String::new, |t| format!(" The first one became ready at t = {t} s."));
                format!(
                    "A pod is available once it has been ready for more than minReadySeconds {} s.{ready_at}",
                    live.min_ready
                )
            }
            moment::Moment::ReplicaSetCreated(_) if d.spec.paused => "A paused Deployment gets no new ReplicaSet, whatever its template says: when does the scenario resume it? (The marks on the timeline are the scenario's kubectl commands.)".into(),
            moment::Moment::ReplicaSetCreated(_) if matches!(d.spec.strategy, DeploymentStrategy::Recreate) => format!(
                "Recreate creates the new ReplicaSet only once no old pod runs, terminating ones included: first the old ReplicaSets go to zero (now: {}), then their pods shut down, which takes {} s.",
                live.asks(),
                i64::from(sim.scenario().termination_rounds) * live.seconds_per_round
            ),
            moment::Moment::ReplicaSetDeleted => format!(
                "History clean-up runs only once the rollout is complete, and then deletes the oldest ReplicaSets without pods beyond revisionHistoryLimit {}: when will the rollout to {} be complete?",
                d.spec.revision_history_limit.unwrap_or(10),
                d.spec.template.image
            ),
            moment::Moment::Restarted(rs, _) => restart_rule(sim, *rs),
            m => format!("Watch for the moment {}.", m.describe().trim_start_matches("until ")),
        },
        _ => String::new(),
    }
}

/// The kubelet's restart rule with the model's back-off and the pod's restarts so far: a first
/// restart is at once, each later one waits a back-off measured from the exit, doubling from
/// the initial value up to the maximum (v1.28's kubelet: 10 s to 300 s).
fn restart_rule(sim: &Simulation, rs: moment::Rs) -> String {
    let policy = sim
        .scenario()
        .model
        .as_ref()
        .and_then(|m| m.failures.as_ref())
        .map(|f| f.restart_back_off)
        .unwrap_or_default();
    let pod = moment::resolve(sim.api(), rs).and_then(|r| {
        sim.api()
            .pods_of_iter(&r)
            .filter(|p| p.is_active())
            .max_by_key(|p| p.restart_count)
            .cloned()
    });
    let so_far = pod.as_ref().map_or_else(String::new, |p| {
        format!(" It has restarted {} times so far.", p.restart_count)
    });
    // A liveness probe that kills a slow app: its ticks, not a crash, end each container.
    let model = sim.kubelet_model();
    // The pod's image, or before it exists the template's.
    let image = pod
        .as_ref()
        .map(|p| p.image.clone())
        .or_else(|| moment::deployment(sim.api()).map(|d| d.spec.template.image.clone()));
    let slow = image.as_deref().and_then(|image| {
        let failure = model.failures.as_ref()?.of(image)?;
        let crate::kubelet::failures::AppFailure::Slow { ready } = failure else {
            return None;
        };
        let probes = model.probes_of(image)?;
        let live = probes
            .containers
            .iter()
            .find_map(|c| c.liveness_probe.as_ref())?;
        Some((*ready, live.period_seconds, live.failure_threshold))
    });
    if let Some((ready, period, threshold)) = slow {
        return format!(
            "The app answers only {ready} s after each start. The liveness probe runs every {period} s counted from the pod's creation (the run at the very second the container starts finds it not running yet); after {threshold} failures in a row the kubelet kills the container. The first restart is at once; later ones wait a back-off of {} s doubling up to {} s, unless the container before exited longer ago than its back-off.{so_far}",
            policy.initial_seconds, policy.max_seconds
        );
    }
    format!(
        "The kubelet restarts a crashed container at once the first time; after that it waits a back-off counted from the exit, {} s at first and doubling each time, at most {} s. Add the time the app runs before it crashes.{so_far}",
        policy.initial_seconds, policy.max_seconds
    )
}

/// What decides [`Ask::FailedRequests`], with the traffic model's numbers (never the answer):
/// how the Service spreads its load, when the proxies learn of a change, and when a pod's app
/// does not answer.
fn requests_rule(sim: &Simulation) -> String {
    let s = sim.scenario();
    let m = s.model.as_ref();
    let t = m.and_then(|m| m.traffic.clone()).unwrap_or_default();
    let probes = m.and_then(|m| m.probes.as_ref());
    let readiness =
        probes.is_some_and(|p| p.containers.iter().any(|c| c.readiness_probe.is_some()));
    let app = match probes {
        Some(p) if readiness => format!(
            "The app answers {} s after its container starts, and its readiness probe keeps the pod out of the ready endpoints until it does.",
            p.app_ready_seconds
        ),
        Some(p) => format!(
            "The app answers {} s after its container starts, but without a readiness probe the pod is Ready, and a ready endpoint, as soon as the container starts.",
            p.app_ready_seconds
        ),
        None => "The app answers once its pod is Ready.".to_string(),
    };
    let stop = match t.pre_stop_sleep_seconds {
        0 => format!(
            "A deleted pod's app exits {} s after SIGTERM, which comes at once without a preStop sleep.",
            t.exit_after_sigterm_seconds
        ),
        n => format!("A deleted pod keeps answering through its preStop sleep of {n} s, then gets SIGTERM."),
    };
    let capacity = t
        .pod_capacity
        .map(|c| format!(" A pod serves at most {c} req/s; the excess fails."))
        .unwrap_or_default();
    format!(
        "The Service spreads {} req/s evenly over the endpoints the proxies send to, and the proxies learn of an endpoint change {} s after it. {app} {stop}{capacity} Count each window's seconds times what the pod gets a second.",
        t.load, t.endpoint_delay_seconds
    )
}
