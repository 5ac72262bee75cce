//! The ReplicaSet controller's guard against its own stale cache (KEP-5647, feature gate
//! `StaleControllerConsistencyReplicaSet`, beta and on by default since 1.36):
//! `pkg/controller/util/consistency` `RealConsistencyStore`, as 1.37's `syncReplicaSet` uses it.
//!
//! After a sync, the controller records the resourceVersion of its own writes for the
//! ReplicaSet (`WroteAt`): the pods it created (`podControl.CreatePods`) and its status update
//! (`updateReplicaSetStatus`). Before the next sync of that ReplicaSet acts, `EnsureReady`
//! compares each with the newest resourceVersion its informer caches have seen
//! (`LastStoreSyncResourceVersion`); while a cache is older than a write, the sync returns
//! `read version: 41 is not as new as written version: 43 for group resource pods` and the
//! ReplicaSet is re-queued. Once the caches have caught up, the record is cleared.
//!
//! For example `sync-rs` creates `web-rev2-00001` (resourceVersion 43) and a second `sync-rs`
//! follows before `deliver-rs`: its cache still ends at 41, so it does nothing, where 1.28 (with
//! its expectations deleted, the counterfactual) would count one pod too few and create
//! another. Pod deletions are not recorded, and the Deployment controller has no such guard.

use crate::store::ApiServer;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

/// One ReplicaSet's recorded writes (`ownerRecord`): the newest resourceVersion written per
/// group resource.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct OwnerRecord {
    /// `pods`: the newest pod it created.
    pods: Option<u64>,
    /// `replicasets.apps`: its newest status write.
    replica_sets: Option<u64>,
}

/// `RealConsistencyStore` for the ReplicaSet controller: owner (ReplicaSet name) → record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsistencyStore {
    writes: BTreeMap<String, OwnerRecord>,
}

impl ConsistencyStore {
    /// `WroteAt(owner, pods, rv)`: a pod created at `rv` (kept only when newer).
    pub fn wrote_pod(&mut self, owner: &str, rv: u64) {
        let r = self.writes.entry(owner.to_string()).or_default();
        r.pods = Some(r.pods.map_or(rv, |old| old.max(rv)));
    }

    /// `WroteAt(owner, replicasets.apps, rv)`: its status written at `rv`.
    pub fn wrote_replica_set(&mut self, owner: &str, rv: u64) {
        let r = self.writes.entry(owner.to_string()).or_default();
        r.replica_sets = Some(r.replica_sets.map_or(rv, |old| old.max(rv)));
    }

    /// `EnsureReady(owner)` against the controller's caches (both caught up at once by
    /// `deliver-rs`, so one resourceVersion stands for both informers): `Err` with upstream's
    /// `ConsistencyError` message while a cache is older than a recorded write; `Ok` clears
    /// the record.
    pub fn ensure_ready(&mut self, owner: &str, cache: &ApiServer) -> Result<(), String> {
        let Some(r) = self.writes.get(owner) else {
            return Ok(());
        };
        let read = cache.last_resource_version();
        for (resource, wrote) in [("pods", r.pods), ("replicasets.apps", r.replica_sets)] {
            if let Some(wrote) = wrote.filter(|w| *w > read) {
                return Err(format!(
                    "read version: {read} is not as new as written version: {wrote} for group resource {resource}"
                ));
            }
        }
        self.writes.remove(owner);
        Ok(())
    }

    /// The owners whose next sync would be held back by `cache` now: what decides the
    /// guard's behaviour from here on (a record the caches have caught up with acts as none),
    /// so it is what a search's state fingerprint takes.
    pub fn hash_pending<H: Hasher>(&self, cache: &ApiServer, h: &mut H) {
        let read = cache.last_resource_version();
        for (owner, r) in &self.writes {
            if r.pods.max(r.replica_sets).is_some_and(|w| w > read) {
                owner.hash(h);
            }
        }
    }

    /// The owners held back now, in name order (for a front end).
    pub fn pending<'a>(&'a self, cache: &'a ApiServer) -> impl Iterator<Item = &'a str> + 'a {
        let read = cache.last_resource_version();
        self.writes
            .iter()
            .filter(move |(_, r)| r.pods.max(r.replica_sets).is_some_and(|w| w > read))
            .map(|(o, _)| o.as_str())
    }
}

#[cfg(test)]
mod tests {
    use crate::races::schedule::{run_race_trace, RaceScenario};
    use crate::version::KubernetesVersion;

    /// `race-teach-expectations-noexp` (3 replicas, maxSurge 1, the ReplicaSet controller's
    /// expectations deleted before each sync): `sync-rs, sync-rs` before `deliver-rs` creates
    /// the new ReplicaSet's pod twice under 1.28, 5 pods > 3 + 1. Under 1.37 the second sync
    /// finds its cache older than the pod it created and returns at once
    /// (`EnsureReady`), so no second pod and no broken promise.
    #[test]
    fn the_guard_stops_the_second_create_of_the_teaching_race() {
        let text = r#"{"name":"t","rounds":0,"secondsPerRound":1,"readyAfterRounds":2,
          "terminationRounds":0,"nodes":2,"expectations":false,
          "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":3,
            "image":"web:1","strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}],
          "schedule":["setImage web:2","deliver-dc","sync-dc","deliver-rs","sync-rs","sync-rs",
            "deliver-rs","sync-rs","deliver-rs","sync-rs"]}"#;
        let mut rs = RaceScenario::from_json(text).unwrap();
        let old = run_race_trace(&rs);
        assert_eq!(old.steps[5].violations, ["maxSurge: 5 pods > 3 + 1"]);
        assert!(old
            .steps
            .iter()
            .flat_map(|s| &s.errors)
            .all(|e| !e.contains("read version")));

        rs.scenario.kubernetes_version = KubernetesVersion::V1_37;
        let new = run_race_trace(&rs);
        assert_eq!(new.oracle["kubernetesVersion"], "v1.37.0");
        assert!(
            new.steps.iter().all(|s| s.violations.is_empty()),
            "{:?}",
            new.steps.iter().map(|s| &s.violations).collect::<Vec<_>>()
        );
        // Step 5, the second sync-rs: held back for the ReplicaSet it created a pod for.
        let held = &new.steps[5].errors;
        assert_eq!(held.len(), 1, "{held:?}");
        assert!(
            held[0].starts_with("syncReplicaSet web-rev2: read version: "),
            "{}",
            held[0]
        );
        assert!(held[0].ends_with("for group resource pods"), "{}", held[0]);
        let pods = |s: &crate::races::schedule::RaceTraceStep| -> i32 {
            s.replica_sets.iter().map(|r| r.pods.active).sum()
        };
        assert_eq!(pods(&new.steps[5]), 4);
        // After deliver-rs the cache holds the write: the next sync acts again, and the
        // rollout goes on within its bounds.
        assert!(new.steps[7].errors.is_empty(), "{:?}", new.steps[7].errors);
    }

    /// `EnsureReady` clears a record once the caches have caught up, and a newer write
    /// replaces an older one (`WroteAt` keeps the newest).
    #[test]
    fn ensure_ready_compares_the_newest_write_with_the_cache() {
        let mut store = super::ConsistencyStore::default();
        let cache = crate::store::ApiServer::new();
        let read = cache.last_resource_version();
        assert_eq!(store.ensure_ready("web-rev2", &cache), Ok(()));
        store.wrote_pod("web-rev2", read + 2);
        store.wrote_pod("web-rev2", read + 1);
        store.wrote_replica_set("web-rev2", read + 3);
        let e = store.ensure_ready("web-rev2", &cache).unwrap_err();
        assert_eq!(
            e,
            format!(
                "read version: {read} is not as new as written version: {} for group resource pods",
                read + 2
            )
        );
        assert_eq!(store.pending(&cache).collect::<Vec<_>>(), ["web-rev2"]);
        assert_eq!(
            store.ensure_ready("web-rev1", &cache),
            Ok(()),
            "another owner"
        );
        let mut caught_up = super::ConsistencyStore::default();
        caught_up.wrote_pod("web-rev2", read);
        assert_eq!(caught_up.ensure_ready("web-rev2", &cache), Ok(()));
        assert_eq!(caught_up, super::ConsistencyStore::default(), "cleared");
    }
}
