//! One test per row of the README's table "How pods start: what is read from a manifest and
//! what is assumed", and the README's table of the documentation's nginx-deployment
//! forecasts, checked against `rollout plan --json`.

mod common;
use common::{json, rollout, write};
use serde_json::Value;

/// A Deployment of `replicas` with `pod` spliced into its pod spec and `container` into its
/// container (YAML lines, indented by the caller).
fn manifest(pod: &str, container: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n{pod}      containers:\n      - name: web\n        image: nginx:1.14.2\n{container}"
    )
}

fn plan(tag: &str, text: &str, flags: &[&str]) -> Value {
    let path = write("timing", &format!("{tag}.yaml"), text);
    let mut args = vec!["plan", path.to_str().unwrap(), "--json"];
    args.extend(flags);
    json(&rollout(&args))
}

fn startup(out: &Value) -> &Value {
    &out["model"]["startup"]
}

#[test]
fn read_probes_time_the_pod() {
    // readinessProbe {initialDelaySeconds: 5} (period 10): the run at the start is inside the
    // delay, the tick at 10 s succeeds.
    let out = plan(
        "probe",
        &manifest("", "        readinessProbe: {initialDelaySeconds: 5}\n"),
        &[],
    );
    assert_eq!(startup(&out)["timing"], "probes");
    assert_eq!(startup(&out)["readySeconds"], 10);
}

#[test]
fn read_init_containers_run_first_at_once() {
    let out = plan(
        "init",
        &manifest(
            "      initContainers:\n      - name: migrate\n        image: migrate:1\n",
            "",
        ),
        &[],
    );
    assert_eq!(
        startup(&out)["read"]["initContainers"],
        serde_json::json!(["migrate"])
    );
    // Assumed to finish at once: no probe, pull 0: Ready at 0 s.
    assert_eq!(startup(&out)["readySeconds"], 0);
    assert!(
        !out["warnings"].to_string().contains("not modelled"),
        "{out}"
    );
}

#[test]
fn read_native_sidecars_gate_readiness() {
    let pod = "      initContainers:\n      - name: proxy\n        image: envoy:1.30\n        restartPolicy: Always\n        readinessProbe: {periodSeconds: 5}\n";
    let out = plan("sidecar", &manifest(pod, ""), &["--app-ready", "12s"]);
    // The sidecar's probe (no delay, period 5) waits for its app: ticks at 0, 5, 10 s fail,
    // 15 s succeeds; the pod is Ready when the sidecar is.
    assert_eq!(
        startup(&out)["read"]["sidecars"],
        serde_json::json!(["proxy"])
    );
    assert_eq!(startup(&out)["readySeconds"], 15);
}

#[test]
fn read_the_grace_period() {
    let grace = |s: &str| manifest(&format!("      terminationGracePeriodSeconds: {s}\n"), "");
    let out = plan("grace60", &grace("60"), &[]);
    assert_eq!(
        (
            out["model"]["terminationSeconds"].clone(),
            out["model"]["terminationFrom"].clone()
        ),
        (60.into(), "terminationGracePeriodSeconds".into())
    );
    let out = plan("grace-absent", &manifest("", ""), &[]);
    assert_eq!(out["model"]["terminationSeconds"], 30);
    let out = plan("grace-negative", &grace("-5"), &[]);
    assert_eq!(out["model"]["terminationSeconds"], 1);
    let out = plan("grace-flag", &grace("60"), &["--termination", "0"]);
    assert_eq!(out["model"]["terminationSeconds"], 0);
}

#[test]
fn assumed_pull_times_a_pod_without_probes() {
    let out = plan("pull", &manifest("", ""), &["--pull", "12s"]);
    assert_eq!(startup(&out)["timing"], "containersStarted");
    assert_eq!(
        (
            startup(&out)["runningSeconds"].clone(),
            startup(&out)["readySeconds"].clone()
        ),
        (12.into(), 12.into())
    );
}

#[test]
fn assumed_app_ready_counts_only_with_a_probe() {
    // No probe: nothing asks the app, Ready once running (0 s).
    let out = plan("app-none", &manifest("", ""), &["--app-ready", "40s"]);
    assert_eq!(startup(&out)["readySeconds"], 0);
    // A readiness probe without delay (period 10): runs at 0, 10, 20, 30 s fail, the app
    // answers from 40 s: Ready at 40 s.
    let out = plan(
        "app-probe",
        &manifest("", "        readinessProbe: {}\n"),
        &["--app-ready", "40s"],
    );
    assert_eq!(startup(&out)["readySeconds"], 40);
}

#[test]
fn deprecated_ready_after_is_the_pull() {
    let out = plan("ready-after", &manifest("", ""), &["--ready-after", "30s"]);
    assert_eq!(startup(&out)["assumed"]["pullSeconds"], 30);
    assert_eq!(startup(&out)["readySeconds"], 30);
    assert!(
        out["warnings"].to_string().contains("is deprecated"),
        "{out}"
    );
}

/// The README's nginx-deployment table: each row's manifest and flags, planned with `--pull
/// 30s`, against the figures it states.
#[test]
fn the_readmes_nginx_table_is_what_the_cli_says() {
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"),
    )
    .unwrap();
    let rows: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| manifest | startRound"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(rows.len(), 6, "the README has the nginx table");
    let nginx = |replicas: u32, strategy: &str| {
        format!("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx-deployment\nspec:\n  replicas: {replicas}\n  selector:\n    matchLabels: {{app: nginx}}\n  strategy: {strategy}\n  template:\n    metadata:\n      labels: {{app: nginx}}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.14.2\n")
    };
    let cases: [(String, &[&str]); 6] = [
        (nginx(3, "{type: RollingUpdate}"), &[]),
        (nginx(3, "{type: RollingUpdate}"), &["--termination", "0"]),
        (nginx(3, "{type: RollingUpdate}"), &["--bad-image"]),
        (
            nginx(
                10,
                "{type: RollingUpdate, rollingUpdate: {maxSurge: 3, maxUnavailable: 2}}",
            ),
            &[],
        ),
        (nginx(3, "{type: Recreate}"), &[]),
        (
            nginx(
                10,
                "{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}",
            ),
            &[],
        ),
    ];
    for (i, (row, (text, flags))) in rows.iter().zip(cases.iter()).enumerate() {
        let mut all = vec!["--pull", "30s"];
        all.extend(flags.iter());
        let out = plan(&format!("nginx-{i}"), text, &all);
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let got: Vec<String> = [
            "startRound",
            "completeRound",
            "durationSeconds",
            "peakPods",
            "minAvailable",
            "deadlineExceededRound",
        ]
        .iter()
        .map(|k| out[k].to_string())
        .collect();
        assert_eq!(cells[1..].to_vec(), got, "README row {row}");
    }
}
