//! What an engineer requires of a rollout before choosing its settings: never more than N pods
//! at once (the capacity the cluster has), at least M pods available throughout (the traffic
//! the service must carry), done within T seconds (the change window). A sweep's rows that
//! break one are out; the fastest of the rest is the answer.
//!
//! 10 replicas, "peak ≤ 12" and "lowest availability ≥ 9": maxSurge 2 / maxUnavailable 1 (peak
//! 12, lowest 9) is allowed; 3 / 0 (peak 13) breaks the peak; 0 / 2 (lowest 8) breaks the
//! availability. Among the allowed rows the one with the shortest duration is the fastest
//! (a tie goes to fewer peak pods, then to more available ones, then to the first).

use super::sweep::SweepRow;
use super::Forecast;

/// The limits a rollout must keep; `None` sets no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// The most pods at once (`peakPods` ≤ this).
    pub max_peak: Option<i32>,
    /// The fewest available pods (`minAvailable` ≥ this).
    pub min_available: Option<i32>,
    /// The longest rollout (`durationSeconds` ≤ this; one that never completes breaks it).
    pub within_seconds: Option<i64>,
}

/// A limit a forecast can break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`Constraints::max_peak`].
    Peak,
    /// [`Constraints::min_available`].
    Availability,
    /// [`Constraints::within_seconds`].
    Duration,
}

impl Limit {
    /// How the limit reads: `peak ≤ 12`.
    pub fn describe(self, c: &Constraints) -> String {
        match self {
            Limit::Peak => format!("peak ≤ {}", c.max_peak.unwrap_or(0)),
            Limit::Availability => {
                format!("lowest availability ≥ {}", c.min_available.unwrap_or(0))
            }
            Limit::Duration => format!("finished within {} s", c.within_seconds.unwrap_or(0)),
        }
    }
}

impl Constraints {
    /// Whether any limit is set.
    pub fn any(&self) -> bool {
        self.max_peak.is_some() || self.min_available.is_some() || self.within_seconds.is_some()
    }

    /// The limits `f` breaks, in the order peak, availability, duration. No availability
    /// figure (nothing was measured) counts as 0 available.
    pub fn broken(&self, f: &Forecast) -> Vec<Limit> {
        let mut out = Vec::new();
        if self.max_peak.is_some_and(|n| f.peak_pods > n) {
            out.push(Limit::Peak);
        }
        if self
            .min_available
            .is_some_and(|m| f.min_available.unwrap_or(0) < m)
        {
            out.push(Limit::Availability);
        }
        if let Some(t) = self.within_seconds {
            if f.duration_seconds.is_none_or(|d| d > t) {
                out.push(Limit::Duration);
            }
        }
        out
    }

    /// Whether a sweep's row is allowed: the API server accepted its settings and its
    /// forecast breaks no limit.
    pub fn allows(&self, row: &SweepRow) -> bool {
        row.forecast
            .as_ref()
            .is_some_and(|f| self.broken(f).is_empty())
    }

    /// The index of the fastest allowed row that completes: the shortest duration, then the
    /// fewest peak pods, then the most available, then the first in the sweep.
    pub fn fastest(&self, rows: &[SweepRow]) -> Option<usize> {
        rows.iter()
            .enumerate()
            .filter(|(_, r)| self.allows(r))
            .filter_map(|(i, r)| {
                let f = r.forecast.as_ref()?;
                Some((
                    f.duration_seconds?,
                    f.peak_pods,
                    -f.min_available.unwrap_or(0),
                    i,
                ))
            })
            .min()
            .map(|(_, _, _, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::IntOrString;
    use crate::plan::sweep::Settings;

    fn row(surge: i32, unavailable: i32, f: Option<(Option<i64>, i32, i32)>) -> SweepRow {
        SweepRow {
            settings: Settings {
                max_surge: Some(IntOrString::Int(surge)),
                max_unavailable: Some(IntOrString::Int(unavailable)),
                ..Settings::default()
            },
            forecast: f.map(|(duration, peak, low)| Forecast {
                start_round: 5,
                complete_round: duration.map(|d| 5 + d as u32),
                duration_seconds: duration,
                peak_pods: peak,
                min_available: Some(low),
                deadline_exceeded_round: None,
            }),
            refused: f.is_none().then(|| "refused".to_string()),
            failed_requests: None,
            if_it_fails: None,
        }
    }

    #[test]
    fn rows_that_break_a_limit_are_out_and_the_fastest_of_the_rest_wins() {
        // 10 replicas: 2/1 peak 12 lowest 9 in 40 s; 3/0 peak 13 in 30 s; 0/2 lowest 8 in 35 s;
        // 1/1 peak 11 lowest 9 in 60 s; 0/0 refused.
        let rows = vec![
            row(2, 1, Some((Some(40), 12, 9))),
            row(3, 0, Some((Some(30), 13, 10))),
            row(0, 2, Some((Some(35), 10, 8))),
            row(1, 1, Some((Some(60), 11, 9))),
            row(0, 0, None),
        ];
        let none = Constraints::default();
        assert!(!none.any());
        assert_eq!(none.fastest(&rows), Some(1));
        let c = Constraints {
            max_peak: Some(12),
            min_available: Some(9),
            within_seconds: None,
        };
        let f = |i: usize| rows[i].forecast.clone().unwrap();
        assert_eq!(c.broken(&f(0)), vec![]);
        assert_eq!(c.broken(&f(1)), vec![Limit::Peak]);
        assert_eq!(c.broken(&f(2)), vec![Limit::Availability]);
        assert!(!c.allows(&rows[4]));
        assert_eq!(c.fastest(&rows), Some(0));
        let quick = Constraints {
            within_seconds: Some(39),
            ..c
        };
        assert_eq!(quick.broken(&f(3)), vec![Limit::Duration]);
        assert_eq!(quick.fastest(&rows), None);
        assert_eq!(Limit::Duration.describe(&quick), "finished within 39 s");
        assert_eq!(Limit::Peak.describe(&quick), "peak ≤ 12");
    }

    #[test]
    fn a_rollout_that_never_completes_is_never_the_fastest() {
        let rows = vec![
            row(0, 1, Some((None, 10, 9))),
            row(1, 0, Some((Some(90), 11, 10))),
        ];
        assert_eq!(Constraints::default().fastest(&rows), Some(1));
        let within = Constraints {
            within_seconds: Some(600),
            ..Constraints::default()
        };
        assert_eq!(
            within.broken(rows[0].forecast.as_ref().unwrap()),
            vec![Limit::Duration]
        );
        // Ties: the fewer peak pods.
        let tie = vec![
            row(2, 0, Some((Some(30), 12, 10))),
            row(1, 1, Some((Some(30), 11, 9))),
        ];
        assert_eq!(Constraints::default().fastest(&tie), Some(1));
    }
}
