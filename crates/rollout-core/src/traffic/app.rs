//! When a pod's app answers requests: from its container's start plus the app's start-up time
//! (the probe model's `appReadySeconds`), until it exits after SIGTERM, crashes or hangs.
//!
//! What the kubelet decides (when the container runs, restarts, back-off) is read from the pod
//! as the kubelet model left it; what the app does is the model's parameters:
//! * under the probe model (`model.probes`) the app answers `appReadySeconds` after its
//!   container starts (`Pod::started_at`, after the image pull), whatever its probes say;
//! * without it (the conformance model's `readyAfterRounds`) a pod's app answers from the moment
//!   it is Ready: that model has no booting app to catch out;
//! * a pod whose app fails ([`crate::kubelet::failures`]) answers from its running container's
//!   start plus that time, until `crash:after` (it exits) or `probe:after` (it hangs); with
//!   `readiness:from,to` it cannot serve in that window (what a failing readiness probe reports);
//!   a waiting or exited container answers nothing;
//! * a deleted pod: `preStop` sleeps, SIGTERM, the app exits `exitAfterSigtermSeconds` later;
//!   the model's termination (`terminationRounds`) ending first kills it then (SIGKILL).
//!
//! Example: `appReadySeconds` 8, a container started at 30 s: silent (booting) in 30 … 37,
//! answering from 38 s. Deleted at 60 s with `preStop` sleep 5 and an exit 2 s after SIGTERM:
//! answering until 67 s, unless its termination (3 rounds of 1 s) ends at 63 s first.

use super::TrafficModel;
use crate::api::{ContainerState, Pod, Time};
use crate::kubelet::failures::AppFailure;
use crate::kubelet::KubeletModel;
use serde::Serialize;

/// Why a pod's app does not answer a request, in the model's terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Silence {
    /// Its container is not running yet (pending, pulling, not bound).
    NotStarted,
    /// Its container runs but the app answers only `app_ready_seconds` after the start.
    #[serde(rename_all = "camelCase")]
    Booting {
        /// When the container started.
        started: Time,
        /// When the app answers.
        answers_from: Time,
        /// Whether the pod has a readiness probe (without one it is Ready at its start).
        readiness_probe: bool,
    },
    /// Deleted: its app exited after SIGTERM (or its termination killed it).
    #[serde(rename_all = "camelCase")]
    ShutDown {
        /// The `deletionTimestamp`.
        deleted: Time,
        /// When the app exited.
        exited: Time,
        /// The `preStop` sleep it ran first.
        pre_stop_seconds: i64,
    },
    /// Its container exited or waits (crash, back-off, image pull): the kubelet's reason.
    #[serde(rename_all = "camelCase")]
    ContainerDown {
        /// `CrashLoopBackOff`, `Error`, `ImagePullBackOff`, …
        reason: String,
    },
    /// Its app stopped answering (`probe:after`) at `since`.
    Hung {
        /// When.
        since: Time,
    },
    /// Its app cannot serve (`readiness:from,to`) from `since`.
    Unavailable {
        /// When.
        since: Time,
    },
    /// The image never becomes ready (`neverReadyImages`).
    NeverReady,
    /// The pod is gone from the API server (its termination is over).
    Gone,
}

/// A pod's app's answering window, as far as its current state tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppLife {
    /// It answers from here (`None`: not while this state lasts).
    pub answers_from: Option<Time>,
    /// Why it does not answer before `answers_from` (or at all).
    pub before: Silence,
    /// It stops answering here, and why.
    pub stops: Option<(Time, Silence)>,
    /// A window in which it cannot serve (`readiness:from,to`; end `None`: for good).
    pub gap: Option<(Time, Option<Time>)>,
}

impl AppLife {
    fn silent(before: Silence) -> AppLife {
        AppLife {
            answers_from: None,
            before,
            stops: None,
            gap: None,
        }
    }

    /// Whether it answers in second `t`; `Err` says why not.
    pub fn answers(&self, t: Time) -> Result<(), Silence> {
        match self.answers_from {
            Some(from) if from <= t => {}
            _ => return Err(self.before.clone()),
        }
        if let Some((at, why)) = &self.stops {
            if *at <= t {
                return Err(why.clone());
            }
        }
        if let Some((from, to)) = self.gap {
            if from <= t && to.is_none_or(|to| t < to) {
                return Err(Silence::Unavailable { since: from });
            }
        }
        Ok(())
    }

    /// When its app exited after SIGTERM, if it has by `t`: the kubelet then reports the pod
    /// not ready, so its endpoint stops serving.
    pub fn exited_by(&self, t: Time) -> bool {
        matches!(&self.stops, Some((at, Silence::ShutDown { .. })) if *at <= t)
    }

    /// The moments its answering may change, for the tracker's spans.
    pub fn moments(&self) -> impl Iterator<Item = Time> + '_ {
        self.answers_from
            .into_iter()
            .chain(self.stops.as_ref().map(|(t, _)| *t))
            .chain(self.gap.map(|(f, _)| f))
            .chain(self.gap.and_then(|(_, t)| t))
    }
}

/// What the app's life depends on besides the pod: the kubelet model and the traffic model.
#[derive(Clone, Debug)]
pub struct AppContext {
    /// The kubelet model of the simulation.
    pub kubelet: KubeletModel,
    /// The traffic model.
    pub traffic: TrafficModel,
    /// Apps whose containers started before this moment answer from it at the latest: a
    /// planned rollout starts from a version that has been up for long, whatever its pods'
    /// simulated start-up (`None`: every app boots as simulated).
    pub warm_from: Option<Time>,
}

impl AppContext {
    /// Whether the pods have a readiness probe (the probe model's containers).
    pub fn readiness_probe(&self) -> bool {
        self.kubelet
            .probes
            .as_ref()
            .is_some_and(|p| p.containers.iter().any(|c| c.readiness_probe.is_some()))
    }

    /// Seconds from a container's start until its app answers.
    fn app_ready_seconds(&self, pod: &Pod) -> i64 {
        match &self.kubelet.probes {
            Some(p) => p.app_ready_seconds.max(0),
            None => {
                i64::from(self.kubelet.ready_after(&pod.metadata.name))
                    * self.kubelet.seconds_per_round.max(1)
            }
        }
    }

    /// The pod's app's life as its state at the snapshot tells.
    pub fn life(&self, pod: &Pod) -> AppLife {
        let mut life = self.running_life(pod);
        if let Some(deleted) = pod.metadata.deletion_timestamp {
            let pre_stop = self.traffic.pre_stop_sleep_seconds;
            let sigterm_exit = deleted
                .saturating_add(pre_stop)
                .saturating_add(self.traffic.exit_after_sigterm_seconds);
            let killed = deleted.saturating_add(
                i64::from(self.kubelet.termination_rounds) * self.kubelet.seconds_per_round.max(1),
            );
            let exited = sigterm_exit.min(killed);
            if life.stops.as_ref().is_none_or(|(t, _)| exited < *t) {
                life.stops = Some((
                    exited,
                    Silence::ShutDown {
                        deleted,
                        exited,
                        pre_stop_seconds: pre_stop,
                    },
                ));
            }
        }
        life
    }

    /// The life before any deletion.
    fn running_life(&self, pod: &Pod) -> AppLife {
        if self.kubelet.never_ready_images.contains(&pod.image) {
            return AppLife::silent(Silence::NeverReady);
        }
        if pod.node_name.is_empty() {
            return AppLife::silent(Silence::NotStarted);
        }
        let failure = self
            .kubelet
            .failures
            .as_ref()
            .and_then(|f| f.of(&pod.image));
        if let Some(c) = &pod.container {
            let started = match &c.state {
                ContainerState::Running { started_at } => *started_at,
                other => {
                    return AppLife::silent(Silence::ContainerDown {
                        reason: other.reason().unwrap_or("Waiting").to_string(),
                    })
                }
            };
            return self.started_life(pod, started, failure);
        }
        if self.kubelet.probes.is_none() {
            // The conformance model: the app answers once the pod is Ready.
            return match pod.ready_time() {
                Some(t) => AppLife {
                    answers_from: Some(t),
                    ..AppLife::silent(Silence::NotStarted)
                },
                None => AppLife::silent(Silence::NotStarted),
            };
        }
        self.started_life(pod, pod.started_at, failure)
    }

    /// A container running from `started`, its app answering `appReadySeconds` later.
    fn started_life(&self, pod: &Pod, started: Time, failure: Option<&AppFailure>) -> AppLife {
        let mut answers_from = started.saturating_add(self.app_ready_seconds(pod));
        if let Some(warm) = self.warm_from.filter(|w| started < *w) {
            answers_from = answers_from.min(warm);
        }
        let mut life = AppLife {
            answers_from: Some(answers_from),
            before: Silence::Booting {
                started,
                answers_from,
                readiness_probe: self.readiness_probe(),
            },
            stops: None,
            gap: None,
        };
        match failure {
            Some(AppFailure::Crash { after }) => {
                life.stops = Some((
                    started.saturating_add(*after),
                    Silence::ContainerDown {
                        reason: "Error".to_string(),
                    },
                ))
            }
            Some(AppFailure::Probe { after }) => {
                let since = started.saturating_add(*after);
                life.stops = Some((since, Silence::Hung { since }))
            }
            Some(AppFailure::Readiness { from, to }) => {
                life.gap = Some((
                    started.saturating_add(*from),
                    to.map(|to| started.saturating_add(to)),
                ))
            }
            Some(AppFailure::Slow { ready }) => {
                // A slow start: the app answers only `ready` s after each start.
                let answers_from = started.saturating_add(*ready);
                life.answers_from = Some(answers_from);
                // Its template's probes (`model.templateProbes`) if it has its own.
                let readiness_probe = self
                    .kubelet
                    .probes_of(&pod.image)
                    .is_some_and(|p| p.containers.iter().any(|c| c.readiness_probe.is_some()));
                life.before = Silence::Booting {
                    started,
                    answers_from,
                    readiness_probe,
                };
            }
            Some(AppFailure::Pull) => {
                return AppLife::silent(Silence::ContainerDown {
                    reason: "ImagePullBackOff".to_string(),
                })
            }
            None => {}
        }
        life
    }
}
