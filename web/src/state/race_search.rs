//! "Find a race" (`crate::components::race_search`): a search running in the worker, what it
//! has reported so far and how it ended. The worker's messages come in as [`RaceMsg`]s
//! (`crate::plan_worker::start_race`); Cancel terminates the worker and returns here to idle.

pub use crate::race_search::RaceMsg;
use rollout_facade::limits;
use rollout_facade::races::SearchReport;
use std::rc::Rc;
use yew::Reducible;

/// A search's state, from the worker's messages.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RaceSearch {
    /// A search is running.
    pub running: bool,
    /// The depth asked.
    pub depth: usize,
    /// The level being explored (or last finished), from the latest progress message.
    pub level: usize,
    /// States visited so far.
    pub states: usize,
    /// How the last search ended: its report, or why there is none (cancelled, refused).
    pub outcome: Option<Result<Rc<SearchReport>, String>>,
}

impl RaceSearch {
    /// What the live region says: the outcome, or that a search runs.
    pub fn status_text(&self) -> String {
        if self.running {
            return format!("Searching every schedule up to depth {}…", self.depth);
        }
        match &self.outcome {
            None => String::new(),
            Some(Ok(report)) => crate::race_search::outcome_text(report),
            Some(Err(message)) => message.clone(),
        }
    }

    /// The progress in words: `depth 9 of 12, 8,192 states`.
    pub fn progress_text(&self) -> String {
        format!(
            "depth {} of {}, {} states",
            self.level,
            self.depth,
            limits::group(self.states as i64)
        )
    }
}

impl Reducible for RaceSearch {
    type Action = RaceMsg;
    fn reduce(self: Rc<Self>, action: RaceMsg) -> Rc<Self> {
        if !self.running && !matches!(action, RaceMsg::Start(_)) {
            // A message of a search already ended (or cancelled) changes nothing.
            return self;
        }
        let mut s = (*self).clone();
        match action {
            RaceMsg::Start(depth) => {
                s = RaceSearch {
                    running: true,
                    depth,
                    ..RaceSearch::default()
                }
            }
            RaceMsg::Progress(level, states) => {
                s.level = level;
                s.states = states;
            }
            RaceMsg::Done(report) => {
                s.running = false;
                s.states = report.states;
                s.level = if report.violation.is_some() {
                    report.depth
                } else {
                    s.depth
                };
                s.outcome = Some(Ok(Rc::new(report)));
            }
            RaceMsg::Failed(message) => {
                s.running = false;
                s.outcome = Some(Err(message));
            }
            RaceMsg::Cancel => {
                s.running = false;
                s.outcome = Some(Err(format!(
                    "Search cancelled at depth {} of {} ({} states visited).",
                    s.level,
                    s.depth,
                    limits::group(s.states as i64)
                )));
            }
        }
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollout_facade::races::Counterexample;

    fn step(s: Rc<RaceSearch>, m: RaceMsg) -> Rc<RaceSearch> {
        s.reduce(m)
    }

    #[test]
    fn a_search_runs_reports_and_ends() {
        let s = step(Rc::default(), RaceMsg::Start(12));
        assert!(s.running);
        assert_eq!(s.status_text(), "Searching every schedule up to depth 12…");
        let s = step(s, RaceMsg::Progress(9, 16_384));
        assert_eq!(s.progress_text(), "depth 9 of 12, 16,384 states");
        let report = SearchReport {
            depth: 12,
            states: 12_700,
            violation: None,
        };
        let s = step(s, RaceMsg::Done(report));
        assert!(!s.running);
        assert_eq!(s.level, 12);
        assert_eq!(s.status_text(), "No race to depth 12: 12,700 states.");
        // A late progress message changes nothing.
        let late = step(s.clone(), RaceMsg::Progress(3, 5));
        assert!(Rc::ptr_eq(&late, &s));
    }

    #[test]
    fn found_cancelled_and_failed() {
        let s = step(Rc::default(), RaceMsg::Start(12));
        let found = SearchReport {
            depth: 2,
            states: 9,
            violation: Some(Counterexample {
                schedule: vec!["setImage web:2".into(), "sync-rs".into(), "sync-rs".into()],
                violations: vec!["maxSurge: 5 pods > 3 + 1".into()],
            }),
        };
        let done = step(s.clone(), RaceMsg::Done(found));
        assert_eq!(
            done.status_text(),
            "Found a race in 2 steps: sync-rs, sync-rs. Broken: maxSurge: 5 pods > 3 + 1. (9 states)"
        );
        let s = step(s, RaceMsg::Progress(7, 40_000));
        let cancelled = step(s.clone(), RaceMsg::Cancel);
        assert!(!cancelled.running);
        assert_eq!(
            cancelled.status_text(),
            "Search cancelled at depth 7 of 12 (40,000 states visited)."
        );
        let failed = step(
            s,
            RaceMsg::Failed("a state cap of 30000000 is above the limit".into()),
        );
        assert_eq!(
            failed.status_text(),
            "a state cap of 30000000 is above the limit"
        );
        // A new search forgets the last outcome.
        let again = step(failed, RaceMsg::Start(4));
        assert_eq!(again.outcome, None);
        assert_eq!(again.depth, 4);
    }
}
