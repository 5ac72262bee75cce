use super::*;
use crate::races::walkthroughs::{Walkthrough, WALKTHROUGHS};

fn walk(id: &str) -> RaceExplorer {
    let w = Walkthrough::find(id).unwrap();
    let mut x = RaceExplorer::new(w.scenario());
    let script = x.script().to_vec();
    x.load(&script).unwrap();
    x
}

#[test]
fn every_walkthrough_has_a_note_per_step_and_runs() {
    for w in &WALKTHROUGHS {
        assert_eq!(w.notes.len(), w.schedule.len(), "{}", w.id);
        let x = walk(w.id);
        assert_eq!(x.steps().len(), w.schedule.len());
        assert!(
            x.frame(Mode::Real).violations.is_empty(),
            "{}: the real controllers keep their promises",
            w.id
        );
    }
}

/// The README's teach-expectations: the second sync-rs waits in the real mode, and without
/// expectations creates a fifth pod; the frames say so in numbers taken from the state.
#[test]
fn the_second_sync_waits_and_the_counterfactual_breaks_max_surge() {
    let mut x = walk("expectations");
    while x.steps().len() > 6 {
        x.back();
    }
    let real = x.frame(Mode::Real);
    assert_eq!(real.step.as_deref(), Some("sync-rs"));
    assert_eq!(real.expectations.len(), 1);
    assert_eq!(real.expectations[0].text, "waiting for 1 creation to show");
    assert!(
        real.caption.iter().any(|l| l.contains("web-rev2 waits")),
        "{:?}",
        real.caption
    );
    assert!(real.violations.is_empty());
    let noexp = x.frame(Mode::WithoutExpectations);
    assert_eq!(noexp.violations, ["maxSurge: 5 pods > 3 + 1"]);
    assert!(noexp
        .caption
        .iter()
        .any(|l| l == "Promise broken: maxSurge: 5 pods > 3 + 1."));
    // The ReplicaSet controller's cache is behind the truth on web-rev2's pods.
    let line = noexp
        .replica_set_cache
        .replica_sets
        .iter()
        .find(|l| l.name == "web-rev2")
        .unwrap();
    assert_eq!(line.pods.cached.active, 0);
    assert_eq!(line.pods.truth.map(|p| p.active), Some(2));
    assert!(noexp.replica_set_cache.stale());
    // Back to the setup and forward again by the script.
    while x.back() {}
    assert_eq!(x.frame(Mode::Real).steps_taken, 0);
    let setup = x.frame(Mode::Real);
    assert!(!setup.replica_set_cache.stale());
    // The setup's last sync-dc wrote the Deployment's status after its cache's last delivery.
    let d = &setup.deployment_cache.deployments[0];
    assert_eq!(
        (d.available_replicas.cached, d.available_replicas.truth),
        (0, Some(3))
    );
    assert!(setup.deployment_cache.stale());
    assert!(setup.deployment_cache.unseen.is_empty());
    assert_eq!(
        x.next_scripted().map(Step::to_string).as_deref(),
        Some("setImage web:2")
    );
    x.step(Step::Tick).unwrap();
    assert_eq!(x.next_scripted(), None, "off the script");
}

/// The README's teach-conflict: the 409 and the "not found" are captioned as such.
#[test]
fn a_conflict_is_captioned_as_a_refused_stale_write() {
    let mut x = walk("conflict");
    while x.steps().len() > 3 {
        x.back();
    }
    let f = x.frame(Mode::Real);
    assert!(
        f.caption.iter().any(|l| l.contains("409 Conflict")),
        "{:?}",
        f.caption
    );
    assert!(
        x.frame(Mode::LastWriteWins).errors.is_empty(),
        "last write wins refuses nothing"
    );
    assert_eq!(
        f.deployment_cache.unseen,
        ["web-rev2"],
        "its cache has not seen what it created"
    );
    x.step(Step::SyncDc).unwrap();
    let f = x.frame(Mode::Real);
    assert!(
        f.caption
            .iter()
            .any(|l| l.contains("not found") && l.contains("cache does not show")),
        "{:?}",
        f.caption
    );
}

#[test]
fn expectation_texts_name_what_they_wait_for() {
    let t = |add, del| expectation_text(&Pending { add, del });
    assert_eq!(t(2, 0), "waiting for 2 creations to show");
    assert_eq!(t(0, 1), "waiting for 1 deletion to show");
    assert_eq!(t(1, 3), "waiting for 1 creation and 3 deletions to show");
    assert_eq!(t(-1, 0), "1 creation more observed than expected");
}

#[test]
fn modes_read_back_by_their_short_names() {
    let ids: Vec<&str> = Mode::ALL.iter().map(|m| m.id()).collect();
    assert_eq!(ids, ["real", "noexp", "norv"]);
    for m in Mode::ALL {
        assert_eq!(Mode::from_id(m.id()), Some(m));
    }
    assert_eq!(Mode::from_id("Real"), None);
    assert_eq!(Mode::from_id("lww"), None);
}
