//! How a manifest's pods start, for its forecast: what was read from the manifest (each
//! container's probes, the init containers and native sidecars, the grace period) and what was
//! assumed (the image pull, when the app answers), and the start-up of one new pod that
//! follows (`kubelet::probes`). One rule for every pod, the kubelet's: a container without a
//! readiness probe is ready once it has started, a pod is Ready when all its containers are;
//! so a pod without probes is Ready when its image is pulled and its containers run.
//!
//! Example: podinfo's `readinessProbe: {initialDelaySeconds: 5}` (period 10 by default) with
//! `pull` 0 and `app ready` 0: the probe worker ticks at 0, 10 s…; the run at the container's
//! start is inside the delay, the tick at 10 s succeeds: a new pod is Ready 10 s after it is
//! admitted. nginx without probes, `pull` 12 s: Ready at 12 s, whatever `app ready` says (no
//! probe asks the app).

use crate::kubelet::probes::{ContainerProbes, ContainerStart, ProbeModel};
use serde::Serialize;

/// What the forecast read from the manifest about its pods' start-up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct StartupRead {
    /// Each container with its probes (Kubernetes' defaults filled in).
    pub containers: Vec<ContainerProbes>,
    /// The init containers that run to completion, in order.
    pub init_containers: Vec<String>,
    /// The native sidecars (`initContainers[].restartPolicy: Always`), among `containers`.
    pub sidecars: Vec<String>,
    /// `terminationGracePeriodSeconds`, when the manifest sets it.
    pub termination_grace_period_seconds: Option<i64>,
}

/// What the forecast assumed about its pods' start-up (each a flag of `rollout plan`, an
/// option of `plan()` and a field of the Plan page).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct StartupAssumed {
    /// Seconds to pull the image onto a node that lacks it (`--pull`, `pull`).
    pub pull_seconds: i64,
    /// Seconds from a container's start until the app answers (`--app-ready`, `appReady`);
    /// it matters only to a probe.
    pub app_ready_seconds: i64,
}

/// A manifest's pods' start-up in the forecast: read, assumed, and what follows for one new
/// pod on a node without its image.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Startup {
    /// What the manifest says.
    pub read: StartupRead,
    /// What the model assumes.
    pub assumed: StartupAssumed,
    /// `probes` (a readiness or startup probe times the pod) or `containersStarted` (none
    /// does: Ready once the containers run).
    pub timing: String,
    /// Seconds from a new pod's admission to its containers running (the pull).
    pub running_seconds: i64,
    /// Seconds from a new pod's admission to Ready; `None`: never.
    pub ready_seconds: Option<i64>,
    /// Each container's start-up, seconds after admission.
    pub container_starts: Vec<ContainerStart>,
}

impl Startup {
    /// Works out the start-up of `read` under the assumptions. For example a readiness probe
    /// with `initialDelaySeconds: 20, periodSeconds: 5`, pull 0, app ready 0: Ready at 20 s;
    /// no probe, pull 12 s: Ready at 12 s.
    pub fn new(read: StartupRead, pull: i64, app_ready: i64) -> Startup {
        let probes = ProbeModel {
            pull_seconds: pull.max(0),
            app_ready_seconds: app_ready.max(0),
            init_containers: read.init_containers.clone(),
            containers: read.containers.clone(),
        };
        let running = probes.pull_seconds;
        Startup {
            assumed: StartupAssumed {
                pull_seconds: probes.pull_seconds,
                app_ready_seconds: probes.app_ready_seconds,
            },
            timing: if probes.times_readiness() {
                "probes"
            } else {
                "containersStarted"
            }
            .to_string(),
            running_seconds: running,
            ready_seconds: probes.pod_ready_at(0, running),
            container_starts: probes.containers_start(0, running),
            read,
        }
    }

    /// Whether a readiness or startup probe times the pods (else they are Ready once their
    /// containers run, and the app's own start-up, `app ready`, plays no part).
    pub fn by_probes(&self) -> bool {
        self.timing == "probes"
    }

    /// The kubelet model a scenario selects for these pods (`model.probes`).
    pub fn probe_model(&self) -> Option<ProbeModel> {
        Some(ProbeModel {
            pull_seconds: self.assumed.pull_seconds,
            app_ready_seconds: self.assumed.app_ready_seconds,
            init_containers: self.read.init_containers.clone(),
            containers: self.read.containers.clone(),
        })
    }

    /// Why a new pod never becomes ready, when it does not (the containers' reasons).
    pub fn never_ready_because(&self) -> Option<String> {
        if self.ready_seconds.is_some() {
            return None;
        }
        let why: Vec<&str> = self
            .container_starts
            .iter()
            .filter_map(|c| c.never_because.as_deref())
            .collect();
        Some(format!(
            "with the app answering {} s after its container starts (--app-ready), the pods never become ready: {}",
            self.assumed.app_ready_seconds,
            why.join("; ")
        ))
    }

    /// One line per container: its probes as read, e.g. `web: readinessProbe
    /// initialDelaySeconds 5, periodSeconds 10, successThreshold 1, failureThreshold 3`.
    pub fn probe_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .read
            .containers
            .iter()
            .map(|c| {
                let probes: Vec<String> = [
                    ("startupProbe", &c.startup_probe),
                    ("readinessProbe", &c.readiness_probe),
                    ("livenessProbe", &c.liveness_probe),
                ]
                .iter()
                .filter_map(|(kind, p)| {
                    p.as_ref().map(|p| {
                        format!(
                            "{kind} initialDelaySeconds {}, periodSeconds {}, successThreshold {}, failureThreshold {}",
                            p.initial_delay_seconds,
                            p.period_seconds,
                            p.success_threshold,
                            p.failure_threshold
                        )
                    })
                })
                .collect();
                let name = if c.name.is_empty() { "(unnamed)" } else { &c.name };
                if probes.is_empty() {
                    format!("container {name}: no probes")
                } else {
                    format!("container {name}: {}", probes.join("; "))
                }
            })
            .collect();
        if !self.read.sidecars.is_empty() {
            lines.push(format!(
                "native sidecars {} (initContainers with restartPolicy: Always) start before the app's containers and run beside them, their readiness part of the pod's, as Kubernetes ≥ 1.29 runs them",
                self.read.sidecars.join(", ")
            ));
        }
        if !self.read.init_containers.is_empty() {
            lines.push(format!(
                "init containers {} run first, in order (assumed to finish at once)",
                self.read.init_containers.join(", ")
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubelet::probes::Probe;

    fn read(probe: Option<Probe>) -> StartupRead {
        StartupRead {
            containers: vec![ContainerProbes {
                name: "web".into(),
                readiness_probe: probe,
                ..ContainerProbes::default()
            }],
            ..StartupRead::default()
        }
    }

    #[test]
    fn probes_time_the_pod_and_without_them_the_containers_start_does() {
        let probe = Probe {
            initial_delay_seconds: 5,
            ..Probe::default()
        };
        // Pull 12 s, delay 5 (period 10): ticks at 0, 10, 20 s; the container runs from 12 s;
        // at 20 s int(8) ≥ 5: Ready at 20 s.
        let s = Startup::new(read(Some(probe)), 12, 0);
        assert!(s.by_probes());
        assert_eq!((s.running_seconds, s.ready_seconds), (12, Some(20)));
        assert_eq!(s.probe_model().unwrap().pull_seconds, 12);
        // No probe, pull 12 s, app ready 40 s: the kubelet marks the container ready once it
        // runs (no probe asks the app), so the pod is Ready at 12 s.
        let s = Startup::new(read(None), 12, 40);
        assert!(!s.by_probes());
        assert_eq!(s.timing, "containersStarted");
        assert_eq!((s.running_seconds, s.ready_seconds), (12, Some(12)));
        assert_eq!(s.probe_model().unwrap().pull_seconds, 12);
        assert_eq!(
            s.probe_lines(),
            vec!["container web: no probes".to_string()]
        );
        // Pull 0: Ready at once.
        assert_eq!(Startup::new(read(None), 0, 0).ready_seconds, Some(0));
    }
}
