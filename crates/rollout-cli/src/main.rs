//! `rollout`: run a Rollout Lab scenario natively.
//!
//! * `rollout trace SCENARIO.json` prints the trace in the conformance format.
//! * `rollout show SCENARIO.json` prints, round by round, what `kubectl get deploy,rs` and the
//!   events of `kubectl describe deployment` would show.
//! * `rollout presets` lists the built-in scenarios; a preset id can stand for a file.
//! * `rollout races SCENARIO.json` searches a race scenario's schedules for a race; `rollout
//!   trace` of a race scenario prints its trace (`../shared/races/README.md`).
//! * `rollout plan FILE` forecasts a rollout (a scenario's, or a manifest's in a cluster
//!   model), once or swept over settings.

mod plan;
mod races;
mod show;

/// The native CLI's allocator. A simulation makes many small, short-lived allocations (pod
/// copies, names, event messages); mimalloc serves them faster than glibc's malloc
/// (BENCHMARKS.md). A wasm build keeps its own allocator.
#[cfg(not(target_family = "wasm"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use rollout_facade::limits::Limits;
use rollout_facade::scenario::Scenario;
use std::process::ExitCode;

const USAGE: &str = "usage:
  rollout trace SCENARIO.json|PRESET   print the trace (conformance format, JSON)
  rollout show SCENARIO.json|PRESET    print kubectl-style output round by round
  rollout presets                      list the built-in scenarios
  rollout bench SCENARIO.json [N]      time N runs (simulate + serialise the trace)
  rollout import MANIFEST.yaml|json|- [--deployment NAME]
                                       turn `kubectl get deployment -o yaml` into a scenario
  --large (with trace, show, bench)    lift the page's limits (10,000 replicas, 2,000,000
                                       pod-rounds: pods at once × rounds) to Kubernetes'
";

/// A preset by id, else the scenario file `arg`, within `limits` (the page's, or with
/// `--large` Kubernetes' own).
fn load(arg: &str, limits: &Limits) -> Result<Scenario, String> {
    if let Some(p) = rollout_facade::presets::preset(arg) {
        return Ok(p.scenario);
    }
    let s = scenario_of(arg, &read(arg)?)?;
    rollout_facade::limits::check_scenario_with(&s, limits).map_err(|e| format!("{arg}: {e}"))?;
    Ok(s)
}

/// The text of the file `path` (`-`: standard input), or a message naming it; a file larger
/// than [`rollout_facade::limits::MAX_DOCUMENT_BYTES`] is refused before it is read, and one
/// without a length (a device, a pipe) once that many bytes and one more have been read.
fn read(path: &str) -> Result<String, String> {
    let max = rollout_facade::limits::MAX_DOCUMENT_BYTES;
    let limit = format!(
        "Rollout Lab reads at most {} bytes, the API server's limit on a request body",
        rollout_facade::limits::group(max as i64)
    );
    if path == "-" {
        // Standard input has no length to ask for: read one byte past the limit and look.
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(std::io::stdin(), max as u64 + 1),
            &mut text,
        )
        .map_err(|e| format!("cannot read standard input: {e}"))?;
        if text.len() > max {
            return Err(format!("standard input is too long: {limit}"));
        }
        return Ok(text);
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if let Ok(meta) = file.metadata() {
        if meta.len() > max as u64 {
            return Err(format!(
                "{path} is {} bytes; {limit}",
                rollout_facade::limits::group(meta.len() as i64)
            ));
        }
    }
    // A device or a pipe (`/dev/zero`, `<(…)`) has no length: read one byte past the limit,
    // as for standard input, so that nothing endless is read whole.
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, max as u64 + 1), &mut text)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if text.len() > max {
        return Err(format!(
            "{path} has more than {} bytes; {limit}",
            rollout_facade::limits::group(max as i64)
        ));
    }
    Ok(text)
}

/// How messages name the file `path`: `-` is standard input.
fn display_name(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

/// The scenario `text` of the file `path`, or its parse error naming the file.
fn scenario_of(path: &str, text: &str) -> Result<Scenario, String> {
    Scenario::from_json(text).map_err(|e| format!("{path}: {e}"))
}

/// The subcommands that read their own arguments and return what they print: `rollout plan …`
/// `rollout races …` and `rollout walk …` (a refusal: its message after `rollout NAME:`, exit code 2).
type OwnArguments = fn(&[&str]) -> Result<String, String>;
const OWN_ARGUMENTS: [(&str, OwnArguments); 3] = [
    ("plan", plan::run),
    ("races", races::run),
    ("walk", races::walk),
];

/// `rollout import`'s options after the file: none, or `--deployment NAME`.
fn import_pick<'a>(rest: &[&'a str]) -> Result<Option<&'a str>, String> {
    match rest {
        [] => Ok(None),
        ["--deployment", name] => Ok(Some(name)),
        _ => Err(format!("{USAGE}{}", plan::USAGE)),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some((name, run)) = OWN_ARGUMENTS
        .iter()
        .find(|(name, _)| args.first().map(String::as_str) == Some(*name))
    {
        let rest: Vec<&str> = args[1..].iter().map(String::as_str).collect();
        return match run(&rest) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("rollout {name}: {e}");
                ExitCode::from(2)
            }
        };
    }
    let limits = if args.iter().any(|a| a == "--large") {
        Limits::LARGE
    } else {
        Limits::PAGE
    };
    let result = match args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--large")
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["trace", arg] if races::is_race_file(arg) => races::trace(arg).map(|t| println!("{t}")),
        ["trace", arg] => load(arg, &limits).map(|s| {
            let trace = rollout_facade::sim::run_trace(s);
            println!(
                "{}",
                serde_json::to_string(&trace).expect("a trace serialises")
            );
        }),
        ["show", arg] => load(arg, &limits).map(|s| print!("{}", show::show(s))),
        ["bench", arg, rest @ ..] => load(arg, &limits).map(|s| {
            let n: u32 = rest
                .first()
                .and_then(|n| n.parse().ok())
                .unwrap_or(20)
                .clamp(1, 10_000);
            let mut times: Vec<f64> = (0..n)
                .map(|_| {
                    let start = std::time::Instant::now();
                    let trace = rollout_facade::sim::run_trace(s.clone());
                    let bytes = serde_json::to_vec(&trace).expect("a trace serialises");
                    std::hint::black_box(bytes);
                    start.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            times.sort_by(f64::total_cmp);
            let median = times[times.len() / 2];
            println!(
                "{}: {n} runs, fastest {:.2} ms, median {median:.2} ms, slowest {:.2} ms",
                s.name,
                times[0],
                times[times.len() - 1]
            );
        }),
        ["import", path, rest @ ..] => import_pick(rest)
            .and_then(|name| {
                let text = read(path)?;
                let pick = rollout_facade::import::Pick {
                    name,
                    how: "choose one with --deployment NAME",
                };
                rollout_facade::import::import_named(&text, pick)
                    .map_err(|e| format!("{}: {e}", display_name(path)))
            })
            .map(|imported| {
                for line in &imported.notes {
                    eprintln!("rollout: {line}");
                }
                for line in &imported.unsupported {
                    eprintln!("rollout: not modelled: {line}");
                }
                let mut scenario = serde_json::json!({
                    "name": imported.deployment.name,
                    "description": format!("imported from {}", display_name(path)),
                    "rounds": 30,
                    "secondsPerRound": 5,
                    "readyAfterRounds": 1,
                    "terminationRounds": 0,
                    "neverReadyImages": [],
                    "nodes": 3,
                    "actions": [{"round": 0, "type": "create", "deployment": imported.deployment}],
                });
                // The pods' requests and placement rules, for the scheduler on 3 default nodes.
                if imported.scheduling.constrains() {
                    scenario["model"] =
                        serde_json::json!({"scheduling": {"pod": imported.scheduling}});
                }
                println!(
                    "{}",
                    serde_json::to_string_pretty(&scenario).expect("serialises")
                );
            }),
        ["presets"] => {
            for p in rollout_facade::presets::presets() {
                println!("{:<22} {}", p.id, p.title);
            }
            Ok(())
        }
        ["--help" | "-h" | "help"] => {
            println!("{USAGE}{}{}", races::USAGE, plan::USAGE);
            Ok(())
        }
        _ => Err(format!("{USAGE}{}{}", races::USAGE, plan::USAGE)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rollout: {e}");
            ExitCode::from(2)
        }
    }
}
