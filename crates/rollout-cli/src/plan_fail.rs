//! `rollout plan --fail KIND:…`: beside the forecast, the rollout where the new version's app
//! fails that way (`rollout_facade::plan::failure`), as text, in the JSON (`ifItFails`) and as
//! a sweep's "lost if it fails" column.

use crate::show::table;
use rollout_facade::failures::AppFailure;
use rollout_facade::limits::Limits;
use rollout_facade::plan::failure::{failure_forecast, FailureForecast};
use rollout_facade::plan::sweep::Sweep;
use rollout_facade::plan::Subject;
use rollout_facade::scenario::Scenario;
use std::fmt::Write;

/// Reads `--fail`'s value.
pub fn parse(text: &str) -> Result<AppFailure, String> {
    AppFailure::parse(text).map_err(|e| format!("--fail {e}"))
}

/// The text section after a forecast.
pub fn text(f: &FailureForecast) -> String {
    let mut out = String::new();
    let failure = AppFailure::parse(&f.failure).map_or(f.failure.clone(), |a| a.words());
    let _ = writeln!(
        out,
        "\nIf it fails (--fail {}: the new version {failure}):",
        f.failure
    );
    let rows = vec![
        vec![
            "  capacityLost".to_string(),
            format!(
                "{}   of {} replicas (minAvailable {}), for {} s",
                f.capacity_lost, f.replicas, f.min_available, f.lowest_seconds
            ),
        ],
        vec![
            "  podsStuck".to_string(),
            format!(
                "{}   new pods not available, {} restarts by then",
                f.pods_stuck, f.restarts
            ),
        ],
        vec![
            "  deadlineExceededSeconds".to_string(),
            match f.deadline_exceeded_seconds {
                Some(s) => format!("{s}   ProgressDeadlineExceeded, after the image is set"),
                None => "null   never reported".to_string(),
            },
        ],
        vec![
            "  undoSeconds".to_string(),
            match (f.undo_seconds, f.deadline_exceeded_seconds) {
                (Some(s), _) => format!(
                    "{s}   kubectl rollout undo then: all {} replicas available again",
                    f.replicas
                ),
                (None, Some(_)) => "null   not available again within the scenario".to_string(),
                (None, None) => "null".to_string(),
            },
        ],
    ];
    let mut rows = rows;
    if let (Some(failed), Some(sent)) = (f.failed_requests, f.sent_requests) {
        let n = |v: u64| rollout_facade::limits::group(i64::try_from(v).unwrap_or(i64::MAX));
        rows.push(vec![
            "  failedRequests".to_string(),
            format!(
                "{}   of {} sent to a Service in front of it until then (the requests' model above)",
                n(failed),
                n(sent)
            ),
        ]);
    }
    out.push_str(&table(&rows));
    for n in &f.notes {
        let _ = writeln!(out, "  ! {n}");
    }
    if let Some(s) = f.completes_after_seconds {
        let _ = writeln!(
            out,
            "  ! the rollout completes anyway after {s} s: its pods are Ready before they fail"
        );
    }
    out
}

/// The plan's JSON with `ifItFails` added.
pub fn json(mut plan: serde_json::Value, f: &FailureForecast) -> serde_json::Value {
    plan["ifItFails"] = serde_json::to_value(f).expect("a failure forecast serialises");
    plan
}

/// The failure forecast of each combination of a sweep, in the sweep's order (a refused
/// combination: `Err`), on all cores.
pub fn sweep(
    subject: &Subject,
    sweep: &Sweep,
    failure: &AppFailure,
    limits: &Limits,
) -> Vec<Result<FailureForecast, String>> {
    let n = sweep.len();
    let one = |i: usize| {
        subject
            .scenario(&sweep.settings(i))
            .and_then(|s: Scenario| failure_forecast(&s, failure, limits))
    };
    crate::plan::on_all_cores(n, one)
}

/// The sweep table's column for a combination: `1 of 4` lost, `-` when refused.
pub fn cell(r: &Result<FailureForecast, String>) -> String {
    match r {
        Ok(f) => format!("{} of {}", f.capacity_lost, f.replicas),
        Err(_) => "-".to_string(),
    }
}

/// The CSV columns a sweep gains.
pub const CSV_COLUMNS: [&str; 4] = [
    "capacityLostIfFails",
    "lowestSecondsIfFails",
    "deadlineExceededSecondsIfFails",
    "undoSecondsIfFails",
];

/// Those columns' cells for a combination.
pub fn csv_cells(r: &Result<FailureForecast, String>) -> Vec<String> {
    let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
    match r {
        Ok(f) => vec![
            f.capacity_lost.to_string(),
            f.lowest_seconds.to_string(),
            opt(f.deadline_exceeded_seconds),
            opt(f.undo_seconds),
        ],
        Err(_) => vec![String::new(); 4],
    }
}
