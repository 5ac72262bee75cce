//! The human-readable run: what a user watching `kubectl get deploy,rs` and
//! `kubectl describe deployment` would see after each round.

use rollout_facade::scenario::{ActionKind, Scenario};
use rollout_facade::sim::Simulation;
use rollout_facade::ui_support::kubectl_command;
use rollout_facade::view::{age, cluster_view};
use std::fmt::Write;

/// Left-aligned columns separated by three spaces, as kubectl's tabwriter prints them (also `rollout plan`'s tables).
pub(crate) fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if i + 1 == r.len() {
                    s.clone()
                } else {
                    format!("{s:<w$}", w = widths[i])
                }
            })
            .collect();
        out.push_str(line.join("   ").trim_end());
        out.push('\n');
    }
    out
}

/// Runs the scenario and renders every round.
pub fn show(scenario: Scenario) -> String {
    let mut sim = Simulation::new(scenario).without_history();
    let mut out = String::new();
    let mut seen_events = 0;
    while !sim.finished() {
        let round = sim.round();
        let actions: Vec<ActionKind> = sim
            .scenario()
            .actions
            .iter()
            .filter(|a| a.round == round)
            .map(|a| a.kind.clone())
            .collect();
        sim.run_round();
        let view = cluster_view(&sim);
        let now = view.time - sim.scenario().seconds_per_round;
        let _ = writeln!(out, "── round {round} (t={now}s) ──");
        let default_name = view
            .deployments
            .first()
            .map(|d| d.name.clone())
            .unwrap_or_default();
        for a in &actions {
            let _ = writeln!(out, "$ {}", kubectl_command(a, &default_name));
        }
        for e in sim
            .trace_rounds()
            .last()
            .map(|r| r.errors.clone())
            .unwrap_or_default()
        {
            let _ = writeln!(out, "error: {e}");
        }
        let mut rows = vec![vec![
            "NAME".to_string(),
            "READY".into(),
            "UP-TO-DATE".into(),
            "AVAILABLE".into(),
            "AGE".into(),
        ]];
        for d in &view.deployments {
            rows.push(vec![
                format!("deployment.apps/{}", d.name),
                d.ready_column.clone(),
                d.object.status.updated_replicas.to_string(),
                d.object.status.available_replicas.to_string(),
                age(now - d.object.metadata.creation_timestamp),
            ]);
        }
        out.push_str(&table(&rows));
        out.push('\n');
        let mut rows = vec![vec![
            "NAME".to_string(),
            "DESIRED".into(),
            "CURRENT".into(),
            "READY".into(),
            "AGE".into(),
            "IMAGE".into(),
        ]];
        for rs in &view.replica_sets {
            rows.push(vec![
                format!("replicaset.apps/{}", rs.name),
                rs.desired.to_string(),
                rs.current.to_string(),
                rs.ready.to_string(),
                age(now - rs.created),
                rs.image.clone(),
            ]);
        }
        out.push_str(&table(&rows));
        let events: Vec<_> = sim.events().skip(seen_events).cloned().collect();
        seen_events += events.len();
        if !events.is_empty() {
            let mut rows = vec![vec![
                "Type".to_string(),
                "Reason".into(),
                "Age".into(),
                "From".into(),
                "Message".into(),
            ]];
            for e in &events {
                let from = if e.phase == "deployment" {
                    "deployment-controller"
                } else {
                    "replicaset-controller"
                };
                rows.push(vec![
                    e.event.type_.to_string(),
                    e.event.reason.to_string(),
                    age(now - e.event.time),
                    from.to_string(),
                    e.event.message.clone(),
                ]);
            }
            out.push_str("\nEvents:\n");
            for line in table(&rows).lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        for d in &view.deployments {
            let status = &d.rollout_status;
            let text = match &status.error {
                Some(e) => format!("error: {e}"),
                None => status.message.trim_end().to_string(),
            };
            let _ = writeln!(
                out,
                "\n$ kubectl rollout status deployment/{}\n{text}",
                d.name
            );
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_the_documentation_example_round_by_round() {
        let out = show(
            rollout_facade::presets::preset("rolling-basic")
                .unwrap()
                .scenario,
        );
        assert!(out.contains("$ kubectl set image deployment/web app=nginx:1.16.1"));
        assert!(out.contains("Scaled up replica set web-rev2 to 1"));
        assert!(out.contains("deployment \"web\" successfully rolled out"));
        let header = out.lines().find(|l| l.starts_with("NAME")).unwrap();
        assert_eq!(
            header,
            "NAME                  READY   UP-TO-DATE   AVAILABLE   AGE"
        );
    }
}
