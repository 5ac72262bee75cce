//! Race schedules (`../shared/races/README.md`): the Deployment and ReplicaSet controllers
//! each read their own informer caches, which catch up with the API server only when the
//! schedule says so, and the API server refuses a write made from a stale copy.
//!
//! * [`cache`]: the informer caches of each controller and the ReplicaSet controller's pod
//!   event handlers (`addPod`, `updatePod`, `deletePod` of `replica_set.go`).
//! * [`expectations`]: `ControllerExpectations` with UID tracking of deletions
//!   (`controller_utils.go`).
//! * [`consistency`]: the ReplicaSet controller's wait for its own writes (KEP-5647, 1.36+),
//!   on when the scenario's `kubernetesVersion` is 1.37.
//! * [`schedule`]: a schedule's steps, the scenario that carries them, the runner and its
//!   trace.
//! * [`search`]: a breadth-first search over schedules for one that breaks a promise of the
//!   rolling update.
//! * [`explorer`]: a front end's door: a schedule stepped by hand in the real mode and the two
//!   counterfactuals at once, each step as plain data (truth, caches with what is stale,
//!   expectations, a caption).
//! * [`walkthroughs`]: the three teaching schedules with a note per step.
//!
//! What is the real controllers and what is the model: `syncDeployment`, `syncReplicaSet`,
//! the handlers and the expectations are ports of v1.28.4; *when* a cache catches up (a
//! `deliver-*` step) is chosen by the schedule, not by a network.

pub mod cache;
pub mod consistency;
pub mod expectations;
pub mod explorer;
pub mod schedule;
pub mod search;
pub mod walkthroughs;
