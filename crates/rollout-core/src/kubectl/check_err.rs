//! How kubectl prints an error before it exits (`cmdutil.CheckErr` in
//! `k8s.io/kubectl/pkg/cmd/util/helpers.go`): a validation refusal as `The Deployment "web" is
//! invalid: …`, any other API status as `Error from server (<Reason>): …`, and kubectl's own
//! errors with an `error: ` prefix.

use crate::api::go_quote;
use crate::validation::ValidationOutcome;

/// The `metav1.StatusReason` of an HTTP status code the simulated API server returns.
pub fn status_reason(code: u16) -> &'static str {
    match code {
        403 => "Forbidden",
        404 => "NotFound",
        409 => "AlreadyExists",
        422 => "Invalid",
        _ => "InternalError",
    }
}

/// A StatusError other than Invalid: `Error from server (NotFound): deployments.apps "web"
/// not found`.
pub fn server_error(code: u16, message: &str) -> String {
    format!("Error from server ({}): {message}", status_reason(code))
}

/// A `NotFound` for `resource` (e.g. `deployments.apps`, `pods`, `resourcequotas`).
pub fn not_found(resource: &str, name: &str) -> String {
    server_error(404, &format!("{resource} {} not found", go_quote(name)))
}

/// An error of kubectl itself (a bad flag, `rollout undo` finding no revision …): `error: `
/// and the message, unless it already starts so.
pub fn client_error(message: &str) -> String {
    if message.starts_with("error: ") {
        message.to_string()
    } else {
        format!("error: {message}")
    }
}

/// A 422 Invalid as kubectl prints it: `The <Kind> "<name>" is invalid: <cause>` for one cause,
/// and a `* ` line per cause for several (`MultilineError`). `None` when the outcome is valid.
///
/// For example a strategy with maxSurge 0 and maxUnavailable 0 prints
/// `The Deployment "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value:
/// intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0`.
pub fn invalid(kind: &str, name: &str, outcome: &ValidationOutcome) -> Option<String> {
    if outcome.is_valid() {
        return None;
    }
    let head = format!("The {kind} {} is invalid: ", go_quote(name));
    // statusCausesToAggrError: one error per cause, then utilerrors.Flatten/Reduce: duplicates
    // are kept as kubectl receives them, so they are listed as the API server sent them.
    let causes: Vec<&str> = outcome.errors.iter().map(|e| e.message.as_str()).collect();
    Some(match causes.as_slice() {
        [one] => format!("{head}{one}"),
        many => {
            let mut out = head;
            for c in many {
                out.push_str("\n* ");
                out.push_str(c);
            }
            out
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::DeploymentInput;

    #[test]
    fn kubectl_prints_each_kind_of_error_its_own_way() {
        assert_eq!(
            not_found("deployments.apps", "web"),
            "Error from server (NotFound): deployments.apps \"web\" not found"
        );
        assert_eq!(
            client_error("no rollout history found for deployment \"web\""),
            "error: no rollout history found for deployment \"web\""
        );
        assert_eq!(client_error("error: x"), "error: x");
        let bad = DeploymentInput {
            name: "web".into(),
            image: "a".into(),
            replicas: Some(-1),
            ..Default::default()
        };
        let outcome = crate::validation::validate_create(&bad);
        assert_eq!(
            invalid("Deployment", "web", &outcome).unwrap(),
            "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        let worse = DeploymentInput {
            min_ready_seconds: Some(-2),
            ..bad
        };
        let text = invalid(
            "Deployment",
            "web",
            &crate::validation::validate_create(&worse),
        )
        .unwrap();
        assert!(
            text.starts_with("The Deployment \"web\" is invalid: \n* spec.replicas: "),
            "{text}"
        );
        assert_eq!(text.matches("\n* ").count(), 2, "{text}");
    }
}
