//! Resolving the settings into rolling-update bounds, and the words the readout shows: the
//! core's (`view::parse_rolling_bounds`, its port of `deploymentutil.ResolveFenceposts` and the
//! readout's sentences) over the form's text. The readout is only shown for settings the API
//! accepts, so its "both were 0" rule only ever shows for values that *resolve* to 0 (`0%` /
//! `10%` of 3 replicas); the API refuses a literal 0 / 0.

use crate::settings::Settings;
pub use rollout_facade::validation::InputField as Field;
pub use rollout_facade::view::{pods, BoundsRefused as Invalid, RollingBounds as Bounds};

/// Parses and resolves the three inputs.
pub fn resolve(settings: &Settings) -> Result<Bounds, Invalid> {
    rollout_facade::view::parse_rolling_bounds(
        &settings.replicas,
        &settings.max_surge,
        &settings.max_unavailable,
    )
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
