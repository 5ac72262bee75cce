//! What the Deployment looked like before the last move.

use super::*;

/// What the Deployment looked like before the last move, to highlight what changed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Snapshot {
    /// The Deployment's conditions.
    pub conditions: Vec<ConditionView>,
    /// Each ReplicaSet's DESIRED, CURRENT, READY, AVAILABLE.
    pub counts: Vec<(String, [i32; 4])>,
    /// The replicas line.
    pub replicas_line: String,
    /// `kubectl rollout status`.
    pub rollout_status: String,
}

impl Snapshot {
    /// Of a simulation now (cheap: no pods).
    pub fn of(sim: &Simulation, deployment: &str) -> Snapshot {
        let api = sim.api();
        let d = api.deployment(deployment).map(|d| deployment_view(d));
        Snapshot {
            conditions: d.as_ref().map(|d| d.conditions.clone()).unwrap_or_default(),
            replicas_line: d
                .as_ref()
                .map(|d| d.replicas_line.clone())
                .unwrap_or_default(),
            rollout_status: d
                .as_ref()
                .map(|d| d.rollout_status.message.clone())
                .unwrap_or_default(),
            counts: api
                .replica_sets()
                .map(|rs| {
                    (
                        rs.metadata.name.clone(),
                        [
                            rs.spec.replicas,
                            rs.status.replicas,
                            rs.status.ready_replicas,
                            rs.status.available_replicas,
                        ],
                    )
                })
                .collect(),
        }
    }

    /// Whether a condition is new or different from before.
    pub fn condition_changed(&self, c: &ConditionView) -> bool {
        !self.conditions.iter().any(|b| {
            b.type_ == c.type_
                && b.status == c.status
                && b.reason == c.reason
                && b.message == c.message
        })
    }

    /// Which of a ReplicaSet's four counts changed (all, for a new ReplicaSet).
    pub fn counts_changed(&self, name: &str, now: [i32; 4]) -> [bool; 4] {
        match self.counts.iter().find(|(n, _)| n == name) {
            Some((_, before)) => std::array::from_fn(|i| before[i] != now[i]),
            None => [true; 4],
        }
    }
}
