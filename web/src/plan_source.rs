//! What the Plan page (`?view=plan`, `components::plan_view`) computes: what `kubectl set image` will do to the Deployment in a
//! manifest, before it is applied. The manifest starts as the settings panel's Deployment and
//! follows it until edited; from then on the user's text is never rewritten: a heat map cell
//! and the settings panel's changes edit only the values they set, in place
//! (`rollout_facade::yaml_edit`), and the settings' changes wait for "Apply". Every keystroke
//! forecasts again (`hooks::use_forecast`); the sweep runs in a worker
//! (`components::sweep_panel`); "Watch it" opens the same Deployment on the stage.
//!
//! The cluster model is `rollout plan`'s, with its defaults (`ClusterModel::default()`: pull
//! 0 s, app ready 0 s, the termination from the manifest's `terminationGracePeriodSeconds`,
//! 3 nodes, 1 s settled rounds), so the page forecasts a manifest exactly as the CLI and
//! `plan()` do; the page's assumptions change it, each an option of `plan()`.

use crate::plan_api::ModelOptions;
use rollout_facade::api::{DeploymentStrategy, IntOrString};
use rollout_facade::scenario::{ActionKind, DeploymentInput, Scenario};
use serde_json::{json, Value};

/// The path of `maxSurge` in a Deployment manifest.
pub const MAX_SURGE: &[&str] = &["spec", "strategy", "rollingUpdate", "maxSurge"];
/// The path of `maxUnavailable` in a Deployment manifest.
pub const MAX_UNAVAILABLE: &[&str] = &["spec", "strategy", "rollingUpdate", "maxUnavailable"];

/// One value to set in the manifest: its path and value.
pub type Change = (&'static [&'static str], IntOrString);

/// The settings' Deployment as YAML, as `kubectl get -o yaml` writes it (keys sorted).
pub fn manifest_of(d: &DeploymentInput) -> String {
    rollout_facade::yaml::text(&rollout_facade::yaml::lines(
        &rollout_facade::plan::manifest::manifest_value(d),
    ))
}

/// What the Plan page plans for the manifest as typed: while it is the settings' own manifest,
/// that manifest's object ([`rollout_facade::plan::manifest::manifest_value`]); else the text, which is read (YAML through
/// the YAML reader's module, loaded when the text is first edited).
pub fn plan_input(text: &str, generated: &str, generated_value: Option<&Value>) -> Value {
    match generated_value {
        Some(v) if text == generated => v.clone(),
        _ => Value::String(text.to_string()),
    }
}

/// The Deployment a scenario creates.
pub fn created(s: &Scenario) -> Option<&DeploymentInput> {
    s.actions.iter().find_map(|a| match &a.kind {
        ActionKind::Create { deployment } => Some(deployment),
        _ => None,
    })
}

/// The settings' Deployment, and the cluster model the Plan page starts from: `rollout
/// plan`'s defaults (no option given), the same for a manifest typed or pasted here, read by
/// the CLI or given to `plan()`. The settings panel's stage timing (pods ready after a round,
/// a 3 s termination) is the stage's teaching model, not an assumption about this manifest.
pub fn source_of(s: &Scenario) -> Option<(String, ModelOptions)> {
    let d = created(s)?;
    let mut model = ModelOptions::default();
    // The settings' failing image (issue #34): the Plan page asks what that failure costs.
    if let Some((_, f)) = s
        .model
        .as_ref()
        .and_then(|m| m.failures.as_ref())
        .and_then(|f| f.images.first())
    {
        model = model.with("fail", json!(f.text()));
    }
    Some((manifest_of(d), model))
}

/// The deployment's maxSurge and maxUnavailable as counts (`ResolveFenceposts` after apps/v1
/// defaulting): 25% / 25% of 3 replicas is 1 and 0; `None` for Recreate.
pub fn current_cell(d: &DeploymentInput) -> Option<(i32, i32)> {
    let Some(DeploymentStrategy::RollingUpdate {
        max_surge,
        max_unavailable,
    }) = d.defaulted_strategy()
    else {
        return None;
    };
    rollout_facade::view::rolling_bounds(
        d.replicas.unwrap_or(1),
        max_surge.as_ref(),
        max_unavailable.as_ref(),
    )
    .ok()
    .map(|b| {
        // ResolveFenceposts turns 0 / 0 into 0 / 1; the cell is the settings as written.
        if b.zero_rule && max_unavailable == Some(IntOrString::Int(0)) {
            (0, 0)
        } else {
            (b.surge, b.unavailable)
        }
    })
}

/// The values the settings panel sets in a manifest, by path.
fn values_of(d: &DeploymentInput) -> [(&'static [&'static str], Option<IntOrString>); 5] {
    let (surge, unavailable) = match d.defaulted_strategy() {
        Some(DeploymentStrategy::RollingUpdate {
            max_surge,
            max_unavailable,
        }) => (max_surge, max_unavailable),
        _ => (None, None),
    };
    let int = |v: Option<i32>| v.map(IntOrString::Int);
    [
        (&["spec", "replicas"], int(d.replicas)),
        (&["spec", "minReadySeconds"], int(d.min_ready_seconds)),
        (
            &["spec", "progressDeadlineSeconds"],
            int(d.progress_deadline_seconds),
        ),
        (MAX_SURGE, surge),
        (MAX_UNAVAILABLE, unavailable),
    ]
}

/// What the settings panel changed from `seen` to `now` that the manifest does not already
/// say: replicas 3 → 5 on a manifest of 12 is `spec.replicas: 5`.
pub fn settings_changes(
    seen: &DeploymentInput,
    now: &DeploymentInput,
    manifest: Option<&DeploymentInput>,
) -> Vec<Change> {
    let (before, in_text) = (values_of(seen), manifest.map(values_of));
    values_of(now)
        .into_iter()
        .enumerate()
        .filter_map(|(i, (path, v))| {
            let v = v?;
            let differs = Some(&v) != before[i].1.as_ref()
                && in_text.as_ref().is_none_or(|m| m[i].1.as_ref() != Some(&v));
            differs.then_some((path, v))
        })
        .collect()
}

/// `text` with `changes` made in place (the Deployment named `deployment` in a manifest of
/// several); `Err` names what could not be edited, and nothing is changed then.
pub fn with_values(
    text: &str,
    deployment: Option<&str>,
    changes: &[Change],
) -> Result<String, String> {
    changes.iter().try_fold(text.to_string(), |t, (path, v)| {
        rollout_facade::yaml_edit::set_value(&t, deployment, path, v)
    })
}

/// The settings' model with this page's assumptions over it (an empty one: the settings').
pub fn with_overrides(model: &ModelOptions, overrides: &ModelOptions) -> ModelOptions {
    let mut m = model.clone();
    if let Value::Object(o) = overrides.to_value() {
        for (k, v) in o {
            if v != json!("") {
                m = m.with(&k, v);
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::use_forecast::{forecast_cost, PAGE_FORECAST_LIMIT};

    #[test]
    fn the_settings_become_a_manifest_the_planner_reads() {
        let s = crate::state::default_scenario();
        let (text, model) = source_of(&s).unwrap();
        assert!(text.contains("maxSurge: 25%"), "{text}");
        let out = crate::plan_api::plan(&Value::String(text.clone()), &model).unwrap();
        // `rollout plan`'s defaults, no option: 3 replicas without probes, pull 0 s, Ready as
        // they start in round 0; the image is set in round 1.
        assert!(model.given().is_empty());
        assert_eq!(out.forecast.start_round, 1);
        assert!(out.forecast.complete_round.is_some());
        let loaded = with_values(
            &text,
            None,
            &[
                (MAX_SURGE, IntOrString::Int(2)),
                (MAX_UNAVAILABLE, IntOrString::Int(0)),
            ],
        )
        .unwrap();
        let (subject, _) = crate::plan_api::subject_of(&Value::String(loaded), &model).unwrap();
        assert_eq!(current_cell(&subject.deployment().unwrap()), Some((2, 0)));
    }

    /// A cell loaded into a person's manifest: 12 replicas and flow style stay, only the two
    /// values change.
    #[test]
    fn a_cell_edits_only_its_two_values() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 12\n  selector: {matchLabels: {app: web}}\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n";
        let out = with_values(
            text,
            None,
            &[
                (MAX_SURGE, IntOrString::Int(3)),
                (MAX_UNAVAILABLE, IntOrString::Int(2)),
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            text.replace(
                "maxSurge: 1, maxUnavailable: 0",
                "maxSurge: 3, maxUnavailable: 2"
            )
        );
        let model = ModelOptions::default();
        let (subject, _) = crate::plan_api::subject_of(&Value::String(out), &model).unwrap();
        let d = subject.deployment().unwrap();
        assert_eq!((d.replicas, current_cell(&d)), (Some(12), Some((3, 2))));
    }

    #[test]
    fn settings_changes_are_what_moved_and_the_manifest_lacks() {
        let seen = created(&crate::state::default_scenario()).unwrap().clone();
        let mut now = seen.clone();
        now.replicas = Some(5);
        now.strategy = Some(rollout_facade::scenario::StrategyInput {
            max_surge: Some(IntOrString::Int(2)),
            ..Default::default()
        });
        let changes = settings_changes(&seen, &now, None);
        assert_eq!(
            changes,
            vec![
                (&["spec", "replicas"][..], IntOrString::Int(5)),
                (MAX_SURGE, IntOrString::Int(2))
            ]
        );
        // A manifest that already has 5 replicas needs only maxSurge.
        let mut manifest = seen.clone();
        manifest.replicas = Some(5);
        assert_eq!(settings_changes(&seen, &now, Some(&manifest)).len(), 1);
        assert!(settings_changes(&seen, &seen, None).is_empty());
    }

    #[test]
    fn the_settings_manifest_object_is_what_its_yaml_reads_as() {
        let mut d = created(&crate::state::default_scenario()).unwrap().clone();
        let check = |d: &DeploymentInput| {
            let text = manifest_of(d);
            let read = rollout_facade::import::parse_manifest(&text).unwrap();
            assert_eq!(
                read,
                rollout_facade::plan::manifest::manifest_value(d),
                "{text}"
            );
            let input = plan_input(
                &text,
                &text,
                Some(&rollout_facade::plan::manifest::manifest_value(d)),
            );
            assert!(input.is_object());
        };
        check(&d);
        // Numbers-as-text stay text ("2" is quoted), counts stay numbers.
        d.template_labels = Some(
            [
                ("app".to_string(), "web".to_string()),
                ("v".to_string(), "2".to_string()),
            ]
            .into_iter()
            .collect(),
        );
        d.min_ready_seconds = Some(5);
        d.progress_deadline_seconds = Some(600);
        d.strategy = Some(rollout_facade::scenario::StrategyInput {
            type_: Some("RollingUpdate".into()),
            max_surge: Some(IntOrString::Int(2)),
            max_unavailable: Some(IntOrString::from("10%")),
            ..Default::default()
        });
        check(&d);
        d.strategy = Some(rollout_facade::scenario::StrategyInput {
            type_: Some("Recreate".into()),
            ..Default::default()
        });
        check(&d);
        // Text that is not the settings' manifest is planned as text.
        assert_eq!(
            plan_input("x", "y", Some(&json!({}))),
            Value::String("x".into())
        );
    }

    #[test]
    fn the_current_cell_is_the_settings_as_counts() {
        let (text, model) = source_of(&crate::state::default_scenario()).unwrap();
        let (subject, _) = crate::plan_api::subject_of(&Value::String(text), &model).unwrap();
        // 25% of 3: surge rounds up to 1, unavailable down to 0.
        assert_eq!(current_cell(&subject.deployment().unwrap()), Some((1, 0)));
    }

    #[test]
    fn big_slow_rollouts_cost_more_than_the_page_forecasts() {
        let d = |replicas: i32, surge: i32, unavailable: i32| DeploymentInput {
            name: "web".into(),
            replicas: Some(replicas),
            image: "a".into(),
            strategy: Some(rollout_facade::scenario::StrategyInput {
                max_surge: Some(IntOrString::Int(surge)),
                max_unavailable: Some(IntOrString::Int(unavailable)),
                ..Default::default()
            }),
            ..DeploymentInput::default()
        };
        // 100 replicas one at a time: 100 waves of 100 pods, on the page.
        assert_eq!(forecast_cost(&d(100, 1, 0)), 10_300);
        assert!(forecast_cost(&d(250, 1, 0)) > PAGE_FORECAST_LIMIT);
        // 10,000 replicas in waves of 2,500 + 2,500: 2 waves, but 10,000 pods: the worker.
        assert_eq!(forecast_cost(&d(10_000, 2_500, 2_500)), 50_000);
        assert!(forecast_cost(&d(3, 1, 0)) < 100);
    }
}
