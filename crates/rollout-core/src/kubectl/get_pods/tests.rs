//! `kubectl get pods` on a crash loop, checked against `printPod`'s rules by hand.

use super::*;
use crate::scenario::Scenario;
use crate::sim::Simulation;

/// The crash loop of [`crate::kubelet::failures::fixtures::rollout_to_a_crashing_version`].
fn crash_loop() -> Simulation {
    Simulation::new(crate::kubelet::failures::fixtures::rollout_to_a_crashing_version())
        .without_history()
}

fn run_to(sim: &mut Simulation, round: u32) {
    while sim.round() < round {
        sim.run_round();
        sim.skip_idle_rounds_until(round);
    }
}

#[test]
fn a_crash_loop_prints_as_kubectl_prints_it() {
    let mut sim = crash_loop();
    // The new pod is created and started at 10 s: exits 15 (restarted at once), 20 (+10 s →
    // 30), 35 (+20 s → 55), 60 (+40 s → 100). At 80 s: 3 restarts, the last exit at 60 s
    // (20 s ago), waiting in CrashLoopBackOff until 100 s.
    // Round 79 run, the clock at the start of round 80 (nothing changes at 80 s).
    run_to(&mut sim, 80);
    assert_eq!(sim.now(), 80);
    let new = pod_rows(&sim)
        .into_iter()
        .find(|r| r.name.starts_with("web-rev2"))
        .unwrap();
    assert_eq!(new.status, "CrashLoopBackOff");
    assert_eq!(new.restarts, "3 (20s ago)");
    assert_eq!(new.ready, "0/1");
    assert_eq!(new.back_off_left, Some(20));
    assert_eq!(new.age, "70s");
    let text = get_pods_of(&sim);
    let lines: Vec<&str> = text.lines().collect();
    // Columns as kubectl's tab writer pads them: the widest cell + 3.
    assert_eq!(
        lines[0],
        "NAME             READY   STATUS             RESTARTS      AGE"
    );
    assert!(
        lines.contains(&"web-rev1-00001   1/1     Running            0             80s"),
        "{text}"
    );
    assert!(
        lines.contains(&"web-rev2-00001   0/1     CrashLoopBackOff   3 (20s ago)   70s"),
        "{text}"
    );
    // maxUnavailable 0: the old pod stays, available.
    assert_eq!(
        sim.api()
            .deployment("web")
            .unwrap()
            .status
            .available_replicas,
        1
    );
    let d = describe_pod_of(&sim, "web-rev2-00001").unwrap();
    assert!(
        d.contains("    State:          Waiting\n      Reason:       CrashLoopBackOff"),
        "{d}"
    );
    assert!(
        d.contains(
            "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1"
        ),
        "{d}"
    );
    assert!(d.contains("    Restart Count:  3"), "{d}");
    // BackOff at 21, 36, 61 s: one line, 3 times, first 59 s ago.
    assert!(d.contains("Warning  BackOff  19s (x3 over 59s)  kubelet  Back-off restarting failed container app in pod web-rev2-00001_default("), "{d}");
    // At 100 s it runs again: RESTARTS 4, the last exit 40 s ago (round 100 run, the
    // clock at 101 s: 41 s ago).
    run_to(&mut sim, 101);
    let new = pod_rows(&sim)
        .into_iter()
        .find(|r| r.name.starts_with("web-rev2"))
        .unwrap();
    assert_eq!(
        (new.status.as_str(), new.restarts.as_str()),
        ("Running", "4 (41s ago)")
    );
}

#[test]
fn the_stepper_skips_to_the_back_offs_end() {
    let mut sim = crash_loop();
    run_to(&mut sim, 62);
    // After the BackOff at 61 s nothing happens until the restart at 100 s.
    assert_eq!(sim.next_due_round(), Some(100));
}

#[test]
fn kubectls_tab_writer_pads_columns() {
    let rows = [
        vec!["NAME".to_string(), "A".to_string()],
        vec!["x".to_string(), "yyyyyyy".to_string()],
    ];
    // Minimum width 6 for the first column ("NAME" + 3 = 7), the last unpadded.
    assert_eq!(table(&rows), "NAME   A\nx      yyyyyyy\n");
}

#[test]
fn a_never_ready_image_reads_as_the_stage_shows_it() {
    // 5 s rounds; the new pod of web:bad is created and scheduled in round 2 (10 s) and reads
    // ImagePullBackOff from the end of round 3 on.
    let s = Scenario::from_json(
        r#"{"name":"bad","rounds":20,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":1,"neverReadyImages":["web:bad"],
            "actions":[
              {"round":0,"type":"create","deployment":{"name":"web","replicas":1,"image":"web:1",
                "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
              {"round":2,"type":"setImage","image":"web:bad"}]}"#,
    )
    .unwrap();
    let mut sim = Simulation::new(s).without_history();
    run_to(&mut sim, 8);
    let text = get_pods_of(&sim);
    assert!(
        text.contains("web-rev2-00001   0/1     ImagePullBackOff   0"),
        "{text}"
    );
    assert!(text.contains("web-rev1-00001   1/1     Running"), "{text}");
}
