//! `rollout plan --json` on every file of `../shared/manifests` (real manifests as people keep
//! them, read in place, never copied): one Deployment after skipping the rest gets a forecast;
//! several get their names (exit 2) and `--deployment NAME` a forecast for each; Helm templates
//! are told to render first; the broken files get messages naming file, line or field.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/manifests")
}

fn rollout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rollout"))
        .args(args)
        .output()
        .expect("rollout runs")
}

/// What a file must give.
enum Expect {
    /// A forecast of this Deployment, with a warning containing each of these.
    Forecast(&'static str, &'static [&'static str]),
    /// These Deployments: exit 2 without a name.
    Several(&'static [&'static str]),
    /// A Helm template, its first action on this line.
    Helm(usize),
    /// Refused with a message containing each of these.
    Refused(&'static [&'static str]),
}

use Expect::*;

const SKIPPED: &str = "skipped";
const REMOVED: &str = "removed from this group in Kubernetes 1.16";

/// Every file, by name. A file added to ../shared/manifests without a line here fails the test.
const FILES: &[(&str, Expect)] = &[
    ("05-microservices-demo-frontend.yaml", Forecast("frontend", &[SKIPPED, "2 × Service, 1 × ServiceAccount"])),
    ("06-microservices-demo-release-all.yaml", Several(&["frontend", "adservice", "currencyservice", "cartservice", "redis-cart", "loadgenerator", "recommendationservice", "checkoutservice", "emailservice", "paymentservice", "shippingservice", "productcatalogservice"])),
    ("07-microservices-demo-helm-frontend.yaml", Helm(15)),
    ("08-podinfo-kustomize-deployment.yaml", Forecast("podinfo", &[])),
    ("09-podinfo-helm-deployment.yaml", Helm(4)),
    ("10-argocd-guestbook-ui-deployment.yaml", Forecast("guestbook-ui", &[])),
    ("11-argocd-helm-guestbook-deployment.yaml", Helm(4)),
    ("12-argocd-sockshop-front-end-dep.yaml", Forecast("front-end", &[])),
    ("13-k8s-examples-etcd-recreate-dupkey.yaml", Refused(&["13-k8s-examples-etcd-recreate-dupkey.yaml: ", "yaml: line ", "key \"selector\" already set in map (first at line "])),
    ("14-k8s-examples-guestbook-all-in-one.yaml", Several(&["redis-master", "redis-replica", "frontend"])),
    ("15-k8s-examples-frontend-extensions-v1beta1.yaml", Forecast("frontend", &[REMOVED, "maxSurge 1, maxUnavailable 1"])),
    ("16-k8s-examples-frontend-apps-v1beta2.yaml", Forecast("frontend", &[REMOVED])),
    ("17-k8s-examples-selenium-hub.yaml", Forecast("selenium-hub", &[])),
    ("18-k8s-examples-vllm-gpu.yaml", Forecast("vllm-gemma-deployment", &["nvidia.com/gpu not modelled (nodes are assumed to have enough)"])),
    ("19-istio-bookinfo.yaml", Several(&["details-v1", "ratings-v1", "reviews-v1", "reviews-v2", "reviews-v3", "productpage-v1"])),
    ("20-ingress-nginx-cloud-deploy.yaml", Forecast("ingress-nginx-controller", &[SKIPPED])),
    ("21-kube-prometheus-prometheus-operator.yaml", Forecast("prometheus-operator", &["kube-rbac-proxy"])),
    ("22-kube-prometheus-grafana.yaml", Forecast("grafana", &[])),
    ("23-opentelemetry-demo-all.yaml", Several(&["opentelemetry-demo-grafana", "opentelemetry-demo-jaeger", "opentelemetry-demo-otelcol", "opentelemetry-demo-prometheus-server", "opentelemetry-demo-accountingservice", "opentelemetry-demo-adservice", "opentelemetry-demo-cartservice", "opentelemetry-demo-checkoutservice", "opentelemetry-demo-currencyservice", "opentelemetry-demo-emailservice", "opentelemetry-demo-flagd", "opentelemetry-demo-frauddetectionservice", "opentelemetry-demo-frontend", "opentelemetry-demo-frontendproxy", "opentelemetry-demo-imageprovider", "opentelemetry-demo-kafka", "opentelemetry-demo-loadgenerator", "opentelemetry-demo-paymentservice", "opentelemetry-demo-productcatalogservice", "opentelemetry-demo-quoteservice", "opentelemetry-demo-recommendationservice", "opentelemetry-demo-shippingservice", "opentelemetry-demo-valkey"])),
    ("24-dapr-hello-k8s-node.yaml", Forecast("nodeapp", &[SKIPPED])),
    ("25-kube-state-metrics-standard-deployment.yaml", Forecast("kube-state-metrics", &[])),
    ("26-metrics-server-kustomize-base-no-selector.yaml", Forecast("metrics-server", &["spec.selector is missing, which the API server refuses for apps/v1 (spec.selector: Required value); planned with the selector app: metrics-server"])),
    ("27-kubectl-blame-get-o-yaml-managedfields-2docs.yaml", Several(&["foo", "coredns"])),
    ("28-kubectl-blame-get-o-json-managedfields.json", Forecast("iperf", &[])),
    ("29-kubectl-blame-get-o-yaml-List.yaml", Several(&["foo", "coredns"])),
    ("31-k8s-api-roundtrip-apps-v1-deployment.json", Refused(&["31-k8s-api-roundtrip-apps-v1-deployment.json: Deployment.apps \"nameValue\" is invalid: [metadata.name: Invalid value: \"nameValue\"", "spec.strategy: Unsupported value"])),
    ("32-k8s-examples-hazelcast-no-replicas.yaml", Forecast("hazelcast", &[])),
    ("33-kubectl-testdata-get-o-yaml-lastapplied.yaml", Forecast("nginx-deployment", &[])),
    ("35-istio-fortio-apps-v1beta1.yaml", Forecast("fortio-deploy", &[REMOVED])),
    ("36-k8s-examples-minio-extensions-v1beta1-recreate.yaml", Forecast("minio-deployment", &[REMOVED])),
    ("38-istio-gateway-startupprobe-hpa-pdb.yaml", Forecast("namespace-istio", &[SKIPPED])),
    ("40-user-devops-project-deploy.yml", Forecast("deployment", &[])),
    ("41-istio-bookinfo-2019-extensions-v1beta1.yaml", Several(&["details-v1", "ratings-v1", "reviews-v1", "reviews-v2", "reviews-v3", "productpage-v1"])),
    ("42-kube-prometheus-blackbox-exporter-3containers.yaml", Forecast("blackbox-exporter", &[])),
];

fn forecast(out: &Output, what: &str) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON value");
    assert!(v["startRound"].as_u64().is_some(), "{what}: {v}");
    assert!(v["peakPods"].as_u64().is_some_and(|p| p > 0), "{what}: {v}");
    v
}

fn refused(out: &Output, what: &str) -> String {
    assert_eq!(out.status.code(), Some(2), "{what}: {out:?}");
    assert!(out.stdout.is_empty(), "{what}: {out:?}");
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn check(file: &str, expect: &Expect) {
    let path = dir().join(file);
    let path = path.to_str().unwrap();
    let out = rollout(&["plan", path, "--json"]);
    match expect {
        Forecast(name, warnings) => {
            let v = forecast(&out, file);
            assert_eq!(v["deployment"], *name, "{file}");
            let all = v["warnings"].to_string();
            for w in *warnings {
                assert!(all.contains(w), "{file}: no {w:?} in {all}");
            }
        }
        Several(names) => {
            let e = refused(&out, file);
            let list = names.join(", ");
            assert!(
                e.contains(&format!(
                    "holds {} Deployments: {list}; choose one with --deployment NAME",
                    names.len()
                )),
                "{file}: {e}"
            );
            assert!(e.starts_with(&format!("rollout plan: {path}: ")), "{e}");
            for name in *names {
                let out = rollout(&["plan", path, "--json", "--deployment", name]);
                let v = forecast(&out, &format!("{file} --deployment {name}"));
                assert_eq!(v["deployment"], *name, "{file}");
                assert!(v["warnings"].to_string().contains(SKIPPED), "{file} {name}");
            }
        }
        Helm(line) => {
            let e = refused(&out, file);
            assert_eq!(
                e.trim_end(),
                format!("rollout plan: {path}: line {line}: `{{{{` outside a string: this is a Helm template: render it first (`helm template … | rollout plan -`)")
            );
        }
        Refused(parts) => {
            let e = refused(&out, file);
            for p in *parts {
                assert!(e.contains(p), "{file}: no {p:?} in {e}");
            }
        }
    }
}

#[test]
fn every_manifest_file_is_planned_or_refused_by_name() {
    let mut seen: Vec<String> = std::fs::read_dir(dir())
        .expect("../shared/manifests is there")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "PROVENANCE.md")
        .collect();
    seen.sort();
    let listed: Vec<&str> = FILES.iter().map(|(f, _)| *f).collect();
    assert_eq!(seen, listed, "every file has its line in FILES");
    for (file, expect) in FILES {
        check(file, expect);
    }
}

#[test]
fn a_name_that_is_not_there_is_refused_with_the_list() {
    let path = dir().join("14-k8s-examples-guestbook-all-in-one.yaml");
    let out = rollout(&["plan", path.to_str().unwrap(), "--deployment", "nope"]);
    let e = refused(&out, "nope");
    assert!(
        e.contains(
            "no Deployment named \"nope\"; its Deployments: redis-master, redis-replica, frontend"
        ),
        "{e}"
    );
}

#[test]
fn a_dash_reads_standard_input() {
    let text = std::fs::read(dir().join("05-microservices-demo-frontend.yaml")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rollout"))
        .args(["plan", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &text).unwrap();
    let out = child.wait_with_output().unwrap();
    let piped = forecast(&out, "stdin");
    let path = dir().join("05-microservices-demo-frontend.yaml");
    let direct = forecast(
        &rollout(&["plan", path.to_str().unwrap(), "--json"]),
        "file",
    );
    assert_eq!(piped, direct);
}

#[test]
fn import_names_the_file_and_takes_a_deployment() {
    let path = dir().join("07-microservices-demo-helm-frontend.yaml");
    let path = path.to_str().unwrap();
    let e = refused(&rollout(&["import", path]), "import");
    assert!(e.starts_with(&format!("rollout: {path}: line 15: ")), "{e}");
    let path = dir().join("19-istio-bookinfo.yaml");
    let out = rollout(&[
        "import",
        path.to_str().unwrap(),
        "--deployment",
        "reviews-v2",
    ]);
    assert!(out.status.success(), "{out:?}");
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["actions"][0]["deployment"]["name"], "reviews-v2");
}

#[test]
fn broken_yaml_is_named_by_file_and_line() {
    let dir = std::env::temp_dir().join(format!("rollout-manifests-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.yaml");
    std::fs::write(
        &path,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n template: {}\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let e = refused(&rollout(&["plan", path, "--json"]), "broken");
    assert!(
        e.starts_with(&format!(
            "rollout plan: {path}: error converting YAML to JSON: yaml: line 7"
        )),
        "{e}"
    );
}
