//! The forecast as a short Markdown summary a CI job posts on a pull request (`rollout plan …
//! --format markdown`): what the change does, the duration, the peak pods, the lowest
//! availability, the assumptions, the checks (`--max-peak`, `--min-available`,
//! `--max-duration`) and a link that opens the same forecast on the Plan page.
//!
//! Example: a rollout of 3 replicas done in 12 s with at most 4 pods and never fewer than 3
//! available, `--max-peak 4` kept: a heading, one sentence, a table of four rows, one line of
//! assumptions, `✅ peakPods 4 ≤ 4`, the link.

use super::change::Change;
use super::constraints::{Constraints, Limit};
use super::input::PlanOutput;
use std::fmt::Write;

/// Each limit `plan` breaks, in words: `peakPods 12 is more than --max-peak 11`.
pub fn broken_checks(plan: &PlanOutput, checks: &Constraints) -> Vec<String> {
    let f = &plan.forecast;
    checks
        .broken(f)
        .into_iter()
        .map(|l| match l {
            Limit::Peak => format!(
                "peakPods {} is more than --max-peak {}",
                f.peak_pods,
                checks.max_peak.unwrap_or(0)
            ),
            Limit::Availability => format!(
                "minAvailable {} is less than --min-available {}",
                f.min_available.unwrap_or(0),
                checks.min_available.unwrap_or(0)
            ),
            Limit::Duration => match f.duration_seconds {
                Some(d) => format!(
                    "durationSeconds {d} is more than --max-duration {} s",
                    checks.within_seconds.unwrap_or(0)
                ),
                None => format!(
                    "the rollout never completes, so it is not done within --max-duration {} s",
                    checks.within_seconds.unwrap_or(0)
                ),
            },
        })
        .collect()
}

/// The lines of the checks that were set: `✅ peakPods 4 ≤ 4`, `❌ …` for a broken one.
fn check_lines(plan: &PlanOutput, checks: &Constraints) -> Vec<String> {
    let f = &plan.forecast;
    let broken = checks.broken(f);
    let mark = |l: Limit| if broken.contains(&l) { "❌" } else { "✅" };
    let mut out = Vec::new();
    if let Some(n) = checks.max_peak {
        out.push(format!(
            "{} peakPods {} ≤ {n} (`--max-peak`)",
            mark(Limit::Peak),
            f.peak_pods
        ));
    }
    if let Some(n) = checks.min_available {
        out.push(format!(
            "{} minAvailable {} ≥ {n} (`--min-available`)",
            mark(Limit::Availability),
            f.min_available.unwrap_or(0)
        ));
    }
    if let Some(t) = checks.within_seconds {
        out.push(format!(
            "{} durationSeconds {} ≤ {t} (`--max-duration`)",
            mark(Limit::Duration),
            f.duration_seconds
                .map_or("never".to_string(), |d| d.to_string())
        ));
    }
    out
}

/// The assumptions a manifest's forecast made, in one line.
fn assumptions(plan: &PlanOutput) -> String {
    let Some(m) = &plan.model else {
        return format!(
            "the scenario's own model, settled {} s rounds",
            plan.seconds_per_round
        );
    };
    let a = &m.startup.assumed;
    format!(
        "image pull {} s, app ready {} s{}, termination {} s ({}), {} nodes, {} s rounds{}. {}",
        a.pull_seconds,
        a.app_ready_seconds,
        if m.startup.by_probes() {
            ""
        } else {
            " (not used: no probe)"
        },
        m.termination_seconds,
        m.termination_from,
        m.nodes,
        m.seconds_per_round,
        if m.bad_image {
            ", the new image never ready"
        } else {
            ""
        },
        m.summary()
    )
}

/// The summary: a heading naming the Deployment and what happens, the figures, the
/// assumptions, the checks and the link (`link`: the Plan page's address for this forecast).
pub fn summary(
    plan: &PlanOutput,
    change: Option<&Change>,
    checks: &Constraints,
    link: Option<&str>,
) -> String {
    let f = &plan.forecast;
    let spr = plan.seconds_per_round;
    let mut out = String::new();
    let what = match change {
        Some(c) => c.summary.clone(),
        None => match &plan.model {
            Some(m) => format!(
                "a rollout: kubectl set image to {} (from {})",
                m.new_image, m.old_image
            ),
            None => "the scenario's last setImage".to_string(),
        },
    };
    let _ = writeln!(out, "### Rollout Lab: deployment/{}\n", plan.deployment);
    let _ = writeln!(out, "**What the change does:** {what}.\n");
    if let Some(c) = change {
        for field in c.template_fields.iter().chain(&c.spec_fields) {
            let _ = writeln!(out, "- `{field}`");
        }
        if !c.template_fields.is_empty() || !c.spec_fields.is_empty() {
            out.push('\n');
        }
    }
    let _ = writeln!(out, "| forecast | |\n|---|---|");
    let _ = writeln!(
        out,
        "| duration | {} |",
        f.duration_seconds.map_or_else(
            || "**never completes**".to_string(),
            |d| format!("{d} s until `kubectl rollout status` succeeds")
        )
    );
    let _ = writeln!(
        out,
        "| peak pods | {} (terminating included) |",
        f.peak_pods
    );
    let _ = writeln!(
        out,
        "| lowest availability | {} pods |",
        f.min_available.map_or("-".to_string(), |n| n.to_string())
    );
    let _ = writeln!(
        out,
        "| progress deadline | {} |",
        f.deadline_exceeded_round
            .map_or("not exceeded".to_string(), |r| format!(
                "**exceeded** {} s after the start (ProgressDeadlineExceeded)",
                i64::from(r.saturating_sub(f.start_round)) * spr
            ))
    );
    if let Some(t) = &plan.traffic {
        let _ = writeln!(
            out,
            "| requests to a Service in front of it | {} (a model: {} req/s, endpoint changes reach the proxies after {} s, preStop {} s) |",
            t.summary(),
            t.assumptions.load,
            t.assumptions.endpoint_delay_seconds,
            t.assumptions.pre_stop_sleep_seconds
        );
    }
    let _ = writeln!(out, "\n**Assumed:** {}", assumptions(plan));
    let checks = check_lines(plan, checks);
    if !checks.is_empty() {
        let _ = writeln!(out, "\n**Checks:**\n");
        for c in checks {
            let _ = writeln!(out, "- {c}");
        }
    }
    if !plan.warnings.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>Warnings ({})</summary>\n",
            plan.warnings.len()
        );
        for w in &plan.warnings {
            let _ = writeln!(out, "- {w}");
        }
        let _ = writeln!(out, "\n</details>");
    }
    if let Some(link) = link {
        let _ = writeln!(out, "\n[Open this forecast on the Plan page]({link})");
    }
    out
}
