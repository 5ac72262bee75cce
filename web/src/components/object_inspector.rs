//! An object as `kubectl get -o yaml` prints it at this step, with the lines the step changed
//! marked and their previous values one hover or one Tab away.
//!
//! The `<pre>` holds exactly the YAML text (its `textContent` is `yaml::text(lines)`): the
//! markers, the tooltips and the "was …" notes live in attributes, CSS and a visually hidden
//! list outside it, so copying the YAML copies YAML.

use rollout_facade::yaml::{ChangedLine, YamlLine};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use yew::prelude::*;

/// Props of [`ObjectInspector`].
#[derive(Properties, PartialEq, Clone)]
pub struct ObjectInspectorProps {
    /// The heading, e.g. `deployment/web` or `pod/web-rev1-00003`.
    pub title: AttrValue,
    /// The object's YAML lines (`rollout_facade::yaml::lines`).
    pub lines: Rc<Vec<YamlLine>>,
    /// The lines this step changed (`rollout_facade::yaml::changed_lines(previous, current)`).
    #[prop_or_default]
    pub changed: Rc<Vec<ChangedLine>>,
}

/// A fresh id prefix per mounted inspector, for `aria-describedby`.
fn next_instance() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `metadata.generation` against `status.observedGeneration`, for the objects that have a
/// generation (Deployments and ReplicaSets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerationStatus {
    /// `metadata.generation`.
    pub generation: i64,
    /// `status.observedGeneration` (absent = 0).
    pub observed: i64,
}

impl GenerationStatus {
    /// Read from the lines; `None` for objects without a generation (pods).
    pub fn of(lines: &[YamlLine]) -> Option<GenerationStatus> {
        let value = |path: &str| {
            lines
                .iter()
                .find(|l| l.path == path)
                .and_then(|l| l.value.as_deref())
        };
        if !matches!(value("kind"), Some("Deployment" | "ReplicaSet")) {
            return None;
        }
        let generation = value("metadata.generation")?.parse().ok()?;
        let observed = value("status.observedGeneration")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Some(GenerationStatus {
            generation,
            observed,
        })
    }

    /// Whether the controller has acted on the latest spec (what `kubectl rollout status`
    /// waits for first).
    pub fn seen(self) -> bool {
        self.observed >= self.generation
    }
}

/// The pieces of one YAML line: indentation (and list dash), key, separator, value.
struct Parts<'a> {
    lead: &'a str,
    key: Option<&'a str>,
    sep: &'a str,
    value: Option<&'a str>,
}

fn parts(line: &YamlLine) -> Parts<'_> {
    let text = line.text.as_str();
    let indent = text.len() - text.trim_start_matches(' ').len();
    let dash = if text[indent..].starts_with("- ") {
        2
    } else {
        0
    };
    let (lead, rest) = text.split_at(indent + dash);
    let whole = Parts {
        lead,
        key: None,
        sep: "",
        value: Some(rest),
    };
    match line.value.as_deref() {
        None => match rest.strip_suffix(':') {
            Some(key) => Parts {
                lead,
                key: Some(key),
                sep: ":",
                value: None,
            },
            None => whole,
        },
        Some(v) if rest == v => whole,
        Some(v) => match rest.strip_suffix(v).and_then(|r| r.strip_suffix(": ")) {
            Some(key) => Parts {
                lead,
                key: Some(key),
                sep: ": ",
                value: Some(&rest[rest.len() - v.len()..]),
            },
            None => whole,
        },
    }
}

fn value_class(v: &str) -> &'static str {
    if v.starts_with('"') {
        "oi-str"
    } else if v == "true" || v == "false" {
        "oi-bool"
    } else if v.parse::<f64>().is_ok() {
        "oi-num"
    } else if v == "{}" || v == "[]" || v == "null" {
        "oi-empty"
    } else {
        "oi-str"
    }
}

fn line_body(line: &YamlLine) -> Html {
    let p = parts(line);
    html! {
        <>
            { p.lead }
            if let Some(key) = p.key {
                <span class="oi-key">{ key }</span>
            }
            { p.sep }
            if let Some(value) = p.value {
                <span class={value_class(value)}>{ value }</span>
            }
        </>
    }
}

/// What a changed line held before, in words.
fn was(previous: &Option<String>) -> String {
    match previous {
        Some(v) => format!("was {v}"),
        None => "new".to_string(),
    }
}

/// The object's YAML with this step's changes marked.
#[function_component(ObjectInspector)]
pub fn object_inspector(props: &ObjectInspectorProps) -> Html {
    let instance = *use_state(next_instance);
    let changed: HashMap<usize, &ChangedLine> = props.changed.iter().map(|c| (c.line, c)).collect();
    let change_id = |line: usize| format!("oi{instance}-change-{line}");
    let heading_id = format!("oi{instance}-title");
    let generation = GenerationStatus::of(&props.lines);
    let count = props
        .changed
        .iter()
        .filter(|c| c.line < props.lines.len())
        .count();

    let lines = props.lines.iter().enumerate().map(|(i, line)| {
        let body = line_body(line);
        match changed.get(&i) {
            Some(c) => {
                let note = was(&c.previous);
                let title = match &c.previous {
                    Some(v) => format!("{}: was {v}", line.path),
                    None => format!("{}: new in this step", line.path),
                };
                html! {
                    <>
                        <mark
                            class={classes!("oi-changed", c.previous.is_none().then_some("oi-new"))}
                            tabindex="0"
                            data-path={line.path.clone()}
                            data-was={note}
                            title={title}
                            aria-describedby={change_id(i)}
                        >{ body }</mark>
                        { "\n" }
                    </>
                }
            }
            None => html! {
                <><span class="oi-line" data-path={line.path.clone()}>{ body }</span>{ "\n" }</>
            },
        }
    });

    let generation_note = generation.map(|g| {
        let seen = g.seen();
        let (icon, verdict) = if seen {
            ("✓", "the controller has seen the latest spec")
        } else {
            (
                "!",
                "the controller has not yet seen the latest spec; kubectl rollout status waits for it",
            )
        };
        html! {
            <p
                class={classes!("oi-generation", if seen { "oi-seen" } else { "oi-unseen" })}
                data-testid="generation-status"
                data-seen={if seen { "true" } else { "false" }}
            >
                <span class="oi-generation-icon" aria-hidden="true"><span>{ icon }</span></span>
                <span>
                    <code>{ format!("generation {}", g.generation) }</code>
                    { " · " }
                    <code>{ format!("observedGeneration {}", g.observed) }</code>
                    { format!(" — {verdict}") }
                </span>
            </p>
        }
    });

    html! {
        <section class="oi" aria-labelledby={heading_id.clone()}>
            <header class="oi-head">
                <h3 class="oi-title" id={heading_id}>{ props.title.clone() }</h3>
                <span class="oi-count">
                    { match count {
                        0 => "no changes in this step".to_string(),
                        1 => "1 line changed in this step".to_string(),
                        n => format!("{n} lines changed in this step"),
                    } }
                </span>
            </header>
            { for generation_note }
            // It scrolls: focusable, so the keyboard can scroll it too.
            <pre class="oi-yaml" data-testid="object-inspector" tabindex="0" role="region"
                aria-label={format!("{} as YAML", props.title)}>{ for lines }</pre>
            <ul class="oi-sr-only">
                { for props.changed.iter().filter_map(|c| {
                    let line = props.lines.get(c.line)?;
                    let text = match &c.previous {
                        Some(v) => format!(
                            "{} changed from {v} to {}",
                            line.path,
                            line.value.as_deref().unwrap_or("")
                        ),
                        None => format!(
                            "{} is new: {}",
                            line.path,
                            line.value.as_deref().unwrap_or("")
                        ),
                    };
                    Some(html! { <li id={change_id(c.line)}>{ text }</li> })
                }) }
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(path: &str, value: Option<&str>, text: &str) -> YamlLine {
        YamlLine {
            path: path.into(),
            value: value.map(Into::into),
            text: text.into(),
        }
    }

    fn joined(p: &Parts) -> String {
        format!(
            "{}{}{}{}",
            p.lead,
            p.key.unwrap_or(""),
            p.sep,
            p.value.unwrap_or("")
        )
    }

    #[test]
    fn lines_split_into_key_and_value_and_join_back() {
        let cases = [
            line("spec.replicas", Some("3"), "  replicas: 3"),
            line("spec", None, "spec:"),
            line(
                "status.conditions[0].lastTransitionTime",
                Some("\"2026-01-01T00:00:05Z\""),
                "  - lastTransitionTime: \"2026-01-01T00:00:05Z\"",
            ),
            line("a[0]", Some("x"), "  - x"),
            line("m", Some("\"a: b\""), "  m: \"a: b\""),
        ];
        for c in &cases {
            assert_eq!(joined(&parts(c)), c.text, "{c:?}");
        }
        let p = parts(&cases[2]);
        assert_eq!(p.lead, "  - ");
        assert_eq!(p.key, Some("lastTransitionTime"));
        assert_eq!(p.value, Some("\"2026-01-01T00:00:05Z\""));
    }

    #[test]
    fn generation_status_reads_the_two_fields() {
        let lines = vec![
            line("kind", Some("Deployment"), "kind: Deployment"),
            line("metadata.generation", Some("3"), "  generation: 3"),
        ];
        let g = GenerationStatus::of(&lines).unwrap();
        assert_eq!((g.generation, g.observed, g.seen()), (3, 0, false));
        let pod = vec![line("kind", Some("Pod"), "kind: Pod")];
        assert_eq!(GenerationStatus::of(&pod), None);
    }
}
