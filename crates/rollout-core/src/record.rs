//! What a controller sync leaves behind besides its writes: the events it recorded
//! (`record.EventRecorder`) and the decisions it took, with the numbers behind them, so that
//! the UI can explain every step.

use crate::api::{Event, Time};
use serde::{Deserialize, Serialize};

/// One decision a controller took: the Kubernetes function that took it, a sentence with the
/// live numbers, and the numbers themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The Go function, e.g. `reconcileNewReplicaSet`.
    pub function: String,
    /// e.g. `maxTotalPods = 4 + 1 = 5, current 4, so scale new up by 1`.
    pub text: String,
    /// Named values, e.g. `("maxTotalPods", 5)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<(String, i64)>,
}

/// The outcome of one branch of a controller's decision flow: which way it went and why,
/// with the live values (`isScalingEvent: desired-replicas annotation 3 ≠ spec.replicas 5`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    /// A stable id of the question, e.g. `paused` (see `flow`).
    pub id: String,
    /// Whether the answer was yes.
    pub taken: bool,
    /// The condition with its values.
    pub detail: String,
}

/// Collects events and decisions during one sync.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// Events, in the order they were recorded.
    pub events: Vec<std::sync::Arc<Event>>,
    /// Decisions, in the order they were taken.
    pub decisions: Vec<Decision>,
    /// The Kubernetes functions the sync went through, in order (for the decision flow).
    pub path: Vec<&'static str>,
    /// The branches of the decision flow, in the order they were decided.
    pub branches: Vec<Branch>,
    /// Keep no decisions or branches (their sentences are not even written): for a run
    /// whose steps nobody reads, such as the planner's forecast. Events and the path are
    /// kept as always.
    pub quiet: bool,
}

impl Recorder {
    /// `eventRecorder.Eventf`.
    pub fn event(
        &mut self,
        kind: &'static str,
        name: &str,
        type_: &'static str,
        reason: &'static str,
        message: String,
        now: Time,
    ) {
        self.events.push(std::sync::Arc::new(Event {
            type_: type_.into(),
            reason: reason.into(),
            message,
            kind: kind.into(),
            name: name.to_string(),
            pod: None,
            time: now,
        }));
    }

    /// An event about a pod of a ReplicaSet (`Created pod: …`).
    pub fn pod_event(
        &mut self,
        rs: &str,
        type_: &'static str,
        reason: &'static str,
        message: String,
        pod: String,
        now: Time,
    ) {
        self.events.push(std::sync::Arc::new(Event {
            type_: type_.into(),
            reason: reason.into(),
            message,
            kind: "ReplicaSet".into(),
            name: rs.to_string(),
            pod: Some(pod),
            time: now,
        }));
    }

    /// A recorder that keeps events and the path but no decisions or branches.
    pub fn quiet() -> Recorder {
        Recorder {
            quiet: true,
            ..Recorder::default()
        }
    }

    /// Records a decision; `text` writes its sentence, only when it is kept.
    pub fn decide(
        &mut self,
        function: &str,
        text: impl FnOnce() -> String,
        values: &[(&str, i64)],
    ) {
        if self.quiet {
            return;
        }
        self.decisions.push(Decision {
            function: function.to_string(),
            text: text(),
            values: values.iter().map(|(k, v)| ((*k).to_string(), *v)).collect(),
        });
    }

    /// Records which way a branch of the decision flow went; `detail` writes the condition,
    /// only when it is kept.
    pub fn branch(&mut self, id: &str, taken: bool, detail: impl FnOnce() -> String) {
        if self.quiet {
            return;
        }
        self.branches.push(Branch {
            id: id.to_string(),
            taken,
            detail: detail(),
        });
    }

    /// Marks that the sync entered a Kubernetes function.
    pub fn enter(&mut self, function: &'static str) {
        self.path.push(function);
    }
}
