//! Label selectors as the scheduler reads them: `metav1.LabelSelector` (pod affinity terms,
//! topology spread constraints; `LabelSelectorAsSelector`) and `v1.NodeSelectorTerm` (node
//! affinity; `component-helpers/scheduling/corev1/nodeaffinity`), with the API server's
//! validation messages (`ValidateLabelSelectorRequirement`, `ValidateNodeSelectorRequirement`).
//!
//! Example: `{matchLabels: {app: web}, matchExpressions: [{key: tier, operator: NotIn, values:
//! [db]}]}` matches a pod labelled `app=web` (it has no `tier`), not one labelled
//! `app=web, tier=db`.

use serde_json::{json, Value};
use std::collections::BTreeMap;

/// One requirement: `key operator values`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    /// The label key (or, in a node's `matchFields`, `metadata.name`).
    pub key: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist` (nodes also `Gt`, `Lt`).
    pub operator: String,
    /// The values (none for `Exists` and `DoesNotExist`).
    pub values: Vec<String>,
}

impl Requirement {
    /// Whether a label set satisfies it (`labels.Requirement.Matches`): `NotIn` and
    /// `DoesNotExist` hold where the key is absent; `Gt`/`Lt` compare whole numbers.
    pub fn matches(&self, labels: &dyn Fn(&str) -> Option<String>) -> bool {
        let v = labels(&self.key);
        let number = |s: &str| s.parse::<i64>().ok();
        match self.operator.as_str() {
            "In" => v.is_some_and(|v| self.values.contains(&v)),
            "NotIn" => v.is_none_or(|v| !self.values.contains(&v)),
            "Exists" => v.is_some(),
            "DoesNotExist" => v.is_none(),
            "Gt" | "Lt" => match (v.as_deref().and_then(number), self.values.first()) {
                (Some(have), Some(want)) => number(want).is_some_and(|want| {
                    if self.operator == "Gt" {
                        have > want
                    } else {
                        have < want
                    }
                }),
                _ => false,
            },
            _ => false,
        }
    }

    fn to_json(&self) -> Value {
        let mut v = json!({ "key": self.key, "operator": self.operator });
        if !self.values.is_empty() {
            v["values"] = json!(self.values);
        }
        v
    }
}

/// `metav1.LabelSelector`. `None` where the API has a nil selector, which matches nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LabelSelector {
    /// `matchLabels`.
    pub match_labels: BTreeMap<String, String>,
    /// `matchExpressions`.
    pub match_expressions: Vec<Requirement>,
}

impl LabelSelector {
    /// Whether `labels` satisfy every part (an empty selector matches every pod).
    pub fn matches(&self, labels: &dyn Fn(&str) -> Option<String>) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels(k).as_deref() == Some(v.as_str()))
            && self.match_expressions.iter().all(|r| r.matches(labels))
    }

    /// The selector as the API writes it.
    pub fn to_json(&self) -> Value {
        let mut v = json!({});
        if !self.match_labels.is_empty() {
            v["matchLabels"] = json!(self.match_labels);
        }
        if !self.match_expressions.is_empty() {
            v["matchExpressions"] = Value::Array(
                self.match_expressions
                    .iter()
                    .map(Requirement::to_json)
                    .collect(),
            );
        }
        v
    }
}

/// Reads a string map (`matchLabels`, `nodeSelector`, a node's labels).
pub fn read_string_map(v: &Value, path: &str) -> Result<BTreeMap<String, String>, String> {
    let Some(obj) = v.as_object() else {
        return Err(format!("{path}: expected an object of strings"));
    };
    obj.iter()
        .map(|(k, x)| match x {
            Value::String(s) => Ok((k.clone(), s.clone())),
            Value::Number(_) | Value::Bool(_) => Ok((k.clone(), x.to_string())),
            _ => Err(format!("{path}.{k}: expected a string")),
        })
        .collect()
}

fn read_requirement(v: &Value, path: &str, node: bool) -> Result<Requirement, String> {
    let key = v.get("key").and_then(Value::as_str).unwrap_or_default();
    if key.is_empty() {
        return Err(format!("{path}.key: Required value"));
    }
    let operator = v
        .get("operator")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let values: Vec<String> = match v.get("values") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("{path}.values: expected a list of strings"))?,
        Some(_) => return Err(format!("{path}.values: expected a list of strings")),
    };
    let ops: &[&str] = if node {
        &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]
    } else {
        &["In", "NotIn", "Exists", "DoesNotExist"]
    };
    if !ops.contains(&operator) {
        return Err(format!(
            "{path}.operator: Invalid value: {operator:?}: not a valid selector operator"
        ));
    }
    match operator {
        "In" | "NotIn" if values.is_empty() => Err(format!(
            "{path}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
        )),
        "Exists" | "DoesNotExist" if !values.is_empty() => Err(format!(
            "{path}.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
        )),
        "Gt" | "Lt" if values.len() != 1 => Err(format!(
            "{path}.values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"
        )),
        _ => Ok(Requirement {
            key: key.to_string(),
            operator: operator.to_string(),
            values,
        }),
    }
}

fn read_requirements(
    v: Option<&Value>,
    path: &str,
    node: bool,
) -> Result<Vec<Requirement>, String> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, r)| read_requirement(r, &format!("{path}[{i}]"), node))
            .collect(),
        Some(_) => Err(format!("{path}: expected a list")),
    }
}

/// Reads a `metav1.LabelSelector` (`None` for an absent or null one).
pub fn read_label_selector(v: Option<&Value>, path: &str) -> Result<Option<LabelSelector>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    if !v.is_object() {
        return Err(format!("{path}: expected an object"));
    }
    Ok(Some(LabelSelector {
        match_labels: match v.get("matchLabels") {
            None | Some(Value::Null) => BTreeMap::new(),
            Some(m) => read_string_map(m, &format!("{path}.matchLabels"))?,
        },
        match_expressions: read_requirements(
            v.get("matchExpressions"),
            &format!("{path}.matchExpressions"),
            false,
        )?,
    }))
}

/// `v1.NodeSelectorTerm`: its requirements are ANDed; a term with none matches no node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct NodeSelectorTerm {
    /// `matchExpressions`, on the node's labels.
    pub match_expressions: Vec<Requirement>,
    /// `matchFields`, on `metadata.name`.
    pub match_fields: Vec<Requirement>,
}

impl NodeSelectorTerm {
    /// Whether the node (its name and labels) satisfies the term.
    pub fn matches(&self, name: &str, labels: &BTreeMap<String, String>) -> bool {
        if self.match_expressions.is_empty() && self.match_fields.is_empty() {
            return false;
        }
        let by_label = |k: &str| labels.get(k).cloned();
        let by_field = |k: &str| (k == "metadata.name").then(|| name.to_string());
        self.match_expressions.iter().all(|r| r.matches(&by_label))
            && self.match_fields.iter().all(|r| r.matches(&by_field))
    }

    /// The term as the API writes it.
    pub fn to_json(&self) -> Value {
        let list = |rs: &[Requirement]| Value::Array(rs.iter().map(Requirement::to_json).collect());
        let mut v = json!({});
        if !self.match_expressions.is_empty() {
            v["matchExpressions"] = list(&self.match_expressions);
        }
        if !self.match_fields.is_empty() {
            v["matchFields"] = list(&self.match_fields);
        }
        v
    }
}

/// Reads a `v1.NodeSelectorTerm`.
pub fn read_node_selector_term(v: &Value, path: &str) -> Result<NodeSelectorTerm, String> {
    if !v.is_object() {
        return Err(format!("{path}: expected an object"));
    }
    let fields = read_requirements(v.get("matchFields"), &format!("{path}.matchFields"), true)?;
    if let Some((i, f)) = fields
        .iter()
        .enumerate()
        .find(|(_, f)| f.key != "metadata.name")
    {
        return Err(format!(
            "{path}.matchFields[{i}].key: Invalid value: {:?}: not a valid field selector key",
            f.key
        ));
    }
    Ok(NodeSelectorTerm {
        match_expressions: read_requirements(
            v.get("matchExpressions"),
            &format!("{path}.matchExpressions"),
            true,
        )?,
        match_fields: fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(a, _)| *a == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn selectors_match_as_the_api_defines_them() {
        let s = read_label_selector(
            Some(&json!({"matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["db"]}]})),
            "labelSelector",
        )
        .unwrap()
        .unwrap();
        assert!(s.matches(&labels(&[("app", "web")])));
        assert!(!s.matches(&labels(&[("app", "web"), ("tier", "db")])));
        assert!(!s.matches(&labels(&[("app", "api")])));
        assert!(LabelSelector::default().matches(&labels(&[])));
    }

    #[test]
    fn node_terms_need_every_requirement_and_an_empty_term_matches_nothing() {
        let t = read_node_selector_term(
            &json!({"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]},
                {"key": "cores", "operator": "Gt", "values": ["3"]}]}),
            "t",
        )
        .unwrap();
        let mut l = BTreeMap::new();
        l.insert("disk".to_string(), "ssd".to_string());
        l.insert("cores".to_string(), "4".to_string());
        assert!(t.matches("node-0", &l));
        l.insert("cores".to_string(), "3".to_string());
        assert!(!t.matches("node-0", &l));
        assert!(!NodeSelectorTerm::default().matches("node-0", &l));
    }

    #[test]
    fn bad_requirements_get_the_api_messages() {
        let e = read_label_selector(
            Some(&json!({"matchExpressions": [{"key": "a", "operator": "Has"}]})),
            "s",
        )
        .unwrap_err();
        assert_eq!(
            e,
            "s.matchExpressions[0].operator: Invalid value: \"Has\": not a valid selector operator"
        );
        let e = read_label_selector(
            Some(&json!({"matchExpressions": [{"key": "a", "operator": "In"}]})),
            "s",
        )
        .unwrap_err();
        assert!(
            e.starts_with("s.matchExpressions[0].values: Required value"),
            "{e}"
        );
    }
}
