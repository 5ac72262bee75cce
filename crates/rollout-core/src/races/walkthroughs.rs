//! The three teaching schedules of `../shared/races/README.md` as guided walk-throughs: the
//! cluster, the schedule, and a note per step on what to watch. The notes state no number:
//! every count a learner reads comes from the explorer's frame of that step
//! ([`super::explorer::RaceFrame`]), so the prose cannot drift from the controllers.
//!
//! What is real and what is the model, said once for all three: `syncDeployment`,
//! `syncReplicaSet`, the pod handlers and the expectations are ports of the v1.28.4
//! controllers (and, for "the real controllers, 1.36+", the ReplicaSet controller's wait for
//! its own writes, KEP-5647); *when* a cache catches up is chosen by the schedule (a `deliver-*` step), not
//! by a network.

use super::explorer::Mode;
use super::schedule::{RaceScenario, Step};

/// One guided walk-through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walkthrough {
    /// Its id, as `race-teach-<id>` names the fixtures and a permalink names it.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// What it shows, in one sentence.
    pub summary: &'static str,
    /// The schedule, as a schedule writes it.
    pub schedule: &'static [&'static str],
    /// A note per step: what to watch, about the real controllers only.
    pub notes: &'static [&'static str],
    /// What a step's note adds about a counterfactual: (step index, the counterfactual, the
    /// sentence while it is shown beside the real controllers, the sentence while it is not).
    /// A note never tells the learner to watch a counterfactual that is not on the page.
    pub counterfactual_notes: &'static [(usize, Mode, &'static str, &'static str)],
}

/// The cluster of the three: 3 replicas of `web:1`, maxSurge 1, maxUnavailable 0, pods ready
/// two ticks after they start, two nodes.
const CLUSTER: &str = r#"{"name":"race-teach","rounds":0,"secondsPerRound":1,"readyAfterRounds":2,
  "terminationRounds":0,"nodes":2,"actions":[{"round":0,"type":"create","deployment":
  {"name":"web","replicas":3,"image":"web:1","strategy":{"type":"RollingUpdate","maxSurge":1,
  "maxUnavailable":0}}}],"schedule":[]}"#;

/// The three walk-throughs, in the order a learner meets them.
pub const WALKTHROUGHS: [Walkthrough; 3] = [
    Walkthrough {
        id: "expectations",
        title: "Why the ReplicaSet controller keeps expectations",
        summary: "The ReplicaSet controller syncs again before its cache shows the pod it created.",
        schedule: &[
            "setImage web:2",
            "deliver-dc",
            "sync-dc",
            "deliver-rs",
            "sync-rs",
            "sync-rs",
            "deliver-rs",
            "sync-rs",
            "deliver-rs",
            "sync-rs",
        ],
        notes: &[
            "A new image: the API server now holds a new pod template. Neither controller has seen it.",
            "The Deployment controller's cache catches up and shows the new template.",
            "syncDeployment creates the new ReplicaSet, sized so the pods stay within maxSurge (its status update is refused with 409 Conflict, as the conflict walk-through shows: harmless).",
            "The ReplicaSet controller's cache now shows the new ReplicaSet.",
            "syncReplicaSet creates the pods its ReplicaSet lacks, and writes down the creations it expects to see.",
            "Its cache does not show the new pod yet. The real controller waits for its expectations: it creates nothing.",
            "The cache catches up: addPod sees the new pod and lowers the expectation.",
            "Expectations satisfied, the sync counts pods from its cache again.",
            "The cache catches up once more.",
            "The controller and the API server agree.",
        ],
        counterfactual_notes: &[(
            5,
            Mode::WithoutExpectations,
            "Without expectations the controller counts the pod as missing and creates it again: watch that counterfactual break maxSurge.",
            "Turn on \"Without expectations\" to see a controller that keeps none create the pod again.",
        )],
    },
    Walkthrough {
        id: "conflict",
        title: "Optimistic concurrency: 409 Conflict is normal",
        summary: "The Deployment controller writes again on a cache that has not seen its first write.",
        schedule: &[
            "setImage web:2",
            "deliver-dc",
            "sync-dc",
            "sync-dc",
            "deliver-dc",
            "sync-dc",
        ],
        notes: &[
            "A new image: the API server stores the new template and raises the Deployment's resourceVersion.",
            "The Deployment controller's cache catches up.",
            "syncDeployment creates the new ReplicaSet and writes the revision; its status update is made from the copy it read before that write, so the API server refuses it: 409 Conflict.",
            "Its cache still lacks the new ReplicaSet: it tries to create it again, is told it already exists, and cannot find it in its cache.",
            "The cache catches up with both writes.",
            "Now the sync reads the latest copy and what it writes is accepted. Nothing was lost: a refused write is retried from fresher data.",
        ],
        counterfactual_notes: &[],
    },
    Walkthrough {
        id: "stale-status",
        title: "A stale cache holds the rollout back",
        summary: "A new pod is available, but the Deployment controller's cache does not show it yet.",
        schedule: &[
            "setImage web:2",
            "deliver-dc",
            "sync-dc",
            "deliver-rs",
            "sync-rs",
            "kubelet",
            "tick",
            "tick",
            "kubelet",
            "deliver-rs",
            "sync-rs",
            "sync-dc",
            "sync-dc",
            "deliver-dc",
            "sync-dc",
            "deliver-rs",
            "sync-rs",
        ],
        notes: &[
            "A new image on the API server.",
            "The Deployment controller's cache shows it.",
            "syncDeployment creates the new ReplicaSet, within maxSurge.",
            "The ReplicaSet controller's cache shows the new ReplicaSet.",
            "syncReplicaSet creates the new ReplicaSet's pods.",
            "The kubelet starts the new pods.",
            "Time passes.",
            "Time passes: the new pods are due to be ready.",
            "The kubelet marks the new pods ready: on the API server they are available.",
            "The ReplicaSet controller's cache shows the ready pods.",
            "syncReplicaSet writes the new ReplicaSet's status from its cache: its pods are available.",
            "syncDeployment reads its own cache, which has not even seen the new ReplicaSet: it tries to create it again, cannot find it, and scales nothing down, although the new pods are available on the API server.",
            "Once more: the truth has moved on, the cache has not, so the old ReplicaSet keeps all its pods (maxUnavailable lets none go before new ones are available).",
            "The Deployment controller's cache catches up.",
            "Now it sees the available pods and scales the old ReplicaSet down.",
            "The ReplicaSet controller's cache shows the lower spec.",
            "syncReplicaSet deletes old pods.",
        ],
        // What Kubernetes 1.36's guard (KEP-5647) changes here: nothing. It makes the
        // ReplicaSet controller wait until its cache holds its own writes, which it does at
        // every one of its syncs here; the cache that lags is the Deployment controller's,
        // and 1.37 does not guard that one.
        counterfactual_notes: &[(
            11,
            Mode::Guarded,
            "The 1.36+ controllers do the same: their guard makes the ReplicaSet controller wait until its cache holds its own writes, which it already does; the Deployment controller has no such guard, so it acts on its stale cache all the same.",
            "Kubernetes 1.36+ would do the same: its guard makes the ReplicaSet controller wait until its cache holds its own writes, and the Deployment controller has no such guard. Turn on \"The real controllers, 1.36+\" to see it.",
        )],
    },
];

impl Walkthrough {
    /// The walk-through with this id.
    pub fn find(id: &str) -> Option<&'static Walkthrough> {
        WALKTHROUGHS.iter().find(|w| w.id == id)
    }

    /// The note on step `index` (0-based) with the counterfactuals `shown` beside the real
    /// controllers: the step's note, then what it says about a counterfactual, worded for
    /// whether that counterfactual is on the page.
    ///
    /// Example, `expectations` step 6 (the second `sync-rs`): with "Without expectations"
    /// shown, "… it creates nothing. Without expectations the controller counts the pod as
    /// missing and creates it again: watch that counterfactual break maxSurge."; without it,
    /// "… it creates nothing. Turn on \"Without expectations\" to see …".
    pub fn note(&self, index: usize, shown: &[Mode]) -> Option<String> {
        let mut note = self.notes.get(index)?.to_string();
        for (_, mode, on, off) in self.counterfactual_notes.iter().filter(|c| c.0 == index) {
            note.push(' ');
            note.push_str(if shown.contains(mode) { on } else { off });
        }
        Some(note)
    }

    /// Its scenario: the cluster and its schedule, in the real mode.
    pub fn scenario(&self) -> RaceScenario {
        let mut s = RaceScenario::from_json(CLUSTER).expect("the walk-throughs' cluster reads");
        s.scenario.name = format!("race-teach-{}", self.id);
        s.scenario.description = self.summary.to_string();
        s.schedule = self
            .schedule
            .iter()
            .map(|t| Step::parse(t).expect("a walk-through's step reads"))
            .collect();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::races::explorer::{RaceExplorer, RaceFrame};

    /// Every frame of a walk-through in one mode, stepped as a learner steps it.
    fn frames(w: &Walkthrough, mode: Mode) -> Vec<RaceFrame> {
        let scenario = w.scenario();
        let mut explorer = RaceExplorer::new(scenario.clone());
        let mut out = Vec::new();
        for step in scenario.schedule {
            explorer.step(step).expect("a walk-through's step runs");
            out.push(explorer.frame(mode));
        }
        out
    }

    fn any(frames: &[RaceFrame], pick: impl Fn(&RaceFrame) -> &Vec<String>, word: &str) -> bool {
        frames
            .iter()
            .any(|f| pick(f).iter().any(|e| e.contains(word)))
    }

    /// The lessons' claims, checked on the controllers rather than trusted from the notes: the
    /// real controllers keep every promise; without expectations the first walk-through breaks
    /// maxSurge; the second meets a 409 Conflict and still keeps its promises; the third's
    /// Deployment controller finds its cache behind ("not found").
    #[test]
    fn each_walkthrough_shows_what_its_notes_say() {
        for w in &WALKTHROUGHS {
            assert_eq!(w.notes.len(), w.schedule.len(), "{}: a note per step", w.id);
            // "409" is the status's name, not a count.
            let numbered = w
                .notes
                .iter()
                .find(|n| n.replace("409", "").chars().any(|c| c.is_ascii_digit()));
            assert_eq!(
                numbered, None,
                "{}: the notes state no number; the frames do",
                w.id
            );
            let real = frames(w, Mode::Real);
            assert!(
                real.iter().all(|f| f.violations.is_empty()),
                "{}: the real controllers keep their promises",
                w.id
            );
        }
        let expectations = Walkthrough::find("expectations").unwrap();
        let noexp = frames(expectations, Mode::WithoutExpectations);
        assert!(any(&noexp, |f| &f.violations, "maxSurge"), "{noexp:?}");
        let conflict = Walkthrough::find("conflict").unwrap();
        let modified = "the object has been modified";
        assert!(any(&frames(conflict, Mode::Real), |f| &f.errors, modified));
        let stale = Walkthrough::find("stale-status").unwrap();
        assert!(any(&frames(stale, Mode::Real), |f| &f.errors, "not found"));
    }

    /// Each note against what the page shows: a note that speaks of a counterfactual does so
    /// only while it is shown, and then that counterfactual's frame at that step does what the
    /// note says (the `expectations` walk-through's second sync-rs breaks maxSurge only
    /// without expectations).
    #[test]
    fn a_note_speaks_of_a_counterfactual_only_while_it_is_shown() {
        for w in &WALKTHROUGHS {
            for i in 0..w.notes.len() {
                let alone = w.note(i, &[]).unwrap();
                assert!(
                    !alone.contains("watch that counterfactual"),
                    "{} step {}: {alone}",
                    w.id,
                    i + 1
                );
                assert!(
                    !alone.contains("counterfactual break"),
                    "{} step {}: {alone}",
                    w.id,
                    i + 1
                );
                for &(_, mode, on, off) in w.counterfactual_notes.iter().filter(|c| c.0 == i) {
                    let with = w.note(i, &[mode]).unwrap();
                    assert!(
                        with.ends_with(on) && alone.ends_with(off),
                        "{}: {with} / {alone}",
                        w.id
                    );
                    if on.contains("break maxSurge") {
                        let frame = &frames(w, mode)[i];
                        assert!(
                            frame.violations.iter().any(|v| v.contains("maxSurge")),
                            "{} step {}: the note says maxSurge breaks: {:?}",
                            w.id,
                            i + 1,
                            frame.violations
                        );
                        assert!(frames(w, Mode::Real)[i].violations.is_empty());
                    }
                }
            }
        }
        let w = Walkthrough::find("expectations").unwrap();
        assert!(w.note(5, &[]).unwrap().contains("Turn on"));
        assert!(w
            .note(5, &[Mode::WithoutExpectations])
            .unwrap()
            .contains("watch that counterfactual"));
    }
}
