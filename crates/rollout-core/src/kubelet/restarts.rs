//! The kubelet pass over the pods whose app fails (a scenario's `model.failures`): each one's
//! container status as [`container_life`] works it out at the pass's moment, written through
//! the API server ([`ApiServer::sync_container_status`]), and the events the kubelet recorded
//! since its last sync of that pod. Pods whose image does not fail are left to the other
//! passes, untouched, so a scenario without failures runs exactly as before.

use super::container_life::{life, Life, LifeInput, ReadyRule};
use super::failures::FailureModel;
use super::{KubeletModel, PodChange};
use crate::api::{ContainerState, Event, Pod, Time};
use crate::store::ApiServer;
use std::sync::Arc;

/// Whether the kubelet leaves `pod` to this pass: its image fails, it is bound to a node and
/// not being deleted.
pub fn handles(model: &KubeletModel, pod: &Pod) -> bool {
    model
        .failures
        .as_ref()
        .is_some_and(|f| f.of(&pod.image).is_some())
        && !pod.node_name.is_empty()
        && pod.metadata.deletion_timestamp.is_none()
}

/// The container's name: the probe model's first container's, else `app`.
fn container_name<'a>(model: &'a KubeletModel, image: &str) -> &'a str {
    model
        .probes_of(image)
        .and_then(|p| p.containers.first())
        .map_or("app", |c| c.name.as_str())
}

/// The pod's life at `at` (a pod [`handles`] says this pass leads).
pub fn pod_life(
    model: &KubeletModel,
    failures: &FailureModel,
    pod: &Pod,
    at: Time,
) -> Option<Life> {
    let failure = failures.of(&pod.image)?;
    let who = format!("{}_default({})", pod.metadata.name, pod.metadata.uid);
    let ready = match model.probes_of(&pod.image) {
        Some(p) => ReadyRule::Probes(p),
        None if model.never_ready_images.contains(&pod.image) => ReadyRule::After(None),
        None => ReadyRule::After(Some(
            i64::from(model.ready_after(&pod.metadata.name)) * model.seconds_per_round.max(1),
        )),
    };
    let input = LifeInput {
        failure,
        restart_back_off: failures.restart_back_off,
        pod: &who,
        container: container_name(model, &pod.image),
        image: &pod.image,
        admitted: pod.metadata.creation_timestamp,
        first_started: pod
            .container
            .as_ref()
            .map_or(pod.started_at, |c| c.first_started),
        ready,
    };
    Some(life(&input, at))
}

/// The new events of `life` and whether the pod's stored status is behind it.
fn news<'a>(pod: &Pod, life: &'a Life) -> (&'a [super::container_life::KubeletEvent], bool) {
    let synced = pod.container.as_ref().map(|c| c.synced_at);
    let from = life
        .events
        .iter()
        .position(|e| synced.is_none_or(|s| e.time > s))
        .unwrap_or(life.events.len());
    let behind = match &pod.container {
        None => true,
        Some(c) => {
            let mut was = (**c).clone();
            was.synced_at = life.status.synced_at;
            was != life.status
        }
    };
    (&life.events[from..], behind)
}

/// The first round at or after `from` in which this pass will change a pod (`round_at` turns
/// a moment into its round); `None` when none will.
pub fn next_due_round(
    api: &ApiServer,
    model: &KubeletModel,
    from: u32,
    round_at: &dyn Fn(Time) -> u32,
) -> Option<u32> {
    let failures = model.failures.as_ref()?;
    let now = api.now();
    let mut due: Option<u32> = None;
    for pod in api.pods().filter(|p| handles(model, p)) {
        let Some(l) = pod_life(model, failures, pod, now) else {
            continue;
        };
        let (new, behind) = news(pod, &l);
        let round = if behind || !new.is_empty() {
            from
        } else {
            match l.next_change {
                Some(t) => round_at(t),
                None => continue,
            }
        };
        due = Some(due.map_or(round, |d| d.min(round)));
    }
    due
}

/// One pass: each failing pod's status brought to now, its new events appended to `events`.
pub fn pass(
    api: &mut ApiServer,
    model: &KubeletModel,
    events: &mut Vec<Arc<Event>>,
) -> Vec<PodChange> {
    let Some(failures) = &model.failures else {
        return Vec::new();
    };
    let now = api.now();
    let mut writes = Vec::new();
    for pod in api.pods().filter(|p| handles(model, p)) {
        let Some(l) = pod_life(model, failures, pod, now) else {
            continue;
        };
        let (new, behind) = news(pod, &l);
        if !behind && new.is_empty() {
            continue;
        }
        for e in new {
            events.push(Arc::new(Event {
                type_: e.type_.into(),
                reason: e.reason.into(),
                message: e.message.clone(),
                kind: "Pod".into(),
                name: pod.metadata.name.clone(),
                pod: Some(pod.metadata.name.clone()),
                time: e.time,
            }));
        }
        let was_running = matches!(
            pod.container.as_ref().map(|c| &c.state),
            None | Some(ContainerState::Running { .. })
        );
        writes.push((
            pod.metadata.name.clone(),
            pod.is_ready(),
            was_running,
            l.status,
        ));
    }
    let mut changes = Vec::new();
    for (name, was_ready, was_running, status) in writes {
        let ready = status.ready;
        let exited = match (&status.state, &status.last_state) {
            (ContainerState::Terminated { exit_code, .. }, _) if was_running => Some(*exit_code),
            (
                ContainerState::Waiting { .. },
                Some(ContainerState::Terminated { exit_code, .. }),
            ) if was_running => Some(*exit_code),
            _ => None,
        };
        let running = matches!(status.state, ContainerState::Running { .. });
        let _ = api.sync_container_status(&name, status);
        if let Some(exit_code) = exited {
            changes.push(PodChange::ContainerExited {
                pod: name,
                exit_code,
            });
        } else if ready && !was_ready {
            changes.push(PodChange::BecameReady { pod: name });
        } else if !ready && was_ready && running {
            changes.push(PodChange::BecameNotReady { pod: name });
        }
    }
    changes
}

#[cfg(test)]
mod rollout_tests;

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;
    use crate::sim::Simulation;

    #[test]
    fn a_scenario_with_a_liveness_probe_and_a_silent_app_kills_and_restarts() {
        // Probe model: liveness every 10 s, 3 failures; web:2 stops answering at once. The
        // new pod is created at 0 s, failures at 10, 20, 30 s: killed and restarted at 30 s.
        let s = Scenario::from_json(
            r#"{"name":"live","rounds":40,"secondsPerRound":1,"readyAfterRounds":1,
                "terminationRounds":0,"nodes":1,"settle":true,
                "model":{"probes":{"containers":[{"name":"web","livenessProbe":{}}]},
                         "failures":{"web:2":"probe:after=0s"},
                         "restartBackOff":{"maxSeconds":30}},
                "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":1,
                    "image":"web:2"}}]}"#,
        )
        .unwrap();
        // The scenario writes back what it read.
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(
            v["model"]["failures"],
            serde_json::json!({"web:2": "probe:after=0s"})
        );
        assert_eq!(
            v["model"]["restartBackOff"],
            serde_json::json!({"initialSeconds": 10, "maxSeconds": 30})
        );
        assert_eq!(Scenario::from_value(&v).unwrap(), s);
        let mut sim = Simulation::new(s).without_history();
        let pod = |sim: &Simulation| (*sim.api().pods().next().unwrap()).clone();
        while sim.round() < 30 {
            sim.run_round();
        }
        assert_eq!(pod(&sim).restart_count, 0);
        sim.run_round();
        let p = pod(&sim);
        assert_eq!(p.restart_count, 1, "killed and restarted at 30 s");
        assert!(!p.is_ready());
        let reasons: Vec<String> = sim
            .events()
            .filter(|e| e.phase == "kubelet")
            .map(|e| format!("{} {}", e.event.time, e.event.reason))
            .collect();
        assert!(reasons.contains(&"10 Unhealthy".to_string()), "{reasons:?}");
        assert!(reasons.contains(&"30 Killing".to_string()), "{reasons:?}");
        // The trace names the kubelet's events as the kubelet's.
        let round30 = sim.trace_rounds().find(|r| r.round == 30).unwrap();
        assert!(round30
            .events
            .iter()
            .any(|e| e.phase == "kubelet" && e.reason == "Killing"));
    }

    #[test]
    fn a_scenario_without_failures_has_no_container_statuses() {
        let s = crate::presets::preset("rolling-basic").unwrap().scenario;
        let mut sim = Simulation::new(s).without_history();
        while !sim.finished() {
            sim.run_round();
        }
        assert!(sim.api().pods().all(|p| p.container.is_none()));
        assert!(sim.events().all(|e| e.phase != "kubelet"));
    }
}

/// What the kubelet did to failing pods in a step, from its events, for the step's caption:
/// `started web-rev2-00001's container again`, `web-rev2-00001 is in CrashLoopBackOff`, ….
pub fn step_words(changes: &[PodChange], events: &[Arc<Event>]) -> Vec<String> {
    let mut out = Vec::new();
    for c in changes {
        match c {
            PodChange::ContainerExited { pod, exit_code } => {
                out.push(format!("{pod}'s container exited (code {exit_code})"))
            }
            PodChange::BecameNotReady { pod } => {
                out.push(format!("{pod} failed its readiness probe: not ready"))
            }
            _ => {}
        }
    }
    for e in events.iter().filter(|e| e.kind == "Pod") {
        let pod = &e.name;
        let line = match (e.reason.as_ref(), e.message.as_str()) {
            ("Started", _) => format!("started {pod}'s container"),
            ("Killing", m) => format!(
                "killed {pod}'s container (it failed its {} probe)",
                if m.contains("startup") {
                    "startup"
                } else {
                    "liveness"
                }
            ),
            ("BackOff", m) if m.starts_with("Back-off restarting") => {
                format!("{pod} waits in CrashLoopBackOff")
            }
            ("Failed", "Error: ErrImagePull") => {
                format!("{pod} could not pull its image (ErrImagePull)")
            }
            ("Failed", "Error: ImagePullBackOff") => format!("{pod} waits in ImagePullBackOff"),
            _ => continue,
        };
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

#[cfg(test)]
mod session_tests {
    #[test]
    fn the_steps_of_a_crash_loop_say_what_the_kubelet_did() {
        // One pod of web:2, crashing 5 s after each start, never ready (10 s start-up):
        // started at 0 s, exits at 5 s and is started again at once; exits at 10 s and waits
        // 10 s; started at 20 s.
        let s = crate::kubelet::failures::fixtures::one_crashing_pod();
        let mut session = crate::session::Session::new(s).unwrap();
        let mut later = Vec::new();
        while let Some(step) = session.step() {
            if step.seconds_later > 0 {
                later.push(step.headline.clone());
            }
            if session.sim().now() > 25 {
                break;
            }
        }
        let pod = "web-rev1-00001";
        assert_eq!(
            later[..4],
            [
                format!("5 s later: started {pod}'s container"),
                format!("5 s later: {pod}'s container exited (code 1)"),
                format!("1 s later: {pod} waits in CrashLoopBackOff"),
                format!("9 s later: started {pod}'s container"),
            ],
            "{later:#?}"
        );
    }
}

#[cfg(test)]
mod link_tests {
    #[test]
    fn a_permalink_keeps_the_failures() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"name":"crash","rounds":60,"secondsPerRound":1,"readyAfterRounds":10,
                "terminationRounds":0,"nodes":1,"settle":true,
                "model":{"failures":{"web:2":"crash:after=5s"},"restartBackOff":{"maxSeconds":30}},
                "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":1,
                    "image":"web:2"}}]}"#,
        )
        .unwrap();
        let mut session = crate::session::Session::new(s.clone()).unwrap();
        for _ in 0..6 {
            session.step();
        }
        let link = session.link();
        let back = crate::session::Session::from_link(&link, &s).unwrap();
        assert_eq!(back.value.sim().scenario(), &s);
        assert_eq!(
            back.value.api().pods().next().unwrap().container,
            session.api().pods().next().unwrap().container
        );
    }

    #[test]
    fn a_failing_image_is_within_the_image_limit() {
        let long = "x".repeat(600);
        let text =
            format!(r#"{{"name":"c","model":{{"failures":{{"{long}":"pull"}}}},"actions":[]}}"#);
        let e = crate::scenario::Scenario::from_json(&text).unwrap_err();
        assert!(
            e.to_string()
                .contains("model.failures: xxxxxxxxxxxxxxxxxxxx… is 600 bytes"),
            "{e}"
        );
    }
}

#[cfg(test)]
mod view_tests {
    #[test]
    fn the_stage_sees_restarts_and_the_back_off() {
        // crash:after=5s from 0 s: at 12 s it has restarted once (at 5 s), exited at 10 s and
        // waits in CrashLoopBackOff until 20 s: 8 s left.
        let s = crate::kubelet::failures::fixtures::one_crashing_pod();
        let mut sim = crate::sim::Simulation::new(s).without_history();
        while sim.round() < 12 {
            sim.run_round();
        }
        let view = crate::view::cluster_view(&sim);
        let pod = &view.replica_sets[0].pods[0];
        assert_eq!(pod.reason.as_deref(), Some("CrashLoopBackOff"));
        assert_eq!((pod.restarts, pod.back_off_left), (1, Some(8)));
    }
}
