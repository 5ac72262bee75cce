//! The settings form: what the user typed, kept verbatim, and its parsing into a Deployment to
//! create (or update) and a cluster model. Validation messages come from the Kubernetes API
//! rules in `rollout_facade::validation`; the app adds only parse errors for text that is not a
//! number and its own size limits.

use rollout_facade::api::{Deployment, DeploymentStrategy, IntOrString, DEFAULT_ROLLING_PERCENT};
use rollout_facade::scenario::{ActionKind, DeploymentInput, Scenario, StrategyInput};
use rollout_facade::traffic::TrafficModel;
use rollout_facade::validation;
use rollout_facade::version::KubernetesVersion;
use rollout_facade::view::rolling_bounds;

/// The Deployment the app creates when a scenario does not name one.
pub const DEPLOYMENT_NAME: &str = "web";
/// The image the app starts from when a scenario does not name one.
pub const DEFAULT_IMAGE: &str = "nginx:1.14.2";
/// The app's size limits are the core's (`rollout_facade::limits`), in one place.
pub use rollout_facade::limits::{group, MAX_PODS, MAX_REPLICAS};

/// One control of the form: the core's one enum of the fields a scenario's author sets
/// (`validation::InputField`: the validation's messages point at the same values).
pub use rollout_facade::validation::InputField as Field;

/// What the form shows for a field: its words and its input's element id (the app's own, not
/// Kubernetes': the Deployment's fields are labelled with their API names).
pub trait FormControl {
    /// The visible label.
    fn label(self) -> &'static str;
    /// The element id of its input.
    fn id(self) -> &'static str;
}

impl FormControl for Field {
    fn label(self) -> &'static str {
        match self {
            Field::Replicas => "Replicas",
            Field::Strategy => "Strategy",
            Field::ReadyAfterRounds => "Pod ready delay (rounds)",
            Field::ReadyJitterRounds => "Start-up jitter (rounds)",
            Field::Nodes => "Nodes",
            Field::TerminationRounds => "Graceful termination (rounds)",
            Field::SecondsPerRound => "Seconds per round",
            Field::Failure => "New image fails",
            Field::Load => "Load (req/s)",
            Field::PodCapacity => "Pod capacity (req/s)",
            Field::EndpointDelaySeconds => "Endpoint delay (s)",
            Field::ExitAfterSigtermSeconds => "Exit after SIGTERM (s)",
            Field::PreStopSleepSeconds => "preStop sleep (s)",
            api_name => api_name.as_str(),
        }
    }

    fn id(self) -> &'static str {
        match self {
            Field::MaxSurge => "max-surge",
            Field::MaxUnavailable => "max-unavailable",
            Field::MinReadySeconds => "min-ready",
            Field::ProgressDeadlineSeconds => "progress-deadline",
            Field::RevisionHistoryLimit => "history-limit",
            Field::ReadyAfterRounds => "ready-after",
            Field::ReadyJitterRounds => "jitter",
            Field::TerminationRounds => "termination",
            Field::SecondsPerRound => "seconds-per-round",
            Field::Failure => "failure",
            Field::Load => "load",
            Field::PodCapacity => "pod-capacity",
            Field::EndpointDelaySeconds => "endpoint-delay",
            Field::ExitAfterSigtermSeconds => "exit-after-sigterm",
            Field::PreStopSleepSeconds => "pre-stop",
            Field::TemplateLabels => "template-labels",
            one_word => one_word.as_str(),
        }
    }
}

/// `spec.strategy.type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyKind {
    /// Replace pods gradually within maxSurge / maxUnavailable.
    RollingUpdate,
    /// Delete every old pod, then create the new ones.
    Recreate,
}

impl StrategyKind {
    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            StrategyKind::RollingUpdate => "RollingUpdate",
            StrategyKind::Recreate => "Recreate",
        }
    }

    /// From the API's spelling.
    pub fn parse(s: &str) -> Option<StrategyKind> {
        match s {
            "RollingUpdate" => Some(StrategyKind::RollingUpdate),
            "Recreate" => Some(StrategyKind::Recreate),
            _ => None,
        }
    }
}

/// What the user has typed, kept verbatim so a half-typed value never jumps around.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `spec.replicas`.
    pub replicas: String,
    /// `spec.strategy.type`.
    pub strategy: StrategyKind,
    /// `maxSurge` (`1` or `25%`).
    pub max_surge: String,
    /// `maxUnavailable` (`1` or `25%`).
    pub max_unavailable: String,
    /// `spec.minReadySeconds`.
    pub min_ready_seconds: String,
    /// `spec.progressDeadlineSeconds`.
    pub progress_deadline_seconds: String,
    /// `spec.revisionHistoryLimit`.
    pub revision_history_limit: String,
    /// Rounds until a new pod is ready.
    pub ready_after_rounds: String,
    /// Up to this many rounds more per pod (`model.readyJitterRounds`).
    pub ready_jitter: String,
    /// Nodes.
    pub nodes: String,
    /// Rounds a deleted pod stays Terminating (0 = gone at once).
    pub termination_rounds: String,
    /// Simulated seconds per round.
    pub seconds_per_round: String,
    /// The next image rolled out never becomes ready.
    pub never_ready: bool,
    /// How the next image's app fails, as a scenario's `model.failures` and `rollout plan
    /// --fail` name it (`crash:after=5s`, `probe:after=5s`, `readiness:from=30s,to=90s`,
    /// `slow:ready=45s`, `pull`); empty: it does not.
    pub failure: String,
    /// "Controller reaction": instant (settled rounds, as a real cluster's controllers react
    /// within milliseconds) or one round per hop (lock-step rounds, for a lesson on informer
    /// lag). The scenario's `settle`.
    pub instant_reactions: bool,
    /// The Service in front of the Deployment and its requests are modelled and shown (the
    /// scenario's `model.traffic`, read by no controller).
    pub traffic: bool,
    /// Requests a second sent to the Service (`model.traffic.load`).
    pub load: String,
    /// Requests a second one pod serves at most (empty: no limit).
    pub pod_capacity: String,
    /// Seconds for an endpoint change to reach the proxies.
    pub endpoint_delay: String,
    /// Seconds the app takes to exit after SIGTERM.
    pub exit_after_sigterm: String,
    /// The container's `preStop` sleep, in seconds.
    pub pre_stop: String,
    /// Which Kubernetes release's controllers run (the scenario's `kubernetesVersion`): the
    /// app's presets, lessons and first visit use 1.37 ([`KubernetesVersion::DEFAULT`]).
    pub kubernetes: KubernetesVersion,
}

impl Default for Settings {
    /// Three replicas with the apps/v1 defaults (25% / 25%): small enough that the rounding
    /// is visible straight away (25% of 3 is 1 surge pod but 0 unavailable ones). In seconds
    /// like the presets: 1 s rounds, settled, pods ready 5 s after creation and terminating
    /// for 3 s.
    fn default() -> Self {
        let text = Settings::traffic_text(&TrafficModel::default());
        Settings {
            replicas: "3".into(),
            strategy: StrategyKind::RollingUpdate,
            max_surge: DEFAULT_ROLLING_PERCENT.into(),
            max_unavailable: DEFAULT_ROLLING_PERCENT.into(),
            min_ready_seconds: "0".into(),
            progress_deadline_seconds: "600".into(),
            revision_history_limit: "10".into(),
            ready_after_rounds: "5".into(),
            ready_jitter: "0".into(),
            nodes: "3".into(),
            termination_rounds: "3".into(),
            seconds_per_round: "1".into(),
            never_ready: false,
            failure: String::new(),
            instant_reactions: true,
            traffic: false,
            load: text.load,
            pod_capacity: text.pod_capacity,
            endpoint_delay: text.endpoint_delay,
            exit_after_sigterm: text.exit_after_sigterm,
            pre_stop: text.pre_stop,
            kubernetes: KubernetesVersion::DEFAULT,
        }
    }
}

impl Settings {
    /// The text of a field (`Strategy` gives its type name; the fields the form has no control
    /// for, empty).
    pub fn get(&self, field: Field) -> &str {
        match field {
            Field::Replicas => &self.replicas,
            Field::Strategy => self.strategy.as_str(),
            Field::MaxSurge => &self.max_surge,
            Field::MaxUnavailable => &self.max_unavailable,
            Field::MinReadySeconds => &self.min_ready_seconds,
            Field::ProgressDeadlineSeconds => &self.progress_deadline_seconds,
            Field::RevisionHistoryLimit => &self.revision_history_limit,
            Field::ReadyAfterRounds => &self.ready_after_rounds,
            Field::ReadyJitterRounds => &self.ready_jitter,
            Field::Nodes => &self.nodes,
            Field::TerminationRounds => &self.termination_rounds,
            Field::SecondsPerRound => &self.seconds_per_round,
            Field::Failure => &self.failure,
            Field::Load => &self.load,
            Field::PodCapacity => &self.pod_capacity,
            Field::EndpointDelaySeconds => &self.endpoint_delay,
            Field::ExitAfterSigtermSeconds => &self.exit_after_sigterm,
            Field::PreStopSleepSeconds => &self.pre_stop,
            Field::Name | Field::Image | Field::Selector | Field::TemplateLabels => "",
        }
    }

    /// Sets a field's text (`Strategy` takes a type name; a field the form has no control for
    /// is ignored).
    pub fn set(&mut self, field: Field, value: String) {
        let slot = match field {
            Field::Replicas => &mut self.replicas,
            Field::Strategy => {
                if let Some(k) = StrategyKind::parse(value.trim()) {
                    self.strategy = k;
                }
                return;
            }
            Field::MaxSurge => &mut self.max_surge,
            Field::MaxUnavailable => &mut self.max_unavailable,
            Field::MinReadySeconds => &mut self.min_ready_seconds,
            Field::ProgressDeadlineSeconds => &mut self.progress_deadline_seconds,
            Field::RevisionHistoryLimit => &mut self.revision_history_limit,
            Field::ReadyAfterRounds => &mut self.ready_after_rounds,
            Field::ReadyJitterRounds => &mut self.ready_jitter,
            Field::Nodes => &mut self.nodes,
            Field::TerminationRounds => &mut self.termination_rounds,
            Field::SecondsPerRound => &mut self.seconds_per_round,
            Field::Failure => &mut self.failure,
            Field::Load => &mut self.load,
            Field::PodCapacity => &mut self.pod_capacity,
            Field::EndpointDelaySeconds => &mut self.endpoint_delay,
            Field::ExitAfterSigtermSeconds => &mut self.exit_after_sigterm,
            Field::PreStopSleepSeconds => &mut self.pre_stop,
            Field::Name | Field::Image | Field::Selector | Field::TemplateLabels => return,
        };
        *slot = value;
    }

    /// Whether the Deployment-spec part differs from `other`'s. Irrelevant differences
    /// (surge text under Recreate) do not count.
    pub fn spec_differs(&self, other: &Settings) -> bool {
        Field::SPEC.iter().any(|&f| self.field_differs(other, f))
    }

    /// Whether one field differs from `other`'s (trimmed).
    pub fn field_differs(&self, other: &Settings, field: Field) -> bool {
        if matches!(field, Field::MaxSurge | Field::MaxUnavailable)
            && self.strategy == StrategyKind::Recreate
            && other.strategy == StrategyKind::Recreate
        {
            return false;
        }
        self.get(field).trim() != other.get(field).trim()
    }

    /// Whether the cluster-model part differs from `other`'s.
    pub fn model_differs(&self, other: &Settings) -> bool {
        Field::MODEL.iter().any(|&f| self.field_differs(other, f))
            || self.never_ready != other.never_ready
            || self.traffic != other.traffic
            || (self.traffic && Field::TRAFFIC.iter().any(|&f| self.field_differs(other, f)))
            || self.instant_reactions != other.instant_reactions
            || self.kubernetes != other.kubernetes
    }

    /// Copies the Deployment-spec fields of `other`.
    pub fn take_spec(&mut self, other: &Settings) {
        for f in Field::SPEC {
            self.set(f, other.get(f).to_string());
        }
    }

    /// The settings a scenario starts from (its first `create` action and its cluster model),
    /// with that create's input. `None` when the scenario creates no Deployment.
    pub fn from_scenario(s: &Scenario) -> Option<(Settings, DeploymentInput)> {
        let input = first_create(s)?.clone();
        let traffic = s.model.as_ref().and_then(|m| m.traffic.as_ref());
        let text = Settings::traffic_text(traffic.unwrap_or(&TrafficModel::default()));
        let mut out = Settings {
            load: text.load,
            pod_capacity: text.pod_capacity,
            endpoint_delay: text.endpoint_delay,
            exit_after_sigterm: text.exit_after_sigterm,
            pre_stop: text.pre_stop,
            replicas: input.replicas.unwrap_or(1).to_string(),
            ready_after_rounds: s.ready_after_rounds.to_string(),
            ready_jitter: s
                .model
                .as_ref()
                .map_or(0, |m| m.ready_jitter_rounds)
                .to_string(),
            nodes: s.nodes.to_string(),
            termination_rounds: s.termination_rounds.to_string(),
            seconds_per_round: s.seconds_per_round.to_string(),
            never_ready: !s.never_ready_images.is_empty(),
            failure: s
                .model
                .as_ref()
                .and_then(|m| m.failures.as_ref())
                .and_then(|f| f.images.first())
                .map(|(_, f)| f.text())
                .unwrap_or_default(),
            instant_reactions: s.settle,
            traffic: traffic.is_some(),
            kubernetes: s.kubernetes_version,
            min_ready_seconds: input.min_ready_seconds.unwrap_or(0).to_string(),
            progress_deadline_seconds: input.progress_deadline_seconds.unwrap_or(600).to_string(),
            revision_history_limit: input.revision_history_limit.unwrap_or(10).to_string(),
            ..Settings::default()
        };
        out.set_strategy(input.defaulted_strategy());
        Some((out, input))
    }

    /// The traffic fields' text for a traffic model (the rest the defaults').
    fn traffic_text(t: &TrafficModel) -> TrafficText {
        TrafficText {
            load: t.load.to_string(),
            pod_capacity: t.pod_capacity.map(|c| c.to_string()).unwrap_or_default(),
            endpoint_delay: t.endpoint_delay_seconds.to_string(),
            exit_after_sigterm: t.exit_after_sigterm_seconds.to_string(),
            pre_stop: t.pre_stop_sleep_seconds.to_string(),
        }
    }

    /// The form's strategy fields for a defaulted strategy (`None`, a type the API does not
    /// know: left as they are).
    pub fn set_strategy(&mut self, strategy: Option<DeploymentStrategy>) {
        match strategy {
            Some(DeploymentStrategy::Recreate) => self.strategy = StrategyKind::Recreate,
            Some(DeploymentStrategy::RollingUpdate {
                max_surge,
                max_unavailable,
            }) => {
                self.strategy = StrategyKind::RollingUpdate;
                self.max_surge =
                    max_surge.map_or(DEFAULT_ROLLING_PERCENT.into(), |v| v.to_string());
                self.max_unavailable =
                    max_unavailable.map_or(DEFAULT_ROLLING_PERCENT.into(), |v| v.to_string());
            }
            None => {}
        }
    }
}

/// The traffic fields' text ([`Settings::traffic_text`]).
struct TrafficText {
    load: String,
    pod_capacity: String,
    endpoint_delay: String,
    exit_after_sigterm: String,
    pre_stop: String,
}

/// The Kubernetes version a page's `?k8s=`, an element's `k8s` attribute, `mount()`'s `k8s`
/// option or `set("kubernetesVersion", …)` names, read by the core's one reader (`1.28`,
/// `1.37`, `v1.28.4` …; anything else refused with the core's message, the same at every door).
pub fn kubernetes_of(text: &str) -> Result<KubernetesVersion, String> {
    KubernetesVersion::parse(text)
}

/// The first Deployment a scenario creates.
pub fn first_create(s: &Scenario) -> Option<&DeploymentInput> {
    s.actions.iter().find_map(|a| match &a.kind {
        ActionKind::Create { deployment } => Some(deployment),
        _ => None,
    })
}

/// A message about one control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The control.
    pub field: Field,
    /// What is wrong, in the API's words when the API refused it.
    pub message: String,
}

/// Why settings cannot be applied: one message per control, and the whole message a client
/// would see (the API's StatusError, or the app's first message).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Problems {
    /// Per control, in form order.
    pub list: Vec<Problem>,
    /// The full message, shown once under the first control with a problem.
    pub summary: String,
}

impl Problems {
    fn one(field: Field, message: String) -> Problems {
        Problems {
            summary: message.clone(),
            list: vec![Problem { field, message }],
        }
    }

    /// Whether there is nothing wrong.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The message for one control.
    pub fn for_field(&self, field: Field) -> Option<&Problem> {
        self.list.iter().find(|p| p.field == field)
    }

    /// The first control with a problem, in form order.
    pub fn first_field(&self) -> Option<Field> {
        Field::SPEC
            .iter()
            .chain(Field::MODEL.iter())
            .chain(Field::TRAFFIC.iter())
            .copied()
            .find(|f| self.for_field(*f).is_some())
    }

    fn merge(&mut self, other: Problems) {
        if self.summary.is_empty() {
            self.summary = other.summary;
        }
        self.list.extend(other.list);
    }
}

/// The cluster model of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterModel {
    /// Rounds until a new pod is ready.
    pub ready_after_rounds: u32,
    /// Extra rounds per pod, at most (`model.readyJitterRounds`).
    pub ready_jitter: u32,
    /// Nodes.
    pub nodes: u32,
    /// Rounds a deleted pod stays Terminating.
    pub termination_rounds: u32,
    /// Seconds per round.
    pub seconds_per_round: i64,
    /// How the next image's app fails (`None`: it does not).
    pub failure: Option<rollout_facade::failures::AppFailure>,
    /// The Service's requests (`None`: not modelled).
    pub traffic: Option<TrafficModel>,
}

fn parse_whole(text: &str, field: Field) -> Result<i64, Problems> {
    let t = text.trim();
    let name = field.label();
    if t.is_empty() {
        return Err(Problems::one(
            field,
            format!("Enter {name}: a whole number."),
        ));
    }
    t.parse::<i64>().map_err(|_| {
        let message = if t
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
        {
            format!("{name} is too large (got {t}).")
        } else {
            format!("{name} must be a whole number (got \"{t}\").")
        };
        Problems::one(field, message)
    })
}

/// An int32 field as the API receives it (a JSON number out of int32 range is refused by the
/// decoder before validation; the app says so in its own words).
fn parse_i32(text: &str, field: Field) -> Result<i32, Problems> {
    let n = parse_whole(text, field)?;
    i32::try_from(n).map_err(|_| {
        Problems::one(
            field,
            format!(
                "{} must fit in a 32-bit integer (got {}).",
                field.label(),
                text.trim()
            ),
        )
    })
}

fn parse_model_field(text: &str, field: Field, min: i64, max: i64) -> Result<i64, Problems> {
    let n = parse_whole(text, field)?;
    if n < min || n > max {
        return Err(Problems::one(
            field,
            format!(
                "{} must be between {min} and {max} (got {n}).",
                field.label()
            ),
        ));
    }
    Ok(n)
}

/// Parses the cluster model.
pub fn parse_model(s: &Settings) -> Result<ClusterModel, Problems> {
    let mut problems = Problems::default();
    let mut get = |text: &str, field, min, max| match parse_model_field(text, field, min, max) {
        Ok(n) => n,
        Err(p) => {
            problems.merge(p);
            min
        }
    };
    let model = ClusterModel {
        ready_after_rounds: get(&s.ready_after_rounds, Field::ReadyAfterRounds, 0, 50) as u32,
        ready_jitter: get(&s.ready_jitter, Field::ReadyJitterRounds, 0, 20) as u32,
        nodes: get(&s.nodes, Field::Nodes, 1, 50) as u32,
        termination_rounds: get(&s.termination_rounds, Field::TerminationRounds, 0, 50) as u32,
        seconds_per_round: get(&s.seconds_per_round, Field::SecondsPerRound, 1, 3600),
        failure: None,
        traffic: None,
    };
    let mut model = model;
    if s.traffic {
        match parse_traffic(s) {
            Ok(t) => model.traffic = Some(t),
            Err(p) => problems.merge(p),
        }
    }
    match s.failure.trim() {
        "" => {}
        text => match rollout_facade::failures::AppFailure::parse(text) {
            Ok(f) => model.failure = Some(f),
            // The core's message: what is wrong and the four names it reads.
            Err(message) => problems.merge(Problems::one(Field::Failure, message)),
        },
    }
    if problems.is_empty() {
        Ok(model)
    } else {
        Err(problems)
    }
}

/// The traffic model the form describes, each field checked by the core's limits with its
/// messages (`rollout plan --load …` says the same): a whole number, a rate from 1 req/s, seconds
/// from 0 to a day; an empty pod capacity is no limit.
pub fn parse_traffic(s: &Settings) -> Result<TrafficModel, Problems> {
    use rollout_facade::traffic::{check_load, check_seconds};
    let mut problems = Problems::default();
    let mut number = |text: &str, field: Field, check: fn(&str, i64) -> Result<(), String>| {
        let n = parse_whole(text, field).and_then(|n| {
            check(field.label(), n)
                .map(|()| n)
                .map_err(|m| Problems::one(field, m))
        });
        n.map_err(|p| problems.merge(p)).ok()
    };
    let load = number(&s.load, Field::Load, check_load);
    let capacity = match s.pod_capacity.trim() {
        "" => Some(None),
        t => number(t, Field::PodCapacity, check_load).map(Some),
    };
    let delay = number(
        &s.endpoint_delay,
        Field::EndpointDelaySeconds,
        check_seconds,
    );
    let exit = number(
        &s.exit_after_sigterm,
        Field::ExitAfterSigtermSeconds,
        check_seconds,
    );
    let pre_stop = number(&s.pre_stop, Field::PreStopSleepSeconds, check_seconds);
    match (load, capacity, delay, exit, pre_stop) {
        (Some(load), Some(capacity), Some(delay), Some(exit), Some(pre_stop)) => Ok(TrafficModel {
            load: load as u32,
            pod_capacity: capacity.map(|c| c as u32),
            endpoint_delay_seconds: delay,
            exit_after_sigterm_seconds: exit,
            pre_stop_sleep_seconds: pre_stop,
        }),
        _ => Err(problems),
    }
}

/// The strategy as the form describes it.
pub fn strategy_input(s: &Settings) -> Result<StrategyInput, Problems> {
    Ok(match s.strategy {
        StrategyKind::Recreate => StrategyInput {
            type_: Some("Recreate".into()),
            ..Default::default()
        },
        StrategyKind::RollingUpdate => {
            let value = |text: &str, field: Field| {
                let t = text.trim();
                if t.is_empty() {
                    Err(Problems::one(
                        field,
                        format!(
                            "Enter {}: a number of pods such as 1, or a percentage such as 25%.",
                            field.label()
                        ),
                    ))
                } else {
                    Ok(IntOrString::parse_user(t))
                }
            };
            let surge = value(&s.max_surge, Field::MaxSurge);
            let unavailable = value(&s.max_unavailable, Field::MaxUnavailable);
            match (surge, unavailable) {
                (Ok(surge), Ok(unavailable)) => StrategyInput {
                    type_: Some("RollingUpdate".into()),
                    max_surge: Some(surge),
                    max_unavailable: Some(unavailable),
                    with_rolling_update: None,
                },
                (Err(mut a), Err(b)) => {
                    a.merge(b);
                    return Err(a);
                }
                (Err(p), _) | (_, Err(p)) => return Err(p),
            }
        }
    })
}

/// The settings applied to `base` (the scenario's create input, which keeps the name, image,
/// labels and paused flag): parsed, before any validation.
pub fn parse_input(s: &Settings, base: &DeploymentInput) -> Result<DeploymentInput, Problems> {
    let mut problems = Problems::default();
    let mut int = |text: &str, field| match parse_i32(text, field) {
        Ok(n) => Some(n),
        Err(p) => {
            problems.merge(p);
            None
        }
    };
    let replicas = int(&s.replicas, Field::Replicas);
    let min_ready = int(&s.min_ready_seconds, Field::MinReadySeconds);
    let deadline = int(&s.progress_deadline_seconds, Field::ProgressDeadlineSeconds);
    let history = int(&s.revision_history_limit, Field::RevisionHistoryLimit);
    let strategy = match strategy_input(s) {
        Ok(st) => Some(st),
        Err(p) => {
            problems.merge(p);
            None
        }
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut input = base.clone();
    input.replicas = replicas;
    input.min_ready_seconds = min_ready;
    input.progress_deadline_seconds = deadline;
    input.revision_history_limit = history;
    input.strategy = strategy;
    Ok(input)
}

/// The control a validation message is shown beside: the field's own, or the strategy select
/// for the fields the form has no control for (name, image, labels, selector).
fn control_of(field: Field) -> Field {
    if field.is_spec() {
        field
    } else {
        Field::Strategy
    }
}

fn api_problems(outcome: &validation::ValidationOutcome) -> Result<(), Problems> {
    let Some(summary) = validation::status_message(outcome) else {
        return Ok(());
    };
    let mut list: Vec<Problem> = Vec::new();
    for e in &outcome.errors {
        let field = validation::field_of(e).map_or(Field::Strategy, control_of);
        if list.iter().all(|p| p.field != field) {
            list.push(Problem {
                field,
                message: e.message.clone(),
            });
        }
    }
    Err(Problems {
        list,
        summary: summary.to_string(),
    })
}

/// The app's own limits, checked after the API accepted the input.
fn app_limits(input: &DeploymentInput) -> Result<(), Problems> {
    let replicas = input.replicas.unwrap_or(1);
    if replicas > MAX_REPLICAS {
        return Err(Problems::one(
            Field::Replicas,
            format!(
                "Rollout Lab simulates at most {} replicas, to keep the page responsive (got {replicas}).",
                group(i64::from(MAX_REPLICAS))
            ),
        ));
    }
    if let Some(DeploymentStrategy::RollingUpdate {
        max_surge,
        max_unavailable,
    }) = input.defaulted_strategy()
    {
        if let Ok(b) = rolling_bounds(replicas, max_surge.as_ref(), max_unavailable.as_ref()) {
            let (surge, total) = (b.surge, b.max_total);
            if surge < 0 || total > MAX_PODS {
                return Err(Problems::one(
                    Field::MaxSurge,
                    format!(
                        "Rollout Lab simulates at most {} pods at once: {replicas} replicas with \
                         maxSurge {} would allow {}.",
                        group(MAX_PODS),
                        max_surge.map(|v| v.to_string()).unwrap_or_default(),
                        if surge < 0 {
                            "an out-of-range number".to_string()
                        } else {
                            group(total)
                        }
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The settings as a Deployment to create, validated as the API server would (and within the
/// app's limits).
pub fn check_create(s: &Settings, base: &DeploymentInput) -> Result<DeploymentInput, Problems> {
    let input = parse_input(s, base)?;
    api_problems(&validation::validate_create(&input))?;
    app_limits(&input)?;
    Ok(input)
}

/// The settings as an update of the stored Deployment `current`, validated as the API server
/// would (and within the app's limits).
pub fn check_update(
    s: &Settings,
    base: &DeploymentInput,
    current: &Deployment,
) -> Result<DeploymentInput, Problems> {
    let old = DeploymentInput::from_deployment(current);
    let mut input = parse_input(s, base)?;
    // Only the form's fields change; everything else is what is stored.
    input.name = old.name.clone();
    input.image = old.image.clone();
    input.paused = old.paused;
    input.selector = old.selector.clone();
    input.template_labels = old.template_labels.clone();
    api_problems(&validation::validate_update(&input, &old))?;
    app_limits(&input)?;
    Ok(input)
}

/// Everything wrong with the settings: the Deployment (`check`) and the cluster model.
pub fn all_problems(spec: Result<(), Problems>, s: &Settings) -> Problems {
    let mut problems = spec.err().unwrap_or_default();
    if let Err(p) = parse_model(s) {
        problems.merge(p);
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> DeploymentInput {
        DeploymentInput {
            name: DEPLOYMENT_NAME.into(),
            image: DEFAULT_IMAGE.into(),
            ..Default::default()
        }
    }

    fn with(f: impl FnOnce(&mut Settings)) -> Settings {
        let mut s = Settings::default();
        f(&mut s);
        s
    }

    #[test]
    fn the_defaults_are_a_valid_create() {
        let input = check_create(&Settings::default(), &base()).unwrap();
        assert_eq!(input.replicas, Some(3));
        assert_eq!(
            input.strategy.unwrap().max_surge,
            Some(IntOrString::String("25%".into()))
        );
        assert_eq!(
            parse_model(&Settings::default()).unwrap(),
            ClusterModel {
                ready_after_rounds: 5,
                ready_jitter: 0,
                nodes: 3,
                termination_rounds: 3,
                seconds_per_round: 1,
                failure: None,
                traffic: None,
            }
        );
    }

    #[test]
    fn the_traffic_fields_are_read_with_the_cores_limits_and_kept_in_the_scenario() {
        // Off: no traffic model, whatever the fields say.
        let off = with(|s| s.load = "nope".into());
        assert_eq!(parse_model(&off).unwrap().traffic, None);
        // On with the defaults: the core's defaults, no pod capacity.
        let on = with(|s| s.traffic = true);
        let model = parse_model(&on).unwrap().traffic.unwrap();
        assert_eq!(model, TrafficModel::default());
        // The core's limits, with its words, next to the field.
        let bad = with(|s| {
            s.traffic = true;
            s.load = "0".into();
            s.endpoint_delay = "90000".into();
        });
        let problems = parse_model(&bad).unwrap_err();
        assert_eq!(
            problems.for_field(Field::Load).unwrap().message,
            "Load (req/s): 0 is not a rate the model takes: give at least 1 request a second"
        );
        assert!(problems
            .for_field(Field::EndpointDelaySeconds)
            .unwrap()
            .message
            .contains("90000 s is outside 0 to 86,400 s"));
        assert_eq!(problems.first_field(), Some(Field::Load));
        // Built into the scenario's model.traffic and read back.
        let set = with(|s| {
            s.traffic = true;
            s.load = "40".into();
            s.pod_capacity = "15".into();
            s.pre_stop = "5".into();
        });
        let built = crate::state::build_scenario(&set, &crate::state::default_scenario()).unwrap();
        let t = built.model.as_ref().unwrap().traffic.as_ref().unwrap();
        assert_eq!(
            (t.load, t.pod_capacity, t.pre_stop_sleep_seconds),
            (40, Some(15), 5)
        );
        let (back, _) = Settings::from_scenario(&built).unwrap();
        assert!(back.traffic);
        assert_eq!(
            (
                back.load.as_str(),
                back.pod_capacity.as_str(),
                back.pre_stop.as_str()
            ),
            ("40", "15", "5")
        );
    }

    #[test]
    fn a_failure_is_read_in_the_scenario_formats_words_and_refused_in_the_cores() {
        let s = with(|s| s.failure = " crash:after=5s ".into());
        assert_eq!(
            parse_model(&s).unwrap().failure,
            Some(rollout_facade::failures::AppFailure::Crash { after: 5 })
        );
        let bad = with(|s| s.failure = "crash".into());
        let problems = parse_model(&bad).unwrap_err();
        let p = problems.for_field(Field::Failure).unwrap();
        // The core's message (`AppFailure::parse`), naming what `crash` needs.
        assert!(p.message.contains("needs after=DURATION"), "{}", p.message);
        // Built into a scenario: the next version of the image fails, and reads back.
        let built = crate::state::build_scenario(&s, &crate::state::default_scenario()).unwrap();
        let failures = built.model.as_ref().unwrap().failures.as_ref().unwrap();
        assert_eq!(failures.images.len(), 1);
        assert_eq!(failures.images[0].0, "nginx:1.16.1");
        let (back, _) = Settings::from_scenario(&built).unwrap();
        assert_eq!(back.failure, "crash:after=5s");
        // Cleared: no failure left in the scenario.
        let cleared = crate::state::build_scenario(&Settings::default(), &built).unwrap();
        assert!(cleared
            .model
            .as_ref()
            .and_then(|m| m.failures.as_ref())
            .is_none());
    }

    #[test]
    fn zero_and_zero_is_refused_with_the_api_message() {
        let s = with(|s| {
            s.max_surge = "0".into();
            s.max_unavailable = "0".into();
        });
        let p = check_create(&s, &base()).unwrap_err();
        assert_eq!(
            p.summary,
            "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: \
             Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when \
             `maxSurge` is 0"
        );
        assert_eq!(p.first_field(), Some(Field::MaxUnavailable));
        assert!(p.for_field(Field::MaxSurge).is_none());
        // Percentages that only resolve to 0 are accepted (the controller then uses 1).
        let s = with(|s| {
            s.max_surge = "0%".into();
            s.max_unavailable = "10%".into();
        });
        assert!(check_create(&s, &base()).is_ok());
    }

    #[test]
    fn api_messages_name_their_control() {
        let cases = [
            (with(|s| s.replicas = "-2".into()), Field::Replicas),
            (
                with(|s| s.max_unavailable = "120%".into()),
                Field::MaxUnavailable,
            ),
            (with(|s| s.max_surge = "abc".into()), Field::MaxSurge),
            (
                with(|s| s.min_ready_seconds = "-1".into()),
                Field::MinReadySeconds,
            ),
            (
                with(|s| s.progress_deadline_seconds = "0".into()),
                Field::ProgressDeadlineSeconds,
            ),
            (
                with(|s| s.revision_history_limit = "-3".into()),
                Field::RevisionHistoryLimit,
            ),
        ];
        for (s, field) in cases {
            let p = check_create(&s, &base()).unwrap_err();
            assert_eq!(p.first_field(), Some(field), "{s:?}: {p:?}");
            assert!(
                p.summary
                    .starts_with("Deployment.apps \"web\" is invalid: spec."),
                "{}",
                p.summary
            );
        }
    }

    #[test]
    fn text_that_is_not_a_number_gets_the_apps_words() {
        let p = check_create(&with(|s| s.replicas = "ten".into()), &base()).unwrap_err();
        assert_eq!(p.summary, "Replicas must be a whole number (got \"ten\").");
        let p = check_create(&with(|s| s.replicas = "".into()), &base()).unwrap_err();
        assert_eq!(p.first_field(), Some(Field::Replicas));
        let p = check_create(&with(|s| s.replicas = "99999999999".into()), &base()).unwrap_err();
        assert!(p.summary.contains("32-bit"), "{}", p.summary);
        let p = check_create(&with(|s| s.max_unavailable = " ".into()), &base()).unwrap_err();
        assert!(p.summary.starts_with("Enter maxUnavailable"));
    }

    #[test]
    fn the_app_caps_replicas_and_pods() {
        let p = check_create(&with(|s| s.replicas = "10001".into()), &base()).unwrap_err();
        assert_eq!(
            p.summary,
            "Rollout Lab simulates at most 10,000 replicas, to keep the page responsive (got 10001)."
        );
        assert!(check_create(&with(|s| s.replicas = "10000".into()), &base()).is_ok());
        let p = check_create(
            &with(|s| {
                s.replicas = "10000".into();
                s.max_surge = "150%".into();
            }),
            &base(),
        )
        .unwrap_err();
        assert_eq!(p.first_field(), Some(Field::MaxSurge));
        assert!(p.summary.contains("25,000"), "{}", p.summary);
    }

    #[test]
    fn recreate_ignores_the_rolling_fields() {
        let s = with(|s| {
            s.strategy = StrategyKind::Recreate;
            s.max_surge = "garbage".into();
        });
        let input = check_create(&s, &base()).unwrap();
        assert_eq!(input.strategy.unwrap().type_.as_deref(), Some("Recreate"));
        assert!(!s.spec_differs(&with(|s| s.strategy = StrategyKind::Recreate)));
    }

    #[test]
    fn the_model_has_sane_ranges() {
        let p = parse_model(&with(|s| {
            s.nodes = "0".into();
            s.seconds_per_round = "x".into();
        }))
        .unwrap_err();
        assert_eq!(p.list.len(), 2);
        assert_eq!(p.summary, "Nodes must be between 1 and 50 (got 0).");
        assert_eq!(p.first_field(), Some(Field::Nodes));
    }

    #[test]
    fn settings_round_trip_through_a_scenario() {
        let preset = rollout_facade::presets::preset("proportional-scaling").unwrap();
        let (s, input) = Settings::from_scenario(&preset.scenario).unwrap();
        assert_eq!(s.replicas, "10");
        assert_eq!(
            (s.max_surge.as_str(), s.max_unavailable.as_str()),
            ("3", "2")
        );
        assert!(s.never_ready);
        assert!(s.instant_reactions, "presets are settled");
        assert_eq!(input.image, "nginx:1.14.2");
        let again = check_create(&s, &input).unwrap();
        assert_eq!(again, input.clone().tap_replicas());
    }

    trait Tap {
        fn tap_replicas(self) -> Self;
    }
    impl Tap for DeploymentInput {
        /// The preset spells out what the form fills in from the defaults.
        fn tap_replicas(mut self) -> Self {
            self.min_ready_seconds = Some(0);
            self.progress_deadline_seconds = Some(600);
            self.revision_history_limit = Some(10);
            self
        }
    }

    #[test]
    fn updates_are_checked_against_the_stored_object() {
        let stored = check_create(&Settings::default(), &base())
            .unwrap()
            .to_deployment();
        let s = with(|s| s.replicas = "5".into());
        let input = check_update(&s, &base(), &stored).unwrap();
        assert_eq!(input.replicas, Some(5));
        let s = with(|s| {
            s.max_surge = "0".into();
            s.max_unavailable = "0".into();
        });
        let p = check_update(&s, &base(), &stored).unwrap_err();
        assert!(p.summary.ends_with("may not be 0 when `maxSurge` is 0"));
    }

    #[test]
    fn grouping_digits() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(10_000), "10,000");
        assert_eq!(group(-1_234_567), "-1,234,567");
    }
}
