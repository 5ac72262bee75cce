//! Requests to the Service in front of a Deployment: a model, and one that says it is one.
//!
//! Kubernetes does not send requests; users do. This module models them as simply as keeps
//! the lessons true: a steady load of `load` requests a second, spread evenly over the
//! endpoints kube-proxy would send new connections to ([`crate::endpoints`]), as those were
//! `endpointDelaySeconds` ago (the time for an EndpointSlice change to reach every node's
//! proxy: a parameter, 1 s by default). A request fails when
//! * no endpoint is ready or serving-and-terminating: **no ready endpoint** (the proxy rejects
//!   the connection);
//! * the pod it is sent to has no app answering: **not answering** (booting: its container
//!   started `appReadySeconds` ago or less, and without a readiness probe it was Ready at once;
//!   exited after SIGTERM while the proxies still send to it; crashed, hung or out of its
//!   readiness window per the kubelet's failure model, [`crate::kubelet::failures`]; gone);
//! * the pod already got `podCapacity` requests that second: **over capacity**.
//!
//! Time is whole seconds on the simulation's clock: second `t` is `[t, t+1)`, the pods as the
//! last round at or before `t` left them, the proxies' endpoints as the round at or before
//! `t − endpointDelaySeconds` left them. A deleted pod runs its `preStop` sleep, then gets
//! SIGTERM and its app exits `exitAfterSigtermSeconds` later, or when the model's termination
//! (`terminationRounds`, the grace period) ends, whichever is first.
//!
//! Worked example (the issue's): load 40, delay 1 s, an app answering 8 s after its container
//! starts and exiting at once on SIGTERM. Scaling 3 → 4 at 30 s without a readiness probe: the
//! new pod is Ready as its container starts at 30 s, the proxies send it 40 / 4 = 10 req/s from
//! 31 s, its app answers from 38 s: seconds 31 … 37, 7 × 10 = 70 failed. With a readiness probe
//! (period 10 s) it is Ready at 40 s, sent requests from 41 s: none failed. Scaling 4 → 3 at
//! 60 s: the deleted pod's app exits at 60 s, the proxies learn at 61 s: 10 failed in second 60;
//! with `preStop: sleep 5` it answers until 65 s: none.
//!
//! Not modelled: connections kept open across changes (keep-alive, HTTP/2: new connections
//! only), retries, load that follows latency, topology-aware routing, `publishNotReadyAddresses`,
//! `internalTrafficPolicy: Local`.

pub mod app;
pub mod pre_stop;
pub mod report;
pub mod tracker;

pub use app::Silence;
pub use report::{EndpointView, Figures, PodTraffic, TrafficSecond, TrafficSpan, TrafficTotals};
pub use tracker::{run_scenario, TrafficRun, TrafficTracker};

use serde::Serialize;

/// The most requests a second the model takes (load or a pod's capacity).
pub const MAX_LOAD: u32 = 1_000_000;
/// The longest endpoint delay, exit after SIGTERM or `preStop` sleep, in seconds (a day).
pub const MAX_TRAFFIC_SECONDS: i64 = 86_400;

/// The traffic model's parameters (a scenario's `model.traffic`, `rollout plan --load …`).
/// Read by hand ([`TrafficModel::from_value`]) so that each refusal names its field.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficModel {
    /// Requests a second sent to the Service (steady; default 100).
    pub load: u32,
    /// Requests a second one pod serves at most (absent: no limit); the excess fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pod_capacity: Option<u32>,
    /// Seconds for an endpoint change to reach the proxies (default 1).
    pub endpoint_delay_seconds: i64,
    /// Seconds the app takes to exit once it gets SIGTERM (default 0: at once).
    pub exit_after_sigterm_seconds: i64,
    /// The container's `lifecycle.preStop` sleep, in seconds (default 0: none).
    pub pre_stop_sleep_seconds: i64,
}

/// The fields of `model.traffic`.
pub const TRAFFIC_FIELDS: [&str; 5] = [
    "load",
    "podCapacity",
    "endpointDelaySeconds",
    "exitAfterSigtermSeconds",
    "preStopSleepSeconds",
];

impl Default for TrafficModel {
    fn default() -> Self {
        TrafficModel {
            load: 100,
            pod_capacity: None,
            endpoint_delay_seconds: 1,
            exit_after_sigterm_seconds: 0,
            pre_stop_sleep_seconds: 0,
        }
    }
}

impl TrafficModel {
    /// `Err` naming the first field out of its range, its value and the range.
    pub fn check(&self) -> Result<(), String> {
        check_load("load", i64::from(self.load))?;
        if let Some(c) = self.pod_capacity {
            check_load("podCapacity", i64::from(c))?;
        }
        check_seconds("endpointDelaySeconds", self.endpoint_delay_seconds)?;
        check_seconds("exitAfterSigtermSeconds", self.exit_after_sigterm_seconds)?;
        check_seconds("preStopSleepSeconds", self.pre_stop_sleep_seconds)
    }

    /// Reads `model.traffic` (`{"load": 40, "podCapacity": 20, …}`, every field optional,
    /// `podCapacity: null` no limit), checked: a refusal names the field.
    pub fn from_value(v: &serde_json::Value) -> Result<TrafficModel, String> {
        let obj = v
            .as_object()
            .ok_or_else(|| format!("expected an object such as {{\"load\": 40}}, not {v}"))?;
        if let Some(k) = obj.keys().find(|k| !TRAFFIC_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "unknown field `{k}`, expected one of {}",
                TRAFFIC_FIELDS.join(", ")
            ));
        }
        let number = |key: &str| -> Result<Option<i64>, String> {
            match obj.get(key) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(n) => n
                    .as_i64()
                    .map(Some)
                    .ok_or_else(|| format!("{key}: expected a whole number, not {n}")),
            }
        };
        let rate = |key: &str| -> Result<Option<u32>, String> {
            match number(key)? {
                None => Ok(None),
                Some(n) => check_load(key, n).map(|()| Some(n as u32)),
            }
        };
        let seconds = |key: &str, default: i64| -> Result<i64, String> {
            let n = number(key)?.unwrap_or(default);
            check_seconds(key, n).map(|()| n)
        };
        let d = TrafficModel::default();
        Ok(TrafficModel {
            load: rate("load")?.unwrap_or(d.load),
            pod_capacity: rate("podCapacity")?,
            endpoint_delay_seconds: seconds("endpointDelaySeconds", d.endpoint_delay_seconds)?,
            exit_after_sigterm_seconds: seconds("exitAfterSigtermSeconds", 0)?,
            pre_stop_sleep_seconds: seconds("preStopSleepSeconds", 0)?,
        })
    }

    /// The assumptions in one line, as the planner prints them.
    pub fn words(&self) -> String {
        format!(
            "load {} req/s spread evenly over the endpoints the proxies send to; {}; endpoint changes reach the proxies after {} s; the app exits {} after SIGTERM; {}",
            self.load,
            match self.pod_capacity {
                Some(c) => format!("a pod serves at most {c} req/s"),
                None => "no limit to what a pod serves".to_string(),
            },
            self.endpoint_delay_seconds,
            match self.exit_after_sigterm_seconds {
                0 => "at once".to_string(),
                s => format!("{s} s"),
            },
            match self.pre_stop_sleep_seconds {
                0 => "no preStop sleep".to_string(),
                s => format!("preStop sleeps {s} s"),
            }
        )
    }
}

/// A request rate within `1 ..= MAX_LOAD`, or the refusal naming it.
pub fn check_load(what: &str, value: i64) -> Result<(), String> {
    if value < 1 {
        return Err(format!(
            "{what}: {value} is not a rate the model takes: give at least 1 request a second"
        ));
    }
    if value > i64::from(MAX_LOAD) {
        return Err(format!(
            "{what}: {value} requests a second is more than {}, the most the traffic model takes",
            crate::limits::group(i64::from(MAX_LOAD))
        ));
    }
    Ok(())
}

/// Seconds within `0 ..= MAX_TRAFFIC_SECONDS`, or the refusal naming them.
pub fn check_seconds(what: &str, value: i64) -> Result<(), String> {
    if !(0..=MAX_TRAFFIC_SECONDS).contains(&value) {
        return Err(format!(
            "{what}: {value} s is outside 0 to {} s (a day)",
            crate::limits::group(MAX_TRAFFIC_SECONDS)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
