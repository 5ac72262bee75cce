//! How big a simulation Rollout Lab runs, in one place. Every door reads input through these
//! checks: the scenario reader ([`crate::scenario::Scenario::from_value`]), the session (the
//! app, the embed, the JavaScript API), permalinks, the planner, the manifest and YAML readers
//! and the CLI. A refusal names the field, the value and the limit, and says whether the limit
//! is Kubernetes' own or one Rollout Lab keeps for the speed of a page (the CLI's `--large`
//! lifts those, up to Kubernetes' own).
//!
//! For example `nodes: 6000` is refused as `nodes: 6000 is more than 5,000, the most nodes
//! Kubernetes supports in one cluster`; `replicas: 10001` as `… creates 10001 replicas; Rollout
//! Lab simulates at most 10,000 replicas, a limit for the page's speed …`.

use crate::api::IntOrString;
use crate::scenario::{ActionKind, Scenario, StrategyInput};

/// The most replicas a Deployment may have, in a `create` or a `scale` (a real cluster takes
/// up to 2^31 - 1).
pub const MAX_REPLICAS: i32 = 10_000;

/// The most pods a rolling update may have at once (replicas + maxSurge).
pub const MAX_PODS: i64 = 20_000;

/// The most pods a cluster holds, Kubernetes' own limit ("Considerations for large
/// clusters": no more than 150,000 pods). The CLI's `--large` raises the page limits to it.
pub const KUBERNETES_MAX_PODS: i64 = 150_000;

/// The most nodes, Kubernetes' own limit ("Considerations for large clusters": no more than
/// 5,000 nodes).
pub const MAX_NODES: u32 = 5_000;

/// The most rounds a scenario may have.
pub const MAX_ROUNDS: u32 = 100_000;

/// The most simulated seconds one round may stand for (a day).
pub const MAX_SECONDS_PER_ROUND: i64 = 86_400;

/// The most actions a scenario may script.
pub const MAX_ACTIONS: usize = 10_000;

/// The most bytes of text a scenario, a manifest or a link is read from: the API server's
/// own limit on a request body (kube-apiserver's `MaxRequestBodyBytes`, 3 MiB).
pub const MAX_DOCUMENT_BYTES: usize = 3 * 1024 * 1024;

/// The longest image a scenario may name, in bytes. Kubernetes' API takes any length, but a
/// valid image reference (distribution's `reference` grammar, which the kubelet parses) has at
/// most a 255-character name, a 128-character tag and a digest (71 for sha256): 456 bytes.
/// Every round's snapshot of the trace holds each ReplicaSet's image, so a 500,000-character
/// image made a 1,000-round `rollout trace` hold 2 GB and a 100,000-round one run away.
pub const MAX_IMAGE_BYTES: usize = 512;

/// The most YAML documents (`---`) one text may hold.
pub const MAX_YAML_DOCUMENTS: usize = 1_000;

/// The deepest nesting a JSON or YAML input may have (serde_json's own recursion limit).
pub const MAX_DEPTH: usize = 128;

/// The most nodes a YAML text may expand to through aliases, besides go-yaml's ratio of
/// aliases to nodes (`yaml_guard`): a 3 MiB text without aliases has fewer (`[1,1,…]` is two
/// bytes a node), and yaml-rust2 holds each expanded node in memory.
pub const MAX_YAML_EXPANDED_NODES: u64 = 1_000_000;

/// The most bytes of scalars a YAML text may expand to through aliases.
pub const MAX_YAML_EXPANDED_BYTES: u64 = 32 * 1024 * 1024;

/// The most combinations one sweep forecasts.
pub const MAX_SWEEP_COMBINATIONS: u64 = 10_000;

/// The most rounds a scenario opened in the app or an embed may script: every step is kept
/// for stepping back.
pub const MAX_INTERACTIVE_ROUNDS: u32 = 2_000;

/// The most steps a permalink may ask to replay.
pub const MAX_LINK_STEPS: usize = 50_000;

/// The most rounds one "run to the end" goes before it stops with a notice (a scenario that
/// keeps changing, or one whose next change is very far away).
pub const MAX_RUN_ROUNDS: u32 = 2_000;

/// The most pod-rounds one run may take on a page (and in the CLI without `--large`): the pods
/// a scenario may hold at once times its rounds ([`Work`]). Every round that changes something
/// walks every pod in each controller and in the kubelet, so this is what a run costs. Chosen
/// by measuring the release CLI (BENCHMARKS.md, "The work limit"): the slowest scenario found
/// at this limit, 10,000 replicas whose pods become ready one round apart in 135 settled
/// rounds on 5,000 nodes, runs `rollout trace` in 2.9 s; before it, 10,000 replicas over
/// 5,000 such rounds took 28 s, one pod at a time over 100,000 rounds more than 30 s, and a
/// new image every round with a long graceful termination more than a minute. A forecast,
/// which stops once its rollout completes, counts the pod-rounds it actually runs against the
/// same figure instead ([`crate::plan::simulate_with`]).
pub const MAX_POD_ROUNDS: i64 = 2_000_000;

/// The longest duration an app's failure names (`crash:after=…`, `readiness:from=…,to=…`): a
/// year, in seconds. Longer could not be told from never within [`MAX_ROUNDS`] rounds of a
/// day at most, and the kubelet's timeline sums stay far from overflow.
pub const MAX_FAILURE_SECONDS: i64 = 365 * 86_400;

/// The size limits that depend on where a simulation runs: a page (and the CLI by default)
/// keeps to [`Limits::PAGE`]; the CLI's `--large` to [`Limits::LARGE`], Kubernetes' own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most replicas in a create or a scale.
    pub replicas: i64,
    /// The most pods at once: replicas + maxSurge, and the pod quota.
    pub pods: i64,
    /// The most pod-rounds in one run ([`MAX_POD_ROUNDS`]; `--large`: none).
    pub pod_rounds: i64,
    /// Whether these are the page's limits (a refusal then says so, and that `--large` lifts
    /// them in the CLI).
    pub page: bool,
}

impl Limits {
    /// A page's limits: 10,000 replicas, 20,000 pods at once.
    pub const PAGE: Limits = Limits {
        replicas: MAX_REPLICAS as i64,
        pods: MAX_PODS,
        pod_rounds: MAX_POD_ROUNDS,
        page: true,
    };
    /// Kubernetes' own: 150,000 pods in a cluster.
    pub const LARGE: Limits = Limits {
        replicas: KUBERNETES_MAX_PODS,
        pods: KUBERNETES_MAX_PODS,
        pod_rounds: i64::MAX,
        page: false,
    };

    /// These limits without the one on work ([`MAX_POD_ROUNDS`]): what the planner checks a
    /// scenario against before it runs, counting the pod-rounds as it goes instead.
    pub fn without_work(&self) -> Limits {
        Limits {
            pod_rounds: i64::MAX,
            ..*self
        }
    }

    /// Why a limit of this set exists, for a message.
    fn why(&self) -> &'static str {
        if self.page {
            ", a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"
        } else {
            ", Kubernetes' own limit on the pods of a cluster"
        }
    }
}

/// `10000` → `10,000`.
pub fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// `1 pass`, `2 passes`.
fn counted(n: i64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

/// At most `max` characters of `text`, with `…` when cut: what a message quotes of a value.
pub fn prefix(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Why a replica count is too big: `Rollout Lab simulates at most 10,000 replicas`.
pub fn check_replicas(replicas: i32) -> Result<(), String> {
    if replicas > MAX_REPLICAS {
        Err(format!(
            "Rollout Lab simulates at most {} replicas",
            group(i64::from(MAX_REPLICAS))
        ))
    } else {
        Ok(())
    }
}

/// Why a text is too long to read: `the manifest is 4,000,000 bytes; Rollout Lab reads at
/// most 3,145,728 (the API server's limit on a request)`.
pub fn check_text(what: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_DOCUMENT_BYTES {
        Err(format!(
            "{what} is {} bytes; Rollout Lab reads at most {}, the API server's limit on a request body",
            group(text.len() as i64),
            group(MAX_DOCUMENT_BYTES as i64)
        ))
    } else {
        Ok(())
    }
}

/// `field: value is more than max, why`.
fn over(field: &str, value: impl std::fmt::Display, max: i64, why: &str) -> String {
    format!("{field}: {value} is more than {}{why}", group(max))
}

/// The cluster model's fields within their limits: rounds, secondsPerRound, nodes,
/// readyAfterRounds, terminationRounds, the jitter, the number of actions and their rounds.
/// These hold wherever a scenario runs; [`crate::scenario::Scenario::from_value`] checks them.
pub fn check_model(s: &Scenario) -> Result<(), String> {
    const PACE: &str = ", the most rounds Rollout Lab simulates";
    let rounds = i64::from(MAX_ROUNDS);
    if s.rounds > MAX_ROUNDS {
        return Err(over("rounds", s.rounds, rounds, PACE));
    }
    if s.seconds_per_round > MAX_SECONDS_PER_ROUND {
        return Err(over(
            "secondsPerRound",
            s.seconds_per_round,
            MAX_SECONDS_PER_ROUND,
            " (a day), the longest round Rollout Lab simulates",
        ));
    }
    if s.nodes > MAX_NODES {
        return Err(over(
            "nodes",
            s.nodes,
            i64::from(MAX_NODES),
            ", the most nodes Kubernetes supports in one cluster",
        ));
    }
    for (field, v) in [
        ("readyAfterRounds", s.ready_after_rounds),
        ("terminationRounds", s.termination_rounds),
        (
            "model.readyJitterRounds",
            s.model.as_ref().map_or(0, |m| m.ready_jitter_rounds),
        ),
    ] {
        if v > MAX_ROUNDS {
            return Err(over(field, v, rounds, PACE));
        }
    }
    let images = s
        .actions
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match &a.kind {
            ActionKind::Create { deployment } => {
                Some((format!("actions[{i}].deployment.image"), &deployment.image))
            }
            ActionKind::SetImage { image, .. } => Some((format!("actions[{i}].image"), image)),
            _ => None,
        });
    let never_ready = s
        .never_ready_images
        .iter()
        .enumerate()
        .map(|(i, image)| (format!("neverReadyImages[{i}]"), image));
    let failing = s
        .model
        .iter()
        .filter_map(|m| m.failures.as_ref())
        .flat_map(|f| f.images.iter())
        .map(|(image, _)| ("model.failures".to_string(), image));
    for (field, image) in never_ready.chain(images).chain(failing) {
        if image.len() > MAX_IMAGE_BYTES {
            return Err(format!(
                "{field}: {} is {} bytes; Rollout Lab takes images of at most {}, more than a valid image reference has (a 255-character name, a 128-character tag and a digest)",
                prefix(image, 20),
                group(image.len() as i64),
                group(MAX_IMAGE_BYTES as i64)
            ));
        }
    }
    if s.actions.len() > MAX_ACTIONS {
        return Err(over(
            "actions",
            format!("{} actions", s.actions.len()),
            MAX_ACTIONS as i64,
            ", the most actions Rollout Lab reads",
        ));
    }
    if let Some(q) = s.pod_quota {
        if q < 0 {
            return Err(format!(
                "podQuota: {q} is negative; a ResourceQuota's hard limit must be at least 0"
            ));
        }
    }
    Ok(())
}

/// Pods at once that `strategy` allows over `replicas`: maxSurge resolved as Kubernetes
/// does (a percentage of the replicas, rounded up), in 64 bits so that nothing wraps. For
/// 10 replicas and `25%`: 3. An unreadable value counts as 0 (validation refuses it).
fn surge(replicas: i64, strategy: Option<&StrategyInput>) -> i64 {
    let Some(s) = strategy else {
        return (replicas * 25 + 99) / 100;
    };
    if s.type_.as_deref() == Some("Recreate") {
        return 0;
    }
    match &s.max_surge {
        None => (replicas * 25 + 99) / 100,
        Some(IntOrString::Int(n)) => i64::from(*n).max(0),
        Some(IntOrString::String(p)) => p
            .strip_suffix('%')
            .and_then(|n| n.parse::<i64>().ok())
            .map_or(0, |pct| {
                ((i128::from(replicas) * i128::from(pct.max(0)) + 99) / 100)
                    .min(i128::from(i64::MAX)) as i64
            }),
    }
}

/// What [`check_scenario_with`] tracks of one Deployment through the actions.
#[derive(Default)]
struct Tracked {
    replicas: i64,
    strategy: Option<StrategyInput>,
    /// The most pods at once so far: replicas + maxSurge at its largest.
    peak: i64,
}

/// The Deployment `name` of `deployments`.
fn tracked<'a>(deployments: &'a mut [(&str, Tracked)], name: &str) -> Option<&'a mut Tracked> {
    deployments
        .iter_mut()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| d)
}

/// Whether a scenario is within `limits`: the model's fields ([`check_model`]), every create
/// and scale (replicas, and replicas + maxSurge), the pod quota, and the work of the whole run
/// ([`work`] within [`Limits::pod_rounds`]). `Err` names the action, e.g. `actions[2] (round
/// 8): scales to 20000 replicas; Rollout Lab simulates at most 10,000 replicas, a limit for
/// the page's speed …`, or the figures of the work.
pub fn check_scenario_with(s: &Scenario, limits: &Limits) -> Result<(), String> {
    check_model(s)?;
    let why = limits.why();
    // By name, in the order of their creates (a list: a scenario has few Deployments).
    let mut deployments: Vec<(&str, Tracked)> = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        let at = format!("actions[{i}] (round {})", a.round);
        // The Deployment an action names; absent, the first by name (as the simulation picks
        // it); one that does not exist is refused by the simulation, nothing to count.
        let named = |name: &Option<String>| -> Option<String> {
            match name {
                Some(n) => Some(n.clone()),
                None => deployments
                    .iter()
                    .map(|(n, _)| *n)
                    .min()
                    .map(str::to_string),
            }
        };
        let (verb, name) = match &a.kind {
            ActionKind::Create { deployment } => {
                let name = deployment.name.as_str();
                if !deployments.iter().any(|(n, _)| *n == name) {
                    deployments.push((name, Tracked::default()));
                }
                let d = tracked(&mut deployments, name).expect("added above");
                d.replicas = i64::from(deployment.replicas.unwrap_or(1));
                d.strategy = deployment.strategy.clone();
                ("creates", deployment.name.clone())
            }
            ActionKind::Scale { name, replicas } => {
                let Some(name) = named(name) else { continue };
                let Some(d) = tracked(&mut deployments, &name) else {
                    continue;
                };
                d.replicas = i64::from(*replicas);
                ("scales to", name)
            }
            ActionKind::SetStrategy { name, strategy } => {
                let Some(name) = named(name) else { continue };
                let Some(d) = tracked(&mut deployments, &name) else {
                    continue;
                };
                d.strategy = Some(strategy.clone());
                ("sets the strategy of", name)
            }
            _ => continue,
        };
        let d = tracked(&mut deployments, &name).expect("tracked above");
        let replicas = d.replicas;
        if replicas > limits.replicas {
            return Err(format!(
                "{at}: {verb} {replicas} replicas; Rollout Lab simulates at most {} replicas{why}",
                group(limits.replicas)
            ));
        }
        let pods = replicas
            .max(0)
            .saturating_add(surge(replicas.max(0), d.strategy.as_ref()));
        if pods > limits.pods {
            return Err(format!(
                "{at}: {verb} {replicas} replicas with maxSurge {}: {} pods at once; Rollout Lab simulates at most {} pods at once{why}",
                match d.strategy.as_ref().and_then(|s| s.max_surge.as_ref()) {
                    Some(IntOrString::Int(n)) => n.to_string(),
                    Some(IntOrString::String(p)) => prefix(p, 20),
                    None => "25%".to_string(),
                },
                group(pods),
                group(limits.pods)
            ));
        }
        d.peak = d.peak.max(pods);
    }
    let w = Work::of(s, deployments.iter().map(|(_, d)| d.peak).sum());
    if w.pod_rounds() > limits.pod_rounds {
        return Err(format!(
            "{w}; Rollout Lab simulates at most {} pod-rounds in one run{why}",
            group(limits.pod_rounds)
        ));
    }
    Ok(())
}

/// The work of a run, bounded before it starts: the pods it may hold at once times its
/// rounds. The pods are each Deployment's replicas + maxSurge at its largest; with graceful
/// termination, the pods deleted in the last `terminationRounds` rounds are still there, at
/// most that many times over and at most once more per action that can delete pods (setImage,
/// scale, rollback, undo, setStrategy, restartPod: each replaces at most every pod once). A
/// settled round runs the controllers until nothing changes, and a ReplicaSet creates or
/// deletes at most `burstReplicas` (500) pods a sync, so in settled rounds each of those
/// actions counts as one more round per 500 pods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// Replicas + maxSurge of every Deployment at its largest.
    pub pods: i64,
    /// How many times over terminating pods may hold them (0 without graceful termination).
    pub terminating: i64,
    /// The scenario's rounds.
    pub rounds: u32,
    /// The actions that can replace pods.
    pub replacing: i64,
    /// Settled rounds: the passes each of those actions may add (0 in lock-step rounds).
    pub passes: i64,
}

impl Work {
    fn of(s: &Scenario, pods: i64) -> Work {
        let replacing = s
            .actions
            .iter()
            .filter(|a| {
                matches!(
                    a.kind,
                    ActionKind::SetImage { .. }
                        | ActionKind::Scale { .. }
                        | ActionKind::Rollback { .. }
                        | ActionKind::Undo { .. }
                        | ActionKind::SetStrategy { .. }
                        | ActionKind::RestartPod { .. }
                )
            })
            .count() as i64;
        let burst = crate::replicaset::BURST_REPLICAS as i64;
        Work {
            pods,
            terminating: replacing.min(i64::from(s.termination_rounds)),
            rounds: s.rounds,
            replacing,
            passes: if s.settle {
                (pods.max(0) + burst - 1) / burst
            } else {
                0
            },
        }
    }

    /// The most pods at once.
    pub fn pods_at_once(&self) -> i64 {
        self.pods.saturating_mul(1 + self.terminating)
    }

    /// Pods at once times rounds (and, settled, the passes the actions add).
    pub fn pod_rounds(&self) -> i64 {
        let rounds =
            i64::from(self.rounds).saturating_add(self.replacing.saturating_mul(self.passes));
        self.pods_at_once().saturating_mul(rounds)
    }
}

/// `100,000 rounds with up to 12,500 pods at once (replicas + maxSurge of each Deployment at
/// its largest) make 1,250,000,000 pod-rounds`; with graceful termination `… with up to 50,000
/// pods at once (12,500, replicas + maxSurge of each Deployment at its largest, and 3 times as
/// many terminating) …`; settled, `100 rounds and 25 passes for each of 99 actions that can
/// replace pods …`.
impl std::fmt::Display for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let largest = "replicas + maxSurge of each Deployment at its largest";
        write!(f, "{} rounds", group(i64::from(self.rounds)))?;
        if self.passes > 0 && self.replacing > 0 {
            write!(
                f,
                " and {} for each of {} that can replace pods (settled rounds, 500 pods a sync)",
                counted(self.passes, "pass", "passes"),
                counted(self.replacing, "action", "actions")
            )?;
        }
        write!(
            f,
            " with up to {} pods at once (",
            group(self.pods_at_once())
        )?;
        if self.terminating > 0 {
            write!(
                f,
                "{}, {largest}, and {} times as many terminating",
                group(self.pods),
                group(self.terminating)
            )?;
        } else {
            f.write_str(largest)?;
        }
        write!(f, ") make {} pod-rounds", group(self.pod_rounds()))
    }
}

/// [`check_scenario_with`] a page's limits: what the app, the embed, the JavaScript API and
/// links run.
pub fn check_scenario(s: &Scenario) -> Result<(), String> {
    check_scenario_with(s, &Limits::PAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(10_000), "10,000");
        assert_eq!(group(-1_234_567), "-1,234,567");
        assert_eq!(prefix("abcdef", 3), "abc…");
        assert_eq!(prefix("abc", 3), "abc");
    }

    fn scenario(replicas: i32, scale: i32) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","image":"a","replicas":{replicas}}}}},
            {{"round":3,"type":"scale","replicas":{scale}}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn scenarios_beyond_the_limits_are_refused_naming_the_action() {
        let s = scenario;
        assert_eq!(check_scenario(&s(10_000, 10_000)), Ok(()));
        assert_eq!(
            check_scenario(&s(10_001, 1)).unwrap_err(),
            "actions[0] (round 0): creates 10001 replicas; Rollout Lab simulates at most 10,000 replicas, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"
        );
        assert!(check_scenario(&s(1, 20_000))
            .unwrap_err()
            .starts_with("actions[1] (round 3): scales to 20000 replicas; Rollout Lab simulates at most 10,000 replicas"));
        // --large: Kubernetes' 150,000 pods.
        assert_eq!(check_scenario_with(&s(100_000, 1), &Limits::LARGE), Ok(()));
        assert!(check_scenario_with(&s(150_001, 1), &Limits::LARGE)
            .unwrap_err()
            .contains("at most 150,000 replicas, Kubernetes' own limit"));
    }

    #[test]
    fn replicas_plus_surge_is_counted_in_64_bits() {
        let s = Scenario::from_json(
            r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":10,
            "strategy":{"type":"RollingUpdate","maxSurge":2147483647}}}]}"#,
        )
        .unwrap();
        let e = check_scenario(&s).unwrap_err();
        assert!(e.contains("maxSurge 2147483647: 2,147,483,657 pods at once; Rollout Lab simulates at most 20,000 pods at once"), "{e}");
        let max = Scenario::from_json(
            r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":2147483647}}]}"#,
        )
        .unwrap();
        assert!(check_scenario_with(&max, &Limits::LARGE).is_err());
        // 10,000 replicas with 25 % surge: 12,500 pods, within 20,000.
        assert_eq!(check_scenario(&scenario(10_000, 1)), Ok(()));
    }

    #[test]
    fn model_fields_are_refused_one_past_their_limit() {
        let at = |field: &str, value: u64| {
            Scenario::from_json(&format!(
                r#"{{"{field}":{value},"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","image":"a"}}}}]}}"#
            ))
        };
        for (field, max) in [
            ("rounds", u64::from(MAX_ROUNDS)),
            ("nodes", u64::from(MAX_NODES)),
            ("secondsPerRound", MAX_SECONDS_PER_ROUND as u64),
            ("readyAfterRounds", u64::from(MAX_ROUNDS)),
            ("terminationRounds", u64::from(MAX_ROUNDS)),
        ] {
            assert!(at(field, max).is_ok(), "{field} {max}");
            let e = at(field, max + 1).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!(
                    "{field}: {} is more than {}",
                    max + 1,
                    group(max as i64)
                )),
                "{e}"
            );
        }
        // Through a link: at the limit read as it is, one past it named and replaced.
        let base = scenario(3, 3);
        for (field, set, max) in [
            (
                "nodes",
                &(|s: &mut Scenario, v: u64| s.nodes = v as u32) as &dyn Fn(&mut Scenario, u64),
                u64::from(MAX_NODES),
            ),
            (
                "rounds",
                &|s: &mut Scenario, v: u64| s.rounds = v as u32,
                u64::from(MAX_ROUNDS),
            ),
            (
                "secondsPerRound",
                &|s: &mut Scenario, v: u64| s.seconds_per_round = v as i64,
                MAX_SECONDS_PER_ROUND as u64,
            ),
        ] {
            for (value, ok) in [(max, true), (max + 1, false)] {
                let mut s = base.clone();
                set(&mut s, value);
                let link = crate::share::encode_link(&crate::share::Link {
                    scenario: s,
                    step: 0,
                    preset: None,
                });
                let r = crate::share::decode_link(&link, &base).unwrap();
                if ok {
                    assert!(r.ignored.is_empty(), "{field} {value}: {:?}", r.ignored);
                } else {
                    let why = r.ignored.join("; ");
                    assert!(
                        why.contains(&format!(
                            "{field}: {value} is more than {}",
                            group(max as i64)
                        )),
                        "{why}"
                    );
                }
            }
        }
        let image = |n: usize| {
            Scenario::from_json(&format!(
                r#"{{"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","image":"{}"}}}}]}}"#,
                "a".repeat(n)
            ))
        };
        assert!(image(MAX_IMAGE_BYTES).is_ok());
        let e = image(MAX_IMAGE_BYTES + 1).unwrap_err().to_string();
        assert!(
            e.contains("actions[0].deployment.image: aaaaaaaaaaaaaaaaaaaa… is 513 bytes; Rollout Lab takes images of at most 512"),
            "{e}"
        );
        let e = at("nodes", 4_294_967_295).unwrap_err().to_string();
        assert!(
            e.contains("5,000, the most nodes Kubernetes supports"),
            "{e}"
        );
    }

    /// A scenario of `rounds` rounds whose Deployment `web` has `replicas` replicas (25 %
    /// surge), with `extra` top-level fields and `actions` after the create.
    fn sized(rounds: u32, replicas: i32, extra: &str, actions: &str) -> Scenario {
        Scenario::from_json(&format!(
            r#"{{"rounds":{rounds},{extra}"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","image":"a","replicas":{replicas}}}}}{actions}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn the_work_of_a_run_is_refused_one_past_its_limit_with_the_figures() {
        // 800 replicas + 200 surge = 1,000 pods, for 2,000 rounds: 2,000,000 pod-rounds.
        assert_eq!(MAX_POD_ROUNDS, 2_000_000);
        assert_eq!(check_scenario(&sized(2_000, 800, "", "")), Ok(()));
        assert_eq!(
            check_scenario(&sized(2_001, 800, "", "")).unwrap_err(),
            "2,001 rounds with up to 1,000 pods at once (replicas + maxSurge of each Deployment at its largest) make 2,001,000 pod-rounds; Rollout Lab simulates at most 2,000,000 pod-rounds in one run, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"
        );
        // --large lifts it, up to Kubernetes' pods.
        assert_eq!(
            check_scenario_with(&sized(100_000, 100_000, "", ""), &Limits::LARGE),
            Ok(())
        );
        // The issue's case: 10,000 replicas, 50,000 rounds, readyJitterRounds 100,000.
        let e = check_scenario(&sized(
            50_000,
            10_000,
            r#""model":{"readyJitterRounds":100000,"seed":1},"#,
            "",
        ))
        .unwrap_err();
        assert!(
            e.starts_with("50,000 rounds with up to 12,500 pods at once")
                && e.contains("make 625,000,000 pod-rounds"),
            "{e}"
        );
    }

    #[test]
    fn the_work_counts_every_deployment_terminating_pods_and_settled_passes() {
        let scale = |round: u32, name: &str, to: i32| {
            format!(r#",{{"round":{round},"type":"scale","name":"{name}","replicas":{to}}}"#)
        };
        let other = r#",{"round":0,"type":"create","deployment":{"name":"api","image":"a","replicas":400}}"#;
        // web 800 → 1,000 pods and api 400 → 500 pods, each at its largest: 1,500 pods.
        let two = sized(1_000, 800, "", &format!("{other}{}", scale(5, "web", 8)));
        assert_eq!(
            Work::of(&two, 1_500).pods_at_once(),
            1_500,
            "no termination, lock-step"
        );
        assert_eq!(check_scenario(&two), Ok(()));
        let e = check_scenario(&sized(1_334, 800, "", other)).unwrap_err();
        assert!(
            e.contains("1,334 rounds with up to 1,500 pods at once"),
            "{e}"
        );
        // Graceful termination: 2 actions that replace pods, 5 rounds of termination: 3 times
        // the pods at once.
        let terminating = sized(
            666,
            800,
            r#""terminationRounds":5,"#,
            r#",{"round":3,"type":"setImage","image":"b"},{"round":4,"type":"setImage","image":"c"}"#,
        );
        assert_eq!(check_scenario(&terminating), Ok(()));
        let mut past = terminating.clone();
        past.rounds = 667;
        assert_eq!(
            check_scenario(&past).unwrap_err(),
            "667 rounds with up to 3,000 pods at once (1,000, replicas + maxSurge of each Deployment at its largest, and 2 times as many terminating) make 2,001,000 pod-rounds; Rollout Lab simulates at most 2,000,000 pod-rounds in one run, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"
        );
        // Settled rounds: each replacing action adds a pass per 500 pods (1,000 pods: 2).
        let settled = sized(
            1_996,
            800,
            r#""settle":true,"#,
            r#",{"round":3,"type":"setImage","image":"b"},{"round":4,"type":"setImage","image":"c"}"#,
        );
        assert_eq!(check_scenario(&settled), Ok(()));
        let mut past = settled.clone();
        past.rounds = 1_997;
        assert_eq!(
            check_scenario(&past).unwrap_err(),
            "1,997 rounds and 2 passes for each of 2 actions that can replace pods (settled rounds, 500 pods a sync) with up to 1,000 pods at once (replicas + maxSurge of each Deployment at its largest) make 2,001,000 pod-rounds; Rollout Lab simulates at most 2,000,000 pod-rounds in one run, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"
        );
    }
}
