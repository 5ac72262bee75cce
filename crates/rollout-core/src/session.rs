//! A user's session with a simulated cluster: what the app, an embed, the custom element and
//! the JavaScript API's mounted lab all drive.
//!
//! A [`Session`] owns a [`Simulation`] and adds what a person at a terminal needs:
//! - kubectl [`Command`]s, refused with kubectl's and the API server's own messages, and
//!   otherwise queued for the start of the next round (pending until then);
//! - what the pending commands imply (the Deployment and the quota once they are applied),
//!   found by running the one interpreter ([`crate::sim::apply_action`]) on a copy of the API
//!   server;
//! - steps that always show a change ([`Session::step`]), whole rounds, stepping back, and
//!   running until the rollout is complete or stalled ([`Session::run_to_end`]);
//! - the limits ([`crate::limits`]) and permalinks ([`Session::link`], [`Session::from_link`]).
//!
//! For example, 3 replicas of nginx:1.14.2 with maxSurge 1: `run(SetImage nginx:1.16.1)`
//! before the first step queues the update for round 0; the first `step()` applies it ("applied
//! kubectl set image …"); the next one is the Deployment controller scaling the new
//! ReplicaSet to 1 (3 + maxSurge 1 = 4 pods at most); then its pod is created, scheduled,
//! and "5 s later: 1 pod of web-rev2 became ready".

mod command;
mod stepping;

pub use command::{Command, Reply};
pub use stepping::{Checked, StepResult};

use crate::api::{Deployment, Time};
use crate::kubectl::rollout_status_of;
use crate::limits;
use crate::scenario::{ActionKind, Scenario};
use crate::share::{decode_link, encode_link, Link, Recovered};
use crate::sim::{apply_action, Simulation, StepRecord};
use crate::store::ApiServer;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};
use stepping::Scan;

/// How a session ended up where nothing more will happen (or why it stopped running).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// `kubectl rollout status` succeeds: the rollout is complete.
    Complete,
    /// Progressing is False with reason ProgressDeadlineExceeded.
    DeadlineExceeded,
    /// The Deployment is paused.
    Paused,
    /// Nothing more will happen, but the rollout is neither complete nor timed out (a quota
    /// that blocks it, a Deployment without a progress deadline …).
    Stuck,
    /// Running stopped at a limit while things still change (or the next change is too far
    /// away to run to).
    Limit,
}

/// Why the session stops: the outcome and a sentence saying so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settled {
    /// What state it is in.
    pub outcome: Outcome,
    /// e.g. `deployment "web" successfully rolled out; nothing more will happen`.
    pub sentence: String,
}

/// What [`Session::run_to_end`] did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunEnd {
    /// Where it stopped, and why.
    pub settled: Settled,
    /// Steps (changes) taken.
    pub steps: usize,
    /// Simulated seconds that passed.
    pub seconds: i64,
}

/// What [`Session::advance_to`] did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Advanced {
    /// Single syncs taken.
    pub syncs: usize,
    /// The last of them that changed an object's content or applied commands, if one did.
    pub last_change: Option<StepRecord>,
}

/// A pending command: queued, applied at the start of its round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pending {
    /// Its index among the scenario's actions (for [`Session::cancel`]).
    pub index: usize,
    /// The round it takes effect in.
    pub round: u32,
    /// The scenario's `type`.
    pub type_name: &'static str,
    /// As a kubectl command.
    pub command: String,
}

/// The version of the permalinks a session writes: 2 counts session steps (changes) in `at`,
/// then single syncs in `sync`; links without a version count single syncs in `at`.
pub const SESSION_LINK_VERSION: u32 = 2;

/// One user's simulated cluster, stepped by changes. See the module documentation.
#[derive(Clone, Debug)]
pub struct Session {
    sim: Simulation,
    /// The preset it started from.
    preset: Option<String>,
    /// Earlier positions the user saw (single syncs taken), oldest first, each with what the
    /// step from it did (`None` for a round, a run or a replay) and the round it was in.
    marks: Vec<(usize, Option<Arc<StepResult>>, u32)>,
    /// Positions right after a change, ascending (for links).
    changes: Vec<usize>,
    /// What a step from here would find (computed on demand on a copy).
    ahead: OnceLock<Option<Settled>>,
    /// Single syncs steps may spend running idle rounds rather than skipping them (a restored
    /// link taking the syncs its original took); 0 otherwise.
    idle_syncs: usize,
}

impl Session {
    /// A session at the start of `scenario`. `Err` when it goes beyond [`crate::limits`].
    pub fn new(scenario: Scenario) -> Result<Session, String> {
        limits::check_scenario(&scenario)?;
        Ok(Session {
            sim: Simulation::new(scenario),
            preset: None,
            marks: Vec::new(),
            changes: Vec::new(),
            ahead: OnceLock::new(),
            idle_syncs: 0,
        })
    }

    /// A session of a preset (`None` for an unknown id).
    pub fn from_preset(id: &str) -> Option<Session> {
        let p = crate::presets::preset(id)?;
        let mut s = Session::new(p.scenario).ok()?;
        s.preset = Some(p.id.to_string());
        Some(s)
    }

    /// The preset the session started from.
    pub fn preset(&self) -> Option<&str> {
        self.preset.as_deref()
    }

    /// Sets the preset the session is labelled with (in links).
    pub fn set_preset(&mut self, preset: Option<String>) {
        self.preset = preset;
    }

    /// The simulation, to read (views, charts, traces).
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The API server as it is now.
    pub fn api(&self) -> &ApiServer {
        self.sim.api()
    }

    /// The scenario: the script, with every command given so far.
    pub fn scenario(&self) -> &Scenario {
        self.sim.scenario()
    }

    /// The requests to the Service in front of the Deployment over the whole script (every
    /// command given so far, run to the scenario's end): `traffic`, else the scenario's
    /// `model.traffic`, else the defaults. A front end keeps the run while the scenario does
    /// not change and reads its seconds ([`crate::traffic::TrafficRun::second`]) at the clock.
    pub fn traffic(
        &self,
        traffic: Option<&crate::traffic::TrafficModel>,
    ) -> Result<crate::traffic::TrafficRun, String> {
        crate::traffic::run_scenario(self.scenario(), Some(&self.deployment_name()), traffic)
    }

    /// The Deployment commands act on: the scenario's first created one.
    pub fn deployment_name(&self) -> String {
        self.scenario()
            .actions
            .iter()
            .find_map(|a| match &a.kind {
                ActionKind::Create { deployment } => Some(deployment.name.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Whether anything has run yet.
    pub fn started(&self) -> bool {
        self.sim.steps_taken() > 0
    }

    /// Whether the controllers react at once (settled rounds, as in a real cluster) rather
    /// than one round per hop (lock-step rounds, for a lesson on informer lag).
    pub fn instant_reactions(&self) -> bool {
        self.scenario().settle
    }

    /// "Controller reaction: instant | one round per hop". Before the first step only (it
    /// changes what every round does); `Err` says so afterwards.
    pub fn set_instant_reactions(&mut self, instant: bool) -> Result<(), String> {
        if instant == self.instant_reactions() {
            return Ok(());
        }
        if self.started() {
            return Err(
                "The controllers' reaction can change only before the first step: Reset to start over with it"
                    .to_string(),
            );
        }
        let mut scenario = self.scenario().clone();
        scenario.settle = instant;
        self.sim = Simulation::new(scenario);
        self.touched();
        Ok(())
    }

    fn touched(&mut self) {
        self.ahead = OnceLock::new();
    }

    // ----- commands and what they imply ----------------------------------------------

    /// Runs a kubectl command: refused as kubectl or the API server would refuse it (judged
    /// against the cluster with the pending commands applied), or queued for the start of the
    /// next round.
    pub fn run(&mut self, command: &Command) -> Reply {
        let name = self.deployment_name();
        let line = command.command_line(&name);
        let refuse = |output: String| Reply {
            command: line.clone(),
            output,
            refused: true,
            round: None,
        };
        let mut projected = self.projected_api();
        let kind = match command.plan(&projected, &name) {
            Err(printed) => return refuse(printed),
            Ok(command::Plan::Print(output)) => {
                return Reply {
                    command: line,
                    output,
                    refused: false,
                    round: None,
                }
            }
            Ok(command::Plan::Send(kind)) => kind,
        };
        if let Err(e) = apply_action(&mut projected, &kind) {
            return refuse(e.printed);
        }
        let output = crate::ui_support::kubectl_output(&kind, &name);
        let round = self.sim.push_action(kind);
        self.touched();
        Reply {
            command: line,
            output,
            refused: false,
            round: Some(round),
        }
    }

    /// Queues an action as the scenario format writes it (the JavaScript `Simulation`'s
    /// `pushAction`: no kubectl in front of it, so no kubectl refusal; the API server judges it
    /// when its round starts, as it judges a scenario file's actions). Returns that round.
    pub fn push_action(&mut self, kind: ActionKind) -> u32 {
        let round = self.sim.push_action(kind);
        self.touched();
        round
    }

    /// The commands queued for rounds that have not started, in order.
    pub fn pending(&self) -> Vec<Pending> {
        let from = self.sim.next_action_round();
        let name = self.deployment_name();
        self.scenario()
            .actions
            .iter()
            .enumerate()
            .filter(|(_, a)| a.round >= from)
            .map(|(index, a)| Pending {
                index,
                round: a.round,
                type_name: a.kind.type_name(),
                command: crate::ui_support::kubectl_command(&a.kind, &name),
            })
            .collect()
    }

    /// The API server as it will be once every pending command has been applied (before any
    /// controller reacts): the current one with the pending actions run by the stepper's own
    /// interpreter. Refused ones change nothing, as they will when their round comes.
    pub fn projected_api(&self) -> ApiServer {
        let mut api = self.sim.api().clone();
        let from = self.sim.next_action_round();
        for a in self.scenario().actions.iter().filter(|a| a.round >= from) {
            let _ = apply_action(&mut api, &a.kind);
        }
        api
    }

    /// The session's Deployment once the pending commands are applied (what a settings form
    /// shows).
    pub fn projected_deployment(&self) -> Option<Deployment> {
        self.projected_api()
            .deployment(&self.deployment_name())
            .map(|d| (**d).clone())
    }

    /// Whether the Deployment will be paused once the pending commands are applied.
    pub fn paused_after_pending(&self) -> bool {
        self.projected_deployment().is_some_and(|d| d.spec.paused)
    }

    /// The pod quota once the pending commands are applied (`None`: no quota).
    pub fn quota_after_pending(&self) -> Option<i32> {
        self.projected_api().pod_quota()
    }

    /// Drops a pending command (by its index among the scenario's actions): the session is
    /// replayed without it to where it was (the past does not change; it was still to come).
    /// False when there is no such pending command.
    pub fn cancel(&mut self, index: usize) -> bool {
        let from = self.sim.next_action_round();
        match self.scenario().actions.get(index) {
            Some(a) if a.round >= from => {}
            _ => return false,
        }
        let mut scenario = self.scenario().clone();
        scenario.actions.remove(index);
        let steps = self.sim.steps_taken();
        let mut sim = Simulation::new(scenario);
        while sim.steps_taken() < steps && sim.step().is_some() {}
        self.sim = sim;
        self.touched();
        true
    }

    // ----- stepping --------------------------------------------------------------------

    /// Goes to the next reaction that changed an object's content: one controller's sync of
    /// one object, one kubelet pass, or the user's commands. `None` when nothing more will
    /// happen ([`Session::settled`] says why).
    pub fn step(&mut self) -> Option<StepResult> {
        // Known to be over (the scan below finds it out too, and goes back).
        if let Some(Some(_)) = self.ahead.get() {
            return None;
        }
        let start = self.sim.steps_taken();
        let start_round = self.sim.round();
        // The time the view shows before this step: the last step's, or, when the session got
        // here by an advance (a first visit's run to its first command, Round, a seek), the
        // clock it advanced to. A first visit at 0:10 (its last change at 0:06) whose first
        // Step applies `kubectl set image` at 0:10 says no "4 s later".
        let shown_time = match self.marks.last() {
            Some((_, None, _)) => self.sim.now(),
            _ => self.sim.last_step().map_or(0, |s| s.time),
        };
        let changes = &mut self.changes;
        let idle_syncs = &mut self.idle_syncs;
        let scan = stepping::scan(&mut self.sim, idle_syncs, |sim, changed| {
            if changed {
                changes.push(sim.steps_taken());
            }
        });
        self.touched();
        match scan {
            Scan::Changed {
                checked,
                quiet_rounds,
                syncs,
            } => {
                let record = self.sim.last_step().cloned()?;
                let seconds_later = record.time - shown_time;
                let headline = stepping::later(seconds_later)
                    + &stepping::what_happened(&record, self.sim.api());
                let result = StepResult {
                    headline: capitalise(&headline),
                    seconds_later,
                    quiet_rounds,
                    checked,
                    notes: stepping::notes(self.sim.api(), self.sim.scenario().kubernetes_version),
                    syncs,
                    record,
                };
                self.marks
                    .push((start, Some(Arc::new(result.clone())), start_round));
                Some(result)
            }
            Scan::Quiet { syncs } | Scan::GaveUp { syncs } => {
                // Nothing changed: go back to where the step began, knowing why.
                let gave_up = matches!(scan, Scan::GaveUp { .. });
                for _ in 0..syncs {
                    self.sim.step_back();
                }
                self.ahead = OnceLock::from(Some(self.judge(gave_up)));
                None
            }
        }
    }

    /// Back to where the last step (or round, or run) began. False at the start.
    pub fn step_back(&mut self) -> bool {
        let Some(&(to, _, _)) = self.marks.last() else {
            return false;
        };
        self.rewind_to(to);
        true
    }

    fn rewind_to(&mut self, steps: usize) {
        let round = self.marks.iter().find(|m| m.0 == steps).map(|m| m.2);
        while self.sim.steps_taken() > steps && self.sim.step_back() {}
        // Idle rounds skipped after that position are not a step of their own: the history
        // holds the state after the skip. Going back one more sync and taking it again gives
        // the state as it was before (the simulation is deterministic).
        if round.is_some_and(|r| r != self.sim.round()) && self.sim.step_back() {
            self.sim.step();
        }
        let now = self.sim.steps_taken();
        self.changes.retain(|&c| c <= now);
        self.marks.retain(|(m, _, _)| *m < now);
        self.touched();
    }

    /// What the step that led here did (`None` at the start, or after a round, a run to the
    /// end or a restored link's single syncs), for the caption.
    pub fn last_result(&self) -> Option<&StepResult> {
        self.marks.last().and_then(|(_, r, _)| r.as_deref())
    }

    /// Whether there is anything to step back to.
    pub fn can_step_back(&self) -> bool {
        !self.marks.is_empty()
    }

    /// Runs the rest of the current round (or a whole round at its start), single syncs,
    /// changes or not.
    pub fn step_round(&mut self) {
        let start = self.sim.steps_taken();
        let round = self.sim.round();
        if self.sim.finished() {
            self.sim.extend_rounds(round.saturating_add(1));
        }
        while self.sim.round() == round {
            if !self.sync() {
                break;
            }
        }
        if self.sim.steps_taken() > start {
            self.marks.push((start, None, round));
        }
        self.touched();
    }

    /// Back to the start of round `round` (or as far as history goes).
    pub fn rewind_to_round(&mut self, round: u32) {
        let before = self.sim.steps_taken();
        while !(self.sim.at_round_start() && self.sim.round() <= round) && self.sim.step_back() {}
        if self.sim.steps_taken() != before {
            let now = self.sim.steps_taken();
            self.rewind_to(now);
        }
    }

    /// Lets the scenario run at least `rounds` rounds (at most [`limits::MAX_ROUNDS`]).
    pub fn extend_rounds(&mut self, rounds: u32) {
        self.sim.extend_rounds(rounds.min(limits::MAX_ROUNDS));
        self.touched();
    }

    /// Sets the Service's traffic model (the scenario's `model.traffic`; `None`: not
    /// modelled) without moving the session: no controller reads it, so the steps taken stay,
    /// and the permalink carries the new model.
    pub fn set_traffic_model(&mut self, traffic: Option<crate::traffic::TrafficModel>) {
        self.sim.set_traffic_model(traffic);
        self.touched();
    }

    /// Remembers the current position as one to step back to (before a move made of single
    /// syncs, e.g. a seek that runs in chunks).
    pub fn mark(&mut self) {
        let (now, round) = (self.sim.steps_taken(), self.sim.round());
        if self.marks.last().is_none_or(|m| m.0 < now) {
            self.marks.push((now, None, round));
        }
    }

    /// Lets a caller move the simulation by single syncs of its own choosing (a lesson running
    /// to a moment named by what happens), as one move that [`Session::step_back`] undoes.
    pub fn advance_with<R>(&mut self, f: impl FnOnce(&mut Simulation) -> R) -> R {
        let before = self.sim.steps_taken();
        let out = f(&mut self.sim);
        let now = self.sim.steps_taken();
        if now > before {
            // Marks are ascending: only a caller that stepped back first leaves any at or
            // after `before` (checked first, so 20,000 single syncs stay linear).
            if self.marks.last().is_some_and(|(m, _, _)| *m >= before) {
                self.marks.retain(|(m, _, _)| *m < before);
            }
            self.marks.push((before, None, self.sim.round()));
            self.changes.retain(|&c| c <= before);
        }
        self.touched();
        out
    }

    /// One single sync within the scenario's rounds, as a move of its own that
    /// [`Session::step_back`] undoes: the JavaScript `Simulation`'s `step()`, lock-step as the
    /// conformance traces count. `None` when every round has run (the rounds are not extended).
    pub fn single_sync(&mut self) -> Option<&StepRecord> {
        if self.sim.finished() {
            return None;
        }
        self.advance_with(|sim| sim.step().is_some())
            .then(|| self.sim.last_step())
            .flatten()
    }

    /// One single sync (a controller's sync of one object, the actions, or a kubelet pass),
    /// whether or not it changes anything: what a seek or a lesson that counts syncs takes.
    /// The scenario's rounds are a minimum: past them the session runs on, up to
    /// [`limits::MAX_ROUNDS`] (false there).
    pub fn sync(&mut self) -> bool {
        if self.sim.finished() && self.sim.round() < limits::MAX_ROUNDS {
            let next = self.sim.round().saturating_add(1);
            self.sim.extend_rounds(next);
        }
        let before = self.sim.api().content_version();
        if self.sim.step().is_none() {
            return false;
        }
        let changed = self
            .sim
            .last_step()
            .is_some_and(|r| stepping::is_change(r, before, self.sim.api()));
        if changed {
            self.changes.push(self.sim.steps_taken());
        }
        self.touched();
        true
    }

    /// Whether a step would find a change (false: nothing more will happen, or not within
    /// [`limits::MAX_RUN_ROUNDS`] rounds; [`Session::settled`] says which).
    pub fn can_step(&self) -> bool {
        self.settled().is_none()
    }

    /// Why nothing more will happen, or `None` when a step would still change something.
    pub fn settled(&self) -> Option<Settled> {
        self.ahead
            .get_or_init(|| {
                if self.sim.pending_actions().next().is_some() {
                    return None;
                }
                // After a round that changed nothing, with nothing due: known without a probe.
                if self.sim.at_round_start()
                    && self.sim.last_round_idle()
                    && self.sim.next_due_round().is_none()
                {
                    return Some(self.judge(false));
                }
                let mut probe = self.sim.clone_without_history();
                match stepping::scan(&mut probe, &mut 0, stepping::unheard) {
                    Scan::Changed { .. } => None,
                    Scan::Quiet { .. } => Some(self.judge(false)),
                    Scan::GaveUp { .. } => Some(self.judge(true)),
                }
            })
            .clone()
    }

    /// The state of the rollout when nothing more will happen (`gave_up`: or the search for
    /// the next change stopped at a limit).
    fn judge(&self, gave_up: bool) -> Settled {
        let name = self.deployment_name();
        let api = self.sim.api();
        let d = api.deployment(&name).or_else(|| api.deployments().next());
        let quoted = crate::api::go_quote(&name);
        if gave_up {
            return Settled {
                outcome: Outcome::Limit,
                sentence: format!(
                    "Nothing changes in the next {} rounds; Rollout Lab stops looking there",
                    limits::group(i64::from(limits::MAX_RUN_ROUNDS))
                ),
            };
        }
        let Some(d) = d else {
            return Settled {
                outcome: Outcome::Stuck,
                sentence: "There is no Deployment; nothing more will happen".to_string(),
            };
        };
        let status = rollout_status_of(d, 0);
        let (outcome, sentence) = if status.done {
            (Outcome::Complete, status.message.trim_end().to_string())
        } else if let Some(e) = status.error {
            (Outcome::DeadlineExceeded, e)
        } else if d.spec.paused {
            (
                Outcome::Paused,
                format!("deployment {quoted} is paused (kubectl rollout resume continues it)"),
            )
        } else {
            (Outcome::Stuck, status.message.trim_end().to_string())
        };
        Settled {
            outcome,
            sentence: format!("{}; nothing more will happen", capitalise(&sentence)),
        }
    }

    /// Runs until nothing more will happen: the rollout complete, timed out, paused or stuck
    /// (the scenario's own rounds are a minimum, so its script is played out). Stops with
    /// [`Outcome::Limit`] after [`limits::MAX_RUN_ROUNDS`] rounds.
    pub fn run_to_end(&mut self) -> RunEnd {
        let start = self.sim.steps_taken();
        let start_round = self.sim.round();
        let start_time = self.sim.last_step().map_or(0, |s| s.time);
        let marks = self.marks.len();
        let mut steps = 0;
        let settled = loop {
            if self.sim.round().saturating_sub(start_round) >= limits::MAX_RUN_ROUNDS {
                break Settled {
                    outcome: Outcome::Limit,
                    sentence: format!(
                        "Stopped after {} rounds; the cluster is still changing (Step or End goes on)",
                        limits::group(i64::from(limits::MAX_RUN_ROUNDS))
                    ),
                };
            }
            if self.step().is_some() {
                steps += 1;
                continue;
            }
            let settled = self.settled().unwrap_or_else(|| self.judge(false));
            // Nothing more will happen; the script's rounds are a minimum (a preset's length),
            // so run what is left of them (nothing changes in them).
            let rounds = self.scenario().rounds;
            while self.sim.round() < rounds && self.sync() {}
            break settled;
        };
        // One mark for the whole run: step back returns to where it began.
        self.marks.truncate(marks);
        if self.sim.steps_taken() > start {
            self.marks.push((start, None, start_round));
        }
        self.touched();
        RunEnd {
            settled,
            steps,
            seconds: self.sim.last_step().map_or(0, |s| s.time) - start_time,
        }
    }

    /// Runs the cluster to `seconds` on its clock, by single syncs (idle rounds skipped), as
    /// one move that [`Session::step_back`] undoes: what Compare's second stage does to show
    /// the moment the first one shows. `through` says how far into that moment: `false` stops
    /// as soon as the clock reads `seconds` (nothing of that moment has run, as on a page that
    /// has not stepped into it yet); `true` also runs what happens at `seconds`, stopping
    /// before the sync that ends the round and moves the clock on.
    ///
    /// For example with 1 s rounds and a page at 0:05 in the middle of round 5, B runs its
    /// rounds 0 to 4 and round 5 up to its last kubelet pass: both clocks read 0:05. A session
    /// already past that moment does not move.
    pub fn advance_to(&mut self, seconds: Time, through: bool) -> Advanced {
        let spr = self.scenario().seconds_per_round.max(1);
        let seconds = seconds.max(0);
        // The round to reach: through, the one that starts at or before `seconds` (run
        // whole but for its end); otherwise the first that starts at or after it.
        let round = |r: i64| u32::try_from(r).unwrap_or(u32::MAX).min(limits::MAX_ROUNDS);
        let (limit, rounds) = if through {
            let r = round(seconds / spr).min(limits::MAX_ROUNDS - 1);
            (r, r + 1)
        } else {
            let r = round((seconds + spr - 1) / spr);
            (r, r)
        };
        let start = self.sim.steps_taken();
        let start_round = self.sim.round();
        let mut done = Advanced {
            syncs: 0,
            last_change: None,
        };
        self.sim.extend_rounds(rounds);
        loop {
            let now = self.sim.now();
            if now > seconds || (!through && now >= seconds) {
                break;
            }
            // Rounds that would change nothing, up to the one to reach.
            if self.sim.skip_idle_rounds_until(limit) > 0 {
                continue;
            }
            let before = self.sim.api().content_version();
            if self.sim.step().is_none() {
                break;
            }
            if through && self.sim.now() > seconds {
                // That sync ended the round at `seconds`: it belongs to the next moment.
                self.sim.step_back();
                break;
            }
            done.syncs += 1;
            if let Some(r) = self.sim.last_step() {
                if stepping::is_change(r, before, self.sim.api()) {
                    self.changes.push(self.sim.steps_taken());
                    done.last_change = Some(r.clone());
                }
            }
        }
        if self.sim.steps_taken() > start {
            self.marks.push((start, None, start_round));
        }
        self.touched();
        done
    }

    /// Runs to the moment the scenario's first command after its start is due: that round
    /// reached, nothing of it run (as one move [`Session::step_back`] undoes). What a first
    /// visit opens on: with the rolling-basic preset (create at 0:00, `kubectl set image` at
    /// 0:10, pods ready after 5 s) the clock reads 0:10, the Deployment runs 3 available pods
    /// of nginx:1.14.2, and the next step applies the image change. `None` (nothing moved)
    /// when the scenario has no such command or the session is already past it.
    pub fn run_to_first_command(&mut self) -> Option<Advanced> {
        let round = self
            .scenario()
            .actions
            .iter()
            .map(|a| a.round)
            .filter(|&r| r > 0)
            .min()?;
        if self.sim.round() >= round {
            return None;
        }
        let spr = self.scenario().seconds_per_round.max(1);
        Some(self.advance_to(i64::from(round) * spr, false))
    }

    /// The clock at the next change a step would find (`None`: nothing more will happen, or not
    /// within [`limits::MAX_RUN_ROUNDS`] rounds). Found on a copy; the session does not move.
    /// Compare steps both stages to the earlier of their next moments: with A at 0:10 whose
    /// next change is at 0:15 and B's at 0:12, both go to 0:12.
    pub fn next_moment(&self) -> Option<Time> {
        if let Some(Some(_)) = self.ahead.get() {
            return None;
        }
        let mut probe = self.sim.clone_without_history();
        match stepping::scan(&mut probe, &mut 0, stepping::unheard) {
            // The clock once it is made: a sync that ends a round belongs to the next moment,
            // as in `advance_to`, so going through this moment always shows the change.
            Scan::Changed { .. } => Some(probe.now()),
            Scan::Quiet { .. } | Scan::GaveUp { .. } => None,
        }
    }

    // ----- permalinks ------------------------------------------------------------------

    /// A version-2 link's position: `steps` steps, then `sync` single syncs (one move back).
    /// Returns the steps taken (fewer when the session ends before).
    fn replay(&mut self, steps: usize, sync: usize) -> usize {
        let mut reached = 0;
        while reached < steps && self.step().is_some() {
            reached += 1;
        }
        let (from, round) = (self.sim.steps_taken(), self.sim.round());
        let mut synced = 0;
        while synced < sync && self.sync() {
            synced += 1;
        }
        if synced > 0 {
            self.marks.push((from, None, round));
        }
        reached
    }

    /// The permalink fragment (without `#`): the scenario with every command given, the
    /// position as changes (`at`) and single syncs after the last one (`sync`), the single
    /// syncs taken in all (`syncs`: Round runs idle rounds that Step skips, so the same
    /// position can be reached in fewer), the preset.
    pub fn link(&self) -> String {
        let now = self.sim.steps_taken();
        let at = self.changes.len();
        let sync = now - self.changes.last().copied().unwrap_or(0);
        let mut text = encode_link(&Link {
            scenario: self.scenario().clone(),
            step: 0,
            preset: self.preset.clone(),
        });
        text.push_str(&format!("&v={SESSION_LINK_VERSION}"));
        if at > 0 {
            text.push_str(&format!("&at={at}"));
        }
        if sync > 0 {
            text.push_str(&format!("&sync={sync}"));
        }
        if now > 0 {
            text.push_str(&format!("&syncs={now}"));
        }
        text
    }

    /// The session a permalink describes, at the moment it showed, with what was ignored.
    /// `None` when the fragment holds no session. Links without a version replay `at` single
    /// syncs (as they were written); version 2 replays `at` steps, then `sync` single syncs,
    /// and with `syncs` (the single syncs the original took) runs as many of the idle rounds
    /// the steps would skip as make up the difference, so the restored session has taken the
    /// same syncs (links without it: as few as the steps take).
    pub fn from_link(fragment: &str, fallback: &Scenario) -> Option<Recovered<Session>> {
        let (version, sync, syncs, rest) = split_session_params(fragment);
        let r = decode_link(&rest, fallback)?;
        let mut ignored = r.ignored;
        let mut fell_back = r.fell_back;
        let Link {
            scenario,
            step,
            preset,
        } = r.value;
        let mut session = match Session::new(scenario) {
            Ok(s) => s,
            Err(why) => {
                ignored.push(why);
                fell_back = true;
                Session::new(fallback.clone()).ok()?
            }
        };
        if fell_back {
            return Some(Recovered {
                value: session,
                ignored,
                fell_back,
            });
        }
        session.preset = preset;
        let mut reached = 0;
        if version >= 2 {
            let start = session.clone();
            reached = session.replay(step, sync);
            let taken = session.sim.steps_taken();
            if let Some(n) = syncs.filter(|&n| n > taken) {
                // The original ran idle rounds these steps skipped: again, running them.
                let mut again = start;
                again.idle_syncs = n - taken;
                reached = again.replay(step, sync);
                again.idle_syncs = 0;
                session = again;
            }
        } else {
            let (mut from, mut round) = (0, 0);
            while reached < step && !session.sim.finished() && session.sync() {
                reached += 1;
                // Each change is a position to step back to.
                if session.changes.last() == Some(&session.sim.steps_taken()) {
                    session.marks.push((from, None, round));
                    (from, round) = (session.sim.steps_taken(), session.sim.round());
                }
            }
            if session.sim.steps_taken() > from {
                session.marks.push((from, None, round));
            }
        }
        if reached < step {
            ignored.push(format!(
                "step {step} is past the end of the session, which ends after step {reached}; showing the end"
            ));
        }
        session.touched();
        Some(Recovered {
            value: session,
            ignored,
            fell_back,
        })
    }
}

/// Takes the session's own parameters (`v`, `sync`, `syncs`) out of a fragment; the rest is
/// read by [`decode_link`].
fn split_session_params(fragment: &str) -> (u32, usize, Option<usize>, String) {
    let mut version = 1;
    let mut sync = 0;
    let mut syncs = None;
    let mut rest = Vec::new();
    let count = |n: &str| {
        n.trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= limits::MAX_LINK_STEPS)
    };
    for part in fragment.trim_start_matches('#').split('&') {
        match part.split_once('=') {
            Some(("v", v)) if v.trim() == SESSION_LINK_VERSION.to_string() => version = 2,
            Some(("sync", n)) => match count(n) {
                Some(n) => sync = n,
                None => rest.push(part),
            },
            // A count only (how many idle rounds to run rather than skip): any size.
            Some(("syncs", n)) => match n.trim().parse::<usize>() {
                Ok(n) => syncs = Some(n),
                Err(_) => rest.push(part),
            },
            _ => rest.push(part),
        }
    }
    (version, sync, syncs, rest.join("&"))
}

/// The first letter in upper case (ASCII; the sentences start with ASCII words).
fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests;
