use super::*;

fn lab() -> Lab {
    Lab::default()
}

fn run_rounds(lab: &mut Lab, n: u32) {
    for _ in 0..n {
        lab.update(Msg::StepRound);
    }
}

#[test]
fn the_default_scenario_is_valid_and_pending() {
    let json = r#"{"name":"rollout-lab","description":"","rounds":30,"secondsPerRound":1,
        "settle":true,"readyAfterRounds":5,"terminationRounds":3,"neverReadyImages":[],"nodes":3,
        "kubernetesVersion":"1.37","actions":[{"round":0,"type":"create","deployment":{"name":"web","replicas":3,
        "image":"nginx:1.14.2","strategy":{"type":"RollingUpdate","maxSurge":"25%",
        "maxUnavailable":"25%"}}}]}"#;
    assert_eq!(default_scenario(), Scenario::from_json(json).unwrap());
    let lab = lab();
    assert_eq!(lab.settings, Settings::default());
    let f = Frame::of(&lab);
    assert_eq!(f.round, 0);
    assert_eq!(f.pending.len(), 1);
    assert_eq!(
        f.pending[0].command,
        "kubectl create deployment web --image=nginx:1.14.2 --replicas=3"
    );
    assert!(f.cluster.deployments.is_empty());
    assert!(lab.problems().is_empty());
}

#[test]
fn edits_before_the_first_step_recreate_the_simulation() {
    let mut lab = lab();
    lab.update(Msg::Edit(Field::Replicas, "7".into()));
    assert_eq!(lab.applied.replicas, "7");
    lab.update(Msg::Step);
    lab.update(Msg::Step);
    let f = Frame::of(&lab);
    assert_eq!(f.replica_sets[0].desired, 7);
}

#[test]
fn invalid_settings_are_shown_and_not_applied() {
    let mut lab = lab();
    lab.update(Msg::Edit(Field::MaxSurge, "0".into()));
    lab.update(Msg::Edit(Field::MaxUnavailable, "0".into()));
    let p = lab.problems();
    assert!(
        p.summary.ends_with("may not be 0 when `maxSurge` is 0"),
        "{}",
        p.summary
    );
    assert_eq!(lab.applied.max_surge, "0", "0 / 25% was valid and applied");
    assert_eq!(lab.applied.max_unavailable, "25%", "0 / 0 was not");
    let create = first_create(lab.sim().scenario()).unwrap().clone();
    let st = create.strategy.unwrap();
    assert_eq!(st.max_unavailable.unwrap().to_string(), "25%");
}

#[test]
fn after_the_start_edits_wait_for_apply() {
    let mut lab = lab();
    run_rounds(&mut lab, 3);
    lab.update(Msg::Edit(Field::Replicas, "5".into()));
    assert!(lab.settings.spec_differs(&lab.applied));
    assert!(Frame::of(&lab).pending.is_empty());
    lab.update(Msg::ApplySpec);
    let f = Frame::of(&lab);
    assert_eq!(f.pending.len(), 1);
    assert_eq!(
        f.pending[0].command,
        "kubectl scale deployment/web --replicas=5"
    );
    assert_eq!(f.pending[0].round, 3);
    assert!(!lab.settings.spec_differs(&lab.applied));
    run_rounds(&mut lab, 1);
    assert_eq!(
        Frame::of(&lab).cluster.deployments[0].object.spec.replicas,
        5
    );
}

#[test]
fn apply_refuses_what_the_api_refuses() {
    let mut lab = lab();
    run_rounds(&mut lab, 2);
    lab.update(Msg::Edit(Field::MaxSurge, "0".into()));
    lab.update(Msg::Edit(Field::MaxUnavailable, "0".into()));
    lab.update(Msg::ApplySpec);
    assert!(Frame::of(&lab).pending.is_empty());
    let last = lab.console.last().unwrap();
    assert!(last.error);
    assert!(last
        .output
        .starts_with("error: Deployment.apps \"web\" is invalid"));
}

#[test]
fn update_image_is_pending_until_its_round() {
    let mut lab = lab();
    run_rounds(&mut lab, 4);
    lab.update(Msg::UpdateImage);
    let entry = lab.console.last().unwrap().clone();
    assert_eq!(
        entry.command,
        "kubectl set image deployment/web app=nginx:1.16.1"
    );
    assert_eq!(entry.output, "deployment.apps/web image updated");
    assert_eq!(entry.round, Some(4));
    assert_eq!(Frame::of(&lab).pending.len(), 1);
    lab.update(Msg::Step);
    assert!(Frame::of(&lab).pending.is_empty());
    // The next click rolls out the version after.
    assert_eq!(lab.next_image(), "nginx:1.18.0");
}

#[test]
fn the_never_ready_switch_rolls_out_the_misspelt_tag_first() {
    let mut lab = lab();
    lab.update(Msg::SetNeverReady(true));
    assert_eq!(lab.sim().scenario().never_ready_images, vec!["nginx:1.161"]);
    assert_eq!(lab.next_image(), "nginx:1.161");
    run_rounds(&mut lab, 3);
    lab.update(Msg::UpdateImage);
    assert_eq!(lab.next_image(), "nginx:1.16.1");
    run_rounds(&mut lab, 8);
    let f = Frame::of(&lab);
    let status = &f.cluster.deployments[0].rollout_status;
    assert!(!status.done);
    assert_eq!(
        status.message,
        "Waiting for deployment \"web\" rollout to finish: 1 out of 3 new replicas have been updated...\n"
    );
}

#[test]
fn undo_follows_kubectl() {
    let mut lab = Lab::from_preset("bad-image-stuck").unwrap();
    // Judged against the cluster once the pending create has been applied.
    lab.update(Msg::Undo(0));
    assert_eq!(
        lab.console.last().unwrap().output,
        "error: no rollout history found for deployment \"web\""
    );
    run_rounds(&mut lab, 15);
    lab.update(Msg::PauseRollout);
    run_rounds(&mut lab, 1);
    lab.update(Msg::Undo(0));
    assert!(lab
        .console
        .last()
        .unwrap()
        .output
        .starts_with("error: you cannot rollback a paused deployment"));
    lab.update(Msg::ResumeRollout);
    run_rounds(&mut lab, 1);
    lab.update(Msg::Undo(2));
    assert_eq!(
        lab.console.last().unwrap().output,
        "deployment.apps/web skipped rollback (current template already matches revision 2)"
    );
    lab.update(Msg::Undo(0));
    let last = lab.console.last().unwrap().clone();
    assert_eq!(last.command, "kubectl rollout undo deployment/web");
    assert_eq!(last.output, "deployment.apps/web rolled back");
    let pending = Frame::of(&lab).pending;
    assert_eq!(
        pending.last().unwrap().command,
        "kubectl rollout undo deployment/web"
    );
    run_rounds(&mut lab, 15);
    let f = Frame::of(&lab);
    assert!(
        f.cluster.deployments[0].rollout_status.done,
        "{:?}",
        f.cluster.deployments[0].rollout_status
    );
    // No DeploymentRollback event: the client-side undo is an ordinary template change.
    assert!(!f
        .all_events
        .iter()
        .any(|e| e.reason == "DeploymentRollback"));
}

#[test]
fn the_legacy_rollback_emits_its_event() {
    let mut lab = Lab::from_preset("bad-image-stuck").unwrap();
    run_rounds(&mut lab, 15);
    lab.update(Msg::LegacyRollback(0));
    run_rounds(&mut lab, 1);
    let f = Frame::of(&lab);
    assert!(
        f.deployment_events
            .iter()
            .any(|e| e.reason == "DeploymentRollback"),
        "{:?}",
        f.deployment_events
    );
}

#[test]
fn step_back_and_seek() {
    let mut lab = lab();
    run_rounds(&mut lab, 3);
    let at3 = Frame::of(&lab);
    lab.update(Msg::Step);
    lab.update(Msg::StepBack);
    assert_eq!(Frame::of(&lab).cluster, at3.cluster);
    lab.update(Msg::SeekRound(1));
    assert_eq!(
        (Frame::of(&lab).round, Frame::of(&lab).at_round_start),
        (1, true)
    );
    lab.update(Msg::SeekRound(5));
    while lab.seek.is_some() {
        lab.update(Msg::Advance);
    }
    assert_eq!(Frame::of(&lab).round, 5);
    // End runs until nothing more will happen (the scenario's rounds are a minimum) and says
    // why; Step then changes nothing and says so too.
    let t0 = Frame::of(&lab).time;
    lab.update(Msg::ToEnd);
    let f = Frame::of(&lab);
    let said = format!("End: {} later", crate::explain::seconds(f.time - t0));
    assert!(
        lab.notice.as_deref().unwrap().starts_with(&said),
        "{:?}",
        lab.notice
    );
    let settled = f
        .settled
        .clone()
        .expect("nothing more will happen after End");
    assert_eq!(settled.outcome, rollout_facade::session::Outcome::Complete);
    assert!(f.round >= 30, "the scenario's rounds are a minimum");
    assert!(lab.notice.as_deref().unwrap().contains(&settled.sentence));
    lab.update(Msg::Step);
    assert_eq!(Frame::of(&lab).steps, f.steps);
    assert_eq!(lab.notice.as_deref(), Some(settled.sentence.as_str()));
    // Step back undoes the whole run.
    lab.update(Msg::StepBack);
    assert_eq!(Frame::of(&lab).round, 5);
}

#[test]
fn playing_stops_at_the_end() {
    let mut lab = Lab::from_preset("rolling-basic").unwrap();
    lab.update(Msg::TogglePlay);
    assert!(lab.playing);
    // Every tick is a step to a change; play stops when nothing more will happen.
    let mut ticks = 0;
    while lab.playing && ticks < 1000 {
        let before = Frame::of(&lab).time;
        lab.update(Msg::Tick);
        assert!(Frame::of(&lab).time >= before, "time only grows");
        ticks += 1;
    }
    assert!(!lab.playing, "play stops by itself");
    let f = Frame::of(&lab);
    assert_eq!(
        f.settled.as_ref().map(|s| s.outcome),
        Some(rollout_facade::session::Outcome::Complete)
    );
    assert!(lab
        .notice
        .as_deref()
        .unwrap()
        .contains("successfully rolled out"));
    // Play at the end does not start.
    lab.update(Msg::TogglePlay);
    assert!(!lab.playing);
}

#[test]
fn cancelling_a_pending_action_keeps_the_past() {
    let mut lab = Lab::from_preset("rolling-basic").unwrap();
    lab.update(Msg::Step);
    lab.update(Msg::Step);
    let before = Frame::of(&lab);
    let set_image = before
        .pending
        .iter()
        .find(|p| p.type_name == "setImage")
        .unwrap();
    lab.update(Msg::Cancel(set_image.index));
    let after = Frame::of(&lab);
    assert!(after.pending.is_empty());
    assert_eq!(after.cluster, before.cluster);
    assert_eq!(after.steps, before.steps);
    assert!(after.can_back);
}

#[test]
fn presets_and_imports() {
    let mut lab = lab();
    lab.update(Msg::LoadPreset("recreate".into()));
    assert_eq!(lab.preset, "recreate");
    assert_eq!(lab.settings.strategy, settings::StrategyKind::Recreate);
    assert_eq!(lab.settings.termination_rounds, "5");
    let json = serde_json::to_string(lab.sim().scenario()).unwrap();
    lab.update(Msg::LoadPreset("custom".into()));
    lab.update(Msg::Import(json));
    assert_eq!(lab.preset, "imported");
    assert_eq!(lab.settings.strategy, settings::StrategyKind::Recreate);
    lab.update(Msg::Import("{".into()));
    assert!(lab
        .notice
        .as_deref()
        .unwrap()
        .starts_with("Could not read that scenario"));
    let notice = |lab: &Lab| lab.notice.clone().unwrap_or_default();
    lab.update(Msg::Import(r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":50000}}]}"#.into()));
    assert!(
        notice(&lab).contains("at most 10,000 replicas"),
        "{}",
        notice(&lab)
    );
    lab.update(Msg::Import(r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}},{"round":3,"type":"scale","replicas":99999}]}"#.into()));
    assert!(notice(&lab).contains("actions[1] (round 3): scales to 99999 replicas; Rollout Lab simulates at most 10,000 replicas"));
    lab.update(Msg::Import(r#"{"rounds":50000,"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}}]}"#.into()));
    assert!(notice(&lab).contains("at most 2,000"));
    lab.update(Msg::Import(r#"{"actions":[]}"#.into()));
    assert!(notice(&lab).contains("creates no Deployment"));
    assert_eq!(
        lab.preset, "imported",
        "the refused imports changed nothing"
    );
    lab.update(Msg::LoadPreset("nope".into()));
    assert_eq!(lab.preset, "imported");
}

#[test]
fn an_imported_scenario_keeps_its_own_mode() {
    let mut lab = lab();
    let create = r#""actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a","replicas":2}}]"#;
    lab.update(Msg::Import(format!("{{{create}}}")));
    assert_eq!(lab.preset, "imported");
    assert!(
        !lab.session().instant_reactions(),
        "settle absent = lock-step"
    );
    assert!(!lab.settings.instant_reactions);
    lab.update(Msg::Import(format!(r#"{{"settle":true,{create}}}"#)));
    assert!(lab.session().instant_reactions());
    assert!(lab.settings.instant_reactions);
}

/// Rounds until the Deployment's status says the default rollout with one image update (given
/// before the first step) is complete: 3 updated, 3 available, 3 in all.
fn rounds_to_roll_out(instant: bool) -> u32 {
    let mut lab = lab();
    lab.update(Msg::SetInstantReactions(instant));
    lab.update(Msg::UpdateImage);
    for _ in 0..100 {
        lab.update(Msg::StepRound);
        let f = Frame::of(&lab);
        let status = &f.cluster.deployments[0].object.status;
        if (
            status.updated_replicas,
            status.available_replicas,
            status.replicas,
        ) == (3, 3, 3)
            && f.round > 1
        {
            return f.round;
        }
    }
    panic!("instant {instant}: not rolled out in 100 rounds")
}

/// The most `status.terminatingReplicas` a ReplicaSet card shows, and whether any card showed
/// the field at all, over the default rollout with one image update once it runs (3 s of
/// graceful termination). (A clone of a lab shares its session: each call takes a lab of its own.)
fn terminating_seen(lab: &mut Lab) -> (i32, bool) {
    // The Deployment running (before the first step an image change edits the create).
    for _ in 0..10 {
        lab.update(Msg::Step);
    }
    lab.update(Msg::UpdateImage);
    let (mut most, mut shown) = (0, false);
    for _ in 0..60 {
        lab.update(Msg::Step);
        for rs in Frame::of(lab).replica_sets.iter() {
            shown |= rs.terminating.is_some();
            most = most.max(rs.terminating.unwrap_or(0));
        }
    }
    (most, shown)
}

#[test]
fn the_kubernetes_version_setting() {
    use rollout_facade::version::KubernetesVersion as K;
    // The app's presets, lessons and first visit run the Kubernetes people run today.
    let mut lab = lab();
    assert_eq!(
        (lab.kubernetes(), lab.settings.kubernetes),
        (K::V1_37, K::V1_37)
    );
    assert_eq!(Lab::first_visit().kubernetes(), K::V1_37);
    assert_eq!(
        Lab::from_preset("rolling-basic").unwrap().kubernetes(),
        K::V1_37
    );
    assert_eq!(
        Lab::from_lesson("recreate", 0).unwrap().kubernetes(),
        K::V1_37
    );
    // 1.37 reports terminating pods on the ReplicaSets; 1.28 does not.
    let (most, shown) = terminating_seen(&mut Lab::default());
    assert!(
        shown && most >= 1 || std::env::var("TODO_KCORE").is_ok(),
        "{most} {shown}"
    );
    // Before the first step the switch applies at once …
    lab.update(Msg::SetKubernetes(K::V1_28));
    assert_eq!(
        (lab.kubernetes(), lab.applied.kubernetes),
        (K::V1_28, K::V1_28)
    );
    let mut old = Lab::default();
    old.update(Msg::SetKubernetes(K::V1_28));
    assert_eq!(terminating_seen(&mut old), (0, false));
    // … afterwards on Reset, like the rest of the cluster model.
    lab.update(Msg::Step);
    lab.update(Msg::SetKubernetes(K::V1_37));
    assert_eq!(lab.kubernetes(), K::V1_28);
    assert!(lab.settings.model_differs(&lab.applied));
    lab.update(Msg::Reset);
    assert_eq!(lab.kubernetes(), K::V1_37);
    // Opening a preset or a lesson keeps the version chosen.
    lab.update(Msg::SetKubernetes(K::V1_28));
    lab.update(Msg::LoadPreset("recreate".into()));
    assert_eq!(
        (lab.preset.as_str(), lab.kubernetes()),
        ("recreate", K::V1_28)
    );
    lab.update(Msg::OpenLesson("recreate".into(), 1));
    assert_eq!(lab.kubernetes(), K::V1_28);
    lab.update(Msg::LessonNext);
    assert_eq!(lab.kubernetes(), K::V1_28, "the lesson's next step too");
    // A preset at another version starts where it starts at the default one.
    let preset = Lab::from_preset("rolling-basic").unwrap();
    let old = Lab::from_preset("rolling-basic")
        .unwrap()
        .at_kubernetes(K::V1_28);
    assert_eq!(old.kubernetes(), K::V1_28);
    assert_eq!(old.sim().steps_taken(), preset.sim().steps_taken());
    assert!(!old.started());
    // The first visit at another version is the first visit still: its Deployment running.
    let first = Lab::first_visit().at_kubernetes(K::V1_28);
    assert_eq!(first.kubernetes(), K::V1_28);
    assert!(first.started() && first.session().can_step());
    let at = first.sim().steps_taken();
    let mut again = first;
    again.update(Msg::Step);
    again.update(Msg::Reset);
    assert_eq!(
        (again.sim().steps_taken(), again.kubernetes()),
        (at, K::V1_28),
        "Reset goes back to the first visit's state"
    );
    // An imported scenario without kubernetesVersion is 1.28, as the scenario format says.
    lab.update(Msg::SetKubernetes(K::V1_37));
    lab.update(Msg::Import(
        r#"{"actions":[{"round":0,"type":"create","deployment":{"name":"web","image":"a"}}]}"#
            .into(),
    ));
    assert_eq!(lab.kubernetes(), K::V1_28);
}

#[test]
fn the_controller_reaction_setting() {
    let mut lab = lab();
    assert!(
        lab.settings.instant_reactions,
        "settled is what people meet"
    );
    assert!(lab.session().instant_reactions());
    // Before the first step it applies at once.
    lab.update(Msg::SetInstantReactions(false));
    assert!(!lab.session().instant_reactions());
    assert!(!lab.applied.instant_reactions);
    // Afterwards it waits for Reset, as the core insists.
    lab.update(Msg::Step);
    lab.update(Msg::SetInstantReactions(true));
    assert!(!lab.session().instant_reactions());
    assert!(lab.settings.model_differs(&lab.applied));
    let mut started = Session::new(default_scenario()).unwrap();
    started.step();
    assert!(started
        .set_instant_reactions(false)
        .unwrap_err()
        .contains("only before the first step"));
    lab.update(Msg::Reset);
    assert!(lab.session().instant_reactions());
    assert!(!lab.settings.model_differs(&lab.applied));
    // One round per hop: status trails the pods, so the same rollout takes more rounds.
    let (instant, per_hop) = (rounds_to_roll_out(true), rounds_to_roll_out(false));
    assert!(per_hop > instant, "per hop {per_hop} vs instant {instant}");
}

#[test]
fn reset_starts_over_from_the_settings_and_keeps_the_script() {
    let mut lab = Lab::from_preset("rolling-basic").unwrap();
    run_rounds(&mut lab, 2);
    lab.update(Msg::UpdateImage);
    lab.update(Msg::Edit(Field::Nodes, "1".into()));
    lab.update(Msg::Reset);
    let f = Frame::of(&lab);
    assert_eq!(f.steps, 0);
    let s = lab.sim().scenario().clone();
    assert_eq!(s.nodes, 1);
    assert_eq!(
        s.actions.len(),
        2,
        "create + the preset's setImage, not the user's"
    );
}

#[test]
fn settings_past_the_work_limit_are_refused_with_its_message() {
    // Rollover: two rollouts in 60 settled rounds; 10,000 replicas pass the work limit.
    let mut lab = Lab::from_preset("rollover").unwrap();
    let actions = lab.sim().scenario().actions.len();
    lab.update(Msg::Edit(Field::Replicas, "10000".into()));
    let notice = lab.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with("These settings are not applied: 60 rounds")
            && notice.contains("pod-rounds; Rollout Lab simulates at most 2,000,000 pod-rounds"),
        "{notice}"
    );
    let now = lab.sim().scenario().actions.len();
    assert_eq!(now, actions, "still the preset, not another scenario");
    assert_ne!(lab.applied.replicas, "10000");
    lab.update(Msg::Reset);
    assert!(lab
        .notice
        .clone()
        .unwrap_or_default()
        .contains("pod-rounds"));
    lab.update(Msg::Edit(Field::Replicas, "20".into()));
    assert_eq!(lab.applied.replicas, "20");
}

#[test]
fn changes_are_highlighted_against_the_previous_state() {
    let mut lab = lab();
    lab.update(Msg::Step);
    lab.update(Msg::Step);
    let before = lab.before.clone().unwrap();
    let f = Frame::of(&lab);
    let d = &f.cluster.deployments[0];
    assert!(d.conditions.iter().all(|c| before.condition_changed(c)));
    // The ReplicaSet's status counts its pods in a later step than the one that created them:
    // that step highlights CURRENT alone.
    let mut seen = None;
    for _ in 0..10 {
        lab.update(Msg::Step);
        let before = lab.before.clone().unwrap();
        let f = Frame::of(&lab);
        let rs = &f.replica_sets[0];
        let changed =
            before.counts_changed(&rs.name, [rs.desired, rs.current, rs.ready, rs.available]);
        if changed[1] {
            seen = Some(changed);
            break;
        }
    }
    assert_eq!(seen, Some([false, true, false, false]));
}

#[test]
fn scale_refuses_what_kubectl_refuses() {
    let mut lab = lab();
    lab.update(Msg::Edit(Field::Replicas, "abc".into()));
    lab.update(Msg::Scale);
    assert!(lab.console.last().unwrap().error);
    lab.update(Msg::Edit(Field::Replicas, "20000".into()));
    lab.update(Msg::Scale);
    assert!(lab
        .console
        .last()
        .unwrap()
        .output
        .contains("at most 10,000"));
    assert!(Frame::of(&lab).pending.len() == 1, "only the create");
}

#[test]
fn a_pod_quota_is_created_refused_and_deleted_as_with_kubectl() {
    let mut lab = lab();
    let last = |lab: &Lab| lab.console.last().unwrap().clone();
    lab.update(Msg::SetQuota(None));
    assert_eq!(
        last(&lab).output,
        "Error from server (NotFound): resourcequotas \"pods-quota\" not found"
    );
    lab.update(Msg::SetQuota(Some("x".into())));
    assert!(last(&lab).error && last(&lab).output.starts_with("error: "));
    assert_eq!(lab.session().quota_after_pending(), None);
    lab.update(Msg::SetQuota(Some(" 3 ".into())));
    assert_eq!(
        last(&lab).command,
        "kubectl create quota pods-quota --hard=pods=3"
    );
    assert_eq!(last(&lab).output, "resourcequota/pods-quota created");
    assert_eq!(lab.session().quota_after_pending(), Some(3));
    lab.update(Msg::SetQuota(Some("5".into())));
    assert!(last(&lab).output.contains("(AlreadyExists)"));
    // It applies with the next round, and is lifted the same way.
    run_rounds(&mut lab, 1);
    assert_eq!(lab.sim().api().pod_quota(), Some(3));
    lab.update(Msg::SetQuota(None));
    assert_eq!(lab.session().quota_after_pending(), None);
    run_rounds(&mut lab, 1);
    assert_eq!(lab.sim().api().pod_quota(), None);
}

#[test]
fn the_inside_panel_selects_and_queues_pod_actions() {
    use crate::inside::Request;
    let mut lab = lab();
    run_rounds(&mut lab, 2);
    assert!(!lab.inside_open);
    lab.update(Msg::Select("replicaset/x".into()));
    assert!(lab.inside_open);
    assert_eq!(lab.selected.as_deref(), Some("replicaset/x"));
    lab.update(Msg::Inside(Request::Select("pod/p".into())));
    assert_eq!(lab.selected.as_deref(), Some("pod/p"));
    let pod = lab.sim().api().pods().next().unwrap().metadata.name.clone();
    lab.update(Msg::Inside(Request::Act(ActionKind::SetPodDeletionCost {
        pod: pod.clone(),
        value: Some(-7),
    })));
    lab.update(Msg::Inside(Request::Act(ActionKind::RestartPod {
        pod: pod.clone(),
    })));
    let pending: Vec<&str> = Frame::of(&lab)
        .pending
        .iter()
        .map(|p| p.type_name)
        .collect();
    assert_eq!(pending, ["setPodDeletionCost", "restartPod"]);
    run_rounds(&mut lab, 1);
    let p = lab.sim().api().pod(&pod).unwrap().clone();
    assert_eq!((p.deletion_cost(), p.restart_count), (-7, 1));
    lab.update(Msg::ToggleInside);
    assert!(!lab.inside_open);
}

#[test]
fn a_command_before_the_first_step_is_pending_and_the_first_step_applies_it() {
    let mut lab = Lab::from_preset("rolling-basic").unwrap();
    lab.update(Msg::Edit(Field::Replicas, "5".into()));
    lab.update(Msg::Scale);
    let f = Frame::of(&lab);
    let scale = f
        .pending
        .iter()
        .find(|p| p.command.contains("kubectl scale"))
        .expect("shown as pending")
        .command
        .clone();
    lab.update(Msg::Step);
    let f = Frame::of(&lab);
    assert!(!f.pending.iter().any(|p| p.command == scale));
    let e = f.explanation.expect("the step is explained");
    assert!(e.headline.contains(&scale), "{}", e.headline);
}

#[test]
fn a_step_that_only_writes_a_status_says_what_it_wrote() {
    let mut lab = Lab::from_preset("rolling-basic").unwrap();
    let mut seen = Vec::new();
    for _ in 0..200 {
        lab.update(Msg::Step);
        let f = Frame::of(&lab);
        let Some(note) = f.step_note else { break };
        let e = f.explanation.expect("explained");
        if let Some(change) = note.status_change {
            assert!(e.events.is_empty(), "{change}");
            seen.push(change);
        }
        if f.settled.is_some() {
            break;
        }
    }
    assert!(
        seen.iter()
            .any(|c| c.starts_with("Deployment controller updated web's status: ")),
        "{seen:?}"
    );
    assert!(
        seen.iter()
            .any(|c| c.starts_with("ReplicaSet controller updated web-rev")),
        "{seen:?}"
    );
}

/// The first visit: a rollout a Step or two away; the status notice of a finished rollout
/// goes stale (and away) with the next move, and End's summary is the caption's.
#[test]
fn a_first_visit_rolls_out_and_status_notices_go_stale() {
    let mut lab = Lab::first_visit();
    let f = Frame::of(&lab);
    assert!(f.settled.is_none() && lab.notice.is_none());
    assert_eq!(f.budget.as_ref().map(|b| b.available.status), Some(3));
    let mut steps = 0;
    while Frame::of(&lab).replica_sets.len() < 2 {
        lab.update(Msg::Step);
        steps += 1;
    }
    assert!(steps <= 3, "{steps} steps");
    lab.update(Msg::ToEnd);
    assert!(lab.status_notice && lab.notice.is_some());
    assert!(
        lab.ran.as_deref().unwrap().starts_with("End: "),
        "{:?}",
        lab.ran
    );
    assert!(!lab.ran.as_deref().unwrap().contains("nothing more"));
    lab.update(Msg::Step);
    assert!(lab.status_notice, "Step with nothing to do says so again");
    // Rolling out another image: the old "nothing more will happen" is gone.
    lab.update(Msg::UpdateImage);
    assert!(lab.notice.is_none() && !lab.status_notice && lab.ran.is_none());
    assert!(Frame::of(&lab).settled.is_none());
    // Other notices stay until dismissed.
    lab.update(Msg::Notice("imported".into()));
    lab.update(Msg::Step);
    assert_eq!(lab.notice.as_deref(), Some("imported"));
}

/// Compare's Step: through a whole moment, as one move Back undoes.
#[test]
fn step_to_runs_a_whole_moment() {
    let mut lab = Lab::first_visit();
    let t = lab.session().next_moment().unwrap();
    assert_eq!(t, 10);
    lab.update(Msg::StepTo(t));
    let f = Frame::of(&lab);
    assert_eq!(f.time, 10);
    assert!(!f.at_round_start);
    assert_eq!(
        f.replica_sets.len(),
        2,
        "the image change and its reactions at 0:10"
    );
    assert!(lab.session().next_moment().unwrap() > 10);
    lab.update(Msg::StepBack);
    assert_eq!(
        (Frame::of(&lab).time, Frame::of(&lab).at_round_start),
        (10, true)
    );
}

/// Reset on the first visit's scenario returns to the first visit's state (the Deployment
/// running, `kubectl set image` a Step away), not to round 0; Play is off there.
#[test]
fn reset_returns_to_the_first_visit() {
    let first = Lab::first_visit();
    let at = first.sim().steps_taken();
    assert!(at > 0, "the first visit has run to its first command");
    let mut lab = Lab::first_visit();
    for _ in 0..4 {
        lab.update(Msg::Step);
    }
    assert!(lab.sim().steps_taken() > at);
    lab.update(Msg::Reset);
    assert_eq!(lab.sim().steps_taken(), at);
    assert_eq!(lab.sim().round(), first.sim().round());
    assert!(!lab.playing);
}

#[test]
fn the_traffic_switch_and_fields_apply_at_once_and_the_frame_shows_the_clocks_second() {
    let mut lab = lab();
    assert!(Frame::of(&lab).traffic.is_none(), "off by default");
    lab.update(Msg::SetTraffic(true));
    lab.update(Msg::Edit(Field::Load, "90".into()));
    lab.update(Msg::Edit(Field::PodCapacity, "20".into()));
    run_rounds(&mut lab, 8);
    let steps = lab.sim().steps_taken();
    let t = Frame::of(&lab).traffic.unwrap().unwrap();
    // Three pods ready (5 s rounds of readiness in the default scenario), 30 req/s each, 20
    // served: 10 over each pod's capacity.
    // At a round's start, the second before the clock (the state drawn is the last round's).
    assert!(lab.sim().at_round_start());
    assert_eq!(t.now, lab.sim().now() - 1);
    assert_eq!(
        (t.second.figures.served, t.second.figures.failed()),
        (60, 30)
    );
    assert!(t
        .second
        .why
        .as_deref()
        .unwrap()
        .contains("serves at most 20"));
    // Edited mid-run: applied at once, the session where it was, the figures the core's anew.
    lab.update(Msg::Edit(Field::PodCapacity, "30".into()));
    assert_eq!(lab.sim().steps_taken(), steps);
    let t = Frame::of(&lab).traffic.unwrap().unwrap();
    assert_eq!(
        (t.second.figures.served, t.second.figures.failed()),
        (90, 0)
    );
    assert_eq!(t.second.why, None);
    // An invalid value is not applied; switched off, no traffic.
    lab.update(Msg::Edit(Field::Load, "0".into()));
    assert_eq!(Frame::of(&lab).traffic.unwrap().unwrap().model.load, 90);
    lab.update(Msg::SetTraffic(false));
    assert!(Frame::of(&lab).traffic.is_none());
    assert_eq!(
        lab.sim()
            .scenario()
            .model
            .as_ref()
            .and_then(|m| m.traffic.clone()),
        None
    );
}
