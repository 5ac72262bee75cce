//! The Service's requests as the page shows them: the core's traffic run of the session's
//! scenario (`rollout_facade::traffic::run_scenario`, its `model.traffic`), the second on the
//! clock in full and the totals, for the stage's Service, its marks on the pods and the strip
//! under the stage. The web computes none of it: it picks the second the clock shows.
//!
//! The run covers the scenario from its start to its end, so the strip shows the whole
//! rollout with the clock's place on it. A scenario's run is kept (a few of them, for Compare's
//! two stages and several labs on a page) until its scenario changes: a command queued, the
//! traffic settings edited.

use rollout_facade::api::Time;
use rollout_facade::scenario::Scenario;
use rollout_facade::traffic::{
    run_scenario, TrafficModel, TrafficRun, TrafficSecond, TrafficSpan, TrafficTotals,
};
use std::cell::RefCell;
use std::rc::Rc;

/// What the stage draws of the Service at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficFrame {
    /// The assumptions (load, capacity, delay, exit, preStop).
    pub model: TrafficModel,
    /// Every second of the run, as spans of equal seconds.
    pub spans: Rc<Vec<TrafficSpan>>,
    /// The second after the run's last.
    pub end: Time,
    /// The second shown: the clock's, as the state drawn stands
    /// (`lessons::moment::clock_second`; -1 before anything has run).
    pub now: Time,
    /// The second on the clock in full: the endpoints, each pod's requests, why some failed.
    pub second: TrafficSecond,
    /// The whole run's totals.
    pub totals: TrafficTotals,
    /// The totals up to the second shown (`now` included).
    pub so_far: TrafficTotals,
}

/// The scenario's runs kept (Compare's two stages, a few labs on one page).
const KEPT: usize = 4;

thread_local! {
    static RUNS: RefCell<Vec<(Scenario, Rc<TrafficRun>)>> = const { RefCell::new(Vec::new()) };
}

/// The traffic run of `scenario` following `deployment`'s Service, from the kept ones or made
/// now (`Err`: the core's refusal, e.g. a run beyond the page's limits).
fn run_of(scenario: &Scenario, deployment: &str) -> Result<Rc<TrafficRun>, String> {
    if let Some(run) = RUNS.with(|r| {
        r.borrow()
            .iter()
            .find(|(s, _)| s == scenario)
            .map(|(_, run)| run.clone())
    }) {
        return Ok(run);
    }
    let run = Rc::new(run_scenario(scenario, Some(deployment), None)?);
    RUNS.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() >= KEPT {
            r.remove(0);
        }
        r.push((scenario.clone(), run.clone()));
    });
    Ok(run)
}

/// The Service's frame at `now` when `scenario` models its requests (`model.traffic`), else
/// `None`. `Err`: the core refused to run it.
pub fn traffic_frame(
    scenario: &Scenario,
    deployment: &str,
    now: Time,
) -> Option<Result<Rc<TrafficFrame>, String>> {
    // `now`: the clock's second as the core chooses it for the state drawn
    // (`lessons::moment::clock_second`; -1 before anything has run).
    let model = scenario.model.as_ref()?.traffic.clone()?;
    Some(run_of(scenario, deployment).map(|run| {
        let end = run.end();
        Rc::new(TrafficFrame {
            model,
            spans: Rc::new(run.spans().to_vec()),
            end,
            now,
            second: run.second(now),
            totals: run.totals(0, end),
            so_far: run.totals(0, now + 1),
        })
    }))
}

/// How a pod shows as an endpoint: its EndpointSlice conditions now, and what the proxies send
/// it this second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointMark {
    /// `ready`, `serving` (serving while terminating), `terminating` (not serving),
    /// `not-ready` (in the slice, not ready) or `gone` (out of the slice, the proxies still
    /// send to it).
    pub key: &'static str,
    /// The proxies send it new connections.
    pub sent_to: bool,
    /// Requests a second it got.
    pub sent: u32,
    /// Of them, failed (its app did not answer, or over its capacity).
    pub failed: u32,
}

impl EndpointMark {
    /// The words a screen reader hears after the pod's own (`, endpoint ready, gets 10 req/s`).
    pub fn words(&self) -> String {
        let what = match self.key {
            "ready" => "endpoint ready",
            "serving" => "endpoint serving while terminating",
            "terminating" => "endpoint terminating, not serving",
            "not-ready" => "endpoint not ready",
            _ => "no longer an endpoint, the proxies not told yet",
        };
        let mut out = format!(", {what}");
        if self.sent > 0 {
            out.push_str(&format!(", gets {} req/s", self.sent));
        }
        if self.failed > 0 {
            out.push_str(&format!(", {} of them fail", self.failed));
        }
        out
    }
}

/// The mark of each pod that is an endpoint (or still one to the proxies) at this second.
pub fn marks(second: &TrafficSecond) -> Vec<(String, EndpointMark)> {
    second
        .endpoints
        .iter()
        .map(|e| {
            let key = match e.now {
                None => "gone",
                Some(c) if c.ready => "ready",
                Some(c) if c.terminating && c.serving => "serving",
                Some(c) if c.terminating => "terminating",
                Some(_) => "not-ready",
            };
            let pod = second.pods.iter().find(|p| p.pod == e.pod);
            let mark = EndpointMark {
                key,
                sent_to: e.sent_to,
                sent: pod.map_or(0, |p| p.sent),
                failed: pod.map_or(0, |p| p.not_answering + p.over_capacity),
            };
            (e.pod.clone(), mark)
        })
        .collect()
}
