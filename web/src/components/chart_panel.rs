//! Pod counts over time (old, new, available, total) inside the rolling-update band, drawn by
//! Yew as SVG, with a text summary and a data table for screen readers.

use crate::chart::{fmt, geometry, x_title, Series, HEIGHT, WIDTH};
use crate::components::clock::m_ss;
use rollout_facade::view::ChartPoint;
use yew::prelude::*;

/// What [`chart_panel`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct ChartPanelProps {
    /// One point per completed round.
    pub points: Vec<ChartPoint>,
    /// The scenario's rounds.
    pub horizon: u32,
    /// Whether the strategy has a band (RollingUpdate).
    pub band: bool,
    /// The level of its heading (2: a `<section>` region with an `<h2>`); 0 for neither, as
    /// inside a `<rollout-lab>`, whose panels must not join the host page's outline or add
    /// regions of the same name beside another lab's ([`panel_tags`]).
    pub heading: u8,
}

/// The container and title tags of a panel whose heading is at `level`: `<section>` (a region,
/// named by its title) and `<hN>`, or for level 0 a plain `<div>` and `<p>`.
pub fn panel_tags(level: u8) -> (&'static str, &'static str) {
    match level {
        0 => ("div", "p"),
        1 => ("section", "h1"),
        2 => ("section", "h2"),
        3 => ("section", "h3"),
        4 => ("section", "h4"),
        5 => ("section", "h5"),
        _ => ("section", "h6"),
    }
}

/// The chart.
pub fn chart_panel(props: &ChartPanelProps) -> Html {
    let g = geometry(&props.points, props.horizon);
    let (x0, y0, x1, y1) = g.frame;
    let summary = match props.points.last() {
        Some(p) => format!(
            "At {} (round {}): {} old, {} new, {} available, {} pods in total; the band allows {} to {}.",
            m_ss(p.time), p.round, p.old, p.new, p.available, p.total, p.lower.max(0), p.upper
        ),
        None => "No round has finished yet.".to_string(),
    };
    let (panel, title) = panel_tags(props.heading);
    html! {
        <@{panel} class="panel chart" aria-labelledby="chart-title">
            <div class="panel-head">
                <@{title} class="panel-title" id="chart-title">{ "Pods over time" }</@>
                <ul class="chart-legend" aria-hidden="true">
                    { for Series::ALL.iter().map(|s| html! {
                        <li><svg viewBox="0 0 24 8" class="legend-line"><line x1="0" y1="4" x2="24" y2="4" class={classes!("series", format!("series-{}", s.key()))} /></svg>{ s.label() }</li>
                    }) }
                    if props.band {
                        <li><span class="legend-band" />{ "replicas + maxSurge … replicas − maxUnavailable" }</li>
                    }
                </ul>
            </div>
            <figure class="chart-figure">
                <svg class="chart-svg" viewBox={format!("0 0 {} {}", WIDTH as i64, HEIGHT as i64)} role="img"
                    aria-labelledby="chart-title chart-summary" data-testid="chart">
                    <defs>
                        <pattern id="band-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                            <line x1="0" y1="0" x2="0" y2="6" class="hatch" />
                        </pattern>
                    </defs>
                    { for g.y_ticks.iter().map(|(y, label)| html! {
                        <g class="grid">
                            <line x1={fmt(x0)} x2={fmt(x1)} y1={fmt(*y)} y2={fmt(*y)} />
                            <text x={fmt(x0 - 6.0)} y={fmt(y + 4.0)} text-anchor="end">{ label.clone() }</text>
                        </g>
                    }) }
                    { for g.x_ticks.iter().map(|(x, label)| html! {
                        <text class="axis-label" x={fmt(*x)} y={fmt(y1 + 16.0)} text-anchor="middle">{ label.clone() }</text>
                    }) }
                    <text class="axis-title" x={fmt((x0 + x1) / 2.0)} y={fmt(y1 + 28.0)} text-anchor="middle">{ x_title(&props.points, props.horizon) }</text>
                    <line class="axis" x1={fmt(x0)} x2={fmt(x1)} y1={fmt(y1)} y2={fmt(y1)} />
                    if props.band && !props.points.is_empty() {
                        <polygon class="band" points={g.band.clone()} data-testid="chart-band" />
                        <polyline class="band-edge band-upper" points={g.upper.clone()} />
                        <polyline class="band-edge band-lower" points={g.lower.clone()} />
                    }
                    { for g.lines.iter().map(|(s, pts)| html! {
                        <polyline class={classes!("series", format!("series-{}", s.key()))} points={pts.clone()}
                            data-series={s.key()} />
                    }) }
                    if props.points.is_empty() {
                        <text class="chart-empty" x={fmt((x0 + x1) / 2.0)} y={fmt((y0 + y1) / 2.0)} text-anchor="middle">
                            { "The chart fills in as rounds complete." }
                        </text>
                    }
                </svg>
                <figcaption id="chart-summary" class="chart-summary" data-testid="chart-summary">{ summary }</figcaption>
            </figure>
            if !props.points.is_empty() {
                <details class="chart-data">
                    <summary>{ "Data table" }</summary>
                    <div class="table-scroll">
                        <table class="kubectl-table">
                            <thead><tr>
                                <th scope="col">{ "Time" }</th><th scope="col">{ "Round" }</th><th scope="col">{ "Old" }</th><th scope="col">{ "New" }</th>
                                <th scope="col">{ "Available" }</th><th scope="col">{ "Total" }</th>
                                <th scope="col">{ "Lower" }</th><th scope="col">{ "Upper" }</th>
                            </tr></thead>
                            <tbody>
                                { for props.points.iter().rev().take(60).map(|p| html! {
                                    <tr><td>{ m_ss(p.time) }</td><td>{ p.round }</td><td>{ p.old }</td><td>{ p.new }</td><td>{ p.available }</td>
                                        <td>{ p.total }</td><td>{ p.lower }</td><td>{ p.upper }</td></tr>
                                }) }
                            </tbody>
                        </table>
                    </div>
                </details>
            }
        </@>
    }
}
