//! The JavaScript API's planner, behind `plan()` and `sweep()` (`crate::api`): the same objects
//! as `rollout plan --json` and `rollout plan --sweep … --json`, for a preset id, a scenario
//! (object or JSON text) or a Deployment manifest (YAML or JSON text, or an object), a manifest
//! planned in the cluster model the options give (the CLI's flags, in camelCase).
//!
//! ```js
//! plan(manifestYaml, { pull: "30s", nodes: 3 })        // {startRound, completeRound, …}
//! plan(allInOneYaml, { deployment: "frontend" })       // one Deployment of several
//! sweep(manifestYaml, { maxSurge: "0..10", maxUnavailable: [0, 1, "25%"] },
//!       (done, total) => bar.value = done / total)      // [{settings, forecast, refused?}]
//! ```
//!
//! Bad input throws an `Error` with the API server's message or one naming the option; the
//! planner itself never panics on input.

use rollout_facade::plan::change::ChangeOutput;
use rollout_facade::plan::input::{plan_subject, read_subject_named, PlanOutput};
use rollout_facade::plan::manifest::{read_manifest_named, ClusterModel, ManifestDeployment};
use rollout_facade::plan::sweep::{parse_axis, Sweep, SweepRow};
use rollout_facade::plan::Subject;

/// The options `plan()` and `sweep()` take: the `rollout plan` flags in camelCase.
pub const OPTION_NAMES: [&str; 20] = [
    "deployment",
    "readyAfter",
    "pull",
    "appReady",
    "secondsPerRound",
    "nodes",
    "termination",
    "image",
    "badImage",
    "podQuota",
    "nodeCpu",
    "nodeMemory",
    "zones",
    "nodeList",
    "fail",
    "load",
    "podCapacity",
    "endpointDelay",
    "exitAfterSigterm",
    "preStop",
];

/// The cluster model options of `plan()` and `sweep()` (manifests only), as JavaScript gives
/// them: a plain object such as `{pull: "30s", nodes: 3, badImage: true}`, durations as
/// `"30s"`, `"1m30s"` or a number of seconds. Kept as the object itself: it goes to the
/// worker as it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelOptions(serde_json::Map<String, serde_json::Value>);

fn text_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn whole(name: &str, v: &serde_json::Value, min: i64) -> Result<i64, String> {
    match text_of(v).trim().parse::<i64>() {
        Ok(n) if n >= min && n <= i64::from(i32::MAX) => Ok(n),
        _ => Err(format!(
            "{name} {v}: expected a whole number of at least {min}"
        )),
    }
}

impl ModelOptions {
    /// Reads the options object (`null`: none); an unknown name is refused with the list.
    pub fn from_value(v: serde_json::Value) -> Result<ModelOptions, String> {
        match v {
            serde_json::Value::Null => Ok(ModelOptions::default()),
            serde_json::Value::Object(map) => {
                if let Some(k) = map.keys().find(|k| !OPTION_NAMES.contains(&k.as_str())) {
                    return Err(format!(
                        "Invalid plan options: unknown option `{k}`, expected one of {}",
                        OPTION_NAMES.join(", ")
                    ));
                }
                Ok(ModelOptions(map))
            }
            other => Err(format!(
                "Invalid plan options: expected an object, not {other}"
            )),
        }
    }

    /// These options with `name` set to `value`.
    pub fn with(mut self, name: &str, value: serde_json::Value) -> ModelOptions {
        self.0.insert(name.to_string(), value);
        self
    }

    /// An option's value, if given.
    pub fn get(&self, name: &str) -> Option<&serde_json::Value> {
        self.0.get(name)
    }

    /// The options as the plain object JavaScript gives.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::Value::Object(self.0.clone())
    }

    /// The options given, by name (a scenario takes none: it has its own model).
    pub fn given(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }

    /// The `deployment` option: which Deployment of a file of several is planned.
    pub fn deployment(&self) -> Result<Option<&str>, String> {
        match self.get("deployment") {
            None => Ok(None),
            Some(serde_json::Value::String(name)) if !name.trim().is_empty() => {
                Ok(Some(name.trim()))
            }
            Some(other) => Err(format!(
                "deployment {other}: expected the name of a Deployment in the manifest"
            )),
        }
    }

    /// The nodes' options (`rollout plan`'s `--node-cpu`, `--node-memory`, `--zones`,
    /// `--nodes-file`): `{nodeCpu: "1", nodeMemory: "4Gi", zones: 2}` or `{nodeList: [...]}`.
    fn node_sizes(&self, m: &mut ClusterModel) -> Result<(), String> {
        use rollout_facade::plan::scheduling as sched;
        let sizes = &mut m.node_sizes;
        if let Some(v) = self.get("nodeCpu") {
            sizes.cpu_millis = Some(sched::parse_size("nodeCpu", &text_of(v), true)?);
        }
        if let Some(v) = self.get("nodeMemory") {
            sizes.memory_bytes = Some(sched::parse_size("nodeMemory", &text_of(v), false)?);
        }
        if let Some(v) = self.get("zones") {
            sizes.zones = Some(sched::parse_zones("zones", &text_of(v))?);
        }
        if let Some(v) = self.get("nodeList") {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            sizes.list = Some(sched::read_nodes_text(&text).map_err(|e| format!("nodeList: {e}"))?);
            if let Some(other) = ["nodes", "nodeCpu", "nodeMemory", "zones"]
                .into_iter()
                .find(|k| self.get(k).is_some())
            {
                return Err(format!(
                    "{other} and nodeList: the list gives the nodes, sizes and labels; choose one"
                ));
            }
        }
        Ok(())
    }

    /// The `fail` option: how the new version's app fails, as `rollout plan --fail` and a
    /// scenario's `model.failures` name it (`crash:after=5s`, `probe:after=5s`,
    /// `readiness:from=30s,to=90s`, `slow:ready=45s`, `pull`); `None` when absent or empty. The
    /// message is the core's.
    pub fn failure(&self) -> Result<Option<rollout_facade::failures::AppFailure>, String> {
        match self.get("fail") {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(t)) if t.trim().is_empty() => Ok(None),
            Some(serde_json::Value::String(t)) => {
                rollout_facade::failures::AppFailure::parse(t.trim())
                    .map(Some)
                    .map_err(|e| format!("fail {e}"))
            }
            Some(other) => Err(format!(
                "fail {other}: expected a failure such as \"crash:after=5s\""
            )),
        }
    }

    /// The cluster model with the defaults of `rollout plan`; errors name the option.
    pub fn model(&self) -> Result<ClusterModel, String> {
        let duration = |name: &str, v: &serde_json::Value| {
            rollout_facade::plan::input::parse_duration(name, &text_of(v))
        };
        let mut m = ClusterModel::default();
        if let Some(v) = self.get("readyAfter") {
            m.ready_after_seconds = Some(duration("readyAfter", v)?);
        }
        if let Some(v) = self.get("pull") {
            m.pull_seconds = duration("pull", v)?;
        }
        if let Some(v) = self.get("appReady") {
            m.app_ready_seconds = duration("appReady", v)?;
        }
        if let Some(v) = self.get("secondsPerRound") {
            m.seconds_per_round = whole("secondsPerRound", v, 1)?;
        }
        if let Some(v) = self.get("nodes") {
            m.nodes = whole("nodes", v, 1)? as u32;
        }
        if let Some(v) = self.get("termination") {
            m.termination_seconds = Some(duration("termination", v)?);
        }
        if let Some(v) = self.get("image") {
            match v.as_str().map(str::trim) {
                Some(i) if !i.is_empty() => m.image = Some(i.to_string()),
                _ => return Err(format!("image {v}: expected an image name")),
            }
        }
        if let Some(v) = self.get("badImage") {
            m.bad_image = v
                .as_bool()
                .ok_or_else(|| format!("badImage {v}: expected true or false"))?;
        }
        if let Some(v) = self.get("podQuota") {
            m.pod_quota = Some(whole("podQuota", v, 0)? as i32);
        }
        self.node_sizes(&mut m)?;
        self.traffic(&mut m)?;
        Ok(m)
    }

    /// The traffic options (`rollout plan`'s `--load`, `--pod-capacity`, `--endpoint-delay`,
    /// `--exit-after-sigterm`, `--pre-stop`), in range: the core's messages name the option.
    fn traffic(&self, m: &mut ClusterModel) -> Result<(), String> {
        // An emptied field on the Plan page is the default, as it was never typed.
        let given = |name: &str| self.get(name).filter(|v| !text_of(v).trim().is_empty());
        let rate = |name: &str| -> Result<Option<i64>, String> {
            given(name)
                .map(|v| {
                    text_of(v).trim().parse::<i64>().map_err(|_| {
                        format!("{name} {v}: expected a whole number of requests a second")
                    })
                })
                .transpose()
        };
        let duration = |name: &str| -> Result<Option<i64>, String> {
            given(name)
                .map(|v| rollout_facade::plan::input::parse_duration(name, &text_of(v)))
                .transpose()
        };
        let t = &mut m.traffic;
        t.load = rate("load")?;
        t.pod_capacity = rate("podCapacity")?;
        t.endpoint_delay_seconds = duration("endpointDelay")?;
        t.exit_after_sigterm_seconds = duration("exitAfterSigterm")?;
        t.pre_stop_seconds = duration("preStop")?;
        t.model_named(0, &rollout_facade::plan::traffic::PLAN_OPTIONS)?;
        Ok(())
    }
}

/// How `plan()` and the Plan view ask for one Deployment of several.
pub const CHOOSE: &str =
    "choose one (the Plan view's Deployment menu, or plan(manifest, {deployment: \"NAME\"}))";

/// How `importManifest()` asks for one Deployment of several.
pub const CHOOSE_IMPORT: &str = "choose one with importManifest(manifest, {deployment: \"NAME\"})";

/// What is planned: `input` as text (a preset id, scenario JSON, a manifest in YAML or JSON)
/// or as a JSON value (a scenario or a manifest object), with the report's notes.
pub fn subject_of(
    input: &serde_json::Value,
    options: &ModelOptions,
) -> Result<(Subject, Vec<String>), String> {
    let model = options.model()?;
    let text = match input {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(_) => input.to_string(),
        serde_json::Value::Null => return Err("the scenario or manifest is missing".into()),
        other => {
            return Err(format!(
                "expected a scenario, a manifest or a preset id, not {other}"
            ))
        }
    };
    // A preset id is a name, not YAML; a manifest or scenario in YAML is read by the YAML
    // reader's module (crate::yaml_reader) and reaches the core as JSON.
    let name = options.deployment()?;
    let pick = rollout_facade::import::Pick { name, how: CHOOSE };
    let text = if rollout_facade::presets::preset(text.trim()).is_some() {
        text
    } else {
        crate::yaml_reader::read(&text, pick)?.into_owned()
    };
    let (subject, notes) = read_subject_named(&text, &model, pick)?;
    options.failure()?;
    let model_option = options
        .given()
        .into_iter()
        .find(|n| !matches!(*n, "deployment" | "fail"));
    if let (Subject::Scenario(s), Some(name)) = (&subject, model_option) {
        return Err(format!(
            "{name} describes the cluster of a manifest; scenario {:?} has its own model (edit its fields instead)",
            s.name
        ));
    }
    if let Subject::Scenario(s) = &subject {
        rollout_facade::limits::check_scenario(s).map_err(|e| format!("Invalid scenario: {e}"))?;
    }
    Ok((subject, notes))
}

/// `plan(input, options)`: the object `rollout plan --json` prints.
pub fn plan(input: &serde_json::Value, options: &ModelOptions) -> Result<PlanOutput, String> {
    let (subject, notes) = subject_of(input, options)?;
    plan_subject(&subject, &notes).map(|(out, _, _)| out)
}

/// Whether `input` is a change to plan: `{before, after}`, the live manifest and the new one.
pub fn is_change(input: &serde_json::Value) -> bool {
    input
        .as_object()
        .is_some_and(|o| o.len() == 2 && o.contains_key("before") && o.contains_key("after"))
}

/// One side of a change (`before` or `after`): its Deployment read for planning, and the
/// object as read.
fn change_side(
    v: &serde_json::Value,
    what: &str,
    options: &ModelOptions,
) -> Result<(ManifestDeployment, serde_json::Value), String> {
    let text = match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(_) => v.to_string(),
        other => return Err(format!("{what}: expected a manifest, not {other}")),
    };
    let pick = rollout_facade::import::Pick {
        name: options.deployment()?,
        how: CHOOSE,
    };
    let at = |e: String| format!("{what}: {e}");
    let read = crate::yaml_reader::read(&text, pick).map_err(at)?;
    let manifest = read_manifest_named(&read, pick).map_err(at)?;
    let (value, _, _) = rollout_facade::import::read_deployment(&read, pick).map_err(at)?;
    Ok((manifest, value))
}

/// `plan({before, after}, options)`: what `rollout plan OLD NEW --json` prints, the change
/// (`change.kind`: nothing, scale, rollout, rolloutAndScale, spec) with its forecast.
pub fn plan_change(
    input: &serde_json::Value,
    options: &ModelOptions,
) -> Result<ChangeOutput, String> {
    let model = options.model()?;
    let (old, old_value) = change_side(&input["before"], "before", options)?;
    let (new, new_value) = change_side(&input["after"], "after", options)?;
    rollout_facade::plan::change::plan_change(
        &old,
        &old_value,
        &new,
        &new_value,
        &model,
        &[],
        &rollout_facade::limits::Limits::PAGE,
    )
    .map(|(out, _, _)| out)
}

/// `plan(input, {fail})`'s `ifItFails`: the rollout where the new version fails as the `fail`
/// option says (`rollout_facade::plan::failure`), `None` without one.
pub fn if_it_fails(
    input: &serde_json::Value,
    options: &ModelOptions,
) -> Result<Option<rollout_facade::plan::failure::FailureForecast>, String> {
    let Some(failure) = options.failure()? else {
        return Ok(None);
    };
    let (subject, _) = subject_of(input, options)?;
    failure_of(&subject, &failure).map(Some)
}

/// The failure forecast of `subject` as planned (the page's limits).
pub fn failure_of(
    subject: &Subject,
    failure: &rollout_facade::failures::AppFailure,
) -> Result<rollout_facade::plan::failure::FailureForecast, String> {
    let scenario = subject.scenario(&rollout_facade::plan::sweep::Settings::default())?;
    rollout_facade::plan::failure::failure_forecast(
        &scenario,
        failure,
        &rollout_facade::limits::Limits::PAGE,
    )
}

/// The axes of a sweep, as `sweep()` takes them: `{maxSurge: "0..10", maxUnavailable: [0, 1,
/// "25%"]}` (an object, in the order given) or `["maxSurge=0..10", …]` (the CLI's values).
pub fn axes_of(axes: &serde_json::Value) -> Result<Vec<String>, String> {
    let item = |v: &serde_json::Value| match v {
        serde_json::Value::Array(items) => items.iter().map(text_of).collect::<Vec<_>>().join(","),
        other => text_of(other),
    };
    match axes {
        serde_json::Value::Object(map) => Ok(map
            .iter()
            .map(|(name, values)| format!("{name}={}", item(values)))
            .collect()),
        serde_json::Value::Array(list) => Ok(list.iter().map(text_of).collect()),
        serde_json::Value::String(s) => Ok(vec![s.clone()]),
        _ => Err(
            "axes: expected an object such as {maxSurge: \"0..10\", maxUnavailable: [0, 1, \"25%\"]}"
                .into(),
        ),
    }
}

/// A sweep ready to run: its subject and combinations, and the failure each is also
/// forecast under (the `fail` option).
pub struct Prepared {
    subject: Subject,
    sweep: Sweep,
    failure: Option<rollout_facade::failures::AppFailure>,
}

impl Prepared {
    /// Checks the input and the axes (at most 10,000 combinations …) before anything runs.
    pub fn new(
        input: &serde_json::Value,
        axes: &serde_json::Value,
        options: &ModelOptions,
    ) -> Result<Prepared, String> {
        let (subject, _) = subject_of(input, options)?;
        let specs = axes_of(axes)?
            .iter()
            .map(|a| parse_axis(a).map_err(|e| e.replacen("--sweep ", "sweep axis ", 1)))
            .collect::<Result<Vec<_>, _>>()?;
        let deployment = subject.deployment()?;
        let sweep =
            Sweep::new(specs, &deployment).map_err(|e| e.replacen("--sweep", "sweep", 1))?;
        let failure = options.failure()?;
        Ok(Prepared {
            subject,
            sweep,
            failure,
        })
    }

    /// How many combinations.
    pub fn len(&self) -> usize {
        self.sweep.len()
    }

    /// Whether there are none (never).
    pub fn is_empty(&self) -> bool {
        self.sweep.is_empty()
    }

    /// The `index`th combination's row (refused with the API's message, or forecast), with
    /// the rollout where the new version fails (`ifItFails`) when the sweep has a failure.
    pub fn row(&self, index: usize) -> SweepRow {
        let mut row = self.subject.sweep_row(self.sweep.settings(index));
        if let (Some(failure), Some(_)) = (&self.failure, &row.forecast) {
            row.if_it_fails = self
                .subject
                .scenario(&self.sweep.settings(index))
                .and_then(|s| {
                    rollout_facade::plan::failure::failure_forecast(
                        &s,
                        failure,
                        &rollout_facade::limits::Limits::PAGE,
                    )
                })
                .ok();
        }
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MANIFEST: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.14.2\n";

    #[test]
    fn a_sweep_with_a_failure_forecasts_each_combination_failing_too() {
        // 4 replicas, the new image cannot be pulled: with maxUnavailable 0 no old pod may go
        // (nothing lost); with 1, one old pod goes at once (1 of 4 lost).
        let o = ModelOptions::from_value(json!({"fail": "pull"})).unwrap();
        let p = Prepared::new(
            &json!(MANIFEST),
            &json!({"maxSurge": "1", "maxUnavailable": "0,1"}),
            &o,
        )
        .unwrap();
        let lost: Vec<Option<i32>> = (0..p.len())
            .map(|i| p.row(i).if_it_fails.map(|f| f.capacity_lost))
            .collect();
        assert_eq!(lost, [Some(0), Some(1)]);
        let row = serde_json::to_value(p.row(1)).unwrap();
        assert_eq!(row["ifItFails"]["capacityLost"], 1);
        // Without a failure the rows have none.
        let o = ModelOptions::from_value(json!({})).unwrap();
        let p = Prepared::new(&json!(MANIFEST), &json!({"maxSurge": "1"}), &o).unwrap();
        assert_eq!(p.row(0).if_it_fails, None);
    }

    #[test]
    fn node_options_size_the_nodes_as_the_cli_flags_do() {
        // 4 replicas asking 600m each on 3 nodes of 1 CPU: one pod a node, the 4th fits
        // nowhere and the rollout never completes; with 4 nodes it does.
        let m = MANIFEST.replace(
            "image: nginx:1.14.2\n",
            "image: nginx:1.14.2\n        resources: {requests: {cpu: 600m}}\n",
        );
        let o = ModelOptions::from_value(json!({"nodeCpu": "1"})).unwrap();
        let out = plan(&json!(m), &o).unwrap();
        assert_eq!(out.forecast.complete_round, None);
        assert_eq!(
            out.unschedulable.map(|u| u.message).as_deref(),
            Some("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..")
        );
        let o = ModelOptions::from_value(json!({"nodeCpu": 1, "nodes": 5})).unwrap();
        assert!(plan(&json!(m), &o)
            .unwrap()
            .forecast
            .complete_round
            .is_some());
        let list = json!([{"name": "a", "cpu": "2"}, {"name": "b", "cpu": "2"}, {"name": "c", "cpu": "2"}]);
        let o = ModelOptions::from_value(json!({ "nodeList": list })).unwrap();
        let out = plan(&json!(m), &o).unwrap();
        assert_eq!(out.model.map(|m| m.nodes), Some(3));
        for (bad, says) in [
            (
                json!({"nodeCpu": "lots"}),
                "nodeCpu \"lots\": quantities must match",
            ),
            (json!({"zones": 27}), "zones \"27\": expected 1 to 26 zones"),
            (
                json!({"nodeList": list, "nodes": 3}),
                "nodes and nodeList: ",
            ),
        ] {
            let e = plan(&json!(m), &ModelOptions::from_value(bad).unwrap()).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn the_deployment_option_chooses_one_of_several() {
        let two = format!("{MANIFEST}---\n{}", MANIFEST.replace("web", "api"));
        let e = plan(&json!(two), &ModelOptions::default()).unwrap_err();
        assert!(
            e.starts_with("the manifest holds 2 Deployments: web, api; choose one"),
            "{e}"
        );
        let o = ModelOptions::from_value(json!({"deployment": "api"})).unwrap();
        let out = plan(&json!(two), &o).unwrap();
        assert_eq!(out.deployment, "api");
        assert!(
            out.warnings[0].starts_with("read Deployment \"api\" (document 2)"),
            "{:?}",
            out.warnings
        );
        let o = ModelOptions::from_value(json!({"deployment": 3})).unwrap();
        assert!(plan(&json!(two), &o)
            .unwrap_err()
            .starts_with("deployment 3"));
    }

    /// 4 replicas at the apps/v1 defaults: maxSurge 25% of 4 = 1 (rounded up), maxUnavailable
    /// 25% of 4 = 1 (rounded down), so one old pod goes at once and the new pods, crashing 5 s
    /// after each start, before their readiness probe's first run past its 10 s delay, never
    /// replace it: 4 − 1 = 3 available at the lowest, 1 lost. With maxUnavailable 0 no old pod
    /// may go: nothing lost. Either way the deadline (progressDeadlineSeconds 600) is reported
    /// more than 600 s after the image is set.
    #[test]
    fn the_fail_option_adds_the_failing_rollout() {
        let o = ModelOptions::from_value(json!({"fail": "crash:after=5s"})).unwrap();
        let probed = MANIFEST.replace(
            "image: nginx:1.14.2\n",
            "image: nginx:1.14.2\n        readinessProbe: {initialDelaySeconds: 10}\n",
        );
        let f = if_it_fails(&json!(probed), &o).unwrap().unwrap();
        assert_eq!((f.replicas, f.min_available, f.capacity_lost), (4, 3, 1));
        assert!(f.deadline_exceeded_seconds.unwrap() > 600, "{f:?}");
        let held = probed.replace(
            "  replicas: 4\n",
            "  replicas: 4\n  strategy:\n    rollingUpdate: {maxUnavailable: 0}\n",
        );
        let f = if_it_fails(&json!(held), &o).unwrap().unwrap();
        assert_eq!((f.min_available, f.capacity_lost), (4, 0));
        // The forecast of the rollout that works is unchanged by the option.
        assert_eq!(
            plan(&json!(MANIFEST), &o).unwrap().forecast,
            plan(&json!(MANIFEST), &ModelOptions::default())
                .unwrap()
                .forecast
        );
        assert_eq!(
            if_it_fails(&json!(MANIFEST), &ModelOptions::default()).unwrap(),
            None
        );
        let bad = ModelOptions::from_value(json!({"fail": "explode"})).unwrap();
        let e = if_it_fails(&json!(MANIFEST), &bad).unwrap_err();
        assert!(
            e.starts_with("fail \"explode\": unknown failure `explode`"),
            "{e}"
        );
    }

    #[test]
    fn options_are_the_cli_flags() {
        let o = ModelOptions::from_value(json!({"readyAfter": "1m", "nodes": 2,
            "termination": 0, "badImage": true}))
        .unwrap();
        let m = o.model().unwrap();
        assert_eq!((m.ready_after_seconds, m.nodes), (Some(60), 2));
        assert_eq!(m.termination_seconds, Some(0));
        assert!(m.bad_image);
        let bad = ModelOptions::from_value(json!({"readyAfter": "soon"})).unwrap();
        assert!(bad.model().unwrap_err().starts_with("readyAfter \"soon\""));
        let bad = ModelOptions::from_value(json!({"nodes": 0})).unwrap();
        assert!(bad.model().unwrap_err().starts_with("nodes 0"));
        let e = ModelOptions::from_value(json!({"frobnicate": 1})).unwrap_err();
        assert!(e.contains("unknown option `frobnicate`"), "{e}");
        let bad = ModelOptions::from_value(json!({"badImage": "yes"})).unwrap();
        assert!(bad.model().unwrap_err().starts_with("badImage"));
        let o = ModelOptions::from_value(json!({"pull": "12s", "appReady": 45})).unwrap();
        let m = o.model().unwrap();
        assert_eq!((m.pull_seconds, m.app_ready_seconds), (12, 45));
        let bad = ModelOptions::from_value(json!({"pull": "soon"})).unwrap();
        assert!(bad.model().unwrap_err().starts_with("pull \"soon\""));
        // An emptied traffic field is the default.
        let o = ModelOptions::from_value(json!({"load": "", "preStop": " "})).unwrap();
        assert_eq!(
            o.model().unwrap().traffic,
            rollout_facade::plan::traffic::TrafficFlags::default()
        );
        // The traffic options, as the CLI's flags, refused by their own names.
        let o = ModelOptions::from_value(
            json!({"load": 40, "podCapacity": "20", "endpointDelay": "2s", "preStop": 5}),
        )
        .unwrap();
        let t = o.model().unwrap().traffic.model(0).unwrap();
        assert_eq!(
            (
                t.load,
                t.pod_capacity,
                t.endpoint_delay_seconds,
                t.pre_stop_sleep_seconds
            ),
            (40, Some(20), 2, 5)
        );
        for (options, message) in [
            (json!({"load": 0}), "load: 0 is not a rate"),
            (json!({"load": -40}), "load: -40 is not a rate"),
            (
                json!({"podCapacity": "lots"}),
                "podCapacity \"lots\": expected a whole number",
            ),
            (json!({"exitAfterSigterm": "2 days"}), "exitAfterSigterm"),
            (
                json!({"endpointDelay": 90000}),
                "endpointDelay: 90000 s is outside",
            ),
        ] {
            let e = ModelOptions::from_value(options)
                .unwrap()
                .model()
                .unwrap_err();
            assert!(e.starts_with(message), "{e}");
        }
    }

    #[test]
    fn before_and_after_plan_the_change() {
        let after = MANIFEST.replace("replicas: 4", "replicas: 5");
        assert_ne!(after, MANIFEST, "the manifest says replicas: 4");
        let input = json!({"before": MANIFEST, "after": after});
        assert!(is_change(&input));
        let out = plan_change(&input, &ModelOptions::default()).unwrap();
        assert_eq!(out.change.kind, "scale");
        assert_eq!(
            out.change.spec_fields,
            vec!["spec.replicas: 4 → 5".to_string()]
        );
        let e = plan_change(
            &json!({"before": 3, "after": MANIFEST}),
            &ModelOptions::default(),
        )
        .unwrap_err();
        assert!(e.starts_with("before: expected a manifest"), "{e}");
    }

    #[test]
    fn a_manifest_is_planned_in_the_model_and_a_scenario_takes_no_model() {
        let out = plan(&json!(MANIFEST), &ModelOptions::default()).unwrap();
        // No probes, pull 0 s (the defaults): Ready as they start in round 0, image in 1.
        assert_eq!(out.forecast.start_round, 1);
        let slow = ModelOptions::default().with("pull", json!("30s"));
        // Pulled in 30 s: Ready in round 30, image in 31.
        assert_eq!(
            plan(&json!(MANIFEST), &slow).unwrap().forecast.start_round,
            31
        );
        assert!(out.forecast.complete_round.is_some());
        let o = ModelOptions::default().with("nodes", json!(2));
        let e = plan(&json!("rolling-basic"), &o).unwrap_err();
        assert!(
            e.starts_with("nodes describes the cluster of a manifest"),
            "{e}"
        );
        let e = plan(
            &json!("kind: Deployment\nspec: {replicas: -1}"),
            &ModelOptions::default(),
        )
        .unwrap_err();
        assert!(!e.is_empty());
    }

    #[test]
    fn sweeps_refuse_both_zero_with_the_api_message_and_malformed_axes_by_name() {
        let p = Prepared::new(
            &json!(MANIFEST),
            &json!({"maxSurge": "0..1", "maxUnavailable": [0, "25%"]}),
            &ModelOptions::default(),
        )
        .unwrap();
        assert_eq!(p.len(), 4);
        let first = p.row(0);
        assert!(first
            .refused
            .unwrap()
            .contains("may not be 0 when `maxSurge` is 0"));
        assert!(p.row(3).forecast.is_some());
        let e = Prepared::new(
            &json!(MANIFEST),
            &json!({"maxSurge": "1..x"}),
            &ModelOptions::default(),
        )
        .err()
        .unwrap();
        assert!(e.starts_with("sweep axis maxSurge=1..x"), "{e}");
    }
}
