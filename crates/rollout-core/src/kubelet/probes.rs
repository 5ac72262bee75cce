//! When a pod becomes Ready by its probes: the kubelet's prober (`pkg/kubelet/prober`,
//! `worker.go` and `prober_manager.go` of v1.28.4), modelled deterministically, in whole
//! seconds on the pod's clock.
//!
//! The pod is admitted (scheduled, here in the round it is created), its image is pulled
//! (`pullSeconds`, 0 when the image is already on the node), its init containers run to
//! completion in order (at once in this model) and its containers start together. Each probe
//! has a worker, started when the pod is admitted, that runs at once and then every
//! `periodSeconds` from then. A run does nothing while the container is not running or while
//! `int(seconds since it started) < initialDelaySeconds`; the startup worker runs until it
//! succeeds, and the readiness and liveness workers do nothing until it has. Besides its
//! ticks, the readiness worker runs at once whenever the kubelet regenerates the pod's status
//! while the container is started but not ready (`UpdatePodStatus`): when a container starts,
//! when a startup probe succeeds, when another container of the pod becomes ready. A result
//! counts after `successThreshold` consecutive successes (`failureThreshold` failures). A
//! container without a readiness probe is ready once started; the pod is Ready when all its
//! containers are. The app answers its probes from `appReadySeconds` after its container
//! starts.
//!
//! Example: admitted at 0 s, pull 12 s, `readinessProbe: {initialDelaySeconds: 5}` (period
//! 10): the worker ticks at 0, 10, 20 s; the container runs from 12 s; the run its start
//! triggers finds 0 s < 5 s, the tick at 20 s finds int(8) ≥ 5 and succeeds: Ready at 20 s.
//!
//! A startup or liveness probe that fails `failureThreshold` times before the app answers gets
//! the container restarted; the app takes as long again, so the pod never becomes ready (the
//! kubelet's CrashLoopBackOff): such a pod is modelled as never ready. An image whose app is
//! slow as a failure (`slow:ready=N`, [`super::failures`]) is led restart by restart instead
//! ([`slow_start`], `kubelet::container_life`).

use crate::api::{Pod, Time};
use crate::kubelet::{KubeletModel, PodChange};
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};

/// The timing fields of a `v1.Probe`, with Kubernetes' defaults (0, 10, 1, 3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// `initialDelaySeconds`: runs do nothing until the container has run this long.
    pub initial_delay_seconds: i64,
    /// `periodSeconds`: the worker's tick.
    pub period_seconds: i64,
    /// `successThreshold`: consecutive successes before the result is Success.
    pub success_threshold: i64,
    /// `failureThreshold`: consecutive failures before the result is Failure.
    pub failure_threshold: i64,
}

impl Default for Probe {
    fn default() -> Self {
        Probe {
            initial_delay_seconds: 0,
            period_seconds: 10,
            success_threshold: 1,
            failure_threshold: 3,
        }
    }
}

/// A container's probes, as its pod spec gives them (`containers[i]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ContainerProbes {
    /// The container's name.
    pub name: String,
    /// `readinessProbe`.
    pub readiness_probe: Option<Probe>,
    /// `startupProbe`.
    pub startup_probe: Option<Probe>,
    /// `livenessProbe`.
    pub liveness_probe: Option<Probe>,
}

/// The kubelet's start-up model (a scenario's `model.probes`): the pods' containers and
/// probes, and what the model assumes about images and the app. Selecting it replaces
/// `readyAfterRounds` (and its jitter). Read and written by hand as JSON
/// ([`ProbeModel::from_value`], [`ProbeModel::to_json`]): serde's derived code for these
/// three types, instantiated for every serializer and deserializer the app uses, cost the
/// app's module several kilobytes (gzip).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ProbeModel {
    /// Seconds to pull a pod's image onto a node that does not have it yet.
    pub pull_seconds: i64,
    /// Seconds from a container's start until the app answers its probes.
    pub app_ready_seconds: i64,
    /// The init containers, by name, run in order before the containers (at once here).
    pub init_containers: Vec<String>,
    /// The containers and their probes (none: one container without probes).
    pub containers: Vec<ContainerProbes>,
}

impl Probe {
    /// `{"initialDelaySeconds": 5, "periodSeconds": 10, …}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "initialDelaySeconds": self.initial_delay_seconds,
            "periodSeconds": self.period_seconds,
            "successThreshold": self.success_threshold,
            "failureThreshold": self.failure_threshold,
        })
    }
}

impl ContainerProbes {
    /// `{"name": "web", "readinessProbe": {…}}`, the probes it has.
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "name": self.name });
        for (key, p) in [
            ("readinessProbe", &self.readiness_probe),
            ("startupProbe", &self.startup_probe),
            ("livenessProbe", &self.liveness_probe),
        ] {
            if let Some(p) = p {
                v[key] = p.to_json();
            }
        }
        v
    }
}

impl ProbeModel {
    /// The model as a scenario's `model.probes` writes it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "pullSeconds": self.pull_seconds,
            "appReadySeconds": self.app_ready_seconds,
            "initContainers": self.init_containers,
            "containers": self.containers.iter().map(ContainerProbes::to_json).collect::<Vec<_>>(),
        })
    }
}

impl Serialize for ContainerProbes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl Serialize for ProbeModel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// Reads an optional `probes` field (`null` or absent: none) with [`ProbeModel::from_value`],
/// for `#[serde(deserialize_with)]`.
pub fn deserialize_optional<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<ProbeModel>, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        v => ProbeModel::from_value(&v)
            .map(Some)
            .map_err(serde::de::Error::custom),
    }
}

/// Inserts `t` into the sorted `list` unless it is there.
fn insert_sorted(list: &mut Vec<Time>, t: Time) {
    if let Err(at) = list.binary_search(&t) {
        list.insert(at, t);
    }
}

/// What the kubelet does with one container of a pod, on the pod's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStart {
    /// The container.
    pub name: String,
    /// When it counts as started (its startup probe succeeded, or it runs and has none).
    pub started: Option<Time>,
    /// When it is ready; `None`: never.
    pub ready: Option<Time>,
    /// Why it never becomes ready, when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub never_because: Option<String>,
}

/// The probe worker's ticks: at `admitted`, then every `period` seconds.
#[derive(Clone, Copy, Debug)]
struct Ticks {
    admitted: Time,
    period: i64,
}

impl Ticks {
    fn new(admitted: Time, probe: &Probe) -> Ticks {
        Ticks {
            admitted,
            period: probe.period_seconds.max(1),
        }
    }

    /// How many ticks come strictly before `t` (the index of the first tick at or after it).
    fn before(&self, t: Time) -> i64 {
        let d = t - self.admitted;
        if d <= 0 {
            0
        } else {
            (d + self.period - 1) / self.period
        }
    }

    /// The tick of index `k`.
    fn at(&self, k: i64) -> Time {
        self.admitted.saturating_add(k.saturating_mul(self.period))
    }
}

/// The first moment a run of `probe` does something for a container running from `running`:
/// its delay is over (`int(now - running) >= initialDelaySeconds`). A tick at the very moment
/// the container starts comes before it (the container is not running yet), so the ticks
/// count from `running + 1` at the earliest.
fn first_tick_counting(probe: &Probe, running: Time, after: Time) -> Time {
    (running + probe.initial_delay_seconds.max(0)).max(after + 1)
}

/// A startup or liveness worker that runs from `from` (a tick at or after it) against an app
/// answering from `answers`: `Err` when `failureThreshold` failing runs come first (the
/// kubelet restarts the container), else the moment of the `successThreshold`-th success.
fn succeeds(ticks: Ticks, probe: &Probe, from: Time, answers: Time) -> Result<Time, Time> {
    let first = ticks.before(from);
    let failing = (ticks.before(answers) - first).max(0);
    let threshold = probe.failure_threshold.max(1);
    if failing >= threshold {
        return Err(ticks.at(first + threshold - 1));
    }
    let k = ticks.before(answers.max(from));
    Ok(ticks.at(k + probe.success_threshold.max(1) - 1))
}

/// The readiness worker: its ticks after `started` and the runs the status updates in
/// `triggers` cause, counting from `from` (the app answers, the delay is over); the moment of
/// the `successThreshold`-th success.
///
/// Example: period 5, successThreshold 3, no delay, started and answering at 0 s with a run
/// at 0 s (the container's start): successes at 0, 5 and 10 s, Ready at 10 s.
fn readiness(ticks: Ticks, probe: &Probe, started: Time, from: Time, triggers: &[Time]) -> Time {
    let mut need = probe.success_threshold.max(1);
    let mut k = ticks.before(from.max(started + 1));
    for &t in triggers.iter().filter(|&&t| t >= from && t >= started) {
        let ticks_first = (ticks.before(t) - k).max(0);
        if ticks_first >= need {
            return ticks.at(k + need - 1);
        }
        need -= ticks_first;
        k += ticks_first;
        need -= 1;
        if need == 0 {
            return t;
        }
    }
    ticks.at(k + need - 1)
}

/// The container's start-up with the status updates `triggers` (sorted): when it counts as
/// started and when ready.
fn container_start(
    c: &ContainerProbes,
    admitted: Time,
    running: Time,
    answers: Time,
    triggers: &[Time],
) -> ContainerStart {
    let never = |because: String, started: Option<Time>| ContainerStart {
        name: c.name.clone(),
        started,
        ready: None,
        never_because: Some(because),
    };
    let started = match &c.startup_probe {
        None => running,
        Some(p) => {
            let from = first_tick_counting(p, running, running);
            match succeeds(Ticks::new(admitted, p), p, from, answers) {
                Ok(t) => t,
                Err(t) => {
                    return never(
                        format!(
                            "container {}: its startupProbe fails {} times before the app answers (the last at {} s): the kubelet restarts it, again and again",
                            c.name, p.failure_threshold.max(1), t - admitted
                        ),
                        None,
                    )
                }
            }
        }
    };
    if let Some(p) = &c.liveness_probe {
        let from = first_tick_counting(p, running, started);
        if let Err(t) = succeeds(Ticks::new(admitted, p), p, from, answers) {
            return never(
                format!(
                    "container {}: its livenessProbe fails {} times before the app answers (the last at {} s): the kubelet restarts it, again and again",
                    c.name, p.failure_threshold.max(1), t - admitted
                ),
                Some(started),
            );
        }
    }
    let ready = match &c.readiness_probe {
        None => started,
        Some(p) => {
            let from = answers.max(running + p.initial_delay_seconds.max(0));
            readiness(Ticks::new(admitted, p), p, started, from, triggers)
        }
    };
    ContainerStart {
        name: c.name.clone(),
        started: Some(started),
        ready: Some(ready),
        never_because: None,
    }
}

/// What a container's probe workers do against an app that answers only from `answers` (a
/// slow start, `slow:ready=N`): the runs that fail, the kill when a startup or liveness probe
/// reaches `failureThreshold` first, else when the container is ready.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SlowStart {
    /// The failing runs, in time order: the moment and the probe (`Startup`, `Liveness`,
    /// `Readiness`), each an `Unhealthy` event.
    pub failures: Vec<(Time, &'static str)>,
    /// The run that reaches `failureThreshold` and the probe (`startup` or `liveness`): the
    /// kubelet kills the container then.
    pub killed: Option<(Time, &'static str)>,
    /// When the container is ready (`None` when killed first).
    pub ready: Option<Time>,
}

/// [`SlowStart`] for container `c` of a pod admitted at `admitted`, running from `running`,
/// whose app answers from `answers`. The same rules as [`ProbeModel::containers_start`]:
/// startup first, liveness once started, readiness runs at its ticks and when the container
/// starts (the status update's run).
///
/// Example: `livenessProbe: {periodSeconds: 10, failureThreshold: 3}`, admitted and running
/// at 0 s, an app answering from 45 s: the run at 0 s finds the container not yet running;
/// failures at 10, 20, 30 s: killed at 30 s. With a `readinessProbe` (every 10 s) instead:
/// failures at 0 (the start's run), 10, 20, 30, 40 s; the tick at 50 s succeeds, Ready at 50 s.
pub fn slow_start(c: &ContainerProbes, admitted: Time, running: Time, answers: Time) -> SlowStart {
    let mut out = SlowStart::default();
    // The failing ticks of a startup or liveness worker from `from`: `Err` when they reach
    // the threshold (the kill's moment), else the moment it succeeds.
    let watch = |p: &Probe, from: Time, kind: &'static str, out: &mut SlowStart| {
        let ticks = Ticks::new(admitted, p);
        let result = succeeds(ticks, p, from, answers);
        let first = ticks.before(from);
        let last = match result {
            Err(t) => t,
            Ok(_) => ticks.at(ticks.before(answers.max(from)) - 1),
        };
        let mut k = first;
        while ticks.at(k) <= last && ticks.at(k) < answers.max(from) {
            out.failures.push((ticks.at(k), kind));
            k += 1;
        }
        result
    };
    let started = match &c.startup_probe {
        None => running,
        Some(p) => match watch(
            p,
            first_tick_counting(p, running, running),
            "Startup",
            &mut out,
        ) {
            Ok(t) => t,
            Err(t) => {
                out.killed = Some((t, "startup"));
                return out;
            }
        },
    };
    let end = match &c.liveness_probe {
        Some(p) => match watch(
            p,
            first_tick_counting(p, running, started),
            "Liveness",
            &mut out,
        ) {
            Ok(_) => None,
            Err(t) => {
                out.killed = Some((t, "liveness"));
                Some(t)
            }
        },
        None => None,
    };
    if let Some(p) = &c.readiness_probe {
        let delay_over = running + p.initial_delay_seconds.max(0);
        let ticks = Ticks::new(admitted, p);
        let mut runs: Vec<Time> = Vec::new();
        if started >= delay_over {
            runs.push(started);
        }
        let mut k = ticks.before(delay_over.max(started + 1));
        while ticks.at(k) < answers && end.is_none_or(|e| ticks.at(k) <= e) {
            runs.push(ticks.at(k));
            k += 1;
        }
        for t in runs
            .into_iter()
            .filter(|t| *t < answers && end.is_none_or(|e| *t <= e))
        {
            out.failures.push((t, "Readiness"));
        }
    }
    crate::order::sort_by_key(&mut out.failures, |(t, _)| *t);
    out.failures.dedup();
    if end.is_none() {
        out.ready = container_start(c, admitted, running, answers, &[running, started]).ready;
    }
    out
}

impl ProbeModel {
    /// Whether any container has a readiness or startup probe (else the probes do not time
    /// the pod and a manifest keeps `--ready-after`).
    pub fn times_readiness(&self) -> bool {
        self.containers
            .iter()
            .any(|c| c.readiness_probe.is_some() || c.startup_probe.is_some())
    }

    /// Each container's start-up for a pod admitted at `admitted` whose containers run from
    /// `running`. The status updates that trigger readiness runs are the containers' start,
    /// each startup probe's success and each container becoming ready: the containers are
    /// worked out again with the updates found until none moves.
    pub fn containers_start(&self, admitted: Time, running: Time) -> Vec<ContainerStart> {
        let one = [ContainerProbes {
            name: "app".to_string(),
            ..ContainerProbes::default()
        }];
        let containers: &[ContainerProbes] = if self.containers.is_empty() {
            &one
        } else {
            &self.containers
        };
        let answers = running.saturating_add(self.app_ready_seconds.max(0));
        // The status updates known from the start: the containers start, startup probes
        // succeed (neither depends on readiness runs).
        let mut triggers = vec![running];
        for c in containers {
            if let Some(t) = container_start(c, admitted, running, answers, &[]).started {
                insert_sorted(&mut triggers, t);
            }
        }
        // Then in time order: the container ready first is final; its becoming ready is a
        // status update for the others, worked out again with it.
        let mut done: Vec<Option<ContainerStart>> = vec![None; containers.len()];
        while done.iter().any(Option::is_none) {
            let mut first: Option<(usize, ContainerStart)> = None;
            for (i, c) in containers.iter().enumerate() {
                if done[i].is_some() {
                    continue;
                }
                let s = container_start(c, admitted, running, answers, &triggers);
                let earlier = match (&first, s.ready) {
                    (None, _) => true,
                    (Some((_, f)), Some(r)) => f.ready.is_none_or(|fr| r < fr),
                    (Some(_), None) => false,
                };
                if earlier {
                    first = Some((i, s));
                }
            }
            let Some((i, s)) = first else { break };
            if s.ready.is_none() {
                // The earliest is never: so are all the others left.
                for (j, c) in containers.iter().enumerate() {
                    if done[j].is_none() {
                        done[j] = Some(container_start(c, admitted, running, answers, &triggers));
                    }
                }
                break;
            }
            if let Some(r) = s.ready {
                insert_sorted(&mut triggers, r);
            }
            done[i] = Some(s);
        }
        done.into_iter().flatten().collect()
    }

    /// When a pod admitted at `admitted`, its containers running from `running`, is Ready:
    /// when its last container is; `None` when one never is.
    pub fn pod_ready_at(&self, admitted: Time, running: Time) -> Option<Time> {
        self.containers_start(admitted, running)
            .iter()
            .try_fold(running, |at, c| c.ready.map(|r| r.max(at)))
    }

    /// `pod_ready_at` for a pod in the store: admitted when created (the scheduler binds it in
    /// the kubelet pass of the round it is created in), running from `started_at` (set when it
    /// was scheduled, or when its container restarted).
    pub fn ready_at(&self, pod: &Pod) -> Option<Time> {
        self.pod_ready_at(pod.metadata.creation_timestamp, pod.started_at)
    }
}

/// One kubelet pass under the probe model: pods whose graceful termination is over go away;
/// an unscheduled pod is bound to `node-(serial mod nodes)` and its containers run once its
/// image is on the node (`pullSeconds` from now, or when the pull another pod of that image on
/// that node started is done, or now if it is there); a pod whose probes say so becomes Ready.
pub fn kubelet_pass(
    api: &mut ApiServer,
    model: &KubeletModel,
    probes: &ProbeModel,
) -> Vec<PodChange> {
    let now = api.now();
    let nodes = model.nodes.max(1);
    let mut changes = Vec::new();
    let mut to_schedule: Vec<(String, String, String, Time)> = Vec::new();
    let mut to_ready: Vec<String> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    let mut cycle = crate::kubelet::scheduling_cycle(api, model);
    let mut unschedulable: Vec<(String, String)> = Vec::new();
    for pod in api.pods() {
        let name = &pod.metadata.name;
        if let Some(deleted) = pod.metadata.deletion_timestamp {
            if (now - deleted) / model.seconds_per_round.max(1)
                >= i64::from(model.termination_rounds)
            {
                removed.push(name.clone());
            }
        } else if pod.node_name.is_empty() {
            let node = match &mut cycle {
                None => format!("node-{}", pod.serial % nodes),
                Some(c) => match crate::kubelet::place(c, pod, &mut unschedulable) {
                    Some(node) => node,
                    None => continue,
                },
            };
            to_schedule.push((
                name.clone(),
                node,
                pod.image.clone(),
                pod.metadata.creation_timestamp,
            ));
        } else if !pod.is_ready()
            && !model.never_ready_images.contains(&pod.image)
            && !super::restarts::handles(model, pod)
            && probes.ready_at(pod).is_some_and(|t| t <= now)
        {
            to_ready.push(name.clone());
        }
    }
    // When each image is (or will be) on each node: the earliest container start of a pod of
    // that image there.
    let mut on_node: Vec<(String, String, Time)> = Vec::new();
    let note =
        |on_node: &mut Vec<(String, String, Time)>, node: &str, image: &str, t: Time| match on_node
            .iter_mut()
            .find(|(n, i, _)| n == node && i == image)
        {
            Some((_, _, at)) => *at = (*at).min(t),
            None => on_node.push((node.to_string(), image.to_string(), t)),
        };
    if !to_schedule.is_empty() {
        for pod in api.pods().filter(|p| !p.node_name.is_empty()) {
            note(&mut on_node, &pod.node_name, &pod.image, pod.started_at);
        }
    }
    for name in removed {
        api.remove_pod(&name);
        changes.push(PodChange::Removed { pod: name });
    }
    for (name, node, image, admitted) in to_schedule {
        let running = match on_node.iter().find(|(n, i, _)| *n == node && *i == image) {
            Some(&(_, _, t)) => t.max(now),
            None => now.saturating_add(probes.pull_seconds.max(0)),
        };
        note(&mut on_node, &node, &image, running);
        let _ = api.schedule_pod_running_from(&name, &node, running);
        let fails = model
            .failures
            .as_ref()
            .is_some_and(|f| f.of(&image).is_some());
        let ready = !model.never_ready_images.contains(&image)
            && !fails
            && probes
                .pod_ready_at(admitted, running)
                .is_some_and(|t| t <= now);
        changes.push(PodChange::Scheduled {
            pod: name.clone(),
            node,
        });
        if ready {
            to_ready.push(name);
        }
    }
    for name in to_ready {
        let _ = api.mark_pod_ready(&name);
        changes.push(PodChange::BecameReady { pod: name });
    }
    crate::kubelet::mark_unschedulable(api, unschedulable, &mut changes);
    changes
}

const PROBE_FIELDS: [&str; 4] = [
    "initialDelaySeconds",
    "periodSeconds",
    "successThreshold",
    "failureThreshold",
];

/// `Err` naming the first key of `obj` not in `known` (the scenario format is strict).
fn known_keys(obj: &serde_json::Value, known: &[&str], path: &str) -> Result<(), String> {
    let Some(obj) = obj.as_object() else {
        return Err(format!("{path}: expected an object"));
    };
    match obj.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(format!(
            "{path}: unknown field `{k}`, expected one of {}",
            known.join(", ")
        )),
        None => Ok(()),
    }
}

impl ProbeModel {
    /// Reads a scenario's `model.probes`: `{"pullSeconds": 12, "appReadySeconds": 0,
    /// "initContainers": ["init"], "containers": [{"name": "web", "readinessProbe":
    /// {"initialDelaySeconds": 5}}]}`, every field optional, probe fields defaulted as the
    /// API server does; an unknown field or a negative number is refused, by name.
    pub fn from_value(v: &serde_json::Value) -> Result<ProbeModel, String> {
        known_keys(
            v,
            &[
                "pullSeconds",
                "appReadySeconds",
                "initContainers",
                "containers",
            ],
            "probes",
        )?;
        let seconds = |key: &str| -> Result<i64, String> {
            match v.get(key) {
                None => Ok(0),
                Some(n) => n
                    .as_i64()
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| format!("probes.{key}: expected seconds (≥ 0), not {n}")),
            }
        };
        let mut model = ProbeModel {
            pull_seconds: seconds("pullSeconds")?,
            app_ready_seconds: seconds("appReadySeconds")?,
            ..ProbeModel::default()
        };
        let list = |key: &str| match v.get(key) {
            None => Ok(Vec::new()),
            Some(serde_json::Value::Array(a)) => Ok(a.clone()),
            Some(other) => Err(format!("probes.{key}: expected a list, not {other}")),
        };
        for (i, name) in list("initContainers")?.iter().enumerate() {
            let name = name
                .as_str()
                .ok_or_else(|| format!("probes.initContainers[{i}]: expected a name"))?;
            model.init_containers.push(name.to_string());
        }
        let kinds = ["readinessProbe", "startupProbe", "livenessProbe"];
        for (i, c) in list("containers")?.iter().enumerate() {
            let at = format!("probes.containers[{i}]");
            known_keys(c, &["name", kinds[0], kinds[1], kinds[2]], &at)?;
            for kind in kinds {
                if let Some(p) = c.get(kind) {
                    known_keys(p, &PROBE_FIELDS, &format!("{at}.{kind}"))?;
                }
            }
            let spec = serde_json::json!({ "containers": [c] });
            let read = read_pod_probes(&spec, "probes")
                .map_err(|e| e.replace("probes.containers[0]", &at))?;
            model.containers.extend(read.containers);
        }
        Ok(model)
    }
}

/// Reads one probe of a container spec (`readinessProbe`, …) as the API server defaults it:
/// absent or `null` is no probe, a 0 or absent field Kubernetes' default. `Err` is the API
/// server's message for a negative value, naming the field under `path`.
fn read_probe(v: Option<&serde_json::Value>, path: &str) -> Result<Option<Probe>, String> {
    let Some(obj) = v.and_then(serde_json::Value::as_object) else {
        return Ok(None);
    };
    let mut p = Probe::default();
    let slots: [&mut i64; 4] = [
        &mut p.initial_delay_seconds,
        &mut p.period_seconds,
        &mut p.success_threshold,
        &mut p.failure_threshold,
    ];
    for (key, slot) in PROBE_FIELDS.into_iter().zip(slots) {
        let Some(n) = obj.get(key).and_then(serde_json::Value::as_i64) else {
            continue;
        };
        if n < 0 {
            return Err(format!(
                "{path}.{key}: Invalid value: {n}: must be greater than or equal to 0"
            ));
        }
        if n > 0 {
            *slot = n;
        }
    }
    Ok(Some(p))
}

/// The probes of a pod spec (`spec.template.spec`): each container's readiness, startup and
/// liveness probes, and the init containers' names. `Err` names the field the API server
/// would refuse, under `path` (e.g. `spec.template.spec`).
pub fn read_pod_probes(spec: &serde_json::Value, path: &str) -> Result<ProbeModel, String> {
    let list = |key: &str| {
        spec.get(key)
            .and_then(serde_json::Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut model = ProbeModel::default();
    // Native sidecars (`initContainers[].restartPolicy: Always`, Kubernetes ≥ 1.29): started in
    // order before the app's containers and running beside them, their readiness part of the
    // pod's (`pkg/kubelet/kuberuntime`'s restartable init containers). In this model they
    // start with the app's containers; one whose startupProbe would hold the app back is
    // refused, as the model cannot delay the next container.
    let sidecars: Vec<(String, serde_json::Value)> = list("initContainers")
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.get("restartPolicy").and_then(serde_json::Value::as_str) == Some("Always")
        })
        .map(|(i, c)| (format!("{path}.initContainers[{i}]"), c.clone()))
        .collect();
    let app: Vec<(String, serde_json::Value)> = list("containers")
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("{path}.containers[{i}]"), c.clone()))
        .collect();
    for (at, c) in sidecars.iter().chain(app.iter()) {
        if sidecars.iter().any(|(a, _)| a == at)
            && c.get("startupProbe").is_some_and(|p| !p.is_null())
        {
            return Err(format!(
                "{at}.startupProbe: a native sidecar's startup probe holds the next container back until it succeeds (Kubernetes ≥ 1.29); Rollout Lab starts a sidecar with the app's containers and does not model that wait: remove the sidecar's startupProbe to plan the rest"
            ));
        }
        let probe = |key: &str| read_probe(c.get(key), &format!("{at}.{key}"));
        let liveness = probe("livenessProbe")?;
        let startup = probe("startupProbe")?;
        for (key, p) in [("livenessProbe", &liveness), ("startupProbe", &startup)] {
            if let Some(p) = p.as_ref().filter(|p| p.success_threshold != 1) {
                return Err(format!(
                    "{at}.{key}.successThreshold: Invalid value: {}: must be 1",
                    p.success_threshold
                ));
            }
        }
        model.containers.push(ContainerProbes {
            name: c
                .get("name")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_string(),
            readiness_probe: probe("readinessProbe")?,
            startup_probe: startup,
            liveness_probe: liveness,
        });
    }
    model.init_containers = list("initContainers")
        .iter()
        .filter(|c| c.get("restartPolicy").and_then(serde_json::Value::as_str) != Some("Always"))
        .filter_map(|c| c.get("name").and_then(serde_json::Value::as_str))
        .map(str::to_string)
        .collect();
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readiness(delay: i64, period: i64, success: i64) -> ProbeModel {
        ProbeModel {
            containers: vec![ContainerProbes {
                name: "web".into(),
                readiness_probe: Some(Probe {
                    initial_delay_seconds: delay,
                    period_seconds: period,
                    success_threshold: success,
                    ..Probe::default()
                }),
                ..ContainerProbes::default()
            }],
            ..ProbeModel::default()
        }
    }

    #[test]
    fn readiness_delays_and_periods() {
        // Delay 5, period 10: the run at the start (0 s) is inside the delay; tick at 10 s.
        assert_eq!(readiness(5, 10, 1).pod_ready_at(0, 0), Some(10));
        // Delay 20, period 5: ticks 0, 5, …, 20 s; at 20 s int(20) ≥ 20.
        assert_eq!(readiness(20, 5, 1).pod_ready_at(0, 0), Some(20));
        // No delay: the run the container's start triggers succeeds at once.
        assert_eq!(readiness(0, 10, 1).pod_ready_at(0, 0), Some(0));
        // successThreshold 3, period 5: successes at 0 (start), 5 and 10 s.
        assert_eq!(readiness(0, 5, 3).pod_ready_at(0, 0), Some(10));
        // Admitted at 100 s: the same, on the pod's clock.
        assert_eq!(readiness(5, 10, 1).pod_ready_at(100, 100), Some(110));
    }

    #[test]
    fn a_startup_probe_holds_readiness_back() {
        let mut m = readiness(0, 10, 1);
        m.containers[0].startup_probe = Some(Probe {
            period_seconds: 10,
            failure_threshold: 30,
            ..Probe::default()
        });
        m.app_ready_seconds = 45;
        // Startup runs at 10, 20, 30, 40 s fail; 50 s succeeds; the readiness run that the
        // status update triggers succeeds at once.
        let c = &m.containers_start(0, 0)[0];
        assert_eq!((c.started, c.ready), (Some(50), Some(50)));
        // Without a readiness probe the container is ready once started.
        m.containers[0].readiness_probe = None;
        assert_eq!(m.pod_ready_at(0, 0), Some(50));
        // failureThreshold 4: the 4 failing runs at 10…40 s restart the container.
        m.containers[0]
            .startup_probe
            .as_mut()
            .unwrap()
            .failure_threshold = 4;
        let c = &m.containers_start(0, 0)[0];
        assert_eq!(c.ready, None);
        assert!(
            c.never_because.as_deref().unwrap().contains("40 s"),
            "{c:?}"
        );
    }

    #[test]
    fn the_pull_delays_the_container_not_the_ticks() {
        // Pull 12 s: ticks at 0, 10, 20 s; running from 12 s; the run at 12 s is inside the
        // 5 s delay, the tick at 20 s (int(8) ≥ 5) succeeds.
        assert_eq!(readiness(5, 10, 1).pod_ready_at(0, 12), Some(20));
    }

    #[test]
    fn a_liveness_probe_that_fails_first_restarts_the_container() {
        let mut m = readiness(0, 10, 1);
        m.app_ready_seconds = 45;
        assert_eq!(m.pod_ready_at(0, 0), Some(50));
        m.containers[0].liveness_probe = Some(Probe::default());
        // Liveness fails at 10, 20, 30 s (3 times): restarted, never ready.
        assert_eq!(m.pod_ready_at(0, 0), None);
        m.containers[0].liveness_probe = Some(Probe {
            initial_delay_seconds: 30,
            ..Probe::default()
        });
        // Runs from 30 s: fails at 30 and 40 s only; ready at 50 s.
        assert_eq!(m.pod_ready_at(0, 0), Some(50));
    }

    #[test]
    fn a_pod_is_ready_when_all_its_containers_are_and_each_readiness_regenerates_the_status() {
        let mut m = readiness(0, 7, 1);
        m.app_ready_seconds = 1;
        m.containers.push(ContainerProbes {
            name: "sidecar".into(),
            readiness_probe: Some(Probe {
                initial_delay_seconds: 3,
                period_seconds: 30,
                ..Probe::default()
            }),
            ..ContainerProbes::default()
        });
        // web: ticks 0, 7 s: ready at 7 s (answers from 1 s). sidecar: its ticks are 0, 30 s,
        // but web's becoming ready at 7 s regenerates the status: its run at 7 s succeeds.
        let s = m.containers_start(0, 0);
        assert_eq!((s[0].ready, s[1].ready), (Some(7), Some(7)));
        assert_eq!(m.pod_ready_at(0, 0), Some(7));
    }

    #[test]
    fn a_scenario_selects_the_probe_model_strictly() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"name":"p","rounds":40,"secondsPerRound":1,"readyAfterRounds":1,
                "terminationRounds":0,"nodes":1,"settle":true,
                "model":{"probes":{"pullSeconds":12,"containers":[{"name":"web",
                    "readinessProbe":{"initialDelaySeconds":5}}]}},
                "actions":[{"round":0,"type":"create","deployment":{"name":"web",
                    "replicas":1,"image":"web:1"}}]}"#,
        )
        .unwrap();
        let m = s.model.as_ref().unwrap().probes.clone().unwrap();
        assert_eq!(m.pull_seconds, 12);
        assert_eq!(m.pod_ready_at(0, 12), Some(20));
        // The kubelet times the pod by its probes, not readyAfterRounds 1: Ready at 20 s.
        let mut sim = crate::sim::Simulation::new(s.clone());
        for _ in 0..20 {
            sim.run_round();
        }
        let ready = |sim: &crate::sim::Simulation| sim.api().pods().any(|p| p.is_ready());
        assert!(!ready(&sim), "not ready before 20 s");
        sim.run_round();
        assert!(ready(&sim), "ready at 20 s");
        for (bad, why) in [
            (r#"{"probes":{"pull":1}}"#, "probes: unknown field `pull`"),
            (
                r#"{"probes":{"containers":[{"name":"web","readinessProbe":{"timeout":1}}]}}"#,
                "probes.containers[0].readinessProbe: unknown field `timeout`",
            ),
            (
                r#"{"probes":{"containers":[{"readinessProbe":{"periodSeconds":-1}}]}}"#,
                "probes.containers[0].readinessProbe.periodSeconds: Invalid value: -1",
            ),
            (
                r#"{"probes":{"appReadySeconds":-1}}"#,
                "probes.appReadySeconds",
            ),
        ] {
            let mut v = serde_json::to_value(&s).unwrap();
            v["model"] = serde_json::from_str(bad).unwrap();
            let e = crate::scenario::Scenario::from_value(&v).unwrap_err();
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn probes_are_read_with_kubernetes_defaults() {
        let spec = serde_json::json!({
            "initContainers": [{"name": "init"}],
            "containers": [
                {"name": "web", "readinessProbe": {"httpGet": {"path": "/"}, "initialDelaySeconds": 5},
                 "livenessProbe": null},
                {"name": "side", "startupProbe": {"periodSeconds": 0, "failureThreshold": 30}}
            ]
        });
        let m = read_pod_probes(&spec, "spec.template.spec").unwrap();
        assert_eq!(m.init_containers, vec!["init".to_string()]);
        assert_eq!(
            m.containers[0].readiness_probe,
            Some(Probe {
                initial_delay_seconds: 5,
                ..Probe::default()
            })
        );
        assert_eq!(m.containers[0].liveness_probe, None);
        let s = m.containers[1].startup_probe.as_ref().unwrap();
        assert_eq!((s.period_seconds, s.failure_threshold), (10, 30));
        assert!(m.times_readiness());
        let bad = serde_json::json!({"containers": [{"name": "web",
            "readinessProbe": {"periodSeconds": -1}}]});
        assert_eq!(
            read_pod_probes(&bad, "spec.template.spec").unwrap_err(),
            "spec.template.spec.containers[0].readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0"
        );
    }
}
