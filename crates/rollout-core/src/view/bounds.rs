//! A rolling update's bounds from the settings as written, with the arithmetic a front end
//! shows beside them (the settings' readout, the Plan page's heat map cell, the app's pod
//! limit), so no front end resolves maxSurge and maxUnavailable itself.

use crate::api::intstr::get_scaled_value_from_int_or_percent;
use crate::api::IntOrString;
use crate::deployment::util::resolve_fenceposts;

/// maxSurge and maxUnavailable resolved against `replicas` (`deploymentutil.ResolveFenceposts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollingBounds {
    /// `spec.replicas`.
    pub replicas: i32,
    /// Extra pods allowed above `replicas` (maxSurge, a percentage rounded up).
    pub surge: i32,
    /// Pods allowed to be unavailable (maxUnavailable, a percentage rounded down; 1 when both
    /// came to 0).
    pub unavailable: i32,
    /// Both resolved to 0, so Kubernetes used maxUnavailable = 1.
    pub zero_rule: bool,
    /// The fewest available pods the controller keeps: replicas − min(unavailable, replicas).
    pub min_available: i64,
    /// The most pods that may exist at once: replicas + surge.
    pub max_total: i64,
}

/// The bounds of `replicas` with `max_surge` and `max_unavailable` (absent: 0), or the
/// message of a value that does not resolve (`ResolveFenceposts`' error).
///
/// 10 replicas, maxSurge 25%, maxUnavailable 25%: surge 3 (2.5 rounded up), unavailable 2
/// (2.5 rounded down), so at most 13 pods and at least 8 available. 3 replicas, 0% and 10%:
/// both come to 0, and Kubernetes takes maxUnavailable 1 (`zero_rule`).
pub fn rolling_bounds(
    replicas: i32,
    max_surge: Option<&IntOrString>,
    max_unavailable: Option<&IntOrString>,
) -> Result<RollingBounds, String> {
    let (surge, unavailable) = resolve_fenceposts(max_surge, max_unavailable, replicas)?;
    let zero = IntOrString::Int(0);
    let unavailable_before =
        get_scaled_value_from_int_or_percent(max_unavailable.unwrap_or(&zero), replicas, false)?;
    let replicas64 = i64::from(replicas);
    Ok(RollingBounds {
        replicas,
        surge,
        unavailable,
        zero_rule: surge == 0 && unavailable_before == 0,
        min_available: replicas64 - i64::from(unavailable).min(replicas64),
        max_total: replicas64 + i64::from(surge),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pct(s: &str) -> IntOrString {
        IntOrString::String(s.into())
    }

    #[test]
    fn ten_replicas_with_a_quarter_each_way() {
        let b = rolling_bounds(10, Some(&pct("25%")), Some(&pct("25%"))).unwrap();
        assert_eq!((b.surge, b.unavailable, b.zero_rule), (3, 2, false));
        assert_eq!((b.max_total, b.min_available), (13, 8));
    }

    #[test]
    fn both_zero_becomes_one_unavailable() {
        let b = rolling_bounds(3, Some(&pct("0%")), Some(&pct("10%"))).unwrap();
        assert_eq!((b.surge, b.unavailable, b.zero_rule), (0, 1, true));
        assert_eq!((b.max_total, b.min_available), (3, 2));
        let b = rolling_bounds(3, Some(&IntOrString::Int(1)), None).unwrap();
        assert!(!b.zero_rule);
    }

    #[test]
    fn unavailable_is_capped_by_replicas_in_min_available() {
        let b = rolling_bounds(3, None, Some(&IntOrString::Int(5))).unwrap();
        assert_eq!((b.unavailable, b.min_available), (5, 0));
    }

    #[test]
    fn a_value_that_does_not_resolve_is_refused() {
        assert!(rolling_bounds(3, Some(&pct("abc")), None).is_err());
    }
}
