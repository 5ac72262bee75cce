//! The Plan page's line chart: a figure of the forecast against one swept setting (replicas or
//! minReadySeconds), as SVG markup; a rollout that never completes breaks the line with `∞`.

use super::heat_map::Figure;
use rollout_facade::plan::sweep::SweepRow;

/// The line chart of `figure` against the swept axis, as SVG markup.
pub fn line_chart(rows: &[SweepRow], figure: Figure, axis: &str, current: Option<i32>) -> String {
    use crate::chart::fmt;
    use std::fmt::Write;
    let pts: Vec<(i64, Option<i64>)> = rows
        .iter()
        .map(|r| {
            let x = match axis {
                "minReadySeconds" => r.settings.min_ready_seconds,
                _ => r.settings.replicas,
            }
            .unwrap_or(0);
            (i64::from(x), figure.value(r))
        })
        .collect();
    // The viewBox below is `0 0 w h`, written out: `{w}` would link float formatting.
    let (w, h, l, r, t, b) = (440.0, 200.0, 44.0, 12.0, 12.0, 34.0);
    let x_max = pts.iter().map(|p| p.0).max().unwrap_or(1).max(1) as f64;
    let x_min = pts.iter().map(|p| p.0).min().unwrap_or(0) as f64;
    let y_top = pts.iter().filter_map(|p| p.1).max().unwrap_or(1).max(1) as f64;
    let step = {
        let raw = (y_top / 4.0).max(1.0);
        let mut mag = 1.0;
        while mag * 10.0 <= raw {
            mag *= 10.0;
        }
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * mag)
            .find(|s| raw <= *s)
            .unwrap_or(10.0 * mag)
    };
    let y_max = (y_top / step).ceil() * step;
    let span = (x_max - x_min).max(1.0);
    let xp = |x: i64| fmt(l + (w - l - r) * (x as f64 - x_min) / span);
    let yp = |y: i64| fmt((h - b) - (h - b - t) * y as f64 / y_max);
    let label = if axis == "minReadySeconds" {
        "minReadySeconds"
    } else {
        "replicas"
    };
    let (x0, x1, y0) = (fmt(l), fmt(w - r), fmt(h - b));
    let mut out = format!(
        r#"<svg class="chart-svg plan-line" viewBox="0 0 440 200" role="img" data-testid="sweep-line" aria-label="{} against {label}">"#,
        figure.label()
    );
    let mut v = 0.0;
    while v <= y_max + 0.5 {
        let y = yp(v as i64);
        let _ = write!(
            out,
            r#"<g class="grid"><line x1="{x0}" x2="{x1}" y1="{y}" y2="{y}"/><text x="{}" y="{}" text-anchor="end">{}</text></g>"#,
            fmt(l - 6.0),
            fmt((h - b) - (h - b - t) * v / y_max + 4.0),
            v as i64
        );
        v += step;
    }
    for p in pts.iter().step_by((pts.len() / 6).max(1)) {
        let _ = write!(
            out,
            r#"<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            xp(p.0),
            fmt(h - b + 16.0),
            p.0
        );
    }
    let _ = write!(
        out,
        r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">{label}</text><line class="axis" x1="{x0}" x2="{x1}" y1="{y0}" y2="{y0}"/>"#,
        fmt((l + w - r) / 2.0),
        fmt(h - 4.0)
    );
    if let Some(c) = current {
        let x = xp(i64::from(c));
        let _ = write!(
            out,
            r#"<line class="plan-line-current" x1="{x}" x2="{x}" y1="{}" y2="{y0}"/>"#,
            fmt(t)
        );
    }
    // Runs of points with a value (a rollout that never completes breaks the line).
    for run in pts.split(|p| p.1.is_none()).filter(|r| !r.is_empty()) {
        let points: Vec<String> = run
            .iter()
            .map(|(x, y)| format!("{},{}", xp(*x), yp(y.unwrap_or(0))))
            .collect();
        let _ = write!(
            out,
            r#"<polyline class="series series-new" points="{}"/>"#,
            points.join(" ")
        );
    }
    for (x, y) in &pts {
        let _ = match y {
            Some(y) => write!(
                out,
                r#"<circle class="plan-point" cx="{}" cy="{}" r="3" data-testid="line-point" data-x="{x}" data-value="{y}"><title>{label} {x}: {y}</title></circle>"#,
                xp(*x),
                yp(*y)
            ),
            None => write!(
                out,
                r#"<text class="plan-never" x="{}" y="{}" text-anchor="middle" data-testid="line-point" data-x="{x}" data-value="null">∞<title>{label} {x}: never completes</title></text>"#,
                xp(*x),
                fmt(t + 10.0)
            ),
        };
    }
    out.push_str("</svg>");
    out
}
