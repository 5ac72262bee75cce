//! Workspace-level test helpers: where the conformance fixtures are, and reading them.

use std::path::{Path, PathBuf};

/// The conformance fixture directory: `$ROLLOUT_CONFORMANCE_DIR`, else
/// `<repo root>/../shared/conformance`. Panics when it does not exist, so a suite that needs
/// the fixtures fails instead of silently passing.
pub fn conformance_dir() -> PathBuf {
    let dir = match std::env::var_os("ROLLOUT_CONFORMANCE_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance"),
    };
    assert!(
        dir.is_dir(),
        "conformance fixtures not found at {} (set ROLLOUT_CONFORMANCE_DIR to the directory \
         holding README.md, scenarios/, traces/ and vectors/)",
        dir.display()
    );
    dir
}

/// The `.json` files directly in `dir`, sorted by name (panics when it cannot be listed).
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Reads a scenario file (conformance format).
pub fn read_scenario(path: &Path) -> Result<rollout_core::scenario::Scenario, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    rollout_core::scenario::Scenario::from_json(&text).map_err(|e| format!("scenario: {e}"))
}

/// Parses the JSON file at `rel` under [`conformance_dir`], panicking with the path on failure.
pub fn read_json(rel: &str) -> serde_json::Value {
    let path = conformance_dir().join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()))
}

/// The first place where two traces differ, as `compare.py` finds it: every key of
/// `expected` must be in `actual` with an equal value (same JSON type), no extra keys, lists in
/// order; keys ending in `Raw` are ignored on both sides. `None` when they agree.
pub fn first_difference(
    path: &str,
    expected: &serde_json::Value,
    actual: &serde_json::Value,
) -> Option<String> {
    use serde_json::Value;
    let raw = |k: &str| k.ends_with("Raw");
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e.iter().filter(|(k, _)| !raw(k)) {
                match a.get(k) {
                    None => return Some(format!("{path}.{k}: missing (expected {ev})")),
                    Some(av) => {
                        if let Some(d) = first_difference(&format!("{path}.{k}"), ev, av) {
                            return Some(d);
                        }
                    }
                }
            }
            let extra: Vec<&String> = a
                .keys()
                .filter(|k| !raw(k) && !e.contains_key(*k))
                .collect();
            (!extra.is_empty()).then(|| format!("{path}: unexpected fields {extra:?}"))
        }
        (Value::Array(e), Value::Array(a)) => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                if let Some(d) = first_difference(&format!("{path}[{i}]"), ev, av) {
                    return Some(d);
                }
            }
            (e.len() != a.len()).then(|| format!("{path}: {} items, expected {}", a.len(), e.len()))
        }
        (Value::Number(e), Value::Number(a)) => {
            // 3 and 3.0 are different: integers must stay integers.
            (e != a || e.is_f64() != a.is_f64()).then(|| format!("{path}: expected {e}, got {a}"))
        }
        (e, a) => (e != a).then(|| format!("{path}: expected {e}, got {a}")),
    }
}

/// The race schedule fixtures (`../shared/races`: scenarios/, traces/): `$ROLLOUT_RACES_DIR`,
/// else beside the conformance fixtures. Panics when it does not exist.
pub fn races_dir() -> PathBuf {
    let dir = match std::env::var_os("ROLLOUT_RACES_DIR") {
        Some(d) => PathBuf::from(d),
        None => conformance_dir().join("../races"),
    };
    assert!(
        dir.is_dir(),
        "race fixtures not found at {} (set ROLLOUT_RACES_DIR to the directory holding \
         scenarios/ and traces/)",
        dir.display()
    );
    dir
}
