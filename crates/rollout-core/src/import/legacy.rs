//! Deployments of the old API groups, `extensions/v1beta1`, `apps/v1beta1` and `apps/v1beta2`
//! (all removed in Kubernetes 1.16), read as the API server read them: each group's defaults
//! (`SetDefaults_Deployment` in `pkg/apis/{extensions,apps}/{v1beta1,v1beta2}/defaults.go`)
//! applied to the object as written, then the object taken as `apps/v1`.
//!
//! Example: an `extensions/v1beta1` Deployment without selector or strategy gets the selector
//! `matchLabels` of its template's labels, RollingUpdate with maxSurge 1 and maxUnavailable 1,
//! and no progress deadline nor revision history limit (both MaxInt32 when read as `apps/v1`),
//! where an `apps/v1` one would be refused for its missing selector and get 25 % / 25 %.

use serde_json::{json, Map, Value};

/// The defaults of one old group.
struct Group {
    api_version: &'static str,
    /// Whether a missing selector is taken from the template's labels (not in apps/v1beta2).
    selector_from_labels: bool,
    /// maxSurge and maxUnavailable of a rolling update.
    surge: Value,
    unavailable: Value,
    /// `revisionHistoryLimit` and `progressDeadlineSeconds` when left out (MaxInt32: none).
    history: i32,
    deadline: i32,
    /// How the defaults read, for the warning.
    described: &'static str,
}

fn group(api_version: &str) -> Option<Group> {
    Some(match api_version {
        "extensions/v1beta1" => Group {
            api_version: "extensions/v1beta1",
            selector_from_labels: true,
            surge: json!(1),
            unavailable: json!(1),
            history: i32::MAX,
            deadline: i32::MAX,
            described: "maxSurge 1, maxUnavailable 1, no progress deadline, unlimited revision history",
        },
        "apps/v1beta1" => Group {
            api_version: "apps/v1beta1",
            selector_from_labels: true,
            surge: json!("25%"),
            unavailable: json!("25%"),
            history: 2,
            deadline: 600,
            described: "maxSurge 25%, maxUnavailable 25%, progressDeadlineSeconds 600, revisionHistoryLimit 2",
        },
        "apps/v1beta2" => Group {
            api_version: "apps/v1beta2",
            selector_from_labels: false,
            surge: json!("25%"),
            unavailable: json!("25%"),
            history: 10,
            deadline: 600,
            described: "maxSurge 25%, maxUnavailable 25%, progressDeadlineSeconds 600, revisionHistoryLimit 10",
        },
        _ => return None,
    })
}

fn object<'a>(parent: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    let slot = parent
        .entry(key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("just made an object")
}

/// Applies `g`'s defaults to the Deployment `d` (an object), in `SetDefaults_Deployment`'s
/// order: selector and labels from the template, the strategy, the limits.
fn set_defaults(d: &mut Map<String, Value>, g: &Group) {
    let labels = d
        .get("spec")
        .and_then(|s| s.pointer("/template/metadata/labels"))
        .filter(|l| l.is_object())
        .cloned();
    let is_extensions = g.api_version == "extensions/v1beta1";
    if let Some(labels) = labels.filter(|_| g.selector_from_labels) {
        let spec = object(d, "spec");
        if !spec.contains_key("selector") {
            spec.insert("selector".into(), json!({ "matchLabels": labels.clone() }));
        }
        let meta = object(d, "metadata");
        if meta
            .get("labels")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
        {
            meta.insert("labels".into(), labels);
        }
    }
    let spec = object(d, "spec");
    let strategy = object(spec, "strategy");
    if strategy
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty()
    {
        strategy.insert("type".into(), json!("RollingUpdate"));
    }
    let rolling = strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate")
        || (is_extensions && strategy.contains_key("rollingUpdate"));
    if rolling {
        let ru = object(strategy, "rollingUpdate");
        ru.entry("maxUnavailable").or_insert(g.unavailable.clone());
        ru.entry("maxSurge").or_insert(g.surge.clone());
    }
    spec.entry("revisionHistoryLimit")
        .or_insert(json!(g.history));
    spec.entry("progressDeadlineSeconds")
        .or_insert(json!(g.deadline));
}

/// Reads a Deployment of an old API group as `apps/v1`, with the group's defaults applied;
/// returns the warning to show, or `None` for `apps/v1` (or no apiVersion), which is left as
/// it is. `Err` for an apiVersion that never served Deployments.
pub fn convert(v: &mut Value) -> Result<Option<String>, String> {
    let api = match v.get("apiVersion").and_then(Value::as_str) {
        None | Some("apps/v1") => return Ok(None),
        Some(api) => api.to_string(),
    };
    let g = group(&api).ok_or_else(|| {
        format!("apiVersion {api} is not a Deployment version Rollout Lab reads (apps/v1)")
    })?;
    if let Some(d) = v.as_object_mut() {
        set_defaults(d, &g);
        d.insert("apiVersion".into(), json!("apps/v1"));
    }
    Ok(Some(format!(
        "apiVersion {}: Deployments were removed from this group in Kubernetes 1.16 (use apps/v1); read as the API server read it, with its defaults: {}{}",
        g.api_version,
        if g.selector_from_labels {
            "selector from the template's labels when absent, "
        } else {
            ""
        },
        g.described
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn old(api: &str) -> Value {
        json!({"apiVersion": api, "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "web:1"}]}}}})
    }

    #[test]
    fn extensions_v1beta1_gets_its_own_defaults() {
        let mut v = old("extensions/v1beta1");
        let w = convert(&mut v).unwrap().unwrap();
        assert!(
            w.contains("removed from this group in Kubernetes 1.16"),
            "{w}"
        );
        assert_eq!(v["apiVersion"], "apps/v1");
        assert_eq!(
            v["spec"]["selector"],
            json!({"matchLabels": {"app": "web"}})
        );
        assert_eq!(
            v["spec"]["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}})
        );
        assert_eq!(v["spec"]["progressDeadlineSeconds"], json!(i32::MAX));
        assert_eq!(v["spec"]["revisionHistoryLimit"], json!(i32::MAX));
    }

    #[test]
    fn apps_v1beta1_and_v1beta2_differ_in_selector_and_history() {
        let mut v = old("apps/v1beta1");
        convert(&mut v).unwrap();
        assert_eq!(
            v["spec"]["selector"],
            json!({"matchLabels": {"app": "web"}})
        );
        assert_eq!(v["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
        assert_eq!(v["spec"]["revisionHistoryLimit"], 2);
        let mut v = old("apps/v1beta2");
        convert(&mut v).unwrap();
        assert_eq!(
            v["spec"].get("selector"),
            None,
            "v1beta2 requires a selector"
        );
        assert_eq!(v["spec"]["revisionHistoryLimit"], 10);
        assert_eq!(v["spec"]["progressDeadlineSeconds"], 600);
    }

    #[test]
    fn recreate_keeps_no_rolling_update_and_unknown_groups_are_refused() {
        let mut v = old("apps/v1beta1");
        v["spec"]["strategy"] = json!({"type": "Recreate"});
        convert(&mut v).unwrap();
        assert_eq!(v["spec"]["strategy"], json!({"type": "Recreate"}));
        let mut v = old("apps/v2");
        assert!(convert(&mut v)
            .unwrap_err()
            .starts_with("apiVersion apps/v2"));
        let mut v = old("apps/v1");
        assert_eq!(convert(&mut v), Ok(None));
    }
}
