//! What the traffic model says, as plain data: each second's figures, spans of seconds with the
//! same figures, totals over a window, and one second in full for a stage (the Service's
//! endpoints, what each pod got, and why a request failed, in one line naming the pod).

use super::app::Silence;
use crate::api::Time;
use crate::endpoints::EndpointConditions;
use serde::Serialize;

/// One second's requests: sent, served and failed by reason (they add up to `load`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// Requests sent to the Service this second.
    pub load: u32,
    /// Served by a pod.
    pub served: u32,
    /// Failed: no endpoint was ready (nor serving and terminating).
    pub no_endpoint: u32,
    /// Failed: sent to a pod whose app did not answer.
    pub not_answering: u32,
    /// Failed: sent to a pod beyond its capacity.
    pub over_capacity: u32,
}

impl Figures {
    /// All the failed requests.
    pub fn failed(&self) -> u32 {
        self.no_endpoint + self.not_answering + self.over_capacity
    }

    /// The served fraction of the load (1 with no load).
    pub fn served_fraction(&self) -> f64 {
        if self.load == 0 {
            1.0
        } else {
            f64::from(self.served) / f64::from(self.load)
        }
    }
}

/// Seconds `from .. to` (to excluded), each with the same figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficSpan {
    /// The first second.
    pub from: Time,
    /// The second after the last.
    pub to: Time,
    /// Each second's figures.
    pub figures: Figures,
}

/// The figures over a window of seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct TrafficTotals {
    /// The first second counted.
    pub from: Time,
    /// The second after the last counted.
    pub to: Time,
    /// Requests sent.
    pub sent: u64,
    /// Served.
    pub served: u64,
    /// Failed, all reasons.
    pub failed: u64,
    /// Failed: no ready endpoint.
    pub failed_no_endpoint: u64,
    /// Failed: the pod's app did not answer.
    pub failed_not_answering: u64,
    /// Failed: over a pod's capacity.
    pub failed_over_capacity: u64,
    /// The lowest served fraction of the load in any second (1.0: all served throughout).
    pub lowest_served_fraction: f64,
    /// The first second with that lowest fraction (`None`: an empty window).
    pub lowest_at: Option<Time>,
    /// The seconds in which some request failed.
    pub seconds_with_failures: u64,
}

impl TrafficTotals {
    /// The totals of `spans` within `from .. to`.
    pub fn of(spans: &[TrafficSpan], from: Time, to: Time) -> TrafficTotals {
        let mut t = TrafficTotals {
            from,
            to,
            lowest_served_fraction: 1.0,
            ..TrafficTotals::default()
        };
        for s in spans {
            let (a, b) = (s.from.max(from), s.to.min(to));
            if a >= b {
                continue;
            }
            let n = (b - a) as u64;
            let f = &s.figures;
            t.sent += n * u64::from(f.load);
            t.served += n * u64::from(f.served);
            t.failed_no_endpoint += n * u64::from(f.no_endpoint);
            t.failed_not_answering += n * u64::from(f.not_answering);
            t.failed_over_capacity += n * u64::from(f.over_capacity);
            if f.failed() > 0 {
                t.seconds_with_failures += n;
            }
            let frac = f.served_fraction();
            if t.lowest_at.is_none() || frac < t.lowest_served_fraction {
                t.lowest_served_fraction = frac;
                t.lowest_at = Some(a);
            }
        }
        t.failed = t.failed_no_endpoint + t.failed_not_answering + t.failed_over_capacity;
        t
    }
}

/// One endpoint of the Service's slice at a second: its conditions now, and as the proxies
/// know them (`endpointDelaySeconds` ago).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointView {
    /// The pod.
    pub pod: String,
    /// The EndpointSlice's conditions now (`None`: not in the slice now, the proxies still
    /// know it).
    pub now: Option<EndpointConditions>,
    /// The conditions the proxies act on (`None`: they do not know it yet).
    pub proxied: Option<EndpointConditions>,
    /// Whether the proxies send new connections to it.
    pub sent_to: bool,
}

/// What one pod got in a second.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTraffic {
    /// The pod.
    pub pod: String,
    /// Requests sent to it.
    pub sent: u32,
    /// Served.
    pub served: u32,
    /// Failed because its app did not answer.
    pub not_answering: u32,
    /// Failed over its capacity.
    pub over_capacity: u32,
    /// Why its app did not answer, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silence: Option<Silence>,
}

/// One second in full, for a stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficSecond {
    /// The second.
    pub at: Time,
    /// Its figures.
    pub figures: Figures,
    /// The Service's endpoints (the slice now and the proxies' view), by pod name.
    pub endpoints: Vec<EndpointView>,
    /// What each pod the proxies send to got, by pod name.
    pub pods: Vec<PodTraffic>,
    /// Why requests failed this second, in one line naming the pod (`None`: none failed).
    pub why: Option<String>,
}

/// The one line that says why requests failed in a second: the first pod that did not answer,
/// else the first over its capacity, else the Service without endpoints.
pub fn why(
    figures: &Figures,
    pods: &[PodTraffic],
    delay: i64,
    capacity: Option<u32>,
) -> Option<String> {
    if figures.failed() == 0 {
        return None;
    }
    if let Some(p) = pods.iter().find(|p| p.not_answering > 0) {
        let what = match &p.silence {
            Some(s) => silence_words(s, delay),
            None => "its app did not answer".to_string(),
        };
        return Some(format!(
            "sent {} req/s to {}: {what}",
            p.not_answering, p.pod
        ));
    }
    if let Some(p) = pods.iter().find(|p| p.over_capacity > 0) {
        return Some(format!(
            "{} got {} req/s and serves at most {}: {} failed over its capacity",
            p.pod,
            p.sent,
            capacity.unwrap_or(p.served),
            p.over_capacity
        ));
    }
    Some(format!(
        "no endpoint of the Service is ready (nor serving while terminating) as the proxies know them: {} req/s rejected",
        figures.no_endpoint
    ))
}

/// Why an app did not answer, in words with the live numbers.
pub fn silence_words(s: &Silence, delay: i64) -> String {
    match s {
        Silence::NotStarted => "its container has not started".to_string(),
        Silence::Booting {
            started,
            answers_from,
            readiness_probe: false,
        } => format!(
            "Ready as its container started at {started} s (no readiness probe), but the app answers from {} s after the start ({answers_from} s)",
            answers_from - started
        ),
        Silence::Booting {
            started,
            answers_from,
            readiness_probe: true,
        } => format!(
            "its container started at {started} s and the app answers only from {answers_from} s"
        ),
        Silence::ShutDown {
            deleted,
            exited,
            pre_stop_seconds,
        } => format!(
            "Terminating since {deleted} s, its app exited at {exited} s ({}), while the proxies learn of the change {delay} s after it",
            match pre_stop_seconds {
                0 => "no preStop sleep".to_string(),
                s => format!("after a preStop sleep of {s} s"),
            }
        ),
        Silence::ContainerDown { reason } => {
            format!("its container is not running ({reason}) and the proxies have not heard yet")
        }
        Silence::Hung { since } => format!("its app stopped answering at {since} s"),
        Silence::Unavailable { since } => {
            format!("its app cannot serve since {since} s (its readiness probe fails)")
        }
        Silence::NeverReady => "its image never becomes ready".to_string(),
        Silence::Gone => format!(
            "the pod is gone, and the proxies learn it {delay} s after its endpoint went"
        ),
    }
}
