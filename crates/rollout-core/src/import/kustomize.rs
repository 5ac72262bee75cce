//! Kustomize patches: a partial Deployment that `kustomize build` merges into its base before
//! anything reaches the API server, told apart from a Deployment the API server would refuse.
//!
//! Example: a `patchesStrategicMerge` file that sets only `spec.replicas: 5` of Deployment `web`
//! has no `spec.template.spec.containers`; the API server would say
//! `spec.template.spec.containers: Required value`, which does not tell the user that the file
//! is a patch; this module adds the hint to run `kustomize build` first.

use serde_json::Value;

/// The hint added to a partial Deployment's refusal.
pub const KUSTOMIZE_HINT: &str =
    "this looks like a kustomize patch (a partial Deployment): run `kustomize build` first and plan its output (`kustomize build … | rollout plan -`)";

/// The strategic-merge-patch directives (`sigs.k8s.io/kustomize`, apimachinery's
/// `strategicpatch`): keys that only a patch holds.
const DIRECTIVES: [&str; 5] = [
    "$patch",
    "$setElementOrder",
    "$retainKeys",
    "$deleteFromPrimitiveList",
    "$deleteFromSet",
];

/// Whether `v` holds a strategic-merge-patch directive anywhere (`$patch: delete`,
/// `$setElementOrder/containers`, …).
pub fn has_patch_directive(v: &Value) -> bool {
    match v {
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| DIRECTIVES.iter().any(|d| k.starts_with(d)) || has_patch_directive(v)),
        Value::Array(a) => a.iter().any(has_patch_directive),
        _ => false,
    }
}

/// `message` (the API server's refusal of a partial Deployment) with the kustomize hint.
pub fn patch_message(message: &str) -> String {
    format!("{message}: {KUSTOMIZE_HINT}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_found_at_any_depth() {
        let v: Value = serde_json::json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "web"}], "containers": [{"name": "web"}]}}}});
        assert!(has_patch_directive(&v));
        let v = serde_json::json!({"spec": {"template": {"spec": {"containers": [
            {"name": "sidecar", "$patch": "delete"}]}}}});
        assert!(has_patch_directive(&v));
        let v = serde_json::json!({"spec": {"template": {"spec": {"containers": [
            {"name": "web", "image": "nginx", "env": [{"name": "A", "value": "$patch"}]}]}}}});
        assert!(!has_patch_directive(&v), "a value is not a directive");
    }
}
