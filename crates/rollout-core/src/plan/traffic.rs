//! What users see of a planned rollout: the requests to the Service in front of it that fail
//! ([`crate::traffic`]), from the image being set until the last change the rollout made has
//! reached the proxies and every app it started answers.
//!
//! The assumptions are printed with the figures and each is a flag (`--load`, `--pod-capacity`,
//! `--endpoint-delay`, `--exit-after-sigterm`, `--pre-stop`) or a field of `plan()`'s options
//! (`load`, `podCapacity`, `endpointDelay`, `exitAfterSigterm`, `preStop`); the `preStop` sleep
//! is the manifest's (`lifecycle.preStop` of its first container) unless `--pre-stop` says.
//!
//! Example: 3 replicas without a readiness probe, `--app-ready 8s`, the defaults otherwise
//! (100 req/s, 1 s delay, an exit at once): every new pod is Ready as it starts and is sent
//! 33 or 34 req/s for 7 s before its app answers, and every old pod is sent its share for the
//! 1 s after its deletion: the failed requests are the sum of those windows.

use crate::api::Time;
use crate::traffic::{TrafficModel, TrafficTotals};
use serde::{Deserialize, Serialize};

/// The flags' names, in [`TrafficFlags`]' order.
pub const CLI_FLAGS: [&str; 5] = [
    "--load",
    "--pod-capacity",
    "--endpoint-delay",
    "--exit-after-sigterm",
    "--pre-stop",
];

/// `plan()`'s options for them, in the same order.
pub const PLAN_OPTIONS: [&str; 5] = [
    "load",
    "podCapacity",
    "endpointDelay",
    "exitAfterSigterm",
    "preStop",
];

/// The traffic flags of a plan (absent: the model's default, or the manifest's `preStop`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct TrafficFlags {
    /// `--load`: requests a second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<i64>,
    /// `--pod-capacity`: requests a second a pod serves at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_capacity: Option<i64>,
    /// `--endpoint-delay`: seconds for an endpoint change to reach the proxies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint_delay_seconds: Option<i64>,
    /// `--exit-after-sigterm`: seconds the app takes to exit on SIGTERM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_after_sigterm_seconds: Option<i64>,
    /// `--pre-stop`: the `preStop` sleep, instead of the manifest's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre_stop_seconds: Option<i64>,
}

impl TrafficFlags {
    /// The model with these flags over the defaults and the manifest's `preStop` sleep
    /// (`manifest_pre_stop`); `Err` names the flag out of range.
    pub fn model(&self, manifest_pre_stop: i64) -> Result<TrafficModel, String> {
        self.model_named(manifest_pre_stop, &CLI_FLAGS)
    }

    /// [`TrafficFlags::model`], a refusal naming the option as `names` do (in the order of
    /// [`CLI_FLAGS`]; [`PLAN_OPTIONS`] for `plan()`).
    pub fn model_named(
        &self,
        manifest_pre_stop: i64,
        names: &[&str; 5],
    ) -> Result<TrafficModel, String> {
        let [load, capacity, delay, exit, pre_stop] = *names;
        let d = TrafficModel::default();
        let rate =
            |flag: &str, v: Option<i64>, default: Option<u32>| -> Result<Option<u32>, String> {
                match v {
                    None => Ok(default),
                    Some(n) => crate::traffic::check_load(flag, n).map(|()| Some(n as u32)),
                }
            };
        let seconds = |flag: &str, v: Option<i64>, default: i64| -> Result<i64, String> {
            let n = v.unwrap_or(default);
            crate::traffic::check_seconds(flag, n).map(|()| n)
        };
        Ok(TrafficModel {
            load: rate(load, self.load, Some(d.load))?.unwrap_or(d.load),
            pod_capacity: rate(capacity, self.pod_capacity, None)?,
            endpoint_delay_seconds: seconds(
                delay,
                self.endpoint_delay_seconds,
                d.endpoint_delay_seconds,
            )?,
            exit_after_sigterm_seconds: seconds(exit, self.exit_after_sigterm_seconds, 0)?,
            pre_stop_sleep_seconds: seconds(pre_stop, self.pre_stop_seconds, manifest_pre_stop)?,
        })
    }
}

/// The traffic figures of a forecast (`traffic` in `rollout plan --json` and `plan()`): the
/// assumptions, and the requests from the image being set (`from`) to the end of the window
/// (`to`, excluded).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficForecast {
    /// The assumptions.
    pub assumptions: TrafficModel,
    /// The figures over the rollout.
    #[serde(flatten)]
    pub totals: TrafficTotals,
}

// The one float, the lowest served fraction, is a ratio of whole numbers with a load of at
// least 1: never NaN, so equality is an equivalence.
impl Eq for TrafficForecast {}

impl TrafficForecast {
    /// "0 of 12,000 requests failed" or "320 of 12,000 requests failed (2.7 %), the lowest
    /// second served 0 % of the load, at 30 s".
    pub fn summary(&self) -> String {
        let t = &self.totals;
        if t.failed == 0 {
            return format!(
                "none of {} requests failed",
                crate::limits::group(t.sent as i64)
            );
        }
        format!(
            "{} of {} requests failed ({:.1} %), {}; the worst second served {:.0} % of the load{}",
            crate::limits::group(t.failed as i64),
            crate::limits::group(t.sent as i64),
            t.failed as f64 * 100.0 / (t.sent.max(1)) as f64,
            reasons(t),
            t.lowest_served_fraction * 100.0,
            t.lowest_at
                .map_or(String::new(), |at| format!(", at {at} s")),
        )
    }
}

/// The failed requests by reason, the non-zero ones.
fn reasons(t: &TrafficTotals) -> String {
    let parts: Vec<String> = [
        (
            t.failed_not_answering,
            "sent to a pod whose app did not answer",
        ),
        (t.failed_no_endpoint, "with no ready endpoint"),
        (t.failed_over_capacity, "over a pod's capacity"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{} {why}", crate::limits::group(*n as i64)))
    .collect();
    parts.join(", ")
}

/// The window's end: after `last` (the completion, or the last round), once every change the
/// tracker knows of has reached the proxies and every app it started answers.
pub fn window_end(tracker: &crate::traffic::TrafficTracker, last: Time) -> Time {
    tracker
        .settles_at()
        .unwrap_or(last)
        .max(last)
        .saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::input::{plan_subject, read_subject};
    use crate::plan::manifest::ClusterModel;

    /// Three replicas of `web:1`, the container's extra fields `extra` (`, "lifecycle": …`).
    fn manifest(extra: &str) -> String {
        format!(
            r#"{{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "web"}},
            "spec": {{"replicas": 3, "selector": {{"matchLabels": {{"app": "web"}}}},
            "template": {{"metadata": {{"labels": {{"app": "web"}}}},
            "spec": {{"terminationGracePeriodSeconds": 10,
                "containers": [{{"name": "web", "image": "web:1"{extra}}}]}}}}}}}}"#
        )
    }

    fn plan(extra: &str, flags: TrafficFlags) -> (TrafficForecast, Vec<String>) {
        let model = ClusterModel {
            app_ready_seconds: 8,
            traffic: flags,
            ..ClusterModel::default()
        };
        let (subject, notes) = read_subject(&manifest(extra), &model).unwrap();
        let (out, _, _) = plan_subject(&subject, &notes).unwrap();
        (out.traffic.unwrap(), out.warnings)
    }

    const FORTY: TrafficFlags = TrafficFlags {
        load: Some(40),
        pod_capacity: None,
        endpoint_delay_seconds: None,
        exit_after_sigterm_seconds: None,
        pre_stop_seconds: None,
    };

    #[test]
    fn a_manifest_without_a_readiness_probe_fails_its_windows() {
        // No probe: the new pods are Ready as they start, so in settled rounds the whole
        // rollout happens at the image's round (1 s): the old pods exit at once while the
        // proxies still send them all 40 req/s (second 1), the new pods get them while their
        // apps boot (2 … 8: 7 × 40). The old version's apps answer: it has been up for long.
        let (t, _) = plan("", FORTY);
        assert_eq!(t.totals.from, 1);
        assert_eq!(t.totals.failed, 320, "{t:?}");
        assert_eq!(t.totals.failed_not_answering, 320);
        assert_eq!(t.totals.seconds_with_failures, 8);
        assert_eq!(t.totals.lowest_served_fraction, 0.0);
        // Counted until the last change, the new apps answering at 9 s, has been seen by the
        // proxies (10 s), that second included.
        assert_eq!(t.totals.to, 11);
        assert!(
            t.summary()
                .starts_with("320 of 400 requests failed (80.0 %), 320 sent to a pod whose app did not answer; the worst second served 0 % of the load, at 1 s"),
            "{}",
            t.summary()
        );
    }

    #[test]
    fn a_readiness_probe_and_a_pre_stop_sleep_from_the_manifest_fail_none() {
        let probe = r#", "readinessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 2},
            "lifecycle": {"preStop": {"exec": {"command": ["sleep", "5"]}}}"#;
        let (t, warnings) = plan(probe, FORTY);
        assert_eq!(t.assumptions.pre_stop_sleep_seconds, 5);
        assert_eq!(t.totals.failed, 0, "{t:?}");
        assert_eq!(
            t.summary(),
            format!("none of {} requests failed", limits_group(t.totals.sent))
        );
        assert!(
            warnings.iter().all(|w| !w.contains("preStop")),
            "{warnings:?}"
        );
        // --pre-stop 0s overrides the manifest: each old pod fails its share for 1 s.
        let (t, _) = plan(
            probe,
            TrafficFlags {
                pre_stop_seconds: Some(0),
                ..FORTY
            },
        );
        assert!(t.totals.failed > 0 && t.totals.failed <= 42, "{t:?}");
        assert_eq!(t.totals.failed, t.totals.failed_not_answering);
    }

    fn limits_group(n: u64) -> String {
        crate::limits::group(n as i64)
    }

    #[test]
    fn flags_out_of_range_are_refused_by_name() {
        let bad = |f: TrafficFlags| f.model(0).unwrap_err();
        assert!(bad(TrafficFlags {
            load: Some(0),
            ..FORTY
        })
        .starts_with("--load: 0 is not a rate"));
        assert!(bad(TrafficFlags {
            pod_capacity: Some(-3),
            ..FORTY
        })
        .starts_with("--pod-capacity: -3"));
        assert!(bad(TrafficFlags {
            endpoint_delay_seconds: Some(90_000),
            ..FORTY
        })
        .starts_with("--endpoint-delay: 90000 s is outside 0 to 86,400 s"));
        assert!(TrafficFlags {
            load: Some(0),
            ..FORTY
        }
        .model_named(0, &PLAN_OPTIONS)
        .unwrap_err()
        .starts_with("load: 0"));
        // A manifest planned with one is refused with it, before anything runs.
        let model = ClusterModel {
            traffic: TrafficFlags {
                load: Some(2_000_000),
                ..FORTY
            },
            ..ClusterModel::default()
        };
        let (subject, notes) = read_subject(&manifest(""), &model).unwrap();
        let e = plan_subject(&subject, &notes).unwrap_err();
        assert!(
            e.contains("--load: 2000000 requests a second is more than 1,000,000"),
            "{e}"
        );
    }
}
