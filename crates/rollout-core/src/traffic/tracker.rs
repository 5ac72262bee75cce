//! Folds the simulation's snapshots, as it makes them, into the traffic model's seconds.
//!
//! A snapshot is the API server at the end of a round (or later in it: a snapshot at the same
//! time replaces the one before). Between two snapshots the pods do not change, but their apps
//! do (they finish booting, exit after SIGTERM) and the proxies' view, `endpointDelaySeconds`
//! behind, does: the figures of second `t` change only at a snapshot's time, a snapshot's time
//! plus the delay, an app's moment or that moment plus the delay. The tracker works out the
//! figures at those moments only and keeps spans of equal seconds, so an hour of a steady
//! rollout costs a few spans, not 3,600 seconds.
//!
//! A planner's tracker keeps only the snapshots the proxies may still look back to; a
//! [`TrafficRun`] keeps them all, to show any second in full.

use super::app::{AppContext, AppLife, Silence};
use super::report::{
    self, EndpointView, Figures, PodTraffic, TrafficSecond, TrafficSpan, TrafficTotals,
};
use super::TrafficModel;
use crate::api::{Pod, Time};
use crate::endpoints::{self, Endpoint};
use crate::kubelet::KubeletModel;
use crate::scenario::Scenario;
use crate::store::ApiServer;
use std::sync::Arc;

/// A pod of the Service at a snapshot, with its app's life as that state tells.
#[derive(Clone, Debug)]
struct PodAt {
    pod: Arc<Pod>,
    life: AppLife,
}

/// The Service's pods at a moment, by name.
#[derive(Clone, Debug)]
struct Snapshot {
    at: Time,
    pods: Vec<PodAt>,
}

impl Snapshot {
    fn pod(&self, name: &str) -> Option<&PodAt> {
        self.pods
            .binary_search_by(|p| p.pod.metadata.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.pods[i])
    }

    /// The EndpointSlice as the controller writes it from these pods, at `t`.
    fn slice(&self, t: Time) -> Vec<Endpoint> {
        self.pods
            .iter()
            .filter(|p| endpoints::should_pod_be_in_endpoints(&p.pod))
            .map(|p| endpoints::pod_to_endpoint(&p.pod, p.life.exited_by(t)))
            .collect()
    }
}

/// Folds snapshots into spans of seconds (see the module).
#[derive(Clone, Debug)]
pub struct TrafficTracker {
    ctx: AppContext,
    deployment: String,
    snapshots: Vec<Snapshot>,
    keep_all: bool,
    spans: Vec<TrafficSpan>,
    /// The spans cover the seconds before this one.
    folded_to: Option<Time>,
}

impl TrafficTracker {
    /// A tracker of the Service selecting `deployment`'s pods (its selector), with the
    /// kubelet model of the simulation and the traffic model.
    pub fn new(kubelet: KubeletModel, traffic: TrafficModel, deployment: &str) -> TrafficTracker {
        TrafficTracker {
            ctx: AppContext {
                kubelet,
                traffic,
                warm_from: None,
            },
            deployment: deployment.to_string(),
            snapshots: Vec::new(),
            keep_all: false,
            spans: Vec::new(),
            folded_to: None,
        }
    }

    /// Apps whose containers started before `t` answer from `t` at the latest (a planned
    /// rollout's old version has been up for long).
    pub fn warm_from(mut self, t: Time) -> TrafficTracker {
        self.ctx.warm_from = Some(t);
        self
    }

    /// Keeps every snapshot, so that any second can be shown in full ([`TrafficRun`]).
    pub fn keeping_all(mut self) -> TrafficTracker {
        self.keep_all = true;
        self
    }

    /// The traffic model.
    pub fn model(&self) -> &TrafficModel {
        &self.ctx.traffic
    }

    /// Takes the API server's state at its clock into account (a snapshot at an earlier time
    /// than the last is ignored).
    pub fn observe(&mut self, api: &ApiServer) {
        self.observe_at(api, api.now());
    }

    /// Takes the API server's state as the state at `at` into account: after
    /// `Simulation::run_round` the clock already reads the next round's time, so a round's
    /// snapshot is given its round's time.
    pub fn observe_at(&mut self, api: &ApiServer, at: Time) {
        if self.snapshots.last().is_some_and(|s| at < s.at) {
            return;
        }
        let pods = match api.deployment(&self.deployment) {
            Some(d) => api
                .pods()
                .filter(|p| endpoints::selects(&d.spec.selector, p))
                .map(|p| PodAt {
                    life: self.ctx.life(p),
                    pod: p.clone(),
                })
                .collect(),
            None => Vec::new(),
        };
        let snapshot = Snapshot { at, pods };
        match self.snapshots.last() {
            Some(last) if last.at == at => {
                *self.snapshots.last_mut().expect("a last snapshot") = snapshot;
                return;
            }
            Some(last) => {
                let from = last.at.max(self.folded_to.unwrap_or(last.at));
                if at > from {
                    self.fold(from, at);
                }
            }
            None => {}
        }
        self.snapshots.push(snapshot);
        self.prune();
    }

    /// The seconds up to `end` (excluded) folded with the last snapshot holding; the spans.
    pub fn finish(&mut self, end: Time) -> &[TrafficSpan] {
        if let Some(last) = self.snapshots.last().map(|s| s.at) {
            let from = last.max(self.folded_to.unwrap_or(last));
            if end > from {
                self.fold(from, end);
            }
        }
        &self.spans
    }

    /// The spans folded so far.
    pub fn spans(&self) -> &[TrafficSpan] {
        &self.spans
    }

    /// The totals over `from .. to` of the spans folded so far.
    pub fn totals(&self, from: Time, to: Time) -> TrafficTotals {
        TrafficTotals::of(&self.spans, from, to)
    }

    /// The last moment after which nothing the snapshots know changes any more (every app
    /// moment and snapshot seen by the proxies): where a run may end.
    pub fn settles_at(&self) -> Option<Time> {
        let delay = self.ctx.traffic.endpoint_delay_seconds;
        let last = self.snapshots.last()?;
        let moments = last.pods.iter().flat_map(|p| p.life.moments()).max();
        Some(
            last.at
                .max(moments.unwrap_or(last.at))
                .saturating_add(delay),
        )
    }

    /// Drops the snapshots no second from the last on looks back to (the proxies look
    /// `delay` back: the latest snapshot at or before `last − delay` is the oldest needed).
    fn prune(&mut self) {
        if self.keep_all {
            return;
        }
        let Some(last) = self.snapshots.last().map(|s| s.at) else {
            return;
        };
        let horizon = last.saturating_sub(self.ctx.traffic.endpoint_delay_seconds);
        let keep_from = self
            .snapshots
            .iter()
            .rposition(|s| s.at <= horizon)
            .unwrap_or(0);
        self.snapshots.drain(..keep_from);
    }

    /// Folds seconds `from .. to`, in which the last snapshot holds, into spans.
    fn fold(&mut self, from: Time, to: Time) {
        self.folded_to = Some(to);
        let delay = self.ctx.traffic.endpoint_delay_seconds;
        let mut moments = vec![from];
        let inside = |t: Time| t > from && t < to;
        for s in &self.snapshots {
            let seen = s.at.saturating_add(delay);
            if inside(seen) {
                moments.push(seen);
            }
            for p in &s.pods {
                for m in p.life.moments() {
                    for t in [m, m.saturating_add(delay)] {
                        if inside(t) {
                            moments.push(t);
                        }
                    }
                }
            }
        }
        crate::order::sort_by_key(&mut moments, |t| *t);
        moments.dedup();
        for (i, &t) in moments.iter().enumerate() {
            let end = moments.get(i + 1).copied().unwrap_or(to);
            let figures = self.second_at(t, false).figures;
            match self.spans.last_mut() {
                Some(s) if s.to == t && s.figures == figures => s.to = end,
                _ => self.spans.push(TrafficSpan {
                    from: t,
                    to: end,
                    figures,
                }),
            }
        }
    }

    /// The latest snapshot at or before `t`.
    fn snapshot_at(&self, t: Time) -> Option<&Snapshot> {
        let i = self.snapshots.partition_point(|s| s.at <= t);
        i.checked_sub(1).map(|i| &self.snapshots[i])
    }

    /// Second `t` worked out (with the endpoints and pods when `detail`).
    fn second_at(&self, t: Time, detail: bool) -> TrafficSecond {
        let model = &self.ctx.traffic;
        let delay = model.endpoint_delay_seconds;
        let seen_at = t.saturating_sub(delay);
        let proxied: Vec<Endpoint> = self
            .snapshot_at(seen_at)
            .map(|s| s.slice(seen_at))
            .unwrap_or_default();
        let chosen = endpoints::categorize_endpoints(&proxied);
        let now = self.snapshot_at(t);
        let mut figures = Figures {
            load: model.load,
            ..Figures::default()
        };
        let mut pods = Vec::new();
        if chosen.is_empty() {
            figures.no_endpoint = model.load;
        } else {
            let n = chosen.len() as u32;
            let (base, extra) = (model.load / n, model.load % n);
            for (i, e) in chosen.iter().enumerate() {
                let sent = base + u32::from((i as u32) < extra);
                if sent == 0 {
                    continue;
                }
                let answer = match now.and_then(|s| s.pod(&e.pod)) {
                    Some(p) => p.life.answers(t),
                    None => Err(Silence::Gone),
                };
                let (served, not_answering, over, silence) = match answer {
                    Ok(()) => {
                        let served = model.pod_capacity.map_or(sent, |c| sent.min(c));
                        (served, 0, sent - served, None)
                    }
                    Err(s) => (0, sent, 0, Some(s)),
                };
                figures.served += served;
                figures.not_answering += not_answering;
                figures.over_capacity += over;
                if detail {
                    pods.push(PodTraffic {
                        pod: e.pod.clone(),
                        sent,
                        served,
                        not_answering,
                        over_capacity: over,
                        silence,
                    });
                }
            }
        }
        let endpoints = if detail {
            endpoint_views(
                now.map(|s| s.slice(t)).unwrap_or_default(),
                &proxied,
                &chosen,
            )
        } else {
            Vec::new()
        };
        let why = if detail {
            report::why(&figures, &pods, delay, model.pod_capacity)
        } else {
            None
        };
        TrafficSecond {
            at: t,
            figures,
            endpoints,
            pods,
            why,
        }
    }
}

/// The slice now and the proxies' view side by side, by pod name.
fn endpoint_views(
    now: Vec<Endpoint>,
    proxied: &[Endpoint],
    chosen: &[&Endpoint],
) -> Vec<EndpointView> {
    let mut views: Vec<EndpointView> = now
        .into_iter()
        .map(|e| EndpointView {
            proxied: proxied
                .iter()
                .find(|p| p.pod == e.pod)
                .map(|p| p.conditions),
            sent_to: chosen.iter().any(|c| c.pod == e.pod),
            now: Some(e.conditions),
            pod: e.pod,
        })
        .collect();
    for p in proxied {
        if !views.iter().any(|v| v.pod == p.pod) {
            views.push(EndpointView {
                pod: p.pod.clone(),
                now: None,
                proxied: Some(p.conditions),
                sent_to: chosen.iter().any(|c| c.pod == p.pod),
            });
        }
    }
    crate::order::sort_by(&mut views, |a, b| a.pod.cmp(&b.pod));
    views
}

/// A whole run's traffic: every second's figures, and any second in full.
#[derive(Clone, Debug)]
pub struct TrafficRun {
    tracker: TrafficTracker,
    end: Time,
}

impl TrafficRun {
    /// The spans of seconds from the first snapshot to [`TrafficRun::end`].
    pub fn spans(&self) -> &[TrafficSpan] {
        self.tracker.spans()
    }

    /// The second after the last one folded.
    pub fn end(&self) -> Time {
        self.end
    }

    /// The traffic model it ran with.
    pub fn model(&self) -> &TrafficModel {
        self.tracker.model()
    }

    /// The totals over `from .. to`.
    pub fn totals(&self, from: Time, to: Time) -> TrafficTotals {
        self.tracker.totals(from, to)
    }

    /// The figures of second `t` (zeros outside the run).
    pub fn figures_at(&self, t: Time) -> Figures {
        self.spans()
            .iter()
            .find(|s| s.from <= t && t < s.to)
            .map(|s| s.figures)
            .unwrap_or_default()
    }

    /// Second `t` in full: the Service's endpoints, what each pod got and why requests failed.
    pub fn second(&self, t: Time) -> TrafficSecond {
        self.tracker.second_at(t, true)
    }
}

/// Runs `scenario` to its end (idle rounds skipped) with its `model.traffic` (absent: the
/// defaults) or `traffic`, following the Service of `deployment` (absent: the first the
/// scenario creates). Refused as the planner refuses a scenario beyond the page's limits.
pub fn run_scenario(
    scenario: &Scenario,
    deployment: Option<&str>,
    traffic: Option<&TrafficModel>,
) -> Result<TrafficRun, String> {
    let limits = crate::limits::Limits::PAGE;
    crate::limits::check_scenario_with(scenario, &limits.without_work())?;
    let model = traffic
        .cloned()
        .or_else(|| scenario.model.as_ref().and_then(|m| m.traffic.clone()))
        .unwrap_or_default();
    model.check()?;
    let deployment = match deployment {
        Some(d) => d.to_string(),
        None => scenario
            .actions
            .iter()
            .find_map(|a| match &a.kind {
                crate::scenario::ActionKind::Create { deployment } => Some(deployment.name.clone()),
                _ => None,
            })
            .ok_or_else(|| format!("scenario {:?} creates no Deployment", scenario.name))?,
    };
    let mut sim = crate::sim::Simulation::new(scenario.clone())
        .without_history()
        .without_trace_events()
        .without_explanations();
    let mut tracker =
        TrafficTracker::new(sim.kubelet_model().clone(), model, &deployment).keeping_all();
    let mut pod_rounds: i64 = 0;
    while !sim.finished() {
        sim.run_round();
        pod_rounds = pod_rounds.saturating_add(sim.api().pod_count() as i64);
        if pod_rounds > limits.pod_rounds {
            return Err(format!(
                "the traffic run has simulated {} pod-rounds and has not finished; Rollout Lab simulates at most {} in one run",
                crate::limits::group(pod_rounds),
                crate::limits::group(limits.pod_rounds)
            ));
        }
        if let Some(at) = sim.trace_rounds().last().map(|r| r.time) {
            tracker.observe_at(sim.api(), at);
        }
        sim.skip_idle_rounds();
    }
    let end = tracker
        .settles_at()
        .unwrap_or(0)
        .max(sim.now())
        .saturating_add(1);
    tracker.finish(end);
    Ok(TrafficRun { tracker, end })
}
