//! Which Kubernetes release the controllers behave as: v1.28.4, the release the conformance
//! fixtures were recorded from, or v1.37.0 (26 August 2026), the newest supported release.
//!
//! Three changes between them are visible in what Rollout Lab shows, each behind a predicate
//! here so the controllers read as the Go source does (`if feature enabled { … }`):
//!
//! * [`KubernetesVersion::reports_terminating_replicas`]: `status.terminatingReplicas` on
//!   ReplicaSets and Deployments (KEP-3973, feature gate `DeploymentReplicaSetTerminatingReplicas`:
//!   alpha in 1.33, beta and on by default since 1.35).
//! * [`KubernetesVersion::requeues_for_any_ready_pod`]: when the ReplicaSet controller syncs again
//!   to count a pod available after `minReadySeconds` (kubernetes/kubernetes PR #132121, 1.34).
//! * [`KubernetesVersion::rs_waits_for_own_writes`]: the ReplicaSet controller checks that its
//!   informer cache holds its own last writes before it acts (KEP-5647, feature gate
//!   `StaleControllerConsistencyReplicaSet`, beta and on by default since 1.36). The
//!   Deployment controller has no such guard in 1.37.
//!
//! A scenario without `kubernetesVersion` is 1.28 (so every file of `../shared` keeps its
//! meaning); the app's presets, lessons and the planner use [`KubernetesVersion::DEFAULT`], 1.37.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A Kubernetes release whose controllers Rollout Lab runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum KubernetesVersion {
    /// v1.28.4: the release `../shared` was recorded from; a scenario without
    /// `kubernetesVersion` is this one.
    #[default]
    V1_28,
    /// v1.37.0, the newest release (26 August 2026).
    V1_37,
}

impl KubernetesVersion {
    /// What the app's presets, lessons and the planner use: the Kubernetes people run today.
    pub const DEFAULT: KubernetesVersion = KubernetesVersion::V1_37;
    /// What a scenario without `kubernetesVersion` means (the fixtures of `../shared`).
    pub const SCENARIO_DEFAULT: KubernetesVersion = KubernetesVersion::V1_28;
    /// Every version, oldest first.
    pub const ALL: [KubernetesVersion; 2] = [KubernetesVersion::V1_28, KubernetesVersion::V1_37];

    /// `1.28` or `1.37`: how scenarios, links, `--kubernetes` and `k8s=` write it.
    pub fn as_str(self) -> &'static str {
        match self {
            KubernetesVersion::V1_28 => "1.28",
            KubernetesVersion::V1_37 => "1.37",
        }
    }

    /// The release tag whose source the port follows (`v1.28.4`, `v1.37.0`).
    pub fn release(self) -> &'static str {
        match self {
            KubernetesVersion::V1_28 => "v1.28.4",
            KubernetesVersion::V1_37 => "v1.37.0",
        }
    }

    /// The controllers' source in that release, for a link beside the Deployment.
    pub fn source_url(self) -> &'static str {
        match self {
            KubernetesVersion::V1_28 => {
                "https://github.com/kubernetes/kubernetes/tree/v1.28.4/pkg/controller/deployment"
            }
            KubernetesVersion::V1_37 => {
                "https://github.com/kubernetes/kubernetes/tree/v1.37.0/pkg/controller/deployment"
            }
        }
    }

    /// Reads `1.28` / `1.37`, also written `v1.28`, `1.28.4` or `v1.37.0`; anything else is
    /// refused with a message that names the value and the versions there are.
    pub fn parse(text: &str) -> Result<KubernetesVersion, String> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let minor = match t.split('.').collect::<Vec<_>>()[..] {
            ["1", minor] => minor,
            ["1", minor, patch]
                if !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()) =>
            {
                minor
            }
            _ => "",
        };
        match minor {
            "28" => Ok(KubernetesVersion::V1_28),
            "37" => Ok(KubernetesVersion::V1_37),
            _ => {
                let shown: String = text.chars().take(40).collect();
                let more = if text.chars().count() > 40 { "…" } else { "" };
                Err(format!(
                    "unknown Kubernetes version `{shown}{more}`; Rollout Lab models 1.37 and 1.28"
                ))
            }
        }
    }

    /// `status.terminatingReplicas` is written by the ReplicaSet controller
    /// (`replica_set_utils.go` `calculateStatus`) and summed by the Deployment controller
    /// (`sync.go` `calculateStatus`): KEP-3973, on by default since 1.35.
    pub fn reports_terminating_replicas(self) -> bool {
        self >= KubernetesVersion::V1_37
    }

    /// After a status write with `minReadySeconds > 0`, the ReplicaSet controller re-queues
    /// whenever a ready pod is not yet available, at the moment the first of them becomes
    /// available (`replica_set.go` `syncReplicaSet`, `controller.FindMinNextPodAvailabilityCheck`,
    /// PR #132121); v1.28 re-queues after `minReadySeconds` only when every wanted pod is ready
    /// and not all are available.
    pub fn requeues_for_any_ready_pod(self) -> bool {
        self >= KubernetesVersion::V1_37
    }

    /// The ReplicaSet controller's `consistencyStore.EnsureReady`: before a sync acts, its
    /// informer caches must hold the resourceVersions of its own last writes, or the
    /// ReplicaSet is re-queued (KEP-5647, on by default since 1.36).
    pub fn rs_waits_for_own_writes(self) -> bool {
        self >= KubernetesVersion::V1_37
    }
}

impl std::fmt::Display for KubernetesVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for KubernetesVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        KubernetesVersion::parse(s)
    }
}

impl Serialize for KubernetesVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for KubernetesVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        KubernetesVersion::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_two_releases_in_the_ways_people_write_them() {
        for (text, v) in [
            ("1.28", KubernetesVersion::V1_28),
            ("v1.28.4", KubernetesVersion::V1_28),
            ("1.37", KubernetesVersion::V1_37),
            (" v1.37 ", KubernetesVersion::V1_37),
            ("1.37.0", KubernetesVersion::V1_37),
        ] {
            assert_eq!(KubernetesVersion::parse(text), Ok(v), "{text}");
        }
        for bad in ["1.30", "", "1", "1.37.x", "2.37", "latest", "1.28.4.1"] {
            let e = KubernetesVersion::parse(bad).unwrap_err();
            assert!(e.contains("Rollout Lab models 1.37 and 1.28"), "{bad}: {e}");
        }
        let long = "9".repeat(100);
        assert!(KubernetesVersion::parse(&long).unwrap_err().len() < 120);
    }

    #[test]
    fn serialises_as_the_short_form_and_defaults_differ_by_door() {
        assert_eq!(
            serde_json::to_string(&KubernetesVersion::V1_37).unwrap(),
            "\"1.37\""
        );
        let v: KubernetesVersion = serde_json::from_str("\"1.28\"").unwrap();
        assert_eq!(v, KubernetesVersion::V1_28);
        assert!(serde_json::from_str::<KubernetesVersion>("\"1.29\"").is_err());
        assert_eq!(
            KubernetesVersion::default(),
            KubernetesVersion::SCENARIO_DEFAULT
        );
        assert_eq!(KubernetesVersion::DEFAULT, KubernetesVersion::V1_37);
        assert!(!KubernetesVersion::V1_28.reports_terminating_replicas());
        assert!(KubernetesVersion::V1_37.reports_terminating_replicas());
    }
}
