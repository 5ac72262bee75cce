//! `pkg/controller/replicaset`: the ReplicaSet controller.
//!
//! [`ReplicaSetController::sync_replica_set`] compares a ReplicaSet's active pods with
//! spec.replicas, creates pods in slow-start batches or deletes the lowest-ranked ones
//! (`manageReplicas`), then writes the status (`calculateStatus`).

pub mod ranking;
pub mod requeue;
pub mod status;

use crate::api::{Pod, ReplicaSet, Time};
use crate::races::expectations::ControllerExpectationsInterface;
use crate::record::Recorder;
use crate::store::ApiServer;
use crate::version::KubernetesVersion;
use ranking::{Criterion, PodRanking, RankedPod};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `controller.SlowStartInitialBatchSize`.
pub const SLOW_START_INITIAL_BATCH_SIZE: usize = 1;
/// The controller's `burstReplicas` (kube-controller-manager's default).
pub const BURST_REPLICAS: usize = 500;

/// What a slow-start run did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SlowStart {
    /// Calls that succeeded.
    pub successes: usize,
    /// Calls made in each batch.
    pub batch_sizes: Vec<usize>,
    /// The first error, if a batch failed (the run stops after that batch).
    pub error: Option<String>,
}

/// `slowStartBatch`: call `f` `count` times in batches of 1, 2, 4, 8 … (starting at
/// `initial_batch_size`); every call of a batch is made, and a batch with any failure ends it.
pub fn slow_start_batch(
    count: usize,
    initial_batch_size: usize,
    mut f: impl FnMut() -> Result<(), String>,
) -> SlowStart {
    let mut remaining = count;
    let mut out = SlowStart {
        successes: 0,
        batch_sizes: Vec::new(),
        error: None,
    };
    let mut batch = remaining.min(initial_batch_size);
    while batch > 0 {
        out.batch_sizes.push(batch);
        let mut first_error = None;
        for _ in 0..batch {
            match f() {
                Ok(()) => out.successes += 1,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if first_error.is_some() {
            out.error = first_error;
            return out;
        }
        remaining -= batch;
        batch = (2 * batch).min(remaining);
    }
    out
}

/// Why one pod was chosen for deletion: the criterion that put it before the first pod that
/// was kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeletionReason {
    /// The deleted pod.
    pub pod: RankedPod,
    /// The first pod kept (absent when every pod goes).
    pub kept: Option<RankedPod>,
    /// The criterion that decided against `kept`.
    pub criterion: Criterion,
}

/// `ControlleeExpectations`: what the ReplicaSet controller waits to observe after a sync
/// (`ExpectCreations` / `ExpectDeletions`, minus what it already knows failed). The
/// simulation's rounds read the API server without an informer cache, so the ReplicaSet's next
/// sync has observed every create and delete and finds them satisfied: in a settled round that
/// is the next pass (a create or delete changed the cluster, so the round runs another), in a
/// lock-step round the next round. Only race schedules ([`ReplicaSetController::with_caches`])
/// keep real expectations, which a sync may find unsatisfied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Expectations {
    /// Pod creations still to be observed.
    pub add: i64,
    /// Pod deletions still to be observed.
    pub del: i64,
    /// When they were set.
    pub set_at: Time,
}

/// What one `manageReplicas` did, for the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ManageReport {
    /// Pods wanted minus pods there (positive: create).
    pub diff: i64,
    /// The slow start of a create.
    pub slow_start: Option<SlowStart>,
    /// One entry per deleted pod, in ranking order.
    pub deletions: Vec<DeletionReason>,
    /// The expectations the sync left (absent when it created and deleted nothing).
    pub expectations: Option<Expectations>,
}

/// One run of the ReplicaSet controller.
pub struct ReplicaSetController<'a> {
    api: &'a mut ApiServer,
    rec: &'a mut Recorder,
    /// Deleting a pod only marks it terminating (graceful termination in the cluster model).
    graceful_delete: bool,
    /// The informer caches the sync reads (`rsLister`, `podLister`); `None`: it reads the
    /// API server itself, as in the conformance rounds.
    lister: Option<&'a ApiServer>,
    /// The controller's `expectations` (race schedules); `None`: always satisfied, as in the
    /// conformance rounds, where every write is seen by the next sync.
    expectations: Option<&'a mut dyn ControllerExpectationsInterface>,
    /// The release whose behaviour the sync follows (`status.terminatingReplicas` since 1.35).
    version: KubernetesVersion,
    /// The last `manageReplicas` report.
    pub report: ManageReport,
}

impl<'a> ReplicaSetController<'a> {
    /// A controller writing to `api`; `graceful_delete` as the cluster model says.
    pub fn new(api: &'a mut ApiServer, rec: &'a mut Recorder, graceful_delete: bool) -> Self {
        ReplicaSetController {
            api,
            rec,
            graceful_delete,
            lister: None,
            expectations: None,
            version: KubernetesVersion::SCENARIO_DEFAULT,
            report: ManageReport::default(),
        }
    }

    /// The same controller as Kubernetes `version` runs it (absent: 1.28).
    pub fn kubernetes(mut self, version: KubernetesVersion) -> Self {
        self.version = version;
        self
    }

    /// The same controller reading its ReplicaSets and pods from `cache` (its informer
    /// caches in a race schedule) and keeping `expectations`, while it writes to the API
    /// server.
    pub fn with_caches(
        mut self,
        cache: &'a ApiServer,
        expectations: &'a mut dyn ControllerExpectationsInterface,
    ) -> Self {
        self.lister = Some(cache);
        self.expectations = Some(expectations);
        self
    }

    /// `syncReplicaSet`. Without caches (the conformance rounds) expectations are always
    /// satisfied: every earlier create and delete has been observed. With caches (a race
    /// schedule, [`ReplicaSetController::with_caches`]) it reads the ReplicaSet and its pods
    /// from them and runs `manageReplicas` only when `SatisfiedExpectations`; the status is
    /// written either way. `Err` is the message `manageReplicas` returned.
    pub fn sync_replica_set(&mut self, name: &str) -> Result<(), String> {
        self.rec.enter("syncReplicaSet");
        let lister: &ApiServer = match self.lister {
            Some(cache) => cache,
            None => &*self.api,
        };
        let Some(rs) = lister.replica_set(name).cloned() else {
            // Not in the cache: `DeleteExpectations`, nothing to do.
            if let Some(e) = self.expectations.as_deref_mut() {
                e.delete(name);
            }
            return Ok(());
        };
        let needs_sync = self
            .expectations
            .as_deref()
            .is_none_or(|e| e.satisfied(name));
        let now = self.api.now();
        // Everything the sync reads of its pods is read here, before it writes: how many are
        // active, what `calculateStatus` counts of them and, for a scale-down, which go. The
        // pods are borrowed from the API server, not shared (an `Arc` clone and drop per pod
        // per sync, atomic operations both).
        let (active, counts, deletions, next_check) = {
            let api = lister;
            let filtered = active_pods(api, &rs);
            let diff = filtered.len() as i64 - i64::from(rs.spec.replicas);
            let deletions = (diff > 0 && rs.metadata.deletion_timestamp.is_none()).then(|| {
                pods_to_delete(
                    api,
                    &filtered,
                    &rs,
                    (diff as usize).min(BURST_REPLICAS),
                    now,
                )
            });
            let counts = status::PodCounts::of(&rs, filtered.iter().copied(), now)
                .with_terminating(
                    self.version.reports_terminating_replicas(),
                    api.pods_of_iter(&rs).map(|p| &**p),
                );
            let next_check = requeue::find_min_next_pod_availability_check(
                filtered.iter().copied(),
                rs.spec.min_ready_seconds,
                now,
            );
            (filtered.len(), counts, deletions, next_check)
        };
        self.rec.decide(
            "syncReplicaSet",
            || {
                format!(
                    "{}: spec.replicas {}, active pods {}",
                    rs.metadata.name, rs.spec.replicas, active
                )
            },
            &[
                ("specReplicas", i64::from(rs.spec.replicas)),
                ("activePods", active as i64),
            ],
        );
        self.rec.branch("expectations", needs_sync, || {
            if needs_sync {
                "SatisfiedExpectations: every earlier create and delete has been observed"
                    .to_string()
            } else {
                "SatisfiedExpectations is false: earlier creates or deletes not yet observed"
                    .to_string()
            }
        });
        let diff = active as i64 - i64::from(rs.spec.replicas);
        self.rec.branch("too-few", diff < 0, || {
            format!(
                "{} active pods < spec.replicas {}",
                active, rs.spec.replicas
            )
        });
        self.rec.branch("too-many", diff > 0, || {
            format!(
                "{} active pods > spec.replicas {}",
                active, rs.spec.replicas
            )
        });
        let manage_err = if needs_sync && rs.metadata.deletion_timestamp.is_none() {
            self.manage_replicas(active, deletions, &rs).err()
        } else {
            None
        };
        let new_status = status::calculate_status(&rs, active, &counts, manage_err.as_deref(), now);
        self.rec.enter("calculateStatus");
        status::update_replica_set_status(self.api, &rs, new_status).map_err(|e| e.message)?;
        if rs.spec.min_ready_seconds > 0 {
            // The availability re-queue (`queue.AddAfter`): the simulation syncs every
            // ReplicaSet in every pass anyway, so it is only said, with its numbers.
            if let Some(updated) = self.api.replica_set(name) {
                let r = requeue::availability_requeue(
                    self.version,
                    updated,
                    next_check,
                    manage_err.is_some(),
                );
                self.rec.decide(
                    "syncReplicaSet",
                    || requeue::explain(&r),
                    &[("requeueAfterSeconds", r.after.unwrap_or(-1))],
                );
            }
        }
        match manage_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// `manageReplicas`: create or delete pods to match spec.replicas, at most
    /// `burstReplicas` at a time.
    /// `active` is the number of active pods; `deletions` the pods a scale-down deletes
    /// ([`pods_to_delete`], read before any write).
    fn manage_replicas(
        &mut self,
        active: usize,
        deletions: Option<PlannedDeletions>,
        rs: &Arc<ReplicaSet>,
    ) -> Result<(), String> {
        self.rec.enter("manageReplicas");
        let diff = active as i64 - i64::from(rs.spec.replicas);
        let now = self.api.now();
        let rs_name = rs.metadata.name.clone();
        self.report = ManageReport {
            diff: -diff,
            ..Default::default()
        };
        if diff < 0 {
            let want = (-diff) as usize;
            let count = want.min(BURST_REPLICAS);
            let mut events = Vec::new();
            let api = &mut *self.api;
            let run = slow_start_batch(count, SLOW_START_INITIAL_BATCH_SIZE, || {
                match api.create_pod_for(rs) {
                    Ok(pod) => {
                        events.push((
                            "Normal",
                            "SuccessfulCreate",
                            ["Created pod: ", &pod.metadata.name].concat(),
                            pod.metadata.name.clone(),
                        ));
                        Ok(())
                    }
                    Err(e) => {
                        let pod = pod_name_in(&e.message).unwrap_or_default();
                        events.push((
                            "Warning",
                            "FailedCreate",
                            format!("Error creating: {}", e.message),
                            pod,
                        ));
                        Err(e.message)
                    }
                }
            });
            self.rec.decide(
                "manageReplicas",
                || {
                    format!(
                        "{} too few pods: create {} in slow-start batches {:?}{}",
                        want,
                        count,
                        run.batch_sizes,
                        match &run.error {
                            Some(_) => format!(
                                "; a create failed, so stop after {} created",
                                run.successes
                            ),
                            None => String::new(),
                        }
                    )
                },
                &[
                    ("diff", want as i64),
                    ("successfulCreations", run.successes as i64),
                ],
            );
            record_pod_events(self.rec, &rs_name, events, now);
            let err = run.error.clone();
            // ExpectCreations(count), then CreationObserved for every skipped create.
            self.report.expectations = Some(Expectations {
                add: run.successes as i64,
                del: 0,
                set_at: now,
            });
            // ExpectCreations(count) before the creates, CreationObserved per skipped one.
            if let Some(e) = self.expectations.as_deref_mut() {
                e.expect_creations(&rs_name, run.successes as i64);
            }
            self.report.slow_start = Some(run);
            return match err {
                Some(e) => Err(e),
                None => Ok(()),
            };
        }
        if diff > 0 {
            let count = (diff as usize).min(BURST_REPLICAS);
            let planned = deletions.unwrap_or_default();
            let kept = planned.kept;
            self.report.deletions = planned.reasons;
            self.rec.decide(
                "manageReplicas",
                || {
                    format!(
                        "{} too many pods: delete {} chosen by getPodsToDelete{}",
                        diff,
                        count,
                        match self.report.deletions.first() {
                            Some(first) if kept => format!(
                                " (first {}: {})",
                                first.pod.name,
                                first.criterion.describe()
                            ),
                            _ => String::new(),
                        }
                    )
                },
                &[("diff", -diff)],
            );
            let mut events = Vec::new();
            let mut first_err = None;
            // ExpectDeletions with the pods' keys, before the deletes.
            if let Some(e) = self.expectations.as_deref_mut() {
                let keys: Vec<String> = self
                    .report
                    .deletions
                    .iter()
                    .map(|r| r.pod.name.clone())
                    .collect();
                e.expect_deletions(&rs_name, &keys);
            }
            for reason in &self.report.deletions {
                let name = &reason.pod.name;
                let result = self.api.delete_pod(name, self.graceful_delete);
                if result.is_err() {
                    // A failed delete will never be observed: DeletionObserved.
                    if let Some(e) = self.expectations.as_deref_mut() {
                        e.deletion_observed(&rs_name, name);
                    }
                }
                match result {
                    Ok(()) => events.push((
                        "Normal",
                        "SuccessfulDelete",
                        ["Deleted pod: ", name].concat(),
                        name.clone(),
                    )),
                    Err(e) if e.code == 404 => {}
                    Err(e) => {
                        events.push((
                            "Warning",
                            "FailedDelete",
                            format!("Error deleting: {}", e.message),
                            name.clone(),
                        ));
                        first_err.get_or_insert(e.message);
                    }
                }
            }
            let deleted = events.iter().filter(|e| e.1 == "SuccessfulDelete").count();
            self.report.expectations = Some(Expectations {
                add: 0,
                del: deleted as i64,
                set_at: now,
            });
            record_pod_events(self.rec, &rs_name, events, now);
            return match first_err {
                Some(e) => Err(e),
                None => Ok(()),
            };
        }
        Ok(())
    }
}

/// The active pods of `rs` (`controller.FilterActivePods` over the pods it owns), borrowed
/// from the API server.
fn active_pods<'p>(api: &'p ApiServer, rs: &'p ReplicaSet) -> Vec<&'p Pod> {
    // Sized by the API server's pod count, so 5,000 pods are collected without regrowing.
    let mut filtered: Vec<&Pod> = Vec::with_capacity(api.pod_count_of(rs));
    filtered.extend(api.pods_of_iter(rs).filter(|p| p.is_active()).map(|p| &**p));
    filtered
}

/// The pods a scale-down deletes, chosen before it deletes any: why each goes (in ranking
/// order) and whether some pod stays.
#[derive(Default)]
struct PlannedDeletions {
    reasons: Vec<DeletionReason>,
    kept: bool,
}

/// `getPodsToDelete` for deleting `count` of the active pods `filtered` of `rs` (`count` at
/// most `burstReplicas`), with the criterion that put each before the first pod kept.
fn pods_to_delete(
    api: &ApiServer,
    filtered: &[&Pod],
    rs: &ReplicaSet,
    count: usize,
    now: Time,
) -> PlannedDeletions {
    let ranks = node_ranks(api, filtered, rs);
    let ranking = PodRanking::new(filtered.iter().copied().zip(ranks.iter().copied()), now);
    let order = deletion_order(&ranking, filtered.len(), count);
    let ranked = |i: usize| RankedPod::of(filtered[i], ranks[i]);
    let kept = order.get(count).copied();
    let kept_pod = kept.map(ranked);
    let reasons = order[..count.min(order.len())]
        .iter()
        .map(|&i| DeletionReason {
            pod: ranked(i),
            kept: kept_pod.clone(),
            criterion: match kept {
                Some(k) => ranking.compare(i, k).1,
                None => Criterion::Tie,
            },
        })
        .collect();
    PlannedDeletions {
        reasons,
        kept: kept.is_some(),
    }
}

/// `getPodsRankedByRelatedPodsOnSameNode`: for each of `filtered` (a ReplicaSet's active
/// pods), the number of active pods of all ReplicaSets of the same Deployment on its node.
fn node_ranks(api: &ApiServer, filtered: &[&Pod], rs: &ReplicaSet) -> Vec<usize> {
    let owner_uid = rs.metadata.owner.as_ref().map(|o| o.uid);
    let related: Vec<&Arc<ReplicaSet>> = api
        .replica_sets()
        .filter(|other| {
            other.metadata.uid == rs.metadata.uid
                || (owner_uid.is_some()
                    && other.metadata.owner.as_ref().map(|o| &o.uid) == owner_uid.as_ref())
        })
        .collect();
    // The ReplicaSet's own active pods are `filtered`, already listed: they are counted from
    // there, each remembering its node's slot, and only the other ReplicaSets' pods are walked
    // (the old ReplicaSet of a 5,000-replica rollout is most of them). The counts are those
    // of `active_pods_per_node` over all the related pods.
    let own = usize::from(related.iter().any(|r| r.metadata.uid == rs.metadata.uid));
    let mut on_node = ranking::NodeCounts::default();
    let slots: Vec<usize> = filtered
        .iter()
        .map(|p| on_node.add(&p.node_name, own))
        .collect();
    for p in related
        .iter()
        .filter(|r| r.metadata.uid != rs.metadata.uid)
        .flat_map(|r| api.pods_of_iter(r))
        .filter(|p| p.is_active())
    {
        on_node.add(&p.node_name, 1);
    }
    slots.into_iter().map(|slot| on_node.at(slot)).collect()
}

/// `getPodsToDelete`'s order for deleting `count` of `len` pods ranked by `ranking`, as indices:
/// sorted only when some pods stay, as there; the first `count` go.
fn deletion_order(ranking: &PodRanking, len: usize, count: usize) -> Vec<usize> {
    if count < len {
        ranking.sorted()
    } else {
        (0..len).collect()
    }
}

/// The pods the ReplicaSet controller's next sync of `rs` deletes if nothing changes before
/// it: when the ReplicaSet has more active pods than spec.replicas, the first
/// `min(diff, burstReplicas)` of `getPodsToDelete`'s ranking now; none otherwise. For
/// example web-rev1 scaled from 3 to 2 with its pods all Available on one node: the one that
/// became ready most recently (a `readyTime` bucket, then the UID) goes.
pub fn pods_deleted_next(api: &ApiServer, rs: &ReplicaSet) -> Vec<String> {
    if rs.metadata.deletion_timestamp.is_some() {
        return Vec::new();
    }
    let filtered = active_pods(api, rs);
    let diff = filtered.len() as i64 - i64::from(rs.spec.replicas);
    if diff <= 0 {
        return Vec::new();
    }
    // The same choice the sync makes (`sync_replica_set` calls `pods_to_delete` too).
    let count = (diff as usize).min(BURST_REPLICAS);
    pods_to_delete(api, &filtered, rs, count, api.now())
        .reasons
        .into_iter()
        .map(|r| r.pod.name)
        .collect()
}

/// Pod events of one sync, sorted by (reason, message) as the conformance harness does.
fn record_pod_events(
    rec: &mut Recorder,
    rs: &str,
    mut events: Vec<(&'static str, &'static str, String, String)>,
    now: Time,
) {
    crate::order::sort_by(&mut events, |a, b| (a.1, &a.2).cmp(&(b.1, &b.2)));
    for (type_, reason, message, pod) in events {
        rec.pod_event(rs, type_, reason, message, pod, now);
    }
}

/// The pod name inside `pods "NAME" is forbidden: …`.
fn pod_name_in(message: &str) -> Option<String> {
    let rest = message.strip_prefix("pods \"")?;
    Some(rest[..rest.find('"')?].to_string())
}

#[cfg(test)]
mod tests {
    use crate::sim::{Simulation, StepKind};
    use crate::view::{cluster_view, PodState};
    use std::collections::BTreeSet;

    /// In every preset: the pods the view marks as deleted next are exactly the ones the next
    /// sync of their ReplicaSet deletes.
    #[test]
    fn the_pods_marked_deleted_next_are_the_ones_the_next_sync_deletes() {
        let mut checked = 0;
        for preset in crate::presets::presets() {
            let mut sim = Simulation::new(preset.scenario);
            for _ in 0..600 {
                if sim.finished() {
                    break;
                }
                let view = cluster_view(&sim);
                let Some(rec) = sim.step() else { break };
                let StepKind::SyncReplicaSet { name } = rec.kind.clone() else {
                    continue;
                };
                let Some(before) = view.replica_sets.iter().find(|rs| rs.name == name) else {
                    continue;
                };
                let marked: BTreeSet<&str> = before
                    .pods
                    .iter()
                    .filter(|p| p.next_deletion)
                    .map(|p| p.name.as_str())
                    .collect();
                let after = cluster_view(&sim);
                let gone: BTreeSet<&str> = before
                    .pods
                    .iter()
                    .filter(|p| p.state != PodState::Terminating)
                    .filter(|p| {
                        after
                            .replica_sets
                            .iter()
                            .flat_map(|rs| rs.pods.iter())
                            .find(|q| q.name == p.name)
                            .is_none_or(|q| q.state == PodState::Terminating)
                    })
                    .map(|p| p.name.as_str())
                    .collect();
                // Only the controller's own deletions: the ReplicaSet had too many pods.
                if before.desired
                    < before
                        .pods
                        .iter()
                        .filter(|p| p.state != PodState::Terminating)
                        .count() as i32
                {
                    assert!(
                        !marked.is_empty(),
                        "{}: {name} marks its victims",
                        preset.id
                    );
                    assert_eq!(
                        marked,
                        gone,
                        "{}: {name} at step {}",
                        preset.id,
                        sim.steps_taken()
                    );
                    checked += 1;
                } else {
                    assert!(
                        marked.is_empty(),
                        "{}: nothing to delete in {name}",
                        preset.id
                    );
                }
            }
        }
        assert!(checked >= 3, "scale-downs checked: {checked}");
    }
}
