//! The session's behaviour: kubectl's and the API server's refusals, pending commands and
//! what they imply, undo, limits, permalinks, steps that always change something, and running
//! to the end.

use super::*;
use crate::scenario::StrategyInput;

fn scenario(extra: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"name":"t","rounds":12,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":1,"actions":[
            {{"round":0,"type":"create","deployment":{{"name":"web","replicas":3,"image":"v1",
              "strategy":{{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}}}}
            {extra}]}}"#
    ))
    .unwrap()
}

fn session(extra: &str) -> Session {
    Session::new(scenario(extra)).unwrap()
}

fn refused(s: &mut Session, c: Command) -> String {
    let pending = s.pending().len();
    let reply = s.run(&c);
    assert!(reply.refused, "{c:?} was accepted: {reply:?}");
    assert_eq!(reply.round, None);
    assert_eq!(s.pending().len(), pending, "a refusal queues nothing");
    reply.output
}

fn accepted(s: &mut Session, c: Command) -> Reply {
    let reply = s.run(&c);
    assert!(!reply.refused, "{c:?} was refused: {reply:?}");
    reply
}

/// The API server's objects, resourceVersions aside, for comparing positions.
fn content(s: &Session) -> String {
    let api = s.api();
    let strip = |v: String| {
        v.split("resource_version: ")
            .map(|p| p.trim_start_matches(|c: char| c.is_ascii_digit()))
            .collect::<Vec<_>>()
            .join("")
    };
    strip(format!(
        "{:?}{:?}{:?}",
        api.deployments().collect::<Vec<_>>(),
        api.replica_sets().collect::<Vec<_>>(),
        api.pods().collect::<Vec<_>>()
    ))
}

fn run_until_complete(s: &mut Session) {
    let end = s.run_to_end();
    assert_eq!(end.settled.outcome, Outcome::Complete, "{end:?}");
}

#[test]
fn kubectl_refuses_bad_flags_before_any_request() {
    let mut s = session("");
    assert_eq!(
        refused(&mut s, Command::Scale { replicas: "abc".into() }),
        "error: invalid argument \"abc\" for \"--replicas\" flag: strconv.ParseInt: parsing \"abc\": invalid syntax"
    );
    assert_eq!(
        refused(&mut s, Command::Scale { replicas: "-1".into() }),
        "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
    );
    assert_eq!(
        refused(
            &mut s,
            Command::Scale {
                replicas: "10001".into()
            }
        ),
        "error: Rollout Lab simulates at most 10,000 replicas"
    );
    let reply = accepted(
        &mut s,
        Command::Scale {
            replicas: "10000".into(),
        },
    );
    assert_eq!(
        reply.command,
        "kubectl scale deployment/web --replicas=10000"
    );
    assert_eq!(reply.output, "deployment.apps/web scaled");
    assert_eq!(reply.round, Some(0));
}

#[test]
fn the_api_servers_refusals_are_printed_as_kubectl_prints_them() {
    let mut s = session("");
    assert_eq!(
        refused(
            &mut s,
            Command::SetStrategy {
                strategy: StrategyInput {
                    type_: Some("RollingUpdate".into()),
                    max_surge: Some(0.into()),
                    max_unavailable: Some(0.into()),
                    with_rolling_update: None,
                }
            }
        ),
        "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0"
    );
    assert_eq!(
        refused(&mut s, Command::SetMinReadySeconds { value: -1 }),
        "The Deployment \"web\" is invalid: spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"
    );
    assert_eq!(
        refused(&mut s, Command::RestartPod { pod: "nope".into() }),
        "Error from server (NotFound): pods \"nope\" not found"
    );
    assert_eq!(
        refused(&mut s, Command::SetPodQuota { pods: None }),
        "Error from server (NotFound): resourcequotas \"pods-quota\" not found"
    );
    assert_eq!(
        refused(
            &mut s,
            Command::SetPodQuota {
                pods: Some("x".into())
            }
        ),
        "error: quantities must be whole numbers of pods ≥ 0 here (got \"x\")"
    );
    let reply = accepted(
        &mut s,
        Command::SetPodQuota {
            pods: Some("5".into()),
        },
    );
    assert_eq!(
        reply.command,
        "kubectl create quota pods-quota --hard=pods=5"
    );
    assert_eq!(reply.output, "resourcequota/pods-quota created");
    // The API server refuses a second quota of the name, whatever its count.
    for pods in ["6", "x"] {
        assert_eq!(
            refused(
                &mut s,
                Command::SetPodQuota {
                    pods: Some(pods.into())
                }
            ),
            "Error from server (AlreadyExists): resourcequotas \"pods-quota\" already exists"
        );
    }
    // A session whose Deployment was never created (the API server refused it).
    let mut empty = Session::new(
        Scenario::from_json(
            r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":-1}}]}"#,
        )
        .unwrap(),
    )
    .unwrap();
    let first = empty.step().unwrap();
    assert_eq!(
        first.record.errors,
        vec!["create web: Deployment.apps \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        refused(&mut empty, Command::SetImage { image: "x".into() }),
        "Error from server (NotFound): deployments.apps \"web\" not found"
    );
}

#[test]
fn pause_and_resume_are_refused_when_they_would_change_nothing() {
    let mut s = session("");
    assert_eq!(
        refused(&mut s, Command::Resume),
        "error: deployments.apps \"web\" is not paused"
    );
    let reply = accepted(&mut s, Command::Pause);
    assert_eq!(reply.output, "deployment.apps/web paused");
    // Judged against the cluster with the pending pause applied.
    assert_eq!(
        refused(&mut s, Command::Pause),
        "error: deployments.apps \"web\" is already paused"
    );
    assert!(s.paused_after_pending());
    accepted(&mut s, Command::Resume);
    assert!(!s.paused_after_pending());
}

#[test]
fn pending_commands_are_projected_by_the_one_interpreter() {
    let mut s = session("");
    assert!(!s.started());
    accepted(&mut s, Command::SetImage { image: "v2".into() });
    accepted(
        &mut s,
        Command::Scale {
            replicas: "5".into(),
        },
    );
    accepted(
        &mut s,
        Command::SetPodQuota {
            pods: Some("4".into()),
        },
    );
    // Nothing has run: the create itself is pending, and the projection has applied it.
    assert!(s.api().deployment("web").is_none());
    let d = s.projected_deployment().unwrap();
    assert_eq!((d.spec.template.image.as_str(), d.spec.replicas), ("v2", 5));
    assert_eq!(s.quota_after_pending(), Some(4));
    let pending: Vec<String> = s.pending().into_iter().map(|p| p.command).collect();
    assert_eq!(
        pending,
        vec![
            "kubectl create deployment web --image=v1 --replicas=3",
            "kubectl set image deployment/web app=v2",
            "kubectl scale deployment/web --replicas=5",
            "kubectl create quota pods-quota --hard=pods=4",
        ]
    );
    // Cancelling one re-projects without it.
    let quota = s.pending()[3].index;
    assert!(s.cancel(quota));
    assert_eq!(s.quota_after_pending(), None);
    assert!(!s.cancel(quota), "it is gone");
    // The first step applies every pending command and says so.
    let first = s.step().unwrap();
    assert_eq!(first.record.kind, crate::sim::StepKind::Actions);
    assert_eq!(
        first.headline,
        "Applied kubectl create deployment web --image=v1 --replicas=3, kubectl set image deployment/web app=v2, kubectl scale deployment/web --replicas=5"
    );
    assert!(s.pending().is_empty());
    let d = s.api().deployment("web").unwrap();
    assert_eq!((d.spec.template.image.as_str(), d.spec.replicas), ("v2", 5));
    // After the first step, a command waits for the next round.
    let reply = accepted(&mut s, Command::Pause);
    assert_eq!(reply.round, Some(1));
    assert_eq!(s.pending()[0].round, 1);
    assert!(s.paused_after_pending());
    assert!(!s.api().deployment("web").unwrap().spec.paused);
}

#[test]
fn undo_is_kubectls_client_side_rollback() {
    let mut s = session("");
    run_until_complete(&mut s);
    assert_eq!(
        refused(&mut s, Command::Undo { to_revision: 0 }),
        "error: no rollout history found for deployment \"web\""
    );
    accepted(&mut s, Command::SetImage { image: "v2".into() });
    run_until_complete(&mut s);
    assert_eq!(
        refused(&mut s, Command::Undo { to_revision: 7 }),
        "error: unable to find specified revision 7 in history"
    );
    let skipped = accepted(&mut s, Command::Undo { to_revision: 2 });
    assert_eq!(
        skipped.output,
        "deployment.apps/web skipped rollback (current template already matches revision 2)"
    );
    assert_eq!(skipped.round, None, "nothing to send");
    let reply = accepted(&mut s, Command::Undo { to_revision: 0 });
    assert_eq!(reply.command, "kubectl rollout undo deployment/web");
    assert_eq!(reply.output, "deployment.apps/web rolled back");
    assert_eq!(
        s.projected_deployment().unwrap().spec.template.image,
        "v1",
        "the pending undo is projected"
    );
    run_until_complete(&mut s);
    let api = s.api();
    assert_eq!(api.deployment("web").unwrap().spec.template.image, "v1");
    let rev1 = api.replica_set("web-rev1").unwrap();
    assert_eq!(rev1.spec.replicas, 3);
    assert_eq!(crate::deployment::util::revision(rev1), Ok(3));
    // Paused: kubectl refuses.
    accepted(&mut s, Command::Pause);
    assert!(refused(&mut s, Command::Undo { to_revision: 0 })
        .starts_with("error: you cannot rollback a paused deployment"));
}

#[test]
fn the_rollback_preset_uses_rollout_undo() {
    let preset = crate::presets::preset("rollback").unwrap();
    assert!(preset
        .scenario
        .actions
        .iter()
        .any(|a| matches!(a.kind, ActionKind::Undo { .. })));
    let mut s = Session::from_preset("rollback").unwrap();
    run_until_complete(&mut s);
    let d = s.api().deployment("web").unwrap();
    assert_eq!(d.spec.template.image, "nginx:1.14.2");
    let rev1 = s.api().replica_set("web-rev1").unwrap();
    assert_eq!(crate::deployment::util::revision(rev1), Ok(3));
    assert_eq!(s.api().replica_set("web-rev2").unwrap().spec.replicas, 0);
}

#[test]
fn limits_live_in_one_place() {
    let big = Scenario::from_json(
        r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":10001}}]}"#,
    )
    .unwrap();
    assert_eq!(
        Session::new(big).unwrap_err(),
        "actions[0] (round 0): creates 10001 replicas; Rollout Lab simulates at most 10,000 replicas, a limit for the page's speed, not Kubernetes' (the CLI's --large lifts it)"
    );
    let mut s = session("");
    assert_eq!(
        refused(
            &mut s,
            Command::Action {
                action: ActionKind::Scale {
                    name: None,
                    replicas: 20_000
                }
            }
        ),
        "error: Rollout Lab simulates at most 10,000 replicas"
    );
}

#[test]
fn every_step_changes_content_and_step_back_mirrors_it() {
    let mut s = Session::from_preset("rolling-basic").unwrap();
    let mut seen = Vec::new();
    let mut later = Vec::new();
    let mut headlines = Vec::new();
    while let Some(step) = {
        seen.push((s.sim().steps_taken(), s.sim().round(), content(&s)));
        s.step()
    } {
        let (_, _, before) = seen.last().unwrap();
        assert!(
            step.record.kind == crate::sim::StepKind::Actions || *before != content(&s),
            "step {} changed nothing: {}",
            seen.len(),
            step.headline
        );
        if step.seconds_later > 0 {
            later.push(step.headline.clone());
        }
        headlines.push(step.headline.clone());
        assert!(seen.len() < 500, "it must end");
    }
    // It ends with the new revision rolled out, and says so.
    let settled = s.settled().unwrap();
    assert_eq!(settled.outcome, Outcome::Complete, "{settled:?}");
    assert_eq!(
        settled.sentence,
        "Deployment \"web\" successfully rolled out; nothing more will happen"
    );
    assert!(!s.can_step());
    assert_eq!(
        s.api().deployment("web").unwrap().spec.template.image,
        "nginx:1.16.1"
    );
    // Time passes between changes: pods start in 5 s, terminate in 3 s, and the controllers
    // react at once (settled rounds).
    assert_eq!(
        later[..4],
        [
            "5 s later: 3 pods of web-rev1 became ready",
            "5 s later: applied kubectl set image deployment/web app=nginx:1.16.1",
            "5 s later: 1 pod of web-rev2 became ready",
            "3 s later: 1 pod finished terminating",
        ],
        "{later:#?}"
    );
    assert!(headlines
        .iter()
        .any(|h| h
            .starts_with("Deployment controller: Scaled down replica set web-rev1 to 2 from 3")));
    assert!(
        headlines
            .iter()
            .any(|h| h == "ReplicaSet controller: Created pod: web-rev1-00001 and 2 pods more"),
        "{headlines:#?}"
    );
    // Back, one step at a time, through exactly the same states, each with its caption.
    seen.pop();
    let mut captions = headlines.clone();
    while let Some((steps, round, before)) = seen.pop() {
        assert_eq!(s.last_result().map(|r| r.headline.clone()), captions.pop());
        assert!(s.step_back());
        assert_eq!((s.sim().steps_taken(), s.sim().round()), (steps, round));
        assert_eq!(content(&s), before);
    }
    assert!(!s.step_back());
    assert!(!s.can_step_back());
}

#[test]
fn syncs_that_change_nothing_are_folded_with_their_arithmetic() {
    let mut s = session(r#",{"round":3,"type":"setImage","image":"v2"}"#);
    let mut checked = Vec::new();
    while let Some(step) = s.step() {
        checked.extend(step.checked);
    }
    assert!(
        checked.iter().any(|c| c
            .sentence
            .starts_with("Deployment controller checked web: ")
            && c.decisions.iter().any(|d| !d.values.is_empty())),
        "{checked:#?}"
    );
    assert!(checked.iter().any(|c| c
        .sentence
        .starts_with("ReplicaSet controller checked web-rev")));
}

#[test]
fn a_quiet_wait_is_run_through_and_its_length_said() {
    // Pods ready 6 rounds (30 s) after creation.
    let mut s = Session::new(
        Scenario::from_json(
            r#"{"rounds":3,"secondsPerRound":5,"readyAfterRounds":6,"terminationRounds":0,"nodes":1,
            "actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":1,"image":"a"}}]}"#,
        )
        .unwrap(),
    )
    .unwrap();
    let mut found = None;
    while let Some(step) = s.step() {
        if step.headline.contains("became ready") {
            found = Some(step);
            break;
        }
    }
    let step = found.unwrap();
    // The pod was created at 0 s and the Deployment's status last changed at 10 s.
    assert_eq!((step.record.round, step.record.time), (6, 30));
    assert_eq!(step.seconds_later, 20);
    assert_eq!(step.headline, "20 s later: 1 pod of web-rev1 became ready");
    assert_eq!(step.quiet_rounds, 3, "rounds 3, 4 and 5");
}

#[test]
fn run_to_end_stops_when_complete_timed_out_or_paused() {
    let mut s = Session::from_preset("rolling-basic").unwrap();
    let end = s.run_to_end();
    assert_eq!(end.settled.outcome, Outcome::Complete);
    assert!(s.sim().round() >= 20, "the preset's rounds are a minimum");
    assert!(!s.can_step());
    // Step back returns to before the run.
    assert!(s.step_back());
    assert_eq!(s.sim().steps_taken(), 0);

    let mut s = Session::from_preset("progress-deadline").unwrap();
    let end = s.run_to_end();
    assert_eq!(end.settled.outcome, Outcome::DeadlineExceeded, "{end:?}");
    assert_eq!(
        end.settled.sentence,
        "Deployment \"web\" exceeded its progress deadline; nothing more will happen"
    );

    let mut s =
        session(r#",{"round":3,"type":"setImage","image":"v2"},{"round":4,"type":"pause"}"#);
    let end = s.run_to_end();
    assert_eq!(end.settled.outcome, Outcome::Paused, "{end:?}");
    assert!(end.seconds > 0);
    let d = s.api().deployment("web").unwrap();
    assert!(d.spec.paused);
    // Resuming makes steps possible again.
    accepted(&mut s, Command::Resume);
    assert!(s.can_step());
    assert_eq!(s.run_to_end().settled.outcome, Outcome::Complete);
}

/// Under 1.28 terminating pods are not counted; under 1.37 they are reported
/// (status.terminatingReplicas) and still not counted against maxSurge (KEP-3973's non-goal).
#[test]
fn pods_beyond_max_surge_while_old_ones_terminate_are_explained() {
    for (k8s, why) in [
        ("", "and Kubernetes 1.28 does not count terminating pods against maxSurge"),
        (
            r#""kubernetesVersion":"1.37","#,
            "and Kubernetes 1.37 reports them (status.terminatingReplicas) but does not count them against maxSurge",
        ),
    ] {
        let mut s = Session::new(
            Scenario::from_json(&format!(
                r#"{{{k8s}"rounds":4,"secondsPerRound":5,"readyAfterRounds":1,"terminationRounds":3,"nodes":1,
                "actions":[{{"round":0,"type":"create","deployment":{{"name":"web","replicas":3,"image":"a",
                  "strategy":{{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}}}},
                  {{"round":3,"type":"setImage","image":"b"}}]}}"#
            ))
            .unwrap(),
        )
        .unwrap();
        let mut notes = Vec::new();
        while let Some(step) = s.step() {
            notes.extend(step.notes);
        }
        let expected =
            format!("web has 5 pods, more than replicas 3 + maxSurge 1 = 4: 1 pod terminating, {why}");
        assert!(notes.contains(&expected), "{notes:#?}");
    }
}

#[test]
fn a_link_restores_the_moment_it_showed() {
    let mut s = Session::from_preset("rolling-basic").unwrap();
    for _ in 0..7 {
        s.step().unwrap();
    }
    s.step_round();
    accepted(
        &mut s,
        Command::Scale {
            replicas: "4".into(),
        },
    );
    let link = s.link();
    assert!(link.contains("&v=2&at="), "{link}");
    let r = Session::from_link(&link, &scenario("")).unwrap();
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    let back = r.value;
    assert_eq!(back.preset(), Some("rolling-basic"));
    assert_eq!(back.sim().steps_taken(), s.sim().steps_taken());
    assert_eq!(content(&back), content(&s));
    assert_eq!(back.pending(), s.pending());
    assert_eq!(back.link(), link);

    // A link written before sessions (no version) counts single syncs.
    let old = crate::share::encode_link(&crate::share::Link {
        scenario: crate::presets::preset("rolling-basic").unwrap().scenario,
        step: 17,
        preset: Some("rolling-basic".into()),
    });
    let r = Session::from_link(&old, &scenario("")).unwrap();
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    let mut sim = Simulation::new(crate::presets::preset("rolling-basic").unwrap().scenario);
    for _ in 0..17 {
        sim.step();
    }
    assert_eq!(r.value.sim().steps_taken(), 17);
    assert_eq!(
        format!("{:?}", r.value.api().replica_sets().collect::<Vec<_>>()),
        format!("{:?}", sim.api().replica_sets().collect::<Vec<_>>())
    );
    // Beyond the limits: the fallback, saying why.
    let big = Scenario::from_json(
        r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":20000}}]}"#,
    )
    .unwrap();
    let text = crate::share::encode_link(&crate::share::Link {
        scenario: big,
        step: 3,
        preset: None,
    });
    let r = Session::from_link(&text, &scenario("")).unwrap();
    assert!(r.fell_back);
    assert_eq!(r.value.scenario(), &scenario(""));
    assert!(r.ignored[0].contains("Rollout Lab simulates at most 10,000 replicas"));
}

#[test]
fn controller_reaction_is_chosen_before_the_first_step() {
    let mut s = Session::from_preset("rolling-basic").unwrap();
    assert!(s.instant_reactions(), "presets are settled");
    accepted(&mut s, Command::SetImage { image: "v9".into() });
    s.set_instant_reactions(false).unwrap();
    assert!(!s.instant_reactions());
    assert_eq!(s.pending().len(), 3, "the script and the command are kept");
    // One round per hop: the first round's ReplicaSet status lags its pods.
    s.step_round();
    let rs = s.api().replica_set("web-rev1").unwrap();
    assert_eq!((rs.spec.replicas, rs.status.replicas), (3, 0));
    assert_eq!(
        s.set_instant_reactions(true).unwrap_err(),
        "The controllers' reaction can change only before the first step: Reset to start over with it"
    );
    let mut settled = Session::from_preset("rolling-basic").unwrap();
    settled.step_round();
    let rs = settled.api().replica_set("web-rev1").unwrap();
    assert_eq!((rs.spec.replicas, rs.status.replicas), (3, 3));
}

#[test]
fn a_seek_of_single_syncs_is_one_move_back() {
    let mut s = Session::from_preset("rolling-basic").unwrap();
    s.step().unwrap();
    let (steps, before) = (s.sim().steps_taken(), content(&s));
    s.mark();
    s.mark();
    for _ in 0..30 {
        assert!(s.sync());
    }
    assert!(s.sim().round() > 3);
    assert!(s.step_back());
    assert_eq!((s.sim().steps_taken(), content(&s)), (steps, before));
    assert!(s.step_back(), "the mark before the seek is there once");
    assert_eq!(s.sim().steps_taken(), 0);
    assert!(!s.step_back());
    // Past the script's rounds a session runs on.
    let rounds = s.scenario().rounds;
    while s.sim().round() <= rounds {
        assert!(s.sync());
    }
}

/// A variant of rolling-basic on 10 replicas: `surge` / `unavailable`.
fn ten_replicas(surge: &str, unavailable: &str) -> Scenario {
    let mut s = crate::presets::preset("rolling-basic").unwrap().scenario;
    for a in &mut s.actions {
        if let ActionKind::Create { deployment } = &mut a.kind {
            deployment.replicas = Some(10);
            deployment.strategy = Some(
                serde_json::from_str(&format!(
                    r#"{{"type":"RollingUpdate","maxSurge":{surge},"maxUnavailable":{unavailable}}}"#
                ))
                .unwrap(),
            );
        }
    }
    s
}

/// The same scenario run round by round (no skipping) up to the start of the round at `t`.
fn plain_to(scenario: &Scenario, t: Time) -> Simulation {
    let mut sim = Simulation::new(scenario.clone());
    sim.extend_rounds(u32::try_from(t / scenario.seconds_per_round.max(1)).unwrap() + 1);
    while sim.now() < t {
        sim.run_round();
    }
    sim
}

#[test]
fn a_second_session_follows_the_first_ones_clock() {
    // A: 25% / 25% on 10 replicas; B: 1 / 0, which takes longer.
    let mut a = Session::new(ten_replicas("\"25%\"", "\"25%\"")).unwrap();
    let b_scenario = ten_replicas("1", "0");
    let mut b = Session::new(b_scenario.clone()).unwrap();
    let mut moments = 0;
    while a.step().is_some() {
        let (t, through) = (a.sim().now(), !a.sim().at_round_start());
        let before = b.sim().steps_taken();
        let moved = b.advance_to(t, through);
        assert_eq!(b.sim().now(), t, "both clocks read {t} s");
        assert_eq!(b.sim().steps_taken() - before, moved.syncs);
        // The same moment run round by round, without skipping: the same cluster.
        let mut plain = plain_to(&b_scenario, t);
        if through {
            // Everything at `t`: the next single sync ends the round and moves the clock.
            assert!(!b.sim().at_round_start());
            let mut next = b.sim().clone_without_history();
            next.step();
            assert!(next.now() > t);
            loop {
                let mut probe = plain.clone_without_history();
                probe.step();
                if probe.now() > t {
                    break;
                }
                plain.step();
            }
        } else {
            assert!(b.sim().at_round_start());
        }
        assert_eq!(
            format!("{:?}", plain.api().pods().collect::<Vec<_>>()),
            format!("{:?}", b.api().pods().collect::<Vec<_>>()),
            "at {t} s"
        );
        assert_eq!(
            plain.trace().rounds.len(),
            b.sim().trace().rounds.len(),
            "skipped rounds are recorded as run"
        );
        moments += 1;
    }
    assert!(moments > 10, "{moments}");
    // A is complete; B (one pod at a time) is not yet, and steps on alone.
    assert_eq!(a.settled().unwrap().outcome, Outcome::Complete);
    assert!(b.can_step());
    let t = a.sim().now();
    assert_eq!(b.run_to_end().settled.outcome, Outcome::Complete);
    assert!(b.sim().now() > t);
    // Already past a moment: nothing moves; stepping back undoes one advance.
    assert_eq!(b.advance_to(t, true).syncs, 0);
    let mut c = Session::new(b_scenario).unwrap();
    c.advance_to(7, false);
    assert_eq!((c.sim().now(), c.sim().round()), (7, 7));
    c.advance_to(7, true);
    assert_eq!(c.sim().now(), 7);
    assert!(c.step_back());
    assert_eq!((c.sim().now(), c.sim().at_round_start()), (7, true));
}

#[test]
fn a_link_reopens_with_the_syncs_its_original_took() {
    // Round runs the idle rounds (pods ready after 5 s) that Step skips: the same moment in
    // more single syncs.
    let mut s = Session::from_preset("rolling-basic").unwrap();
    for _ in 0..3 {
        s.step().unwrap();
    }
    for _ in 0..3 {
        s.step_round();
    }
    for _ in 0..6 {
        s.step().unwrap();
    }
    let link = s.link();
    assert!(
        link.ends_with(&format!("&syncs={}", s.sim().steps_taken())),
        "{link}"
    );
    // Without the count, Step's replay reaches the same moment in fewer syncs.
    let without: String = link
        .split('&')
        .filter(|p| !p.starts_with("syncs="))
        .collect::<Vec<_>>()
        .join("&");
    let fewer = Session::from_link(&without, &scenario("")).unwrap().value;
    assert!(fewer.sim().steps_taken() < s.sim().steps_taken());
    assert_eq!(content(&fewer), content(&s));
    // With it, the same syncs, the same moment, the same link, and it goes on alike.
    let r = Session::from_link(&link, &scenario("")).unwrap();
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    let mut back = r.value;
    assert_eq!(back.sim().steps_taken(), s.sim().steps_taken());
    assert_eq!(
        (back.sim().round(), back.sim().now()),
        (s.sim().round(), s.sim().now())
    );
    assert_eq!(content(&back), content(&s));
    assert_eq!(back.sim().trace().rounds, s.sim().trace().rounds);
    assert_eq!(back.link(), link);
    // Read as a plain link (the JavaScript `decodeLink`), its session parts are known.
    let plain = crate::share::decode_link(&link, &scenario("")).unwrap();
    assert!(plain.ignored.is_empty(), "{:?}", plain.ignored);
    assert_eq!(back.step(), s.step());
    assert_eq!(back.sim().steps_taken(), s.sim().steps_taken());
}

/// A first visit: the Deployment runs, `kubectl set image` is pending, and a rollout is in
/// progress within 3 steps; Back returns to the empty cluster.
#[test]
fn a_first_visit_is_a_step_or_two_from_a_rollout() {
    let mut s = Session::from_preset(crate::presets::FIRST_VISIT).unwrap();
    assert!(s.run_to_first_command().is_some());
    assert_eq!((s.sim().now(), s.sim().at_round_start()), (10, true));
    let d = s.api().deployment("web").unwrap().clone();
    assert_eq!(
        (d.status.replicas, d.status.available_replicas),
        (3, 3),
        "running, all available"
    );
    assert_eq!(s.pending().len(), 1);
    assert!(s.pending()[0].command.starts_with("kubectl set image"));
    assert!(s.can_step() && s.settled().is_none());
    assert_eq!(s.next_moment(), Some(10), "the image change is due now");
    let mut steps = 0;
    while s.api().replica_sets().count() < 2 {
        s.step().unwrap();
        steps += 1;
    }
    assert!(steps <= 3, "{steps} steps to the new ReplicaSet");
    assert!(s.settled().is_none(), "the rollout is in progress");
    // Already past it: nothing moves.
    assert!(s.run_to_first_command().is_none());
    while s.step_back() {}
    assert_eq!((s.sim().now(), s.api().deployments().count()), (0, 0));
}

/// The next moment is the clock of the next change, and advancing through it shows all of it.
#[test]
fn the_next_moment_is_when_the_next_change_happens() {
    let mut s = session(r#",{"round":4,"type":"setImage","image":"v2"}"#);
    assert_eq!(s.next_moment(), Some(0));
    s.advance_to(0, true);
    // Pods ready after 1 round of 5 s: the next change is at 0:05.
    assert_eq!(s.next_moment(), Some(5));
    s.run_to_end();
    assert_eq!(s.next_moment(), None);
}

#[test]
fn single_syncs_are_the_lock_step_simulation_and_each_is_undone_alone() {
    // The JavaScript `Simulation` steps a session one sync at a time: the same records as a
    // raw simulation of the scenario, and each Back undoes exactly one of them.
    let mut s = session("");
    let mut raw = Simulation::new(scenario(""));
    let mut seen = Vec::new();
    while let Some(r) = s.single_sync().cloned() {
        let expected = raw
            .step()
            .cloned()
            .expect("the raw simulation steps as far");
        assert_eq!(r, expected);
        seen.push(content(&s));
    }
    assert!(raw.step().is_none() && s.sim().finished());
    assert!(s.single_sync().is_none(), "the rounds are not extended");
    assert!(seen.len() > 20, "{} syncs", seen.len());
    for at in (0..seen.len() - 1).rev() {
        assert!(s.step_back());
        assert_eq!(content(&s), seen[at], "after going back to sync {}", at + 1);
    }
    assert!(s.step_back() && !s.can_step_back());
    // An action pushed as the scenario format writes it runs when its round starts: in
    // round 2, once round 1 is under way.
    while s.sim().round() < 1 || s.sim().at_round_start() {
        s.single_sync();
    }
    let round = s.push_action(ActionKind::Scale {
        name: None,
        replicas: 5,
    });
    assert_eq!(round, 2);
    while s.single_sync().is_some() {}
    let d = s.sim().api().deployments().next().unwrap();
    assert_eq!(d.spec.replicas, 5);
}

/// One source of time (issue #38): a first visit runs to its first command, 0:10 on the clock
/// (the last change at 0:06: the Deployment's status once its 3 pods were ready, 5 s rounds of
/// 1 s, ready after 5 s); the first Step applies `kubectl set image` at 0:10, and says no
/// "4 s later", which the clock would contradict.
#[test]
fn a_step_after_an_advance_counts_time_from_the_clock() {
    let preset = crate::presets::preset(crate::presets::FIRST_VISIT).unwrap();
    let mut session = Session::new(preset.scenario).unwrap();
    session.run_to_first_command();
    let clock = session.sim().now();
    let last = session.sim().last_step().unwrap().time;
    assert!(
        last < clock,
        "the last change ({last} s) came before the clock ({clock} s)"
    );
    let step = session.step().unwrap();
    assert_eq!(step.record.time, clock);
    assert_eq!(step.seconds_later, 0);
    assert!(!step.headline.contains("later"), "{}", step.headline);
    // The next Step counts from that step, as before.
    let next = session.step().unwrap();
    assert_eq!(next.seconds_later, next.record.time - step.record.time);
}
