//! `kubectl rollout undo [--to-revision=N]` (kubectl's `DeploymentRollbacker`): a client-side
//! rollback that copies an old ReplicaSet's template into the Deployment, so the controller
//! sees an ordinary template change.

use crate::api::{equal_ignore_hash_templates, PodTemplate};
use crate::deployment::util;
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};

/// What `kubectl rollout undo` would do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UndoPlan {
    /// What kubectl prints, e.g. `deployment.apps/web rolled back`.
    pub message: String,
    /// The template to write into the Deployment (`None`: skipped, nothing to change).
    pub template: Option<PodTemplate>,
}

/// Plans `kubectl rollout undo deployment/<name> --to-revision=<to_revision>` (0 = the
/// previous revision) against the API server's current objects. `Err` is kubectl's error
/// message (printed after `error: `).
pub fn rollout_undo(api: &ApiServer, name: &str, to_revision: i64) -> Result<UndoPlan, String> {
    if to_revision < 0 {
        return Err(revision_not_found(to_revision));
    }
    let d = api.deployment(name).ok_or_else(|| {
        format!("failed to retrieve Deployment {name}: deployments.apps \"{name}\" not found")
    })?;
    let all = api.replica_sets_of(d);
    let mut latest: Option<(i64, usize)> = None;
    let mut previous: Option<(i64, usize)> = None;
    let mut chosen = None;
    for (i, rs) in all.iter().enumerate() {
        let Ok(v) = util::revision(rs) else { continue };
        if to_revision == 0 {
            if latest.is_none_or(|(l, _)| l < v) {
                previous = latest;
                latest = Some((v, i));
            } else if previous.is_none_or(|(p, _)| p < v) {
                previous = Some((v, i));
            }
        } else if to_revision == v {
            chosen = Some(i);
            break;
        }
    }
    let index = match (to_revision, chosen, previous) {
        (0, _, Some((_, i))) => i,
        (0, _, None) => {
            return Err(format!(
                "no rollout history found for deployment \"{name}\""
            ))
        }
        (_, Some(i), _) => i,
        _ => return Err(revision_not_found(to_revision)),
    };
    let rs = &all[index];
    if d.spec.paused {
        return Err("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".to_string());
    }
    if equal_ignore_hash_templates(&rs.spec.template, &d.spec.template) {
        return Ok(UndoPlan {
            message: format!(
                // kubectl prints the flag's value: 0 for "the previous revision".
                "deployment.apps/{name} skipped rollback (current template already matches revision {to_revision})"
            ),
            template: None,
        });
    }
    let mut template = rs.spec.template.clone();
    template.labels.remove(crate::api::POD_TEMPLATE_HASH_LABEL);
    Ok(UndoPlan {
        message: format!("deployment.apps/{name} rolled back"),
        template: Some(template),
    })
}

fn revision_not_found(revision: i64) -> String {
    format!("unable to find specified revision {revision} in history")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::sim::Simulation;

    fn sim_after(actions: &str, rounds: u32) -> Simulation {
        let s = Scenario::from_json(&format!(
            r#"{{"rounds":{rounds},"actions":[{{"round":0,"type":"create",
            "deployment":{{"name":"web","replicas":2,"image":"v1"}}}}{actions}]}}"#
        ))
        .unwrap();
        let mut sim = Simulation::new(s).without_history();
        sim.run();
        sim
    }

    #[test]
    fn undo_goes_back_to_the_previous_template() {
        let sim = sim_after(r#",{"round":2,"type":"setImage","image":"v2"}"#, 8);
        let plan = rollout_undo(sim.api(), "web", 0).unwrap();
        assert_eq!(plan.message, "deployment.apps/web rolled back");
        assert_eq!(plan.template.unwrap().image, "v1");
        let skipped = rollout_undo(sim.api(), "web", 2).unwrap();
        assert_eq!(
            skipped.message,
            "deployment.apps/web skipped rollback (current template already matches revision 2)"
        );
        assert_eq!(
            rollout_undo(sim.api(), "web", 7).unwrap_err(),
            "unable to find specified revision 7 in history"
        );
    }

    #[test]
    fn undo_is_refused_while_paused_and_without_history() {
        let sim = sim_after("", 3);
        assert_eq!(
            rollout_undo(sim.api(), "web", 0).unwrap_err(),
            "no rollout history found for deployment \"web\""
        );
        let sim = sim_after(
            r#",{"round":1,"type":"setImage","image":"v2"},{"round":2,"type":"pause"}"#,
            4,
        );
        assert!(rollout_undo(sim.api(), "web", 1)
            .unwrap_err()
            .starts_with("you cannot rollback a paused deployment"));
    }
}
