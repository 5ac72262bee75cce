//! The GitHub Actions step of the README ("A check for pull requests"), run as it is written:
//! its `run:` script, taken from the README, through bash, with a fake `git` on `PATH` that
//! lists a pull request's changed files (`git diff --name-only`) and prints the base branch's
//! versions (`git show origin/$BASE:path`), and the `rollout` this crate builds.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `run: |` script of the README's step, dedented.
fn snippet() -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let start = readme
        .find("```yaml\n- name: Forecast the changed Deployments")
        .expect("the README has the step");
    let block = &readme[start..];
    let block = &block[..block[3..].find("```").unwrap() + 3];
    let mut lines = block.lines().skip_while(|l| l.trim() != "run: |").skip(1);
    let mut out = String::new();
    for l in lines.by_ref() {
        if l.starts_with("```") {
            break;
        }
        out.push_str(l.strip_prefix("    ").unwrap_or(l));
        out.push('\n');
    }
    assert!(out.contains("rollout plan"), "{out}");
    out
}

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
      containers:
      - name: web
        image: nginx:1.14.2
";

/// A pull request in a folder: the working tree (`repo`), the base branch's files (`base`), a
/// fake `git` in `bin`.
struct PullRequest {
    dir: PathBuf,
}

impl PullRequest {
    fn new(tag: &str, fresh_replicas: u32) -> PullRequest {
        let dir = std::env::temp_dir().join(format!("rollout-ci-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["repo/deploy", "base/deploy", "bin", "tmp"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let w = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
        // web.yaml: an env var added (a rollout); fresh.yaml: new in this pull request;
        // service.yaml: not a Deployment; gone.yaml: deleted.
        w("base/deploy/web.yaml", &WEB.replace("REPLICAS", "3"));
        w(
            "repo/deploy/web.yaml",
            &WEB.replace("REPLICAS", "3").replace(
                "image: nginx:1.14.2",
                "image: nginx:1.14.2\n        env: [{name: A, value: \"1\"}]",
            ),
        );
        w(
            "repo/deploy/fresh.yaml",
            &WEB.replace("REPLICAS", &fresh_replicas.to_string())
                .replace("name: web", "name: fresh"),
        );
        w(
            "repo/deploy/service.yaml",
            "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n",
        );
        w(
            "base/deploy/service.yaml",
            "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n",
        );
        w("repo/README.md", "docs\n");
        let git = format!(
            "#!/bin/sh\necho \"$*\" >> '{log}'\ncase \"$1\" in\n  diff) printf 'README.md\\ndeploy/web.yaml\\ndeploy/fresh.yaml\\ndeploy/service.yaml\\ndeploy/gone.yaml\\n' ;;\n  show) path=\"${{2#origin/main:}}\"; if [ -f '{base}'/\"$path\" ]; then cat '{base}'/\"$path\"; else echo \"fatal: path '$path' does not exist in 'origin/main'\" >&2; exit 128; fi ;;\n  *) exit 1 ;;\nesac\n",
            log = dir.join("git.log").display(),
            base = dir.join("base").display()
        );
        w("bin/git", &git);
        let mut perms = std::fs::metadata(dir.join("bin/git"))
            .unwrap()
            .permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(dir.join("bin/git"), perms).unwrap();
        PullRequest { dir }
    }

    /// Runs the README's script: exit code, forecast.md, the step summary, git's calls.
    fn run(&self) -> (Option<i32>, String, String, String) {
        let rollout_dir = Path::new(env!("CARGO_BIN_EXE_rollout")).parent().unwrap();
        let summary = self.dir.join("summary.md");
        let out = Command::new("bash")
            .arg("-c")
            .arg(snippet())
            .current_dir(self.dir.join("repo"))
            .env(
                "PATH",
                format!(
                    "{}:{}:/usr/bin:/bin",
                    self.dir.join("bin").display(),
                    rollout_dir.display()
                ),
            )
            .env("BASE", "main")
            .env("RUNNER_TEMP", self.dir.join("tmp"))
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .expect("bash runs");
        let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
        (
            out.status.code(),
            read(self.dir.join("repo/forecast.md")),
            read(summary),
            read(self.dir.join("git.log")),
        )
    }
}

#[test]
fn the_readmes_step_forecasts_the_changed_deployments() {
    let pr = PullRequest::new("pass", 4);
    let (code, md, summary, git) = pr.run();
    assert_eq!(code, Some(0), "{md}");
    assert!(
        git.starts_with("diff --name-only origin/main...HEAD"),
        "{git}"
    );
    assert!(git.contains("show origin/main:deploy/web.yaml"), "{git}");
    // web.yaml against the base branch's: a rollout, with the field.
    assert!(md.contains("### Rollout Lab: deployment/web"), "{md}");
    assert!(
        md.contains("a rollout: the pod template changed (spec.template.spec.containers[web].env)"),
        "{md}"
    );
    // fresh.yaml is new: forecast alone, an image rollout.
    assert!(md.contains("### Rollout Lab: deployment/fresh"), "{md}");
    assert!(md.contains("kubectl set image to nginx:1.16.1"), "{md}");
    // Neither the Service, the deleted file nor the README.
    assert_eq!(md.matches("### Rollout Lab").count(), 2, "{md}");
    assert!(md.contains("- ✅ peakPods"), "{md}");
    assert_eq!(summary, md);
}

#[test]
fn a_broken_check_fails_the_step() {
    // 30 replicas at 25 % / 25 %, pods Ready as they start (pull 0 s): the old 30 terminate
    // beside the new 30, far more than --max-peak 20.
    let pr = PullRequest::new("fail", 30);
    let (code, md, _, _) = pr.run();
    assert_eq!(code, Some(1), "{md}");
    assert!(md.contains("- ❌ peakPods"), "{md}");
    assert!(
        md.contains("### Rollout Lab: deployment/web"),
        "the other file is still forecast: {md}"
    );
}
