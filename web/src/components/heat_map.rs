//! The Plan page's heat map: one cell per maxSurge × maxUnavailable combination of a sweep,
//! coloured by the chosen figure, each showing its duration and its peak pods. Cells that
//! break a constraint (`rollout_facade::plan::constraints`) are greyed, the fastest of the rest
//! is starred; a click loads the cell into the manifest, hovering or focusing reads it out.

use rollout_facade::api::IntOrString;
use rollout_facade::plan::constraints::Constraints;
use rollout_facade::plan::sweep::SweepRow;
use rollout_facade::plan::Forecast;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A figure the sweeps are coloured and charted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// `durationSeconds` (lower is better; never completing is worst).
    Duration,
    /// `peakPods` (lower is better: capacity).
    Peak,
    /// `minAvailable` (higher is better).
    MinAvailable,
    /// `ifItFails.capacityLost`: the replicas lost if the new version fails as the Plan page's
    /// failure says (lower is better; nothing without a failure).
    LostIfFails,
    /// `failedRequests`: the requests a Service in front of it fails over the rollout, under
    /// the plan's traffic assumptions (`plan::traffic`; lower is better).
    FailedRequests,
}

impl Figure {
    /// All, in menu order.
    pub const ALL: [Figure; 5] = [
        Figure::Duration,
        Figure::Peak,
        Figure::MinAvailable,
        Figure::LostIfFails,
        Figure::FailedRequests,
    ];

    /// The `<select>` value.
    pub fn key(self) -> &'static str {
        match self {
            Figure::Duration => "duration",
            Figure::Peak => "peak",
            Figure::MinAvailable => "min-available",
            Figure::LostIfFails => "lost-if-fails",
            Figure::FailedRequests => "failed-requests",
        }
    }

    /// Menu text.
    pub fn label(self) -> &'static str {
        match self {
            Figure::Duration => "Duration (s)",
            Figure::Peak => "Peak pods",
            Figure::MinAvailable => "Lowest availability",
            Figure::LostIfFails => "Lost if it fails",
            Figure::FailedRequests => "Failed requests",
        }
    }

    /// The figure of a `<select>` value.
    pub fn of_key(key: &str) -> Figure {
        Figure::ALL
            .into_iter()
            .find(|f| f.key() == key)
            .unwrap_or(Figure::Duration)
    }

    /// The figure of a sweep's row (`None`: refused, the rollout never completes, or
    /// nothing to say, such as the loss if it fails when no failure was given).
    pub fn value(self, row: &SweepRow) -> Option<i64> {
        let f = row.forecast.as_ref()?;
        match self {
            Figure::Duration => f.duration_seconds,
            Figure::Peak => Some(i64::from(f.peak_pods)),
            Figure::MinAvailable => f.min_available.map(i64::from),
            Figure::LostIfFails => row.if_it_fails.as_ref().map(|x| i64::from(x.capacity_lost)),
            Figure::FailedRequests => row.failed_requests.map(|n| n as i64),
        }
    }

    /// Whether a larger value is better.
    fn higher_is_better(self) -> bool {
        self == Figure::MinAvailable
    }
}

/// 0 for the best value of a sweep, 1 for the worst: 10 replicas, durations 60 s … 300 s,
/// a cell of 120 s is (120 − 60) / 240 = 0.25.
pub fn badness(figure: Figure, value: i64, (low, high): (i64, i64)) -> f64 {
    if high <= low {
        return 0.0;
    }
    let t = (value - low) as f64 / (high - low) as f64;
    if figure.higher_is_better() {
        1.0 - t
    } else {
        t
    }
}

/// The least and greatest value of `figure` over the rows.
pub fn value_range(rows: &[SweepRow], figure: Figure) -> Option<(i64, i64)> {
    let values = rows.iter().filter_map(|r| figure.value(r));
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((a, b)) => Some((a.min(v), b.max(v))),
    })
}

/// `text` for HTML text and attribute values.
pub fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A count of a sweep's settings (the heat map's axes are counts).
pub fn int_of(v: &Option<IntOrString>) -> Option<i32> {
    match v {
        Some(IntOrString::Int(n)) => Some(*n),
        _ => None,
    }
}

/// A duration as a cell shows it: `40s`, `∞` for a rollout that never completes.
fn short_duration(f: &Forecast) -> String {
    f.duration_seconds.map_or("∞".into(), |s| format!("{s}s"))
}

/// What a cell says when read out: `maxSurge 2, maxUnavailable 1: 40 s, peak 12 pods, lowest
/// availability 9`, with the limits it breaks.
fn describe(su: i32, un: i32, row: &SweepRow, constraints: &Constraints, fastest: bool) -> String {
    let mut t = match (&row.forecast, &row.refused) {
        (_, Some(why)) => return format!("maxSurge {su}, maxUnavailable {un}: refused: {why}"),
        (Some(f), _) => format!(
            "maxSurge {su}, maxUnavailable {un}: {}, peak {} pods, lowest availability {}",
            f.duration_seconds
                .map_or("never completes".into(), |s| format!("{s} s")),
            f.peak_pods,
            f.min_available.map_or("—".into(), |n| n.to_string())
        ),
        _ => String::new(),
    };
    if let Some(x) = &row.if_it_fails {
        t.push_str(&format!(
            "; if it fails ({}): {} of {} lost for {} s",
            x.failure, x.capacity_lost, x.replicas, x.lowest_seconds
        ));
    }
    if let Some(f) = &row.forecast {
        let broken: Vec<String> = constraints
            .broken(f)
            .iter()
            .map(|l| l.describe(constraints))
            .collect();
        if !broken.is_empty() {
            t.push_str(&format!("; breaks {}", broken.join(", ")));
        }
    }
    if fastest {
        t.push_str("; the fastest within the limits");
    }
    t
}

/// The heat map's cells as markup (a grid of up to 441 buttons is written as text rather
/// than built element by element: smaller code, and clicks, hovers and focus are handled once
/// on the grid). Rows are maxUnavailable (0 at the top), columns maxSurge; rows come from the
/// sweep in maxSurge-major order.
pub fn heat_cells(
    rows: &[SweepRow],
    figure: Figure,
    size: i32,
    current: Option<(i32, i32)>,
    constraints: &Constraints,
) -> String {
    use std::fmt::Write;
    let range = value_range(rows, figure);
    let fastest = constraints.fastest(rows);
    let n = (size + 1) as usize;
    let mut out = String::from(r#"<div class="heat-corner" aria-hidden="true">U \ S</div>"#);
    for s in 0..n {
        let _ = write!(
            out,
            r#"<div class="heat-head" aria-hidden="true">{s}</div>"#
        );
    }
    for u in 0..n {
        let _ = write!(
            out,
            r#"<div class="heat-head" aria-hidden="true">{u}</div>"#
        );
        for (i, row) in (0..n).filter_map(|s| Some((s * n + u, rows.get(s * n + u)?))) {
            let su = int_of(&row.settings.max_surge).unwrap_or(0);
            let un = int_of(&row.settings.max_unavailable).unwrap_or(0);
            let value = figure.value(row);
            let is_fastest = fastest == Some(i);
            let breaks = row
                .forecast
                .as_ref()
                .is_some_and(|f| !constraints.broken(f).is_empty());
            let (class, style, text) = match (&row.forecast, value, range) {
                (None, _, _) => (" refused", String::new(), "×".to_string()),
                (Some(f), v, r) => (
                    if v.is_none() { " never" } else { "" },
                    match (v, r) {
                        (Some(v), Some(r)) => {
                            format!("--t:{}", crate::chart::fmt(badness(figure, v, r)))
                        }
                        _ => String::new(),
                    },
                    format!(
                        r#"<span class="cell-d">{}</span> <span class="cell-p">{}</span>"#,
                        short_duration(f),
                        f.peak_pods
                    ),
                ),
            };
            let title = esc(&describe(su, un, row, constraints, is_fastest));
            let is_current = current == Some((su, un));
            let _ = write!(
                out,
                r#"<button type="button" class="sweep-cell{class}{}{}{}" style="{style}" title="{title}" data-testid="sweep-cell" data-max-surge="{su}" data-max-unavailable="{un}" data-value="{}"{}{}{}{}>{text}</button>"#,
                if is_current { " is-current" } else { "" },
                if breaks { " breaks" } else { "" },
                if is_fastest { " fastest" } else { "" },
                value.map_or("null".to_string(), |v| v.to_string()),
                if is_current {
                    r#" aria-current="true""#
                } else {
                    ""
                },
                if breaks { r#" data-breaks="true""# } else { "" },
                if is_fastest {
                    r#" data-fastest="true""#
                } else {
                    ""
                },
                if row.refused.is_some() {
                    r#" data-refused="true" disabled"#
                } else {
                    ""
                },
            );
        }
    }
    out
}

/// The sweep cell an event happened in: its maxSurge, maxUnavailable and description.
fn cell_of(e: &Event) -> Option<(i32, i32, String)> {
    let el = e
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-testid=sweep-cell]")
        .ok()??;
    let num = |k: &str| el.get_attribute(k)?.parse::<i32>().ok();
    Some((
        num("data-max-surge")?,
        num("data-max-unavailable")?,
        el.get_attribute("title").unwrap_or_default(),
    ))
}

/// Props of [`HeatMap`].
#[derive(Properties, PartialEq, Clone)]
pub struct HeatMapProps {
    /// The sweep's rows, maxSurge-major.
    pub rows: Rc<Vec<SweepRow>>,
    /// The figure the cells are coloured by.
    pub figure: Figure,
    /// The largest maxSurge and maxUnavailable.
    pub size: i32,
    /// The manifest's own cell, outlined.
    pub current: Option<(i32, i32)>,
    /// The limits the cells are judged by.
    pub constraints: Constraints,
    /// A cell clicked: its maxSurge and maxUnavailable.
    pub on_pick: Callback<(i32, i32)>,
}

/// The heat map with its read-out and legend.
#[function_component(HeatMap)]
pub fn heat_map(props: &HeatMapProps) -> Html {
    let readout = use_state(|| None::<String>);
    // Written again only when its rows, figure, marked cell or limits change, not on every
    // keystroke in the manifest (441 cells at 21 × 21).
    let map = use_memo(
        (
            props.rows.clone(),
            props.figure,
            props.size,
            props.current,
            props.constraints,
        ),
        |(rows, fig, size, current, c)| AttrValue::from(heat_cells(rows, *fig, *size, *current, c)),
    );
    let read = {
        let readout = readout.clone();
        move |e: &Event| {
            if let Some((_, _, t)) = cell_of(e) {
                readout.set(Some(t));
            }
        }
    };
    let on_click = {
        let pick = props.on_pick.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((su, un, _)) = cell_of(&e) {
                pick.emit((su, un));
            }
        })
    };
    let on_over = {
        let read = read.clone();
        Callback::from(move |e: MouseEvent| read(&e))
    };
    let on_focus = Callback::from(move |e: FocusEvent| read(&e));
    let label = props.figure.label();
    let fastest = props
        .constraints
        .fastest(&props.rows)
        .and_then(|i| props.rows.get(i));
    html! {
        <figure class="plan-figure-box">
            <figcaption class="panel-sub">{ format!("maxSurge → across, maxUnavailable ↓ down; each cell: duration over peak pods. Click one to load it.") }</figcaption>
            <div class="sweep-heatmap" data-testid="sweep-heatmap" role="group" style={format!("--n:{}", props.size + 1)}
                aria-label={format!("{label} by maxSurge (across) and maxUnavailable (down)")}
                onclick={on_click} onmouseover={on_over} onfocusin={on_focus}>
                { Html::from_html_unchecked((*map).clone()) }
            </div>
            <p class="panel-sub heat-readout" data-testid="sweep-readout" aria-live="polite">{
                (*readout).clone().unwrap_or_else(|| "Hover over or focus a cell to read it.".into())
            }</p>
            if props.constraints.any() {
                <p class="panel-sub" data-testid="sweep-fastest">{ match fastest {
                    Some(r) => format!("Fastest within the limits (starred): maxSurge {}, maxUnavailable {}.",
                        int_of(&r.settings.max_surge).unwrap_or(0), int_of(&r.settings.max_unavailable).unwrap_or(0)),
                    None => "No combination keeps every limit.".to_string(),
                } }</p>
            }
            <p class="heat-legend panel-sub" aria-hidden="true">
                <span class="heat-key"><span class="heat-swatch best" />{ "best" }</span>
                <span class="heat-key"><span class="heat-swatch worst" />{ "worst" }</span>
                <span class="heat-key"><span class="heat-swatch never">{ "∞" }</span>{ "never completes" }</span>
                <span class="heat-key"><span class="heat-swatch refused">{ "×" }</span>{ "refused by the API" }</span>
                if props.constraints.any() {
                    <span class="heat-key"><span class="heat-swatch breaks" />{ "breaks a limit" }</span>
                    <span class="heat-key"><span class="heat-swatch fastest">{ "★" }</span>{ "fastest within the limits" }</span>
                }
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn badness_runs_from_the_best_to_the_worst() {
        assert_eq!(badness(Figure::Duration, 120, (60, 300)), 0.25);
        assert_eq!(badness(Figure::MinAvailable, 10, (0, 10)), 0.0);
        assert_eq!(badness(Figure::Peak, 5, (5, 5)), 0.0);
        // Fewer failed requests are better: none is the best cell, 70 of 0 … 70 the worst.
        assert_eq!(badness(Figure::FailedRequests, 0, (0, 70)), 0.0);
        assert_eq!(badness(Figure::FailedRequests, 70, (0, 70)), 1.0);
        assert_eq!(Figure::of_key("failed-requests"), Figure::FailedRequests);
    }
}
