//! Import and export, as pure functions: whether pasted or dropped text is a Deployment
//! manifest (as `kubectl get deployment NAME -o yaml|json` prints it) and the scenario it
//! starts; the trace as JSON; the pod-count chart as a standalone SVG file.

use crate::chart::{fmt, geometry, x_title, Series, HEIGHT, WIDTH};
use crate::state::{default_scenario, importable};
use rollout_facade::import::{import_named, Pick};
use rollout_facade::scenario::{Action, ActionKind, Scenario};
use rollout_facade::sim::Simulation;
use rollout_facade::view::ChartPoint;
use serde_json::Value;

/// What an import starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// The scenario.
    pub scenario: Scenario,
    /// What to tell the user (what was read, and what was left out).
    pub notice: String,
}

/// Whether text is a Kubernetes object rather than a scenario: JSON with `kind` or
/// `apiVersion`, or anything that is not JSON at all (YAML).
pub fn looks_like_manifest(text: &str) -> bool {
    let t = text.trim_start();
    if !t.starts_with('{') {
        return !t.is_empty();
    }
    match serde_json::from_str::<Value>(t) {
        Ok(v) => v.get("kind").is_some() || v.get("apiVersion").is_some(),
        Err(_) => false,
    }
}

/// A scenario from a manifest: the app's default cluster model and a create of the manifest's
/// Deployment, nothing else queued.
/// The error names what is wrong (not a Deployment, a missing field, more replicas than the app
/// simulates …).
pub fn scenario_from_manifest(text: &str) -> Result<Import, String> {
    scenario_from_manifest_named(
        text,
        Pick {
            name: None,
            how: "paste the one to import on its own, or choose it in the Plan view",
        },
    )
}

/// [`scenario_from_manifest`] of the Deployment `pick` names in a file of several objects.
pub fn scenario_from_manifest_named(text: &str, pick: Pick<'_>) -> Result<Import, String> {
    let imported = import_named(&crate::yaml_reader::read(text, pick)?, pick)?;
    let mut s = default_scenario();
    let d = imported.deployment;
    let summary = format!(
        "Imported Deployment \"{}\": {} replica{} of {}{}.",
        d.name,
        d.replicas.unwrap_or(1),
        if d.replicas.unwrap_or(1) == 1 {
            ""
        } else {
            "s"
        },
        d.image,
        match d.defaulted_strategy() {
            Some(rollout_facade::api::DeploymentStrategy::Recreate) => ", Recreate".to_string(),
            Some(rollout_facade::api::DeploymentStrategy::RollingUpdate {
                max_surge,
                max_unavailable,
            }) => format!(
                ", RollingUpdate with maxSurge {} and maxUnavailable {}",
                max_surge.map(|v| v.to_string()).unwrap_or_default(),
                max_unavailable.map(|v| v.to_string()).unwrap_or_default()
            ),
            None => String::new(),
        }
    );
    s.name = d.name.clone();
    s.actions = vec![Action {
        round: 0,
        kind: ActionKind::Create { deployment: d },
    }];
    // Requests and placement rules go to the scheduler (on the default nodes).
    if let Some(extra) = rollout_facade::plan::scheduling::imported_model(&imported.scheduling) {
        s.model.get_or_insert_with(Default::default).scheduling = extra.scheduling;
    }
    importable(&s).map_err(|e| e.replace("That scenario", "That Deployment"))?;
    let read = imported
        .notes
        .iter()
        .map(|n| format!(" Note: {n}."))
        .collect::<String>();
    let notice = if imported.unsupported.is_empty() {
        format!("{summary}{read} Status, managedFields and the other fields a cluster adds were ignored.")
    } else {
        format!(
            "{summary}{read} Not modelled, so left out: {}.",
            imported.unsupported.join("; ")
        )
    };
    Ok(Import {
        scenario: s,
        notice,
    })
}

/// What the import box (or the API's `importText`) makes of text: a Deployment manifest (YAML
/// or JSON, as kubectl prints it) becomes a scenario that creates its Deployment; anything
/// else must be a scenario. Returns the scenario as JSON text and what to tell the user.
pub fn import_text(text: &str) -> Result<(String, String), String> {
    if looks_like_manifest(text) {
        let import = scenario_from_manifest(text)
            .map_err(|e| format!("Could not read that manifest: {e}"))?;
        let json = serde_json::to_string_pretty(&import.scenario).map_err(|e| e.to_string())?;
        Ok((json, import.notice))
    } else {
        let s =
            Scenario::from_json(text).map_err(|e| format!("Could not read that scenario: {e}"))?;
        importable(&s)?;
        Ok((
            text.to_string(),
            "Scenario imported: step through it, or Reset.".to_string(),
        ))
    }
}

/// The trace of the session so far, in the conformance format (what `rollout trace` prints
/// for the exported scenario, up to the current round).
pub fn trace_json(sim: &Simulation) -> String {
    serde_json::to_string_pretty(&sim.trace()).unwrap_or_default()
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The pod-count chart as a standalone SVG document (light colours, fonts and styles inline),
/// the same drawing the page shows.
pub fn chart_svg(points: &[ChartPoint], horizon: u32, band: bool, title: &str) -> String {
    let g = geometry(points, horizon);
    let (x0, _y0, x1, y1) = g.frame;
    let legend_h = 26.0;
    let (w, h) = (WIDTH, HEIGHT + legend_h);
    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif\" font-size=\"11\">\n",
        w as i64,
        h as i64,
        (w * 2.0) as i64,
        (h * 2.0) as i64
    ));
    out.push_str(&format!("<title>{}</title>\n", xml(title)));
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    out.push_str("<defs><pattern id=\"band-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#7c8cf0\" stroke-opacity=\"0.35\" stroke-width=\"3\"/></pattern></defs>\n");
    for (y, label) in &g.y_ticks {
        out.push_str(&format!(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#dde2ec\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#586277\">{}</text>\n",
            fmt(x0), fmt(x1), fmt(*y), fmt(*y), fmt(x0 - 6.0), fmt(y + 4.0), xml(label)
        ));
    }
    for (x, label) in &g.x_ticks {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#586277\">{}</text>\n",
            fmt(*x),
            fmt(y1 + 16.0),
            xml(label)
        ));
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#586277\">{}</text>\n<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#586277\"/>\n",
        fmt((x0 + x1) / 2.0), fmt(y1 + 28.0), x_title(points, horizon), fmt(x0), fmt(x1), fmt(y1), fmt(y1)
    ));
    if band && !points.is_empty() {
        out.push_str(&format!(
            "<polygon points=\"{}\" fill=\"url(#band-hatch)\"/>\n<polyline points=\"{}\" fill=\"none\" stroke=\"#7c8cf0\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n<polyline points=\"{}\" fill=\"none\" stroke=\"#7c8cf0\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
            g.band, g.upper, g.lower
        ));
    }
    let style = |s: Series| match s {
        Series::Total => ("#141a26", "3", ""),
        Series::Available => ("#1f9162", "2.2", ""),
        Series::Old => ("#d98a00", "2.2", "7 4"),
        Series::New => ("#2f6fe0", "2.6", "2 3"),
    };
    for (s, pts) in &g.lines {
        let (color, width, dash) = style(*s);
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        out.push_str(&format!(
            "<polyline points=\"{pts}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{width}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"{dash}><title>{}</title></polyline>\n",
            s.label()
        ));
    }
    // The legend, under the plot.
    let mut x = x0;
    let ly = HEIGHT + legend_h / 2.0;
    for s in Series::ALL {
        let (color, width, dash) = style(s);
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        out.push_str(&format!(
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"{color}\" stroke-width=\"{width}\"{dash}/><text x=\"{}\" y=\"{}\" fill=\"#141a26\">{}</text>\n",
            fmt(x), fmt(x + 18.0), fmt(ly), fmt(ly), fmt(x + 22.0), fmt(ly + 4.0), s.label()
        ));
        x += 26.0 + 5.6 * s.label().len() as f64;
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rollout_facade::view::chart_series;

    const MANIFEST: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"shop","namespace":"default","uid":"1","managedFields":[{"manager":"kubectl"}]},
        "spec":{"replicas":4,"selector":{"matchLabels":{"app":"shop"}},
          "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":0}},
          "template":{"metadata":{"labels":{"app":"shop"}},"spec":{"containers":[
            {"name":"shop","image":"shop:2.1"},{"name":"sidecar","image":"envoy:1.30"}]}}},
        "status":{"replicas":4,"readyReplicas":4}}"#;

    #[test]
    fn manifests_and_scenarios_are_told_apart() {
        assert!(looks_like_manifest(MANIFEST));
        assert!(looks_like_manifest(
            "apiVersion: apps/v1\nkind: Deployment\n"
        ));
        assert!(!looks_like_manifest(r#"{"rounds": 3, "actions": []}"#));
        assert!(!looks_like_manifest("{ broken"));
        assert!(!looks_like_manifest("  "));
    }

    #[test]
    fn a_manifest_starts_a_scenario_and_reports_what_it_left_out() {
        let i = scenario_from_manifest(MANIFEST).unwrap();
        assert!(i.notice.starts_with("Imported Deployment \"shop\": 4 replicas of shop:2.1, RollingUpdate with maxSurge 1 and maxUnavailable 0."), "{}", i.notice);
        assert!(i.notice.contains("sidecar"), "{}", i.notice);
        let create = crate::settings::first_create(&i.scenario).unwrap();
        assert_eq!(create.name, "shop");
        assert_eq!(i.scenario.actions.len(), 1);
        assert_eq!(i.scenario.nodes, default_scenario().nodes);
        assert!(i.scenario.settle, "an imported manifest is settled");
        assert_eq!(i.scenario.seconds_per_round, 1);
        let mut sim = Simulation::new(i.scenario);
        sim.run();
        assert!(sim.trace().rounds.last().unwrap().errors.is_empty());
    }

    #[test]
    fn an_imported_manifests_placement_rules_go_to_the_scheduler() {
        // 4 replicas, one a node by hostname anti-affinity, on the app's nodes: the pods the
        // nodes cannot take stay Pending with the scheduler's text.
        let ha = MANIFEST.replace(
            r#""spec":{"containers":["#,
            r#""spec":{"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
                {"labelSelector":{"matchLabels":{"app":"shop"}},"topologyKey":"kubernetes.io/hostname"}]}},
                "containers":["#,
        );
        assert_ne!(ha, MANIFEST);
        let i = scenario_from_manifest(&ha).unwrap();
        assert!(!i.notice.contains("affinity"), "{}", i.notice);
        let model = i.scenario.model.clone().and_then(|m| m.scheduling);
        assert_eq!(model.map(|m| m.pod.pod_anti_affinity.len()), Some(1));
        // The app's 3 nodes take 3 of the 4 pods.
        assert_eq!(i.scenario.nodes, 3);
        let mut sim = Simulation::new(i.scenario);
        sim.run();
        let pending: Vec<_> = sim
            .api()
            .pods()
            .filter(|p| p.node_name.is_empty())
            .collect();
        assert_eq!(pending.len(), 1);
        for p in pending {
            assert!(p
                .unschedulable_message()
                .unwrap()
                .contains("didn't match pod anti-affinity rules"));
        }
    }

    #[test]
    fn import_errors_name_the_problem() {
        let e = scenario_from_manifest(
            r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"x"}}"#,
        )
        .unwrap_err();
        assert_eq!(e, "kind is Service; Rollout Lab reads a Deployment");
        let big = MANIFEST.replace(r#""replicas":4,"#, r#""replicas":40000,"#);
        let e = scenario_from_manifest(&big).unwrap_err();
        assert!(e.starts_with("That Deployment cannot be shown"), "{e}");
    }

    #[test]
    fn the_chart_exports_as_a_standalone_svg() {
        let mut sim = Simulation::new(
            rollout_facade::presets::preset("rolling-basic")
                .unwrap()
                .scenario,
        );
        sim.run();
        let points = chart_series(&sim, "web");
        let svg = chart_svg(
            &points,
            sim.scenario().rounds,
            true,
            "Pods over time: web & co",
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("<title>Pods over time: web &amp; co</title>"));
        assert_eq!(
            svg.matches("<polyline").count(),
            6,
            "4 series and 2 band edges"
        );
        assert!(
            !svg.contains("var(--"),
            "no CSS variables: the file stands alone"
        );
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
