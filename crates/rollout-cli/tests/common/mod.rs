//! What the CLI's test files share: running `rollout` as a user does, and reading what it
//! printed. Each test file uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Writes `text` to the file `name` in this test process's own folder (`tag` names the
/// suite), and returns its path.
pub fn write(tag: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rollout-{tag}-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `rollout ARGS…`, run to its end.
pub fn rollout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rollout"))
        .args(args)
        .output()
        .expect("rollout runs")
}

/// A run that succeeded (its standard error shown otherwise).
pub fn accepted(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The one JSON value a successful run printed.
pub fn json(out: &Output) -> serde_json::Value {
    accepted(out);
    serde_json::from_slice(&out.stdout).expect("one JSON value")
}

/// The message of a refused run: exit code 2, nothing on standard output.
pub fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    String::from_utf8(out.stderr.clone()).unwrap()
}
