//! Rollout Lab's API boundary: the one crate a front end depends on.
//!
//! In the manner of rust-analyzer's `ide` crate, this is a façade of plain data over the
//! engine. The web app (`web/`), the YAML reader's module (`web/yaml`) and the CLI
//! (`crates/rollout-cli`) name `rollout-facade` and not `rollout-core`, so what they can reach
//! is what is listed here: the [`session::Session`] they drive, the views they render
//! ([`view`]), the scenario format, presets, lessons and challenges, the planner's input and
//! output ([`plan`]), manifest import, permalinks, an embed's options as its query, attributes
//! and `mount()` fields give them ([`embed`]), the size limits, kubectl's command lines and
//! output ([`ui_support`], [`kubectl`]), the validation messages and the YAML of objects, and
//! the Service in front of a Deployment with the requests it gets ([`endpoints`], [`traffic`]:
//! `Session::traffic`, a run's seconds in full).
//!
//! The engine's moving parts (the API server `store`, the controllers `deployment` and
//! `replicaset`, the kubelet, the stepper's internals) are not re-exported: they stay public
//! to the core's own tests and the conformance suites only. Where a front end needs something
//! they know (resolved rolling-update bounds, an object's YAML at a step, a ReplicaSet sync's
//! report), the core offers it as plain data and this crate re-exports that. "The web decides
//! nothing about Kubernetes and words no Kubernetes message" is therefore a compile-time fact:
//! a front end that wanted to do the arithmetic itself would find nothing to call.
//!
//! Everything here is a re-export: the façade adds no code to a module that links it.

pub use rollout_core::{
    embed, endpoints, flow, images, import, kubectl, lessons, limits, order, plan, presets,
    scenario, session, share, traffic, ui_support, validation, version, view, yaml, yaml_edit,
};

/// Kubernetes' objects as data (`k8s.io/api`: Deployment, ReplicaSet, Pod, `IntOrString`, the
/// annotations, the apps/v1 default), without the functions the controllers compute with
/// (`intstr`'s scaling, template equality, `ready_long_enough`, Go's quoting): resolved
/// bounds are [`view::rolling_bounds`]'s, messages are the core's.
pub mod api {
    pub use rollout_core::api::{
        ConditionStatus, ContainerState, ContainerStatus, Deployment, DeploymentCondition,
        DeploymentSpec, DeploymentStatus, DeploymentStrategy, Event, IntOrString, ObjectMeta,
        OwnerReference, Pod, PodCondition, PodConditionType, PodPhase, PodTemplate, ReplicaSet,
        ReplicaSetCondition, ReplicaSetSpec, ReplicaSetStatus, StringMap, Text, Time, Uid,
        DEFAULT_ROLLING_PERCENT, DEPRECATED_ROLLBACK_TO, DESIRED_REPLICAS_ANNOTATION,
        LAST_APPLIED_CONFIG_ANNOTATION, MAX_REPLICAS_ANNOTATION, POD_DELETION_COST_ANNOTATION,
        POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION,
    };
}

/// How an app fails (a model parameter per image: `crash:after=5s`, `probe:after=5s`,
/// `readiness:from=30s,to=90s`, `slow:ready=45s`, `pull`) and the kubelet's restart back-off (v1.28's 10 s → 300 s,
/// the newer kubelets' options): the scenario's `model.failures` and `model.restartBackOff`,
/// `rollout plan --fail`. The kubelet's rules themselves stay in the core; a front end reads
/// their result in each pod's `container` status and `kubectl::pod_rows`.
pub mod failures {
    pub use rollout_core::kubelet::backoff::BackOffPolicy;
    pub use rollout_core::kubelet::failures::{parse_duration, AppFailure, FailureModel, KINDS};
    pub use rollout_core::kubelet::restarts::step_words;
}

/// A simulation as a front end sees it: the value a [`session::Session`] holds, read through
/// its methods and the [`view`] functions, and the records of its steps.
pub mod sim {
    pub use rollout_core::kubelet::PodChange;
    pub use rollout_core::sim::{run_trace, LoggedEvent, Simulation, StepKind, StepRecord};
}

/// What one ReplicaSet controller sync (`manageReplicas`) did, as data: its expectations,
/// slow-start batches and, for every pod it deleted, the ranking that chose it
/// (`StepRecord::manage`; "Inside the controllers").
pub mod report {
    pub use rollout_core::replicaset::ranking::{log_bucket, Criterion, RankedPod};
    pub use rollout_core::replicaset::{
        DeletionReason, Expectations, ManageReport, SlowStart, BURST_REPLICAS,
    };
}

/// Race schedules, their search (`rollout races`) and their explorer (`rollout walk`, the
/// Races view): the scenario, the trace, the options of the breadth-first search, the frames
/// of a schedule stepped by hand and the teaching walk-throughs.
pub mod races {
    pub use rollout_core::races::explorer::{
        CacheView, CachedDeploymentLine, CachedLine, ExpectationLine, Mode, RaceExplorer,
        RaceFrame, Seen,
    };
    pub use rollout_core::races::schedule::{
        run_race_trace, RaceScenario, Step, MAX_SCHEDULE_STEPS,
    };
    pub use rollout_core::races::search::{
        search, search_with_progress, Counterexample, SearchError, SearchOptions, SearchReport,
        DEFAULT_DEPTH, DEFAULT_MAX_STATES, MAX_STATES_LIMIT,
    };
    pub use rollout_core::races::walkthroughs::{Walkthrough, WALKTHROUGHS};
    pub use rollout_core::trace::PodCounts;
}
