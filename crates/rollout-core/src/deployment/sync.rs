//! `pkg/controller/deployment/sync.go`: finding or creating the new ReplicaSet, scaling
//! (including proportional scaling), history clean-up and the Deployment status.

use super::util::{self, condition, reason};
use super::{DeploymentController, SyncResult};
use crate::api::{
    go_quote, ConditionStatus, Deployment, DeploymentStatus, ObjectMeta, OwnerReference,
    ReplicaSet, ReplicaSetSpec, ReplicaSetStatus, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION,
};
use crate::version::KubernetesVersion;
use std::sync::Arc;

/// `maxRevHistoryLengthInChars`.
const MAX_REV_HISTORY_LENGTH_IN_CHARS: usize = 2000;

/// The new ReplicaSet (if any) and all the old ones.
pub type NewAndOld = (Option<Arc<ReplicaSet>>, Vec<Arc<ReplicaSet>>);

/// `controller.ComputeHash`: a short, stable hash of the pod template (FNV-1a over the
/// template and the collision count, encoded with Kubernetes' safe alphabet). Kubernetes
/// hashes the whole Go object, so the value differs from a real cluster's, but it plays the
/// same role: the `pod-template-hash` label.
pub fn compute_hash(d: &Deployment) -> String {
    let mut h: u32 = 0x811c_9dc5;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h ^= u32::from(*b);
            h = h.wrapping_mul(0x0100_0193);
        }
    };
    for (k, v) in &d.spec.template.labels {
        feed(k.as_bytes());
        feed(b"=");
        feed(v.as_bytes());
        feed(b";");
    }
    feed(d.spec.template.image.as_bytes());
    if let Some(c) = d.status.collision_count {
        feed(&c.to_le_bytes());
    }
    safe_encode(&h.to_string())
}

/// `rand.SafeEncodeString`: maps digits onto consonants and digits that cannot spell words.
fn safe_encode(s: &str) -> String {
    const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    s.bytes()
        .map(|b| ALPHANUMS[usize::from(b) % ALPHANUMS.len()] as char)
        .collect()
}

impl DeploymentController<'_> {
    /// `sync`: scale ReplicaSets for a scaling event or a paused Deployment, clean up history
    /// when paused, then sync the status.
    pub(crate) fn sync(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
    ) -> SyncResult {
        self.rec.enter("sync");
        let (new_rs, mut old_rss) =
            self.get_all_replica_sets_and_sync_revision(d, rs_list, false)?;
        self.scale(d, new_rs.as_ref(), &mut old_rss)?;
        if d.spec.paused && super::rollback::get_rollback_to(d).is_none() {
            self.cleanup_deployment(&old_rss, d)?;
        }
        let all_rss = with_new(&old_rss, new_rs.as_ref());
        self.sync_deployment_status(&all_rss, new_rs.as_ref(), d)
    }

    /// `checkPausedConditions`: Progressing=Unknown `DeploymentPaused` / `DeploymentResumed`.
    pub(crate) fn check_paused_conditions(&mut self, d: &mut Deployment) -> SyncResult {
        if !util::has_progress_deadline(d) {
            return Ok(());
        }
        let cond = util::get_deployment_condition(&d.status, condition::PROGRESSING);
        if cond.is_some_and(|c| c.reason == reason::TIMED_OUT) {
            return Ok(());
        }
        let paused_cond_exists = cond.is_some_and(|c| c.reason == reason::PAUSED);
        let now = self.now();
        let condition = if d.spec.paused && !paused_cond_exists {
            util::new_deployment_condition(
                condition::PROGRESSING,
                ConditionStatus::Unknown,
                reason::PAUSED,
                "Deployment is paused",
                now,
            )
        } else if !d.spec.paused && paused_cond_exists {
            util::new_deployment_condition(
                condition::PROGRESSING,
                ConditionStatus::Unknown,
                reason::RESUMED,
                "Deployment is resumed",
                now,
            )
        } else {
            return Ok(());
        };
        self.rec.enter("checkPausedConditions");
        self.rec.decide(
            "checkPausedConditions",
            || {
                format!(
                    "spec.paused is {}, so set Progressing=Unknown {}",
                    d.spec.paused, condition.reason
                )
            },
            &[],
        );
        util::set_deployment_condition(&mut d.status, condition);
        self.api
            .update_deployment_status(d)
            .map(|_| ())
            .map_err(|e| e.message)
    }

    /// `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when asked and
    /// missing) and all the old ones, with the revision annotations brought up to date.
    pub(crate) fn get_all_replica_sets_and_sync_revision(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
        create_if_not_existed: bool,
    ) -> SyncResult<NewAndOld> {
        let all_old = util::find_old_replica_sets(d, rs_list);
        let new_rs = self.get_new_replica_set(d, rs_list, &all_old, create_if_not_existed)?;
        Ok((new_rs, all_old))
    }

    /// `getNewReplicaSet`: the ReplicaSet whose template matches the Deployment's, its
    /// revision raised above every old one; created (at the size `NewRSNewReplicas` allows)
    /// when `create_if_not_existed`.
    fn get_new_replica_set(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
        old_rss: &[Arc<ReplicaSet>],
        create_if_not_existed: bool,
    ) -> SyncResult<Option<Arc<ReplicaSet>>> {
        let existing = util::find_new_replica_set(d, rs_list);
        let max_old_revision = util::max_revision(old_rss);
        let new_revision = (max_old_revision + 1).to_string();
        let now = self.now();

        if let Some(existing) = existing {
            let mut rs_copy = (*existing).clone();
            let annotations_updated = util::set_new_replica_set_annotations(
                d,
                &mut rs_copy,
                &new_revision,
                true,
                MAX_REV_HISTORY_LENGTH_IN_CHARS,
            );
            let min_ready_needs_update = rs_copy.spec.min_ready_seconds != d.spec.min_ready_seconds;
            if annotations_updated || min_ready_needs_update {
                rs_copy.spec.min_ready_seconds = d.spec.min_ready_seconds;
                self.rec.decide(
                    "getNewReplicaSet",
                    || format!(
                        "found new replica set {}; bring its annotations (revision {}) and minReadySeconds up to date",
                        rs_copy.metadata.name,
                        rs_copy
                            .metadata
                            .annotations
                            .get(REVISION_ANNOTATION)
                            .map(String::as_str)
                            .unwrap_or("")
                    ),
                    &[],
                );
                return self
                    .api
                    .update_replica_set(&rs_copy)
                    .map(Some)
                    .map_err(|e| e.message);
            }
            let rs_revision = rs_copy
                .metadata
                .annotations
                .get(REVISION_ANNOTATION)
                .cloned()
                .unwrap_or_default();
            let mut needs_update = util::set_deployment_revision(d, &rs_revision);
            if util::has_progress_deadline(d)
                && util::get_deployment_condition(&d.status, condition::PROGRESSING).is_none()
            {
                let msg = format!("Found new replica set {}", go_quote(&rs_copy.metadata.name));
                util::set_deployment_condition(
                    &mut d.status,
                    util::new_deployment_condition(
                        condition::PROGRESSING,
                        ConditionStatus::True,
                        reason::FOUND_NEW_RS,
                        msg,
                        now,
                    ),
                );
                needs_update = true;
            }
            if needs_update {
                self.api
                    .update_deployment_status(d)
                    .map_err(|e| e.message)?;
            }
            return Ok(Some(Arc::new(rs_copy)));
        }

        if !create_if_not_existed {
            return Ok(None);
        }

        // A new ReplicaSet for the template.
        let hash = compute_hash(d);
        let mut template = d.spec.template.clone();
        template
            .labels
            .insert(POD_TEMPLATE_HASH_LABEL.to_string(), hash.clone());
        let mut selector = d.spec.selector.clone();
        selector.insert(POD_TEMPLATE_HASH_LABEL.to_string(), hash);
        let mut new_rs = ReplicaSet {
            metadata: ObjectMeta {
                // Named by the revision it is created for: the conformance traces' normalised
                // name (a real cluster appends the pod-template-hash instead).
                name: format!("{}-rev{}", d.metadata.name, new_revision),
                labels: template.labels.clone(),
                owner: Some(OwnerReference {
                    kind: "Deployment".to_string(),
                    name: d.metadata.name.clone(),
                    uid: d.metadata.uid,
                }),
                ..Default::default()
            },
            spec: ReplicaSetSpec {
                replicas: 0,
                min_ready_seconds: d.spec.min_ready_seconds,
                selector,
                template,
            },
            status: ReplicaSetStatus::default(),
        };
        let mut all_rss: Vec<Arc<ReplicaSet>> = old_rss.to_vec();
        all_rss.push(Arc::new(new_rs.clone()));
        let arithmetic = util::new_rs_new_replicas(d, &all_rss, &new_rs)?;
        let new_replicas_count = arithmetic.new_replicas;
        new_rs.spec.replicas = new_replicas_count;
        util::set_new_replica_set_annotations(
            d,
            &mut new_rs,
            &new_revision,
            false,
            MAX_REV_HISTORY_LENGTH_IN_CHARS,
        );
        self.rec.enter("getNewReplicaSet");
        self.rec.decide(
            "getNewReplicaSet",
            || if util::is_rolling_update(d) {
                format!(
                    "no ReplicaSet matches the template, so create {} (revision {}) with NewRSNewReplicas: maxTotalPods = {} + {} = {}, current {}, so start at {}",
                    new_rs.metadata.name,
                    new_revision,
                    d.spec.replicas,
                    util::max_surge(d),
                    arithmetic.max_total_pods,
                    arithmetic.current_pod_count,
                    new_replicas_count
                )
            } else {
                format!(
                    "no ReplicaSet matches the template, so create {} (revision {}) at {} replicas",
                    new_rs.metadata.name, new_revision, new_replicas_count
                )
            },
            &[
                ("maxTotalPods", i64::from(arithmetic.max_total_pods)),
                ("currentPodCount", i64::from(arithmetic.current_pod_count)),
                ("newReplicas", i64::from(new_replicas_count)),
            ],
        );
        let mut already_exists = false;
        let created = match self.api.create_replica_set(new_rs.clone()) {
            Ok(rs) => rs,
            // A slow cache (a race schedule): the ReplicaSet was created by an earlier sync
            // whose write this sync's cache has not seen yet.
            Err(err) if err.is_already_exists() => {
                already_exists = true;
                self.already_existing_replica_set(d, &new_rs.metadata.name, err.message)?
            }
            Err(err) => {
                let msg = format!(
                    "Failed to create new replica set {}: {}",
                    go_quote(&new_rs.metadata.name),
                    err.message
                );
                if util::has_progress_deadline(d) {
                    util::set_deployment_condition(
                        &mut d.status,
                        util::new_deployment_condition(
                            condition::PROGRESSING,
                            ConditionStatus::False,
                            reason::FAILED_RS_CREATE,
                            msg.clone(),
                            now,
                        ),
                    );
                    let _ = self.api.update_deployment_status(d);
                }
                self.event(d, "Warning", reason::FAILED_RS_CREATE, msg);
                return Err(err.message);
            }
        };
        if !already_exists && new_replicas_count > 0 {
            self.event(
                d,
                "Normal",
                "ScalingReplicaSet",
                format!(
                    "Scaled up replica set {} to {}",
                    created.metadata.name, new_replicas_count
                ),
            );
        }
        let mut needs_update = util::set_deployment_revision(d, &new_revision);
        if !already_exists && util::has_progress_deadline(d) {
            let msg = format!(
                "Created new replica set {}",
                go_quote(&created.metadata.name)
            );
            util::set_deployment_condition(
                &mut d.status,
                util::new_deployment_condition(
                    condition::PROGRESSING,
                    ConditionStatus::True,
                    reason::NEW_REPLICA_SET,
                    msg,
                    now,
                ),
            );
            needs_update = true;
        }
        if needs_update {
            self.api
                .update_deployment_status(d)
                .map_err(|e| e.message)?;
        }
        Ok(Some(created))
    }

    /// `getNewReplicaSet` when its create was refused as AlreadyExists: the ReplicaSet of
    /// that name in the cache (`rsLister.Get`; `replicaset.apps "NAME" not found` when the
    /// cache has not seen it), taken as the new ReplicaSet when the Deployment owns it and its
    /// template matches; otherwise a hash collision: `collisionCount` + 1 is written (its
    /// result discarded) and the create's error returned.
    fn already_existing_replica_set(
        &mut self,
        d: &mut Deployment,
        name: &str,
        create_error: String,
    ) -> SyncResult<Arc<ReplicaSet>> {
        let Some(rs) = self.lister().replica_set(name).cloned() else {
            return Err(format!("replicaset.apps {} not found", go_quote(name)));
        };
        let owned = rs
            .metadata
            .owner
            .as_ref()
            .is_some_and(|o| o.uid == d.metadata.uid);
        if owned && rs.spec.template.equal_ignore_hash(&d.spec.template) {
            return Ok(rs);
        }
        d.status.collision_count = Some(d.status.collision_count.unwrap_or(0) + 1);
        let _ = self.api.update_deployment_status(d);
        Err(create_error)
    }

    /// `scale`: bring the ReplicaSets to the Deployment's new size. One active ReplicaSet
    /// takes it all; a saturated new ReplicaSet sends the old ones to 0; otherwise (rolling)
    /// the difference to replicas + maxSurge is shared in proportion to `max-replicas`.
    ///
    /// Worked example: 10 replicas, maxSurge 3 (a number), mid-rollout with an old
    /// ReplicaSet of 8 and a new one of 5, both annotated max-replicas 13.
    /// * Scaled to 20: 20 + 3 = 23 allowed, so 10 to add, larger ReplicaSet first. The old
    ///   one takes round(8 × 23 / 13) − 8 = round(14.15) − 8 = 6, the new one
    ///   round(5 × 23 / 13) − 5 = round(8.85) − 5 = 4 (and no more than the 10 − 6 = 4 left):
    ///   14 and 9.
    /// * Scaled to 5 instead: 5 + 3 = 8 allowed, so 5 to remove, larger (then older) first:
    ///   round(8 × 8 / 13) − 8 = round(4.92) − 8 = −3 and round(5 × 8 / 13) − 5 =
    ///   round(3.08) − 5 = −2: 5 and 3.
    /// * Rounding can leave some over: ReplicaSets of 5, 4 and 4 (max-replicas 13) scaled
    ///   to 11 may have 14, so 1 to add, but every share rounds to 0 (5 × 14 / 13 = 5.38,
    ///   4 × 14 / 13 = 4.31); the leftover 1 goes to the first in the loop, the 5: 6, 4, 4.
    pub(crate) fn scale(
        &mut self,
        d: &Deployment,
        new_rs: Option<&Arc<ReplicaSet>>,
        old_rss: &mut [Arc<ReplicaSet>],
    ) -> SyncResult {
        self.rec.enter("scale");
        if let Some(active_or_latest) = util::find_active_or_latest(new_rs, old_rss) {
            if active_or_latest.spec.replicas == d.spec.replicas {
                self.rec.decide(
                    "scale",
                    || {
                        format!(
                            "{} is the only active ReplicaSet and already has {} replicas",
                            active_or_latest.metadata.name, d.spec.replicas
                        )
                    },
                    &[],
                );
                return Ok(());
            }
            self.rec.decide(
                "scale",
                || {
                    format!(
                        "{} is the only active ReplicaSet, so it takes spec.replicas: {} → {}",
                        active_or_latest.metadata.name,
                        active_or_latest.spec.replicas,
                        d.spec.replicas
                    )
                },
                &[
                    ("from", i64::from(active_or_latest.spec.replicas)),
                    ("to", i64::from(d.spec.replicas)),
                ],
            );
            self.scale_replica_set_and_record_event(&active_or_latest, d.spec.replicas, d)?;
            return Ok(());
        }

        if util::is_saturated(d, new_rs.map(|rs| &**rs)) {
            self.rec.decide(
                "scale",
                || format!(
                    "the new ReplicaSet is saturated ({} replicas, all available), so scale every old one to 0",
                    d.spec.replicas
                ),
                &[],
            );
            for old in util::filter_active_replica_sets(old_rss) {
                self.scale_replica_set_and_record_event(&old, 0, d)?;
            }
            return Ok(());
        }

        if util::is_rolling_update(d) {
            let mut all_rss = util::filter_active_replica_sets(&with_new(old_rss, new_rs));
            let all_rss_replicas = util::get_replica_count_for_replica_sets(&all_rss);
            let max_surge = util::max_surge(d);
            let allowed_size = if d.spec.replicas > 0 {
                d.spec.replicas + max_surge
            } else {
                0
            };
            let to_add = allowed_size - all_rss_replicas;
            let operation = if to_add > 0 {
                util::sort_replica_sets(&mut all_rss, util::by_size_newer);
                "up"
            } else if to_add < 0 {
                util::sort_replica_sets(&mut all_rss, util::by_size_older);
                "down"
            } else {
                ""
            };
            let mut added = 0;
            let mut sizes: Vec<i32> = Vec::with_capacity(all_rss.len());
            let mut shares = Vec::new();
            for rs in &all_rss {
                if to_add != 0 {
                    let proportion = util::get_proportion(rs, d, to_add, added);
                    sizes.push(rs.spec.replicas + proportion);
                    added += proportion;
                    shares.push(format!("{} {:+}", rs.metadata.name, proportion));
                } else {
                    sizes.push(rs.spec.replicas);
                }
            }
            let leftover = to_add - added;
            self.rec.decide(
                "scale",
                || format!(
                    "proportional scaling: allowed = {} + {} = {}, ReplicaSets have {}, so add {}; shares by max-replicas: {}{}",
                    d.spec.replicas,
                    max_surge,
                    allowed_size,
                    all_rss_replicas,
                    to_add,
                    if shares.is_empty() { "none".to_string() } else { shares.join(", ") },
                    // The leftover goes to the first ReplicaSet in the loop; with no active
                    // ReplicaSet (all scaled to 0) the loop is empty and nothing is scaled.
                    match all_rss.first() {
                        Some(first) if to_add != 0 && leftover != 0 => {
                            format!("; leftover {leftover:+} to {}", first.metadata.name)
                        }
                        _ => String::new(),
                    }
                ),
                &[
                    ("allowedSize", i64::from(allowed_size)),
                    ("allRSsReplicas", i64::from(all_rss_replicas)),
                    ("deploymentReplicasToAdd", i64::from(to_add)),
                    ("deploymentReplicasAdded", i64::from(added)),
                ],
            );
            for (i, rs) in all_rss.iter().enumerate() {
                let mut size = sizes[i];
                if i == 0 && to_add != 0 {
                    size = (size + leftover).max(0);
                }
                self.scale_replica_set(rs, size, d, operation)?;
            }
        }
        Ok(())
    }

    /// `scaleReplicaSetAndRecordEvent`: scale when the size differs.
    pub(crate) fn scale_replica_set_and_record_event(
        &mut self,
        rs: &Arc<ReplicaSet>,
        new_scale: i32,
        d: &Deployment,
    ) -> SyncResult<(bool, Arc<ReplicaSet>)> {
        if rs.spec.replicas == new_scale {
            return Ok((false, Arc::clone(rs)));
        }
        let operation = if rs.spec.replicas < new_scale {
            "up"
        } else {
            "down"
        };
        self.scale_replica_set(rs, new_scale, d, operation)
    }

    /// `scaleReplicaSet`: write the new size and the desired/max-replicas annotations; an
    /// event when the size changed.
    pub(crate) fn scale_replica_set(
        &mut self,
        rs: &Arc<ReplicaSet>,
        new_scale: i32,
        d: &Deployment,
        operation: &str,
    ) -> SyncResult<(bool, Arc<ReplicaSet>)> {
        let size_needs_update = rs.spec.replicas != new_scale;
        let max = d.spec.replicas + util::max_surge(d);
        let annotations_need_update =
            util::replicas_annotations_need_update(rs, d.spec.replicas, max);
        if !(size_needs_update || annotations_need_update) {
            return Ok((false, Arc::clone(rs)));
        }
        let old_scale = rs.spec.replicas;
        let mut copy = (**rs).clone();
        copy.spec.replicas = new_scale;
        util::set_replicas_annotations(&mut copy, d.spec.replicas, max);
        let updated = self.api.update_replica_set(&copy).map_err(|e| e.message)?;
        if size_needs_update {
            self.event(
                d,
                "Normal",
                "ScalingReplicaSet",
                format!(
                    "Scaled {operation} replica set {} to {new_scale} from {old_scale}",
                    updated.metadata.name
                ),
            );
        }
        Ok((size_needs_update, updated))
    }

    /// `cleanupDeployment`: delete the oldest fully scaled-down ReplicaSets beyond
    /// revisionHistoryLimit.
    pub(crate) fn cleanup_deployment(
        &mut self,
        old_rss: &[Arc<ReplicaSet>],
        d: &Deployment,
    ) -> SyncResult {
        if !util::has_revision_history_limit(d) {
            return Ok(());
        }
        let mut cleanable: Vec<Arc<ReplicaSet>> = old_rss
            .iter()
            .filter(|rs| rs.metadata.deletion_timestamp.is_none())
            .cloned()
            .collect();
        let limit = d.spec.revision_history_limit.unwrap_or(0);
        let diff = cleanable.len() as i64 - i64::from(limit);
        if diff <= 0 {
            return Ok(());
        }
        self.rec.enter("cleanupDeployment");
        util::sort_replica_sets(&mut cleanable, util::by_revision);
        for rs in cleanable.iter().take(diff as usize) {
            if rs.status.replicas != 0
                || rs.spec.replicas != 0
                || rs.metadata.generation > rs.status.observed_generation
                || rs.metadata.deletion_timestamp.is_some()
            {
                continue;
            }
            self.rec.decide(
                "cleanupDeployment",
                || {
                    format!(
                    "{} old ReplicaSets exceed revisionHistoryLimit {}, so delete {} (revision {})",
                    cleanable.len(),
                    limit,
                    rs.metadata.name,
                    util::revision(rs).unwrap_or(0)
                )
                },
                &[("revisionHistoryLimit", i64::from(limit))],
            );
            match self.api.delete_replica_set(&rs.metadata.name) {
                Ok(()) => {}
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e.message),
            }
        }
        Ok(())
    }

    /// `syncDeploymentStatus`: write the status `calculateStatus` gives, when it changed.
    pub(crate) fn sync_deployment_status(
        &mut self,
        all_rss: &[Arc<ReplicaSet>],
        new_rs: Option<&Arc<ReplicaSet>>,
        d: &mut Deployment,
    ) -> SyncResult {
        self.rec.enter("syncDeploymentStatus");
        let new_status = calculate_status(all_rss, new_rs, d, self.now(), self.version);
        if d.status == new_status {
            return Ok(());
        }
        d.status = new_status;
        self.api
            .update_deployment_status(d)
            .map(|_| ())
            .map_err(|e| e.message)
    }

    /// `isScalingEvent`: some active ReplicaSet's desired-replicas annotation differs from
    /// spec.replicas.
    pub(crate) fn is_scaling_event(
        &mut self,
        d: &mut Deployment,
        rs_list: &mut [Arc<ReplicaSet>],
    ) -> SyncResult<bool> {
        let (new_rs, old_rss) = self.get_all_replica_sets_and_sync_revision(d, rs_list, false)?;
        let all = with_new(&old_rss, new_rs.as_ref());
        for rs in util::filter_active_replica_sets(&all) {
            let Some(desired) = util::get_desired_replicas_annotation(&rs) else {
                continue;
            };
            if desired != d.spec.replicas {
                self.rec.branch("scaling-event", true, || {
                    format!(
                        "isScalingEvent: {} desired-replicas annotation {} ≠ spec.replicas {}",
                        rs.metadata.name, desired, d.spec.replicas
                    )
                });
                self.rec.decide(
                    "isScalingEvent",
                    || {
                        format!(
                        "scaling event: {} has desired-replicas annotation {} ≠ spec.replicas {}",
                        rs.metadata.name, desired, d.spec.replicas
                    )
                    },
                    &[
                        ("desiredReplicasAnnotation", i64::from(desired)),
                        ("specReplicas", i64::from(d.spec.replicas)),
                    ],
                );
                return Ok(true);
            }
        }
        self.rec.branch(
            "scaling-event",
            false,
            || format!(
                "isScalingEvent: every active ReplicaSet's desired-replicas annotation = spec.replicas {}",
                d.spec.replicas
            ),
        );
        self.rec.decide(
            "isScalingEvent",
            || {
                format!(
                "not a scaling event: every active ReplicaSet's desired-replicas annotation is {}",
                d.spec.replicas
            )
            },
            &[("specReplicas", i64::from(d.spec.replicas))],
        );
        Ok(false)
    }
}

/// `append(oldRSs, newRS)`.
pub(crate) fn with_new(
    old_rss: &[Arc<ReplicaSet>],
    new_rs: Option<&Arc<ReplicaSet>>,
) -> Vec<Arc<ReplicaSet>> {
    let mut all = old_rss.to_vec();
    if let Some(n) = new_rs {
        all.push(Arc::clone(n));
    }
    all
}

/// `calculateStatus`: the Deployment status from its ReplicaSets, with the Available
/// condition set from minAvailable. Since 1.35 (`version` 1.37; 1.37's `sync.go`
/// `calculateStatus`) it also sums their `terminatingReplicas`
/// ([`util::get_terminating_replica_count_for_replica_sets`]); the rolling-update arithmetic
/// does not read it (KEP-3973's non-goal).
pub fn calculate_status(
    all_rss: &[Arc<ReplicaSet>],
    new_rs: Option<&Arc<ReplicaSet>>,
    d: &Deployment,
    now: i64,
    version: KubernetesVersion,
) -> DeploymentStatus {
    let available = util::get_available_replica_count_for_replica_sets(all_rss);
    let total = util::get_replica_count_for_replica_sets(all_rss);
    let unavailable = (total - available).max(0);
    let mut status = DeploymentStatus {
        observed_generation: d.metadata.generation,
        replicas: util::get_actual_replica_count_for_replica_sets(all_rss),
        updated_replicas: util::get_actual_replica_count_for_replica_sets(new_rs),
        ready_replicas: util::get_ready_replica_count_for_replica_sets(all_rss),
        available_replicas: available,
        unavailable_replicas: unavailable,
        terminating_replicas: if version.reports_terminating_replicas() {
            util::get_terminating_replica_count_for_replica_sets(all_rss)
        } else {
            None
        },
        collision_count: d.status.collision_count,
        conditions: d.status.conditions.clone(),
    };
    let condition = if available >= d.spec.replicas - util::max_unavailable(d) {
        util::new_deployment_condition(
            condition::AVAILABLE,
            ConditionStatus::True,
            reason::MINIMUM_REPLICAS_AVAILABLE,
            "Deployment has minimum availability.",
            now,
        )
    } else {
        util::new_deployment_condition(
            condition::AVAILABLE,
            ConditionStatus::False,
            reason::MINIMUM_REPLICAS_UNAVAILABLE,
            "Deployment does not have minimum availability.",
            now,
        )
    };
    util::set_deployment_condition(&mut status, condition);
    status
}
