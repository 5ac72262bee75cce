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

/// The clock at `seconds` simulated seconds since the start, before the single sync of
/// `round`, with an optional line under the time (e.g. `round in progress`). A plain function
/// rather than a component: it has no state, and its parent redraws it with every step anyway.
pub fn clock(seconds: i64, round: u32, detail: Option<&str>) -> Html {
    html! {
        <p class="clock" role="timer" data-testid="clock" data-seconds={seconds.to_string()}
            data-round={round.to_string()}
            aria-label={format!("Simulated time {}, round {round}", spoken(seconds))}>
            <span class="clock-time" aria-hidden="true">{ m_ss(seconds) }</span>
            <span class="clock-round" aria-hidden="true">{ format!("round {round}") }</span>
            if let Some(d) = detail {
                <span class="clock-detail" aria-hidden="true">{ d.to_string() }</span>
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
