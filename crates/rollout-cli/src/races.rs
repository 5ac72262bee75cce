//! `rollout races SCENARIO.json`: search the schedules of a race scenario
//! (`../shared/races/README.md`) for one that breaks a promise of the rolling update, and
//! `rollout trace` of a race scenario.

use rollout_facade::races::{run_race_trace, RaceScenario};
use rollout_facade::races::{search, SearchOptions, DEFAULT_DEPTH, DEFAULT_MAX_STATES};

pub const USAGE: &str = "  rollout races SCENARIO.json [--depth D] [--max-states N] [--json]
                                       search the schedules of a race scenario (it starts
                                       after the setup and the schedule's leading setImage)
                                       breadth-first for the shortest one that breaks
                                       maxSurge or maxUnavailable; depth 12 and 2,000,000
                                       states by default
";

/// Whether the file at `path` is a race scenario (a JSON object with a `schedule`).
pub fn is_race_file(path: &str) -> bool {
    // Through the CLI's reader: a file past the size limit is not read (it is refused as a
    // scenario next), and standard input is left for the scenario reader.
    path != "-"
        && crate::read(path)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|v| RaceScenario::is_race(&v))
}

fn load(path: &str) -> Result<RaceScenario, String> {
    let text = crate::read(path)?;
    RaceScenario::from_json(&text).map_err(|e| format!("{path}: {e}"))
}

/// `rollout trace` of a race scenario: the trace of the README, as JSON.
pub fn trace(path: &str) -> Result<String, String> {
    let trace = run_race_trace(&load(path)?);
    serde_json::to_string(&trace).map_err(|e| e.to_string())
}

/// `rollout races ARGS…`: the search's report, as text or (`--json`) as
/// `{"depth", "states", "violation"}`.
pub fn run(args: &[&str]) -> Result<String, String> {
    let mut path = None;
    let mut opts = SearchOptions {
        depth: DEFAULT_DEPTH,
        max_states: DEFAULT_MAX_STATES,
    };
    let mut json = false;
    let mut it = args.iter();
    while let Some(&arg) = it.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            let v = it.next().ok_or_else(|| format!("{name} needs a number"))?;
            v.replace(['_', ','], "")
                .parse()
                .map_err(|_| format!("{name} {v}: not a whole number"))
        };
        match arg {
            "--depth" => opts.depth = number("--depth")?,
            "--max-states" => opts.max_states = number("--max-states")?,
            "--json" => json = true,
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ if path.is_none() => path = Some(arg),
            _ => return Err(format!("one scenario only\n{USAGE}")),
        }
    }
    let path = path.ok_or_else(|| format!("a scenario is needed\n{USAGE}"))?;
    let scenario = load(path)?;
    let start = std::time::Instant::now();
    let report = search(&scenario, opts).map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    if json {
        return serde_json::to_string(&report)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string());
    }
    let lead = scenario.leading_actions();
    Ok(match &report.violation {
        None => format!(
            "no schedule of up to {} steps breaks a promise ({} states, {seconds:.2} s)\n",
            report.depth, report.states
        ),
        Some(found) => {
            let mut out = format!(
                "a schedule of {} steps breaks a promise ({} states, {seconds:.2} s):\n",
                report.depth, report.states
            );
            for (i, step) in found.schedule.iter().enumerate() {
                let note = if i < lead {
                    "   (the scenario's start)"
                } else {
                    ""
                };
                out.push_str(&format!("  {step}{note}\n"));
            }
            for v in &found.violations {
                out.push_str(&format!("broken: {v}\n"));
            }
            out.push_str(&format!(
                "replay: put this schedule in the scenario and run `rollout trace`:\n  \"schedule\": {}\n",
                serde_json::to_string(&found.schedule).unwrap_or_default()
            ));
            out
        }
    })
}
