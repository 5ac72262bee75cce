//! A step's explanation in words: which part of the cluster acted, the Kubernetes functions it
//! went through (with links to their source), the decisions with their live numbers, and what
//! changed. Pure functions over the core's `StepRecord`, tested natively.

use rollout_facade::scenario::Action;
use rollout_facade::sim::PodChange;
use rollout_facade::sim::{StepKind, StepRecord};
use rollout_facade::ui_support::{kubectl_command, source_in_step};

/// Who acted in a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The user's kubectl commands.
    User,
    /// The Deployment controller.
    Deployment,
    /// The ReplicaSet controller.
    ReplicaSet,
    /// The kubelet and the scheduler.
    Kubelet,
}

impl Actor {
    /// Of a step.
    pub fn of(kind: &StepKind) -> Actor {
        match kind {
            StepKind::Actions => Actor::User,
            StepKind::SyncDeployment { .. } => Actor::Deployment,
            StepKind::SyncReplicaSet { .. } => Actor::ReplicaSet,
            StepKind::Kubelet => Actor::Kubelet,
        }
    }

    /// A name for people.
    pub fn label(self) -> &'static str {
        match self {
            Actor::User => "You (kubectl)",
            Actor::Deployment => "Deployment controller",
            Actor::ReplicaSet => "ReplicaSet controller",
            Actor::Kubelet => "Kubelet and scheduler",
        }
    }

    /// A CSS-friendly key.
    pub fn key(self) -> &'static str {
        match self {
            Actor::User => "user",
            Actor::Deployment => "deployment",
            Actor::ReplicaSet => "replicaset",
            Actor::Kubelet => "kubelet",
        }
    }
}

/// A Kubernetes function, with a link to its source when it is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnLink {
    /// The Go name.
    pub name: String,
    /// The file it is in (`rolling.go`).
    pub file: Option<&'static str>,
    /// GitHub link to its declaration in v1.28.4.
    pub url: Option<String>,
}

impl FnLink {
    fn new(name: &str, kind: &StepKind) -> FnLink {
        let source = source_in_step(name, kind);
        FnLink {
            name: name.to_string(),
            file: source.map(|s| s.file_name()),
            url: source.map(|s| s.url()),
        }
    }
}

/// One decision: the function that took it and the sentence with the numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionLine {
    /// The function.
    pub function: FnLink,
    /// The sentence.
    pub text: String,
}

/// Everything the explanation panel shows about one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Who acted.
    pub actor: Actor,
    /// e.g. `syncDeployment web`.
    pub title: String,
    /// One sentence: what happened.
    pub headline: String,
    /// The functions entered, in order.
    pub path: Vec<FnLink>,
    /// The decisions with their numbers.
    pub decisions: Vec<DecisionLine>,
    /// Extra facts: pods created, deleted (and why), scheduled, ready.
    pub details: Vec<String>,
    /// Events, as `Type Reason: message`.
    pub events: Vec<String>,
    /// Errors returned by the sync or refusals of actions.
    pub errors: Vec<String>,
    /// The step's round.
    pub round: u32,
    /// The step's time.
    pub time: i64,
    /// The step's number (1-based, as a user counts).
    pub number: usize,
}

/// How many pods of one kind the kubelet details name before summarising.
const NAMED: usize = 6;

fn pods(n: usize) -> String {
    if n == 1 {
        "1 pod".to_string()
    } else {
        format!("{n} pods")
    }
}

fn list(names: &[&str]) -> String {
    if names.len() <= NAMED {
        names.join(", ")
    } else {
        format!(
            "{} and {} more",
            names[..NAMED].join(", "),
            names.len() - NAMED
        )
    }
}

/// The kubectl commands of an Actions step.
fn commands(record: &StepRecord, deployment: &str) -> Vec<String> {
    record
        .actions
        .iter()
        .enumerate()
        .map(|(i, v)| match Action::from_value(i, v) {
            Ok(a) => kubectl_command(&a.kind, deployment),
            Err(_) => v.to_string(),
        })
        .collect()
}

/// Decisions that say why a Deployment sync did (or did not) scale, most telling first.
const TELLING: &[&str] = &[
    "rollback",
    "checkPausedConditions",
    "scale",
    "rolloutRecreate",
    "oldPodsRunning",
    "scaleDownOldReplicaSetsForRecreate",
    "scaleUpNewReplicaSetForRecreate",
    "scaleDownOldReplicaSetsForRollingUpdate",
    "cleanupUnhealthyReplicas",
    "reconcileOldReplicaSets",
    "reconcileNewReplicaSet",
    "getNewReplicaSet",
];

/// Explains one step of a simulation whose (first) Deployment is `deployment`.
pub fn explain(record: &StepRecord, deployment: &str) -> Explanation {
    let actor = Actor::of(&record.kind);
    let kind = &record.kind;
    let mut details = Vec::new();
    let title = match kind {
        StepKind::Actions => "kubectl".to_string(),
        StepKind::SyncDeployment { name } => format!("syncDeployment {name}"),
        StepKind::SyncReplicaSet { name } => format!("syncReplicaSet {name}"),
        StepKind::Kubelet => "kubelet pass over every pod".to_string(),
    };
    let events: Vec<String> = record
        .events
        .iter()
        .map(|e| format!("{} {}: {}", e.type_, e.reason, e.message))
        .collect();
    let decision_text = |names: &[&str]| decision_text(record, names);
    let headline = match kind {
        StepKind::Actions => {
            let cmds = commands(record, deployment);
            if record.errors.is_empty() {
                format!("Your command reaches the API server: {}", cmds.join("; "))
            } else {
                format!(
                    "The API server refused {}: {}",
                    if cmds.len() == 1 {
                        "your command"
                    } else {
                        "a command"
                    },
                    record.errors.join("; ")
                )
            }
        }
        StepKind::SyncDeployment { .. } => {
            let scaling: Vec<&str> = record.events.iter().map(|e| e.message.as_str()).collect();
            if !scaling.is_empty() {
                scaling.join("; ")
            } else if let Some(t) = decision_text(TELLING) {
                format!("No scaling: {t}")
            } else if let Some(d) = record.decisions.last() {
                d.text.clone()
            } else {
                "Nothing to do.".to_string()
            }
        }
        StepKind::SyncReplicaSet { .. } => replica_set_headline(record, &mut details),
        StepKind::Kubelet => kubelet_headline(record, &mut details),
    };
    Explanation {
        actor,
        title,
        headline,
        path: record.path.iter().map(|f| FnLink::new(f, kind)).collect(),
        decisions: record
            .decisions
            .iter()
            .map(|d| DecisionLine {
                function: FnLink::new(&d.function, kind),
                text: d.text.clone(),
            })
            .collect(),
        details,
        events,
        errors: record.errors.clone(),
        round: record.round,
        time: record.time,
        number: record.index + 1,
    }
}

/// The text of the last decision made by one of `names` (function names).
fn decision_text(record: &StepRecord, names: &[&str]) -> Option<String> {
    record
        .decisions
        .iter()
        .rev()
        .find(|d| names.contains(&d.function.as_str()))
        .map(|d| d.text.clone())
}

/// A ReplicaSet sync's headline (its decision), with slowStartBatch's batches and the
/// deletion ranking in `details`.
fn replica_set_headline(record: &StepRecord, details: &mut Vec<String>) -> String {
    if let Some(m) = &record.manage {
        if let Some(ss) = &m.slow_start {
            let sizes: Vec<String> = ss.batch_sizes.iter().map(|n| n.to_string()).collect();
            details.push(format!(
                "slowStartBatch: batches of {} ({} created{})",
                sizes.join(", "),
                ss.successes,
                ss.error
                    .as_ref()
                    .map(|e| format!(", stopped by: {e}"))
                    .unwrap_or_default()
            ));
        }
        for d in m.deletions.iter().take(NAMED) {
            details.push(match &d.kept {
                Some(kept) => format!(
                    "getPodsToDelete: {} goes before {} ({})",
                    d.pod.name,
                    kept.name,
                    d.criterion.describe()
                ),
                None => format!("getPodsToDelete: {} goes (every pod goes)", d.pod.name),
            });
        }
        if m.deletions.len() > NAMED {
            details.push(format!(
                "… and {} more, in the same ranking order",
                m.deletions.len() - NAMED
            ));
        }
    }
    decision_text(record, &["manageReplicas"])
        .or_else(|| decision_text(record, &["syncReplicaSet"]))
        .unwrap_or_else(|| "Nothing to do.".to_string())
}

/// A kubelet pass's headline (the pods scheduled, ready and removed), with the pods named in
/// `details`.
fn kubelet_headline(record: &StepRecord, details: &mut Vec<String>) -> String {
    let mut scheduled = Vec::new();
    let mut ready = Vec::new();
    let mut removed = Vec::new();
    for c in &record.pod_changes {
        match c {
            PodChange::Scheduled { pod, .. } => scheduled.push(pod.as_str()),
            PodChange::BecameReady { pod } => ready.push(pod.as_str()),
            PodChange::Removed { pod } => removed.push(pod.as_str()),
            #[allow(unreachable_patterns)]
            _ => {}
        }
    }
    for c in record.pod_changes.iter().take(NAMED) {
        if let PodChange::Scheduled { pod, node } = c {
            details.push(format!("{pod} → {node}"));
        }
    }
    if !ready.is_empty() {
        details.push(format!("Ready: {}", list(&ready)));
    }
    if !removed.is_empty() {
        details.push(format!("Grace period over, removed: {}", list(&removed)));
    }
    let mut parts = Vec::new();
    if !scheduled.is_empty() {
        parts.push(format!("scheduled {}", pods(scheduled.len())));
    }
    if !ready.is_empty() {
        parts.push(format!("{} became Running and Ready", pods(ready.len())));
    }
    if !removed.is_empty() {
        parts.push(format!(
            "removed {} after graceful termination",
            pods(removed.len())
        ));
    }
    // What the kubelet did to containers whose app fails (issue #34): `killed web-rev2-00001's
    // container (it failed its liveness probe)`, `web-rev2-00001 waits in CrashLoopBackOff`.
    parts.extend(rollout_facade::failures::step_words(
        &record.pod_changes,
        &record.events,
    ));
    if parts.is_empty() {
        "No pod changed: every pod is where the cluster model says it should be.".to_string()
    } else {
        let mut s = parts.join(", ");
        // ASCII only: the sentence starts with "scheduled", "removed" or a digit.
        if let Some(first) = s.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        s + "."
    }
}

/// The step in one line, for the stage's caption: who acted and why, e.g. `Deployment
/// controller: maxTotalPods = 3 + 1 = 4, current 3, so scale new up by 1 (min of 1 and
/// 4 − 3): 0 → 1`.
/// A Deployment sync that scaled says which decision did it and what it wrote: `…: 1 → 2 →
/// Scaled up replica set web-rev2 to 2 from 1`. One that did not already says why in its
/// headline (`No scaling: …, so no old pod may go yet`).
pub fn caption(e: &Explanation) -> String {
    let why = (e.actor == Actor::Deployment && !e.events.is_empty())
        .then(|| cause(e))
        .flatten();
    match why {
        Some(d) => format!("{}: {} → {}", e.actor.label(), d.text, e.headline),
        None => format!("{}: {}", e.actor.label(), e.headline),
    }
}

/// `s` with its first letter in upper case (ASCII: kubectl's lines start with a word such as
/// `deployment`).
pub fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// The stage's caption after a step to the next change: the time that passed first
/// (`30 s later · Kubelet and scheduler: …`), and the note when the state calls for one.
pub fn caption_after(e: &Explanation, note: Option<&StepNote>) -> String {
    let Some(n) = note else {
        return caption(e);
    };
    // A sync that only wrote a status: what it wrote (its decisions said it would not scale).
    let text = n.status_change.clone().unwrap_or_else(|| caption(e));
    let mut out = match n.seconds_later {
        s if s <= 0 => text,
        s => format!("{} later · {text}", seconds(s)),
    };
    if let Some(first) = n.notes.first() {
        out.push_str(&format!(" ({first})"));
    }
    out
}

/// A span of simulated time: `30 s`, `2 min`, `2 min 5 s`.
pub fn seconds(s: i64) -> String {
    match (s / 60, s % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) if m >= 2 => format!("{m} min"),
        (m, s) if m >= 2 => format!("{m} min {s} s"),
        _ => format!("{s} s"),
    }
}

/// The decision behind a Deployment sync's scaling: a new ReplicaSet created at its first
/// size (`getNewReplicaSet`), else the last decision of a function that scales up or, for a
/// scale-down, down.
fn cause(e: &Explanation) -> Option<&DecisionLine> {
    const UP: &[&str] = &[
        "reconcileNewReplicaSet",
        "scale",
        "scaleUpNewReplicaSetForRecreate",
        "oldPodsRunning",
        "rollback",
    ];
    const DOWN: &[&str] = &[
        "scaleDownOldReplicaSetsForRollingUpdate",
        "cleanupUnhealthyReplicas",
        "scaleDownOldReplicaSetsForRecreate",
        "scale",
        "reconcileNewReplicaSet",
    ];
    let last_of = |names: &[&str]| {
        e.decisions
            .iter()
            .rev()
            .find(|d| names.contains(&d.function.name.as_str()))
    };
    if e.headline.starts_with("Scaled up") {
        e.decisions
            .iter()
            .find(|d| d.function.name == "getNewReplicaSet" && d.text.contains(", so create "))
            .or_else(|| last_of(UP))
    } else if e.headline.starts_with("Scaled down") {
        last_of(DOWN)
    } else {
        None
    }
}

/// What a step to the next change adds to the explanation of the sync that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepNote {
    /// `30 s later: 1 pod of web-rev2 became ready`.
    pub headline: String,
    /// Simulated seconds since the moment the previous step showed.
    pub seconds_later: i64,
    /// The syncs that changed nothing on the way, each with its arithmetic.
    pub checked: Vec<String>,
    /// Things worth knowing about the state reached.
    pub notes: Vec<String>,
    /// What changed, when the sync that made the step only wrote a status (no events, no
    /// pods): `Deployment controller updated web's status: 2 of 3 up-to-date, 3 available`.
    pub status_change: Option<String>,
}

impl StepNote {
    /// The note of a step's result.
    pub fn of(r: &rollout_facade::session::StepResult) -> StepNote {
        let controller = matches!(
            r.record.kind,
            StepKind::SyncDeployment { .. } | StepKind::SyncReplicaSet { .. }
        );
        // The headline without its "30 s later: " (said on its own).
        let what = match r.headline.split_once(" later: ") {
            Some((_, rest)) if r.seconds_later > 0 => rest,
            _ => r.headline.as_str(),
        };
        StepNote {
            headline: r.headline.clone(),
            seconds_later: r.seconds_later,
            checked: r.checked.iter().map(|c| c.sentence.clone()).collect(),
            notes: r.notes.clone(),
            status_change: (controller && r.record.events.is_empty() && what.contains(" status: "))
                .then(|| what.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollout_facade::sim::Simulation;

    fn steps(preset: &str, n: usize) -> Vec<Explanation> {
        let mut sim = Simulation::new(rollout_facade::presets::preset(preset).unwrap().scenario);
        (0..n)
            .filter_map(|_| sim.step().map(|r| explain(r, "web")))
            .collect()
    }

    #[test]
    fn the_first_steps_of_a_rollout() {
        let e = steps("rolling-basic", 4);
        assert_eq!(e[0].actor, Actor::User);
        assert_eq!(
            e[0].headline,
            "Your command reaches the API server: kubectl create deployment web \
             --image=nginx:1.14.2 --replicas=3"
        );
        assert_eq!(e[1].actor, Actor::Deployment);
        assert_eq!(e[1].headline, "Scaled up replica set web-rev1 to 3");
        assert_eq!(e[1].path[0].name, "syncDeployment");
        assert_eq!(
            e[1].path[0].url.as_deref(),
            Some("https://github.com/kubernetes/kubernetes/blob/v1.28.4/pkg/controller/deployment/deployment_controller.go#L581")
        );
        assert!(e[1]
            .decisions
            .iter()
            .any(|d| d.function.name == "getNewReplicaSet"
                && d.text.contains("maxTotalPods = 3 + 1 = 4")));
        assert_eq!(e[2].actor, Actor::ReplicaSet);
        assert!(e[2].headline.contains("create 3"), "{}", e[2].headline);
        assert_eq!(
            e[2].details,
            vec!["slowStartBatch: batches of 1, 2 (3 created)"]
        );
        assert_eq!(e[2].events.len(), 3);
        assert_eq!(e[3].actor, Actor::Kubelet);
        assert_eq!(e[3].headline, "Scheduled 3 pods.");
        assert_eq!(e[3].number, 4);
    }

    #[test]
    fn a_waiting_rollout_says_why() {
        let e = steps("rolling-basic", 200);
        let wait = e
            .iter()
            .find(|w| w.headline.starts_with("No scaling: minAvailable"))
            .unwrap();
        assert_eq!(wait.actor, Actor::Deployment);
        assert!(
            wait.headline
                .starts_with("No scaling: minAvailable = 3 − 0 = 3"),
            "{}",
            wait.headline
        );
    }

    #[test]
    fn captions_give_the_decision_behind_a_scaling() {
        // Found by what they say, not by sync number (the preset's timing may change).
        let e = steps("rolling-basic", 300);
        let captions: Vec<String> = e.iter().map(caption).collect();
        let has = |want: &str| {
            assert!(
                captions.iter().any(|c| c == want),
                "no caption {want:?} in {captions:#?}"
            )
        };
        has(
            "Deployment controller: no ReplicaSet matches the template, so create web-rev2 \
             (revision 2) with NewRSNewReplicas: maxTotalPods = 3 + 1 = 4, current 3, so start \
             at 1 → Scaled up replica set web-rev2 to 1",
        );
        has(
            "Deployment controller: available 4 − minAvailable 3 = 1 old pod may go, oldest \
             replica set first → Scaled down replica set web-rev1 to 2 from 3",
        );
        has(
            "Deployment controller: maxTotalPods = 3 + 1 = 4, current 3, so scale new up by 1 \
             (min of 1 and 3 − 1): 1 → 2 → Scaled up replica set web-rev2 to 2 from 1",
        );
        assert!(captions.iter().any(|c| c.starts_with(
            "Deployment controller: No scaling: minAvailable = 3 − 0 = 3, new unavailable"
        )));
        assert_eq!(captions[3], "Kubelet and scheduler: Scheduled 3 pods.");
    }

    #[test]
    fn deletions_name_the_ranking_criterion() {
        let e = steps("rolling-basic", 200);
        let del = e
            .iter()
            .find(|d| {
                d.title == "syncReplicaSet web-rev1"
                    && d.details.iter().any(|t| t.starts_with("getPodsToDelete"))
            })
            .unwrap();
        assert_eq!(
            del.details,
            vec!["getPodsToDelete: web-rev1-00001 goes before web-rev1-00002 (more sibling pods on its node)"
                .to_string()]
        );
        assert!(e
            .iter()
            .any(|k| k.headline == "3 pods became Running and Ready."));
    }
}
