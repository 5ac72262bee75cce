//! Ready-made scenarios that reproduce the examples of the Kubernetes documentation's
//! Deployment page, for the UI's preset menu and the CLI.

use crate::scenario::Scenario;
use serde::Serialize;

/// A named starting point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preset {
    /// Stable id (used in links and by tests).
    pub id: &'static str,
    /// Menu title.
    pub title: &'static str,
    /// One or two sentences on what it shows.
    pub description: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

/// A preset in seconds: 1 s rounds, settled (the controllers react at once, as in a real
/// cluster), so every time below is a round number too.
struct Spec {
    id: &'static str,
    title: &'static str,
    description: &'static str,
    /// How long the scenario runs at least (seconds = rounds).
    seconds: u32,
    /// A pod becomes ready this many seconds after it starts.
    ready_after: u32,
    /// A deleted pod terminates for this many seconds (its grace period).
    termination: u32,
    never_ready: &'static str,
    deployment: &'static str,
    actions: &'static str,
}

/// The preset a first visit opens on (the app, `?embed` and `<rollout-lab>` without a
/// preset), run to its first command ([`crate::session::Session::run_to_first_command`]): the
/// Deployment running 3 pods of nginx:1.14.2 and `kubectl set image` a Step away.
pub const FIRST_VISIT: &str = "rolling-basic";

/// Pods start in 5 s and terminate in 3 s unless a preset says otherwise.
const READY: u32 = 5;
const GRACE: u32 = 3;

const SPECS: &[Spec] = &[
    Spec {
        id: "rolling-basic",
        title: "Rolling update: 3 replicas, 25% / 25%",
        description: "The documentation's first example: nginx:1.14.2 with 3 replicas, then `kubectl set image` to nginx:1.16.1. maxSurge 25% rounds up to 1 and maxUnavailable 25% rounds down to 0, so pods are replaced one by one.",
        seconds: 40,
        ready_after: READY,
        termination: GRACE,
        never_ready: "",
        deployment: r#""replicas":3,"image":"nginx:1.14.2","strategy":{"type":"RollingUpdate","maxSurge":"25%","maxUnavailable":"25%"}"#,
        actions: r#",{"round":10,"type":"setImage","image":"nginx:1.16.1"}"#,
    },
    Spec {
        id: "bad-image-stuck",
        title: "A bad image gets stuck",
        description: "An image that never becomes ready (nginx:1.161, a typo). The new ReplicaSet takes its surge pod and the old one gives up what maxUnavailable allows; then the rollout stops and waits.",
        seconds: 40,
        ready_after: READY,
        termination: GRACE,
        never_ready: "nginx:1.161",
        deployment: r#""replicas":3,"image":"nginx:1.14.2""#,
        actions: r#",{"round":10,"type":"setImage","image":"nginx:1.161"}"#,
    },
    Spec {
        id: "proportional-scaling",
        title: "Proportional scaling: 10 → 15 mid-rollout",
        description: "10 replicas, maxSurge 3, maxUnavailable 2, a rollout to an image that never becomes ready, then `kubectl scale --replicas=15`. The 5 extra replicas (plus surge) are shared in proportion: 3 to the old ReplicaSet, 2 to the new.",
        seconds: 40,
        ready_after: READY,
        termination: GRACE,
        never_ready: "nginx:sometag",
        deployment: r#""replicas":10,"image":"nginx:1.14.2","strategy":{"type":"RollingUpdate","maxSurge":3,"maxUnavailable":2}"#,
        actions: r#",{"round":10,"type":"setImage","image":"nginx:sometag"},{"round":20,"type":"scale","replicas":15}"#,
    },
    Spec {
        id: "rollover",
        title: "Rollover: a new image during a rollout",
        description: "5 replicas, pods ready after 10 seconds. A rollout to v2 starts, and v3 arrives before it finishes: the v2 ReplicaSet joins the old ones and is scaled down at once.",
        seconds: 60,
        ready_after: 10,
        termination: GRACE,
        never_ready: "",
        deployment: r#""replicas":5,"image":"app:v1""#,
        actions: r#",{"round":15,"type":"setImage","image":"app:v2"},{"round":20,"type":"setImage","image":"app:v3"}"#,
    },
    Spec {
        id: "pause-resume",
        title: "Pause, change, resume",
        description: "`kubectl rollout pause`, then an image change and a scale while paused: the scale is applied, the rollout is not. `kubectl rollout resume` starts it.",
        seconds: 50,
        ready_after: READY,
        termination: GRACE,
        never_ready: "",
        deployment: r#""replicas":3,"image":"nginx:1.14.2""#,
        actions: r#",{"round":10,"type":"pause"},{"round":12,"type":"setImage","image":"nginx:1.16.1"},{"round":15,"type":"scale","replicas":5},{"round":25,"type":"resume"}"#,
    },
    Spec {
        id: "recreate",
        title: "Recreate: all old pods go first",
        description: "strategy Recreate with graceful termination: the old ReplicaSet is scaled to 0, the controller waits until no old pod is running, then creates the new one at full size.",
        seconds: 40,
        ready_after: READY,
        termination: 5,
        never_ready: "",
        deployment: r#""replicas":3,"image":"nginx:1.14.2","strategy":{"type":"Recreate"}"#,
        actions: r#",{"round":10,"type":"setImage","image":"nginx:1.16.1"}"#,
    },
    Spec {
        id: "progress-deadline",
        title: "Progress deadline exceeded",
        description: "progressDeadlineSeconds 30 and an image that never becomes ready: once 30 seconds pass without progress, Progressing turns False with reason ProgressDeadlineExceeded (no event is recorded).",
        seconds: 60,
        ready_after: READY,
        termination: GRACE,
        never_ready: "nginx:1.161",
        deployment: r#""replicas":3,"image":"nginx:1.14.2","progressDeadlineSeconds":30"#,
        actions: r#",{"round":10,"type":"setImage","image":"nginx:1.161"}"#,
    },
    Spec {
        id: "rollback",
        title: "Rolling back a bad rollout",
        description: "A rollout to a bad image gets stuck; `kubectl rollout undo` copies revision 1's template back into the Deployment, and the old ReplicaSet becomes the new one again (its revision renumbered to 3).",
        seconds: 50,
        ready_after: READY,
        termination: GRACE,
        never_ready: "nginx:1.161",
        deployment: r#""replicas":3,"image":"nginx:1.14.2""#,
        actions: r#",{"round":10,"type":"setImage","image":"nginx:1.161"},{"round":25,"type":"undo"}"#,
    },
];

/// Every preset's id, title and description, in menu order, without building the scenarios
/// (what a menu needs, cheaply).
pub fn menu() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    SPECS.iter().map(|s| (s.id, s.title, s.description))
}

/// Every preset, in menu order.
pub fn presets() -> Vec<Preset> {
    SPECS.iter().map(build).collect()
}

/// One preset by id.
pub fn preset(id: &str) -> Option<Preset> {
    SPECS.iter().find(|s| s.id == id).map(build)
}

fn build(s: &Spec) -> Preset {
    let never_ready = if s.never_ready.is_empty() {
        String::new()
    } else {
        format!("\"{}\"", s.never_ready)
    };
    let json = format!(
        r#"{{"name":"{id}","description":"","rounds":{rounds},"secondsPerRound":1,"settle":true,
            "readyAfterRounds":{ready},"terminationRounds":{term},"neverReadyImages":[{never_ready}],
            "nodes":3,"actions":[{{"round":0,"type":"create","deployment":{{"name":"web",{dep}}}}}{actions}]}}"#,
        id = s.id,
        rounds = s.seconds,
        ready = s.ready_after,
        term = s.termination,
        dep = s.deployment,
        actions = s.actions,
    );
    let mut scenario = Scenario::from_json(&json).expect("presets are valid scenarios");
    scenario.description = s.description.to_string();
    Preset {
        id: s.id,
        title: s.title,
        description: s.description,
        scenario,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Simulation;

    #[test]
    fn the_menu_lists_every_preset_in_order() {
        let menu: Vec<_> = menu().collect();
        let full: Vec<_> = presets()
            .into_iter()
            .map(|p| (p.id, p.title, p.description))
            .collect();
        assert_eq!(menu, full);
    }

    #[test]
    fn every_preset_runs_without_errors() {
        for p in presets() {
            let mut sim = Simulation::new(p.scenario.clone()).without_history();
            sim.run();
            let errors: Vec<_> = sim.trace_rounds().flat_map(|r| r.errors.clone()).collect();
            assert!(errors.is_empty(), "{}: {errors:?}", p.id);
        }
    }

    #[test]
    fn proportional_preset_shares_the_scale_up_three_to_two() {
        let mut sim =
            Simulation::new(preset("proportional-scaling").unwrap().scenario).without_history();
        sim.run();
        let round20 = sim.trace_rounds().find(|r| r.round == 20).unwrap().clone();
        let messages: Vec<&str> = round20
            .events
            .iter()
            .filter(|e| e.reason == "ScalingReplicaSet")
            .map(|e| e.message.as_str())
            .collect();
        assert_eq!(
            messages,
            vec![
                "Scaled up replica set web-rev1 to 11 from 8",
                "Scaled up replica set web-rev2 to 7 from 5"
            ]
        );
    }
}
