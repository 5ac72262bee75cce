//! The two scenarios of `../shared/bench/`, each simulated round by round and its full trace
//! serialised to memory, in lock-step rounds as the files say and in settled rounds (`settle`
//! set in code: the real controllers run 79 passes over the 5,000-replica scenario's 40
//! rounds). Run with `cargo bench -p rollout-core`; results go in BENCHMARKS.md.

use rollout_core::scenario::Scenario;
use rollout_core::sim::{run_trace, Simulation};
use std::path::PathBuf;

fn bench_dir() -> PathBuf {
    match std::env::var_os("ROLLOUT_BENCH_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench"),
    }
}

fn scenario(file: &str) -> Scenario {
    let path = bench_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Scenario::from_json(&text).expect("bench scenario parses")
}

/// The same scenario with settled rounds.
fn settled(file: &str) -> Scenario {
    let mut s = scenario(file);
    s.settle = true;
    s
}

fn simulate_and_serialise(s: &Scenario) -> usize {
    let trace = run_trace(s.clone());
    serde_json::to_vec(&trace).expect("serialises").len()
}

#[divan::bench(sample_count = 20)]
fn rolling_5000_replicas(bencher: divan::Bencher) {
    let s = scenario("rolling-5000-replicas.json");
    bencher.bench(|| simulate_and_serialise(divan::black_box(&s)));
}

#[divan::bench(sample_count = 20)]
fn surge1_100_replicas_420_rounds(bencher: divan::Bencher) {
    let s = scenario("surge1-100-replicas-420-rounds.json");
    bencher.bench(|| simulate_and_serialise(divan::black_box(&s)));
}

#[divan::bench(sample_count = 20)]
fn rolling_5000_replicas_settled(bencher: divan::Bencher) {
    let s = settled("rolling-5000-replicas.json");
    bencher.bench(|| simulate_and_serialise(divan::black_box(&s)));
}

#[divan::bench(sample_count = 20)]
fn surge1_100_replicas_420_rounds_settled(bencher: divan::Bencher) {
    let s = settled("surge1-100-replicas-420-rounds.json");
    bencher.bench(|| simulate_and_serialise(divan::black_box(&s)));
}

/// Every round run, none skipped as idle (what `run_trace` did before `next_due_round`).
fn every_round_and_serialise(s: &Scenario) -> usize {
    let mut sim = Simulation::new(s.clone()).without_history();
    while !sim.finished() {
        sim.run_round();
    }
    serde_json::to_vec(&sim.trace()).expect("serialises").len()
}

#[divan::bench(sample_count = 20)]
fn rolling_5000_replicas_every_round(bencher: divan::Bencher) {
    let s = scenario("rolling-5000-replicas.json");
    bencher.bench(|| every_round_and_serialise(divan::black_box(&s)));
}

#[divan::bench(sample_count = 20)]
fn rolling_5000_replicas_settled_every_round(bencher: divan::Bencher) {
    let s = settled("rolling-5000-replicas.json");
    bencher.bench(|| every_round_and_serialise(divan::black_box(&s)));
}

fn main() {
    divan::main();
}

/// The simulation alone, without serialising the trace (for comparison).
#[divan::bench(sample_count = 20)]
fn rolling_5000_replicas_simulate_only(bencher: divan::Bencher) {
    let s = scenario("rolling-5000-replicas.json");
    bencher.bench(|| run_trace(divan::black_box(s.clone())).rounds.len());
}

/// One forecast (`rollout plan`) of a 100-replica manifest with the planner's defaults
/// (settled, pods ready after 30 s, 1 s rounds, 30 s termination), maxSurge 1,
/// maxUnavailable 0: 100 waves of 30 s. A 21 × 21 sweep is 441 of these, of all speeds.
#[divan::bench(sample_count = 20)]
fn forecast_100_replicas_manifest(bencher: divan::Bencher) {
    use rollout_core::plan::manifest;
    let m = manifest::read_manifest(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
            "spec":{"replicas":100,"selector":{"matchLabels":{"app":"web"}},
              "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":0}},
              "template":{"metadata":{"labels":{"app":"web"}},
                "spec":{"containers":[{"name":"web","image":"app:v1"}]}}}}"#,
    )
    .expect("manifest");
    let model = manifest::resolve(&m, &manifest::ClusterModel::default());
    let s = manifest::manifest_scenario(&m.deployment, &model).expect("valid");
    bencher.bench(|| rollout_core::plan::forecast(divan::black_box(&s)).expect("forecast"));
}
