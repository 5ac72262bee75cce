//! Manifests that are not finished yet: text with `$VAR` / `${VAR}` placeholders that envsubst
//! or a CI job fills in before `kubectl apply` (Helm templates: `helm.rs`).
//!
//! Example: `image: ${REGISTRY}/web:$TAG` gets the warning "unresolved placeholders ${REGISTRY}
//! in spec.template.spec.containers[0].image, $TAG in …"; `echo $HOME` in a container's
//! `command` is the shell's own and says nothing.

use serde_json::Value;

/// Fields whose text is a shell script or a copy of the object, where `$VAR` is the shell's
/// own (a container's `command` and `args`) or not read (annotations, managedFields, status).
const NOT_PLACEHOLDERS: [&str; 5] = ["command", "args", "annotations", "managedFields", "status"];

/// The `$VAR` and `${VAR}` placeholders in one string: `${IMAGE}:$TAG` → `${IMAGE}`, `$TAG`.
/// Kubernetes' own `$(VAR)` (expanded in command, args and env) is not one.
fn placeholders_in(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let name_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'{') {
            if let Some(end) = s[i + 2..].find('}') {
                let name = &s[i + 2..i + 2 + end];
                if !name.is_empty() && name.bytes().all(name_char) {
                    out.push(format!("${{{name}}}"));
                }
                i += 3 + end;
                continue;
            }
        } else if b
            .get(i + 1)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        {
            let len = b[i + 1..].iter().take_while(|c| name_char(**c)).count();
            out.push(s[i..=i + len].to_string());
            i += 1 + len;
            continue;
        }
        i += 1;
    }
    out
}

fn walk(v: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) => {
            for p in placeholders_in(s) {
                out.push((p, path.to_string()));
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                walk(x, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                if !NOT_PLACEHOLDERS.contains(&k.as_str()) {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, out);
                }
            }
        }
        _ => {}
    }
}

/// The warning for unresolved `$VAR` / `${VAR}` placeholders in a Deployment, naming each
/// with its field, or `None` when there are none.
pub fn placeholder_warning(deployment: &Value) -> Option<String> {
    let mut found = Vec::new();
    walk(deployment, "", &mut found);
    if found.is_empty() {
        return None;
    }
    let list: Vec<String> = found
        .iter()
        .take(5)
        .map(|(p, path)| format!("{p} in {path}"))
        .collect();
    Some(format!(
        "unresolved placeholder{} {}{}: read as literal text; substitute {} first (envsubst, your CI's variables)",
        if found.len() == 1 { "" } else { "s" },
        list.join(", "),
        if found.len() > 5 {
            format!(" and {} more", found.len() - 5)
        } else {
            String::new()
        },
        if found.len() == 1 { "it" } else { "them" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_are_named_with_their_field() {
        let d = json!({"spec": {"template": {"spec": {"containers": [{
            "image": "${REGISTRY}/web:$TAG",
            "command": ["sh", "-c", "echo $HOME"],
            "env": [{"name": "A", "value": "$(B)"}]
        }]}}}});
        let w = placeholder_warning(&d).unwrap();
        assert!(w.starts_with("unresolved placeholders ${REGISTRY} in spec.template.spec.containers[0].image, $TAG in spec.template.spec.containers[0].image"), "{w}");
        assert_eq!(placeholder_warning(&json!({"a": "costs $5"})), None);
    }
}
