//! Rollouts whose new version goes wrong as the kubelet makes it, run whole: a slow app under a
//! liveness probe against a readiness probe, and a readiness probe that fails after the pod
//! was Ready. Figures worked by hand in the comments.

use crate::api::{ConditionStatus, Deployment, ReplicaSet};
use crate::scenario::Scenario;
use crate::sim::Simulation;

fn run_to(sim: &mut Simulation, round: u32) {
    while sim.round() <= round {
        sim.run_round();
    }
}

fn new_rs(sim: &Simulation, image: &str) -> ReplicaSet {
    let rs = sim
        .api()
        .replica_sets()
        .find(|r| r.spec.template.image == image)
        .expect("the new ReplicaSet");
    (**rs).clone()
}

fn deployment(sim: &Simulation) -> Deployment {
    (**sim.api().deployments().next().unwrap()).clone()
}

fn condition(d: &Deployment, type_: &str) -> Option<(ConditionStatus, String)> {
    d.status
        .conditions
        .iter()
        .find(|c| c.type_ == type_)
        .map(|c| (c.status, c.reason.clone()))
}

/// One pod of `web:2`, whose app answers only 45 s after each start, under the probes given
/// (1 s settled rounds, one node).
fn one_slow_pod(probes: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"name":"slow","rounds":400,"secondsPerRound":1,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":1,"settle":true,
            "model":{{"probes":{{"containers":[{{"name":"web",{probes}}}]}},
                     "failures":{{"web:2":"slow:ready=45s"}}}},
            "actions":[{{"round":0,"type":"create","deployment":{{"name":"web","replicas":1,
                "image":"web:2"}}}}]}}"#
    ))
    .unwrap()
}

#[test]
fn a_slow_app_under_a_liveness_probe_restarts_for_ever_and_under_a_readiness_probe_joins() {
    // livenessProbe every 10 s, failureThreshold 3: failures at 10, 20, 30 s, killed at 30 s
    // and restarted at once (RESTARTS 1), Running; killed again at 60, 90, 120 s (each
    // restart at once: the container before exited 30 s earlier, past its back-off), then at
    // 150 s it waits 40 s (CrashLoopBackOff). Never Ready.
    let mut sim = Simulation::new(one_slow_pod(r#""livenessProbe":{}"#)).without_history();
    let pod = |sim: &Simulation| (**sim.api().pods().next().unwrap()).clone();
    run_to(&mut sim, 29);
    assert_eq!(pod(&sim).restart_count, 0);
    run_to(&mut sim, 30);
    assert_eq!(pod(&sim).restart_count, 1, "killed and restarted at 30 s");
    run_to(&mut sim, 151);
    let p = pod(&sim);
    assert_eq!(p.restart_count, 4);
    assert_eq!(
        p.container.as_ref().unwrap().state.reason(),
        Some("CrashLoopBackOff")
    );
    let events: Vec<(i64, String)> = sim
        .events()
        .filter(|e| e.phase == "kubelet" && e.event.reason != "Pulled")
        .map(|e| (e.event.time, e.event.message.clone()))
        .collect();
    assert!(events.contains(&(
        10,
        "Liveness probe failed: dial tcp: connect: connection refused".into()
    )));
    assert!(events.contains(&(
        30,
        "Container web failed liveness probe, will be restarted".into()
    )));
    run_to(&mut sim, 399);
    assert!(!pod(&sim).is_ready(), "never Ready");

    // readinessProbe every 10 s instead: the runs at 0 (the start), 10, 20, 30, 40 s fail,
    // the one at 50 s finds the app answering: Ready at 50 s, never restarted.
    let mut sim = Simulation::new(one_slow_pod(r#""readinessProbe":{}"#)).without_history();
    run_to(&mut sim, 49);
    assert!(!pod(&sim).is_ready());
    run_to(&mut sim, 50);
    assert!(pod(&sim).is_ready(), "Ready at 50 s");
    run_to(&mut sim, 399);
    assert_eq!(pod(&sim).restart_count, 0);
    let unhealthy = sim
        .events()
        .filter(|e| e.event.reason == "Unhealthy")
        .count();
    assert_eq!(unhealthy, 5);
}

#[test]
fn a_readiness_probe_failing_after_ready_drops_availability_and_the_rollout_waits() {
    // 3 replicas of web:1, then web:2 at 20 s (maxSurge 1, maxUnavailable 0; ready 20 s after
    // a start, 1 s settled rounds). web:2 fails its readiness probe from 25 s after each start,
    // for good; the default readiness probe ticks every 10 s from each pod's admission.
    // n1: created 20 s, Ready 40 s; fails at 50, 60, 70 s (the first tick from 45 s): out of
    // Ready at 70 s. n2: created 40 s (n1 Ready, one old pod goes), Ready 60 s, out at 90 s.
    // n3: created 60 s, Ready 80 s, out at 110 s. At 70 s the new ReplicaSet's available pods
    // drop from 2 to 1 and 2 pods are available of the 3 maxUnavailable 0 requires: Available
    // turns False; the last old pod is held (4 pods = maxTotal, and none may go) and the
    // rollout never completes.
    let s = Scenario::from_json(
        r#"{"name":"degrades","rounds":300,"secondsPerRound":1,"readyAfterRounds":20,
            "terminationRounds":0,"nodes":1,"settle":true,
            "model":{"failures":{"web:2":"readiness:from=25s"}},
            "actions":[
              {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"web:1",
                "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
              {"round":20,"type":"setImage","image":"web:2"}]}"#,
    )
    .unwrap();
    let mut sim = Simulation::new(s).without_history();
    run_to(&mut sim, 69);
    assert_eq!(new_rs(&sim, "web:2").status.available_replicas, 2);
    assert_eq!(
        condition(&deployment(&sim), "Available").map(|c| c.0),
        Some(ConditionStatus::True)
    );
    let n1 = "web-rev2-00001";
    assert!(sim.api().pod(n1).unwrap().is_ready());
    run_to(&mut sim, 70);
    assert!(
        !sim.api().pod(n1).unwrap().is_ready(),
        "n1 out of Ready at 70 s"
    );
    assert_eq!(new_rs(&sim, "web:2").status.available_replicas, 1);
    let d = deployment(&sim);
    assert_eq!(d.status.available_replicas, 2);
    assert_eq!(
        condition(&d, "Available"),
        Some((ConditionStatus::False, "MinimumReplicasUnavailable".into()))
    );
    let unhealthy: Vec<i64> = sim
        .events()
        .filter(|e| e.event.reason == "Unhealthy" && e.event.name == n1)
        .map(|e| e.event.time)
        .collect();
    assert_eq!(unhealthy, [50, 60, 70]);
    run_to(&mut sim, 299);
    // The rollout waits: the old ReplicaSet keeps its last pod, the new pods are all out.
    let old = sim
        .api()
        .replica_sets()
        .find(|r| r.spec.template.image == "web:1")
        .unwrap();
    assert_eq!(old.spec.replicas, 1);
    assert_eq!(new_rs(&sim, "web:2").status.available_replicas, 0);
    let d = deployment(&sim);
    assert_eq!(d.status.available_replicas, 1);
    assert_eq!(d.status.updated_replicas, 3);
}

#[test]
fn template_probes_judge_the_pods_of_their_image_and_are_read_strictly() {
    // web:2 with a livenessProbe of its own (the scenario's model.probes has none): killed at
    // 30 s as above; written back as read.
    let text = r#"{"name":"t","rounds":60,"secondsPerRound":1,"readyAfterRounds":1,
        "terminationRounds":0,"nodes":1,"settle":true,
        "model":{"failures":{"web:2":"slow:ready=45s"},
                 "templateProbes":{"web:2":{"containers":[{"name":"web","livenessProbe":{}}]}}},
        "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":1,
            "image":"web:2"}}]}"#;
    let s = Scenario::from_json(text).unwrap();
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(
        v["model"]["templateProbes"]["web:2"]["containers"][0]["livenessProbe"]["failureThreshold"],
        3
    );
    assert_eq!(Scenario::from_value(&v).unwrap(), s);
    let mut sim = Simulation::new(s).without_history();
    run_to(&mut sim, 30);
    let pod = sim.api().pods().next().unwrap();
    assert_eq!(pod.restart_count, 1);
    assert_eq!(pod.container.as_ref().unwrap().name, "web");
    for (bad, why) in [
        (
            r#"{"failures":{"web:2":"pull"},"templateProbes":{"web:3":{}}}"#,
            "templateProbes.web:3: only an image model.failures names has probes of its own",
        ),
        (
            r#"{"failures":{"web:2":"pull"},"templateProbes":{"web:2":{"pull":1}}}"#,
            "templateProbes.web:2: probes: unknown field `pull`",
        ),
        (
            r#"{"failures":{"web:2":"pull"},"templateProbes":[]}"#,
            "templateProbes: expected an object of image: probes",
        ),
    ] {
        let mut v = v.clone();
        v["model"] = serde_json::from_str(bad).unwrap();
        let e = Scenario::from_value(&v).unwrap_err();
        assert!(e.to_string().contains(why), "{bad}: {e}");
    }
}
