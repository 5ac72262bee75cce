//! `pkg/controller/deployment/progress.go`: the Progressing and ReplicaFailure conditions.

use super::sync::calculate_status;
use super::util::{self, condition, reason};
use super::{DeploymentController, SyncResult};
use crate::api::{go_quote, ConditionStatus, Deployment, DeploymentCondition, ReplicaSet};
use std::sync::Arc;

impl DeploymentController<'_> {
    /// `syncRolloutStatus`: the status with the Progressing condition brought up to date
    /// (complete, progressing or timed out) and ReplicaFailure copied from the ReplicaSets.
    pub(crate) fn sync_rollout_status(
        &mut self,
        all_rss: &[Arc<ReplicaSet>],
        new_rs: Option<&Arc<ReplicaSet>>,
        d: &mut Deployment,
    ) -> SyncResult {
        self.rec.enter("syncRolloutStatus");
        let now = self.now();
        let mut new_status = calculate_status(all_rss, new_rs, d, now, self.version);
        if !util::has_progress_deadline(d) {
            util::remove_deployment_condition(&mut new_status, condition::PROGRESSING);
        }
        let current = util::get_deployment_condition(&d.status, condition::PROGRESSING).cloned();
        let is_complete_deployment = new_status.replicas == new_status.updated_replicas
            && current
                .as_ref()
                .is_some_and(|c| c.reason == reason::NEW_RS_AVAILABLE);
        if util::has_progress_deadline(d) && !is_complete_deployment {
            let subject = |what: &str| match new_rs {
                Some(rs) => format!("ReplicaSet {} {what}", go_quote(&rs.metadata.name)),
                None => format!("Deployment {} {what}", go_quote(&d.metadata.name)),
            };
            if util::deployment_complete(d, &new_status) {
                let msg = subject("has successfully progressed.");
                self.rec.decide(
                    "syncRolloutStatus",
                    || format!(
                        "all {} replicas updated and available: Progressing=True NewReplicaSetAvailable",
                        d.spec.replicas
                    ),
                    &[],
                );
                util::set_deployment_condition(
                    &mut new_status,
                    util::new_deployment_condition(
                        condition::PROGRESSING,
                        ConditionStatus::True,
                        reason::NEW_RS_AVAILABLE,
                        msg,
                        now,
                    ),
                );
            } else if util::deployment_progressing(d, &new_status) {
                let msg = subject("is progressing.");
                let mut cond = util::new_deployment_condition(
                    condition::PROGRESSING,
                    ConditionStatus::True,
                    reason::REPLICA_SET_UPDATED,
                    msg,
                    now,
                );
                if let Some(current) = &current {
                    if current.status == ConditionStatus::True {
                        cond.last_transition_time = current.last_transition_time;
                    }
                    util::remove_deployment_condition(&mut new_status, condition::PROGRESSING);
                }
                self.rec.decide(
                    "syncRolloutStatus",
                    || "pods progressed since the last status: Progressing=True ReplicaSetUpdated (the progress deadline clock restarts)".to_string(),
                    &[],
                );
                util::set_deployment_condition(&mut new_status, cond);
            } else if util::deployment_timed_out(d, &new_status, now) {
                let msg = subject("has timed out progressing.");
                self.rec.decide(
                    "syncRolloutStatus",
                    || format!(
                        "no progress for more than progressDeadlineSeconds {}: Progressing=False ProgressDeadlineExceeded",
                        d.spec.progress_deadline_seconds.unwrap_or(0)
                    ),
                    &[],
                );
                util::set_deployment_condition(
                    &mut new_status,
                    util::new_deployment_condition(
                        condition::PROGRESSING,
                        ConditionStatus::False,
                        reason::TIMED_OUT,
                        msg,
                        now,
                    ),
                );
            }
        }
        match get_replica_failures(all_rss, new_rs).into_iter().next() {
            Some(c) => util::set_deployment_condition(&mut new_status, c),
            None => util::remove_deployment_condition(&mut new_status, condition::REPLICA_FAILURE),
        }
        if d.status == new_status {
            return Ok(());
        }
        d.status = new_status;
        self.api
            .update_deployment_status(d)
            .map(|_| ())
            .map_err(|e| e.message)
    }
}

/// `getReplicaFailures`: the new ReplicaSet's ReplicaFailure conditions, else every
/// ReplicaSet's.
fn get_replica_failures(
    all_rss: &[Arc<ReplicaSet>],
    new_rs: Option<&Arc<ReplicaSet>>,
) -> Vec<DeploymentCondition> {
    let failures = |rs: &ReplicaSet| {
        rs.status
            .conditions
            .iter()
            .filter(|c| c.type_ == condition::REPLICA_FAILURE)
            .map(util::replica_set_to_deployment_condition)
            .collect::<Vec<_>>()
    };
    if let Some(rs) = new_rs {
        let from_new = failures(rs);
        if !from_new.is_empty() {
            return from_new;
        }
    }
    all_rss.iter().flat_map(|rs| failures(rs)).collect()
}
