//! The cluster's clock: simulated time first, as `m:ss`, the round beside it. A cluster has no
//! rounds, only time; the round is how the simulation got there (1 s each in a preset).
//!
//! For example 95 s into rolling-basic (1 s rounds), after round 94: `1:35` and `round 95`.

use yew::prelude::*;

pub use crate::chart::m_ss;

/// Seconds for a screen reader: `1 minute 35 seconds`.
pub fn spoken(seconds: i64) -> String {
    let s = seconds.max(0);
    let unit = |n: i64, one: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    };
    match (s / 60, s % 60) {
        (0, s) => unit(s, "second"),
        (m, 0) => unit(m, "minute"),
        (m, s) => format!("{} {}", unit(m, "minute"), unit(s, "second")),
    }
}

/// Props of [`Clock`].
#[derive(Properties, PartialEq, Clone)]
pub struct ClockProps {
    /// Simulated seconds since the start.
    pub seconds: i64,
    /// The round of the next single sync.
    pub round: u32,
    /// Shown under the time (e.g. `round in progress`).
    #[prop_or_default]
    pub detail: Option<AttrValue>,
}

/// The clock.
#[function_component(Clock)]
pub fn clock(props: &ClockProps) -> Html {
    html! {
        <p class="clock" role="timer" data-testid="clock" data-seconds={props.seconds.to_string()}
            data-round={props.round.to_string()}
            aria-label={format!("Simulated time {}, round {}", spoken(props.seconds), props.round)}>
            <span class="clock-time" aria-hidden="true">{ m_ss(props.seconds) }</span>
            <span class="clock-round" aria-hidden="true">{ format!("round {}", props.round) }</span>
            if let Some(d) = &props.detail {
                <span class="clock-detail" aria-hidden="true">{ d.clone() }</span>
            }
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_a_clock() {
        assert_eq!(m_ss(0), "0:00");
        assert_eq!(m_ss(5), "0:05");
        assert_eq!(m_ss(95), "1:35");
        assert_eq!(m_ss(720), "12:00");
        assert_eq!(m_ss(3_725), "1:02:05");
        assert_eq!(m_ss(-3), "0:00");
        assert_eq!(spoken(95), "1 minute 35 seconds");
        assert_eq!(spoken(60), "1 minute");
        assert_eq!(spoken(1), "1 second");
    }
}
