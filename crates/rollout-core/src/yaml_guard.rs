//! Bounds on YAML before it is loaded, as Kubernetes' YAML decoder bounds it. yaml-rust2's
//! loader expands every alias into a copy of its anchor while it loads, so a "billion laughs"
//! text (799 bytes: nine anchors, each a list of nine aliases of the one before) would grow to
//! 10^9 nodes and many gigabytes before anything could look at it. This module reads the
//! parser's events only, and counts what the aliases would expand to without expanding them:
//! an anchor remembers its size, and an alias adds that size to the count.
//!
//! The rule is go-yaml's (sigs.k8s.io/yaml, which kubectl and the API server use): a document
//! with more than 100 aliases and more than 1,000 decoded nodes is refused when the share of
//! aliases among the decoded nodes exceeds 99 % up to 400,000 nodes, falling linearly to 10 %
//! at 4,000,000 ("document contains excessive aliasing"). For the billion laughs: level k has
//! N(k) = 1 + 9·(1 + N(k−1)) nodes of which A(k) = 9·(1 + A(k−1)) are aliases, a share near
//! 50 %, so go-yaml stops near 2.4 million nodes; this module refuses it before it is loaded,
//! as it also refuses more than [`MAX_YAML_EXPANDED_NODES`] nodes or
//! [`MAX_YAML_EXPANDED_BYTES`] bytes of scalars in all, nesting deeper than [`MAX_DEPTH`], and
//! more than [`MAX_YAML_DOCUMENTS`] documents.

use crate::limits::{
    group, MAX_DEPTH, MAX_YAML_DOCUMENTS, MAX_YAML_EXPANDED_BYTES, MAX_YAML_EXPANDED_NODES,
};
use std::collections::HashMap;
use yaml_rust2::parser::{Event, Parser};

/// What a node expands to: nodes decoded, aliases among them, bytes of scalars.
#[derive(Clone, Copy, Default)]
struct Size {
    nodes: u64,
    aliases: u64,
    bytes: u64,
}

impl Size {
    fn add(&mut self, other: Size) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.aliases = self.aliases.saturating_add(other.aliases);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }
}

/// go-yaml's `allowedAliasRatio`: 0.99 up to 400,000 decoded nodes, 0.10 from 4,000,000, and
/// linear between (at 2,200,000 nodes: 0.99 − 0.89 · 0.5 = 0.545).
fn allowed_alias_ratio(decoded: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    if decoded <= LOW {
        0.99
    } else if decoded >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decoded - LOW) as f64 / (HIGH - LOW) as f64)
    }
}

/// Whether a document of `size` so far is within the bounds; `Err` says which.
fn within(size: &Size) -> Result<(), String> {
    if size.aliases > 100
        && size.nodes > 1_000
        && size.aliases as f64 / size.nodes as f64 > allowed_alias_ratio(size.nodes)
    {
        return Err(format!(
            "the YAML contains excessive aliasing: its aliases expand to more than {} nodes, {} of them aliases (Kubernetes' YAML decoder refuses such documents)",
            group(size.nodes.min(i64::MAX as u64) as i64),
            group(size.aliases.min(i64::MAX as u64) as i64)
        ));
    }
    if size.nodes > MAX_YAML_EXPANDED_NODES {
        return Err(format!(
            "the YAML expands to more than {} nodes; Rollout Lab reads at most {}",
            group(MAX_YAML_EXPANDED_NODES as i64),
            group(MAX_YAML_EXPANDED_NODES as i64)
        ));
    }
    if size.bytes > MAX_YAML_EXPANDED_BYTES {
        return Err(format!(
            "the YAML's values expand to more than {} bytes; Rollout Lab reads at most {}",
            group(MAX_YAML_EXPANDED_BYTES as i64),
            group(MAX_YAML_EXPANDED_BYTES as i64)
        ));
    }
    Ok(())
}

/// Checks `text` before it is loaded: aliases (by go-yaml's ratio and by expanded size),
/// nesting depth, the number of documents. Syntax errors are left to the loader, which
/// reports them with their line.
pub fn check(text: &str) -> Result<(), String> {
    let mut parser = Parser::new_from_str(text);
    let mut anchors: HashMap<usize, Size> = HashMap::new();
    // The collections open around the current event, each with its anchor and size so far.
    let mut open: Vec<(usize, Size)> = Vec::new();
    // The current document's size, aliases expanded.
    let mut document = Size::default();
    let mut documents = 0usize;
    loop {
        let Ok((event, _)) = parser.next_token() else {
            return Ok(());
        };
        // What this event adds to the collection it is in (None: it opens or is a marker).
        let leaf = match event {
            Event::StreamEnd => return Ok(()),
            Event::DocumentStart => {
                documents += 1;
                if documents > MAX_YAML_DOCUMENTS {
                    return Err(format!(
                        "the YAML holds more than {} documents; Rollout Lab reads at most {}",
                        group(MAX_YAML_DOCUMENTS as i64),
                        group(MAX_YAML_DOCUMENTS as i64)
                    ));
                }
                document = Size::default();
                anchors.clear();
                None
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if open.len() >= MAX_DEPTH {
                    return Err(format!(
                        "the YAML nests deeper than {MAX_DEPTH} levels; Rollout Lab reads at most {MAX_DEPTH}"
                    ));
                }
                open.push((anchor, Size::default()));
                document.add(Size {
                    nodes: 1,
                    aliases: 0,
                    bytes: 0,
                });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some((anchor, mut size)) = open.pop() else {
                    continue;
                };
                size.nodes = size.nodes.saturating_add(1);
                if anchor > 0 {
                    anchors.insert(anchor, size);
                }
                Some(size)
            }
            Event::Scalar(value, _, anchor, _) => {
                let size = Size {
                    nodes: 1,
                    aliases: 0,
                    bytes: value.len() as u64,
                };
                if anchor > 0 {
                    anchors.insert(anchor, size);
                }
                document.add(size);
                Some(size)
            }
            Event::Alias(id) => {
                let mut size = anchors.get(&id).copied().unwrap_or_default();
                size.add(Size {
                    nodes: 1,
                    aliases: 1,
                    bytes: 0,
                });
                document.add(size);
                within(&document)?;
                Some(size)
            }
            Event::Nothing | Event::StreamStart | Event::DocumentEnd => None,
        };
        // A collection's own size counts once it closes; a scalar's or alias's at once.
        if let Some(size) = leaf {
            if let Some((_, parent)) = open.last_mut() {
                parent.add(size);
            }
        }
        within(&document)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic "billion laughs": nine levels of nine aliases each.
    pub(crate) fn billion_laughs() -> String {
        let mut s = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
        for w in names.windows(2) {
            let (prev, next) = (w[0], w[1]);
            s.push_str(&format!(
                "{next}: &{next} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
            ));
        }
        s
    }

    #[test]
    fn the_billion_laughs_is_refused_before_it_is_loaded() {
        let bomb = billion_laughs();
        assert!(bomb.len() < 900, "{}", bomb.len());
        let start = std::time::Instant::now();
        let e = check(&bomb).unwrap_err();
        assert!(start.elapsed().as_secs_f64() < 1.0);
        assert!(
            e.contains("excessive aliasing") || e.contains("expands to more than"),
            "{e}"
        );
        // Inside metadata.annotations too.
        let nested = format!(
            "kind: Deployment\nmetadata:\n  annotations:\n{}",
            bomb.lines()
                .map(|l| format!("    {l}\n"))
                .collect::<String>()
        );
        assert!(check(&nested).is_err());
    }

    #[test]
    fn ordinary_yaml_and_a_few_aliases_pass() {
        assert_eq!(check("a: 1\nb: [1, 2]\n"), Ok(()));
        assert_eq!(check("base: &b {x: 1}\none: *b\ntwo: *b\n"), Ok(()));
        assert_eq!(
            check("a: [unclosed"),
            Ok(()),
            "syntax is the loader's to report"
        );
    }

    #[test]
    fn depth_documents_and_the_ratio_are_bounded() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        // The scanner's own flow limit or ours: refused either way, never loaded.
        let block = (0..200)
            .map(|i| format!("{}k:\n", " ".repeat(i * 2)))
            .collect::<String>()
            + &" ".repeat(400)
            + "v: 1\n";
        assert!(check(&block).unwrap_err().contains("nests deeper than 128"));
        let _ = check(&deep);
        let docs = "---\na: 1\n".repeat(MAX_YAML_DOCUMENTS + 1);
        assert!(check(&docs)
            .unwrap_err()
            .contains("more than 1,000 documents"));
        assert_eq!(allowed_alias_ratio(2_200_000), 0.99 - 0.89 * 0.5);
    }
}
