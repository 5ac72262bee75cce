//! A rolling update's bounds from the settings as written, with the arithmetic a front end
//! shows beside them (the settings' readout, the Plan page's heat map cell, the app's pod
//! limit), so no front end resolves maxSurge and maxUnavailable itself.
//!
//! [`parse_rolling_bounds`] reads the three values as a form holds them (text) and names the
//! input a malformed one is in. The readout is only shown for settings the API accepts, so its
//! "both were 0" rule only ever shows for values that *resolve* to 0 (`0%` / `10%` of 3
//! replicas); the API refuses a literal 0 / 0.

use crate::api::intstr::{get_scaled_value_from_int_or_percent, is_valid_percent};
use crate::api::IntOrString;
use crate::deployment::util::resolve_fenceposts;
use crate::validation::InputField;

/// maxSurge and maxUnavailable resolved against `replicas` (`deploymentutil.ResolveFenceposts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingBounds {
    /// `spec.replicas`.
    pub replicas: i32,
    /// maxSurge as given (absent: 0).
    pub max_surge: IntOrString,
    /// maxUnavailable as given (absent: 0).
    pub max_unavailable: IntOrString,
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
        max_surge: max_surge.unwrap_or(&zero).clone(),
        max_unavailable: max_unavailable.unwrap_or(&zero).clone(),
        surge,
        unavailable,
        zero_rule: surge == 0 && unavailable_before == 0,
        min_available: replicas64 - i64::from(unavailable).min(replicas64),
        max_total: replicas64 + i64::from(surge),
    })
}

/// Why settings as written cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundsRefused {
    /// The offending input (`Replicas`, `MaxSurge` or `MaxUnavailable`), when it is known.
    pub field: Option<InputField>,
    /// A sentence for the user.
    pub message: String,
}

/// Reads replicas, maxSurge and maxUnavailable as typed (surrounding spaces ignored) and
/// resolves them ([`rolling_bounds`]), or says which input is malformed and why.
pub fn parse_rolling_bounds(
    replicas: &str,
    max_surge: &str,
    max_unavailable: &str,
) -> Result<RollingBounds, BoundsRefused> {
    let replicas = parse_replicas(replicas)?;
    let max_surge = parse_int_or_percent(max_surge, InputField::MaxSurge)?;
    let max_unavailable = parse_int_or_percent(max_unavailable, InputField::MaxUnavailable)?;
    rolling_bounds(replicas, Some(&max_surge), Some(&max_unavailable)).map_err(|message| {
        BoundsRefused {
            field: None,
            message,
        }
    })
}

fn parse_replicas(text: &str) -> Result<i32, BoundsRefused> {
    let t = text.trim();
    let invalid = |message: String| BoundsRefused {
        field: Some(InputField::Replicas),
        message,
    };
    if t.is_empty() {
        return Err(invalid("Enter the number of replicas, such as 10.".into()));
    }
    match t.parse::<i64>() {
        Ok(n) if n < 0 => Err(invalid(format!("Replicas can't be negative (got {t})."))),
        Ok(n) => i32::try_from(n)
            .map_err(|_| invalid(format!("Replicas must be at most {} (got {t}).", i32::MAX))),
        Err(_) => Err(invalid(format!(
            "Replicas must be a whole number, such as 10 (got \"{t}\")."
        ))),
    }
}

fn parse_int_or_percent(text: &str, field: InputField) -> Result<IntOrString, BoundsRefused> {
    let name = field.as_str();
    let t = text.trim();
    let invalid = |message: String| BoundsRefused {
        field: Some(field),
        message,
    };
    if t.is_empty() {
        return Err(invalid(format!(
            "Enter {name}: a number of pods such as 1, or a percentage such as 25%."
        )));
    }
    let number = t.strip_suffix('%').unwrap_or(t);
    if number.starts_with('-')
        && number[1..].bytes().all(|b| b.is_ascii_digit())
        && number.len() > 1
    {
        return Err(invalid(format!("{name} can't be negative (got {t}).")));
    }
    let value = IntOrString::parse_user(t);
    match &value {
        IntOrString::Int(_) => {}
        IntOrString::String(s) if is_valid_percent(s) => {
            if field == InputField::MaxUnavailable && number.parse::<u64>().is_ok_and(|p| p > 100) {
                return Err(invalid(format!(
                    "maxUnavailable can't be more than 100% (got {t})."
                )));
            }
            if number.parse::<i32>().is_err() {
                return Err(invalid(format!("{name} is too large (got {t}).")));
            }
        }
        IntOrString::String(_) => {
            let example = "a whole number such as 1, or a percentage such as 25%";
            return Err(invalid(format!("{name} must be {example} (got \"{t}\").")));
        }
    }
    Ok(value)
}

impl RollingBounds {
    /// How maxSurge became [`RollingBounds::surge`], e.g. `25% of 10 → 3 (rounded up)`.
    pub fn surge_explained(&self) -> String {
        match &self.max_surge {
            IntOrString::Int(n) => pods(*n),
            IntOrString::String(p) => {
                format!("{p} of {} → {} (rounded up)", self.replicas, self.surge)
            }
        }
    }

    /// How maxUnavailable became [`RollingBounds::unavailable`], e.g. `25% of 10 → 2 (rounded
    /// down)`.
    pub fn unavailable_explained(&self) -> String {
        let mut s = match &self.max_unavailable {
            IntOrString::Int(n) => pods(*n),
            IntOrString::String(p) => format!(
                "{p} of {} → {} (rounded down)",
                self.replicas,
                if self.zero_rule { 0 } else { self.unavailable }
            ),
        };
        if self.zero_rule {
            s.push_str(" → 1 (both were 0)");
        }
        s
    }

    /// The range the pod count stays in during a rollout.
    pub fn range_explained(&self) -> String {
        format!(
            "pods stay between {} and {}",
            self.min_available, self.max_total
        )
    }

    /// The whole readout on one line.
    pub fn summary(&self) -> String {
        format!(
            "maxSurge {} · maxUnavailable {} · {}",
            self.surge_explained(),
            self.unavailable_explained(),
            self.range_explained()
        )
    }
}

/// `1 pod`, `3 pods`.
pub fn pods(n: impl Into<i64>) -> String {
    let n = n.into();
    if n == 1 {
        "1 pod".to_string()
    } else {
        format!("{n} pods")
    }
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
