//! Property tests over random scenarios: invariants that really hold in Kubernetes, stated on
//! single controller decisions (a rollout as a whole may leave its bounds after a mid-rollout
//! scale, strategy change or rollover), and that arbitrary actions never panic.

use proptest::prelude::*;
use rollout_core::api::{Deployment, DeploymentStrategy, IntOrString, ReplicaSet};
use rollout_core::deployment::util;
use rollout_core::scenario::{Action, ActionKind, DeploymentInput, Scenario, StrategyInput};
use rollout_core::sim::{Simulation, StepKind};
use std::sync::Arc;

fn int_or_percent() -> impl Strategy<Value = IntOrString> {
    prop_oneof![
        (0..5i32).prop_map(IntOrString::Int),
        prop::sample::select(vec!["0%", "10%", "25%", "50%", "100%"])
            .prop_map(|s| IntOrString::String(s.to_string())),
    ]
}

fn strategy_input() -> impl Strategy<Value = StrategyInput> {
    prop_oneof![
        4 => (int_or_percent(), int_or_percent()).prop_map(|(s, u)| StrategyInput {
            type_: Some("RollingUpdate".into()),
            max_surge: Some(s),
            max_unavailable: Some(u),
            with_rolling_update: None,
        }),
        1 => Just(StrategyInput {
            type_: Some("Recreate".into()),
            ..Default::default()
        }),
    ]
}

fn action_kind() -> impl Strategy<Value = ActionKind> {
    let image = prop::sample::select(vec!["app:v1", "app:v2", "app:v3", "app:bad"]);
    prop_oneof![
        4 => image.prop_map(|i| ActionKind::SetImage { name: None, image: i.to_string() }),
        2 => (-2..25i32).prop_map(|r| ActionKind::Scale { name: None, replicas: r }),
        1 => Just(ActionKind::Pause { name: None }),
        1 => Just(ActionKind::Resume { name: None }),
        1 => (0..5i64).prop_map(|r| ActionKind::Rollback { name: None, revision: r }),
        1 => strategy_input().prop_map(|s| ActionKind::SetStrategy { name: None, strategy: s }),
        1 => (-1..30i32).prop_map(|v| ActionKind::SetMinReadySeconds { name: None, value: v }),
        1 => (-1..120i32).prop_map(|v| ActionKind::SetProgressDeadlineSeconds { name: None, value: v }),
        1 => (-1..4i32).prop_map(|v| ActionKind::SetRevisionHistoryLimit { name: None, value: v }),
        1 => prop::option::of(0..30i32).prop_map(|v| ActionKind::SetPodQuota { value: v }),
    ]
}

prop_compose! {
    fn scenario()(
        replicas in 0..20i32,
        strategy in strategy_input(),
        min_ready in prop::sample::select(vec![0, 0, 5, 12]),
        spr in 1..12i64,
        ready_after in 0..4u32,
        termination in 0..3u32,
        nodes in 1..4u32,
        actions in prop::collection::vec((1..24u32, action_kind()), 0..8),
    ) -> Scenario {
        let mut all = vec![Action {
            round: 0,
            kind: ActionKind::Create {
                deployment: DeploymentInput {
                    name: "web".into(),
                    replicas: Some(replicas),
                    image: "app:v1".into(),
                    strategy: Some(strategy),
                    min_ready_seconds: Some(min_ready),
                    ..Default::default()
                },
            },
        }];
        let mut rest: Vec<Action> = actions.into_iter().map(|(round, kind)| Action { round, kind }).collect();
        rest.sort_by_key(|a| a.round);
        all.extend(rest);
        Scenario {
            name: "prop".into(),
            description: String::new(),
            rounds: 26,
            seconds_per_round: spr,
            ready_after_rounds: ready_after,
            termination_rounds: termination,
            never_ready_images: vec!["app:bad".into()],
            nodes,
            pod_quota: None,
            actions: all,
            model: None,
            settle: false,
            kubernetes_version: Default::default(),
        }
    }
}

fn owned_rss(sim: &Simulation, d: &Deployment) -> Vec<Arc<ReplicaSet>> {
    sim.api().replica_sets_of(d)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `reconcileNewReplicaSet` never takes the total above replicas + maxSurge when it starts
    /// at or below it, and `reconcileOldReplicaSets` never removes more than
    /// available − minAvailable plus the unhealthy old replicas.
    #[test]
    fn rolling_decisions_stay_within_their_bounds(s in scenario()) {
        let mut sim = Simulation::new(s).without_history();
        while !sim.finished() {
            let before = sim.api().deployment("web").cloned();
            let rss_before = before.as_ref().map(|d| owned_rss(&sim, d)).unwrap_or_default();
            let Some(step) = sim.step().cloned() else { break };
            let (StepKind::SyncDeployment { .. }, Some(d)) = (&step.kind, before) else { continue };
            if !util::is_rolling_update(&d) || d.spec.paused {
                continue;
            }
            let path = &step.path;
            let total_before = util::get_replica_count_for_replica_sets(&rss_before);
            let total_after = util::get_replica_count_for_replica_sets(&owned_rss(&sim, &d));
            let upper = d.spec.replicas + util::max_surge(&d);
            let reconciled_new = path.iter().any(|f| f == "reconcileNewReplicaSet");
            let took_other_path = path.iter().any(|f| f == "sync" || f == "rollback");
            if reconciled_new && !took_other_path && total_before <= upper {
                prop_assert!(
                    total_after <= upper,
                    "round {}: total {} -> {} above replicas+maxSurge {} ({:?})",
                    step.round, total_before, total_after, upper, step.decisions
                );
            }
            if path.iter().any(|f| f == "reconcileOldReplicaSets") && !took_other_path {
                let new_template = &d.spec.template;
                let (old, new): (Vec<_>, Vec<_>) = rss_before
                    .iter()
                    .cloned()
                    .partition(|rs| !rs.spec.template.equal_ignore_hash(new_template));
                let available = util::get_available_replica_count_for_replica_sets(&old)
                    + util::get_available_replica_count_for_replica_sets(&new);
                let unhealthy: i32 = old
                    .iter()
                    .map(|rs| (rs.spec.replicas - rs.status.available_replicas).max(0))
                    .sum();
                let allowance = (available - util::min_available(&d)).max(0) + unhealthy;
                let removed = total_before - total_after;
                prop_assert!(
                    removed <= allowance,
                    "round {}: removed {} > available {} - minAvailable {} + unhealthy {}",
                    step.round, removed, available, util::min_available(&d), unhealthy
                );
            }
        }
    }

    /// Whatever the actions, the simulation never panics, never lets a Deployment's
    /// ReplicaSets go negative, and every API refusal is reported with the action's type.
    #[test]
    fn arbitrary_actions_never_panic(s in scenario()) {
        let mut sim = Simulation::new(s).without_history();
        sim.run();
        for rs in sim.api().replica_sets() {
            prop_assert!(rs.spec.replicas >= 0);
            prop_assert!(rs.status.replicas >= 0);
        }
        for round in sim.trace_rounds() {
            for e in &round.errors {
                prop_assert!(
                    e.starts_with("set") || e.starts_with("scale") || e.starts_with("sync")
                        || e.starts_with("create")
                        || e.starts_with("rollback") || e.starts_with("pause") || e.starts_with("resume"),
                    "unexpected error line {e}"
                );
            }
        }
    }

    /// Skipping idle rounds ([`Simulation::run`]) records exactly the trace of running every
    /// round, lock-step or settled, whatever the actions, timings and deadlines.
    #[test]
    fn skipping_idle_rounds_changes_no_trace(s in scenario(), settle in any::<bool>(), extra in 0..60u32) {
        let mut s = s;
        s.settle = settle;
        s.rounds += extra;
        let mut every = Simulation::new(s.clone()).without_history();
        while !every.finished() {
            every.run_round();
        }
        let mut skipping = Simulation::new(s).without_history();
        skipping.run();
        prop_assert_eq!(
            serde_json::to_value(skipping.trace()).unwrap(),
            serde_json::to_value(every.trace()).unwrap()
        );
        prop_assert!(skipping.steps_taken() <= every.steps_taken());
    }

    /// A bad manifest gets the API's message and changes nothing.
    #[test]
    fn refused_strategies_change_nothing(surge in int_or_percent(), unavailable in int_or_percent()) {
        let zero = |v: &IntOrString| matches!(v, IntOrString::Int(0)) || *v == IntOrString::from("0%");
        let both_zero = zero(&surge) && zero(&unavailable);
        let scenario = Scenario::from_json(&format!(
            r#"{{"rounds":3,"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","replicas":4,"image":"a"}}}},
               {{"round":1,"type":"setStrategy","strategy":{{"type":"RollingUpdate","maxSurge":{},"maxUnavailable":{}}}}}]}}"#,
            serde_json::to_string(&surge).unwrap(),
            serde_json::to_string(&unavailable).unwrap()
        )).unwrap();
        let mut sim = Simulation::new(scenario).without_history();
        sim.run();
        let errors: Vec<String> = sim.trace_rounds().flat_map(|r| r.errors.clone()).collect();
        let d = sim.api().deployment("web").unwrap();
        if both_zero {
            prop_assert_eq!(errors.len(), 1);
            prop_assert!(errors[0].contains("may not be 0 when `maxSurge` is 0"));
            prop_assert_eq!(&d.spec.strategy, &DeploymentStrategy::default_rolling());
        } else {
            prop_assert!(errors.is_empty(), "{:?}", errors);
        }
    }
}
