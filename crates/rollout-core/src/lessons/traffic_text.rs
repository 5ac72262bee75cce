//! A lesson's placeholders about the Service in front of the Deployment and its requests
//! ([`crate::traffic`]), filled from the traffic run of the lesson's scenario as far as its
//! script goes (every number the core's):
//!
//! * The model: `load` (req/s), `endpointDelay`, `preStop`, `exitAfterSigterm` (seconds),
//!   `podCapacity` (req/s), `appReady` (seconds from a container's start until the app answers,
//!   the probe model's `appReadySeconds`).
//! * The clock's second ([`super::moment::clock_second`]): `servedNow`, `failedNow`, `perPod` (the most requests a second one
//!   pod gets), `why` (why requests fail, in the core's words naming the pod).
//! * Totals: `failedSoFar` (up to the clock's second, [`super::moment::clock_second`]); over the seconds a command of the
//!   script leads to (from its round to the next command's, or the run's end):
//!   `failedAfter:TYPE` (the first command of that type: `scale`, `setImage` …) and
//!   `lowestServedAfter:TYPE` (the lowest served share of the load in one of those seconds, as
//!   `75 %`).
//! * The same script with one thing changed: `failedAfter:TYPE/CHANGE` and
//!   `lowestServedAfter:TYPE/CHANGE`, where CHANGE is `readinessProbe` (every container gets a
//!   readiness probe with Kubernetes' defaults, which succeeds once the app answers),
//!   `preStop=N` (a `preStop` sleep of N s) or `maxUnavailable=N` (the Deployment created with
//!   that maxUnavailable); `setting:CHANGE` is the changed value as the changed script holds
//!   it (`{setting:preStop=5}` is the preStop sleep, 5).
//!
//! Example, `?lesson=readiness-probes`: load 40 req/s over 3 pods, then `kubectl scale` to 4
//! at 20 s; the new pod has no readiness probe, so it is Ready as its container starts and the
//! proxies send it 40 / 4 = 10 req/s from 21 s; its app answers from 28 s:
//! `{failedAfter:scale}` is 7 × 10 = 70, and `{failedAfter:scale/readinessProbe}` 0.

use crate::api::IntOrString;
use crate::kubelet::probes::Probe;
use crate::scenario::{ActionKind, Scenario, StrategyInput};
use crate::sim::Simulation;
use crate::traffic::{run_scenario, TrafficRun};

/// The placeholders this module fills.
const KEYS: [&str; 14] = [
    "load",
    "endpointDelay",
    "preStop",
    "exitAfterSigterm",
    "podCapacity",
    "appReady",
    "servedNow",
    "failedNow",
    "perPod",
    "why",
    "failedSoFar",
    "failedAfter",
    "lowestServedAfter",
    "setting",
];

/// The value of a traffic placeholder (`name`, with its `arg` after `:`), or `None` when
/// `name` is not one of them.
pub fn value(name: &str, arg: Option<&str>, sim: &Simulation) -> Option<Result<String, String>> {
    KEYS.contains(&name).then(|| fill(name, arg, sim))
}

fn fill(name: &str, arg: Option<&str>, sim: &Simulation) -> Result<String, String> {
    let scenario = sim.scenario();
    let model = scenario
        .model
        .as_ref()
        .and_then(|m| m.traffic.clone())
        .unwrap_or_default();
    let now = super::moment::clock_second(sim);
    Ok(match (name, arg) {
        ("load", None) => model.load.to_string(),
        ("endpointDelay", None) => model.endpoint_delay_seconds.to_string(),
        ("preStop", None) => model.pre_stop_sleep_seconds.to_string(),
        ("exitAfterSigterm", None) => model.exit_after_sigterm_seconds.to_string(),
        ("podCapacity", None) => model
            .pod_capacity
            .ok_or("the traffic model sets no pod capacity")?
            .to_string(),
        ("appReady", None) => scenario
            .model
            .as_ref()
            .and_then(|m| m.probes.as_ref())
            .ok_or("the scenario has no probe model")?
            .app_ready_seconds
            .to_string(),
        ("servedNow", None) => run(scenario)?.figures_at(now).served.to_string(),
        ("failedNow", None) => run(scenario)?.figures_at(now).failed().to_string(),
        ("perPod", None) => run(scenario)?
            .second(now)
            .pods
            .iter()
            .map(|p| p.sent)
            .max()
            .ok_or("no pod gets requests now")?
            .to_string(),
        ("why", None) => run(scenario)?
            .second(now)
            .why
            .ok_or("no request fails now")?,
        ("failedSoFar", None) => run(scenario)?.totals(0, now + 1).failed.to_string(),
        ("failedAfter", Some(arg)) => after(scenario, arg)?.failed.to_string(),
        ("setting", Some(change)) => {
            let s = changed(scenario, change)?;
            match change.split_once('=').map(|(k, _)| k) {
                Some("preStop") => s
                    .model
                    .and_then(|m| m.traffic)
                    .map(|t| t.pre_stop_sleep_seconds.to_string())
                    .ok_or("no traffic model")?,
                Some("maxUnavailable") => s
                    .actions
                    .iter()
                    .find_map(|a| match &a.kind {
                        ActionKind::Create { deployment } => deployment.strategy.as_ref(),
                        _ => None,
                    })
                    .and_then(|st| st.max_unavailable.clone())
                    .map(|v| v.to_string())
                    .ok_or("no maxUnavailable")?,
                _ => return Err(format!("{change:?} sets no value")),
            }
        }
        ("lowestServedAfter", Some(arg)) => percent(after(scenario, arg)?.lowest_served_fraction),
        _ => return Err(format!("unknown placeholder {name:?} with {arg:?}")),
    })
}

/// The totals over the seconds the command `TYPE` leads to, of the script or of the script with
/// a change (`TYPE/CHANGE`).
fn after(scenario: &Scenario, arg: &str) -> Result<crate::traffic::TrafficTotals, String> {
    let (kind, change) = match arg.split_once('/') {
        Some((k, c)) => (k, Some(c)),
        None => (arg, None),
    };
    let (from, to) = command_window(scenario, kind)?;
    let r = match change {
        Some(c) => run(&changed(scenario, c)?)?,
        None => run(scenario)?,
    };
    Ok(r.totals(from, to.unwrap_or(r.end()).min(r.end())))
}

/// The seconds from the first command of type `kind` to the next command after it (`None`:
/// the run's end).
fn command_window(scenario: &Scenario, kind: &str) -> Result<(i64, Option<i64>), String> {
    let spr = scenario.seconds_per_round.max(1);
    let at = scenario
        .actions
        .iter()
        .find(|a| a.kind.type_name() == kind)
        .map(|a| i64::from(a.round) * spr)
        .ok_or_else(|| format!("the script has no `{kind}`"))?;
    let next = scenario
        .actions
        .iter()
        .map(|a| i64::from(a.round) * spr)
        .filter(|&t| t > at)
        .min();
    Ok((at, next))
}

/// The traffic run of the script as it stands.
fn run(scenario: &Scenario) -> Result<TrafficRun, String> {
    run_scenario(scenario, None, None)
}

/// A share as a whole percentage (`0.75` → `75 %`).
fn percent(f: f64) -> String {
    format!("{} %", (f * 100.0).round() as i64)
}

/// `scenario` with one thing changed (see the module): `readinessProbe`, `preStop=N`,
/// `maxUnavailable=N`.
pub fn changed(scenario: &Scenario, change: &str) -> Result<Scenario, String> {
    let mut s = scenario.clone();
    let number = |text: &str| -> Result<i64, String> {
        text.trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a whole number"))
    };
    match change.split_once('=') {
        None if change == "readinessProbe" => {
            let probes = s
                .model
                .as_mut()
                .and_then(|m| m.probes.as_mut())
                .ok_or("the scenario has no probe model to add a readiness probe to")?;
            for c in &mut probes.containers {
                c.readiness_probe.get_or_insert_with(Probe::default);
            }
        }
        Some(("preStop", n)) => {
            let seconds = number(n)?;
            let m = s.model.get_or_insert_with(Default::default);
            m.traffic
                .get_or_insert_with(Default::default)
                .pre_stop_sleep_seconds = seconds;
        }
        Some(("maxUnavailable", n)) => {
            let v = IntOrString::Int(i32::try_from(number(n)?).map_err(|e| e.to_string())?);
            let create = s
                .actions
                .iter_mut()
                .find_map(|a| match &mut a.kind {
                    ActionKind::Create { deployment } => Some(deployment),
                    _ => None,
                })
                .ok_or("the scenario creates no Deployment")?;
            create
                .strategy
                .get_or_insert_with(StrategyInput::default)
                .max_unavailable = Some(v);
        }
        _ => return Err(format!("unknown change {change:?}")),
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use crate::lessons::{lesson, question, LessonRun};

    /// The lesson's texts at every step, and the answers of its questions.
    fn walk(id: &str) -> Vec<(String, Option<i64>)> {
        let mut run = LessonRun::open(lesson(id).unwrap()).unwrap();
        let mut out = Vec::new();
        loop {
            let answer = run.current().question.map(|q| {
                match question::expected(&q.ask, &run.sim).unwrap().answer {
                    question::Answer::Number(n) => n,
                    a => panic!("{a:?}"),
                }
            });
            out.push((run.text().unwrap(), answer));
            if !run.forward().unwrap() {
                return out;
            }
        }
    }

    /// The hand-worked figures (load 40 req/s, endpoint delay 1 s, an app answering
    /// 8 s after its start): scaling 3 → 4 without a readiness probe, the new pod gets
    /// 40 / 4 = 10 req/s from 21 s (its container started at 20 s, the proxies told 1 s later)
    /// until its app answers at 28 s: 7 × 10 = 70 failed; with a readiness probe none. Scaling
    /// 4 → 3 with an app that exits at once on SIGTERM and no preStop: the deleted pod is sent
    /// 10 req/s for the 1 s until the proxies learn: 10; with a preStop sleep of 5 s, none.
    #[test]
    fn the_lessons_state_the_hand_worked_figures() {
        let readiness = walk("readiness-probes");
        assert_eq!(readiness[0].1, Some(70));
        assert!(
            readiness[1].0.contains("10 requests a second"),
            "{}",
            readiness[1].0
        );
        assert!(
            readiness[2].0.starts_with(
                "The app answers now and every request is served again: 70 requests failed"
            ) && readiness[2].0.contains(
                "readiness probe (Kubernetes' defaults, succeeding once the app answers): 0 failed"
            ),
            "{}",
            readiness[2].0
        );
        let graceful = walk("graceful-shutdown");
        assert_eq!(graceful[0].1, Some(10));
        assert!(
            graceful[2].0.contains(": 10 requests failed")
                && graceful[2].0.contains("preStop sleep of 5 s, longer than the endpoint delay, the pod answers until nothing is sent to it: 0 failed"),
            "{}",
            graceful[2].0
        );
        for (text, answer) in readiness
            .iter()
            .chain(&graceful)
            .chain(&walk("max-unavailable-requests"))
        {
            println!("{answer:?} {text}");
        }
    }
}
