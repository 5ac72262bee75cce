//! Reading the files people keep, as `kubectl apply -f` reads them: several documents in one
//! file (`---`), `kind: List` (and `DeploymentList`, … : any `*List` with `items`), empty
//! documents skipped, and everything that is not a Deployment set aside with a note. Exactly one
//! Deployment is the one planned; of several, the one the user names.
//!
//! Example: `05-microservices-demo-frontend.yaml` holds a Deployment, two Services and a
//! ServiceAccount: the Deployment "frontend" is read, with the note "skipped 3 other objects:
//! 2 × Service, 1 × ServiceAccount". `14-k8s-examples-guestbook-all-in-one.yaml` holds three
//! Deployments: without a name the reader answers with the three names and how to choose.

use super::Pick;
use serde_json::Value;

/// One object of a manifest file: a document, or an item of a `List` document.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Where it is: `document 3`, `document 1, items[0]` (empty for the only object).
    pub place: String,
    /// The object.
    pub value: Value,
}

impl Entry {
    fn kind(&self) -> Option<&str> {
        self.value.get("kind").and_then(Value::as_str)
    }

    fn name(&self) -> Option<&str> {
        self.value.pointer("/metadata/name").and_then(Value::as_str)
    }

    fn namespace(&self) -> Option<&str> {
        self.value
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
    }
}

/// The Deployment read from a file, and what was set aside to find it.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    /// The Deployment object, as written.
    pub value: Value,
    /// Where it is in the file (empty when it is the file's only object).
    pub place: String,
    /// What else the file holds, skipped (`skipped 3 other objects: 2 × Service, …`); empty
    /// when nothing was.
    pub skipped: Option<String>,
    /// When the file holds the chosen Deployment more than once: the warning that the last
    /// one is read, as `kubectl apply` leaves it.
    pub duplicate: Option<String>,
}

/// Whether a document is empty: nothing at all (`---` followed by `---`), `null` or `{}`.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// The objects of a file's documents (`Null` for an empty one): Lists opened into their items,
/// empty documents dropped. Also returns how many documents were empty.
pub fn entries(documents: Vec<Value>) -> (Vec<Entry>, usize) {
    let several = documents.iter().filter(|d| !is_empty(d)).count() > 1;
    let mut out = Vec::new();
    let mut empty = 0;
    for (i, doc) in documents.into_iter().enumerate() {
        if is_empty(&doc) {
            empty += 1;
            continue;
        }
        let doc_place = if several {
            format!("document {}", i + 1)
        } else {
            String::new()
        };
        let is_list = doc
            .get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k.ends_with("List"))
            && doc.get("items").is_some_and(Value::is_array);
        if !is_list {
            out.push(Entry {
                place: doc_place,
                value: doc,
            });
            continue;
        }
        let Some(Value::Array(items)) = doc.get("items").cloned() else {
            continue;
        };
        for (j, item) in items.into_iter().enumerate() {
            let place = if doc_place.is_empty() {
                format!("items[{j}]")
            } else {
                format!("{doc_place}, items[{j}]")
            };
            out.push(Entry { place, value: item });
        }
    }
    (out, empty)
}

/// `2 × Service, 1 × ServiceAccount`: kinds by count, in the order they first appear.
fn kinds_summary(entries: &[&Entry]) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for e in entries {
        let k = e.kind().unwrap_or("object without kind").to_string();
        match kinds.iter_mut().find(|(n, _)| *n == k) {
            Some((_, c)) => *c += 1,
            None => kinds.push((k, 1)),
        }
    }
    kinds
        .iter()
        .map(|(k, c)| format!("{c} × {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The refusal for one object that is not a Deployment (the message of a single-object file).
fn not_a_deployment(e: &Entry) -> String {
    match e.kind() {
        Some(other) => format!("kind is {other}; Rollout Lab reads a Deployment"),
        None => "the manifest has no `kind`; expected kind: Deployment".into(),
    }
}

/// Chooses the Deployment to read from a file's objects (see [`entries`]): the only one, or the
/// one `pick` names. `Err` names the Deployments and how to choose, or says what the file
/// holds instead.
pub fn choose(entries: Vec<Entry>, empty: usize, pick: Pick<'_>) -> Result<Chosen, String> {
    if entries.is_empty() {
        return Err("the manifest is empty".into());
    }
    let is_deployment = |e: &Entry| e.kind() == Some("Deployment");
    let all: Vec<&Entry> = entries.iter().filter(|e| is_deployment(e)).collect();
    // `kubectl apply -f` applies the objects in order: of two Deployments with one name (and
    // namespace), the second replaces the first, so the last is what the cluster keeps.
    let key = |e: &Entry| {
        (
            e.namespace().map(str::to_string),
            e.name().map(str::to_string),
        )
    };
    let deployments: Vec<&Entry> = all
        .iter()
        .enumerate()
        .filter(|(i, e)| !all[i + 1..].iter().any(|later| key(later) == key(e)))
        .map(|(_, e)| *e)
        .collect();
    let replaced: Vec<String> = deployments
        .iter()
        .filter_map(|kept| {
            let earlier: Vec<&str> = all
                .iter()
                .filter(|e| !std::ptr::eq(**e, *kept) && key(e) == key(kept))
                .map(|e| e.place.as_str())
                .collect();
            (!earlier.is_empty()).then(|| {
                format!(
                    "Deployment {:?} is in the file {} times ({} and {}): kubectl apply applies them in order and the last one stays, so {} is read",
                    kept.name().unwrap_or("(no name)"),
                    earlier.len() + 1,
                    earlier.join(", "),
                    kept.place,
                    kept.place
                )
            })
        })
        .collect();
    let names: Vec<&str> = deployments
        .iter()
        .map(|e| e.name().unwrap_or("(no name)"))
        .collect();
    let index = match (pick.name, deployments.len()) {
        (_, 0) if entries.len() == 1 => return Err(not_a_deployment(&entries[0])),
        (_, 0) => {
            let all: Vec<&Entry> = entries.iter().collect();
            return Err(format!(
                "the manifest holds no Deployment: {} ({} objects)",
                kinds_summary(&all),
                entries.len()
            ));
        }
        (Some(name), _) => names.iter().position(|n| *n == name).ok_or_else(|| {
            format!(
                "the manifest holds no Deployment named {name:?}; its Deployments: {}",
                names.join(", ")
            )
        })?,
        (None, 1) => 0,
        (None, n) => {
            return Err(format!(
                "the manifest holds {n} Deployments: {}; {}",
                names.join(", "),
                pick.how
            ))
        }
    };
    let chosen = deployments[index];
    let others: Vec<&Entry> = entries
        .iter()
        .filter(|e| !std::ptr::eq(*e, chosen))
        .filter(|e| !(is_deployment(e) && key(e) == key(chosen)))
        .collect();
    let mut skipped = Vec::new();
    if !others.is_empty() {
        skipped.push(format!(
            "{} other object{}: {}",
            others.len(),
            if others.len() == 1 { "" } else { "s" },
            kinds_summary(&others)
        ));
    }
    if empty > 0 {
        skipped.push(format!(
            "{empty} empty document{}",
            if empty == 1 { "" } else { "s" }
        ));
    }
    let duplicate = replaced
        .into_iter()
        .find(|r| r.starts_with(&format!("Deployment {:?} ", names[index])));
    Ok(Chosen {
        value: chosen.value.clone(),
        place: chosen.place.clone(),
        duplicate,
        skipped: (!skipped.is_empty()).then(|| {
            format!(
                "read Deployment {:?}{}; skipped {}",
                names[index],
                if chosen.place.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", chosen.place)
                },
                skipped.join(" and ")
            )
        }),
    })
}

/// The names of the Deployments in a file's documents, in order (`(no name)` for one
/// without), each once: a name given twice is one Deployment, the last (see [`choose`]).
pub fn deployment_names(documents: Vec<Value>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for e in entries(documents)
        .0
        .iter()
        .filter(|e| e.kind() == Some("Deployment"))
    {
        let name = e.name().unwrap_or("(no name)").to_string();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dep(name: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}})
    }

    #[test]
    fn one_deployment_beside_others_is_read_and_the_rest_noted() {
        let docs = vec![
            dep("frontend"),
            json!({"kind": "Service", "metadata": {"name": "a"}}),
            json!({"kind": "Service", "metadata": {"name": "b"}}),
            Value::Null,
        ];
        let (e, empty) = entries(docs);
        let c = choose(e, empty, Pick::default()).unwrap();
        assert_eq!(c.place, "document 1");
        assert_eq!(
            c.skipped.as_deref(),
            Some("read Deployment \"frontend\" (document 1); skipped 2 other objects: 2 × Service and 1 empty document")
        );
    }

    #[test]
    fn several_deployments_need_a_name() {
        let docs = vec![
            json!({"kind": "List", "items": [dep("a"), dep("b")]}),
            json!({"kind": "Service"}),
        ];
        let (e, empty) = entries(docs.clone());
        let how = "choose one with --deployment NAME";
        let err = choose(e.clone(), empty, Pick { name: None, how }).unwrap_err();
        assert_eq!(
            err,
            "the manifest holds 2 Deployments: a, b; choose one with --deployment NAME"
        );
        let c = choose(
            e.clone(),
            empty,
            Pick {
                name: Some("b"),
                how,
            },
        )
        .unwrap();
        assert_eq!(c.place, "document 1, items[1]");
        let err = choose(
            e,
            empty,
            Pick {
                name: Some("c"),
                how,
            },
        )
        .unwrap_err();
        assert!(err.contains("no Deployment named \"c\""), "{err}");
        assert_eq!(deployment_names(docs), vec!["a", "b"]);
    }

    #[test]
    fn of_two_deployments_with_one_name_the_last_is_read_as_kubectl_apply_leaves_it() {
        let mut second = dep("web");
        second["spec"] = json!({"replicas": 5});
        let docs = vec![dep("web"), json!({"kind": "Service"}), second];
        let (e, empty) = entries(docs);
        let c = choose(e, empty, Pick::default()).unwrap();
        assert_eq!(c.place, "document 3");
        assert_eq!(c.value["spec"]["replicas"], 5);
        assert_eq!(
            c.duplicate.as_deref(),
            Some("Deployment \"web\" is in the file 2 times (document 1 and document 3): kubectl apply applies them in order and the last one stays, so document 3 is read")
        );
        assert_eq!(
            c.skipped.as_deref(),
            Some("read Deployment \"web\" (document 3); skipped 1 other object: 1 × Service")
        );
        // The same name in two namespaces is two Deployments.
        let mut other = dep("web");
        other["metadata"]["namespace"] = json!("staging");
        let (e, empty) = entries(vec![dep("web"), other]);
        let err = choose(e, empty, Pick::default()).unwrap_err();
        assert!(
            err.starts_with("the manifest holds 2 Deployments: web, web"),
            "{err}"
        );
    }

    #[test]
    fn nothing_to_read_is_said_plainly() {
        let (e, n) = entries(vec![json!({"kind": "Service"})]);
        assert_eq!(
            choose(e, n, Pick::default()).unwrap_err(),
            "kind is Service; Rollout Lab reads a Deployment"
        );
        let (e, n) = entries(vec![Value::Null, json!({})]);
        assert_eq!(
            choose(e, n, Pick::default()).unwrap_err(),
            "the manifest is empty"
        );
        let (e, n) = entries(vec![json!({"kind": "Service"}), json!({"kind": "Job"})]);
        assert_eq!(
            choose(e, n, Pick::default()).unwrap_err(),
            "the manifest holds no Deployment: 1 × Service, 1 × Job (2 objects)"
        );
    }
}
