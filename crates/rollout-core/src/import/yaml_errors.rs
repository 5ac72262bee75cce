//! The YAML reader's errors in kubectl's words: `error converting YAML to JSON: yaml: line 12:
//! …` with the line a user looks at, and a duplicated key named as a key, with both lines
//! (`key "selector" already set in map at line 9`), never as the reader's internal value.
//!
//! Example: a Deployment with `selector:` twice in its spec (lines 9 and 16) gets `error
//! converting YAML to JSON: yaml: line 16: key "selector" already set in map (first at line
//! 9)`.

/// The key a duplicate-key error is about, from the reader's description of it
/// (`String("selector")` → `selector`, `Integer(5)` → `5`).
fn duplicated_key(info: &str) -> Option<String> {
    let described = info.strip_suffix(": duplicated key in mapping")?;
    let inner = described
        .split_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))?;
    Some(
        serde_json::from_str::<String>(inner)
            .ok()
            .unwrap_or_else(|| inner.to_string()),
    )
}

/// Whether `line` is the mapping key `key` (`key:`, `- key:`, `"key":`), and at which column.
fn key_column(line: &str, key: &str) -> Option<usize> {
    let body = line.trim_start();
    let mut col = line.len() - body.len();
    let body = match body.strip_prefix("- ") {
        Some(rest) => {
            col += 2 + (rest.len() - rest.trim_start().len());
            rest.trim_start()
        }
        None => body,
    };
    let quoted_d = format!("\"{key}\"");
    let quoted_s = format!("'{key}'");
    [key, quoted_d.as_str(), quoted_s.as_str()]
        .iter()
        .find_map(|k| body.strip_prefix(k))
        .filter(|rest| rest.trim_start().starts_with(':'))
        .map(|_| col)
}

/// The lines (1-based) of the second and the first `key` in the mapping that holds it twice,
/// searching back from the line the reader stopped at (the end of the second value).
fn duplicate_lines(text: &str, key: &str, stop_line: usize) -> Option<(usize, Option<usize>)> {
    let lines: Vec<&str> = text.lines().collect();
    let upto = stop_line.min(lines.len());
    let second = (0..upto)
        .rev()
        .find(|&i| key_column(lines[i], key).is_some())?;
    let col = key_column(lines[second], key)?;
    let first = (0..second).rev().find_map(|i| {
        let l = lines[i];
        let indent = l.len() - l.trim_start().len();
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            return None;
        }
        match key_column(l, key) {
            Some(c) if c == col => Some(Some(i + 1)),
            _ if indent < col && !l.trim_start().starts_with("- ") => Some(None),
            _ => None,
        }
    });
    Some((second + 1, first.flatten()))
}

/// The message for a reader error `info` at `line` (1-based) and `column` (0-based) of `text`.
pub fn message(text: &str, info: &str, line: usize, column: usize) -> String {
    if let Some(key) = duplicated_key(info) {
        if let Some((second, first)) = duplicate_lines(text, &key, line) {
            return format!(
                "error converting YAML to JSON: yaml: line {second}: key {key:?} already set in map{}",
                first.map_or(String::new(), |f| format!(" (first at line {f})"))
            );
        }
        return format!(
            "error converting YAML to JSON: yaml: line {line}: key {key:?} already set in map"
        );
    }
    format!(
        "error converting YAML to JSON: yaml: line {line}, column {}: {info}",
        column + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicated_key_is_named_with_both_lines() {
        let text =
            "spec:\n  selector:\n    a: b\n  replicas: 1\n  selector:\n    c: d\n  template: {}\n";
        let m = message(
            text,
            "String(\"selector\"): duplicated key in mapping",
            7,
            2,
        );
        assert_eq!(
            m,
            "error converting YAML to JSON: yaml: line 5: key \"selector\" already set in map (first at line 2)"
        );
    }

    #[test]
    fn other_errors_keep_the_readers_words_with_the_line() {
        let m = message("a: b\n c", "mapping values are not allowed", 2, 2);
        assert_eq!(
            m,
            "error converting YAML to JSON: yaml: line 2, column 3: mapping values are not allowed"
        );
    }
}
