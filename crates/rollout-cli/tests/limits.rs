//! Issue #27 through the CLI: each limit at its value accepted and one past it refused with
//! exit code 2 and a message naming the field, the value and the limit; the billion laughs
//! refused at once; numbers that would wrap 32 bits refused before anything runs.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{accepted, refused, rollout};
use std::time::{Duration, Instant};

/// A scenario of `rounds` rounds creating `replicas` replicas, with `extra` top-level fields.
fn scenario(name: &str, rounds: u32, replicas: i64, extra: &str) -> PathBuf {
    common::write(
        "limits",
        name,
        &format!(
            r#"{{"name":"s","rounds":{rounds},{extra}"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","image":"a","replicas":{replicas}}}}}]}}"#
        ),
    )
}

fn trace(path: &Path, large: bool) -> Output {
    let p = path.to_str().unwrap();
    if large {
        rollout(&["trace", p, "--large"])
    } else {
        rollout(&["trace", p])
    }
}

#[test]
fn model_fields_at_their_limit_run_and_one_past_is_refused() {
    for (field, max, says) in [
        (
            "nodes",
            5_000u64,
            "the most nodes Kubernetes supports in one cluster",
        ),
        (
            "secondsPerRound",
            86_400,
            "the longest round Rollout Lab simulates",
        ),
        (
            "readyAfterRounds",
            100_000,
            "the most rounds Rollout Lab simulates",
        ),
    ] {
        let ok = scenario("ok.json", 2, 2, &format!(r#""{field}":{max},"#));
        accepted(&trace(&ok, false));
        let over = scenario("over.json", 2, 2, &format!(r#""{field}":{},"#, max + 1));
        let e = refused(&trace(&over, false));
        assert!(
            e.contains(&format!("{field}: {} is more than", max + 1)) && e.contains(says),
            "{e}"
        );
    }
    let huge = scenario("huge.json", 2, 2, r#""nodes":4294967295,"#);
    let start = Instant::now();
    let e = refused(&trace(&huge, false));
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(e.contains("nodes: 4294967295 is more than 5,000"), "{e}");
    let rounds = scenario("rounds.json", 100_001, 1, "");
    let e = refused(&trace(&rounds, false));
    assert!(
        e.contains("rounds: 100001 is more than 100,000, the most rounds"),
        "{e}"
    );
}

#[test]
fn replicas_past_the_page_limit_need_large_and_never_wrap() {
    let at = scenario("r10000.json", 1, 10_000, "");
    accepted(&trace(&at, false));
    let past = scenario("r10001.json", 1, 10_001, "");
    let e = refused(&trace(&past, false));
    assert!(
        e.contains("creates 10001 replicas; Rollout Lab simulates at most 10,000 replicas, a limit for the page's speed")
            && e.contains("--large lifts it"),
        "{e}"
    );
    accepted(&trace(&past, true));
    let wrap = scenario("wrap.json", 1, 2_147_483_647, "");
    let e = refused(&trace(&wrap, true));
    assert!(
        e.contains("at most 150,000 replicas, Kubernetes' own limit"),
        "{e}"
    );
}

#[test]
fn the_work_limit_refuses_one_past_it_with_the_figures_and_large_lifts_it() {
    // 800 replicas + 25 % surge = 1,000 pods at once, for 2,000 rounds: 2,000,000 pod-rounds.
    let at = scenario("work-at.json", 2_000, 800, "");
    let out = trace(&at, false);
    accepted(&out);
    let rounds: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rounds["rounds"].as_array().map(Vec::len), Some(2_000));
    let past = scenario("work-past.json", 2_001, 800, "");
    let e = refused(&trace(&past, false));
    assert_eq!(
        e.trim_end(),
        format!(
            "rollout: {}: 2,001 rounds with up to 1,000 pods at once (replicas + maxSurge of each Deployment at its largest) make 2,001,000 pod-rounds; Rollout Lab simulates at most 2,000,000 pod-rounds in one run, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)",
            past.display()
        )
    );
    accepted(&trace(&past, true));
    // A forecast counts the rounds it runs: this one completes long before 100,000 rounds.
    let big = common::write(
        "limits",
        "work-plan.json",
        r#"{"rounds":100000,"readyAfterRounds":2,"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":2000}},
        {"round":10,"type":"setImage","image":"b"}]}"#,
    );
    let e = refused(&trace(&big, false));
    assert!(e.contains("make 250,000,000 pod-rounds"), "{e}");
    let plan = common::json(&rollout(&["plan", big.to_str().unwrap(), "--json"]));
    assert!(plan["completeRound"].is_u64(), "{plan}");
}

const MANIFEST: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.14.2
";

#[test]
fn a_manifest_with_replicas_that_would_wrap_is_refused_not_planned() {
    let m = common::write(
        "limits",
        "wrap.yaml",
        &MANIFEST.replace("replicas: 3", "replicas: 2147483647"),
    );
    let e = refused(&rollout(&["plan", m.to_str().unwrap(), "--json"]));
    assert!(
        e.contains("creates 2147483647 replicas; Rollout Lab simulates at most 10,000 replicas"),
        "{e}"
    );
}

#[test]
fn the_billion_laughs_is_refused_in_under_a_second() {
    let mut bomb = String::from("lol0: &a0 \"lol\"\n");
    for i in 1..=9 {
        let p = i - 1;
        bomb.push_str(&format!(
            "lol{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"
        ));
    }
    let inside = MANIFEST.replace(
        "  name: web\n",
        &format!(
            "  name: web\n  annotations:\n{}",
            bomb.lines()
                .map(|l| format!("    {l}\n"))
                .collect::<String>()
        ),
    );
    for (name, text) in [
        ("bomb.yaml", bomb.as_str()),
        ("inside.yaml", inside.as_str()),
    ] {
        let f = common::write("limits", name, text);
        let start = Instant::now();
        let e = refused(&rollout(&["plan", f.to_str().unwrap()]));
        // /dev/zero never ends: a reader without the cap would not return at all, so the
        // refusal itself shows the cap; the time only guards against a hang.
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        assert!(e.contains("the YAML"), "{e}");
    }
    // Valid YAML is read as before.
    let ok = common::write("limits", "ok.yaml", MANIFEST);
    accepted(&rollout(&["plan", ok.to_str().unwrap(), "--json"]));
}

#[test]
fn model_flags_name_their_limits() {
    let m = common::write("limits", "m.yaml", MANIFEST);
    let m = m.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--nodes", "100000000"],
            "--nodes 100000000: at most 5,000, the most nodes Kubernetes supports",
        ),
        (
            vec!["--ready-after", "10000001"],
            "--ready-after \"10000001\": at most 10,000,000 s",
        ),
        (
            vec!["--ready-after", "1000h"],
            "the new image would be set in round 3,600,001",
        ),
        (
            vec!["--seconds-per-round", "86401"],
            "--seconds-per-round 86401: at most 86,400",
        ),
    ] {
        let mut all = vec!["plan", m];
        all.extend(args);
        let start = Instant::now();
        let e = refused(&rollout(&all));
        assert!(e.contains(says), "{says:?} not in {e}");
        assert!(start.elapsed() < Duration::from_secs(2), "{says}");
    }
    accepted(&rollout(&["plan", m, "--nodes", "5000", "--json"]));
}

#[test]
fn field_messages_are_readable_and_short() {
    let surge = common::write(
        "limits",
        "surge.json",
        r#"{"name":"s","rounds":2,"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a",
            "strategy":{"type":"RollingUpdate","maxSurge":1.5}}}]}"#,
    );
    let e = refused(&rollout(&["trace", surge.to_str().unwrap()]));
    assert!(
        e.contains("actions[0] (round 0).deployment.strategy.maxSurge (spec.strategy.rollingUpdate.maxSurge): invalid type: floating point `1.5`, expected a 32-bit integer or a percentage such as \"25%\""),
        "{e}"
    );
    let long_type = common::write(
        "limits",
        "type.json",
        &format!(
            r#"{{"name":"s","rounds":2,"actions":[{{"round":0,"type":"{}"}}]}}"#,
            "t".repeat(2_000_000)
        ),
    );
    let e = refused(&rollout(&["trace", long_type.to_str().unwrap()]));
    assert!(e.len() < 600, "{} bytes", e.len());
    assert!(e.contains("unknown action type `tttt"), "{e}");
}

/// A scenario or race file of 1 GB (sparse: no disk is used) is refused by its size before a
/// byte of it is read: at once, with the size and the limit, by every command that reads one.
/// A device without a length (`/dev/zero`) is refused once one byte past the limit is read.
#[test]
fn a_file_of_a_gigabyte_is_refused_unread() {
    let path = common::write("limits", "race.json", "");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["trace", p],
        vec!["races", p],
        vec!["show", p],
        vec!["plan", p],
        vec!["import", p],
    ] {
        let start = Instant::now();
        let e = refused(&rollout(&args));
        let took = start.elapsed();
        // The message gives the file's exact size, which only its metadata tells before any
        // read (a capped read would say "more than"): that is what proves it unread. The time
        // is only a guard against a hang (reading 1 GB takes seconds and 1 GB of memory; on a
        // loaded two-core machine starting the binary has taken over a second, so no tighter).
        assert!(took < Duration::from_secs(20), "{args:?}: {took:?}");
        assert!(
            e.contains(
                "is 1,073,741,824 bytes; Rollout Lab reads at most 16,777,216 bytes of a file"
            ),
            "{args:?}: {e}"
        );
    }
    std::fs::remove_file(&path).unwrap();
    if Path::new("/dev/zero").exists() {
        let start = Instant::now();
        let e = refused(&rollout(&["trace", "/dev/zero"]));
        // /dev/zero never ends: a reader without the cap would not return at all, so the
        // refusal itself shows the cap; the time only guards against a hang.
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        assert!(
            e.contains("/dev/zero has more than 16,777,216 bytes; Rollout Lab reads at most"),
            "{e}"
        );
    }
}
