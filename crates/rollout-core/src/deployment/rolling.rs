//! `pkg/controller/deployment/rolling.go`: the RollingUpdate strategy.

use super::sync::with_new;
use super::util;
use super::{DeploymentController, SyncResult};
use crate::api::{Deployment, ReplicaSet};
use std::sync::Arc;

impl DeploymentController<'_> {
    /// `rolloutRolling`: scale the new ReplicaSet up within maxSurge; if it did not move,
    /// scale old ones down within maxUnavailable; if nothing moved and the rollout is
    /// complete, clean up history; then sync the rollout status.
    ///
    /// For example, 10 replicas with maxSurge 3 and maxUnavailable 2 (at most 13 pods, at
    /// least 8 available), when every pod is available by the next sync: the new ReplicaSet
    /// goes 0 → 3 (13 pods); the old one 10 → 5 (13 available − 8); the new one 3 → 8; the
    /// old one 5 → 0; the new one 8 → 10. Each sync moves one side only: a sync that scaled
    /// the new ReplicaSet up returns before looking at the old ones.
    pub(crate) fn rollout_rolling(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
    ) -> SyncResult {
        self.rec.enter("rolloutRolling");
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(d, rs_list, true)?;
        let new_rs = new_rs.ok_or_else(|| "no new replica set".to_string())?;
        let all_rss = with_new(&old_rss, Some(&new_rs));

        let scaled_up = self.reconcile_new_replica_set(&all_rss, &new_rs, d)?;
        self.rec.branch("scaled-up", scaled_up, || {
            format!(
                "reconcileNewReplicaSet {} {}",
                if scaled_up { "scaled" } else { "did not scale" },
                new_rs.metadata.name
            )
        });
        if scaled_up {
            return self.sync_rollout_status(&all_rss, Some(&new_rs), d);
        }

        let active_old = util::filter_active_replica_sets(&old_rss);
        let scaled_down = self.reconcile_old_replica_sets(&all_rss, active_old, &new_rs, d)?;
        self.rec.branch("scaled-down", scaled_down, || {
            format!(
                "reconcileOldReplicaSets {} old replica sets",
                if scaled_down {
                    "scaled down"
                } else {
                    "did not scale down"
                }
            )
        });
        if scaled_down {
            return self.sync_rollout_status(&all_rss, Some(&new_rs), d);
        }

        let complete = util::deployment_complete(d, &d.status);
        self.rec.branch(
            "complete",
            complete,
            || format!(
                "DeploymentComplete: updated {} / total {} / available {} of {}, observedGeneration {} ≥ generation {}",
                d.status.updated_replicas,
                d.status.replicas,
                d.status.available_replicas,
                d.spec.replicas,
                d.status.observed_generation,
                d.metadata.generation
            ),
        );
        if complete {
            self.cleanup_deployment(&old_rss, d)?;
        }
        self.sync_rollout_status(&all_rss, Some(&new_rs), d)
    }

    /// `reconcileNewReplicaSet`: scale the new ReplicaSet towards spec.replicas as far as
    /// `NewRSNewReplicas` allows. Whether it scaled.
    ///
    /// With 10 replicas and maxSurge 3, an old ReplicaSet of 10 and a new one of 3 already
    /// make the 13 allowed, so the new one waits; once the old one is down to 8 (11 pods) the
    /// new one grows by 2 to 5.
    pub(crate) fn reconcile_new_replica_set(
        &mut self,
        all_rss: &[Arc<ReplicaSet>],
        new_rs: &Arc<ReplicaSet>,
        d: &Deployment,
    ) -> SyncResult<bool> {
        self.rec.enter("reconcileNewReplicaSet");
        let name = &new_rs.metadata.name;
        if new_rs.spec.replicas == d.spec.replicas {
            self.rec.decide(
                "reconcileNewReplicaSet",
                || {
                    format!(
                        "new replica set {name} already has spec.replicas = {}, nothing to scale",
                        d.spec.replicas
                    )
                },
                &[("newReplicas", i64::from(new_rs.spec.replicas))],
            );
            return Ok(false);
        }
        if new_rs.spec.replicas > d.spec.replicas {
            self.rec.decide(
                "reconcileNewReplicaSet",
                || {
                    format!(
                        "new replica set {name} has {} > spec.replicas {}, so scale it down to {}",
                        new_rs.spec.replicas, d.spec.replicas, d.spec.replicas
                    )
                },
                &[],
            );
            let (scaled, _) =
                self.scale_replica_set_and_record_event(new_rs, d.spec.replicas, d)?;
            return Ok(scaled);
        }
        let a = util::new_rs_new_replicas(d, all_rss, new_rs)?;
        let max_surge = a.max_total_pods - d.spec.replicas;
        let text = || {
            if a.current_pod_count >= a.max_total_pods {
                format!(
                "maxTotalPods = {} + {} = {}, current {} ≥ {}, so the new replica set {name} cannot grow",
                d.spec.replicas, max_surge, a.max_total_pods, a.current_pod_count, a.max_total_pods
            )
            } else {
                format!(
                "maxTotalPods = {} + {} = {}, current {}, so scale new up by {} (min of {} and {} − {}): {} → {}",
                d.spec.replicas,
                max_surge,
                a.max_total_pods,
                a.current_pod_count,
                a.scale_up_count,
                a.max_total_pods - a.current_pod_count,
                d.spec.replicas,
                new_rs.spec.replicas,
                new_rs.spec.replicas,
                a.new_replicas
            )
            }
        };
        self.rec.decide(
            "reconcileNewReplicaSet",
            text,
            &[
                ("maxTotalPods", i64::from(a.max_total_pods)),
                ("currentPodCount", i64::from(a.current_pod_count)),
                ("scaleUpCount", i64::from(a.scale_up_count)),
                ("newReplicas", i64::from(a.new_replicas)),
            ],
        );
        let (scaled, _) = self.scale_replica_set_and_record_event(new_rs, a.new_replicas, d)?;
        Ok(scaled)
    }

    /// `reconcileOldReplicaSets`: scale old ReplicaSets down as far as minAvailable allows,
    /// unhealthy replicas first. Whether anything was scaled down.
    pub(crate) fn reconcile_old_replica_sets(
        &mut self,
        all_rss: &[Arc<ReplicaSet>],
        old_rss: Vec<Arc<ReplicaSet>>,
        new_rs: &Arc<ReplicaSet>,
        d: &Deployment,
    ) -> SyncResult<bool> {
        self.rec.enter("reconcileOldReplicaSets");
        let old_pods_count = util::get_replica_count_for_replica_sets(&old_rss);
        if old_pods_count == 0 {
            self.rec.decide(
                "reconcileOldReplicaSets",
                || "no old replica set has pods, nothing to scale down".to_string(),
                &[],
            );
            return Ok(false);
        }
        let all_pods_count = util::get_replica_count_for_replica_sets(all_rss);
        let max_unavailable = util::max_unavailable(d);
        // How many old pods may go: every pod there is (surge included) minus the
        // minAvailable that must stay, minus the new ReplicaSet's pods that are not available
        // yet, because those count as pods but serve nothing. Old pods are taken to be
        // available here; cleanup_unhealthy_replicas below removes the ones that are not.
        //
        // Worked example: 10 replicas, maxSurge 3, maxUnavailable 2 (numbers, not
        // percentages), so at most 13 pods and minAvailable = 10 − 2 = 8.
        // * A rollout whose new pods crash: the new ReplicaSet grows to 3, the old one goes
        //   10 → 8 (13 − 8 − 3 = 2), the new one grows to 5. Now maxScaledDown =
        //   13 − 8 − 5 = 0, and it stays 0 when a node failure leaves the old ReplicaSet
        //   with 7 available of 8: nothing more is taken from the pods that still serve.
        // * Rolling back: the 8-pod ReplicaSet (7 available) is the new one again and the
        //   crashing 5 are old, so maxScaledDown = 13 − 8 − 1 = 4, all crashing pods
        //   (cleanup 5 → 1). 9 pods are left, and the next sync grows the new ReplicaSet by
        //   min(13 − 9, 10 − 8) = 2 to 10.
        // * Rolling forward to a third template instead: it starts at 0 (13 pods already
        //   exist) with nothing unavailable, so maxScaledDown = 13 − 8 − 0 = 5: the oldest
        //   ReplicaSet loses its 1 unavailable pod (8 → 7), the crashing one 4 (5 → 1), and
        //   the next sync grows the new one by min(13 − 8, 10 − 0) = 5.
        let min_available = d.spec.replicas - max_unavailable;
        let new_rs_unavailable = new_rs.spec.replicas - new_rs.status.available_replicas;
        let max_scaled_down = all_pods_count - min_available - new_rs_unavailable;
        let values = [
            ("allPodsCount", i64::from(all_pods_count)),
            ("minAvailable", i64::from(min_available)),
            ("newRSUnavailablePodCount", i64::from(new_rs_unavailable)),
            ("maxScaledDown", i64::from(max_scaled_down)),
        ];
        let arithmetic = || {
            format!(
            "minAvailable = {} − {} = {}, new unavailable = {} − {} = {}, maxScaledDown = {} − {} − {} = {}",
            d.spec.replicas,
            max_unavailable,
            min_available,
            new_rs.spec.replicas,
            new_rs.status.available_replicas,
            new_rs_unavailable,
            all_pods_count,
            min_available,
            new_rs_unavailable,
            max_scaled_down
        )
        };
        if max_scaled_down <= 0 {
            self.rec.decide(
                "reconcileOldReplicaSets",
                || format!("{}, so no old pod may go yet", arithmetic()),
                &values,
            );
            return Ok(false);
        }
        self.rec.decide(
            "reconcileOldReplicaSets",
            || {
                format!(
                    "{}, so old replica sets may lose up to {max_scaled_down}",
                    arithmetic()
                )
            },
            &values,
        );

        let Ok((old_rss, cleanup_count)) =
            self.cleanup_unhealthy_replicas(old_rss, d, max_scaled_down)
        else {
            return Ok(false);
        };
        let all_rss = with_new(&old_rss, Some(new_rs));
        let Ok(scaled_down_count) =
            self.scale_down_old_replica_sets_for_rolling_update(&all_rss, old_rss, d)
        else {
            return Ok(false);
        };
        Ok(cleanup_count + scaled_down_count > 0)
    }

    /// `cleanupUnhealthyReplicas`: scale down the unavailable replicas of old ReplicaSets,
    /// oldest first, at most `max_cleanup_count` in all.
    ///
    /// Removing a pod that is not available costs no availability, and the ReplicaSet
    /// controller deletes not-ready pods first, so lowering spec.replicas by the unavailable
    /// count removes those pods. Without this step they would block the rollout:
    /// `scale_down_old_replica_sets_for_rolling_update` counts only available pods and could
    /// stay at or below minAvailable for good.
    ///
    /// For example, with `max_cleanup_count` 4 and old ReplicaSets (oldest first) A with 8
    /// replicas, 7 available, and B with 5, none available: A loses min(4, 1) = 1 (8 → 7),
    /// B loses min(4 − 1, 5) = 3 (5 → 2).
    fn cleanup_unhealthy_replicas(
        &mut self,
        mut old_rss: Vec<Arc<ReplicaSet>>,
        d: &Deployment,
        max_cleanup_count: i32,
    ) -> SyncResult<(Vec<Arc<ReplicaSet>>, i32)> {
        self.rec.enter("cleanupUnhealthyReplicas");
        util::sort_replica_sets(&mut old_rss, util::by_creation_timestamp);
        let mut total_scaled_down = 0;
        for slot in old_rss.iter_mut() {
            if total_scaled_down >= max_cleanup_count {
                break;
            }
            let target = Arc::clone(slot);
            if target.spec.replicas == 0 || target.spec.replicas == target.status.available_replicas
            {
                continue;
            }
            let unhealthy = target.spec.replicas - target.status.available_replicas;
            let scaled_down_count = (max_cleanup_count - total_scaled_down).min(unhealthy);
            let new_replicas_count = target.spec.replicas - scaled_down_count;
            if new_replicas_count > target.spec.replicas {
                return Err(format!(
                    "when cleaning up unhealthy replicas, got invalid request to scale down {}/{} {} -> {}",
                    target.metadata.namespace, target.metadata.name, target.spec.replicas, new_replicas_count
                ));
            }
            self.rec.decide(
                "cleanupUnhealthyReplicas",
                || {
                    format!(
                        "{} has {} unavailable of {}, so remove {} of them first: {} → {}",
                        target.metadata.name,
                        unhealthy,
                        target.spec.replicas,
                        scaled_down_count,
                        target.spec.replicas,
                        new_replicas_count
                    )
                },
                &[("scaledDownCount", i64::from(scaled_down_count))],
            );
            let (_, updated) =
                self.scale_replica_set_and_record_event(&target, new_replicas_count, d)?;
            total_scaled_down += scaled_down_count;
            *slot = updated;
        }
        Ok((old_rss, total_scaled_down))
    }

    /// `scaleDownOldReplicaSetsForRollingUpdate`: scale old ReplicaSets down, oldest first,
    /// by as many as available − minAvailable.
    ///
    /// For example, 10 replicas with maxUnavailable 2 (minAvailable 8), old ReplicaSets
    /// (oldest first) A with 2 pods and B with 6, and a new one with 5, all 13 available:
    /// 13 − 8 = 5 may go, A 2 → 0 then B 6 → 3. Had only 2 of the new pods been available
    /// (10 in all), 10 − 8 = 2 would go, both from A.
    fn scale_down_old_replica_sets_for_rolling_update(
        &mut self,
        all_rss: &[Arc<ReplicaSet>],
        mut old_rss: Vec<Arc<ReplicaSet>>,
        d: &Deployment,
    ) -> SyncResult<i32> {
        self.rec.enter("scaleDownOldReplicaSetsForRollingUpdate");
        let max_unavailable = util::max_unavailable(d);
        let min_available = d.spec.replicas - max_unavailable;
        let available = util::get_available_replica_count_for_replica_sets(all_rss);
        if available <= min_available {
            self.rec.decide(
                "scaleDownOldReplicaSetsForRollingUpdate",
                || format!(
                    "available {available} ≤ minAvailable {min_available}, so no available old pod may go"
                ),
                &[
                    ("availablePodCount", i64::from(available)),
                    ("minAvailable", i64::from(min_available)),
                ],
            );
            return Ok(0);
        }
        util::sort_replica_sets(&mut old_rss, util::by_creation_timestamp);
        let total_scale_down_count = available - min_available;
        self.rec.decide(
            "scaleDownOldReplicaSetsForRollingUpdate",
            || format!(
                "available {available} − minAvailable {min_available} = {total_scale_down_count} old {} may go, oldest replica set first",
                if total_scale_down_count == 1 { "pod" } else { "pods" }
            ),
            &[
                ("availablePodCount", i64::from(available)),
                ("minAvailable", i64::from(min_available)),
                ("totalScaleDownCount", i64::from(total_scale_down_count)),
            ],
        );
        let mut total_scaled_down = 0;
        for target in &old_rss {
            if total_scaled_down >= total_scale_down_count {
                break;
            }
            if target.spec.replicas == 0 {
                continue;
            }
            let scale_down_count = target
                .spec
                .replicas
                .min(total_scale_down_count - total_scaled_down);
            let new_replicas_count = target.spec.replicas - scale_down_count;
            if new_replicas_count > target.spec.replicas {
                return Err(format!(
                    "when scaling down old RS, got invalid request to scale down {}/{} {} -> {}",
                    target.metadata.namespace,
                    target.metadata.name,
                    target.spec.replicas,
                    new_replicas_count
                ));
            }
            self.scale_replica_set_and_record_event(target, new_replicas_count, d)?;
            total_scaled_down += scale_down_count;
        }
        Ok(total_scaled_down)
    }
}
