//! How an app fails: a model parameter per image, not a field of Kubernetes. What the kubelet
//! then does (restarts, back-off, probes) is `kubelet::container_life`.
//!
//! One naming serves the scenario format and `rollout plan --fail`: a kind, then `key=duration`
//! pairs after a colon, durations as kubectl writes them (`5s`, `2m`, or plain seconds):
//!
//! * `crash:after=5s`: the container exits (code 1) 5 s after each start;
//! * `probe:after=5s`: the app stops answering its probes 5 s after each start (a liveness or
//!   startup probe then gets the container killed and restarted; a readiness probe takes the
//!   pod out of Ready; with no probe Kubernetes does not notice);
//! * `readiness:from=30s,to=90s`: the readiness probe fails from 30 s to 90 s after each start
//!   (`to` absent: for good);
//! * `slow:ready=45s`: the app answers its probes only from 45 s after each start (a slow
//!   start: a liveness or startup probe that gives up sooner gets it killed before it ever
//!   answers, again and again; a readiness probe only waits for it);
//! * `pull`: the image cannot be pulled.
//!
//! A scenario names them per image (`"model": {"failures": {"web:2": "crash:after=5s"}}`)
//! beside the kubelet's restart back-off (`"restartBackOff": {"initialSeconds": 10,
//! "maxSeconds": 300}`: v1.28's, the default; `maxSeconds` smaller is ≥ 1.32's
//! `KubeletCrashLoopBackOffMax`, 1 and 60 is ≥ 1.33's `ReduceDefaultCrashLoopBackOffDecay`).

use crate::api::Time;
use crate::kubelet::backoff::BackOffPolicy;

/// What an app does wrong, on its container's clock (seconds after each start).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AppFailure {
    /// `crash:after=N`: exits with code 1 N seconds after each start.
    Crash {
        /// N.
        after: Time,
    },
    /// `probe:after=N`: answers no probe from N seconds after each start.
    Probe {
        /// N.
        after: Time,
    },
    /// `readiness:from=N,to=M`: the readiness probe fails from N to M seconds after each start.
    Readiness {
        /// N.
        from: Time,
        /// M (`None`: for good).
        to: Option<Time>,
    },
    /// `slow:ready=N`: answers its probes only from N seconds after each start.
    Slow {
        /// N.
        ready: Time,
    },
    /// `pull`: the image cannot be pulled (the registry answers not found).
    Pull,
}

use crate::limits::MAX_FAILURE_SECONDS;

/// The kinds, in the order the documentation lists them.
pub const KINDS: [&str; 5] = ["crash", "probe", "readiness", "slow", "pull"];

/// A duration as kubectl's flags write them: `30s`, `2m`, `1h`, or plain seconds; whole
/// seconds, ≥ 0.
pub fn parse_duration(text: &str) -> Option<Time> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let n: Time = digits.parse().ok()?;
    let scale = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        _ => return None,
    };
    n.checked_mul(scale)
}

impl AppFailure {
    /// Reads `crash:after=5s`, `probe:after=5s`, `readiness:from=30s,to=90s`, `slow:ready=45s`
    /// or `pull`; `Err`
    /// says what is wrong and what is expected.
    pub fn parse(text: &str) -> Result<AppFailure, String> {
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let keys: &[&str] = match kind {
            "crash" | "probe" => &["after"],
            "readiness" => &["from", "to"],
            "slow" => &["ready"],
            "pull" => &[],
            _ => {
                return Err(format!(
                    "{text:?}: unknown failure `{kind}`, expected one of crash:after=5s, probe:after=5s, readiness:from=30s,to=90s, slow:ready=45s, pull"
                ))
            }
        };
        let mut values: Vec<(&str, Time)> = Vec::new();
        for pair in rest.split(',').filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(format!("{text:?}: `{pair}` is not key=duration"));
            };
            if !keys.contains(&key) {
                return Err(format!(
                    "{text:?}: `{kind}` has no `{key}`{}",
                    if keys.is_empty() {
                        String::new()
                    } else {
                        format!(", expected {}", keys.join(", "))
                    }
                ));
            }
            let Some(seconds) = parse_duration(value) else {
                return Err(format!(
                    "{text:?}: {key}={value} is not a duration (e.g. 5s, 2m, or seconds)"
                ));
            };
            if seconds > MAX_FAILURE_SECONDS {
                return Err(format!(
                    "{text:?}: {key}={value} is more than {MAX_FAILURE_SECONDS} s (a year), the longest a failure may name"
                ));
            }
            values.push((key, seconds));
        }
        let get = |key: &str| values.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let need =
            |key: &str| get(key).ok_or_else(|| format!("{text:?}: `{kind}` needs {key}=DURATION"));
        Ok(match kind {
            "crash" => AppFailure::Crash {
                after: need("after")?,
            },
            "probe" => AppFailure::Probe {
                after: need("after")?,
            },
            "readiness" => {
                let from = need("from")?;
                let to = get("to");
                if to.is_some_and(|to| to <= from) {
                    return Err(format!("{text:?}: to must be later than from"));
                }
                AppFailure::Readiness { from, to }
            }
            "slow" => AppFailure::Slow {
                ready: need("ready")?,
            },
            _ => AppFailure::Pull,
        })
    }

    /// The naming [`AppFailure::parse`] reads: `crash:after=5s`.
    pub fn text(&self) -> String {
        match self {
            AppFailure::Crash { after } => format!("crash:after={after}s"),
            AppFailure::Probe { after } => format!("probe:after={after}s"),
            AppFailure::Readiness { from, to: Some(to) } => {
                format!("readiness:from={from}s,to={to}s")
            }
            AppFailure::Readiness { from, to: None } => format!("readiness:from={from}s"),
            AppFailure::Slow { ready } => format!("slow:ready={ready}s"),
            AppFailure::Pull => "pull".to_string(),
        }
    }

    /// In words: "crashes 5 s after each start".
    pub fn words(&self) -> String {
        match self {
            AppFailure::Crash { after } => format!("crashes {after} s after each start"),
            AppFailure::Probe { after } => {
                format!("stops answering its probes {after} s after each start")
            }
            AppFailure::Readiness { from, to: Some(to) } => {
                format!("fails its readiness probe from {from} s to {to} s after each start")
            }
            AppFailure::Readiness { from, to: None } => {
                format!("fails its readiness probe from {from} s after each start, for good")
            }
            AppFailure::Slow { ready } => {
                format!("answers its probes only from {ready} s after each start")
            }
            AppFailure::Pull => "cannot be pulled".to_string(),
        }
    }
}

/// A scenario's failures: which images fail how, and the kubelet's back-off (a scenario's
/// `model.failures` and `model.restartBackOff`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct FailureModel {
    /// Image → how its app fails, in the order given.
    pub images: Vec<(String, AppFailure)>,
    /// The crash-loop back-off (v1.28: 10 s to 300 s).
    pub restart_back_off: BackOffPolicy,
}

impl FailureModel {
    /// How `image`'s app fails, if it does.
    pub fn of(&self, image: &str) -> Option<&AppFailure> {
        self.images.iter().find(|(i, _)| i == image).map(|(_, f)| f)
    }

    /// Reads `model.failures` (`{"web:2": "crash:after=5s"}`) and `model.restartBackOff`
    /// (`{"initialSeconds": 10, "maxSeconds": 300}`, either optional); `Err` names the field.
    pub fn from_values(
        failures: Option<&serde_json::Value>,
        back_off: Option<&serde_json::Value>,
    ) -> Result<FailureModel, String> {
        let mut model = FailureModel::default();
        if let Some(v) = failures.filter(|v| !v.is_null()) {
            let obj = v.as_object().ok_or_else(|| {
                "failures: expected an object of image: failure (e.g. {\"web:2\": \"crash:after=5s\"})".to_string()
            })?;
            for (image, f) in obj {
                let text = f.as_str().ok_or_else(|| {
                    format!("failures.{image}: expected a text such as \"crash:after=5s\"")
                })?;
                let failure =
                    AppFailure::parse(text).map_err(|e| format!("failures.{image}: {e}"))?;
                model.images.push((image.clone(), failure));
            }
        }
        if let Some(v) = back_off.filter(|v| !v.is_null()) {
            let obj = v
                .as_object()
                .ok_or_else(|| "restartBackOff: expected an object".to_string())?;
            for (key, n) in obj {
                let n = n
                    .as_i64()
                    .filter(|n| (1..=86_400).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "restartBackOff.{key}: expected whole seconds from 1 to 86400, not {n}"
                        )
                    })?;
                match key.as_str() {
                    "initialSeconds" => model.restart_back_off.initial_seconds = n,
                    "maxSeconds" => model.restart_back_off.max_seconds = n,
                    _ => {
                        return Err(format!(
                            "restartBackOff: unknown field `{key}`, expected one of initialSeconds, maxSeconds"
                        ))
                    }
                }
            }
            if model.restart_back_off.initial_seconds > model.restart_back_off.max_seconds {
                return Err(
                    "restartBackOff.initialSeconds: must not be more than maxSeconds".into(),
                );
            }
        }
        Ok(model)
    }

    /// `model.failures` as a scenario writes it (`None` when no image fails).
    pub fn failures_json(&self) -> Option<serde_json::Value> {
        (!self.images.is_empty()).then(|| {
            let mut map = serde_json::Map::new();
            for (image, f) in &self.images {
                map.insert(image.clone(), serde_json::Value::String(f.text()));
            }
            serde_json::Value::Object(map)
        })
    }

    /// `model.restartBackOff` as a scenario writes it (`None` for v1.28's default).
    pub fn back_off_json(&self) -> Option<serde_json::Value> {
        (self.restart_back_off != BackOffPolicy::V1_28).then(|| {
            serde_json::json!({
                "initialSeconds": self.restart_back_off.initial_seconds,
                "maxSeconds": self.restart_back_off.max_seconds,
            })
        })
    }
}

#[cfg(test)]
pub(crate) mod fixtures;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_naming_read_and_written() {
        for text in [
            "crash:after=5s",
            "probe:after=120s",
            "readiness:from=30s,to=90s",
            "readiness:from=30s",
            "slow:ready=45s",
            "pull",
        ] {
            assert_eq!(AppFailure::parse(text).unwrap().text(), text);
        }
        assert_eq!(
            AppFailure::parse("crash:after=2m"),
            Ok(AppFailure::Crash { after: 120 })
        );
        for (bad, why) in [
            ("explode", "unknown failure `explode`"),
            ("crash", "needs after=DURATION"),
            ("crash:after=5x", "after=5x is not a duration"),
            ("crash:every=5s", "`crash` has no `every`, expected after"),
            ("pull:after=1s", "`pull` has no `after`"),
            ("readiness:from=30s,to=10s", "to must be later than from"),
            ("slow", "`slow` needs ready=DURATION"),
            ("slow:after=5s", "`slow` has no `after`, expected ready"),
            ("crash:after=99999999999999999999s", "is not a duration"),
            ("crash:after=366d", "is not a duration"),
            ("crash:after=9000h", "is more than 31536000 s (a year)"),
        ] {
            let e = AppFailure::parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn a_scenario_names_failures_per_image_strictly() {
        let f = serde_json::json!({"web:2": "crash:after=5s"});
        let b = serde_json::json!({"maxSeconds": 30});
        let m = FailureModel::from_values(Some(&f), Some(&b)).unwrap();
        assert_eq!(m.of("web:2"), Some(&AppFailure::Crash { after: 5 }));
        assert_eq!(m.of("web:1"), None);
        assert_eq!(m.restart_back_off, BackOffPolicy::V1_28.with_max(30));
        assert_eq!(m.failures_json(), Some(f));
        assert_eq!(
            m.back_off_json(),
            Some(serde_json::json!({"initialSeconds": 10, "maxSeconds": 30}))
        );
        for (f, b, why) in [
            (
                serde_json::json!({"web:2": 5}),
                serde_json::json!({}),
                "failures.web:2: expected a text",
            ),
            (
                serde_json::json!({"web:2": "boom"}),
                serde_json::json!({}),
                "failures.web:2: \"boom\": unknown failure",
            ),
            (
                serde_json::json!({}),
                serde_json::json!({"max": 30}),
                "restartBackOff: unknown field `max`",
            ),
            (
                serde_json::json!({}),
                serde_json::json!({"maxSeconds": 0}),
                "restartBackOff.maxSeconds",
            ),
            (
                serde_json::json!({}),
                serde_json::json!({"initialSeconds": 60, "maxSeconds": 30}),
                "must not be more than maxSeconds",
            ),
        ] {
            let e = FailureModel::from_values(Some(&f), Some(&b)).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }
}
