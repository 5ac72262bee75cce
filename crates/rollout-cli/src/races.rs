//! `rollout races SCENARIO.json`: search the schedules of a race scenario
//! (`../shared/races/README.md`) for one that breaks a promise of the rolling update, and
//! `rollout trace` of a race scenario.

use rollout_facade::races::{run_race_trace, RaceScenario};
use rollout_facade::races::{search, SearchOptions, DEFAULT_DEPTH, DEFAULT_MAX_STATES};
use rollout_facade::races::{CacheView, Mode, RaceExplorer, RaceFrame};
use rollout_facade::races::{Walkthrough, WALKTHROUGHS};
use rollout_facade::version::KubernetesVersion;

pub const USAGE: &str = "  rollout races SCENARIO.json [--depth D] [--max-states N] [--json]
                                       search the schedules of a race scenario (it starts
                                       after the setup and the schedule's leading setImage)
                                       breadth-first for the shortest one that breaks
                                       maxSurge or maxUnavailable; depth 12 and 2,000,000
                                       states by default
  rollout races ... --kubernetes 1.37  the 1.37 controllers (the ReplicaSet controller
                                       waits until its caches hold its own writes,
                                       KEP-5647) in the scenario's mode; default: its own
                                       kubernetesVersion, absent = 1.28
  rollout walk (SCENARIO.json | --teach ID) [--mode real|noexp|norv|guard]
                                       step a race schedule and say what each step did:
                                       the controllers' words, the API server's
                                       ReplicaSets, each controller's cache (stale values
                                       as cached→truth), pending expectations, broken
                                       promises; --teach expectations|conflict|stale-status
                                       walks a teaching schedule with its notes
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
    RaceScenario::from_json(&text)
        .map_err(|e| crate::manifest_hint(path, &text).unwrap_or_else(|| format!("{path}: {e}")))
}

/// `rollout trace` of a race scenario: the trace of the README, as JSON.
pub fn trace(path: &str, kubernetes: Option<KubernetesVersion>) -> Result<String, String> {
    let mut scenario = load(path)?;
    if let Some(v) = kubernetes {
        scenario.scenario.kubernetes_version = v;
    }
    let trace = run_race_trace(&scenario);
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
    let mut kubernetes = None;
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
            "--kubernetes" => {
                kubernetes = Some(crate::kubernetes_version(
                    it.next()
                        .ok_or("--kubernetes needs a value: 1.37 or 1.28")?,
                )?)
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ if path.is_none() => path = Some(arg),
            _ => return Err(format!("one scenario only\n{USAGE}")),
        }
    }
    let path = path.ok_or_else(|| format!("a scenario is needed\n{USAGE}"))?;
    let mut scenario = load(path)?;
    if let Some(v) = kubernetes {
        scenario.scenario.kubernetes_version = v;
    }
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

/// `rollout walk ARGS…`: a race schedule stepped as the explorer steps it, as text.
pub fn walk(args: &[&str]) -> Result<String, String> {
    let mut source = None;
    let mut mode = Mode::Real;
    let mut it = args.iter();
    while let Some(&arg) = it.next() {
        match arg {
            "--teach" => {
                let id = it.next().ok_or("--teach needs an id")?;
                let w = Walkthrough::find(id).ok_or_else(|| {
                    let ids: Vec<&str> = WALKTHROUGHS.iter().map(|w| w.id).collect();
                    format!("no walk-through {id:?}; there are {}", ids.join(", "))
                })?;
                source = Some((w.scenario(), Some(w)));
            }
            "--mode" => {
                let id = *it.next().ok_or("--mode needs real, noexp, norv or guard")?;
                mode = Mode::from_id(id)
                    .ok_or_else(|| format!("--mode {id}: expected real, noexp, norv or guard"))?;
            }
            "--kubernetes" => {
                // The explorer runs each mode as its release: real, noexp and norv are
                // 1.28's controllers, guard is 1.36+'s; 1.37 picks guard.
                let v = crate::kubernetes_version(
                    it.next()
                        .ok_or("--kubernetes needs a value: 1.37 or 1.28")?,
                )?;
                if v.rs_waits_for_own_writes() {
                    mode = Mode::Guarded;
                }
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ if source.is_none() => source = Some((load(arg)?, None)),
            _ => return Err(format!("one scenario only\n{USAGE}")),
        }
    }
    let (scenario, teach) =
        source.ok_or_else(|| format!("a scenario or --teach ID is needed\n{USAGE}"))?;
    let mut x = RaceExplorer::new(scenario);
    let mut out = String::new();
    if let Some(w) = teach {
        out += &format!("{}\n{}\n", w.title, w.summary);
    }
    out += &format!("Mode: {}\n\n", mode.label());
    out += &frame_text(&x.frame(mode), None);
    for (i, step) in x.script().to_vec().into_iter().enumerate() {
        x.step(step)?;
        out.push('\n');
        let note = teach.and_then(|w| w.notes.get(i)).copied();
        out += &frame_text(&x.frame(mode), note);
    }
    Ok(out)
}

/// One frame as text: the step, a walk-through's note, its caption, the truth, both caches,
/// the expectations.
fn frame_text(f: &RaceFrame, note: Option<&str>) -> String {
    let mut out = match &f.step {
        Some(step) => format!("[{}] {step} (t = {} s)\n", f.steps_taken, f.time),
        None => format!("[0] setup (t = {} s)\n", f.time),
    };
    if let Some(note) = note {
        out += &format!("  Watch: {note}\n");
    }
    for line in &f.caption {
        out += &format!("  {line}\n");
    }
    let truth: Vec<String> = f
        .truth
        .iter()
        .map(|r| {
            format!(
                "{} {}/{} ready of {}",
                r.name, r.pods.ready, r.pods.active, r.spec_replicas
            )
        })
        .collect();
    out += &format!("  API server: {}\n", truth.join("; "));
    out += &cache_text(&f.deployment_cache);
    out += &cache_text(&f.replica_set_cache);
    for e in &f.expectations {
        out += &format!("  expectations of {}: {}\n", e.replica_set, e.text);
    }
    out
}

/// `Deployment controller's cache: web-rev1 3/3 ready of 3; web-rev2 0→1/0→1 ready of 1`.
fn cache_text(c: &CacheView) -> String {
    fn seen(cached: i32, truth: Option<i32>) -> String {
        match truth {
            Some(t) if t != cached => format!("{cached}→{t}"),
            _ => cached.to_string(),
        }
    }
    let mut parts: Vec<String> = c
        .replica_sets
        .iter()
        .map(|l| {
            let t = l.pods.truth;
            format!(
                "{}{} {}/{} ready of {}",
                l.name,
                if l.deleted { " (deleted)" } else { "" },
                seen(l.pods.cached.ready, t.map(|p| p.ready)),
                seen(l.pods.cached.active, t.map(|p| p.active)),
                seen(l.spec_replicas.cached, l.spec_replicas.truth)
            )
        })
        .collect();
    parts.extend(c.unseen.iter().map(|n| format!("{n} not seen yet")));
    for d in &c.deployments {
        let stale: Vec<String> = [
            ("generation", d.generation.cached, d.generation.truth),
            (
                "observedGeneration",
                d.observed_generation.cached,
                d.observed_generation.truth,
            ),
            (
                "replicas",
                d.spec_replicas.cached.into(),
                d.spec_replicas.truth.map(i64::from),
            ),
            (
                "updated",
                d.updated_replicas.cached.into(),
                d.updated_replicas.truth.map(i64::from),
            ),
            (
                "available",
                d.available_replicas.cached.into(),
                d.available_replicas.truth.map(i64::from),
            ),
        ]
        .into_iter()
        .filter_map(|(what, cached, truth)| truth.map(|t| format!("{what} {cached}→{t}")))
        .collect();
        if !stale.is_empty() {
            parts.push(format!("{} {}", d.name, stale.join(", ")));
        }
    }
    format!("  {}'s cache: {}\n", c.owner, parts.join("; "))
}
