//! The scenario the app starts with and the one the settings build.

use super::*;

/// The scenario the app starts with: 3 replicas of nginx:1.14.2, 25% / 25%, 3 nodes; in
/// seconds like the presets (1 s rounds, settled: the controllers react at once, as in a real
/// cluster; pods ready 5 s after creation, terminating for 3 s). (Built
/// as values rather than read from JSON: it is a constant, and the app page's module is
/// counted in bytes.)
pub fn default_scenario() -> Scenario {
    use rollout_facade::api::{IntOrString, DEFAULT_ROLLING_PERCENT};
    use rollout_facade::scenario::StrategyInput;
    let percent = || Some(IntOrString::String(DEFAULT_ROLLING_PERCENT.into()));
    Scenario {
        name: "rollout-lab".into(),
        description: String::new(),
        rounds: 30,
        seconds_per_round: 1,
        ready_after_rounds: 5,
        termination_rounds: 3,
        never_ready_images: Vec::new(),
        nodes: 3,
        pod_quota: None,
        model: None,
        settle: true,
        kubernetes_version: KubernetesVersion::DEFAULT,
        actions: vec![Action {
            round: 0,
            kind: ActionKind::Create {
                deployment: DeploymentInput {
                    name: DEPLOYMENT_NAME.into(),
                    replicas: Some(3),
                    image: DEFAULT_IMAGE.into(),
                    strategy: Some(StrategyInput {
                        type_: Some("RollingUpdate".into()),
                        max_surge: percent(),
                        max_unavailable: percent(),
                        with_rolling_update: None,
                    }),
                    ..Default::default()
                },
            },
        }],
    }
}

/// A preset's or a challenge's scenario as the app runs it: under the Kubernetes people run
/// today ([`KubernetesVersion::DEFAULT`], 1.37), where the scenario format's absent
/// `kubernetesVersion` means 1.28 (the release `../shared` was recorded from).
pub fn app_scenario(mut s: Scenario) -> Scenario {
    s.kubernetes_version = KubernetesVersion::DEFAULT;
    s
}

pub(super) fn default_input() -> DeploymentInput {
    DeploymentInput {
        name: DEPLOYMENT_NAME.into(),
        image: DEFAULT_IMAGE.into(),
        ..Default::default()
    }
}

/// `template` with the settings applied: its first create replaced by the settings' Deployment
/// and its cluster model by theirs.
pub fn build_scenario(settings: &Settings, template: &Scenario) -> Result<Scenario, Problems> {
    let base_input = first_create(template)
        .cloned()
        .unwrap_or_else(default_input);
    let spec = check_create(settings, &base_input);
    let model = parse_model(settings);
    let (input, model) = match (spec, model) {
        (Ok(i), Ok(m)) => (i, m),
        (spec, _) => {
            return Err(settings::all_problems(spec.map(|_| ()), settings));
        }
    };
    let mut s = template.clone();
    s.seconds_per_round = model.seconds_per_round;
    s.ready_after_rounds = model.ready_after_rounds;
    // The jitter's seed stays the template's (a preset's or an import's), so Reset replays the
    // same start-up times.
    s.model = match (model.ready_jitter, template.model.clone()) {
        // The scheduler's nodes and the pods' placement rules (a planned manifest's) stay.
        (0, Some(m)) if m.seed == 0 => m.scheduling.map(|scheduling| ModelExtras {
            scheduling: Some(scheduling),
            ..ModelExtras::default()
        }),
        (0, Some(m)) => Some(ModelExtras {
            ready_jitter_rounds: 0,
            ..m
        }),
        (0, None) => None,
        (j, m) => Some(ModelExtras {
            ready_jitter_rounds: j,
            seed: m.as_ref().map_or(1, |m| m.seed),
            ..m.unwrap_or_default()
        }),
    };
    apply_failure(&mut s, template, model.failure.clone(), &input.image);
    apply_traffic(&mut s, model.traffic.clone());
    s.termination_rounds = model.termination_rounds;
    s.nodes = model.nodes;
    s.settle = settings.instant_reactions;
    s.kubernetes_version = settings.kubernetes;
    s.never_ready_images = if settings.never_ready {
        if template.never_ready_images.is_empty() {
            vec![images::never_ready_image(&input.image)]
        } else {
            template.never_ready_images.clone()
        }
    } else {
        Vec::new()
    };
    let create = ActionKind::Create { deployment: input };
    match s
        .actions
        .iter_mut()
        .find(|a| matches!(a.kind, ActionKind::Create { .. }))
    {
        Some(a) => a.kind = create,
        None => s.actions.insert(
            0,
            Action {
                round: 0,
                kind: create,
            },
        ),
    }
    Ok(s)
}

/// The settings' failure in `s`'s `model.failures`: for the images the template's failures
/// name (a lesson's or an import's), or else for the next version of `image` (the one "Roll
/// out new image" sets first); none when the settings name no failure. The template's restart
/// back-off is kept.
fn apply_failure(
    s: &mut Scenario,
    template: &Scenario,
    failure: Option<rollout_facade::failures::AppFailure>,
    image: &str,
) {
    let old = template.model.as_ref().and_then(|m| m.failures.clone());
    let images: Vec<String> = match old.as_ref().map(|f| &f.images) {
        Some(named) if !named.is_empty() => named.iter().map(|(i, _)| i.clone()).collect(),
        _ => vec![images::next_version(image)],
    };
    let restart_back_off = old.map(|f| f.restart_back_off).unwrap_or_default();
    let failures = failure.map(|f| rollout_facade::failures::FailureModel {
        images: images.into_iter().map(|i| (i, f.clone())).collect(),
        restart_back_off,
    });
    match (failures, s.model.as_mut()) {
        (None, None) => {}
        (failures, Some(m)) => m.failures = failures,
        (failures, None) => {
            s.model = Some(ModelExtras {
                failures,
                ..ModelExtras::default()
            })
        }
    }
}

/// The settings' traffic model as `s`'s `model.traffic` (`None`: the Service's requests are
/// not modelled).
fn apply_traffic(s: &mut Scenario, traffic: Option<rollout_facade::traffic::TrafficModel>) {
    match (traffic, s.model.as_mut()) {
        (None, None) => {}
        (traffic, Some(m)) => m.traffic = traffic,
        (traffic, None) => {
            s.model = Some(ModelExtras {
                traffic,
                ..ModelExtras::default()
            })
        }
    }
}

/// The most rounds an imported scenario may have (every step is kept for stepping back).
pub use rollout_facade::limits::MAX_INTERACTIVE_ROUNDS as MAX_IMPORT_ROUNDS;

/// Whether the app can show a scenario: it creates a Deployment the settings can describe,
/// within the app's limits, and no action scales beyond them.
pub fn importable(s: &Scenario) -> Result<(), String> {
    let Some((settings, _)) = Settings::from_scenario(s) else {
        return Err("That scenario creates no Deployment: nothing to show.".into());
    };
    if s.rounds > MAX_IMPORT_ROUNDS {
        return Err(format!(
            "That scenario has {} rounds; Rollout Lab shows at most {}.",
            s.rounds,
            settings::group(i64::from(MAX_IMPORT_ROUNDS))
        ));
    }
    build_scenario(&settings, s)
        .map_err(|p| format!("That scenario cannot be shown: {}", p.summary))?;
    rollout_facade::limits::check_scenario(s)
        .map_err(|e| format!("That scenario cannot be shown: {e}."))
}

/// The session of a scenario the settings produced (within the limits, which the settings
/// check); a scenario beyond them starts the default one.
pub(super) fn session_of(scenario: Scenario) -> Session {
    Session::new(scenario).unwrap_or_else(|_| {
        Session::new(default_scenario()).expect("the default scenario is within the limits")
    })
}
