//! Helm (Go) templates: `{{ … }}` actions where YAML is expected, to be rendered before a
//! manifest can be read (`helm template … | rollout plan -`).
//!
//! Example: `{{- if .Values.frontend.create }}` on a line of its own is a template action, and
//! the file is a template; `"legendFormat": "{{ span_name }}"` inside a ConfigMap's block of
//! JSON is text, and the file is plain YAML.

/// The message for a Helm template whose first action outside a string is on `line`.
pub fn helm_message(line: usize) -> String {
    format!(
        "line {line}: `{{{{` outside a string: this is a Helm template: render it first (`helm template … | rollout plan -`)"
    )
}

/// Whether `token` (the last word of a line) opens a block scalar: `|`, `>-`, `|+`, `|2` …
fn is_block_indicator(token: &str) -> bool {
    let mut chars = token.chars();
    matches!(chars.next(), Some('|' | '>'))
        && chars.all(|c| c == '-' || c == '+' || c.is_ascii_digit())
}

/// The line (1-based) of the first `{{` of `text` that is YAML structure rather than text: not
/// in a quoted string, a block scalar (`key: |` and the lines indented under it) or a comment.
/// `None` for plain YAML.
pub fn helm_action_line(text: &str) -> Option<usize> {
    // The indentation of the line that opened the block scalar we are in.
    let mut block: Option<usize> = None;
    let (mut double, mut single) = (false, false);
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(parent) = block {
            if line.trim().is_empty() || indent > parent {
                continue;
            }
            block = None;
        }
        let bytes = line.as_bytes();
        let mut code_end = bytes.len();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let prev = if i == 0 { b' ' } else { bytes[i - 1] };
            if double {
                match c {
                    b'\\' => i += 1,
                    b'"' => double = false,
                    _ => {}
                }
            } else if single {
                if c == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 1;
                    } else {
                        single = false;
                    }
                }
            } else {
                let opens = prev.is_ascii_whitespace() || b"[{,".contains(&prev);
                match c {
                    b'#' if prev.is_ascii_whitespace() => {
                        code_end = i;
                        break;
                    }
                    b'"' if opens => double = true,
                    b'\'' if opens => single = true,
                    b'{' if bytes.get(i + 1) == Some(&b'{') => return Some(n + 1),
                    _ => {}
                }
            }
            i += 1;
        }
        if !double && !single {
            let code = line[..code_end].trim_end();
            let token = code.rsplit(' ').next().unwrap_or("");
            let before = code[..code.len() - token.len()].trim_end();
            if is_block_indicator(token)
                && (before.is_empty() || before.ends_with(':') || before.ends_with('-'))
            {
                block = Some(indent);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_actions_are_found_outside_strings_only() {
        assert_eq!(
            helm_action_line("# {{ x }}\n{{- if .Values.a }}\nkind: A\n"),
            Some(2)
        );
        assert_eq!(
            helm_action_line("metadata:\n  name: {{ .Release.Name }}\n"),
            Some(2)
        );
        let config = "data:\n  dash.json: |\n    {\"legendFormat\": \"{{job}}\"}\n    {{ x }}\nkind: ConfigMap\n";
        assert_eq!(helm_action_line(config), None);
        assert_eq!(
            helm_action_line("a: \"{{ x }}\"\nb: '{{ y }}'\nc: [\"{{\"]\n"),
            None
        );
        assert_eq!(helm_action_line("a: |-\n  {{ x }}\nb: {{ y }}\n"), Some(3));
    }
}
