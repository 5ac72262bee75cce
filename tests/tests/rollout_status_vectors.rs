//! `vectors/rollout_status.json`: what `kubectl rollout status` prints for a Deployment state,
//! checked against `rollout_core::kubectl::rollout_status`.

use rollout_core::kubectl::{rollout_status, RolloutStatusInput};

#[test]
fn rollout_status_vectors() {
    let doc = rollout_tests::read_json("vectors/rollout_status.json");
    let cases = doc["cases"].as_array().expect("rollout_status.json: cases");
    assert!(!cases.is_empty(), "rollout_status.json has no cases");
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let raw = &case["input"];
        let input: RolloutStatusInput = serde_json::from_value(raw.clone())
            .unwrap_or_else(|e| panic!("case {i}: bad input: {e}: {raw}"));
        let revision = raw["revisionArg"]
            .as_i64()
            .unwrap_or_else(|| panic!("case {i}: no revisionArg"));
        let got = rollout_status(&input, revision);
        let want = &case["expected"];
        let want_message = want["message"].as_str().expect("expected.message");
        let want_done = want["done"].as_bool().expect("expected.done");
        let want_error = want["error"].as_str();
        if got.message != want_message
            || got.done != want_done
            || got.error.as_deref() != want_error
        {
            failures.push(format!(
                "case {i} (from {}): expected ({want_message:?}, {want_done}, {want_error:?}), got ({:?}, {}, {:?})",
                case["from"], got.message, got.done, got.error
            ));
        }
    }
    println!(
        "rollout_status.json: {} passed, {} failed",
        cases.len() - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} rollout status cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
