//! Geometry of the pod-count chart: the four series as step lines and the rolling-update band
//! (replicas + maxSurge above, replicas − maxUnavailable below), in SVG user units, over
//! simulated time in seconds.

use rollout_facade::view::ChartPoint;

/// The chart's drawing area, in SVG units.
pub const WIDTH: f64 = 440.0;
/// Height.
pub const HEIGHT: f64 = 230.0;
const LEFT: f64 = 36.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 34.0;

/// One series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Series {
    /// Every pod, terminating included.
    Total,
    /// Available pods.
    Available,
    /// Pods of old ReplicaSets.
    Old,
    /// Pods of the new ReplicaSet.
    New,
}

impl Series {
    /// All, in drawing order.
    pub const ALL: [Series; 4] = [Series::Total, Series::Available, Series::Old, Series::New];

    /// Legend text.
    pub fn label(self) -> &'static str {
        match self {
            Series::Total => "total pods",
            Series::Available => "available",
            Series::Old => "old ReplicaSets",
            Series::New => "new ReplicaSet",
        }
    }

    /// CSS key.
    pub fn key(self) -> &'static str {
        match self {
            Series::Total => "total",
            Series::Available => "available",
            Series::Old => "old",
            Series::New => "new",
        }
    }

    fn value(self, p: &ChartPoint) -> i32 {
        match self {
            Series::Total => p.total,
            Series::Available => p.available,
            Series::Old => p.old,
            Series::New => p.new,
        }
    }
}

/// What the chart component draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// `points` of a polyline per series, in [`Series::ALL`] order.
    pub lines: Vec<(Series, String)>,
    /// The band's polygon.
    pub band: String,
    /// The band's top edge (replicas + maxSurge).
    pub upper: String,
    /// The band's bottom edge (replicas − maxUnavailable).
    pub lower: String,
    /// Y grid lines: (y, label).
    pub y_ticks: Vec<(f64, String)>,
    /// X ticks: (x, label).
    pub x_ticks: Vec<(f64, String)>,
    /// The plot's left, top, right, bottom.
    pub frame: (f64, f64, f64, f64),
}

/// A round step for the y axis: 1, 2, 5, 10, 20, 50 …
fn nice_step(max: f64, ticks: f64) -> f64 {
    let raw = (max / ticks).max(1.0);
    // The power of ten at or below `raw` (a loop: `powf` and `log10` would add libm's code).
    let mut mag = 1.0;
    while mag * 10.0 <= raw {
        mag *= 10.0;
    }
    for m in [1.0, 2.0, 5.0, 10.0] {
        if raw <= m * mag {
            return m * mag;
        }
    }
    10.0 * mag
}

/// `v.round()` as `{}` writes it (`-0` for a negative zero), without pulling float
/// formatting into the wasm. For pixel positions: finite and well under 2^53 in magnitude.
pub fn whole(v: f64) -> String {
    let r = v.round();
    if r == 0.0 && r.is_sign_negative() {
        "-0".to_string()
    } else {
        (r as i64).to_string()
    }
}

/// `v` with one decimal, without pulling float formatting into the wasm.
pub fn fmt(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let t = tenths.unsigned_abs();
    format!("{sign}{}.{}", t / 10, t % 10)
}

/// Seconds a round lasts, read from the points (1 when they do not say): the time between
/// two rounds over the rounds between them (rounds 3 and 5 at 10 s and 20 s: 5 s a round).
fn seconds_per_round(points: &[ChartPoint]) -> i64 {
    let per = |a: &ChartPoint, b: &ChartPoint| {
        let rounds = i64::from(b.round.saturating_sub(a.round));
        (rounds > 0).then(|| (b.time - a.time) / rounds)
    };
    match points {
        [.., a, b] => per(a, b),
        [b] if b.round > 0 => Some(b.time / i64::from(b.round)),
        _ => None,
    }
    .filter(|s| *s > 0)
    .unwrap_or(1)
}

/// Lays out `points` (one per completed round) over time, in seconds, from 0 to the end of
/// round `horizon` (or of the last point, when later).
pub fn geometry(points: &[ChartPoint], horizon: u32) -> Geometry {
    let per = seconds_per_round(points);
    let horizon_s = i64::from(horizon) * per;
    let last_end = points.last().map_or(0, |p| p.time + per);
    let x_max = horizon_s.max(last_end).max(2) as f64;
    let y_top = points
        .iter()
        .map(|p| p.upper.max(p.total).max(p.available))
        .max()
        .unwrap_or(1)
        .max(1);
    let step = nice_step(f64::from(y_top), 4.0);
    let y_max = (f64::from(y_top) / step).ceil() * step;
    let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
    let x = |t: i64| x0 + (x1 - x0) * t as f64 / x_max;
    let y = |v: i32| y0 - (y0 - y1) * f64::from(v.max(0)) / y_max;
    // Step-after lines: a value holds until the next round.
    let steps = |value: &dyn Fn(&ChartPoint) -> i32| -> Vec<(f64, f64)> {
        let mut out = Vec::with_capacity(points.len() * 2);
        for (i, p) in points.iter().enumerate() {
            let v = y(value(p));
            if i > 0 {
                out.push((x(p.time), out.last().map_or(v, |l: &(f64, f64)| l.1)));
            }
            out.push((x(p.time), v));
        }
        // The last round's value holds for a round too, so a single point is a visible line.
        if let Some(last) = points.last() {
            out.push((x(last.time + per), y(value(last))));
        }
        out
    };
    let join = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|(a, b)| format!("{},{}", fmt(*a), fmt(*b)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let lines = Series::ALL
        .iter()
        .map(|s| (*s, join(&steps(&|p| s.value(p)))))
        .collect();
    let upper_pts = steps(&|p| p.upper);
    let lower_pts = steps(&|p| p.lower.max(0));
    let mut band_pts = upper_pts.clone();
    band_pts.extend(lower_pts.iter().rev());
    let mut y_ticks = Vec::new();
    let mut v = 0.0;
    while v <= y_max + 0.5 {
        y_ticks.push((y0 - (y0 - y1) * v / y_max, (v.round() as i64).to_string()));
        v += step;
    }
    // Seconds at round values (10, 20, 50 …), or whole minutes past ten of them.
    let x_step = if x_max > 600.0 {
        nice_step(x_max / 60.0, 6.0) as i64 * 60
    } else {
        nice_step(x_max, 6.0) as i64
    };
    let x_ticks = (0..=x_max as i64)
        .step_by(x_step.max(1) as usize)
        .map(|t| (x(t), tick_label(t, x_max)))
        .collect();
    Geometry {
        lines,
        band: join(&band_pts),
        upper: join(&upper_pts),
        lower: join(&lower_pts),
        y_ticks,
        x_ticks,
        frame: (x0, y1, x1, y0),
    }
}

/// An x tick: seconds (`30`), or `m:ss` on a chart longer than ten minutes.
fn tick_label(t: i64, x_max: f64) -> String {
    if x_max > 600.0 {
        m_ss(t)
    } else {
        t.to_string()
    }
}

/// The x axis's title.
pub fn x_title(points: &[ChartPoint], horizon: u32) -> &'static str {
    let per = seconds_per_round(points);
    let end = (i64::from(horizon) * per).max(points.last().map_or(0, |p| p.time + per));
    if end > 600 {
        "time (m:ss)"
    } else {
        "seconds"
    }
}

/// Seconds as `m:ss` (`0:05`, `1:35`, `12:00`), or `h:mm:ss` from an hour on.
pub fn m_ss(seconds: i64) -> String {
    let s = seconds.max(0);
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_writes_what_display_writes_for_a_rounded_pixel() {
        let mut values = vec![
            0.0,
            -0.0,
            -0.4,
            -0.5,
            -0.6,
            0.5,
            1.5,
            2.5,
            -2.5,
            -1.5,
            1e15 + 0.5,
        ];
        for i in -40_000..40_000 {
            values.push(f64::from(i) * 0.25);
            values.push(f64::from(i) * 0.1 + 0.05);
            values.push(f64::from(i) * 1234.567);
        }
        for v in values {
            assert_eq!(whole(v), format!("{}", v.round()), "{v}");
        }
    }

    #[test]
    fn nice_steps_are_one_two_five_times_a_power_of_ten() {
        let cases = [
            (3.0, 4.0, 1.0),
            (10.0, 4.0, 5.0),
            (37.0, 4.0, 10.0),
            (100.0, 4.0, 50.0),
            (999.0, 4.0, 500.0),
            (10_000.0, 4.0, 5_000.0),
            (12_500.0, 6.0, 5_000.0),
            (60.0, 6.0, 10.0),
        ];
        for (max, ticks, want) in cases {
            assert_eq!(nice_step(max, ticks), want, "{max} / {ticks}");
        }
    }

    fn p(round: u32, old: i32, new: i32) -> ChartPoint {
        ChartPoint {
            round,
            time: i64::from(round) * 5,
            old,
            new,
            available: old + new,
            total: old + new,
            upper: 4,
            lower: 3,
        }
    }

    #[test]
    fn lines_step_after_each_round() {
        let g = geometry(&[p(0, 3, 0), p(1, 2, 1)], 3);
        let (s, old) = &g.lines[2];
        assert_eq!(*s, Series::Old);
        // 3 at round 0, held until round 1, then 2.
        let pts: Vec<&str> = old.split(' ').collect();
        assert_eq!(pts.len(), 4);
        assert_eq!(pts[0].split(',').nth(1), pts[1].split(',').nth(1));
        assert_ne!(pts[1].split(',').nth(1), pts[2].split(',').nth(1));
        assert_eq!(g.frame, (36.0, 12.0, 430.0, 196.0));
        assert_eq!(g.y_ticks.first().unwrap().1, "0");
        assert_eq!(g.y_ticks.last().unwrap().1, "4");
    }

    #[test]
    fn the_x_axis_is_time_in_seconds() {
        // 5 s rounds, 30 of them: 150 s, ticks every 50 s.
        let g = geometry(&[p(0, 3, 0), p(1, 2, 1)], 30);
        let labels: Vec<&str> = g.x_ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, vec!["0", "50", "100", "150"]);
        assert_eq!(x_title(&[p(0, 3, 0), p(1, 2, 1)], 30), "seconds");
        // 200 rounds of 5 s: 1,000 s, ticks every 5 minutes.
        let g = geometry(&[p(0, 3, 0), p(1, 2, 1)], 200);
        assert_eq!(g.x_ticks[1].1, "5:00");
        assert_eq!(x_title(&[p(0, 3, 0), p(1, 2, 1)], 200), "time (m:ss)");
    }

    #[test]
    fn numbers_have_one_decimal() {
        assert_eq!(fmt(0.0), "0.0");
        assert_eq!(fmt(12.345), "12.3");
        assert_eq!(fmt(-1.26), "-1.3");
        assert_eq!(fmt(430.0), "430.0");
    }

    #[test]
    fn an_empty_chart_has_axes() {
        let g = geometry(&[], 30);
        assert!(g.lines.iter().all(|(_, l)| l.is_empty()));
        assert_eq!(g.x_ticks.first().unwrap().1, "0");
        assert!(!g.y_ticks.is_empty());
    }

    #[test]
    fn big_numbers_get_round_ticks() {
        let mut pt = p(0, 10_000, 0);
        pt.upper = 12_500;
        let g = geometry(&[pt], 40);
        let labels: Vec<&str> = g.y_ticks.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, vec!["0", "5000", "10000", "15000"]);
    }
}
