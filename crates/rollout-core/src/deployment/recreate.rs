//! `pkg/controller/deployment/recreate.go`: the Recreate strategy.

use super::sync::with_new;
use super::util;
use super::{DeploymentController, SyncResult};
use crate::api::{Deployment, PodPhase, ReplicaSet, Uid};
use std::sync::Arc;

impl DeploymentController<'_> {
    /// `rolloutRecreate`: scale every old ReplicaSet to 0, wait until no old pod is running,
    /// then create (or scale up) the new ReplicaSet.
    pub(crate) fn rollout_recreate(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
    ) -> SyncResult {
        self.rec.enter("rolloutRecreate");
        // The pods of the Deployment's ReplicaSets, as the sync saw them at its start.
        let pod_owners: Vec<(Uid, PodPhase)> = rs_list
            .iter()
            .flat_map(|rs| self.lister().pods_of(rs))
            .filter_map(|p| p.metadata.owner.as_ref().map(|o| (o.uid, p.phase)))
            .collect();

        let (mut new_rs, mut old_rss) =
            self.get_all_replica_sets_and_sync_revision(d, rs_list, false)?;
        let mut all_rss = with_new(&old_rss, new_rs.as_ref());
        let active_old = util::filter_active_replica_sets(&old_rss);

        let scaled_down = self.scale_down_old_replica_sets_for_recreate(active_old, d)?;
        self.rec.branch("scaled-down", scaled_down, || {
            if scaled_down {
                "old replica sets were scaled to 0 in this sync".to_string()
            } else {
                "every old replica set is already at 0".to_string()
            }
        });
        if scaled_down {
            return self.sync_rollout_status(&all_rss, new_rs.as_ref(), d);
        }

        let running = old_pods_running(new_rs.as_deref(), &old_rss, &pod_owners);
        self.rec.branch("old-pods-running", running > 0, || {
            format!("oldPodsRunning: {running} old pod(s) not Succeeded or Failed")
        });
        if running > 0 {
            self.rec.enter("oldPodsRunning");
            self.rec.decide(
                "oldPodsRunning",
                || format!("{running} old pod(s) still running, so wait before creating new pods"),
                &[("oldPodsRunning", running as i64)],
            );
            return self.sync_rollout_status(&all_rss, new_rs.as_ref(), d);
        }
        self.rec.decide(
            "oldPodsRunning",
            || "no old pod is running, so the new replica set may scale up".to_string(),
            &[("oldPodsRunning", 0)],
        );

        if new_rs.is_none() {
            let (n, o) = self.get_all_replica_sets_and_sync_revision(d, rs_list, true)?;
            new_rs = n;
            old_rss = o;
            all_rss = with_new(&old_rss, new_rs.as_ref());
        }
        let new = new_rs
            .clone()
            .ok_or_else(|| "no new replica set".to_string())?;
        self.rec.enter("scaleUpNewReplicaSetForRecreate");
        self.scale_replica_set_and_record_event(&new, d.spec.replicas, d)?;

        let complete = util::deployment_complete(d, &d.status);
        self.rec.branch("complete", complete, || {
            format!(
                "DeploymentComplete: updated {} / total {} / available {} of {}",
                d.status.updated_replicas,
                d.status.replicas,
                d.status.available_replicas,
                d.spec.replicas
            )
        });
        if complete {
            self.cleanup_deployment(&old_rss, d)?;
        }
        self.sync_rollout_status(&all_rss, new_rs.as_ref(), d)
    }

    /// `scaleDownOldReplicaSetsForRecreate`: every active old ReplicaSet to 0.
    fn scale_down_old_replica_sets_for_recreate(
        &mut self,
        old_rss: Vec<Arc<ReplicaSet>>,
        d: &Deployment,
    ) -> SyncResult<bool> {
        self.rec.enter("scaleDownOldReplicaSetsForRecreate");
        let mut scaled = false;
        for rs in old_rss {
            if rs.spec.replicas == 0 {
                continue;
            }
            self.rec.decide(
                "scaleDownOldReplicaSetsForRecreate",
                || {
                    format!(
                        "Recreate: scale old replica set {} down from {} to 0",
                        rs.metadata.name, rs.spec.replicas
                    )
                },
                &[("from", i64::from(rs.spec.replicas))],
            );
            let (did, _) = self.scale_replica_set_and_record_event(&rs, 0, d)?;
            scaled |= did;
        }
        Ok(scaled)
    }
}

/// `oldPodsRunning`: how many pods of old ReplicaSets still count as running (any phase but
/// Succeeded or Failed, terminating ones included). Kubernetes only asks whether any is.
pub fn old_pods_running(
    new_rs: Option<&ReplicaSet>,
    old_rss: &[Arc<ReplicaSet>],
    pod_owners: &[(Uid, PodPhase)],
) -> usize {
    let from_status = util::get_actual_replica_count_for_replica_sets(old_rss);
    let from_pods = pod_owners
        .iter()
        .filter(|(owner, _)| new_rs.is_none_or(|n| n.metadata.uid != *owner))
        .filter(|(_, phase)| !matches!(phase, PodPhase::Succeeded | PodPhase::Failed))
        .count();
    if from_status > 0 {
        from_pods.max(from_status as usize)
    } else {
        from_pods
    }
}
