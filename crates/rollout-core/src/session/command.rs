//! What a user types at kubectl, and what kubectl (or the API server behind it) answers.
//!
//! A [`Command`] is checked the way kubectl checks it: its flags first (`--replicas=abc` is
//! refused before any request), then what it reads from the cluster (`rollout undo` needs a
//! revision, `rollout pause` a Deployment that is not paused yet), then the request itself,
//! which the session sends to a copy of the API server with the pending commands already
//! applied (the one interpreter, [`crate::sim::apply_action`]). An accepted command is queued
//! as a scenario action for the start of the next round.

use crate::kubectl::check_err;
use crate::scenario::{ActionKind, StrategyInput};
use crate::store::{ApiServer, QUOTA_NAME};
use serde::{Deserialize, Serialize};

/// A kubectl command (or, for `RestartPod`, a container restart) on the session's Deployment.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    tag = "command",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Command {
    /// `kubectl set image deployment/web app=<image>`.
    SetImage {
        /// The new image.
        image: String,
    },
    /// `kubectl scale deployment/web --replicas=<replicas>`, the flag as typed.
    Scale {
        /// The flag's text.
        replicas: String,
    },
    /// `kubectl rollout pause deployment/web`.
    Pause,
    /// `kubectl rollout resume deployment/web`.
    Resume,
    /// `kubectl rollout undo deployment/web [--to-revision=N]` (0: the previous revision).
    Undo {
        /// `--to-revision`.
        to_revision: i64,
    },
    /// `kubectl annotate deployment/web deprecated.deployment.rollback.to=<revision>`: the
    /// legacy server-side rollback.
    RollbackAnnotation {
        /// The revision (0: the previous one).
        revision: i64,
    },
    /// `kubectl patch deployment/web -p '{"spec":{"strategy":…}}'`.
    SetStrategy {
        /// The whole strategy.
        strategy: StrategyInput,
    },
    /// `kubectl patch … minReadySeconds`.
    SetMinReadySeconds {
        /// Seconds.
        value: i32,
    },
    /// `kubectl patch … progressDeadlineSeconds`.
    SetProgressDeadlineSeconds {
        /// Seconds.
        value: i32,
    },
    /// `kubectl patch … revisionHistoryLimit`.
    SetRevisionHistoryLimit {
        /// Old ReplicaSets kept.
        value: i32,
    },
    /// `kubectl create quota pods-quota --hard=pods=<pods>` (the count as typed), or with
    /// `None` `kubectl delete quota pods-quota`.
    SetPodQuota {
        /// The count's text.
        pods: Option<String>,
    },
    /// The container of a pod restarts (the kubelet's doing; no kubectl command).
    RestartPod {
        /// The pod.
        pod: String,
    },
    /// `kubectl annotate pod/<pod> controller.kubernetes.io/pod-deletion-cost=<value>` (`None`:
    /// remove it).
    SetPodDeletionCost {
        /// The pod.
        pod: String,
        /// The cost.
        value: Option<i32>,
    },
    /// Any scenario action, as written in the scenario format (the JavaScript API's
    /// `pushAction`), checked like the others.
    Action {
        /// The action.
        action: ActionKind,
    },
}

/// kubectl's answer, as its console shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    /// The command line.
    pub command: String,
    /// What kubectl printed: its success line, or the error as kubectl prints it
    /// (`error: …`, `Error from server (NotFound): …`, `The Deployment "web" is invalid: …`).
    pub output: String,
    /// Whether the command was refused (nothing queued).
    pub refused: bool,
    /// The round the change takes effect in, when one was queued.
    pub round: Option<u32>,
}

/// What kubectl makes of a command before the API server sees it.
pub(super) enum Plan {
    /// Send this request.
    Send(ActionKind),
    /// Nothing to send; print this (e.g. `rollout undo` finding the template already there).
    Print(String),
}

/// `strconv.ParseInt(text, 0, 64)` as pflag parses an int flag, with its error as kubectl
/// prints it: `invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc":
/// invalid syntax`.
fn int_flag(flag: &str, text: &str) -> Result<i64, String> {
    text.parse::<i64>().map_err(|e| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                "value out of range"
            }
            _ => "invalid syntax",
        };
        format!(
            "invalid argument {} for {} flag: strconv.ParseInt: parsing {}: {why}",
            crate::api::go_quote(text),
            crate::api::go_quote(flag),
            crate::api::go_quote(text)
        )
    })
}

impl Command {
    /// The command line a user would type (`name`: the Deployment).
    pub fn command_line(&self, name: &str) -> String {
        match self {
            Command::Scale { replicas } => {
                format!(
                    "kubectl scale deployment/{name} --replicas={}",
                    replicas.trim()
                )
            }
            Command::SetPodQuota { pods: Some(pods) } => {
                format!(
                    "kubectl create quota {QUOTA_NAME} --hard=pods={}",
                    pods.trim()
                )
            }
            Command::SetPodQuota { pods: None } => format!("kubectl delete quota {QUOTA_NAME}"),
            Command::Undo { to_revision } => crate::ui_support::kubectl_command(
                &ActionKind::Undo {
                    name: None,
                    to_revision: *to_revision,
                },
                name,
            ),
            other => match other.fixed_action() {
                Some(kind) => crate::ui_support::kubectl_command(&kind, name),
                None => String::new(),
            },
        }
    }

    /// The action of a command that has no flag to parse and reads nothing first.
    fn fixed_action(&self) -> Option<ActionKind> {
        Some(match self.clone() {
            Command::SetImage { image } => ActionKind::SetImage { name: None, image },
            Command::Pause => ActionKind::Pause { name: None },
            Command::Resume => ActionKind::Resume { name: None },
            Command::RollbackAnnotation { revision } => ActionKind::Rollback {
                name: None,
                revision,
            },
            Command::SetStrategy { strategy } => ActionKind::SetStrategy {
                name: None,
                strategy,
            },
            Command::SetMinReadySeconds { value } => {
                ActionKind::SetMinReadySeconds { name: None, value }
            }
            Command::SetProgressDeadlineSeconds { value } => {
                ActionKind::SetProgressDeadlineSeconds { name: None, value }
            }
            Command::SetRevisionHistoryLimit { value } => {
                ActionKind::SetRevisionHistoryLimit { name: None, value }
            }
            Command::RestartPod { pod } => ActionKind::RestartPod { pod },
            Command::SetPodDeletionCost { pod, value } => {
                ActionKind::SetPodDeletionCost { pod, value }
            }
            Command::Action { action } => action,
            Command::Scale { .. } | Command::Undo { .. } | Command::SetPodQuota { .. } => {
                return None
            }
        })
    }

    /// What kubectl does with the command, against `api` (the cluster as it will be once the
    /// pending commands are applied): the request to send, something to print instead, or its
    /// refusal as printed.
    pub(super) fn plan(&self, api: &ApiServer, name: &str) -> Result<Plan, String> {
        let deployment = || {
            api.deployment(name)
                .ok_or_else(|| check_err::not_found("deployments.apps", name))
        };
        match self {
            Command::Scale { replicas } => {
                let text = replicas.trim();
                let n = int_flag("--replicas", text).map_err(|e| check_err::client_error(&e))?;
                // ScaleOptions.Validate, before any request.
                if n < 0 {
                    return Err(check_err::client_error(
                        "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0",
                    ));
                }
                let replicas = i32::try_from(n).unwrap_or(i32::MAX);
                crate::limits::check_replicas(replicas).map_err(|e| check_err::client_error(&e))?;
                deployment()?;
                Ok(Plan::Send(ActionKind::Scale {
                    name: None,
                    replicas,
                }))
            }
            // kubectl's pauser and resumer read the object and refuse a no-op.
            Command::Pause => {
                if deployment()?.spec.paused {
                    return Err(check_err::client_error(&format!(
                        "deployments.apps {} is already paused",
                        crate::api::go_quote(name)
                    )));
                }
                Ok(Plan::Send(ActionKind::Pause { name: None }))
            }
            Command::Resume => {
                if !deployment()?.spec.paused {
                    return Err(check_err::client_error(&format!(
                        "deployments.apps {} is not paused",
                        crate::api::go_quote(name)
                    )));
                }
                Ok(Plan::Send(ActionKind::Resume { name: None }))
            }
            Command::Undo { to_revision } => {
                let plan = crate::kubectl::rollout_undo(api, name, *to_revision)
                    .map_err(|e| check_err::client_error(&e))?;
                Ok(match plan.template {
                    Some(_) => Plan::Send(ActionKind::Undo {
                        name: None,
                        to_revision: *to_revision,
                    }),
                    None => Plan::Print(plan.message),
                })
            }
            Command::SetPodQuota { pods } => {
                let exists = api.pod_quota().is_some();
                let value = match pods {
                    None if exists => None,
                    None => return Err(check_err::not_found("resourcequotas", QUOTA_NAME)),
                    // The API server refuses a second quota of the name whatever its count.
                    Some(_) if exists => {
                        return Err(check_err::server_error(
                            409,
                            &format!(
                                "resourcequotas {} already exists",
                                crate::api::go_quote(QUOTA_NAME)
                            ),
                        ))
                    }
                    Some(text) => match text.trim().parse::<u32>() {
                        Ok(n) => Some(i32::try_from(n).unwrap_or(i32::MAX)),
                        Err(_) => {
                            return Err(check_err::client_error(&format!(
                                "quantities must be whole numbers of pods ≥ 0 here (got \"{}\")",
                                text.trim()
                            )))
                        }
                    },
                };
                Ok(Plan::Send(ActionKind::SetPodQuota { value }))
            }
            other => {
                let kind = other
                    .fixed_action()
                    .unwrap_or(ActionKind::Pause { name: None });
                if let ActionKind::Scale { replicas, .. } = &kind {
                    crate::limits::check_replicas(*replicas)
                        .map_err(|e| check_err::client_error(&e))?;
                }
                match &kind {
                    ActionKind::Create { deployment } => {
                        crate::limits::check_replicas(deployment.replicas.unwrap_or(1))
                            .map_err(|e| check_err::client_error(&e))?;
                    }
                    ActionKind::SetPodQuota { .. }
                    | ActionKind::SetPodDeletionCost { .. }
                    | ActionKind::RestartPod { .. } => {}
                    // `deployment/web` names it: kubectl's request for a missing one is a 404.
                    other if other.target().is_none() => {
                        deployment()?;
                    }
                    _ => {}
                }
                Ok(Plan::Send(kind))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_flags_fail_as_pflag_says() {
        assert_eq!(int_flag("--replicas", "12"), Ok(12));
        assert_eq!(
            int_flag("--replicas", "abc").unwrap_err(),
            "invalid argument \"abc\" for \"--replicas\" flag: strconv.ParseInt: parsing \"abc\": invalid syntax"
        );
        assert!(int_flag("--replicas", "99999999999999999999")
            .unwrap_err()
            .ends_with("value out of range"));
    }

    #[test]
    fn command_lines_are_kubectls() {
        let line = |c: Command| c.command_line("web");
        assert_eq!(
            line(Command::Scale {
                replicas: " 5 ".into()
            }),
            "kubectl scale deployment/web --replicas=5"
        );
        assert_eq!(
            line(Command::Undo { to_revision: 2 }),
            "kubectl rollout undo deployment/web --to-revision=2"
        );
        assert_eq!(
            line(Command::Undo { to_revision: 0 }),
            "kubectl rollout undo deployment/web"
        );
        assert_eq!(line(Command::Pause), "kubectl rollout pause deployment/web");
        assert_eq!(
            line(Command::SetPodQuota { pods: None }),
            "kubectl delete quota pods-quota"
        );
        assert_eq!(
            line(Command::SetImage {
                image: "nginx:1.16.1".into()
            }),
            "kubectl set image deployment/web app=nginx:1.16.1"
        );
    }
}
