//! The messages a user gets for the files people hand `rollout plan` by mistake or as they
//! are (issue #37, item 5): a Helm template (its first line included), a kustomize patch, numbers
//! the API server's decoder refuses, a negative grace period, two Deployments of one name, the
//! 3 MiB limit per object, `--help` on every subcommand, and a manifest given to a command that
//! takes a scenario.

mod common;
use common::{accepted, json, refused, rollout, write};

const WEB: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: REPLICAS
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      terminationGracePeriodSeconds: GRACE
      containers:
      - name: web
        image: nginx:1.14.2
";

fn web(replicas: &str, grace: &str) -> String {
    WEB.replace("REPLICAS", replicas).replace("GRACE", grace)
}

#[test]
fn a_helm_template_is_told_to_render_first_even_on_its_first_line() {
    for (text, line) in [
        (
            "{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: Deployment\n{{- end }}\n",
            1,
        ),
        (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n",
            4,
        ),
        ("{{ include \"chart.deployment\" . }}\n", 1),
    ] {
        let path = write("messages", "helm.yaml", text);
        let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
        assert!(
            e.contains(&format!("line {line}: `{{{{` outside a string: this is a Helm template: render it first (`helm template … | rollout plan -`)")),
            "{text}: {e}"
        );
        assert!(!e.contains("not valid JSON"), "{e}");
    }
}

#[test]
fn a_kustomize_patch_is_told_to_run_kustomize_build() {
    let patch =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n";
    let image_only = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {limits: {cpu: 500m}}\n";
    let directive = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: sidecar\n        $patch: delete\n      - name: web\n        image: nginx:1.16.1\n";
    for (text, api) in [
        (patch, "spec.template.spec.containers: Required value"),
        (
            image_only,
            "spec.template.spec.containers[0].image: Required value",
        ),
        (directive, "strategic-merge-patch directives"),
    ] {
        let path = write("messages", "patch.yaml", text);
        let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
        assert!(e.contains(api), "{e}");
        assert!(e.contains("looks like a kustomize patch"), "{e}");
        assert!(e.contains("run `kustomize build` first"), "{e}");
    }
}

#[test]
fn numbers_out_of_int32_are_refused_as_the_api_server_decodes_them() {
    let path = write("messages", "big.yaml", &web("2147483648", "30"));
    let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
    assert!(
        e.contains("Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32"),
        "{e}"
    );
    // The largest int32 is a number the decoder takes; validation then has its say, and the
    // page's limit of 10,000 replicas refuses it by name.
    let path = write("messages", "max.yaml", &web("2147483647", "30"));
    let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
    assert!(!e.contains("cannot unmarshal"), "{e}");
    let path = write("messages", "frac.yaml", &web("2.5", "30"));
    let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
    assert!(e.contains("cannot unmarshal number 2.5 into Go struct field DeploymentSpec.spec.replicas of type int32"), "{e}");
}

#[test]
fn a_negative_grace_period_is_taken_as_the_api_server_takes_it() {
    // v1.28's validation does not refuse it; CheckGracefulDelete deletes such pods with 1 s.
    let path = write("messages", "grace.yaml", &web("3", "-1"));
    let out = json(&rollout(&["plan", path.to_str().unwrap(), "--json"]));
    assert_eq!(out["model"]["terminationSeconds"], 1, "{out}");
    let warnings = out["warnings"].to_string();
    assert!(
        warnings.contains("terminationGracePeriodSeconds -1: the API server accepts a negative grace period and deletes the pods with 1 s instead"),
        "{warnings}"
    );
    let path = write("messages", "grace.yaml", &web("3", "\"30\""));
    let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
    assert!(e.contains("cannot unmarshal string into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64"), "{e}");
}

#[test]
fn of_two_deployments_named_alike_the_last_wins_with_a_warning() {
    let text = format!("{}---\n{}", web("2", "30"), web("7", "30"));
    let path = write("messages", "twice.yaml", &text);
    let out = json(&rollout(&["plan", path.to_str().unwrap(), "--json"]));
    let warnings = out["warnings"].to_string();
    assert!(
        warnings.contains("Deployment \\\"web\\\" is in the file 2 times (document 1 and document 2): kubectl apply applies them in order and the last one stays, so document 2 is read"),
        "{warnings}"
    );
    // 7 replicas, the second document's (the first has 2); pods without probes, pull 0 s,
    // are Ready as they start, so all 7 stay available throughout.
    assert_eq!(out["minAvailable"], 7, "{out}");
}

#[test]
fn the_size_limit_applies_to_each_object_not_the_file() {
    // Two ConfigMaps of 2 MiB each and the Deployment: 4 MiB of file, every object within
    // 3 MiB, as kubectl apply sends them one request each.
    let data = "x".repeat(2 * 1024 * 1024);
    let cm = |n: u8| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{n}\ndata:\n  big: {data}\n")
    };
    let text = format!("{}---\n{}---\n{}", cm(1), cm(2), web("3", "30"));
    let path = write("messages", "big-file.yaml", &text);
    let out = json(&rollout(&["plan", path.to_str().unwrap(), "--json"]));
    assert_eq!(out["deployment"], "web");
    // One ConfigMap of 4 MiB is over the API server's limit for one request.
    let big = "x".repeat(4 * 1024 * 1024);
    let text = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  big: {big}\n---\n{}",
        web("3", "30")
    );
    let path = write("messages", "big-object.yaml", &text);
    let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
    assert!(e.contains("document 1 (ConfigMap) is 4,194,"), "{e}");
    assert!(e.contains("at most 3,145,728 bytes in one request"), "{e}");
}

#[test]
fn help_works_on_every_subcommand() {
    for sub in [
        "plan", "races", "walk", "trace", "show", "bench", "import", "presets",
    ] {
        for flag in ["--help", "-h"] {
            let out = rollout(&[sub, flag]);
            accepted(&out);
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.starts_with("usage:"), "{sub}: {text}");
            assert!(text.contains(&format!("rollout {sub}")), "{sub}: {text}");
        }
    }
}

#[test]
fn a_manifest_given_for_a_scenario_is_told_which_command_takes_it() {
    let path = write("messages", "web.yaml", &web("3", "30"));
    let p = path.to_str().unwrap();
    for sub in ["show", "races", "trace", "walk"] {
        let e = refused(&rollout(&[sub, p]));
        assert!(
            e.contains(&format!("{p} is a Kubernetes manifest, not a scenario: `rollout plan {p}` forecasts its rollout")),
            "{sub}: {e}"
        );
        assert!(!e.contains("not valid JSON"), "{sub}: {e}");
    }
}

const SIDECAR: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      initContainers:
      - name: migrate
        image: migrate:1
      - name: proxy
        image: envoy:1.30
        restartPolicy: Always
        readinessProbe: {initialDelaySeconds: 20, periodSeconds: 5}
      containers:
      - name: web
        image: nginx:1.14.2
";

#[test]
fn a_native_sidecar_runs_beside_the_app_and_gates_readiness() {
    let path = write("messages", "sidecar.yaml", SIDECAR);
    let p = path.to_str().unwrap();
    let out = json(&rollout(&["plan", p, "--json"]));
    // The app has no probe (ready once running, at 0 s); the sidecar's readiness probe,
    // delay 20 s and period 5 s, ticks at 0, 5, … and succeeds at 20 s: the pod is Ready at
    // 20 s, the image set in round 21, and the new pod is Ready 20 s later.
    assert_eq!(out["model"]["startup"]["readySeconds"], 20, "{out}");
    assert_eq!(out["startRound"], 21, "{out}");
    assert_eq!(out["durationSeconds"], 20, "{out}");
    let warnings = out["warnings"].to_string();
    assert!(!warnings.contains("not modelled"), "{warnings}");
    let text = String::from_utf8(rollout(&["plan", p]).stdout).unwrap();
    assert!(text.contains("native sidecars proxy (initContainers with restartPolicy: Always) start before the app's containers and run beside them"), "{text}");
    assert!(text.contains("init containers migrate run first"), "{text}");
    assert!(!text.contains("not modelled"), "{text}");
    // A sidecar's startup probe would hold the app back: refused, with one message.
    let held = SIDECAR.replace(
        "readinessProbe: {initialDelaySeconds: 20, periodSeconds: 5}",
        "startupProbe: {periodSeconds: 5}",
    );
    let path = write("messages", "sidecar-startup.yaml", &held);
    let e = refused(&rollout(&["plan", path.to_str().unwrap()]));
    assert!(e.contains("spec.template.spec.initContainers[1].startupProbe: a native sidecar's startup probe holds the next container back"), "{e}");
}
