//! `vectors/validation.json`: what the API server says about a Deployment on create and on
//! update, checked field by field against `rollout_core::validation`.

use rollout_core::scenario::DeploymentInput;
use rollout_core::validation::{validate_create, validate_update, ValidationOutcome};
use serde_json::{json, Value};

fn deployment(v: &Value, what: &str) -> DeploymentInput {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("bad {what}: {e}: {v}"))
}

/// Our outcome in the vector's `expected` format (optional keys only when the vector has them).
fn as_expected(out: &ValidationOutcome, expected: &Value) -> Value {
    let errors: Vec<Value> = out
        .errors
        .iter()
        .map(|e| {
            let mut o = json!({
                "field": e.field,
                "type": e.type_,
                "typeString": e.type_string,
                "message": e.message,
                "causeMessage": e.cause_message,
            });
            if !e.detail.is_empty() {
                o["detail"] = json!(e.detail);
            }
            o
        })
        .collect();
    let mut v = json!({
        "valid": out.is_valid(),
        "errors": errors,
        "errorString": out.error_string,
        "statusError": out.status_error,
    });
    if !out.warnings.is_empty() {
        v["warnings"] = json!(out.warnings);
    }
    if let Some(code) = out.status_code() {
        v["statusCode"] = json!(code);
    }
    if let Some(reason) = out.status_reason() {
        v["statusReason"] = json!(reason);
    }
    if expected.get("errorsFromValidateDeploymentUpdate").is_some() {
        v["errorsFromValidateDeploymentUpdate"] = json!(out.errors_from_validate_deployment_update);
    }
    v
}

#[test]
fn validation_vectors() {
    let doc = rollout_tests::read_json("vectors/validation.json");
    let cases = doc["cases"].as_array().expect("validation.json: cases");
    assert!(!cases.is_empty(), "validation.json has no cases");
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let input = &case["input"];
        let new = deployment(&input["deployment"], "input.deployment");
        let out = match case["op"].as_str() {
            Some("create") => validate_create(&new),
            Some("update") => validate_update(&new, &deployment(&input["old"], "input.old")),
            other => panic!("case {i}: unknown op {other:?}"),
        };
        let expected = &case["expected"];
        let got = as_expected(&out, expected);
        if let Some(diff) = rollout_tests::first_difference("expected", expected, &got) {
            failures.push(format!("case {i} ({}): {diff}", case["description"]));
        }
    }
    println!(
        "validation.json: {} passed, {} failed",
        cases.len() - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} validation cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
