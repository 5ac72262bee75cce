//! `ControllerExpectations` and `UIDTrackingControllerExpectations` of
//! `pkg/controller/controller_utils.go`: what the ReplicaSet controller waits to see in its
//! own cache before it acts on a ReplicaSet again.
//!
//! A sync that creates 2 pods for `web-rev2` calls `ExpectCreations(2)`: `{add: 2, del: 0}`.
//! Until its pod informer has delivered both pods (`addPod` → `CreationObserved`, 2 → 1 → 0)
//! `SatisfiedExpectations` is false and the next sync of `web-rev2` only writes its status. A
//! scale-down names the pods it deletes (`ExpectDeletions` with their keys); a deletion is
//! observed only for a pod whose key is in that set, so a pod deleted by someone else does not
//! count. The counts may go below zero (an observation nobody expected, e.g. after the
//! counterfactual deleted the record and a sync set a new one): that is real, and shown.
//! Expectations also expire after 5 minutes in Kubernetes; race schedules are far shorter,
//! so expiry is not modelled.

use imbl::{OrdMap, OrdSet};
use serde::{Deserialize, Serialize};

/// `ControlleeExpectations`: creations and deletions still to be observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Pending {
    /// Pod creations still to be observed (`add`).
    pub add: i64,
    /// Pod deletions still to be observed (`del`).
    pub del: i64,
}

impl Pending {
    /// `Fulfilled`: nothing left to observe.
    pub fn fulfilled(&self) -> bool {
        self.add <= 0 && self.del <= 0
    }
}

/// The ReplicaSet controller's expectations, keyed by ReplicaSet name (the namespace is
/// always `default`), with the pod keys of expected deletions (`UIDTrackingControllerExpectations`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ControllerExpectations {
    counts: OrdMap<String, Pending>,
    /// The names of the pods whose deletion is expected, per ReplicaSet (the uid store).
    deleting: OrdMap<String, OrdSet<String>>,
}

impl ControllerExpectations {
    /// No expectations.
    pub fn new() -> Self {
        Self::default()
    }

    /// `SatisfiedExpectations`: true when there is no record (a ReplicaSet never synced, or
    /// whose record was deleted) or when it is fulfilled.
    pub fn satisfied(&self, rs: &str) -> bool {
        self.counts.get(rs).is_none_or(Pending::fulfilled)
    }

    /// The record of a ReplicaSet, if any.
    pub fn get(&self, rs: &str) -> Option<Pending> {
        self.counts.get(rs).copied()
    }

    /// Every record that is not zero, by ReplicaSet name (what the trace's `expectations`
    /// shows: negative values included).
    pub fn pending(&self) -> impl Iterator<Item = (&String, &Pending)> {
        self.counts.iter().filter(|(_, p)| p.add != 0 || p.del != 0)
    }

    /// `ExpectCreations(n)` (`SetExpectations(key, n, 0)`: the record is replaced).
    pub fn expect_creations(&mut self, rs: &str, n: i64) {
        self.counts
            .insert(rs.to_string(), Pending { add: n, del: 0 });
    }

    /// `UIDTrackingControllerExpectations.ExpectDeletions`: the pods about to be deleted are
    /// remembered (replacing the earlier set) and `{add: 0, del: len}` set.
    pub fn expect_deletions(&mut self, rs: &str, pods: &[String]) {
        let keys: OrdSet<String> = pods.iter().cloned().collect();
        let n = keys.len() as i64;
        self.deleting.insert(rs.to_string(), keys);
        self.counts
            .insert(rs.to_string(), Pending { add: 0, del: n });
    }

    /// `CreationObserved`: `add` − 1 when there is a record.
    pub fn creation_observed(&mut self, rs: &str) {
        if let Some(p) = self.counts.get_mut(rs) {
            p.add -= 1;
        }
    }

    /// `UIDTrackingControllerExpectations.DeletionObserved`: only for a pod whose deletion
    /// was expected: it leaves the set and `del` − 1 (when there is a record).
    pub fn deletion_observed(&mut self, rs: &str, pod: &str) {
        let Some(keys) = self.deleting.get_mut(rs) else {
            return;
        };
        if keys.remove(pod).is_none() {
            return;
        }
        if let Some(p) = self.counts.get_mut(rs) {
            p.del -= 1;
        }
    }

    /// `DeleteExpectations`: the record and the expected deletions are forgotten.
    pub fn delete(&mut self, rs: &str) {
        self.counts.remove(rs);
        self.deleting.remove(rs);
    }
}

/// What `syncReplicaSet` asks of its expectations: the part of Go's
/// `ControllerExpectationsInterface` that `replica_set.go` calls during a sync. The
/// ReplicaSet controller holds it as a trait object, so a build that never keeps expectations
/// (the web app, whose rounds see every write at once) does not link [`ControllerExpectations`]
/// and its maps: about 20 KB of the app's wasm.
pub trait ControllerExpectationsInterface {
    /// `SatisfiedExpectations`.
    fn satisfied(&self, rs: &str) -> bool;
    /// `ExpectCreations`.
    fn expect_creations(&mut self, rs: &str, n: i64);
    /// `ExpectDeletions` with the pods' keys.
    fn expect_deletions(&mut self, rs: &str, pods: &[String]);
    /// `DeletionObserved`.
    fn deletion_observed(&mut self, rs: &str, pod: &str);
    /// `DeleteExpectations`.
    fn delete(&mut self, rs: &str);
}

impl ControllerExpectationsInterface for ControllerExpectations {
    fn satisfied(&self, rs: &str) -> bool {
        ControllerExpectations::satisfied(self, rs)
    }
    fn expect_creations(&mut self, rs: &str, n: i64) {
        ControllerExpectations::expect_creations(self, rs, n);
    }
    fn expect_deletions(&mut self, rs: &str, pods: &[String]) {
        ControllerExpectations::expect_deletions(self, rs, pods);
    }
    fn deletion_observed(&mut self, rs: &str, pod: &str) {
        ControllerExpectations::deletion_observed(self, rs, pod);
    }
    fn delete(&mut self, rs: &str) {
        ControllerExpectations::delete(self, rs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creations_are_waited_for_until_observed() {
        let mut e = ControllerExpectations::new();
        assert!(e.satisfied("web-rev2"), "no record: satisfied");
        e.expect_creations("web-rev2", 2);
        assert!(!e.satisfied("web-rev2"));
        e.creation_observed("web-rev2");
        assert!(!e.satisfied("web-rev2"));
        e.creation_observed("web-rev2");
        assert!(e.satisfied("web-rev2"));
        e.creation_observed("web-rev2");
        assert_eq!(e.get("web-rev2"), Some(Pending { add: -1, del: 0 }));
        assert_eq!(e.pending().count(), 1, "a negative count is shown");
    }

    #[test]
    fn only_the_expected_pods_count_as_deletions() {
        let mut e = ControllerExpectations::new();
        e.expect_deletions(
            "web-rev1",
            &["web-rev1-00001".into(), "web-rev1-00002".into()],
        );
        e.deletion_observed("web-rev1", "web-rev1-00003");
        assert_eq!(e.get("web-rev1"), Some(Pending { add: 0, del: 2 }));
        e.deletion_observed("web-rev1", "web-rev1-00001");
        e.deletion_observed("web-rev1", "web-rev1-00001");
        assert_eq!(e.get("web-rev1"), Some(Pending { add: 0, del: 1 }));
        e.delete("web-rev1");
        assert!(e.satisfied("web-rev1"));
        e.deletion_observed("web-rev1", "web-rev1-00002");
        assert_eq!(e.get("web-rev1"), None);
    }
}
