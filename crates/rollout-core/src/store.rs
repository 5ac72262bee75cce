//! The simulated API server: the one place that owns every object and every mutation.
//!
//! It follows the rules of `../shared/conformance/README.md` ("API server rules"): create sets
//! `creationTimestamp = now`, `generation = 1` and an empty status; an update keeps the stored
//! status and bumps `generation` when the spec (for Deployments also the annotations) changes; a
//! status update keeps the stored spec; deleting a pod with graceful termination only sets its
//! `deletionTimestamp`; a pod quota refuses creates like a ResourceQuota.
//!
//! Objects are kept in persistent maps of shared pointers, so cloning the whole store (a
//! snapshot for stepping back) costs O(1) and a write copies only the path it touches.

use crate::api::{
    go_quote, ConditionStatus, Deployment, ObjectMeta, OwnerReference, Pod, PodCondition,
    PodConditionType, PodPhase, ReplicaSet, StringMap, Time, Uid, POD_DELETION_COST_ANNOTATION,
};
use imbl::OrdMap;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The namespace of every object.
pub const NAMESPACE: &str = "default";

/// An error the API server returns (`apierrors.StatusError`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    /// HTTP status code: 403 Forbidden, 404 NotFound, 409 AlreadyExists, 422 Invalid.
    pub code: u16,
    /// `err.Error()`.
    pub message: String,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl ApiError {
    /// The 409 Conflict of an update whose object carries a `resourceVersion` other than the
    /// stored one (`resource` is `deployments.apps` or `replicasets.apps`).
    pub fn conflict(resource: &str, name: &str) -> ApiError {
        ApiError {
            code: 409,
            message: format!(
                "Operation cannot be fulfilled on {resource} {}: the object has been modified; please apply your changes to the latest version and try again",
                go_quote(name)
            ),
        }
    }

    /// Whether this is a Conflict (`apierrors.IsConflict`), not an AlreadyExists.
    pub fn is_conflict(&self) -> bool {
        self.code == 409 && self.message.starts_with("Operation cannot be fulfilled")
    }

    /// Whether this is an AlreadyExists (`apierrors.IsAlreadyExists`).
    pub fn is_already_exists(&self) -> bool {
        self.code == 409 && self.message.ends_with("already exists")
    }

    fn not_found(resource: &str, name: &str) -> ApiError {
        ApiError {
            code: 404,
            message: format!("{resource} {} not found", go_quote(name)),
        }
    }
}

/// `ResourceQuota pods-quota` with `hard: pods=Q` in namespace `default`.
pub const QUOTA_NAME: &str = "pods-quota";

/// The simulated API server's state.
#[derive(Clone, Debug, Default)]
pub struct ApiServer {
    now: Time,
    next_uid: u64,
    next_resource_version: u64,
    deployments: OrdMap<String, Arc<Deployment>>,
    replica_sets: OrdMap<String, Arc<ReplicaSet>>,
    pods: OrdMap<String, Arc<Pod>>,
    /// Per-ReplicaSet pod serials handed out so far (refused creates count too).
    pod_serials: OrdMap<String, u32>,
    pod_quota: Option<i32>,
    /// Pods (active and terminating) per controlling ReplicaSet uid.
    pod_counts: OrdMap<Uid, usize>,
    /// Writes so far that changed an object's content (see [`ApiServer::content_version`]).
    content_version: u64,
    /// Whether an update made from a stale copy is refused (409 Conflict); off in the rounds
    /// of the conformance harness, on in race schedules (see [`ApiServer::set_conflict_checks`]).
    conflict_checks: bool,
}

impl ApiServer {
    /// An empty cluster at time 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// The simulated clock (`metav1.Now()` for everyone).
    pub fn now(&self) -> Time {
        self.now
    }

    /// Sets the clock; only the simulation's round loop moves it.
    pub fn set_now(&mut self, now: Time) {
        self.now = now;
    }

    /// How many writes so far changed the content of a Deployment, ReplicaSet or Pod: a
    /// create, a delete, or an update whose stored object differs from the one it replaces
    /// (an update that stores an identical object is a no-op, as in the real API server, and
    /// events and errors are not objects). Settled rounds repeat their pass while this moves.
    pub fn content_version(&self) -> u64 {
        self.content_version
    }

    fn changed(&mut self) {
        self.content_version += 1;
    }

    /// Turns optimistic concurrency on or off: when on, an update (`Update` or `UpdateStatus`
    /// of a Deployment or ReplicaSet) whose object carries a `resourceVersion` other than the
    /// stored one is refused with [`ApiError::conflict`], as a real API server does. The
    /// conformance rounds leave it off (every controller reads the truth there); race
    /// schedules turn it on unless their counterfactual `conflicts: false` asks for last
    /// write wins.
    pub fn set_conflict_checks(&mut self, on: bool) {
        self.conflict_checks = on;
    }

    /// The stored object an update (`Update` or `UpdateStatus`) of `meta.name` replaces: 404
    /// when there is none; 409 when conflict checks are on and the update was made from a
    /// copy read at another `resourceVersion` (e.g. a cache that holds `resourceVersion` 7 of
    /// a Deployment the API server has since written as 9).
    fn stored_for_update<'s, T>(
        &self,
        objects: &'s OrdMap<String, Arc<T>>,
        resource: &str,
        meta: &ObjectMeta,
        meta_of: impl Fn(&T) -> &ObjectMeta,
    ) -> Result<&'s Arc<T>, ApiError> {
        let old = objects
            .get(&meta.name)
            .ok_or_else(|| ApiError::not_found(resource, &meta.name))?;
        if self.conflict_checks && meta.resource_version != meta_of(old).resource_version {
            return Err(ApiError::conflict(resource, &meta.name));
        }
        Ok(old)
    }

    /// Feeds every stored object (Deployments, ReplicaSets, pods, with their
    /// resourceVersions) to `h`: what an informer cache holds, for a search that recognises a
    /// state it has seen.
    pub fn hash_objects<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        for d in self.deployments.values() {
            d.hash(h);
        }
        for rs in self.replica_sets.values() {
            rs.hash(h);
        }
        for p in self.pods.values() {
            p.hash(h);
        }
    }

    /// [`ApiServer::hash_objects`] with the clock, the pod serials handed out and the quota:
    /// everything that decides what happens next. The uid and resourceVersion counters are
    /// left out: they only ever hand out values newer than every stored one.
    pub fn hash_state<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        self.now.hash(h);
        self.pod_quota.hash(h);
        self.pod_serials.hash(h);
        self.hash_objects(h);
    }

    /// The newest resourceVersion handed out: what an informer cache that is a copy of this
    /// API server has seen (`LastStoreSyncResourceVersion`).
    pub fn last_resource_version(&self) -> u64 {
        self.next_resource_version
    }

    /// The pod quota (`None` = unlimited).
    pub fn pod_quota(&self) -> Option<i32> {
        self.pod_quota
    }

    /// Replaces the pod quota (`setPodQuota`).
    pub fn set_pod_quota(&mut self, quota: Option<i32>) {
        self.pod_quota = quota;
    }

    fn new_uid(&mut self) -> Uid {
        // One counter for every kind: pod uids sort in creation order, as the conformance
        // harness's do.
        self.next_uid += 1;
        Uid(self.next_uid)
    }

    fn next_rv(&mut self) -> u64 {
        self.next_resource_version += 1;
        self.next_resource_version
    }

    fn stamp_new(&mut self, meta: &mut ObjectMeta) {
        meta.namespace = NAMESPACE.to_string();
        meta.uid = self.new_uid();
        meta.generation = 1;
        meta.creation_timestamp = self.now;
        meta.deletion_timestamp = None;
        meta.resource_version = self.next_rv();
    }

    // ----- Deployments -------------------------------------------------------------------

    /// All Deployments, sorted by name.
    pub fn deployments(&self) -> impl Iterator<Item = &Arc<Deployment>> {
        self.deployments.values()
    }

    /// One Deployment.
    pub fn deployment(&self, name: &str) -> Option<&Arc<Deployment>> {
        self.deployments.get(name)
    }

    /// Stores a new, already validated and defaulted Deployment.
    pub fn create_deployment(&mut self, mut d: Deployment) -> Result<Arc<Deployment>, ApiError> {
        if self.deployments.contains_key(&d.metadata.name) {
            return Err(ApiError {
                code: 409,
                message: format!(
                    "deployments.apps {} already exists",
                    go_quote(&d.metadata.name)
                ),
            });
        }
        self.stamp_new(&mut d.metadata);
        self.changed();
        d.status = Default::default();
        let d = Arc::new(d);
        self.deployments
            .insert(d.metadata.name.clone(), Arc::clone(&d));
        Ok(d)
    }

    /// `Update`: takes metadata and spec, keeps the stored status, bumps the generation when
    /// the spec or the annotations change.
    pub fn update_deployment(&mut self, d: &Deployment) -> Result<Arc<Deployment>, ApiError> {
        let old =
            self.stored_for_update(&self.deployments, "deployments.apps", &d.metadata, |o| {
                &o.metadata
            })?;
        let mut new = d.clone();
        new.status = old.status.clone();
        new.metadata.uid = old.metadata.uid;
        new.metadata.creation_timestamp = old.metadata.creation_timestamp;
        new.metadata.generation = old.metadata.generation;
        if new.spec != old.spec || new.metadata.annotations != old.metadata.annotations {
            new.metadata.generation += 1;
        }
        Ok(self.store_deployment(new))
    }

    /// `UpdateStatus`: takes the status and the annotations, keeps the stored spec and labels.
    pub fn update_deployment_status(
        &mut self,
        d: &Deployment,
    ) -> Result<Arc<Deployment>, ApiError> {
        let old =
            self.stored_for_update(&self.deployments, "deployments.apps", &d.metadata, |o| {
                &o.metadata
            })?;
        let mut new = (**old).clone();
        new.status = d.status.clone();
        new.metadata.annotations = d.metadata.annotations.clone();
        Ok(self.store_deployment(new))
    }

    /// Stores an updated Deployment unless it equals the stored one (then the stored one is
    /// returned and nothing changes, not even the resourceVersion).
    fn store_deployment(&mut self, mut new: Deployment) -> Arc<Deployment> {
        if let Some(old) = self.deployments.get(&new.metadata.name) {
            new.metadata.resource_version = old.metadata.resource_version;
            if new == **old {
                return Arc::clone(old);
            }
        }
        new.metadata.resource_version = self.next_rv();
        self.changed();
        let new = Arc::new(new);
        self.deployments
            .insert(new.metadata.name.clone(), Arc::clone(&new));
        new
    }

    // ----- ReplicaSets -------------------------------------------------------------------

    /// All ReplicaSets, by name.
    pub fn replica_sets(&self) -> impl Iterator<Item = &Arc<ReplicaSet>> {
        self.replica_sets.values()
    }

    /// One ReplicaSet.
    pub fn replica_set(&self, name: &str) -> Option<&Arc<ReplicaSet>> {
        self.replica_sets.get(name)
    }

    /// The ReplicaSets a Deployment controls (`getReplicaSetsForDeployment`).
    pub fn replica_sets_of(&self, d: &Deployment) -> Vec<Arc<ReplicaSet>> {
        self.replica_sets
            .values()
            .filter(|rs| {
                rs.metadata
                    .owner
                    .as_ref()
                    .is_some_and(|o| o.uid == d.metadata.uid)
            })
            .cloned()
            .collect()
    }

    /// `Create` of a ReplicaSet.
    pub fn create_replica_set(&mut self, mut rs: ReplicaSet) -> Result<Arc<ReplicaSet>, ApiError> {
        if self.replica_sets.contains_key(&rs.metadata.name) {
            return Err(ApiError {
                code: 409,
                message: format!(
                    "replicasets.apps {} already exists",
                    go_quote(&rs.metadata.name)
                ),
            });
        }
        self.stamp_new(&mut rs.metadata);
        self.changed();
        rs.status = Default::default();
        let rs = Arc::new(rs);
        self.replica_sets
            .insert(rs.metadata.name.clone(), Arc::clone(&rs));
        Ok(rs)
    }

    /// `Update` of a ReplicaSet: keeps the stored status, bumps the generation on spec change.
    pub fn update_replica_set(&mut self, rs: &ReplicaSet) -> Result<Arc<ReplicaSet>, ApiError> {
        let old =
            self.stored_for_update(&self.replica_sets, "replicasets.apps", &rs.metadata, |o| {
                &o.metadata
            })?;
        let mut new = rs.clone();
        new.status = old.status.clone();
        new.metadata.uid = old.metadata.uid;
        new.metadata.creation_timestamp = old.metadata.creation_timestamp;
        new.metadata.generation = old.metadata.generation;
        if new.spec != old.spec {
            new.metadata.generation += 1;
        }
        Ok(self.store_replica_set(new))
    }

    /// `UpdateStatus` of a ReplicaSet: keeps the stored spec and metadata.
    pub fn update_replica_set_status(
        &mut self,
        rs: &ReplicaSet,
    ) -> Result<Arc<ReplicaSet>, ApiError> {
        let old =
            self.stored_for_update(&self.replica_sets, "replicasets.apps", &rs.metadata, |o| {
                &o.metadata
            })?;
        let mut new = (**old).clone();
        new.status = rs.status.clone();
        Ok(self.store_replica_set(new))
    }

    /// Stores an updated ReplicaSet unless it equals the stored one.
    fn store_replica_set(&mut self, mut new: ReplicaSet) -> Arc<ReplicaSet> {
        if let Some(old) = self.replica_sets.get(&new.metadata.name) {
            new.metadata.resource_version = old.metadata.resource_version;
            if new == **old {
                return Arc::clone(old);
            }
        }
        new.metadata.resource_version = self.next_rv();
        self.changed();
        let new = Arc::new(new);
        self.replica_sets
            .insert(new.metadata.name.clone(), Arc::clone(&new));
        new
    }

    /// `Delete` of a ReplicaSet (there is no garbage collector: its pods stay).
    pub fn delete_replica_set(&mut self, name: &str) -> Result<(), ApiError> {
        self.replica_sets
            .remove(name)
            .ok_or_else(|| ApiError::not_found("replicasets.apps", name))?;
        self.changed();
        Ok(())
    }

    // ----- Pods --------------------------------------------------------------------------

    /// All pods, by name.
    pub fn pods(&self) -> impl Iterator<Item = &Arc<Pod>> {
        self.pods.values()
    }

    /// How many pods there are (active and terminating), without listing them.
    pub fn pod_count(&self) -> usize {
        self.pods.len()
    }

    /// One pod.
    pub fn pod(&self, name: &str) -> Option<&Arc<Pod>> {
        self.pods.get(name)
    }

    /// Pods whose controller is the given ReplicaSet (by uid), in name order.
    pub fn pods_of(&self, rs: &ReplicaSet) -> Vec<Arc<Pod>> {
        self.pods_of_iter(rs).cloned().collect()
    }

    /// How many pods (active and terminating) the ReplicaSet controls: the length of
    /// [`ApiServer::pods_of`], kept as pods come and go, so it costs no listing.
    pub fn pod_count_of(&self, rs: &ReplicaSet) -> usize {
        self.pod_counts.get(&rs.metadata.uid).copied().unwrap_or(0)
    }

    fn count_pod(&mut self, pod: &Pod, added: bool) {
        if let Some(owner) = &pod.metadata.owner {
            // A lookup, and an insert only for a ReplicaSet's first pod (`entry` costs more
            // per call, 15,000 calls in the 5,000-replica rollout).
            match self.pod_counts.get_mut(&owner.uid) {
                Some(n) => *n = if added { *n + 1 } else { n.saturating_sub(1) },
                None => {
                    self.pod_counts.insert(owner.uid, usize::from(added));
                }
            }
        }
    }

    /// [`ApiServer::pods_of`] without collecting.
    pub fn pods_of_iter<'a>(&'a self, rs: &'a ReplicaSet) -> impl Iterator<Item = &'a Arc<Pod>> {
        // A ReplicaSet's pods are named `<rs>-NNNNN`, so they sit together in the name order;
        // the owner check keeps out another ReplicaSet whose name extends this one's.
        // ("-" and "." are neighbours in ASCII.) Concatenated: one call per sync.
        let from = [rs.metadata.name.as_str(), "-"].concat();
        let to = [rs.metadata.name.as_str(), "."].concat();
        self.pods.range(from..to).map(|(_, p)| p).filter(move |p| {
            p.metadata
                .owner
                .as_ref()
                .is_some_and(|o| o.uid == rs.metadata.uid)
        })
    }

    /// `podControl.CreatePods` as the API server sees it: the pod gets its name first (a
    /// refused create still uses up a serial), then the quota is checked.
    pub fn create_pod_for(&mut self, rs: &ReplicaSet) -> Result<Arc<Pod>, ApiError> {
        let serial = match self.pod_serials.get_mut(&rs.metadata.name) {
            Some(s) => {
                *s += 1;
                *s
            }
            None => {
                self.pod_serials.insert(rs.metadata.name.clone(), 1);
                1
            }
        };
        let name = pod_name(&rs.metadata.name, serial);
        if let Some(quota) = self.pod_quota {
            let used = self
                .pods
                .values()
                .filter(|p| p.metadata.deletion_timestamp.is_none())
                .count() as i64;
            if used >= i64::from(quota) {
                return Err(ApiError {
                    code: 403,
                    message: format!(
                        "pods {} is forbidden: exceeded quota: {QUOTA_NAME}, requested: pods=1, used: pods={used}, limited: pods={quota}",
                        go_quote(&name)
                    ),
                });
            }
        }
        let labels: StringMap = rs.spec.template.labels.clone();
        let mut meta = ObjectMeta {
            name: name.clone(),
            labels,
            owner: Some(OwnerReference {
                kind: "ReplicaSet".to_string(),
                name: rs.metadata.name.clone(),
                uid: rs.metadata.uid,
            }),
            ..Default::default()
        };
        self.stamp_new(&mut meta);
        self.changed();
        let started_at = meta.creation_timestamp;
        let pod = Arc::new(Pod {
            metadata: meta,
            image: rs.spec.template.image.clone(),
            node_name: String::new(),
            phase: PodPhase::Pending,
            conditions: Vec::new(),
            restart_count: 0,
            serial,
            container: None,
            started_at,
        });
        self.pods.insert(name, Arc::clone(&pod));
        self.count_pod(&pod, true);
        Ok(pod)
    }

    /// `Delete` of a pod: graceful (sets `deletionTimestamp`) or immediate.
    pub fn delete_pod(&mut self, name: &str, graceful: bool) -> Result<(), ApiError> {
        let Some(pod) = self.pods.get(name) else {
            return Err(ApiError::not_found("pods", name));
        };
        if graceful {
            if pod.metadata.deletion_timestamp.is_none() {
                let mut p = (**pod).clone();
                p.metadata.deletion_timestamp = Some(self.now);
                p.metadata.resource_version = self.next_rv();
                self.pods.insert(name.to_string(), Arc::new(p));
                self.changed();
            }
        } else if let Some(pod) = self.pods.remove(name) {
            self.count_pod(&pod, false);
            self.changed();
        }
        Ok(())
    }

    /// Changes a pod in place; `change` says whether it changed anything, and only then is
    /// the write a write (a new resourceVersion, [`ApiServer::content_version`] moved). The
    /// pod is copied only when a snapshot still holds it (copy-on-write: `Arc::make_mut`), and
    /// the map only along the path to it. `NotFound` when there is no such pod.
    fn write_pod(
        &mut self,
        name: &str,
        change: impl FnOnce(&mut Pod) -> bool,
    ) -> Result<(), ApiError> {
        let rv = self.next_resource_version + 1;
        let Some(slot) = self.pods.get_mut(name) else {
            return Err(ApiError::not_found("pods", name));
        };
        let pod = Arc::make_mut(slot);
        if change(pod) {
            pod.metadata.resource_version = rv;
            self.next_resource_version = rv;
            self.changed();
        }
        Ok(())
    }

    /// The scheduler's binding: `spec.nodeName = node`, phase Pending, PodScheduled=True.
    pub fn schedule_pod(&mut self, name: &str, node: &str) -> Result<(), ApiError> {
        let now = self.now;
        self.write_pod(name, |p| {
            let mut changed = p.node_name != node || p.phase != PodPhase::Pending;
            if p.node_name != node {
                p.node_name = node.to_string();
            }
            p.phase = PodPhase::Pending;
            changed |= set_pod_condition(
                p,
                PodConditionType::PodScheduled,
                ConditionStatus::True,
                now,
            );
            changed
        })
    }

    /// The scheduler's failed attempt (`handleSchedulingFailure` → `updatePod`): the pod stays
    /// Pending and unbound with PodScheduled=False, reason `Unschedulable`, the scheduler's
    /// message; `lastTransitionTime` moves only when the status does. A repeated attempt with
    /// the same message writes nothing.
    pub fn mark_pod_unschedulable(&mut self, name: &str, message: &str) -> Result<(), ApiError> {
        let now = self.now;
        self.write_pod(name, |p| {
            let existing = p
                .conditions
                .iter_mut()
                .find(|c| c.type_ == PodConditionType::PodScheduled);
            match existing {
                Some(c) if c.status == ConditionStatus::False && c.message == message => false,
                Some(c) => {
                    if c.status != ConditionStatus::False {
                        c.status = ConditionStatus::False;
                        c.last_transition_time = now;
                    }
                    c.reason = "Unschedulable".to_string();
                    c.message = message.to_string();
                    true
                }
                None => {
                    p.conditions.push(PodCondition {
                        type_: PodConditionType::PodScheduled,
                        status: ConditionStatus::False,
                        last_transition_time: now,
                        reason: "Unschedulable".to_string(),
                        message: message.to_string(),
                    });
                    true
                }
            }
        })
    }

    /// The scheduler's binding under the kubelet's probe model (`kubelet::probes`): as
    /// [`ApiServer::schedule_pod`], and the containers run from `running` (once the image is on
    /// the node), from which the probes count.
    pub fn schedule_pod_running_from(
        &mut self,
        name: &str,
        node: &str,
        running: Time,
    ) -> Result<(), ApiError> {
        self.schedule_pod(name, node)?;
        self.write_pod(name, |p| {
            let changed = p.started_at != running;
            p.started_at = running;
            changed
        })
    }

    /// The kubelet's status update when the container has started and passes its readiness
    /// probe: phase Running; PodScheduled, Initialized, ContainersReady and Ready True, their
    /// `lastTransitionTime` now.
    pub fn mark_pod_ready(&mut self, name: &str) -> Result<(), ApiError> {
        let now = self.now;
        self.write_pod(name, |p| {
            let mut changed = p.phase != PodPhase::Running;
            p.phase = PodPhase::Running;
            for c in [
                PodConditionType::PodScheduled,
                PodConditionType::Initialized,
                PodConditionType::ContainersReady,
                PodConditionType::Ready,
            ] {
                changed |= set_pod_condition(p, c, ConditionStatus::True, now);
            }
            changed
        })
    }

    /// The kubelet's status update after the container restarted: `restartCount` + 1, the
    /// start counted from now, ContainersReady and Ready False until it is ready again.
    pub fn restart_pod(&mut self, name: &str) -> Result<(), ApiError> {
        let now = self.now;
        self.write_pod(name, |p| {
            p.restart_count += 1;
            p.started_at = now;
            for c in [PodConditionType::ContainersReady, PodConditionType::Ready] {
                set_pod_condition(p, c, ConditionStatus::False, now);
            }
            true
        })
    }

    /// The kubelet's status update for a pod whose app fails (`kubelet::restarts`): the
    /// container's status as [`crate::kubelet::container_life`] works it out at `now`;
    /// `restartCount` and the start readiness counts from follow it, the phase is Running once
    /// a container has run (Pending before), and Ready and ContainersReady are True while the
    /// container is ready (their `lastTransitionTime` now) and False after it was.
    pub fn sync_container_status(
        &mut self,
        name: &str,
        status: crate::api::ContainerStatus,
    ) -> Result<(), ApiError> {
        use crate::api::ContainerState;
        let now = self.now;
        self.write_pod(name, |p| {
            let mut changed = false;
            let ran =
                status.restart_count > 0 || !matches!(status.state, ContainerState::Waiting { .. });
            let phase = if ran {
                PodPhase::Running
            } else {
                PodPhase::Pending
            };
            changed |= p.phase != phase;
            p.phase = phase;
            changed |= p.restart_count != status.restart_count;
            p.restart_count = status.restart_count;
            if let ContainerState::Running { started_at } = status.state {
                changed |= p.started_at != started_at;
                p.started_at = started_at;
            }
            if status.ready {
                for c in [
                    PodConditionType::PodScheduled,
                    PodConditionType::Initialized,
                    PodConditionType::ContainersReady,
                    PodConditionType::Ready,
                ] {
                    changed |= set_pod_condition(p, c, ConditionStatus::True, now);
                }
            } else if p
                .conditions
                .iter()
                .any(|c| c.type_ == PodConditionType::Ready)
            {
                for c in [PodConditionType::ContainersReady, PodConditionType::Ready] {
                    changed |= set_pod_condition(p, c, ConditionStatus::False, now);
                }
            }
            if p.container.as_deref() != Some(&status) {
                p.container = Some(Arc::new(status));
                changed = true;
            }
            changed
        })
    }

    /// `kubectl annotate pod NAME controller.kubernetes.io/pod-deletion-cost=V` (or its
    /// removal with `None`).
    pub fn set_pod_deletion_cost(&mut self, name: &str, cost: Option<i32>) -> Result<(), ApiError> {
        self.write_pod(name, |p| match cost {
            Some(v) => {
                let v = v.to_string();
                let old = p
                    .metadata
                    .annotations
                    .insert(POD_DELETION_COST_ANNOTATION.to_string(), v.clone());
                old.as_ref() != Some(&v)
            }
            None => p
                .metadata
                .annotations
                .remove(POD_DELETION_COST_ANNOTATION)
                .is_some(),
        })
    }

    /// Removes a pod whose graceful termination is over.
    pub fn remove_pod(&mut self, name: &str) {
        if let Some(pod) = self.pods.remove(name) {
            self.count_pod(&pod, false);
            self.changed();
        }
    }
}

/// `<rs>-NNNNN`: the ReplicaSet's name and the serial zero-padded to five digits
/// (`web-rev1-00003`), as `format!("{rs}-{serial:05}")` writes it, without the formatting
/// machinery (one per pod created).
fn pod_name(rs: &str, serial: u32) -> String {
    let mut digits = [b'0'; 10];
    let (mut n, mut start) = (serial, digits.len());
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let start = start.min(digits.len() - 5);
    let mut name = String::with_capacity(rs.len() + 1 + digits.len() - start);
    name.push_str(rs);
    name.push('-');
    name.extend(digits[start..].iter().map(|&d| char::from(d)));
    name
}

/// Sets a pod condition's status, its transition time `now` (added when missing); whether
/// that changed the condition.
fn set_pod_condition(
    pod: &mut Pod,
    type_: PodConditionType,
    status: ConditionStatus,
    now: Time,
) -> bool {
    let c = PodCondition {
        type_,
        status,
        last_transition_time: now,
        reason: String::new(),
        message: String::new(),
    };
    match pod.conditions.iter_mut().find(|c| c.type_ == type_) {
        Some(existing) if *existing == c => false,
        Some(existing) => {
            *existing = c;
            true
        }
        None => {
            pod.conditions.push(c);
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::DeploymentInput;

    fn web() -> Deployment {
        DeploymentInput {
            name: "web".into(),
            replicas: Some(3),
            image: "nginx:1.14".into(),
            ..Default::default()
        }
        .to_deployment()
    }

    #[test]
    fn pod_names_pad_the_serial_to_five_digits() {
        for serial in [0, 1, 42, 99_999, 100_000, 1_234_567, u32::MAX] {
            assert_eq!(
                pod_name("web-rev1", serial),
                format!("web-rev1-{serial:05}")
            );
        }
    }

    #[test]
    fn content_version_moves_only_when_content_changes() {
        let mut api = ApiServer::new();
        assert_eq!(api.content_version(), 0);
        let d = api.create_deployment(web()).unwrap();
        assert_eq!(api.content_version(), 1);
        let rv = d.metadata.resource_version;

        // Storing the identical object is a no-op: no new resourceVersion, no content change.
        let same = api.update_deployment(&d).unwrap();
        let same_status = api.update_deployment_status(&d).unwrap();
        assert_eq!(api.content_version(), 1);
        assert_eq!(same.metadata.resource_version, rv);
        assert_eq!(same_status.metadata.resource_version, rv);

        // A status change is a content change.
        let mut changed = (*d).clone();
        changed.status.replicas = 3;
        let stored = api.update_deployment_status(&changed).unwrap();
        assert_eq!(api.content_version(), 2);
        assert!(stored.metadata.resource_version > rv);

        // A spec change too (and it bumps the generation).
        let mut scaled = (*stored).clone();
        scaled.spec.replicas = 5;
        let stored = api.update_deployment(&scaled).unwrap();
        assert_eq!(api.content_version(), 3);
        assert_eq!(stored.metadata.generation, 2);

        // A refused write changes nothing.
        let mut ghost = web();
        ghost.metadata.name = "ghost".into();
        assert!(api.update_deployment(&ghost).is_err());
        assert_eq!(api.content_version(), 3);
    }

    #[test]
    fn with_conflict_checks_a_stale_update_is_refused_in_the_api_servers_words() {
        let mut api = ApiServer::new();
        let read = api.create_deployment(web()).unwrap();
        let mut first = (*read).clone();
        first.status.replicas = 3;
        api.update_deployment_status(&first).unwrap();
        // Off (the conformance rounds): the copy read before the first write still writes.
        let mut stale = (*read).clone();
        stale.status.replicas = 2;
        assert!(api.update_deployment_status(&stale).is_ok());
        api.set_conflict_checks(true);
        let stored = api.deployment("web").unwrap().clone();
        let version = api.content_version();
        let err = api.update_deployment(&stale).unwrap_err();
        assert!(err.is_conflict() && !err.is_already_exists());
        assert_eq!(
            err.message,
            r#"Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again"#
        );
        assert_eq!(api.content_version(), version, "nothing written");
        assert_eq!(**api.deployment("web").unwrap(), *stored);
        // The copy with the stored resourceVersion writes.
        let mut fresh = (*stored).clone();
        fresh.status.replicas = 1;
        assert!(api.update_deployment_status(&fresh).is_ok());
        let again = api.create_deployment(web()).unwrap_err();
        assert!(again.is_already_exists() && !again.is_conflict());
    }

    fn rs() -> ReplicaSet {
        ReplicaSet {
            metadata: ObjectMeta {
                name: "web-rev1".into(),
                ..Default::default()
            },
            spec: crate::api::ReplicaSetSpec {
                replicas: 1,
                min_ready_seconds: 0,
                selector: StringMap::default(),
                template: crate::api::PodTemplate {
                    labels: StringMap::default(),
                    image: "nginx:1.14".into(),
                },
            },
            status: Default::default(),
        }
    }

    #[test]
    fn named_pod_operations_apply_the_api_rules() {
        let mut api = ApiServer::new();
        let rs = api.create_replica_set(rs()).unwrap();
        let pod = api.create_pod_for(&rs).unwrap();
        let name = pod.metadata.name.clone();
        let v = api.content_version();
        let second = api.create_pod_for(&rs).unwrap().metadata.name.clone();
        api.delete_pod(&second, true).unwrap();
        assert_eq!(api.pod_count_of(&rs), 2, "a terminating pod still counts");
        api.delete_pod(&second, false).unwrap();
        assert_eq!(api.pod_count_of(&rs), api.pods_of(&rs).len());
        let v = v + 3;

        api.set_now(10);
        api.schedule_pod(&name, "node-1").unwrap();
        api.mark_pod_ready(&name).unwrap();
        let p = api.pod(&name).unwrap().clone();
        assert_eq!(p.node_name, "node-1");
        assert!(p.is_ready());
        assert_eq!(api.content_version(), v + 2);

        // Marking a ready pod ready again at the same time stores nothing.
        let rv = p.metadata.resource_version;
        api.mark_pod_ready(&name).unwrap();
        api.set_pod_deletion_cost(&name, None).unwrap();
        assert_eq!(api.content_version(), v + 2);
        assert_eq!(api.pod(&name).unwrap().metadata.resource_version, rv);

        api.set_now(20);
        api.restart_pod(&name).unwrap();
        let p = api.pod(&name).unwrap().clone();
        assert_eq!(
            (p.restart_count, p.started_at, p.is_ready()),
            (1, 20, false)
        );
        api.set_pod_deletion_cost(&name, Some(-5)).unwrap();
        assert_eq!(
            api.pod(&name).unwrap().metadata.annotations[POD_DELETION_COST_ANNOTATION],
            "-5"
        );
        assert_eq!(api.content_version(), v + 4);

        let missing = api.restart_pod("nope").unwrap_err();
        assert_eq!(
            (missing.code, missing.message.as_str()),
            (404, "pods \"nope\" not found")
        );
        assert_eq!(api.content_version(), v + 4);
        api.remove_pod(&name);
        api.remove_pod(&name);
        assert_eq!(api.content_version(), v + 5);
        assert_eq!(api.pod_count_of(&rs), 0);
    }
}
