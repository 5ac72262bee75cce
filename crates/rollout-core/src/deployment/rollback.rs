//! `pkg/controller/deployment/rollback.go`: the legacy server-side rollback through the
//! `deprecated.deployment.rollback.to` annotation.

use super::sync::with_new;
use super::util::{self, reason};
use super::{DeploymentController, SyncResult};
use crate::api::{
    go_quote, Deployment, ReplicaSet, DEPRECATED_ROLLBACK_TO, POD_TEMPLATE_HASH_LABEL,
};
use std::sync::Arc;

/// `getRollbackTo`: the revision the annotation asks for (absent or malformed: none).
pub fn get_rollback_to(d: &Deployment) -> Option<i64> {
    d.metadata
        .annotations
        .get(DEPRECATED_ROLLBACK_TO)
        .filter(|v| !v.is_empty())
        .and_then(|v| v.parse::<i64>().ok())
}

impl DeploymentController<'_> {
    /// `rollback`: copy the template of the ReplicaSet with the requested revision (0 = the
    /// previous one) into the Deployment and clear the annotation.
    pub(crate) fn rollback(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
    ) -> SyncResult {
        self.rec.enter("rollback");
        let (new_rs, all_old) = self.get_all_replica_sets_and_sync_revision(d, rs_list, true)?;
        let all_rss = with_new(&all_old, new_rs.as_ref());
        let mut to_revision = get_rollback_to(d).unwrap_or(0);
        if to_revision == 0 {
            to_revision = util::last_revision(&all_rss);
            if to_revision == 0 {
                self.rec.decide(
                    "rollback",
                    || {
                        "rollback to revision 0 means the previous revision, and there is none"
                            .to_string()
                    },
                    &[],
                );
                self.event(
                    d,
                    "Warning",
                    reason::ROLLBACK_REVISION_NOT_FOUND,
                    "Unable to find last revision.".to_string(),
                );
                return self.update_deployment_and_clear_rollback_to(d);
            }
        }
        for rs in &all_rss {
            let Ok(v) = util::revision(rs) else { continue };
            if v == to_revision {
                let performed = self.rollback_to_template(d, rs)?;
                if performed {
                    self.event(
                        d,
                        "Normal",
                        reason::ROLLBACK_DONE,
                        format!(
                            "Rolled back deployment {} to revision {}",
                            go_quote(&d.metadata.name),
                            to_revision
                        ),
                    );
                }
                return Ok(());
            }
        }
        self.rec.decide(
            "rollback",
            || format!("no replica set has revision {to_revision}"),
            &[("revision", to_revision)],
        );
        self.event(
            d,
            "Warning",
            reason::ROLLBACK_REVISION_NOT_FOUND,
            "Unable to find the revision to rollback to.".to_string(),
        );
        self.update_deployment_and_clear_rollback_to(d)
    }

    /// `rollbackToTemplate`: whether the template changed.
    fn rollback_to_template(&mut self, d: &mut Deployment, rs: &ReplicaSet) -> SyncResult<bool> {
        let performed = if !d.spec.template.equal_ignore_hash(&rs.spec.template) {
            self.rec.decide(
                "rollbackToTemplate",
                || {
                    format!(
                        "copy the template of {} (image {}) into the deployment",
                        rs.metadata.name, rs.spec.template.image
                    )
                },
                &[],
            );
            d.spec.template = rs.spec.template.clone();
            d.spec.template.labels.remove(POD_TEMPLATE_HASH_LABEL);
            util::set_deployment_annotations_to(d, rs);
            true
        } else {
            self.rec.decide(
                "rollbackToTemplate",
                || {
                    format!(
                        "{} has the same template as the deployment, skip",
                        rs.metadata.name
                    )
                },
                &[],
            );
            self.event(
                d,
                "Warning",
                reason::ROLLBACK_TEMPLATE_UNCHANGED,
                format!(
                    "The rollback revision contains the same template as current deployment {}",
                    go_quote(&d.metadata.name)
                ),
            );
            false
        };
        self.update_deployment_and_clear_rollback_to(d)?;
        Ok(performed)
    }

    /// `updateDeploymentAndClearRollbackTo`.
    fn update_deployment_and_clear_rollback_to(&mut self, d: &mut Deployment) -> SyncResult {
        d.metadata.annotations.remove(DEPRECATED_ROLLBACK_TO);
        self.api
            .update_deployment(d)
            .map(|_| ())
            .map_err(|e| e.message)
    }
}
