//! `kubectl get pods` and a `kubectl describe pod` subset, printed from the API server's pods
//! as kubectl v1.28 prints them (`pkg/printers/internalversion/printers.go`, `printPod`;
//! `k8s.io/kubectl/pkg/describe`, `describePod`).
//!
//! STATUS is the phase, replaced by the container's waiting reason (`CrashLoopBackOff`,
//! `ErrImagePull`, `ImagePullBackOff`, `ContainerCreating`) or terminated reason (`Error`), and
//! by `Terminating` once the pod is being deleted. RESTARTS is the restart count, followed by
//! how long ago the last termination finished once there is one (kubectl ≥ 1.23): a container
//! restarted 3 times whose last exit was at 70 s reads `3 (20s ago)` at 90 s. READY counts the
//! containers that are ready and running. A pod whose app does not fail carries no container
//! status in this model: its STATUS is `Pending` until it is bound, `ContainerCreating` until
//! its container runs (the image pull), then `Running` (`0/1` until it is Ready).

use crate::api::{ContainerState, Pod, PodPhase, Time};
use crate::view::age;
use serde::Serialize;

/// One row of `kubectl get pods`, its cells as kubectl prints them, and the numbers behind
/// them for a front end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodRow {
    /// NAME.
    pub name: String,
    /// READY: `1/1`.
    pub ready: String,
    /// STATUS: `Running`, `CrashLoopBackOff`, `ImagePullBackOff`, `Terminating`, ….
    pub status: String,
    /// RESTARTS: `0`, `3 (20s ago)`.
    pub restarts: String,
    /// AGE: `5m10s`.
    pub age: String,
    /// The restart count.
    pub restart_count: i32,
    /// While the kubelet backs off (a restart or a pull), the seconds left until it tries
    /// again.
    pub back_off_left: Option<Time>,
}

/// `printPod` for one pod at `now`; `containers` is how many containers its spec has.
pub fn pod_row(pod: &Pod, containers: usize, now: Time) -> PodRow {
    let total = containers.max(1);
    let mut reason: String = match pod.phase {
        PodPhase::Pending if !pod.node_name.is_empty() && pod.started_at > now => {
            "ContainerCreating".to_string()
        }
        PodPhase::Pending if !pod.node_name.is_empty() => "Running".to_string(),
        phase => format!("{phase:?}"),
    };
    let mut ready = if pod.is_ready() { total } else { 0 };
    let mut last_restart: Option<Time> = None;
    let mut back_off_left = None;
    if let Some(c) = &pod.container {
        ready = 0;
        if let Some(ContainerState::Terminated { finished_at, .. }) = &c.last_state {
            last_restart = Some(*finished_at);
        }
        match &c.state {
            ContainerState::Waiting { reason: r, .. } if !r.is_empty() => reason = r.to_string(),
            ContainerState::Terminated { reason: r, .. } if !r.is_empty() => reason = r.to_string(),
            ContainerState::Terminated { exit_code, .. } => {
                reason = format!("ExitCode:{exit_code}")
            }
            ContainerState::Running { .. } if c.ready => ready = total,
            _ => {}
        }
        back_off_left = c.back_off_until.map(|t| (t - now).max(0));
    }
    if pod.metadata.deletion_timestamp.is_some() {
        reason = "Terminating".to_string();
    }
    let restarts = match last_restart {
        Some(t) if pod.restart_count != 0 => {
            format!("{} ({} ago)", pod.restart_count, age(now - t))
        }
        _ => pod.restart_count.to_string(),
    };
    PodRow {
        name: pod.metadata.name.clone(),
        ready: format!("{ready}/{total}"),
        status: reason,
        restarts,
        age: age(now - pod.metadata.creation_timestamp),
        restart_count: pod.restart_count,
        back_off_left,
    }
}

/// Cells aligned as `kubectl get`'s tab writer does (minimum width 6, padding 3, the last
/// column unpadded).
pub fn table(rows: &[Vec<String>]) -> String {
    aligned(rows, 6, 3)
}

/// Cells aligned by a Go `tabwriter` with this minimum width and padding (`kubectl describe`'s
/// is 0 and 2).
fn aligned(rows: &[Vec<String>], min_width: usize, padding: usize) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..columns)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count() + padding)
                .max()
                .unwrap_or(0)
                .max(min_width)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            out.push_str(cell);
            if i + 1 < row.len() {
                let pad = width[i] - cell.chars().count();
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
    out
}

/// `kubectl get pods`: the rows of `pods` (in the order given) under NAME READY STATUS
/// RESTARTS AGE; `No resources found in default namespace.` when there are none.
pub fn get_pods<'a>(
    pods: impl IntoIterator<Item = &'a Pod>,
    containers: usize,
    now: Time,
) -> String {
    let mut rows = vec![["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
        .map(str::to_string)
        .to_vec()];
    for pod in pods {
        let r = pod_row(pod, containers, now);
        rows.push(vec![r.name, r.ready, r.status, r.restarts, r.age]);
    }
    if rows.len() == 1 {
        return "No resources found in default namespace.\n".to_string();
    }
    table(&rows)
}

/// `kubectl describe pod`'s container state lines (`State:`, `Reason:`, `Exit Code:`, …),
/// indented under `label` as kubectl's `describeContainerState` does.
fn state_lines(out: &mut Vec<String>, label: &str, state: &ContainerState) {
    match state {
        ContainerState::Waiting { reason, .. } => {
            out.push(format!("    {label:<16}Waiting"));
            out.push(format!("      Reason:       {reason}"));
        }
        ContainerState::Running { started_at } => {
            out.push(format!("    {label:<16}Running"));
            out.push(format!("      Started:      {}", clock(*started_at)));
        }
        ContainerState::Terminated {
            reason,
            exit_code,
            started_at,
            finished_at,
        } => {
            out.push(format!("    {label:<16}Terminated"));
            out.push(format!("      Reason:       {reason}"));
            out.push(format!("      Exit Code:    {exit_code}"));
            out.push(format!("      Started:      {}", clock(*started_at)));
            out.push(format!("      Finished:     {}", clock(*finished_at)));
        }
    }
}

/// A moment on the simulation's clock, as describe's times are read here: `t=90s`.
fn clock(t: Time) -> String {
    format!("t={t}s")
}

/// One event as `kubectl describe` lists it: type, reason, age, from, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribedEvent {
    /// `Normal` or `Warning`.
    pub type_: String,
    /// `BackOff`, ….
    pub reason: String,
    /// When it was first recorded.
    pub first: Time,
    /// When last.
    pub last: Time,
    /// How many times (kubectl's `(x4 over 2m)`).
    pub count: u32,
    /// `kubelet`, `default-scheduler`.
    pub from: String,
    /// The message.
    pub message: String,
}

/// `kubectl describe pod NAME`, a subset: name, node, status, the container's state, last
/// state, ready and restart count, the conditions and the events (those recorded with the same
/// reason and message folded into one line with their count, as the event recorder's
/// aggregation shows them).
pub fn describe_pod(pod: &Pod, events: &[DescribedEvent], now: Time) -> String {
    let row = pod_row(pod, 1, now);
    let mut out = vec![
        format!("Name:             {}", pod.metadata.name),
        "Namespace:        default".to_string(),
        format!(
            "Node:             {}",
            if pod.node_name.is_empty() {
                "<none>"
            } else {
                &pod.node_name
            }
        ),
        format!("Status:           {:?}", pod.phase),
        "Containers:".to_string(),
    ];
    let name = pod.container.as_ref().map_or("app", |c| c.name.as_str());
    out.push(format!("  {name}:"));
    out.push(format!("    Image:          {}", pod.image));
    match &pod.container {
        Some(c) => {
            state_lines(&mut out, "State:", &c.state);
            if let Some(last) = &c.last_state {
                state_lines(&mut out, "Last State:", last);
            }
            out.push(format!(
                "    Ready:          {}",
                if c.ready { "True" } else { "False" }
            ));
        }
        None => {
            let state = if pod.started_at <= now && !pod.node_name.is_empty() {
                ContainerState::Running {
                    started_at: pod.started_at,
                }
            } else {
                ContainerState::Waiting {
                    reason: row.status.clone().into(),
                    message: String::new(),
                }
            };
            state_lines(&mut out, "State:", &state);
            out.push(format!(
                "    Ready:          {}",
                if pod.is_ready() { "True" } else { "False" }
            ));
        }
    }
    out.push(format!("    Restart Count:  {}", pod.restart_count));
    out.push("Conditions:".to_string());
    out.push("  Type              Status".to_string());
    for c in &pod.conditions {
        out.push(format!("  {:<18}{:?}", c.type_.as_str(), c.status));
    }
    out.push("Events:".to_string());
    if events.is_empty() {
        out.push("  <none>".to_string());
    } else {
        let mut rows = vec![
            ["Type", "Reason", "Age", "From", "Message"]
                .map(str::to_string)
                .to_vec(),
            ["----", "------", "----", "----", "-------"]
                .map(str::to_string)
                .to_vec(),
        ];
        for e in events {
            let ago = if e.count > 1 {
                format!(
                    "{} (x{} over {})",
                    age(now - e.last),
                    e.count,
                    age(now - e.first)
                )
            } else {
                age(now - e.first)
            };
            rows.push(vec![
                e.type_.clone(),
                e.reason.clone(),
                ago,
                e.from.clone(),
                e.message.clone(),
            ]);
        }
        for line in aligned(&rows, 0, 2).lines() {
            out.push(format!("  {line}"));
        }
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// Folds a pod's events (oldest first) as the event recorder aggregates them: the same type,
/// reason and message make one line with a count, first and last time.
pub fn fold_events<'a>(
    events: impl IntoIterator<Item = &'a crate::api::Event>,
) -> Vec<DescribedEvent> {
    let mut out: Vec<DescribedEvent> = Vec::new();
    for e in events {
        let from = if e.kind == "Pod" {
            "kubelet"
        } else {
            "replicaset-controller"
        };
        match out
            .iter_mut()
            .find(|d| d.reason == e.reason && d.message == e.message && d.type_ == e.type_)
        {
            Some(d) => {
                d.count += 1;
                d.last = e.time;
            }
            None => out.push(DescribedEvent {
                type_: e.type_.to_string(),
                reason: e.reason.to_string(),
                first: e.time,
                last: e.time,
                count: 1,
                from: from.to_string(),
                message: e.message.clone(),
            }),
        }
    }
    out
}

/// How many containers the simulation's pods have: the probe model's, else one.
fn containers_of(sim: &crate::sim::Simulation) -> usize {
    sim.scenario()
        .model
        .as_ref()
        .and_then(|m| m.probes.as_ref())
        .map_or(1, |p| p.containers.len().max(1))
}

/// The `kubectl get pods` rows of a simulation now (the API server lists pods by name). A pod
/// of one of the model's `neverReadyImages` reads `ErrImagePull`, then `ImagePullBackOff`
/// ([`crate::view::waiting_reason`]), as on the stage.
pub fn pod_rows(sim: &crate::sim::Simulation) -> Vec<PodRow> {
    let containers = containers_of(sim);
    let s = sim.scenario();
    sim.api()
        .pods()
        .map(|p| {
            let mut row = pod_row(p, containers, sim.now());
            if p.container.is_none() {
                let never = &s.never_ready_images;
                if let Some(r) =
                    crate::view::waiting_reason(p, never, s.seconds_per_round, sim.now())
                {
                    row.status = r.to_string();
                }
            }
            row
        })
        .collect()
}

/// `kubectl get pods` on a simulation now.
pub fn get_pods_of(sim: &crate::sim::Simulation) -> String {
    let rows = pod_rows(sim);
    if rows.is_empty() {
        return "No resources found in default namespace.\n".to_string();
    }
    let mut cells = vec![["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
        .map(str::to_string)
        .to_vec()];
    cells.extend(
        rows.into_iter()
            .map(|r| vec![r.name, r.ready, r.status, r.restarts, r.age]),
    );
    table(&cells)
}

/// `kubectl describe pod NAME` on a simulation now, with the events the kubelet recorded about
/// it; `None` when there is no such pod (kubectl's `Error from server (NotFound)`).
pub fn describe_pod_of(sim: &crate::sim::Simulation, name: &str) -> Option<String> {
    let pod = sim.api().pods().find(|p| p.metadata.name == name)?;
    let events = fold_events(
        sim.events()
            .map(|e| &*e.event)
            .filter(|e| e.kind == "Pod" && e.name == name),
    );
    Some(describe_pod(pod, &events, sim.now()))
}

#[cfg(test)]
mod tests;
