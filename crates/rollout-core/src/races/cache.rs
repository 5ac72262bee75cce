//! The informer caches of each controller, and the ReplicaSet controller's pod event
//! handlers (`addPod`, `updatePod`, `deletePod` of `pkg/controller/replicaset/replica_set.go`).
//!
//! A cache is a copy of the API server's objects as they were at its last delivery (an
//! `ApiServer` clone: O(1), the objects are shared). The Deployment controller's caches hold
//! Deployments, ReplicaSets and pods; the ReplicaSet controller's hold ReplicaSets and pods (it
//! reads no Deployment, so a copy that also has them changes nothing it does).
//!
//! For example after `sync-rs` created `web-rev2-00001`, `deliver-rs` shows the pod to the
//! ReplicaSet controller: `addPod` finds its owner `web-rev2` in the fresh cache and calls
//! `CreationObserved`, so `{add: 1}` becomes `{add: 0}` and the next sync may act again.

use super::expectations::ControllerExpectations;
use super::search::Fingerprint;
use crate::api::{Pod, ReplicaSet};
use crate::store::ApiServer;
use std::hash::Hash;
use std::sync::Arc;

/// One controller's informer caches: the API server's objects as of its last delivery.
#[derive(Clone, Debug)]
pub struct InformerCache {
    objects: ApiServer,
    /// The objects' fingerprint, taken at delivery (a search compares states by it).
    fingerprint: u128,
    /// Whether it caches Deployments (the Deployment controller's) or not.
    deployments: bool,
}

impl InformerCache {
    /// The Deployment controller's caches (Deployments, ReplicaSets, pods) as `truth` holds
    /// them now.
    pub fn of(truth: &ApiServer) -> Self {
        let mut h = Fingerprint::default();
        truth.hash_objects(&mut h);
        InformerCache {
            objects: truth.clone(),
            fingerprint: h.finish128(),
            deployments: true,
        }
    }

    /// The ReplicaSet controller's caches (ReplicaSets and pods) as `truth` holds them now.
    /// The copy has the Deployments too, but the controller never reads them and they are
    /// not part of its fingerprint.
    pub fn of_replica_sets_and_pods(truth: &ApiServer) -> Self {
        let mut h = Fingerprint::default();
        for rs in truth.replica_sets() {
            rs.hash(&mut h);
        }
        for p in truth.pods() {
            p.hash(&mut h);
        }
        InformerCache {
            objects: truth.clone(),
            fingerprint: h.finish128(),
            deployments: false,
        }
    }

    /// Feeds the cache's fingerprint to `h`.
    pub(crate) fn hash_into<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u128(self.fingerprint);
    }

    /// What the listers return (`dLister`, `rsLister`, `podLister`).
    pub fn listers(&self) -> &ApiServer {
        &self.objects
    }

    /// The cache catches up with the API server; the cache it was until now is returned
    /// (the handlers compare the two).
    pub fn deliver(&mut self, truth: &ApiServer) -> InformerCache {
        let fresh = if self.deployments {
            InformerCache::of(truth)
        } else {
            InformerCache::of_replica_sets_and_pods(truth)
        };
        std::mem::replace(self, fresh)
    }
}

/// `deliver-rs`: the ReplicaSet controller's caches catch up with `truth`, then its pod
/// handlers run for what changed since its last delivery: `addPod` for each new pod and
/// `updatePod` for each pod still there (in name order), then `deletePod` for each pod gone.
///
/// `versions` says whether the API server keeps resourceVersions. The counterfactual
/// `conflicts: false` (last write wins) is an API server that keeps none, as client-go's
/// fake object tracker: every object's version is then the same empty one, so `updatePod`
/// returns at its first check for every pod, and a graceful deletion is observed only when
/// the pod is gone (`deletePod`), not when it starts terminating. The reference traces of
/// `race-5-surge2-unav1-graceful-*-norv` show exactly that (`{del: 1}` pending after the
/// pod turned terminating).
pub fn deliver_rs(
    cache: &mut InformerCache,
    truth: &ApiServer,
    e: &mut ControllerExpectations,
    versions: bool,
) {
    let old = cache.deliver(truth);
    let (old, new) = (old.listers(), cache.listers());
    for pod in new.pods() {
        match old.pod(&pod.metadata.name) {
            None => add_pod(new, e, pod),
            Some(_) if !versions => {}
            Some(before) => update_pod(new, e, before, pod),
        }
    }
    for pod in old.pods() {
        if new.pod(&pod.metadata.name).is_none() {
            delete_pod(new, e, pod);
        }
    }
}

/// `resolveControllerRef`: the ReplicaSet the pod's controller reference names, if the cache
/// has one of that name with that uid.
fn resolve_controller_ref<'c>(cache: &'c ApiServer, pod: &Pod) -> Option<&'c Arc<ReplicaSet>> {
    let owner = pod.metadata.owner.as_ref()?;
    if owner.kind != "ReplicaSet" {
        return None;
    }
    cache
        .replica_set(&owner.name)
        .filter(|rs| rs.metadata.uid == owner.uid)
}

/// `addPod`: a pod that shows up already terminating counts as a deletion; otherwise its
/// controller's `CreationObserved`.
fn add_pod(cache: &ApiServer, e: &mut ControllerExpectations, pod: &Pod) {
    if pod.metadata.deletion_timestamp.is_some() {
        delete_pod(cache, e, pod);
        return;
    }
    if let Some(rs) = resolve_controller_ref(cache, pod) {
        e.creation_observed(&rs.metadata.name);
    }
}

/// `updatePod`: only a pod whose resourceVersion changed; one that became terminating counts
/// as deleted at once (the controller need not wait for the kubelet to remove it). Labels and
/// controller references never change in these schedules, so the rest of the handler only
/// enqueues (every ReplicaSet is synced by `sync-rs` anyway).
fn update_pod(cache: &ApiServer, e: &mut ControllerExpectations, old: &Pod, cur: &Pod) {
    if cur.metadata.resource_version == old.metadata.resource_version {
        return;
    }
    if cur.metadata.deletion_timestamp.is_some() {
        delete_pod(cache, e, cur);
        if cur.metadata.labels != old.metadata.labels {
            delete_pod(cache, e, old);
        }
    }
}

/// `deletePod`: `DeletionObserved` for its controller (counted only if that deletion was
/// expected, by the pod's key).
fn delete_pod(cache: &ApiServer, e: &mut ControllerExpectations, pod: &Pod) {
    if let Some(rs) = resolve_controller_ref(cache, pod) {
        e.deletion_observed(&rs.metadata.name, &pod.metadata.name);
    }
}
