//! The kubelet's back-off between container restarts and between image pulls: client-go's
//! `util/flowcontrol/backoff.go` (`Backoff`: `Next`, `IsInBackOffSince`,
//! `IsInBackOffSinceUpdate`, `hasExpired`) as v1.28.4's kubelet builds it
//! (`pkg/kubelet/kubelet.go`: `flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff)`, 10 s
//! and 300 s, for both the crash loop and the image puller), in whole seconds, for one key (one
//! container of one pod, or one image of one pod: the kubelet keys them
//! `pod_namespace_uid_container_hash` and `podUID_image`, so no two pods share an entry).
//!
//! Example (initial 10 s, max 300 s): an entry made at 5 s holds 10 s; `next` at 20 s doubles
//! it to 20 s, at 45 s to 40 s, …, up to 300 s. An entry last updated more than 2 × 300 =
//! 600 s before the event (a container's exit) is expired: `next` starts it again at 10 s.

use crate::api::Time;
use serde::{Deserialize, Serialize};

/// The back-off's bounds (`NewBackOff(initial, max)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackOffPolicy {
    /// The first back-off (`backOffPeriod`: 10 s in v1.28).
    pub initial_seconds: i64,
    /// The largest (`MaxContainerBackOff`: 300 s in v1.28).
    pub max_seconds: i64,
}

impl BackOffPolicy {
    /// v1.28's kubelet: 10 s doubling to 300 s, for restarts and pulls alike.
    pub const V1_28: BackOffPolicy = BackOffPolicy {
        initial_seconds: 10,
        max_seconds: 300,
    };

    /// Kubernetes ≥ 1.33 with the `ReduceDefaultCrashLoopBackOffDecay` feature gate: restarts
    /// back off from 1 s to at most 60 s (KEP-4603). An option of the model, not its default.
    pub const REDUCED_DECAY: BackOffPolicy = BackOffPolicy {
        initial_seconds: 1,
        max_seconds: 60,
    };

    /// `KubeletCrashLoopBackOffMax` (≥ 1.32, the kubelet configuration's
    /// `crashLoopBackOff.maxContainerRestartPeriod`): the same initial back-off, a smaller cap.
    pub fn with_max(self, max_seconds: i64) -> BackOffPolicy {
        BackOffPolicy {
            initial_seconds: self.initial_seconds.min(max_seconds),
            max_seconds,
        }
    }
}

impl Default for BackOffPolicy {
    fn default() -> Self {
        BackOffPolicy::V1_28
    }
}

/// One key's entry (`backoffEntry`): the back-off it holds and when it was last updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BackOffEntry {
    /// The current back-off, in seconds.
    pub backoff: i64,
    /// `lastUpdate`: the event time `next` was last given.
    pub last_update: Time,
}

/// `hasExpired`: the entry was last updated more than 2 × max before the event.
fn has_expired(policy: BackOffPolicy, event_time: Time, last_update: Time) -> bool {
    event_time - last_update > 2 * policy.max_seconds
}

/// `Backoff.Next(id, eventTime)` called at `now`: a missing entry, or one expired at the event,
/// starts at the initial back-off, any other doubles, up to the max; its last update is now
/// (`p.Clock.Now()`, the moment of the restart or the pull attempt).
pub fn next(
    policy: BackOffPolicy,
    entry: Option<BackOffEntry>,
    event_time: Time,
    now: Time,
) -> BackOffEntry {
    let backoff = match entry {
        Some(e) if !has_expired(policy, event_time, e.last_update) => {
            (e.backoff.saturating_mul(2)).min(policy.max_seconds)
        }
        _ => policy.initial_seconds,
    };
    BackOffEntry {
        backoff,
        last_update: now,
    }
}

/// `Backoff.IsInBackOffSince(id, eventTime)` at `now`: there is an entry, it has not expired
/// at the event, and less than its back-off has passed since the event (the kubelet's crash
/// loop: the event is the exited container's `FinishedAt`).
pub fn is_in_back_off_since(
    policy: BackOffPolicy,
    entry: Option<BackOffEntry>,
    event_time: Time,
    now: Time,
) -> bool {
    entry.is_some_and(|e| {
        !has_expired(policy, event_time, e.last_update) && now - event_time < e.backoff
    })
}

/// `Backoff.IsInBackOffSinceUpdate(id, eventTime)`: less than the back-off has passed since the
/// entry's last update (the image puller's check, with the event time now).
pub fn is_in_back_off_since_update(
    policy: BackOffPolicy,
    entry: Option<BackOffEntry>,
    now: Time,
) -> bool {
    entry.is_some_and(|e| {
        !has_expired(policy, now, e.last_update) && now - e.last_update < e.backoff
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_from_ten_seconds_to_five_minutes() {
        let p = BackOffPolicy::V1_28;
        let mut e = next(p, None, 0, 0);
        let mut seen = vec![e.backoff];
        for t in 1..8 {
            e = next(p, Some(e), t, t);
            seen.push(e.backoff);
        }
        // 10, 20, 40, 80, 160, 320 → 300, then 300.
        assert_eq!(seen, [10, 20, 40, 80, 160, 300, 300, 300]);
    }

    #[test]
    fn an_entry_is_forgotten_after_twice_the_max() {
        let p = BackOffPolicy::V1_28;
        let e = next(p, Some(next(p, None, 0, 0)), 10, 10); // 20 s, updated at 10 s
                                                            // 610 − 10 = 600, not more than 600: still held, doubled.
        assert_eq!(next(p, Some(e), 610, 610).backoff, 40);
        // 611 − 10 = 601 > 600: expired, starts again at 10 s.
        assert_eq!(next(p, Some(e), 611, 611).backoff, 10);
        assert!(!is_in_back_off_since(p, Some(e), 611, 611));
    }

    #[test]
    fn in_back_off_until_the_back_off_has_passed_since_the_event() {
        let p = BackOffPolicy::V1_28;
        let e = next(p, None, 5, 5); // 10 s from 5 s
        assert!(
            !is_in_back_off_since(p, None, 10, 10),
            "no entry: no back-off"
        );
        // Exited at 10 s: held while now − 10 < 10.
        assert!(is_in_back_off_since(p, Some(e), 10, 19));
        assert!(!is_in_back_off_since(p, Some(e), 10, 20));
        // The puller counts from the entry's update (5 s): held until 15 s.
        assert!(is_in_back_off_since_update(p, Some(e), 14));
        assert!(!is_in_back_off_since_update(p, Some(e), 15));
    }

    #[test]
    fn the_newer_kubelets_options() {
        assert_eq!(
            BackOffPolicy::V1_28.with_max(30),
            BackOffPolicy {
                initial_seconds: 10,
                max_seconds: 30
            }
        );
        let p = BackOffPolicy::REDUCED_DECAY;
        let mut e = next(p, None, 0, 0);
        for t in 1..8 {
            e = next(p, Some(e), t, t);
        }
        // 1, 2, 4, 8, 16, 32, 64 → 60.
        assert_eq!(e.backoff, 60);
    }
}
