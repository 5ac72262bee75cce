//! `pkg/controller/deployment`: the Deployment controller.
//!
//! `syncDeployment` ([`DeploymentController::sync_deployment`]) decides, for one Deployment,
//! which path to take: paused, rollback, scaling event, Recreate or RollingUpdate. The files
//! mirror Kubernetes': [`sync`] (scaling, new ReplicaSet, status), [`rolling`], [`recreate`],
//! [`rollback`], [`progress`] (conditions) and [`util`].

pub mod progress;
pub mod recreate;
pub mod rollback;
pub mod rolling;
pub mod sync;
pub mod util;

use crate::api::{Deployment, ReplicaSet};
use crate::record::Recorder;
use crate::store::ApiServer;
use crate::version::KubernetesVersion;
use std::sync::Arc;

/// The result of one sync: `Err` carries the message `syncDeployment` returned.
pub type SyncResult<T = ()> = Result<T, String>;

/// One run of the Deployment controller against the API server, recording what it does.
pub struct DeploymentController<'a> {
    pub(crate) api: &'a mut ApiServer,
    pub(crate) rec: &'a mut Recorder,
    /// The informer caches the sync reads (`dLister`, `rsLister`, `podLister`); `None`: it
    /// reads the API server itself, as in the conformance rounds.
    lister: Option<&'a ApiServer>,
    /// The release whose behaviour the sync follows (`status.terminatingReplicas` since 1.35).
    pub(crate) version: KubernetesVersion,
}

impl<'a> DeploymentController<'a> {
    /// A controller writing to `api` and recording into `rec`.
    pub fn new(api: &'a mut ApiServer, rec: &'a mut Recorder) -> Self {
        DeploymentController {
            api,
            rec,
            lister: None,
            version: KubernetesVersion::SCENARIO_DEFAULT,
        }
    }

    /// The same controller as Kubernetes `version` runs it (absent: 1.28).
    pub fn kubernetes(mut self, version: KubernetesVersion) -> Self {
        self.version = version;
        self
    }

    /// The same controller reading its Deployments, ReplicaSets and pods from `cache` (its
    /// informer caches in a race schedule) while it writes to the API server.
    pub fn with_lister(mut self, cache: &'a ApiServer) -> Self {
        self.lister = Some(cache);
        self
    }

    /// What the sync reads: its caches, or the API server when it has none.
    pub(crate) fn lister(&self) -> &ApiServer {
        match self.lister {
            Some(cache) => cache,
            None => &*self.api,
        }
    }

    pub(crate) fn now(&self) -> i64 {
        self.api.now()
    }

    pub(crate) fn event(
        &mut self,
        d: &Deployment,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) {
        let now = self.now();
        self.rec
            .event("Deployment", &d.metadata.name, type_, reason, message, now);
    }

    /// `syncDeployment`: reconcile one Deployment with what it sees in the API server just
    /// before the sync (the informer caches of the real controller).
    pub fn sync_deployment(&mut self, name: &str) -> SyncResult {
        self.rec.enter("syncDeployment");
        let Some(stored) = self.lister().deployment(name) else {
            return Ok(());
        };
        let mut d: Deployment = (**stored).clone();
        // The lister snapshot: ReplicaSets and pods as they are now.
        let mut rs_list: Vec<Arc<ReplicaSet>> = self.lister().replica_sets_of(&d);
        self.rec.decide(
            "getReplicaSetsForDeployment",
            || {
                format!(
                    "{} owns {} ReplicaSet{}",
                    d.metadata.name,
                    rs_list.len(),
                    if rs_list.len() == 1 { "" } else { "s" }
                )
            },
            &[("replicaSets", rs_list.len() as i64)],
        );

        self.check_paused_conditions(&mut d)?;

        self.rec
            .branch("deleting", d.metadata.deletion_timestamp.is_some(), || {
                "metadata.deletionTimestamp is not set".to_string()
            });
        self.rec.branch("paused", d.spec.paused, || {
            format!("spec.paused is {}", d.spec.paused)
        });
        if d.spec.paused {
            self.rec.decide(
                "syncDeployment",
                || "spec.paused is true, so only scale and sync status (sync)".to_string(),
                &[],
            );
            return self.sync(&mut d, &mut rs_list);
        }

        let rollback_to = rollback::get_rollback_to(&d);
        self.rec
            .branch("rollback", rollback_to.is_some(), || match rollback_to {
                Some(r) => format!("annotation deprecated.deployment.rollback.to = {r}"),
                None => "no deprecated.deployment.rollback.to annotation".to_string(),
            });
        if rollback_to.is_some() {
            self.rec.decide(
                "syncDeployment",
                || {
                    "the deprecated.deployment.rollback.to annotation is set, so roll back"
                        .to_string()
                },
                &[],
            );
            return self.rollback(&mut d, &mut rs_list);
        }

        if self.is_scaling_event(&mut d, &mut rs_list)? {
            return self.sync(&mut d, &mut rs_list);
        }

        self.rec
            .branch("recreate", !util::is_rolling_update(&d), || {
                format!("spec.strategy.type is {}", d.spec.strategy.type_name())
            });
        match d.spec.strategy {
            crate::api::DeploymentStrategy::Recreate => self.rollout_recreate(&mut d, &mut rs_list),
            crate::api::DeploymentStrategy::RollingUpdate { .. } => {
                self.rollout_rolling(&mut d, &mut rs_list)
            }
        }
    }
}
