//! Resolving the settings into rolling-update bounds, and the words the readout shows.
//!
//! Pure functions over [`Settings`]; the arithmetic is the core's (`view::rolling_bounds`,
//! its port of `deploymentutil.ResolveFenceposts`), the checks before it are the app's own. The readout is
//! only shown for settings the API accepts, so its "both were 0" rule only ever shows for
//! values that *resolve* to 0 (`0%` / `10%` of 3 replicas); the API refuses a literal 0 / 0.

use crate::settings::Settings;
use rollout_facade::api::intstr::is_valid_percent;
use rollout_facade::api::IntOrString;
use rollout_facade::view::rolling_bounds;

/// The input a validation message is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `spec.replicas`.
    Replicas,
    /// `maxSurge`.
    MaxSurge,
    /// `maxUnavailable`.
    MaxUnavailable,
}

/// Why the settings cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// The offending input, when it is known.
    pub field: Option<Field>,
    /// A sentence for the user.
    pub message: String,
}

/// The resolved rolling-update bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// `spec.replicas`.
    pub replicas: i32,
    /// maxSurge as given.
    pub max_surge: IntOrString,
    /// maxUnavailable as given.
    pub max_unavailable: IntOrString,
    /// Extra pods allowed above `replicas` (rounded up).
    pub surge: i32,
    /// Pods allowed to be unavailable (rounded down; 1 when both came to 0).
    pub unavailable: i32,
    /// Both resolved to 0, so Kubernetes used maxUnavailable = 1.
    pub zero_rule: bool,
    /// The fewest available pods the controller keeps: replicas − min(unavailable, replicas).
    pub min_available: i64,
    /// The most pods that may exist at once: replicas + surge.
    pub max_total: i64,
}

/// Parses and resolves the three inputs.
pub fn resolve(settings: &Settings) -> Result<Bounds, Invalid> {
    let replicas = parse_replicas(&settings.replicas)?;
    let max_surge = parse_int_or_percent(&settings.max_surge, Field::MaxSurge)?;
    let max_unavailable = parse_int_or_percent(&settings.max_unavailable, Field::MaxUnavailable)?;
    let b =
        rolling_bounds(replicas, Some(&max_surge), Some(&max_unavailable)).map_err(|message| {
            Invalid {
                field: None,
                message,
            }
        })?;
    Ok(Bounds {
        replicas,
        max_surge,
        max_unavailable,
        surge: b.surge,
        unavailable: b.unavailable,
        zero_rule: b.zero_rule,
        min_available: b.min_available,
        max_total: b.max_total,
    })
}

fn parse_replicas(text: &str) -> Result<i32, Invalid> {
    let t = text.trim();
    let invalid = |message: String| Invalid {
        field: Some(Field::Replicas),
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

fn parse_int_or_percent(text: &str, field: Field) -> Result<IntOrString, Invalid> {
    let name = match field {
        Field::MaxSurge => "maxSurge",
        Field::MaxUnavailable => "maxUnavailable",
        Field::Replicas => "replicas",
    };
    let t = text.trim();
    let invalid = |message: String| Invalid {
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
            if field == Field::MaxUnavailable && number.parse::<u64>().is_ok_and(|p| p > 100) {
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

impl Bounds {
    /// How maxSurge became [`Bounds::surge`], e.g. `25% of 10 → 3 (rounded up)`.
    pub fn surge_explained(&self) -> String {
        match &self.max_surge {
            IntOrString::Int(n) => pods(*n),
            IntOrString::String(p) => {
                format!("{p} of {} → {} (rounded up)", self.replicas, self.surge)
            }
        }
    }

    /// How maxUnavailable became [`Bounds::unavailable`], e.g. `25% of 10 → 2 (rounded down)`.
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

    fn settings(replicas: &str, surge: &str, unavailable: &str) -> Settings {
        Settings {
            replicas: replicas.into(),
            max_surge: surge.into(),
            max_unavailable: unavailable.into(),
            ..Settings::default()
        }
    }

    #[test]
    fn percentages_round_surge_up_and_unavailable_down() {
        let b = resolve(&settings("10", "25%", "25%")).unwrap();
        assert_eq!((b.surge, b.unavailable), (3, 2));
        assert_eq!((b.min_available, b.max_total), (8, 13));
        assert!(!b.zero_rule);
        assert_eq!(
            b.summary(),
            "maxSurge 25% of 10 → 3 (rounded up) · maxUnavailable 25% of 10 → 2 (rounded down) \
             · pods stay between 8 and 13"
        );
    }

    #[test]
    fn both_zero_means_one_unavailable() {
        let b = resolve(&settings("10", "0", "0")).unwrap();
        assert_eq!((b.surge, b.unavailable, b.zero_rule), (0, 1, true));
        assert_eq!((b.min_available, b.max_total), (9, 10));
        assert_eq!(b.unavailable_explained(), "0 pods → 1 (both were 0)");

        // 25% of 3 rounds down to 0, but the surge is 1, so no rule applies.
        let b = resolve(&settings("3", "25%", "25%")).unwrap();
        assert_eq!((b.surge, b.unavailable, b.zero_rule), (1, 0, false));

        // Percentages that both come to 0 trigger it too.
        let b = resolve(&settings("3", "0%", "10%")).unwrap();
        assert!(b.zero_rule);
        assert_eq!(
            b.unavailable_explained(),
            "10% of 3 → 0 (rounded down) → 1 (both were 0)"
        );
    }

    #[test]
    fn unavailable_above_replicas_is_capped_in_the_range() {
        let b = resolve(&settings("2", "1", "5")).unwrap();
        assert_eq!((b.min_available, b.max_total), (0, 3));
        assert_eq!(
            b.summary(),
            "maxSurge 1 pod · maxUnavailable 5 pods · pods stay between 0 and 3"
        );
    }

    #[test]
    fn whitespace_is_ignored() {
        let b = resolve(&settings(" 4 ", " 50% ", "1 ")).unwrap();
        assert_eq!((b.surge, b.unavailable), (2, 1));
    }

    #[test]
    fn malformed_values_name_their_field() {
        let cases = [
            (
                settings("", "25%", "25%"),
                Field::Replicas,
                "Enter the number of replicas",
            ),
            (
                settings("-1", "25%", "25%"),
                Field::Replicas,
                "can't be negative",
            ),
            (
                settings("ten", "25%", "25%"),
                Field::Replicas,
                "whole number",
            ),
            (
                settings("10", "abc", "25%"),
                Field::MaxSurge,
                "maxSurge must be a whole number",
            ),
            (
                settings("10", "-1", "25%"),
                Field::MaxSurge,
                "maxSurge can't be negative",
            ),
            (
                settings("10", "25%", "-5%"),
                Field::MaxUnavailable,
                "can't be negative",
            ),
            (
                settings("10", "25%", "1.5"),
                Field::MaxUnavailable,
                "whole number",
            ),
            (
                settings("10", "25%", "120%"),
                Field::MaxUnavailable,
                "more than 100%",
            ),
            (
                settings("10", "25%", ""),
                Field::MaxUnavailable,
                "Enter maxUnavailable",
            ),
            (settings("10", "%", "1"), Field::MaxSurge, "whole number"),
        ];
        for (s, field, words) in cases {
            let err = resolve(&s).unwrap_err();
            assert_eq!(err.field, Some(field), "{s:?}");
            assert!(err.message.contains(words), "{s:?}: {}", err.message);
        }
    }

    #[test]
    fn surge_may_exceed_one_hundred_percent() {
        let b = resolve(&settings("10", "150%", "0")).unwrap();
        assert_eq!(b.surge, 15);
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let b = resolve(&settings("2147483647", "100%", "0")).unwrap();
        assert_eq!(b.max_total, 2 * i64::from(i32::MAX));
        assert!(resolve(&settings("2147483648", "1", "1")).is_err());
        assert!(resolve(&settings("10", "99999999999%", "1")).is_err());
    }
}
