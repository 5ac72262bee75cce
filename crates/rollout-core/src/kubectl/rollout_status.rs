//! `kubectl rollout status deployment/<name>`: what
//! `k8s.io/kubectl/pkg/polymorphichelpers.(*DeploymentStatusViewer).Status` says about one
//! state of a Deployment.

use crate::api::{go_quote, Deployment, REVISION_ANNOTATION};
use serde::{Deserialize, Serialize};

/// `deploymentutil.TimedOutReason`: the Progressing reason after the progress deadline.
const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";

/// One status condition as the status viewer sees it (it reads only type and reason).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCondition {
    /// `Available`, `Progressing` or `ReplicaFailure`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// e.g. `NewReplicaSetAvailable`.
    pub reason: String,
}

/// The parts of an apps/v1 Deployment the status viewer reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RolloutStatusInput {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.generation`.
    pub generation: i64,
    /// `status.observedGeneration`.
    pub observed_generation: i64,
    /// `spec.replicas` (`None` = unset).
    #[serde(default)]
    pub spec_replicas: Option<i32>,
    /// `status.replicas`.
    pub replicas: i32,
    /// `status.updatedReplicas`.
    pub updated_replicas: i32,
    /// `status.readyReplicas`.
    pub ready_replicas: i32,
    /// `status.availableReplicas`.
    pub available_replicas: i32,
    /// `status.unavailableReplicas`.
    pub unavailable_replicas: i32,
    /// `status.conditions` in stored order.
    #[serde(default)]
    pub conditions: Vec<StatusCondition>,
    /// The `deployment.kubernetes.io/revision` annotation, if present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_annotation: Option<String>,
}

impl From<&Deployment> for RolloutStatusInput {
    fn from(d: &Deployment) -> Self {
        RolloutStatusInput {
            name: d.metadata.name.clone(),
            generation: d.metadata.generation,
            observed_generation: d.status.observed_generation,
            spec_replicas: Some(d.spec.replicas),
            replicas: d.status.replicas,
            updated_replicas: d.status.updated_replicas,
            ready_replicas: d.status.ready_replicas,
            available_replicas: d.status.available_replicas,
            unavailable_replicas: d.status.unavailable_replicas,
            conditions: d
                .status
                .conditions
                .iter()
                .map(|c| StatusCondition {
                    type_: c.type_.clone(),
                    status: c.status.as_str().to_string(),
                    reason: c.reason.clone(),
                })
                .collect(),
            revision_annotation: d.metadata.annotations.get(REVISION_ANNOTATION).cloned(),
        }
    }
}

/// `Status`'s three results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RolloutStatus {
    /// What kubectl prints, with its trailing newline (empty when `error` is set).
    pub message: String,
    /// Whether the rollout is complete (kubectl stops watching and exits 0).
    pub done: bool,
    /// The error kubectl exits with (`err.Error()`), if any.
    pub error: Option<String>,
}

impl RolloutStatus {
    /// What the terminal shows: the status line, or kubectl's `error:` line when the viewer
    /// failed (a deadline exceeded: `error: deployment "web" exceeded its progress deadline`).
    pub fn text(&self) -> String {
        match &self.error {
            Some(e) => format!("{}\n", super::check_err::client_error(e)),
            None => self.message.clone(),
        }
    }

    fn waiting(message: String) -> Self {
        RolloutStatus {
            message,
            done: false,
            error: None,
        }
    }

    fn failed(error: String) -> Self {
        RolloutStatus {
            message: String::new(),
            done: false,
            error: Some(error),
        }
    }
}

/// Go's `strconv.ParseInt(s, 10, 64)`, with Go's error text
/// (`strconv.ParseInt: parsing "abc": invalid syntax`, `... value out of range`).
fn go_parse_int64(s: &str) -> Result<i64, String> {
    let fail = |why: &str| format!("strconv.ParseInt: parsing {}: {why}", go_quote(s));
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return Err(fail("invalid syntax"));
    }
    // ParseUint: digit by digit, so an overflow before a bad character is a range error.
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Err(fail("invalid syntax"));
        }
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
            .ok_or_else(|| fail("value out of range"))?;
    }
    const CUTOFF: u64 = 1 << 63;
    match (neg, n) {
        (false, n) if n < CUTOFF => Ok(n as i64),
        (true, n) if n <= CUTOFF => Ok((n as i64).wrapping_neg()),
        _ => Err(fail("value out of range")),
    }
}

/// `deploymentutil.Revision`: the revision annotation as an int64, 0 when absent.
fn revision_of(input: &RolloutStatusInput) -> Result<i64, String> {
    match &input.revision_annotation {
        None => Ok(0),
        Some(v) => go_parse_int64(v),
    }
}

/// `(*DeploymentStatusViewer).Status(obj, revision)`: `revision` is `--revision` (0 = any).
///
/// With a revision, the Deployment's revision annotation must equal it. Once the controller has
/// observed the current generation: a Progressing condition with reason
/// `ProgressDeadlineExceeded` is an error; then it waits for updated = spec replicas, for the old
/// replicas to go (replicas > updated) and for the updated ones to be available; otherwise the
/// rollout is done. Before that it waits for the spec update to be observed.
pub fn rollout_status(input: &RolloutStatusInput, revision: i64) -> RolloutStatus {
    let name = go_quote(&input.name);
    if revision > 0 {
        let running = match revision_of(input) {
            Ok(r) => r,
            Err(e) => {
                return RolloutStatus::failed(format!(
                    "cannot get the revision of deployment {name}: {e}"
                ))
            }
        };
        if revision != running {
            return RolloutStatus::failed(format!(
                "desired revision ({revision}) is different from the running revision ({running})"
            ));
        }
    }
    if input.generation > input.observed_generation {
        return RolloutStatus::waiting(
            "Waiting for deployment spec update to be observed...\n".to_string(),
        );
    }
    // deploymentutil.GetDeploymentCondition: the first condition of the type.
    let progressing = input.conditions.iter().find(|c| c.type_ == "Progressing");
    if progressing.is_some_and(|c| c.reason == TIMED_OUT_REASON) {
        return RolloutStatus::failed(format!("deployment {name} exceeded its progress deadline"));
    }
    if let Some(spec) = input.spec_replicas {
        if input.updated_replicas < spec {
            return RolloutStatus::waiting(format!(
                "Waiting for deployment {name} rollout to finish: {} out of {spec} new replicas have been updated...\n",
                input.updated_replicas
            ));
        }
    }
    if input.replicas > input.updated_replicas {
        return RolloutStatus::waiting(format!(
            "Waiting for deployment {name} rollout to finish: {} old replicas are pending termination...\n",
            i64::from(input.replicas) - i64::from(input.updated_replicas)
        ));
    }
    if input.available_replicas < input.updated_replicas {
        return RolloutStatus::waiting(format!(
            "Waiting for deployment {name} rollout to finish: {} of {} updated replicas are available...\n",
            input.available_replicas, input.updated_replicas
        ));
    }
    RolloutStatus {
        message: format!("deployment {name} successfully rolled out\n"),
        done: true,
        error: None,
    }
}

/// [`rollout_status`] of a Deployment object.
pub fn rollout_status_of(deployment: &Deployment, revision: i64) -> RolloutStatus {
    rollout_status(&RolloutStatusInput::from(deployment), revision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminal_shows_the_status_line_or_kubectls_error_line() {
        let waiting =
            RolloutStatus::waiting("Waiting for deployment \"web\" rollout to finish\n".into());
        assert_eq!(waiting.text(), waiting.message);
        let failed = RolloutStatus {
            message: String::new(),
            done: false,
            error: Some("deployment \"web\" exceeded its progress deadline".into()),
        };
        assert_eq!(
            failed.text(),
            "error: deployment \"web\" exceeded its progress deadline\n"
        );
    }

    fn state(spec: i32, replicas: i32, updated: i32, available: i32) -> RolloutStatusInput {
        RolloutStatusInput {
            name: "web".into(),
            generation: 2,
            observed_generation: 2,
            spec_replicas: Some(spec),
            replicas,
            updated_replicas: updated,
            ready_replicas: available,
            available_replicas: available,
            unavailable_replicas: 0,
            conditions: vec![StatusCondition {
                type_: "Progressing".into(),
                status: "True".into(),
                reason: "ReplicaSetUpdated".into(),
            }],
            revision_annotation: None,
        }
    }

    #[test]
    fn walks_through_a_rollout() {
        let s = rollout_status(&state(3, 3, 0, 3), 0);
        assert_eq!(
            s.message,
            "Waiting for deployment \"web\" rollout to finish: 0 out of 3 new replicas have been updated...\n"
        );
        assert!(!s.done);
        let s = rollout_status(&state(3, 5, 3, 3), 0);
        assert_eq!(
            s.message,
            "Waiting for deployment \"web\" rollout to finish: 2 old replicas are pending termination...\n"
        );
        let s = rollout_status(&state(3, 3, 3, 1), 0);
        assert_eq!(
            s.message,
            "Waiting for deployment \"web\" rollout to finish: 1 of 3 updated replicas are available...\n"
        );
        let s = rollout_status(&state(3, 3, 3, 3), 0);
        assert_eq!(s.message, "deployment \"web\" successfully rolled out\n");
        assert!(s.done && s.error.is_none());
    }

    #[test]
    fn generation_deadline_and_revision() {
        let mut st = state(3, 3, 3, 3);
        st.observed_generation = 1;
        assert_eq!(
            rollout_status(&st, 0).message,
            "Waiting for deployment spec update to be observed...\n"
        );
        st.observed_generation = 2;
        st.conditions[0].reason = "ProgressDeadlineExceeded".into();
        let s = rollout_status(&st, 0);
        assert_eq!(
            s.error.as_deref(),
            Some("deployment \"web\" exceeded its progress deadline")
        );
        assert_eq!((s.message.as_str(), s.done), ("", false));
        st.revision_annotation = Some("3".into());
        assert_eq!(
            rollout_status(&st, 2).error.as_deref(),
            Some("desired revision (2) is different from the running revision (3)")
        );
        st.revision_annotation = Some("abc".into());
        assert_eq!(
            rollout_status(&st, 1).error.as_deref(),
            Some("cannot get the revision of deployment \"web\": strconv.ParseInt: parsing \"abc\": invalid syntax")
        );
    }

    #[test]
    fn reads_a_deployment_object() {
        use crate::api::{
            ConditionStatus, DeploymentCondition, DeploymentSpec, DeploymentStatus,
            DeploymentStrategy, ObjectMeta, PodTemplate,
        };
        let d = Deployment {
            metadata: ObjectMeta {
                name: "api".into(),
                generation: 4,
                annotations: [(REVISION_ANNOTATION.to_string(), "2".to_string())].into(),
                ..Default::default()
            },
            spec: DeploymentSpec {
                replicas: 10,
                selector: Default::default(),
                template: PodTemplate::default(),
                strategy: DeploymentStrategy::default_rolling(),
                min_ready_seconds: 0,
                revision_history_limit: Some(10),
                progress_deadline_seconds: Some(600),
                paused: false,
            },
            status: DeploymentStatus {
                observed_generation: 4,
                replicas: 13,
                updated_replicas: 5,
                available_replicas: 8,
                conditions: vec![DeploymentCondition {
                    type_: "Progressing".into(),
                    status: ConditionStatus::True,
                    reason: "ReplicaSetUpdated".into(),
                    message: String::new(),
                    last_update_time: 0,
                    last_transition_time: 0,
                }],
                ..Default::default()
            },
        };
        let input = RolloutStatusInput::from(&d);
        assert_eq!(input.spec_replicas, Some(10));
        assert_eq!(input.revision_annotation.as_deref(), Some("2"));
        assert_eq!(input.conditions[0].status, "True");
        assert_eq!(
            rollout_status_of(&d, 2).message,
            "Waiting for deployment \"api\" rollout to finish: 5 out of 10 new replicas have been updated...\n"
        );
    }

    #[test]
    fn parse_int_matches_go() {
        assert_eq!(go_parse_int64("+7"), Ok(7));
        assert_eq!(go_parse_int64("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(
            go_parse_int64("9223372036854775808"),
            Err("strconv.ParseInt: parsing \"9223372036854775808\": value out of range".into())
        );
        assert_eq!(
            go_parse_int64("99999999999999999999x"),
            Err("strconv.ParseInt: parsing \"99999999999999999999x\": value out of range".into())
        );
        assert_eq!(
            go_parse_int64(""),
            Err("strconv.ParseInt: parsing \"\": invalid syntax".into())
        );
    }
}
