//! A session's Step at 1,000 replicas (issue 15's bar: the next change within 50 ms): a
//! settled rollout of 1,000 replicas (maxSurge 25%, pods ready after 5 s, 1 s rounds), timed
//! from three positions: just after `kubectl set image` (the Deployment controller's next
//! move), mid-rollout, and when the next change is pods becoming ready (a wait skipped).
//! Run with `cargo bench -p rollout-core --bench session`; results go in BENCHMARKS.md.

use rollout_core::scenario::Scenario;
use rollout_core::session::Session;

fn rollout() -> Session {
    let s = Scenario::from_json(
        r#"{"name":"bench","rounds":20,"secondsPerRound":1,"settle":true,"readyAfterRounds":5,
        "terminationRounds":3,"nodes":10,"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":1000,"image":"v1"}},
        {"round":10,"type":"setImage","image":"v2"}]}"#,
    )
    .expect("the bench scenario parses");
    Session::new(s).expect("within the limits")
}

/// The session after `steps` steps.
fn at(steps: usize) -> Session {
    let mut s = rollout();
    for _ in 0..steps {
        s.step().expect("the rollout is still going");
    }
    s
}

fn bench_step_from(bencher: divan::Bencher, steps: usize) {
    let start = at(steps);
    bencher
        .with_inputs(|| start.clone())
        .bench_local_values(|mut s| s.step().map(|r| r.syncs));
}

#[divan::bench(sample_count = 20)]
fn step_after_set_image(bencher: divan::Bencher) {
    // create, 3 changes of the first rollout, the ready pods, then the set image.
    let mut s = rollout();
    let mut n = 0;
    while let Some(r) = s.step() {
        n += 1;
        if r.headline.contains("set image") {
            break;
        }
    }
    bench_step_from(bencher, n);
}

#[divan::bench(sample_count = 20)]
fn step_mid_rollout(bencher: divan::Bencher) {
    bench_step_from(bencher, 14);
}

#[divan::bench(sample_count = 20)]
fn step_over_a_wait(bencher: divan::Bencher) {
    // The step whose change is pods becoming ready after a wait.
    let mut s = rollout();
    let mut n = 0;
    let mut probe = s.clone();
    while let Some(r) = probe.step() {
        if r.seconds_later > 0 && n > 4 {
            break;
        }
        n += 1;
        s.step();
    }
    bench_step_from(bencher, n);
}

fn main() {
    divan::main();
}
