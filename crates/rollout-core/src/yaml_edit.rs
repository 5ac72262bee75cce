//! Text surgery on a manifest as a person wrote it: one value of the Deployment replaced (or
//! added) in place and every other byte kept — comments, key order, flow style and block
//! style alike, and JSON, which is flow style. What a careful hand in an editor does to one
//! field, rather than reading the object and writing it again (which sorts the keys and turns
//! `{maxSurge: 1, maxUnavailable: 0}` into four lines).
//!
//! Setting `spec.strategy.rollingUpdate.maxSurge` to 3 in
//!
//! ```yaml
//! spec:
//!   replicas: 12   # the web tier
//!   strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
//! ```
//!
//! changes the `1` to `3` and nothing else; with no `strategy` at all, the lines
//! `  strategy:` / `    rollingUpdate:` / `      maxSurge: 3` are added at the end of `spec`.
//! Anchors, aliases, tags and multi-line scalars on the way are refused with a message rather
//! than guessed at.

use crate::api::IntOrString;

/// Where a mapping's value is in the text.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Node {
    /// A scalar on its key's line: its bytes and the quote it is written with.
    Scalar {
        start: usize,
        end: usize,
        quote: Option<u8>,
    },
    /// A block mapping (or nothing) under its key: the child lines `start..end`; `colon` is
    /// where the key's `:` ends, `indent` the key's own indentation.
    Block {
        colon: usize,
        start: usize,
        end: usize,
        indent: usize,
    },
    /// A flow mapping whose `{` is at `open`.
    Flow { open: usize },
    /// Anything else: a sequence, an anchor or alias, a tag, a block scalar.
    Other,
}

/// One key of a mapping and its value.
#[derive(Debug)]
struct Entry {
    key: String,
    value: Node,
    /// Where the entry ends: after its last line (block) or its value (flow).
    end: usize,
    /// Whether the key is double-quoted (JSON's style).
    quoted: bool,
}

/// The lines of `text[start..end]`: (line start, line end without the newline, next start).
fn lines(text: &str, start: usize, end: usize) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let mut at = start;
    std::iter::from_fn(move || {
        if at >= end {
            return None;
        }
        let stop = text[at..end].find('\n').map_or(end, |i| at + i);
        let line = (at, stop, (stop + 1).min(end).max(stop));
        at = stop + 1;
        Some(line)
    })
}

fn significant(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty() && !t.starts_with('#')
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The end of a quoted scalar starting at `at` (the byte after its closing quote).
fn quoted_end(b: &[u8], at: usize) -> Option<usize> {
    let q = b[at];
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' if q == b'"' => i += 2,
            c if c == q => {
                if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                } else {
                    return Some(i + 1);
                }
            }
            b'\n' => return None,
            _ => i += 1,
        }
    }
    None
}

/// A quoted scalar's text: `"a\"b"` is `a"b`, `'it''s'` is `it's`.
fn unquote(raw: &str) -> String {
    if raw.starts_with('"') {
        serde_json::from_str(raw).unwrap_or_else(|_| raw.trim_matches('"').to_string())
    } else if raw.starts_with('\'') {
        raw[1..raw.len() - 1].replace("''", "'")
    } else {
        raw.to_string()
    }
}

/// A scalar value starting at `at` on its line, ending at `stop` (the line's end, or in flow
/// style the `,`/`}`/`]` after it): its node.
fn scalar_at(text: &str, at: usize, stop: usize, flow: bool) -> Result<(Node, usize), String> {
    let b = text.as_bytes();
    match b.get(at) {
        Some(b'"') | Some(b'\'') => {
            let end = quoted_end(b, at).ok_or_else(|| {
                format!(
                    "line {}: a quoted value runs past its line",
                    line_no(text, at)
                )
            })?;
            let node = Node::Scalar {
                start: at,
                end,
                quote: Some(b[at]),
            };
            Ok((node, end))
        }
        Some(b'[' | b'&' | b'*' | b'!' | b'|' | b'>') => Ok((Node::Other, at)),
        _ => {
            let mut end = at;
            while end < stop {
                let c = b[end];
                if c == b'\n' || (flow && matches!(c, b',' | b'}' | b']')) {
                    break;
                }
                if c == b'#' && end > at && matches!(b[end - 1], b' ' | b'\t') {
                    break;
                }
                end += 1;
            }
            let end = at + text[at..end].trim_end().len();
            Ok((
                Node::Scalar {
                    start: at,
                    end,
                    quote: None,
                },
                end,
            ))
        }
    }
}

fn line_no(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// `key:` at the start of `line` (which begins at `at`): the key, whether it is
/// double-quoted, and where its `:` ends.
fn block_key(text: &str, at: usize, line_end: usize) -> Option<(String, bool, usize)> {
    let b = text.as_bytes();
    let (key, quoted, after) = if matches!(b[at], b'"' | b'\'') {
        let end = quoted_end(b, at)?;
        let rest = text[end..line_end].trim_start();
        let colon = line_end - rest.len();
        rest.starts_with(':')
            .then(|| (unquote(&text[at..end]), b[at] == b'"', colon))?
    } else {
        let line = &text[at..line_end];
        let i = line
            .char_indices()
            .find(|&(i, c)| {
                c == ':' && matches!(line[i + 1..].chars().next(), None | Some(' ' | '\t'))
            })?
            .0;
        (line[..i].trim_end().to_string(), false, at + i)
    };
    Some((key, quoted, after + 1))
}

/// The entries of the block mapping in `start..end`, and its indentation.
fn block_entries(text: &str, start: usize, end: usize) -> Result<(usize, Vec<Entry>), String> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut indent = None;
    for (ls, le, next) in lines(text, start, end) {
        let line = &text[ls..le];
        if !significant(line) {
            continue;
        }
        let ind = indent_of(line);
        let own = *indent.get_or_insert(ind);
        let body = &line[ind..];
        if ind > own || (ind == own && (body == "-" || body.starts_with("- "))) {
            // A deeper line, or a sequence's item at its key's indentation: the last entry's.
            match entries.last_mut() {
                Some(e) => e.end = next,
                None => {
                    return Err(format!(
                        "line {}: a list where a mapping was expected",
                        line_no(text, ls)
                    ))
                }
            }
            continue;
        }
        if ind < own {
            break;
        }
        let (key, quoted, colon) = block_key(text, ls + ind, le)
            .ok_or_else(|| format!("line {}: expected `key: value`", line_no(text, ls)))?;
        let rest = &text[colon..le];
        let v = colon + (rest.len() - rest.trim_start().len());
        let value = if !significant(&text[v..le]) {
            Node::Block {
                colon,
                start: next,
                end: next,
                indent: ind,
            }
        } else if text.as_bytes()[v] == b'{' {
            Node::Flow { open: v }
        } else {
            scalar_at(text, v, le, false)?.0
        };
        entries.push(Entry {
            key,
            value,
            end: next,
            quoted,
        });
    }
    // A block value's child lines run to its entry's end.
    for e in &mut entries {
        if let Node::Block { end, .. } = &mut e.value {
            *end = e.end;
        }
    }
    Ok((indent.unwrap_or(0), entries))
}

/// Skips spaces, line breaks and comments.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// The end of a flow collection opened at `at` (the byte after its closing bracket).
fn balanced_end(text: &str, at: usize) -> Result<usize, String> {
    let b = text.as_bytes();
    let mut depth = 0;
    let mut i = at;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = quoted_end(b, i)
                    .ok_or_else(|| format!("line {}: unclosed quote", line_no(text, i)))?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(format!("line {}: unclosed bracket", line_no(text, at)))
}

/// The entries of the flow mapping opened at `open`, and where its `}` is.
fn flow_entries(text: &str, open: usize) -> Result<(Vec<Entry>, usize), String> {
    let b = text.as_bytes();
    let bad = |i: usize| {
        format!(
            "line {}: expected `key: value` in `{{…}}`",
            line_no(text, i)
        )
    };
    let mut entries = Vec::new();
    let mut i = skip_ws(b, open + 1);
    loop {
        match b.get(i) {
            Some(b'}') => return Ok((entries, i)),
            None => return Err(bad(i)),
            _ => {}
        }
        let (key, quoted, after) = if matches!(b[i], b'"' | b'\'') {
            let end = quoted_end(b, i).ok_or_else(|| bad(i))?;
            (unquote(&text[i..end]), b[i] == b'"', end)
        } else {
            let end = text[i..].find([':', ',', '}']).map_or(b.len(), |k| i + k);
            (text[i..end].trim_end().to_string(), false, end)
        };
        let colon = skip_ws(b, after);
        if b.get(colon) != Some(&b':') {
            return Err(bad(i));
        }
        let v = skip_ws(b, colon + 1);
        let (value, end) = match b.get(v) {
            Some(b'{') => (Node::Flow { open: v }, balanced_end(text, v)?),
            Some(b'[') => (Node::Other, balanced_end(text, v)?),
            _ => scalar_at(text, v, b.len(), true)?,
        };
        entries.push(Entry {
            key,
            value,
            end,
            quoted,
        });
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => {}
            _ => return Err(bad(i)),
        }
    }
}

/// The entries of a mapping node (`None`: not a mapping).
fn entries_of(text: &str, node: Node) -> Result<Option<Vec<Entry>>, String> {
    Ok(match node {
        Node::Block { start, end, .. } => Some(block_entries(text, start, end)?.1),
        Node::Flow { open } => Some(flow_entries(text, open)?.0),
        _ => None,
    })
}

/// The text of the scalar at `path` under `node`, if there is one.
fn lookup(text: &str, node: Node, path: &[&str]) -> Option<String> {
    let entries = entries_of(text, node).ok()??;
    let entry = entries.into_iter().find(|e| e.key == path[0])?;
    match (entry.value, path.len()) {
        (Node::Scalar { start, end, .. }, 1) => Some(unquote(&text[start..end])),
        (child, n) if n > 1 => lookup(text, child, &path[1..]),
        _ => None,
    }
}

/// `value` as written in place of a scalar quoted with `quote` (JSON style: `json`): a count
/// is a number; a string keeps its quotes, or is plain when YAML reads it back the same.
fn written(value: &IntOrString, quote: Option<u8>, json: bool) -> String {
    match value {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) if json || quote == Some(b'"') => {
            serde_json::to_string(s).unwrap_or_default()
        }
        IntOrString::String(s) if quote == Some(b'\'') => format!("'{}'", s.replace('\'', "''")),
        IntOrString::String(s) => crate::yaml::string_scalar(s),
    }
}

fn key_text(key: &str, json: bool) -> String {
    if json {
        serde_json::to_string(key).unwrap_or_default()
    } else {
        crate::yaml::string_scalar(key)
    }
}

/// `path: value` in flow style: `rollingUpdate: {maxSurge: 3}`.
fn flow_text(path: &[&str], value: &IntOrString, json: bool) -> String {
    let inner = match path.len() {
        1 => written(value, None, json),
        _ => format!("{{{}}}", flow_text(&path[1..], value, json)),
    };
    format!("{}: {inner}", key_text(path[0], json))
}

/// `path: value` as block lines at `indent`, two more spaces a level.
fn block_text(path: &[&str], value: &IntOrString, indent: usize) -> String {
    let mut out = String::new();
    for (level, key) in path.iter().enumerate() {
        let pad = " ".repeat(indent + 2 * level);
        out.push_str(&format!("{pad}{}:", key_text(key, false)));
        if level + 1 == path.len() {
            out.push_str(&format!(" {}", written(value, None, false)));
        }
        out.push('\n');
    }
    out
}

/// One replacement: bytes `start..end` become `with`.
type Splice = (usize, usize, String);

/// The splice that sets `path` under `node` to `value`; `at` names the path so far.
fn splice(
    text: &str,
    node: Node,
    path: &[&str],
    value: &IntOrString,
    at: &str,
    json: bool,
) -> Result<Splice, String> {
    let here = |k: &str| {
        if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        }
    };
    let unsupported = || {
        format!(
            "{} is not written as plain YAML here; edit it by hand",
            here(path[0])
        )
    };
    match node {
        Node::Block {
            colon,
            start,
            end,
            indent,
        } => {
            let (own, entries) = block_entries(text, start, end)?;
            let Some(e) = entries.iter().find(|e| e.key == path[0]) else {
                // Missing: added at the end of the mapping, or under its key when it is empty.
                let (at, indent) = match entries.last() {
                    Some(last) => (last.end, own),
                    None if colon > 0 => {
                        let eol = text[colon..]
                            .find('\n')
                            .map_or(text.len(), |i| colon + i + 1);
                        (eol, indent + 2)
                    }
                    None => (start, 0),
                };
                let lead = if at > 0 && !text[..at].ends_with('\n') {
                    "\n"
                } else {
                    ""
                };
                return Ok((at, at, format!("{lead}{}", block_text(path, value, indent))));
            };
            descend(text, e.value, path, value, &here(path[0]), false).map_err(|e| {
                if e.is_empty() {
                    unsupported()
                } else {
                    e
                }
            })
        }
        Node::Flow { open } => {
            let (entries, close) = flow_entries(text, open)?;
            let json = entries.first().map_or(json, |e| e.quoted);
            let Some(e) = entries.iter().find(|e| e.key == path[0]) else {
                let (at, lead) = match entries.last() {
                    Some(last) => (last.end, ", "),
                    None => (close, ""),
                };
                return Ok((at, at, format!("{lead}{}", flow_text(path, value, json))));
            };
            descend(text, e.value, path, value, &here(path[0]), json).map_err(|e| {
                if e.is_empty() {
                    unsupported()
                } else {
                    e
                }
            })
        }
        _ => Err(format!("{at} is not a mapping")),
    }
}

/// The splice for the entry `path[0]` found with value `node`; an empty error means "not a
/// form this editor writes".
fn descend(
    text: &str,
    node: Node,
    path: &[&str],
    value: &IntOrString,
    at: &str,
    json: bool,
) -> Result<Splice, String> {
    match (node, path.len()) {
        (Node::Scalar { start, end, quote }, 1) => Ok((start, end, written(value, quote, json))),
        (
            Node::Block {
                colon, start, end, ..
            },
            1,
        ) if !lines(text, start, end).any(|(s, e, _)| significant(&text[s..e])) => {
            // `replicas:` with no value (null): the value goes after the colon.
            Ok((colon, colon, format!(" {}", written(value, None, json))))
        }
        (
            Node::Scalar {
                start,
                end,
                quote: None,
            },
            _,
        ) if matches!(&text[start..end], "null" | "~") => {
            // `rollingUpdate: null` reads as absent: a mapping in its place.
            Ok((
                start,
                end,
                format!("{{{}}}", flow_text(&path[1..], value, json)),
            ))
        }
        (Node::Block { .. } | Node::Flow { .. }, n) if n > 1 => {
            splice(text, node, &path[1..], value, at, json)
        }
        _ => Err(String::new()),
    }
}

/// The documents of a YAML stream: the byte ranges between `---` lines.
fn documents(text: &str) -> Vec<(usize, usize)> {
    let mut docs = Vec::new();
    let mut start = 0;
    for (ls, le, next) in lines(text, 0, text.len()) {
        let line = text[ls..le].trim_end();
        let marker = line == "---" || line == "..." || line.starts_with("--- #");
        if marker {
            docs.push((start, ls));
            start = next;
        }
    }
    docs.push((start, text.len()));
    docs
}

/// A document's root node: a flow mapping or a block mapping.
fn root(text: &str, (start, end): (usize, usize)) -> Node {
    let b = text.as_bytes();
    let first = skip_ws(b, start);
    if first < end && b[first] == b'{' {
        Node::Flow { open: first }
    } else {
        Node::Block {
            colon: 0,
            start,
            end,
            indent: 0,
        }
    }
}

/// Sets `path` (`["spec", "strategy", "rollingUpdate", "maxSurge"]`) of the Deployment in
/// `text` (the one named `deployment` when the text holds several documents) to `value`,
/// keeping every other byte: a value is replaced where it stands, in its own quoting; a
/// missing key is added at the end of its mapping in that mapping's style. `Err` says why the
/// text cannot be edited in place (no Deployment, a field written with YAML this editor does
/// not write), and the text is then left as it is.
pub fn set_value(
    text: &str,
    deployment: Option<&str>,
    path: &[&str],
    value: &IntOrString,
) -> Result<String, String> {
    let doc = documents(text)
        .into_iter()
        .map(|d| root(text, d))
        .find(|&r| {
            lookup(text, r, &["kind"]).as_deref() == Some("Deployment")
                && deployment
                    .is_none_or(|n| lookup(text, r, &["metadata", "name"]).as_deref() == Some(n))
        })
        .ok_or_else(|| match deployment {
            Some(n) => format!("the manifest holds no Deployment named {n:?}"),
            None => "the manifest holds no Deployment".to_string(),
        })?;
    let (start, end, with) = splice(text, doc, path, value, "", false)?;
    Ok(format!("{}{with}{}", &text[..start], &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SURGE: [&str; 4] = ["spec", "strategy", "rollingUpdate", "maxSurge"];

    fn set(text: &str, path: &[&str], v: impl Into<IntOrString>) -> String {
        set_value(text, None, path, &v.into()).unwrap()
    }

    #[test]
    fn a_block_value_changes_on_its_line_only() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 12   # the web tier\n  selector:\n    matchLabels: {app: web}\n  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 25%\n      maxUnavailable: 0\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: \"nginx:1\"}]\n";
        let out = set(text, &SURGE, 3);
        assert_eq!(out, text.replace("maxSurge: 25%", "maxSurge: 3"));
        let out = set(text, &["spec", "replicas"], 5);
        assert_eq!(out, text.replace("replicas: 12 ", "replicas: 5 "));
        // A percentage stays plain; quoted stays quoted in its own quotes.
        assert_eq!(set(text, &SURGE, "50%"), text.replace("25%", "50%"));
        let single = text.replace("25%", "'25%'");
        assert_eq!(set(&single, &SURGE, "10%"), text.replace("25%", "'10%'"));
    }

    #[test]
    fn flow_style_stays_flow_style() {
        let text = "kind: Deployment\nspec:\n  replicas: 12\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n";
        let out = set(text, &SURGE, 3);
        assert_eq!(out, text.replace("maxSurge: 1", "maxSurge: 3"));
        let out = set(
            text,
            &["spec", "strategy", "rollingUpdate", "maxUnavailable"],
            2,
        );
        assert_eq!(out, text.replace("maxUnavailable: 0", "maxUnavailable: 2"));
        // Missing keys join the flow mapping.
        let bare = "kind: Deployment\nspec: {replicas: 2, strategy: {type: RollingUpdate}}\n";
        assert_eq!(
            set(bare, &SURGE, 3),
            "kind: Deployment\nspec: {replicas: 2, strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 3}}}\n"
        );
    }

    #[test]
    fn json_stays_json() {
        let text =
            "{\n  \"kind\": \"Deployment\",\n  \"spec\": {\"replicas\": 3, \"strategy\": {}}\n}\n";
        let out = set(text, &SURGE, "25%");
        assert_eq!(
            out,
            "{\n  \"kind\": \"Deployment\",\n  \"spec\": {\"replicas\": 3, \"strategy\": {\"rollingUpdate\": {\"maxSurge\": \"25%\"}}}\n}\n"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
        assert_eq!(
            set(text, &["spec", "replicas"], 12),
            text.replace(": 3", ": 12")
        );
    }

    #[test]
    fn missing_keys_are_added_at_the_end_of_their_block() {
        let text = "kind: Deployment\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n# end\n";
        let out = set(text, &SURGE, 3);
        assert_eq!(
            out,
            text.replace(
                "        image: nginx\n",
                "        image: nginx\n  strategy:\n    rollingUpdate:\n      maxSurge: 3\n"
            )
        );
        // `rollingUpdate: null` and an empty `rollingUpdate:` read as absent.
        let null = "kind: Deployment\nspec:\n  strategy:\n    rollingUpdate: null\n";
        assert_eq!(set(null, &SURGE, 1), null.replace("null", "{maxSurge: 1}"));
        let empty = "kind: Deployment\nspec:\n  strategy:\n    rollingUpdate:\n  replicas: 1\n";
        assert_eq!(
            set(empty, &SURGE, 1),
            empty.replace("rollingUpdate:\n", "rollingUpdate:\n      maxSurge: 1\n")
        );
        let nothing = "kind: Deployment\nspec:\n  replicas:\n";
        assert_eq!(
            set(nothing, &["spec", "replicas"], 4),
            "kind: Deployment\nspec:\n  replicas: 4\n"
        );
        // No newline at the end of the text.
        assert_eq!(
            set(
                "kind: Deployment\nspec:\n  replicas: 1",
                &["spec", "minReadySeconds"],
                5
            ),
            "kind: Deployment\nspec:\n  replicas: 1\n  minReadySeconds: 5\n"
        );
    }

    #[test]
    fn the_named_deployment_of_several_documents_is_edited() {
        let text = "---\napiVersion: v1\nkind: Service\nspec:\n  replicas: 9\n---\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replicas: 2\n---\nkind: Deployment\nmetadata:\n  name: \"web\"\nspec:\n  replicas: 3\n---\n";
        let out = set_value(text, Some("web"), &["spec", "replicas"], &7.into()).unwrap();
        assert_eq!(out, text.replace("replicas: 3", "replicas: 7"));
        let out = set_value(text, None, &["spec", "replicas"], &7.into()).unwrap();
        assert_eq!(out, text.replace("replicas: 2", "replicas: 7"));
        let e = set_value(text, Some("db"), &["spec", "replicas"], &7.into()).unwrap_err();
        assert_eq!(e, "the manifest holds no Deployment named \"db\"");
        assert!(set_value("kind: Service\n", None, &["spec"], &1.into()).is_err());
    }

    #[test]
    fn yaml_it_does_not_write_is_refused_not_guessed() {
        let anchored = "kind: Deployment\nspec:\n  replicas: &n 3\n  strategy: *s\n";
        let e = set_value(anchored, None, &SURGE, &1.into()).unwrap_err();
        assert!(e.contains("spec.strategy"), "{e}");
        let listed = "kind: Deployment\nspec:\n  strategy: [1]\n";
        assert!(set_value(listed, None, &SURGE, &1.into()).is_err());
        let broken = "kind: Deployment\nspec: {replicas: \"3}\n";
        assert!(set_value(broken, None, &["spec", "replicas"], &1.into()).is_err());
        // Comments and blank lines around the value stay.
        let commented = "# web\nkind: Deployment\n\nspec:\n  # how many\n  replicas: 3 # now\n";
        assert_eq!(
            set(commented, &["spec", "replicas"], 4),
            commented.replace("3 #", "4 #")
        );
    }
}
