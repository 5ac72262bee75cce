//! `rollout plan OLD.yaml NEW.yaml`: what `kubectl apply -f NEW.yaml` does to the Deployment
//! OLD.yaml made (nothing, a scale, a rollout, both, a spec change; the core's
//! `plan::change`), and its forecast, as text, JSON or the pull request's Markdown; and the
//! Plan page link of a forecast.

use crate::plan::{Args, Format};
use rollout_facade::import::Pick;
use rollout_facade::plan::change::{plan_change, Change};
use rollout_facade::plan::manifest::{read_manifest_named, ManifestDeployment};
use rollout_facade::plan::Subject;
use std::fmt::Write;

/// A manifest file read for a change: its Deployment for planning and the object as read.
fn read_side(
    path: &str,
    pick: Pick<'_>,
) -> Result<(ManifestDeployment, serde_json::Value, String), String> {
    let text = crate::read(path)?;
    let at = |e: String| format!("{}: {e}", crate::display_name(path));
    let manifest = read_manifest_named(&text, pick).map_err(at)?;
    let (value, _, _) = rollout_facade::import::read_deployment(&text, pick).map_err(at)?;
    Ok((manifest, value, text))
}

/// The Plan page's address for this forecast (`--link-base`; empty: no link).
pub fn link(args: &Args, before: Option<&str>) -> Option<String> {
    if args.link_base.is_empty() {
        return None;
    }
    let after = match &args.new_file {
        Some(new) => crate::read(new).ok()?,
        None => crate::read(&args.file).ok()?,
    };
    let mut options = serde_json::Map::new();
    let m = &args.model;
    let d = rollout_facade::plan::manifest::ClusterModel::default();
    if m.pull_seconds != d.pull_seconds || m.ready_after_seconds.is_some() {
        options.insert(
            "pull".into(),
            m.ready_after_seconds.unwrap_or(m.pull_seconds).into(),
        );
    }
    for (name, v, dv) in [
        ("appReady", m.app_ready_seconds, d.app_ready_seconds),
        ("secondsPerRound", m.seconds_per_round, d.seconds_per_round),
        ("nodes", i64::from(m.nodes), i64::from(d.nodes)),
    ] {
        if v != dv {
            options.insert(name.into(), v.into());
        }
    }
    if let Some(t) = m.termination_seconds {
        options.insert("termination".into(), t.into());
    }
    if let Some(i) = &m.image {
        options.insert("image".into(), i.clone().into());
    }
    if m.bad_image {
        options.insert("badImage".into(), true.into());
    }
    if let Some(q) = m.pod_quota {
        options.insert("podQuota".into(), q.into());
    }
    if let Some(name) = &args.deployment {
        options.insert("deployment".into(), name.clone().into());
    }
    Some(rollout_facade::share::plan_link(
        &args.link_base,
        &rollout_facade::share::PlanLink {
            after,
            before: before.map(str::to_string),
            options: serde_json::Value::Object(options),
        },
    ))
}

/// The change in words, for the text report.
fn change_lines(change: &Change, old: &str, new: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Change: kubectl apply -f {new} over the Deployment {old} made"
    );
    let _ = writeln!(out, "  {} ({})", change.summary, change.kind);
    for f in &change.template_fields {
        let _ = writeln!(out, "  template  {f}");
    }
    for f in &change.spec_fields {
        let _ = writeln!(out, "  spec      {f}");
    }
    out
}

/// Runs `rollout plan OLD NEW …`: what to print, and the checks broken.
pub fn run(args: &Args) -> Result<(String, Vec<String>), String> {
    let new_path = args.new_file.as_deref().unwrap_or_default();
    let pick = Pick {
        name: args.deployment.as_deref(),
        how: "choose one with --deployment NAME",
    };
    let (old, old_value, old_text) = read_side(&args.file, pick)?;
    let (new, new_value, _) = read_side(new_path, pick)?;
    let (output, scenario, sim) = plan_change(
        &old,
        &old_value,
        &new,
        &new_value,
        &args.model,
        &args.scales,
        &args.limits,
    )
    .map_err(|e| format!("{}: {e}", crate::display_name(new_path)))?;
    let broken = rollout_facade::plan::markdown::broken_checks(&output.plan, &args.checks);
    let text = match args.format {
        Format::Json => serde_json::to_string(&output).expect("a plan serialises") + "\n",
        Format::Markdown => rollout_facade::plan::markdown::summary(
            &output.plan,
            Some(&output.change),
            &args.checks,
            link(args, Some(&old_text)).as_deref(),
        ),
        Format::Csv => {
            return Err(
                "--csv lists a sweep; plan OLD NEW forecasts one change (use --json)".into(),
            )
        }
        Format::Text => {
            let model = output
                .plan
                .model
                .clone()
                .ok_or("a change is planned from manifests")?;
            let subject = Subject::Manifest {
                manifest: Box::new(new),
                model,
            };
            let mut out = change_lines(
                &output.change,
                crate::display_name(&args.file),
                crate::display_name(new_path),
            );
            out.push_str(&crate::plan::single_text(
                args,
                &subject,
                &output.plan,
                &scenario,
                &sim,
                Some(rollout_facade::ui_support::apply_command(new_path)),
            )?);
            out
        }
    };
    Ok((text, broken))
}
