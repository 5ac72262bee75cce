//! `rollout plan` as a user runs it: manifests in settled rounds, sweeps, and bad input.

mod common;
use common::{json, refused, rollout};

/// 10 replicas, maxSurge 1, maxUnavailable 0 (issue #15's example).
const MANIFEST: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 10
  selector:
    matchLabels:
      app: web
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
";

#[test]
fn settled_durations_do_not_depend_on_the_round_size() {
    let path = common::write("plan", "web.yaml", MANIFEST);
    let file = path.to_str().unwrap();
    for spr in ["1", "2", "5", "10"] {
        let f = json(&rollout(&[
            "plan",
            file,
            "--json",
            "--pull",
            "30s",
            "--seconds-per-round",
            spr,
        ]));
        // No probes: a pod is Ready once its image is pulled and its container runs. The pods
        // go round-robin over 3 nodes: the first three surge pods each land on a node without
        // nginx:1.16.1 and wait 30 s for its pull (waves at 0–30, 30–60, 60–90 s); from 90 s
        // every node has it, and the seven waves left are Ready as they start: 90 s.
        assert_eq!(f["durationSeconds"], 90, "{spr} s rounds: {f}");
        assert_eq!(f["settle"], true);
        // At 90 s: 10 pods running, the 7 old pods of that moment's waves terminating, and the
        // one deleted at 60 s, whose 30 s end in that round: 18.
        assert_eq!(f["peakPods"], 18, "{f}");
        assert_eq!(f["minAvailable"], 10, "{f}");
        assert_eq!(f["deadlineExceededRound"], serde_json::Value::Null);
    }
}

#[test]
fn the_text_forecast_shows_the_model_events_chart_and_warnings() {
    let path = common::write("plan", "text.yaml", MANIFEST);
    let out = rollout(&["plan", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "--pull 0s",
        "--app-ready 0s          not used: no readinessProbe or startupProbe asks the app",
        "--seconds-per-round 1",
        "--termination 30s",
        "--image nginx:1.16.1",
        "A new pod, by the kubelet's rules: admitted at 0 s, containers running from 0 s, Ready at 0 s",
        // The manifest's container, as `kubectl set image` names it.
        "$ kubectl set image deployment/web web=nginx:1.16.1   (round 1, t = 0:01)",
        // Pods without probes and a pull of 0 s are Ready as they start: all ten waves run in
        // the round the image is set, and `kubectl rollout status` succeeds in the next.
        "durationSeconds         1",
        "Scaled up replica set web-rev2 to 1",
        "Scaled down replica set web-rev1 to 0 from 1",
        // The ten old pods all terminate for 30 s beside the ten new ones.
        // The planner runs today's Kubernetes (1.37), and the warning names it.
        "peak of 20 pods exceeds replicas + maxSurge = 11: terminating pods are not counted by the controller (Kubernetes v1.37.0)",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
}

#[test]
fn the_terminating_pods_warning_names_the_release_asked_for() {
    let path = common::write("plan", "k128.yaml", MANIFEST);
    let out = rollout(&["plan", path.to_str().unwrap(), "--kubernetes", "1.28"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("terminating pods are not counted by the controller (Kubernetes v1.28.4)"),
        "{text}"
    );
}

#[test]
fn a_bad_image_never_completes_and_exceeds_the_deadline() {
    let path = common::write("plan", "bad.yaml", MANIFEST);
    let f = json(&rollout(&[
        "plan",
        path.to_str().unwrap(),
        "--json",
        "--bad-image",
        "--image",
        "nginx:1.161",
    ]));
    assert_eq!(f["completeRound"], serde_json::Value::Null);
    let start = f["startRound"].as_i64().unwrap();
    let exceeded = f["deadlineExceededRound"].as_i64().unwrap();
    // No progress after the first surge pod: the deadline (600 s) passes strictly after that.
    assert_eq!(exceeded - start, 601, "{f}");
    assert_eq!(f["peakPods"], 11);
    assert_eq!(f["minAvailable"], 10);
}

#[test]
fn a_sweep_lists_every_combination_and_refuses_what_the_api_refuses() {
    let path = common::write("plan", "sweep.yaml", MANIFEST);
    let rows = json(&rollout(&[
        "plan",
        path.to_str().unwrap(),
        "--json",
        "--pull",
        "30s",
        "--sweep",
        "maxSurge=0..2",
        "--sweep",
        "maxUnavailable=0,25%",
    ]));
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!(
        rows[0]["settings"],
        serde_json::json!({"maxSurge": 0, "maxUnavailable": 0})
    );
    assert_eq!(rows[0]["forecast"], serde_json::Value::Null);
    assert!(rows[0]["refused"]
        .as_str()
        .unwrap()
        .ends_with("may not be 0 when `maxSurge` is 0"));
    // maxSurge 1, maxUnavailable 0 is the manifest itself: 90 s, as without a sweep.
    assert_eq!(
        rows[2]["settings"],
        serde_json::json!({"maxSurge": 1, "maxUnavailable": 0})
    );
    assert_eq!(rows[2]["forecast"]["durationSeconds"], 90);
    assert!(rows[2]["failedRequests"].is_u64(), "{}", rows[2]);
    // 25% of 10 rounds down to 2 unavailable: the first wave is 3 pods, one on each node,
    // pulling at once; from 30 s every node has the image: 30 s, with 8 available at least.
    let f = &rows[3]["forecast"];
    assert_eq!(f["durationSeconds"], 30, "{f}");
    assert_eq!(f["minAvailable"], 8);
    let csv = rollout(&[
        "plan",
        path.to_str().unwrap(),
        "--csv",
        "--sweep",
        "replicas=1,3",
    ]);
    let csv = String::from_utf8(csv.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "replicas,startRound,completeRound,durationSeconds,peakPods,minAvailable,deadlineExceededRound,failedRequests,refused");
    assert_eq!(lines.len(), 3);
}

#[test]
fn bad_input_is_refused_with_a_message_and_exit_code_2() {
    let manifest = common::write("plan", "m.yaml", MANIFEST);
    let m = manifest.to_str().unwrap();
    let no_set_image = common::write(
        "plan",
        "s.json",
        r#"{"name":"s","rounds":5,"secondsPerRound":5,"readyAfterRounds":1,"terminationRounds":0,
            "nodes":1,"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}}]}"#,
    );
    let e = refused(&rollout(&["plan", no_set_image.to_str().unwrap()]));
    assert!(e.contains("has no setImage action"), "{e}");
    let e = refused(&rollout(&[
        "plan",
        no_set_image.to_str().unwrap(),
        "--nodes",
        "3",
    ]));
    assert!(
        e.contains("--nodes describes the cluster of a manifest"),
        "{e}"
    );
    let invalid = common::write(
        "plan",
        "invalid.yaml",
        &MANIFEST.replace("replicas: 10", "replicas: -1"),
    );
    let e = refused(&rollout(&["plan", invalid.to_str().unwrap()]));
    assert!(
        e.contains("Deployment.apps \"web\" is invalid: spec.replicas: Invalid value: -1"),
        "{e}"
    );
    let service = common::write(
        "plan",
        "svc.yaml",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n",
    );
    let e = refused(&rollout(&["plan", service.to_str().unwrap()]));
    assert!(e.contains("kind is Service"), "{e}");
    for (args, says) in [
        (vec!["--sweep", "maxSurge=1..x"], "--sweep maxSurge=1..x"),
        (vec!["--sweep", "replicas=10%"], "replicas takes counts"),
        (vec!["--ready-after", "soon"], "--ready-after \"soon\""),
        (
            vec!["--seconds-per-round", "0"],
            "--seconds-per-round \"0\"",
        ),
        (
            vec![
                "--sweep",
                "maxSurge=0..100",
                "--sweep",
                "maxUnavailable=0..99",
            ],
            "10100 combinations; a sweep runs at most 10000 simulations",
        ),
    ] {
        let mut all = vec!["plan", m];
        all.extend(args);
        let e = refused(&rollout(&all));
        assert!(e.contains(says), "{says:?} not in {e}");
    }
    let recreate = common::write("plan", 
        "recreate.yaml",
        &MANIFEST.replace(
            "    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 0\n",
            "    type: Recreate\n",
        ),
    );
    let e = refused(&rollout(&[
        "plan",
        recreate.to_str().unwrap(),
        "--sweep",
        "maxSurge=1,2",
    ]));
    assert!(e.contains("uses the Recreate strategy"), "{e}");
}

/// The README's table of the presets' forecasts is what `rollout plan PRESET --json` prints.
#[test]
fn the_readme_preset_table_is_the_cli_output() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    let rows: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| preset | startRound"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(rows.len() >= 8, "the README has the preset table");
    for row in rows {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let id = cells[0].split(' ').next().unwrap();
        let out = rollout(&["plan", id, "--json"]);
        assert!(out.status.success(), "{id}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let want: Vec<String> = [
            "startRound",
            "completeRound",
            "durationSeconds",
            "peakPods",
            "minAvailable",
            "deadlineExceededRound",
        ]
        .iter()
        .map(|k| json[k].to_string())
        .collect();
        assert_eq!(cells[1..].to_vec(), want, "README row of {id}");
    }
}

/// `rollout plan MANIFEST --sweep maxSurge=0..20 --csv`: 21 combinations, past the 20 from
/// which a sweep shows its progress.
fn sweep_args(path: &std::path::Path) -> Vec<String> {
    [
        "plan",
        path.to_str().unwrap(),
        "--sweep",
        "maxSurge=0..20",
        "--csv",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_sweep_prints_its_progress_on_a_terminal_and_not_into_a_pipe() {
    let path = common::write("plan", "progress.yaml", MANIFEST);
    let last = "rollout plan: 21 of 21 combinations";
    // Standard error a pipe: no progress, the rows on standard output.
    let args = sweep_args(&path);
    let piped = rollout(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(piped.status.success(), "{piped:?}");
    assert!(piped.stderr.is_empty(), "{piped:?}");
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), 22);
    // Standard error a terminal: util-linux's `script` runs the CLI on a pseudo-terminal,
    // standard output sent to a file, so what the terminal shows is standard error alone.
    let Ok(which) = std::process::Command::new("sh")
        .args(["-c", "command -v script"])
        .output()
    else {
        return;
    };
    if !which.status.success() {
        eprintln!("skipped: no `script` (util-linux) to run the CLI on a terminal");
        return;
    }
    let out_file = path.with_extension("csv");
    let command = format!(
        "'{}' {} > '{}'",
        env!("CARGO_BIN_EXE_rollout"),
        args.iter()
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" "),
        out_file.display()
    );
    let on_terminal = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    assert!(on_terminal.status.success(), "{on_terminal:?}");
    let shown = String::from_utf8_lossy(&on_terminal.stdout);
    // Rewritten in place (`\r`), ending with the count of all and a new line.
    assert!(shown.contains(&format!("\r{last}\r\n")), "{shown:?}");
    assert!(
        shown.contains("\rrollout plan: 1 of 21 combinations"),
        "{shown:?}"
    );
    assert!(
        !shown.contains("maxSurge,"),
        "rows went to the file: {shown:?}"
    );
    let rows = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(rows, String::from_utf8_lossy(&piped.stdout));
}
