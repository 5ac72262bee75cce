//! What a plan is asked about, read from text the way `rollout plan FILE` and the JavaScript
//! API's `plan()` read it: a preset id, a scenario (an object with `actions`) or a Deployment
//! manifest; and the one JSON object both answer with.
//!
//! Example: `rolling-basic` is the preset; `{"name":"x","actions":[…]}` a scenario; the YAML
//! that `kubectl get deployment web -o yaml` prints a manifest, planned in the cluster model.

use super::manifest::{self, ClusterModel, ResolvedModel};
use super::{Forecast, Subject};
use crate::scenario::Scenario;
use serde::Serialize;

/// The longest duration a flag or option takes: 10,000,000 s.
pub const MAX_DURATION_SECONDS: i64 = 10_000_000;

/// `30s`, `2m`, `1m30s`, `90` (seconds), as kubectl's duration flags read them; the error
/// names `what` (a flag such as `--ready-after`, or an option such as `readyAfter`).
/// For example `1m30s` is 90 and `5m5m` is refused.
pub fn parse_duration(what: &str, text: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "{what} {text:?}: expected a duration such as 30s, 2m, 1m30s or a number of seconds"
        )
    };
    let too_long = || {
        format!(
            "{what} {:?}: at most {} s (about 115 days), the longest duration Rollout Lab simulates",
            crate::limits::prefix(text, 40),
            crate::limits::group(MAX_DURATION_SECONDS)
        )
    };
    let t = text.trim();
    if t.is_empty() {
        return Err(bad());
    }
    if let Ok(n) = t.parse::<i64>() {
        return match n {
            0..=MAX_DURATION_SECONDS => Ok(n),
            n if n > MAX_DURATION_SECONDS => Err(too_long()),
            _ => Err(bad()),
        };
    }
    if t.len() > 40 {
        return Err(too_long());
    }
    let mut total: i64 = 0;
    let mut digits = String::new();
    let mut last_unit = None;
    for c in t.chars() {
        match c {
            '0'..='9' => digits.push(c),
            'h' | 'm' | 's' => {
                let n: i64 =
                    digits.parse().map_err(
                        |_| {
                            if digits.is_empty() {
                                bad()
                            } else {
                                too_long()
                            }
                        },
                    )?;
                digits.clear();
                let (rank, mult) = match c {
                    'h' => (0, 3600),
                    'm' => (1, 60),
                    _ => (2, 1),
                };
                if last_unit.is_some_and(|r| r >= rank) {
                    return Err(bad());
                }
                last_unit = Some(rank);
                total = n
                    .checked_mul(mult)
                    .and_then(|x| total.checked_add(x))
                    .ok_or_else(too_long)?;
            }
            _ => return Err(bad()),
        }
    }
    if !digits.is_empty() {
        return Err(bad());
    }
    if total > MAX_DURATION_SECONDS {
        return Err(too_long());
    }
    Ok(total)
}

/// Whether `text` is a scenario rather than a manifest: JSON with an `actions` field.
pub fn is_scenario(json: Option<&serde_json::Value>) -> bool {
    json.is_some_and(|v| v.get("actions").is_some())
}

/// Reads `text` (a preset id, scenario JSON or a manifest) as the subject of a plan, with the
/// notes a report shows first (fields not modelled, values rounded to whole rounds). `model`
/// applies to a manifest only.
pub fn read_subject(text: &str, model: &ClusterModel) -> Result<(Subject, Vec<String>), String> {
    read_subject_named(text, model, crate::import::Pick::default())
}

/// [`read_subject`], where a manifest file of several Deployments is planned for the one `pick`
/// names (`--deployment NAME`, `plan()`'s `deployment` option).
pub fn read_subject_named(
    text: &str,
    model: &ClusterModel,
    pick: crate::import::Pick<'_>,
) -> Result<(Subject, Vec<String>), String> {
    if let Some(p) = crate::presets::preset(text.trim()) {
        return Ok((Subject::Scenario(p.scenario), Vec::new()));
    }
    let json: Option<serde_json::Value> = serde_json::from_str(text).ok();
    if is_scenario(json.as_ref()) {
        let s = match json {
            Some(v) => Scenario::from_value(&v),
            None => Scenario::from_json(text),
        }
        .map_err(|e| e.to_string())?;
        return Ok((Subject::Scenario(s), Vec::new()));
    }
    let m = manifest::read_manifest_named(text, pick)?;
    let guessed = model.image.is_none() && !crate::images::has_version(&m.deployment.image);
    let model = manifest::resolve(&m, model);
    let mut notes: Vec<String> = m.notes.clone();
    if guessed {
        notes.push(format!(
            "{} has no version number to count up: the new image is taken to be {}; name the one you will roll out (--image, or the image option)",
            model.old_image, model.new_image
        ));
    }
    notes.extend(m.unsupported.iter().map(|u| format!("not modelled: {u}")));
    notes.extend(model.notes.iter().cloned());
    Ok((
        Subject::Manifest {
            manifest: Box::new(m),
            model,
        },
        notes,
    ))
}

/// The one JSON object of `rollout plan --json` and of the JavaScript API's `plan()`: the
/// forecast's six figures, which Deployment and rounds, the warnings and, for a manifest, the
/// cluster model with its defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanOutput {
    /// The figures.
    #[serde(flatten)]
    pub forecast: Forecast,
    /// The Deployment rolled out.
    pub deployment: String,
    /// Seconds per round.
    pub seconds_per_round: i64,
    /// Whether rounds are settled (the controllers react at once).
    pub settle: bool,
    /// The notes and the report's warnings.
    pub warnings: Vec<String>,
    /// A manifest's cluster model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ResolvedModel>,
    /// Why the rollout never completes when a pod fits no node (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unschedulable: Option<super::scheduling::Unschedulable>,
    /// The requests to the Service in front of the Deployment over the rollout, with the
    /// assumptions (`plan::traffic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traffic: Option<super::traffic::TrafficForecast>,
}

/// Plans `subject` as it is (no sweep settings): the output object, plus the scenario run and
/// its simulation for a report.
pub fn plan_subject(
    subject: &Subject,
    notes: &[String],
) -> Result<(PlanOutput, Scenario, crate::sim::Simulation), String> {
    plan_subject_with(subject, notes, &crate::limits::Limits::PAGE)
}

/// [`plan_subject`] within `limits` (the CLI's `--large`).
pub fn plan_subject_with(
    subject: &Subject,
    notes: &[String],
    limits: &crate::limits::Limits,
) -> Result<(PlanOutput, Scenario, crate::sim::Simulation), String> {
    plan_subject_scaled(subject, notes, limits, &[])
}

/// [`plan_subject_with`] with a `kubectl scale` at each of `scales` during the rollout
/// (`--scale-at 30s=10`), with a warning for one that comes after it completes.
pub fn plan_subject_scaled(
    subject: &Subject,
    notes: &[String],
    limits: &crate::limits::Limits,
    scales: &[super::change::ScaleAt],
) -> Result<(PlanOutput, Scenario, crate::sim::Simulation), String> {
    let mut scenario = subject.scenario(&super::sweep::Settings::default())?;
    super::change::add_scales(&mut scenario, scales)?;
    let traffic_model = subject.traffic_model();
    let (forecast, traffic, sim) =
        super::simulate_traffic(&scenario, limits, Some(&traffic_model))?;
    let target = super::rollout_target(&scenario)?;
    let mut warnings: Vec<String> = notes.to_vec();
    warnings.extend(super::report::warnings(&sim, &target, &forecast));
    let unschedulable = super::scheduling::unschedulable(&sim, &target.deployment, &forecast);
    let out = PlanOutput {
        traffic,
        unschedulable,
        forecast,
        deployment: target.deployment,
        seconds_per_round: scenario.seconds_per_round,
        settle: scenario.settle,
        warnings,
        model: match subject {
            Subject::Manifest { model, .. } => Some(model.clone()),
            Subject::Scenario(_) => None,
        },
    };
    let mut out = out;
    let late = super::change::late_scales(&out, scales);
    out.warnings.extend(late);
    Ok((out, scenario, sim))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_kubectl_flags() {
        assert_eq!(parse_duration("--ready-after", "30s"), Ok(30));
        assert_eq!(parse_duration("--ready-after", "90"), Ok(90));
        assert_eq!(parse_duration("--ready-after", "2m"), Ok(120));
        assert_eq!(parse_duration("--ready-after", "1m30s"), Ok(90));
        assert_eq!(parse_duration("--ready-after", "1h"), Ok(3600));
        for bad in ["", "-5", "30x", "s", "30s1m", "1.5s", "5m5m"] {
            let e = parse_duration("--termination", bad).unwrap_err();
            assert!(e.starts_with("--termination"), "{bad}: {e}");
        }
        assert_eq!(parse_duration("--ready-after", "10000000"), Ok(10_000_000));
        for long in ["10000001", "2778h", "99999999999999999999h"] {
            let e = parse_duration("--ready-after", long).unwrap_err();
            assert!(e.contains("at most 10,000,000 s"), "{long}: {e}");
        }
    }

    #[test]
    fn presets_scenarios_and_manifests_are_told_apart() {
        let (s, _) = read_subject("rolling-basic", &ClusterModel::default()).unwrap();
        assert!(matches!(s, Subject::Scenario(_)));
        let (m, notes) = read_subject(
            r#"{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,
                "template":{"spec":{"containers":[{"name":"web","image":"nginx:1.14.2"}]}}}}"#,
            &ClusterModel::default(),
        )
        .unwrap();
        assert!(matches!(m, Subject::Manifest { .. }), "{notes:?}");
        let (out, _, _) = plan_subject(&m, &notes).unwrap();
        // No probes, pull 0 s: Ready as they start in round 0, the image set in round 1.
        assert_eq!(out.forecast.start_round, 1);
        assert_eq!(out.deployment, "web");
        assert!(out.model.is_some());
        let e = read_subject("{\"actions\": 3}", &ClusterModel::default()).unwrap_err();
        assert!(!e.is_empty());
    }
}
