//! Fuzzing the core's readers (issue #27): mutated copies of the conformance scenarios, of the
//! real-world manifests in `../shared/manifests` and of permalinks go through every door a
//! user's input comes in by (the scenario reader and the limits, the session, the link
//! readers, the manifest and YAML readers, the planner). None may panic, and each case must
//! finish within 10 s (what is accepted is run for a few rounds). The cases are seeded
//! (`SEED`), so a failure reproduces; README, "Testing", gives the seeds and counts.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRunner};
use rollout_core::limits;
use rollout_core::plan::manifest::ClusterModel;
use rollout_core::scenario::Scenario;
use rollout_core::session::Session;
use rollout_core::share::{decode_link, encode_link, Link};
use rollout_core::sim::Simulation;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The seed of every run here.
const SEED: u64 = 27;

/// The values a mutation puts in place of a field: the limits and one past them, numbers
/// that wrap 32 bits, fractions, long and odd text, wrong types, nesting.
fn hostile(i: usize) -> Value {
    let long = "x".repeat(100_000);
    let values = [
        json!(0),
        json!(-1),
        json!(1.5),
        json!(10_000),
        json!(10_001),
        json!(5_000),
        json!(5_001),
        json!(100_000),
        json!(100_001),
        json!(86_401),
        json!(2_147_483_647),
        json!(4_294_967_295u64),
        json!(1e20),
        json!("25%"),
        json!("1.5"),
        json!("200000000%"),
        json!(""),
        json!(long),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
        json!([[[[[[1]]]]]]),
        json!({"type": "nope"}),
    ];
    values[i % values.len()].clone()
}

/// Every path to a value in `v`, in a fixed order.
fn paths(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(k.clone());
                paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                at.push(i.to_string());
                paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn at_path<'a>(v: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Object(m) => m.get_mut(k),
        Value::Array(a) => a.get_mut(k.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Applies `(where, what)` mutations to a JSON document: replace a value with a hostile one,
/// remove it, or (for an array) repeat its first item.
fn mutate(mut v: Value, mutations: &[(usize, usize)]) -> Value {
    for &(place, what) in mutations {
        let mut all = Vec::new();
        paths(&v, &mut Vec::new(), &mut all);
        let path = all[place % all.len()].clone();
        let Some(target) = at_path(&mut v, &path) else {
            continue;
        };
        match what % 4 {
            0 | 1 => *target = hostile(what / 4),
            2 => {
                if let Value::Array(a) = target {
                    if let Some(first) = a.first().cloned() {
                        a.push(first);
                    }
                } else {
                    *target = Value::Null;
                }
            }
            _ => {
                if let (Some(key), Some(Value::Object(m))) = (
                    path.last(),
                    at_path(&mut v, &path[..path.len().saturating_sub(1)]),
                ) {
                    m.remove(key);
                }
            }
        }
    }
    v
}

/// Runs an accepted scenario a few rounds, and a session a few steps: what the readers let in
/// must run.
fn run_briefly(s: &Scenario) {
    if limits::check_scenario(s).is_err() {
        return;
    }
    let mut sim = Simulation::new(s.clone()).without_history();
    for _ in 0..12 {
        if sim.finished() {
            break;
        }
        sim.run_round();
    }
    if let Ok(mut session) = Session::new(s.clone()) {
        for _ in 0..4 {
            session.step();
        }
        let _ = Session::from_link(&session.link(), s);
    }
}

fn within_time(start: Instant, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        start.elapsed() < Duration::from_secs(10),
        "{what} took {:?}",
        start.elapsed()
    );
    Ok(())
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        proptest::test_runner::TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes()),
    )
}

fn seed_bytes() -> [u8; 32] {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&SEED.to_le_bytes());
    b
}

fn scenarios() -> Vec<Value> {
    let dir = rollout_tests::conformance_dir().join("scenarios");
    rollout_tests::json_files(&dir)
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

fn mutations() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (
        any::<usize>(),
        proptest::collection::vec((any::<usize>(), any::<usize>()), 1..4),
    )
}

#[test]
fn mutated_scenarios_are_refused_or_run_never_panic() {
    let base = scenarios();
    runner(1000)
        .run(&mutations(), |(which, m)| {
            let start = Instant::now();
            let v = mutate(base[which % base.len()].clone(), &m);
            if let Ok(s) = Scenario::from_value(&v) {
                run_briefly(&s);
            }
            let _ = Scenario::from_json(&v.to_string());
            within_time(start, "a scenario")
        })
        .unwrap();
}

#[test]
fn mutated_links_are_read_leniently_never_panic() {
    let base = scenarios();
    runner(600)
        .run(
            &(
                any::<usize>(),
                proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
            ),
            |(which, edits)| {
                let start = Instant::now();
                let s = Scenario::from_value(&base[which % base.len()]).unwrap();
                let mut link = encode_link(&Link {
                    scenario: s.clone(),
                    step: 3,
                    preset: None,
                })
                .into_bytes();
                for (at, b) in edits {
                    let at = at % (link.len() + 1);
                    match b % 5 {
                        0 => link.truncate(at),
                        1 => link.insert(at.min(link.len()), b'9'),
                        2 => link
                            .splice(at..at, b"&at=99999999999".iter().copied())
                            .for_each(drop),
                        3 => link
                            .splice(at..at, b"&lesson=nope&p=x".iter().copied())
                            .for_each(drop),
                        _ => {
                            if at < link.len() {
                                link[at] = b'%';
                            }
                        }
                    }
                }
                let text = String::from_utf8_lossy(&link).into_owned();
                if let Some(r) = decode_link(&text, &s) {
                    prop_assert!(r.value.step <= limits::MAX_LINK_STEPS);
                    run_briefly(&r.value.scenario);
                }
                if let Some(r) = Session::from_link(&text, &s) {
                    let mut session = r.value;
                    session.step();
                }
                within_time(start, "a link")
            },
        )
        .unwrap();
}

fn manifests() -> Vec<String> {
    let dir = rollout_tests::conformance_dir().join("../manifests");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Line edits of YAML: a value replaced, anchors and aliases added, lines repeated or cut.
fn mutate_text(text: &str, edits: &[(usize, u8)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for &(at, b) in edits {
        if lines.is_empty() {
            break;
        }
        let i = at % lines.len();
        let line = lines[i].clone();
        match b % 7 {
            0 => {
                if let Some((k, _)) = line.split_once(": ") {
                    lines[i] = format!("{k}: {}", hostile(usize::from(b) / 7));
                }
            }
            1 => lines[i] = format!("{line} &a"),
            2 => {
                if let Some((k, _)) = line.split_once(": ") {
                    lines[i] = format!("{k}: *a");
                }
            }
            3 => lines.insert(i, line),
            4 => lines[i] = line[..at % (line.len() + 1)].to_string(),
            5 => lines.insert(i, "---".into()),
            _ => {
                if let Some((k, _)) = line.split_once(": ") {
                    lines[i] = format!("{k}: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]");
                }
            }
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_manifests_are_refused_or_planned_never_panic() {
    let base = manifests();
    assert!(!base.is_empty());
    runner(600)
        .run(
            &(
                any::<usize>(),
                proptest::collection::vec((any::<usize>(), any::<u8>()), 1..5),
            ),
            |(which, edits)| {
                let start = Instant::now();
                let text = mutate_text(&base[which % base.len()], &edits);
                let _ = rollout_core::import::import_deployment(&text);
                if let Ok((subject, notes)) =
                    rollout_core::plan::input::read_subject(&text, &ClusterModel::default())
                {
                    let small = subject
                        .deployment()
                        .is_ok_and(|d| d.replicas.unwrap_or(1) <= 20);
                    if small {
                        let _ = rollout_core::plan::input::plan_subject(&subject, &notes);
                    }
                }
                within_time(start, "a manifest")
            },
        )
        .unwrap();
}

/// The billion laughs (799 bytes of nested aliases) is refused at once, at the top level and
/// inside `metadata.annotations`, and valid YAML is read afterwards.
#[test]
fn the_billion_laughs_is_refused_in_under_a_second() {
    let mut bomb = String::from("lol0: &a0 \"lol\"\n");
    for i in 1..=9 {
        let p = i - 1;
        bomb.push_str(&format!(
            "lol{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"
        ));
    }
    let inside = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n{}",
        bomb.lines()
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    );
    for text in [&bomb, &inside] {
        let start = Instant::now();
        let e = rollout_core::import::parse_manifest(text).unwrap_err();
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        assert!(e.contains("alias") || e.contains("expands"), "{e}");
    }
    let ok = rollout_core::import::import_deployment(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.14.2\n",
    );
    assert_eq!(
        ok.map(|i| i.deployment.image),
        Ok("nginx:1.14.2".to_string())
    );
}
