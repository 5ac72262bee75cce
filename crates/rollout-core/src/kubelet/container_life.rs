//! The life of a container whose app fails ([`AppFailure`]), as v1.28.4's kubelet leads it, in
//! whole seconds on the pod's clock: starts, exits, kills, restarts under the crash-loop
//! back-off, readiness lost and regained, image pulls under their back-off, and the events the
//! kubelet records. It is worked out from the pod's first start each time it is asked
//! ([`life`]), so a status at any moment is a pure function of the pod and the model.
//!
//! The rules (`pkg/kubelet/kuberuntime/kuberuntime_manager.go`, `computePodActions` and
//! `doBackOff`; `pkg/kubelet/images/image_manager.go`, `EnsureImageExists`;
//! `pkg/kubelet/prober/worker.go`, `doProbe`; client-go's `flowcontrol.Backoff` in
//! [`backoff`](super::backoff)):
//! * A container that exits is restarted by the next sync (the PLEG's event: at once here)
//!   unless `IsInBackOffSince(key, FinishedAt)`: no entry (the first restart) or an expired one
//!   restarts at once; else it waits until `FinishedAt` + the entry's back-off
//!   (`CrashLoopBackOff`, the pod worker's re-queue jitter taken as 0). The restart calls
//!   `Next(key, FinishedAt)`, which doubles the entry (10 s → 300 s) and stamps it with the
//!   restart's moment; an entry stamped more than 2 × 300 s before an exit is forgotten.
//! * A liveness or startup probe that reaches `failureThreshold` gets the container killed
//!   (exit code 137, `Killing` event) and restarted in the same sync, where `doBackOff` reads
//!   the newest container that had already exited (the one before): no such container, or one
//!   outside its back-off, restarts at once; else the killed one is waited for from its own
//!   `FinishedAt`.
//! * A readiness probe that reaches `failureThreshold` takes the container out of Ready; after
//!   `successThreshold` successes it is Ready again.
//! * Each probe worker ticks every `periodSeconds` from the pod's admission; a tick counts only
//!   after the container started (the run at the same second finds it not yet running), once
//!   `int(seconds running) ≥ initialDelaySeconds`; liveness waits for the startup probe.
//! * An image that cannot be pulled: an attempt (`Pulling`, `Failed`, `ErrImagePull`) that
//!   fails at once, then `ImagePullBackOff` from the next second while
//!   `IsInBackOffSinceUpdate`; the next attempt when the back-off has passed since the last
//!   one (10 s, 20 s, 40 s … 300 s; v1.28's puller, whatever `restartBackOff` says).
//!
//! A container that exits shows `terminated` (reason `Error`) during the second it exits, then
//! `waiting` (`CrashLoopBackOff`) until its restart. Without a probe model (`model.probes`) the
//! pod is taken to have a readiness and a liveness probe with Kubernetes' defaults (every 10 s,
//! failureThreshold 3, successThreshold 1) beside its `readyAfterRounds` start-up.
//!
//! * An app that answers only from N s after each start (`slow:ready=N`): each failing run of
//!   its probes is an `Unhealthy` event; a startup or liveness probe that fails
//!   `failureThreshold` times before N kills it as above, and the next instance is as slow:
//!   it restarts for ever, Running but never Ready; a readiness probe only waits for it.
//!
//! Worked example (`crash:after=5s`, started at 0 s): exits at 5 s, no back-off entry,
//! restarted at 5 s (RESTARTS 1; entry 10 s); exits at 10 s, waits 10 s, restarted at 20 s
//! (entry 20 s); exits at 25 s, restarted at 45 s; exits at 50 s, restarted at 90 s.

use super::backoff::{self, BackOffEntry, BackOffPolicy};
use super::failures::AppFailure;
use super::probes::{Probe, ProbeModel};
use crate::api::{ContainerState, ContainerStatus, Time};

/// How the pod becomes Ready after each start.
#[derive(Clone, Copy, Debug)]
pub enum ReadyRule<'a> {
    /// `readyAfterRounds` (with its jitter): this many seconds after each start (`None`: never,
    /// a `neverReadyImages` image).
    After(Option<Time>),
    /// The kubelet's probe model.
    Probes(&'a ProbeModel),
}

/// What [`life`] needs to know about the pod.
#[derive(Clone, Copy, Debug)]
pub struct LifeInput<'a> {
    /// How the app fails.
    pub failure: &'a AppFailure,
    /// The crash-loop back-off.
    pub restart_back_off: BackOffPolicy,
    /// `format.Pod(pod)`: `web-rev2-00001_default(5e1f…)`, for the kubelet's messages.
    pub pod: &'a str,
    /// The container's name.
    pub container: &'a str,
    /// The image.
    pub image: &'a str,
    /// When the pod was admitted (bound to its node): the probe workers tick from here, and an
    /// image that cannot be pulled is first tried here.
    pub admitted: Time,
    /// When its first container started.
    pub first_started: Time,
    /// How it becomes Ready after each start.
    pub ready: ReadyRule<'a>,
}

/// An event the kubelet records about the pod (`recorder.Eventf(pod, …)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeletEvent {
    /// When.
    pub time: Time,
    /// `Normal` or `Warning`.
    pub type_: &'static str,
    /// `BackOff`, `Failed`, `Unhealthy`, `Killing`, `Pulling`, `Created`, `Started`.
    pub reason: &'static str,
    /// The kubelet's message.
    pub message: String,
}

/// The container at a moment, and what comes next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Life {
    /// The status at the moment asked (`synced_at` is that moment).
    pub status: ContainerStatus,
    /// The events recorded up to that moment, oldest first.
    pub events: Vec<KubeletEvent>,
    /// The first moment after it at which the status changes or an event is recorded (`None`:
    /// the container stays as it is).
    pub next_change: Option<Time>,
    /// The moments at which the container was (re)started, up to the moment asked.
    pub starts: Vec<Time>,
}

/// The ticks of a probe worker: `admitted + k × period`.
#[derive(Clone, Copy)]
struct Ticks {
    admitted: Time,
    period: Time,
}

impl Ticks {
    fn new(admitted: Time, probe: &Probe) -> Ticks {
        Ticks {
            admitted,
            period: probe.period_seconds.max(1),
        }
    }
    /// The first tick at or after `t`.
    fn at_or_after(self, t: Time) -> Time {
        if t <= self.admitted {
            return self.admitted;
        }
        let k = (t - self.admitted + self.period - 1) / self.period;
        self.admitted + k * self.period
    }
}

/// The probes that judge an app: the first container's of the probe model, or the defaults a
/// pod without a probe model is taken to have.
struct Probes {
    readiness: Option<Probe>,
    liveness: Option<Probe>,
    startup: Option<Probe>,
}

fn probes_of(rule: ReadyRule) -> Probes {
    match rule {
        ReadyRule::After(_) => Probes {
            readiness: Some(Probe::default()),
            liveness: Some(Probe::default()),
            startup: None,
        },
        ReadyRule::Probes(m) => {
            let first = |f: fn(&super::probes::ContainerProbes) -> Option<&Probe>| {
                m.containers.iter().find_map(|c| f(c).cloned())
            };
            Probes {
                readiness: first(|c| c.readiness_probe.as_ref()),
                liveness: first(|c| c.liveness_probe.as_ref()),
                startup: first(|c| c.startup_probe.as_ref()),
            }
        }
    }
}

/// One happening of an instance, in time order.
enum Item {
    Ready(bool),
    Event(&'static str, &'static str, String),
}

/// How an instance ends.
enum End {
    /// The app exits by itself (code 1).
    Crash(Time),
    /// A liveness or startup probe killed it.
    Killed(Time),
}

/// Collects the timeline up to `at`, and the first change after it.
struct Timeline {
    at: Time,
    status: ContainerStatus,
    events: Vec<KubeletEvent>,
    next_change: Option<Time>,
    starts: Vec<Time>,
}

impl Timeline {
    /// Whether `t` is past the moment asked (and so the next change): stop there.
    fn past(&mut self, t: Time) -> bool {
        if t > self.at {
            self.next_change = Some(self.next_change.map_or(t, |n| n.min(t)));
            return true;
        }
        false
    }
    fn event(
        &mut self,
        time: Time,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) -> bool {
        if self.past(time) {
            return false;
        }
        self.events.push(KubeletEvent {
            time,
            type_,
            reason,
            message,
        });
        true
    }
    /// Changes the status at `t` (unless `t` is past the moment asked).
    fn set(&mut self, t: Time, change: impl FnOnce(&mut ContainerStatus)) -> bool {
        if self.past(t) {
            return false;
        }
        change(&mut self.status);
        true
    }
}

/// The instance started at `start`: its readiness changes and probe events, and its end.
fn instance(input: &LifeInput, probes: &Probes, start: Time) -> (Vec<(Time, Item)>, Option<End>) {
    let mut items: Vec<(Time, Item)> = Vec::new();
    let ready_at = match input.ready {
        ReadyRule::After(d) => d.map(|d| start + d),
        ReadyRule::Probes(m) => m.pod_ready_at(input.admitted, start),
    };
    let unhealthy = |kind: &str| format!("{kind} probe failed: context deadline exceeded");
    match *input.failure {
        AppFailure::Crash { after } => {
            let exit = start + after.max(0);
            if let Some(r) = ready_at.filter(|r| *r < exit) {
                items.push((r, Item::Ready(true)));
            }
            (items, Some(End::Crash(exit)))
        }
        AppFailure::Probe { after } => {
            let silent = start + after.max(0);
            // The startup probe, if the app falls silent before it succeeded; else liveness
            // from the moment the container counts as started.
            let started = match input.ready {
                ReadyRule::Probes(m) => m
                    .containers_start(input.admitted, start)
                    .first()
                    .and_then(|c| c.started)
                    .unwrap_or(start),
                ReadyRule::After(_) => start,
            };
            let (killer, kind, from) = match (&probes.startup, &probes.liveness) {
                (Some(p), _) if started >= silent => (Some(p), "Startup", start),
                (_, Some(p)) => (Some(p), "Liveness", started),
                _ => (None, "", start),
            };
            let kill = killer.map(|p| {
                let ticks = Ticks::new(input.admitted, p);
                let first = ticks.at_or_after(
                    (silent)
                        .max(start + p.initial_delay_seconds.max(0))
                        .max(from)
                        .max(start + 1),
                );
                (first, p.period_seconds.max(1), p.failure_threshold.max(1))
            });
            if let Some(r) = ready_at.filter(|r| *r < silent) {
                items.push((r, Item::Ready(true)));
                if let Some(p) = &probes.readiness {
                    let first = Ticks::new(input.admitted, p).at_or_after(silent.max(r + 1));
                    let out = first + (p.failure_threshold.max(1) - 1) * p.period_seconds.max(1);
                    if kill.is_none_or(|(first, per, n)| out <= first + (n - 1) * per) {
                        for i in 0..p.failure_threshold.max(1) {
                            let t = first + i * p.period_seconds.max(1);
                            items.push((
                                t,
                                Item::Event("Warning", "Unhealthy", unhealthy("Readiness")),
                            ));
                        }
                        items.push((out, Item::Ready(false)));
                    }
                }
            }
            let Some((first, period, n)) = kill else {
                return (sorted(items), None);
            };
            for i in 0..n {
                items.push((
                    first + i * period,
                    Item::Event("Warning", "Unhealthy", unhealthy(kind)),
                ));
            }
            let k = first + (n - 1) * period;
            let probe = if kind == "Startup" {
                "startup"
            } else {
                "liveness"
            };
            items.push((
                k,
                Item::Event(
                    "Normal",
                    "Killing",
                    format!(
                        "Container {} failed {probe} probe, will be restarted",
                        input.container
                    ),
                ),
            ));
            (sorted(items), Some(End::Killed(k)))
        }
        AppFailure::Readiness { from, to } => {
            let (lo, hi) = (start + from.max(0), to.map(|t| start + t));
            let p = probes.readiness.clone().unwrap_or_default();
            let ticks = Ticks::new(input.admitted, &p);
            let (period, fail, succ) = (
                p.period_seconds.max(1),
                p.failure_threshold.max(1),
                p.success_threshold.max(1),
            );
            let back = hi.map(|h| ticks.at_or_after(h) + (succ - 1) * period);
            match ready_at {
                None => {}
                // Without a readiness probe nothing notices.
                Some(r) if probes.readiness.is_none() => items.push((r, Item::Ready(true))),
                Some(r) if r < lo => {
                    items.push((r, Item::Ready(true)));
                    {
                        let first = ticks.at_or_after(lo.max(r + 1));
                        let out = first + (fail - 1) * period;
                        if hi.is_none_or(|h| out < h) {
                            for i in 0..fail {
                                items.push((first + i * period, Item::Event("Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503".to_string())));
                            }
                            items.push((out, Item::Ready(false)));
                            if let Some(b) = back {
                                items.push((b, Item::Ready(true)));
                            }
                        }
                    }
                }
                Some(r) if hi.is_none_or(|h| r < h) => {
                    if let Some(b) = back {
                        items.push((b.max(r), Item::Ready(true)));
                    }
                }
                Some(r) => items.push((r, Item::Ready(true))),
            }
            (sorted(items), None)
        }
        AppFailure::Slow { ready } => slow(input, probes, start, start + ready.max(0)),
        AppFailure::Pull => (items, None),
    }
}

/// An instance of an app that answers its probes only from `answers` (`slow:ready=N`): each
/// failing run is an `Unhealthy` event ("connection refused": nothing listens yet); a startup
/// or liveness probe that reaches `failureThreshold` first kills it, else it is Ready when its
/// readiness probe (or `readyAfterRounds`, whichever is later) says.
fn slow(
    input: &LifeInput,
    probes: &Probes,
    start: Time,
    answers: Time,
) -> (Vec<(Time, Item)>, Option<End>) {
    let c = super::probes::ContainerProbes {
        name: input.container.to_string(),
        readiness_probe: probes.readiness.clone(),
        startup_probe: probes.startup.clone(),
        liveness_probe: probes.liveness.clone(),
    };
    let runs = super::probes::slow_start(&c, input.admitted, start, answers);
    let mut items: Vec<(Time, Item)> = runs
        .failures
        .iter()
        .map(|(t, kind)| {
            let message = format!("{kind} probe failed: dial tcp: connect: connection refused");
            (*t, Item::Event("Warning", "Unhealthy", message))
        })
        .collect();
    if let Some((k, probe)) = runs.killed {
        let message = format!(
            "Container {} failed {probe} probe, will be restarted",
            input.container
        );
        items.push((k, Item::Event("Normal", "Killing", message)));
        return (sorted(items), Some(End::Killed(k)));
    }
    let ready_at = match input.ready {
        ReadyRule::After(d) => d.and_then(|d| runs.ready.map(|r| r.max(start + d))),
        ReadyRule::Probes(m) => ProbeModel {
            app_ready_seconds: answers - start,
            ..m.clone()
        }
        .pod_ready_at(input.admitted, start),
    };
    if let Some(r) = ready_at {
        items.push((r, Item::Ready(true)));
    }
    (sorted(items), None)
}

fn sorted(mut items: Vec<(Time, Item)>) -> Vec<(Time, Item)> {
    // Stable: at one moment the events come before the change they lead to.
    crate::order::sort_by_key(&mut items, |(t, _)| *t);
    items
}

/// The image puller's timeline: attempts under the back-off, `ErrImagePull` then
/// `ImagePullBackOff`.
fn pulls(input: &LifeInput, tl: &mut Timeline) {
    let policy = BackOffPolicy::V1_28;
    let image = input.image;
    let mut attempt = input.admitted;
    let mut entry: Option<BackOffEntry> = None;
    loop {
        let failed = format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{image}\": not found"
        );
        let ok = tl.event(
            attempt,
            "Normal",
            "Pulling",
            format!("Pulling image \"{image}\""),
        ) && tl.event(
            attempt,
            "Warning",
            "Failed",
            format!("Failed to pull image \"{image}\": {failed}"),
        ) && tl.event(
            attempt,
            "Warning",
            "Failed",
            "Error: ErrImagePull".to_string(),
        ) && tl.set(attempt, |s| {
            s.state = ContainerState::Waiting {
                reason: "ErrImagePull".into(),
                message: failed.clone(),
            };
            s.back_off_until = None;
        });
        if !ok {
            return;
        }
        entry = Some(backoff::next(policy, entry, attempt, attempt));
        let next = attempt + entry.map_or(0, |e| e.backoff);
        debug_assert!(!backoff::is_in_back_off_since_update(policy, entry, next));
        let waiting = attempt + 1;
        if waiting < next {
            let message = format!("Back-off pulling image \"{image}\"");
            let ok = tl.event(waiting, "Normal", "BackOff", message.clone())
                && tl.event(
                    waiting,
                    "Warning",
                    "Failed",
                    "Error: ImagePullBackOff".to_string(),
                )
                && tl.set(waiting, |s| {
                    s.state = ContainerState::Waiting {
                        reason: "ImagePullBackOff".into(),
                        message,
                    };
                    s.back_off_until = Some(next);
                });
            if !ok {
                return;
            }
        }
        attempt = next;
    }
}

/// At most this many container starts are worked out; past them the container is left as it
/// is (a crash loop at the 300 s cap restarts about 290 times a day).
pub const MAX_STARTS: usize = 20_000;

/// The container's status at `at`, the kubelet's events up to `at`, and when it next changes.
pub fn life(input: &LifeInput, at: Time) -> Life {
    let mut tl = Timeline {
        at,
        status: ContainerStatus {
            name: input.container.to_string(),
            ready: false,
            restart_count: 0,
            state: ContainerState::Waiting {
                reason: "ContainerCreating".into(),
                message: String::new(),
            },
            last_state: None,
            back_off_until: None,
            first_started: input.first_started,
            synced_at: at,
        },
        events: Vec::new(),
        next_change: None,
        starts: Vec::new(),
    };
    if matches!(input.failure, AppFailure::Pull) {
        tl.status.first_started = input.admitted;
        pulls(input, &mut tl);
        return finish(tl);
    }
    if input.first_started > input.admitted {
        let pulling = format!("Pulling image \"{}\"", input.image);
        tl.event(input.admitted, "Normal", "Pulling", pulling);
    }
    let probes = probes_of(input.ready);
    let policy = input.restart_back_off;
    let mut entry: Option<BackOffEntry> = None;
    let mut prev_exit: Option<Time> = None;
    let mut start = input.first_started;
    let c = input.container;
    while tl.starts.len() < MAX_STARTS {
        let first = tl.starts.is_empty();
        let pulled = if first && input.first_started > input.admitted {
            format!(
                "Successfully pulled image \"{}\" in {}s",
                input.image,
                input.first_started - input.admitted
            )
        } else {
            format!(
                "Container image \"{}\" already present on machine",
                input.image
            )
        };
        let ok = tl.event(start, "Normal", "Pulled", pulled)
            && tl.event(start, "Normal", "Created", format!("Created container {c}"))
            && tl.event(start, "Normal", "Started", format!("Started container {c}"))
            && tl.set(start, |s| {
                if !first {
                    s.restart_count += 1;
                }
                s.state = ContainerState::Running { started_at: start };
                s.ready = false;
                s.back_off_until = None;
            });
        if !ok {
            break;
        }
        tl.starts.push(start);
        let (items, end) = instance(input, &probes, start);
        let end_at = match &end {
            Some(End::Crash(t) | End::Killed(t)) => Some(*t),
            None => None,
        };
        let mut stopped = false;
        for (t, item) in items {
            if end_at.is_some_and(|e| t > e) {
                break;
            }
            let ok = match item {
                Item::Ready(r) if end_at == Some(t) && r => true,
                Item::Ready(r) => tl.set(t, |s| s.ready = r),
                Item::Event(type_, reason, message) => tl.event(t, type_, reason, message),
            };
            if !ok {
                stopped = true;
                break;
            }
        }
        let Some(end) = end else { break };
        if stopped {
            break;
        }
        // The restart: when, and the back-off entry after it.
        let (exit, code) = match end {
            End::Crash(t) => (t, 1),
            End::Killed(t) => (t, 137),
        };
        let (restart, waited) = match end {
            End::Crash(e) => {
                let wait = backoff::is_in_back_off_since(policy, entry, e, e)
                    .then(|| entry.map_or(0, |x| x.backoff));
                let r = e + wait.unwrap_or(0);
                entry = Some(backoff::next(policy, entry, e, r));
                (r, wait)
            }
            End::Killed(k) => match prev_exit {
                None => (k, None),
                Some(f) if !backoff::is_in_back_off_since(policy, entry, f, k) => {
                    entry = Some(backoff::next(policy, entry, f, k));
                    (k, None)
                }
                Some(_) => {
                    let wait = backoff::is_in_back_off_since(policy, entry, k, k)
                        .then(|| entry.map_or(0, |x| x.backoff));
                    let r = k + wait.unwrap_or(0);
                    entry = Some(backoff::next(policy, entry, k, r));
                    (r, wait)
                }
            },
        };
        prev_exit = Some(exit);
        let terminated = ContainerState::Terminated {
            reason: "Error".into(),
            exit_code: code,
            started_at: start,
            finished_at: exit,
        };
        if restart > exit {
            let t = terminated.clone();
            if !tl.set(exit, |s| {
                s.state = t;
                s.ready = false;
            }) {
                break;
            }
            let waiting = exit + 1;
            if waiting < restart {
                let wait = waited.unwrap_or(0);
                let ok = tl.event(
                    waiting,
                    "Warning",
                    "BackOff",
                    format!(
                        "Back-off restarting failed container {c} in pod {}",
                        input.pod
                    ),
                ) && tl.set(waiting, |s| {
                    s.state = ContainerState::Waiting {
                        reason: "CrashLoopBackOff".into(),
                        message: format!(
                            "back-off {wait}s restarting failed container={c} pod={}",
                            input.pod
                        ),
                    };
                    s.last_state = Some(terminated.clone());
                    s.back_off_until = Some(restart);
                });
                if !ok {
                    break;
                }
            }
        }
        if tl.past(restart) {
            // The status still shows the exit; `lastState` moves at the restart.
            break;
        }
        tl.status.last_state = Some(terminated);
        start = restart;
    }
    finish(tl)
}

fn finish(tl: Timeline) -> Life {
    Life {
        status: tl.status,
        events: tl.events,
        next_change: tl.next_change,
        starts: tl.starts,
    }
}

#[cfg(test)]
mod tests;
