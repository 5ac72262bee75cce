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
mod plan_change;
mod plan_fail;
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
  --kubernetes 1.28|1.37 (with trace, show, bench, plan, races, walk)
                                       the release whose controllers run it (a scenario
                                       without kubernetesVersion is 1.28; trace prints
                                       status.terminatingReplicas under 1.37)
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
/// than [`rollout_facade::limits::MAX_MANIFEST_FILE_BYTES`] is refused before it is read, and one
/// without a length (a device, a pipe) once that many bytes and one more have been read.
fn read(path: &str) -> Result<String, String> {
    // The largest file: a manifest of several objects (each within the API server's 3 MiB,
    // checked as it is read); a scenario is held to 3 MiB by its reader.
    let max = rollout_facade::limits::MAX_MANIFEST_FILE_BYTES;
    let limit = format!(
        "Rollout Lab reads at most {} bytes of a file (and {} an object, the API server's limit on a request body)",
        rollout_facade::limits::group(max as i64),
        rollout_facade::limits::group(rollout_facade::limits::MAX_DOCUMENT_BYTES as i64)
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

/// The scenario `text` of the file `path`, or its parse error naming the file (a manifest is
/// told which command takes it).
fn scenario_of(path: &str, text: &str) -> Result<Scenario, String> {
    Scenario::from_json(text)
        .map_err(|e| manifest_hint(path, text).unwrap_or_else(|| format!("{path}: {e}")))
}

/// `--kubernetes VALUE`: 1.28 or 1.37 (also `v1.28.4`, `1.37.0`), or the reason it is not.
pub fn kubernetes_version(
    text: &str,
) -> Result<rollout_facade::version::KubernetesVersion, String> {
    rollout_facade::version::KubernetesVersion::parse(text)
        .map_err(|e| format!("--kubernetes: {e}"))
}

/// Takes `--kubernetes V` (or `--kubernetes=V`) out of `args`: the version, if given.
fn take_kubernetes(
    args: &mut Vec<String>,
) -> Result<Option<rollout_facade::version::KubernetesVersion>, String> {
    let mut found = None;
    let mut i = 0;
    while i < args.len() {
        if let Some(v) = args[i].strip_prefix("--kubernetes=") {
            found = Some(kubernetes_version(v)?);
            args.remove(i);
        } else if args[i] == "--kubernetes" {
            let v = args
                .get(i + 1)
                .ok_or("--kubernetes needs a value: 1.37 or 1.28")?;
            found = Some(kubernetes_version(v)?);
            args.drain(i..i + 2);
        } else {
            i += 1;
        }
    }
    Ok(found)
}

/// For a Kubernetes manifest handed to a command that takes a scenario: which commands take it.
pub fn manifest_hint(path: &str, text: &str) -> Option<String> {
    rollout_facade::import::is_manifest(text).then(|| {
        format!(
            "{} is a Kubernetes manifest, not a scenario: `rollout plan {path}` forecasts its rollout (`rollout import {path}` turns its Deployment into a scenario)",
            display_name(path)
        )
    })
}

/// The usage of one subcommand, for `rollout NAME --help`.
fn usage_of(name: &str) -> Option<String> {
    let line = |prefix: &str| {
        USAGE
            .lines()
            .filter(|l| l.trim_start().starts_with(prefix))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    Some(match name {
        "plan" => format!("usage:\n{}\n", plan::USAGE),
        "races" | "walk" => format!("usage:\n{}", races::USAGE),
        "trace" | "show" | "bench" => format!(
            "usage:\n{}{}",
            line(&format!("rollout {name} ")),
            line("--kubernetes") + &line("--large")
        ),
        "import" | "presets" => format!("usage:\n{}", {
            let mut text = String::new();
            let mut on = false;
            for l in USAGE.lines() {
                if l.trim_start().starts_with("rollout ") || l.trim_start().starts_with("--") {
                    on = l.trim_start().starts_with(&format!("rollout {name}"));
                }
                if on {
                    text.push_str(l);
                    text.push('\n');
                }
            }
            text
        }),
        _ => return None,
    })
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
    if let (Some(name), true) = (
        args.first(),
        args.iter().skip(1).any(|a| a == "--help" || a == "-h"),
    ) {
        if let Some(usage) = usage_of(name) {
            print!("{usage}");
            return ExitCode::SUCCESS;
        }
    }
    if args.first().map(String::as_str) == Some("plan") {
        // `rollout plan`: exit code 1 when the forecast breaks a check (--max-peak …), after
        // printing it; 2 for bad input.
        let rest: Vec<&str> = args[1..].iter().map(String::as_str).collect();
        return match plan::run_checked(&rest) {
            Ok((out, broken)) => {
                print!("{out}");
                for reason in &broken {
                    eprintln!("rollout plan: check failed: {reason}");
                }
                if broken.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => {
                eprintln!("rollout plan: {e}");
                ExitCode::from(2)
            }
        };
    }
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
    let mut args = args;
    let kubernetes = match take_kubernetes(&mut args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("rollout: {e}");
            return ExitCode::from(2);
        }
    };
    // `--kubernetes` replaces the scenario's own `kubernetesVersion` (absent: 1.28).
    let load = |arg: &str, limits: &Limits| {
        load(arg, limits).map(|mut s| {
            if let Some(v) = kubernetes {
                s.kubernetes_version = v;
            }
            s
        })
    };
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
        ["trace", arg] if races::is_race_file(arg) => {
            races::trace(arg, kubernetes).map(|t| println!("{t}"))
        }
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
