//! The hand-worked figures of issue #34 (README, "Rollouts that go wrong").

use super::*;
use crate::kubelet::probes::ContainerProbes;

fn input<'a>(failure: &'a AppFailure, ready: ReadyRule<'a>) -> LifeInput<'a> {
    LifeInput {
        failure,
        restart_back_off: BackOffPolicy::V1_28,
        pod: "web-rev2-00001_default(5e1f0c3a-7d2b-4c1e-9a00-000000000007)",
        container: "app",
        image: "web:2",
        admitted: 0,
        first_started: 0,
        ready,
    }
}

#[test]
fn a_crash_loop_backs_off_10_20_40_seconds() {
    // Exits 5 s after each start: exit 5 (no entry: at once, entry 10 s), exit 10 + 10 = 20,
    // exit 25 + 20 = 45, exit 50 + 40 = 90.
    let crash = AppFailure::Crash { after: 5 };
    let i = input(&crash, ReadyRule::After(Some(1)));
    assert_eq!(life(&i, 100).starts, [0, 5, 20, 45, 90]);
    let at = |t| life(&i, t).status;
    assert_eq!(at(5).restart_count, 1, "RESTARTS 1 at 5 s");
    assert_eq!(at(5).state, ContainerState::Running { started_at: 5 });
    // At 10 s it exits (terminated, Error, 1); from 11 s CrashLoopBackOff until 20 s.
    assert_eq!(at(10).state.reason(), Some("Error"));
    let s = at(11);
    assert_eq!(s.state.reason(), Some("CrashLoopBackOff"));
    assert_eq!(s.back_off_until, Some(20));
    assert!(matches!(
        s.last_state,
        Some(ContainerState::Terminated {
            exit_code: 1,
            started_at: 5,
            finished_at: 10,
            ..
        })
    ));
    // Ready 1 s after each start, until it exits.
    assert!(at(6).ready && !at(11).ready);
    assert_eq!((at(89).restart_count, at(89).back_off_until), (3, Some(90)));
    assert_eq!(at(90).restart_count, 4);
    // The next change after 60 s is the restart at 90 s; after 90 s the ready at 91 s.
    assert_eq!(life(&i, 60).next_change, Some(90));
    assert_eq!(life(&i, 90).next_change, Some(91));
    let back_offs: Vec<Time> = life(&i, 94)
        .events
        .iter()
        .filter(|e| e.reason == "BackOff")
        .map(|e| e.time)
        .collect();
    assert_eq!(back_offs, [11, 26, 51]);
    assert!(at(11).state == ContainerState::Waiting {
        reason: "CrashLoopBackOff".into(),
        message: "back-off 10s restarting failed container=app pod=web-rev2-00001_default(5e1f0c3a-7d2b-4c1e-9a00-000000000007)".into(),
    });
}

#[test]
fn kubelet_crash_loop_back_off_max_30_seconds() {
    // Waits 0, 10, 20, then 30 (not 40): the fourth restart at 50 + 30 = 80 s.
    let crash = AppFailure::Crash { after: 5 };
    let mut i = input(&crash, ReadyRule::After(Some(1)));
    i.restart_back_off = BackOffPolicy::V1_28.with_max(30);
    assert_eq!(life(&i, 100).starts, [0, 5, 20, 45, 80]);
}

#[test]
fn ten_minutes_without_a_failure_forget_the_back_off() {
    // Crashing 601 s after each start: each exit is 601 s > 2 × 300 s after the entry's last
    // update (the previous restart), so it has expired and every restart is at once.
    let crash = AppFailure::Crash { after: 601 };
    let i = input(&crash, ReadyRule::After(Some(1)));
    assert_eq!(life(&i, 1803).starts, [0, 601, 1202, 1803]);
    // The entry is stamped when the restart happens. Crashing 600 s after each start: exit at
    // 600 s, at once (stamped 600); exit at 1200 s is 600 s after 600, not more: waits 10 s →
    // 1210 (stamped 1210, 20 s); exit at 1810 s is again exactly 600 s after: waits 20 s → 1830.
    let crash = AppFailure::Crash { after: 600 };
    let i = input(&crash, ReadyRule::After(Some(1)));
    assert_eq!(life(&i, 1830).starts, [0, 600, 1210, 1830]);
}

#[test]
fn an_image_that_cannot_be_pulled_is_tried_at_0_10_30_70_seconds() {
    let pull = AppFailure::Pull;
    let i = input(&pull, ReadyRule::After(Some(1)));
    let l = life(&i, 100);
    let attempts: Vec<Time> = l
        .events
        .iter()
        .filter(|e| e.reason == "Pulling")
        .map(|e| e.time)
        .collect();
    assert_eq!(attempts, [0, 10, 30, 70]);
    assert!(l.starts.is_empty());
    let reason = |t| life(&i, t).status.state.reason().map(str::to_string);
    assert_eq!(reason(10).as_deref(), Some("ErrImagePull"));
    assert_eq!(reason(11).as_deref(), Some("ImagePullBackOff"));
    assert_eq!(life(&i, 11).status.back_off_until, Some(30));
    assert_eq!(life(&i, 30).next_change, Some(31));
    assert_eq!(life(&i, 31).next_change, Some(70));
}

fn liveness(period: i64, threshold: i64) -> ProbeModel {
    ProbeModel {
        containers: vec![ContainerProbes {
            name: "app".into(),
            liveness_probe: Some(Probe {
                period_seconds: period,
                failure_threshold: threshold,
                ..Probe::default()
            }),
            ..ContainerProbes::default()
        }],
        ..ProbeModel::default()
    }
}

#[test]
fn a_liveness_probe_kills_an_app_that_never_answers_at_30_seconds() {
    // Period 10, failureThreshold 3, started at 0: the run at 0 s finds the container not yet
    // running; failures at 10, 20, 30 s: killed at 30 s and, with no container exited before,
    // restarted at once.
    let silent = AppFailure::Probe { after: 0 };
    let m = liveness(10, 3);
    let i = input(&silent, ReadyRule::Probes(&m));
    let l = life(&i, 30);
    let unhealthy: Vec<Time> = l
        .events
        .iter()
        .filter(|e| e.reason == "Unhealthy")
        .map(|e| e.time)
        .collect();
    assert_eq!(unhealthy, [10, 20, 30]);
    let killing = l.events.iter().find(|e| e.reason == "Killing").unwrap();
    assert_eq!(killing.time, 30);
    assert_eq!(
        killing.message,
        "Container app failed liveness probe, will be restarted"
    );
    assert_eq!(l.status.restart_count, 1);
    assert!(matches!(
        l.status.last_state,
        Some(ContainerState::Terminated {
            exit_code: 137,
            finished_at: 30,
            ..
        })
    ));
    assert!(!l.status.ready, "never ready: it never answers");
    // Later kills at 60, 90, 120 s: the container exited before each is 30 s old, past its
    // back-off (none, 10 s, 20 s): restarted at once. At 150 s the one killed at 120 s is
    // 30 s < 40 s old: the killed one waits its own 40 s, restarted at 190 s.
    assert_eq!(life(&i, 200).starts, [0, 30, 60, 90, 120, 190]);
    assert_eq!(
        life(&i, 151).status.state.reason(),
        Some("CrashLoopBackOff")
    );
}

#[test]
fn a_readiness_window_takes_the_pod_out_of_ready_and_back() {
    // readyAfterRounds' 5 s, then the default readiness probe (every 10 s from admission,
    // 3 failures, 1 success) fails from 30 s to 60 s: failures at 30, 40, 50 s → not ready at
    // 50 s; the tick at 60 s succeeds → ready again.
    let window = AppFailure::Readiness {
        from: 30,
        to: Some(60),
    };
    let i = input(&window, ReadyRule::After(Some(5)));
    let ready = |t| life(&i, t).status.ready;
    assert!(!ready(4) && ready(5) && ready(49) && !ready(50) && !ready(59) && ready(60));
    assert_eq!(life(&i, 1000).starts, [0], "never restarted");
    // A 15 s window is too short for 3 failures (30, 40 s): it stays Ready.
    let short = AppFailure::Readiness {
        from: 30,
        to: Some(45),
    };
    let i = input(&short, ReadyRule::After(Some(5)));
    assert!((0..100)
        .filter(|t| *t >= 5)
        .all(|t| life(&i, t).status.ready));
}

fn with_readiness(mut m: ProbeModel) -> ProbeModel {
    m.containers[0].readiness_probe = Some(Probe::default());
    m
}

fn unhealthy(l: &Life, kind: &str) -> Vec<Time> {
    l.events
        .iter()
        .filter(|e| e.reason == "Unhealthy" && e.message.starts_with(kind))
        .map(|e| e.time)
        .collect()
}

#[test]
fn a_liveness_probe_kills_a_slow_app_before_it_answers_again_and_again() {
    // The app answers only 45 s after each start; livenessProbe every 10 s, failureThreshold
    // 3 (30 s of patience): the run at 0 s finds the container not yet running, failures at 10,
    // 20, 30 s: killed at 30 s, restarted at once. Each instance is as slow, so each is killed
    // 30 s after the tick before it: the same restarts as an app that never answers.
    let slow = AppFailure::Slow { ready: 45 };
    let m = liveness(10, 3);
    let i = input(&slow, ReadyRule::Probes(&m));
    let l = life(&i, 30);
    assert_eq!(unhealthy(&l, "Liveness probe failed"), [10, 20, 30]);
    let killing: Vec<_> = l.events.iter().filter(|e| e.reason == "Killing").collect();
    assert_eq!(killing.len(), 1);
    assert_eq!(
        (killing[0].time, killing[0].message.as_str()),
        (30, "Container app failed liveness probe, will be restarted")
    );
    assert_eq!(l.status.restart_count, 1);
    assert_eq!(life(&i, 200).starts, [0, 30, 60, 90, 120, 190]);
    // Running between kills, never Ready: at 35 s it runs (started at 30 s), not ready.
    let s = life(&i, 35).status;
    assert_eq!(s.state, ContainerState::Running { started_at: 30 });
    assert!((0..400).all(|t| !life(&i, t).status.ready));
    // A liveness probe with more patience than the app needs (failureThreshold 5: failures
    // at 10…40 s, the run at 50 s succeeds) never kills it; without a readiness probe it is
    // Ready at once, as Kubernetes counts a container without one.
    let m = liveness(10, 5);
    let i = input(&slow, ReadyRule::Probes(&m));
    let l = life(&i, 1000);
    assert_eq!(l.starts, [0]);
    assert_eq!(unhealthy(&l, "Liveness"), [10, 20, 30, 40]);
    assert!(life(&i, 0).status.ready);
}

#[test]
fn a_readiness_probe_waits_for_a_slow_app_and_it_joins() {
    // The same app with a readinessProbe (every 10 s, 3 failures, 1 success) and no liveness:
    // the run the container's start triggers (0 s) and the ticks at 10, 20, 30, 40 s fail
    // (Unhealthy, not Ready); the tick at 50 s finds it answering: Ready at 50 s, never
    // restarted.
    let slow = AppFailure::Slow { ready: 45 };
    let m = ProbeModel {
        containers: vec![ContainerProbes {
            name: "app".into(),
            readiness_probe: Some(Probe::default()),
            ..ContainerProbes::default()
        }],
        ..ProbeModel::default()
    };
    let i = input(&slow, ReadyRule::Probes(&m));
    let l = life(&i, 1000);
    assert_eq!(l.starts, [0]);
    assert_eq!(unhealthy(&l, "Readiness probe failed"), [0, 10, 20, 30, 40]);
    assert!(!l.events.iter().any(|e| e.reason == "Killing"));
    assert!(!life(&i, 49).status.ready && life(&i, 50).status.ready);
    // Both probes, liveness patient enough (failureThreshold 5): failures of both, Ready at 50 s.
    let m = with_readiness(liveness(10, 5));
    let i = input(&slow, ReadyRule::Probes(&m));
    assert!(!life(&i, 49).status.ready && life(&i, 50).status.ready);
    assert_eq!(life(&i, 1000).starts, [0]);
    // Both, liveness 3 × 10 s: killed at 30 s before readiness ever succeeds. Readiness fails
    // at 0, 10, 20 and 30 s, and once more at 30 s: the run the restarted container's start
    // triggers.
    let m = with_readiness(liveness(10, 3));
    let i = input(&slow, ReadyRule::Probes(&m));
    let l = life(&i, 30);
    assert_eq!(unhealthy(&l, "Readiness"), [0, 10, 20, 30, 30]);
    assert_eq!(l.status.restart_count, 1);
}

#[test]
fn without_a_probe_model_a_slow_app_meets_kubernetes_default_probes() {
    // No model.probes: the default readiness and liveness probes (10 s, 3 failures). An app
    // answering from 45 s is killed at 30 s, as above; one answering from 25 s is not (the run
    // at 30 s succeeds) and is Ready at the later of readyAfterRounds' 5 s and the readiness
    // tick at 30 s.
    let slow = AppFailure::Slow { ready: 45 };
    let i = input(&slow, ReadyRule::After(Some(5)));
    assert_eq!(life(&i, 100).starts, [0, 30, 60, 90]);
    let slow = AppFailure::Slow { ready: 25 };
    let i = input(&slow, ReadyRule::After(Some(5)));
    assert_eq!(life(&i, 1000).starts, [0]);
    assert!(!life(&i, 29).status.ready && life(&i, 30).status.ready);
}
