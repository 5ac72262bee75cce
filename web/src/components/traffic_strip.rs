//! The strip under the stage: the Service's requests a second over the whole run, served
//! (green, from the bottom) and failed (red, above them) as shares of the load, with the
//! clock's place on it; the totals in words beside it, and the second on the clock said as
//! live text. Every figure is the core's (`rollout_facade::traffic`).

use crate::state::traffic::TrafficFrame;
use rollout_facade::limits::group;
use rollout_facade::traffic::TrafficTotals;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`TrafficStrip`].
#[derive(Properties, PartialEq, Clone)]
pub struct TrafficStripProps {
    /// The run and the second on the clock.
    pub traffic: Rc<TrafficFrame>,
}

/// The strip's height in its own units (the SVG stretches to the element).
const HEIGHT: f64 = 100.0;

/// A fraction as a whole percentage (`0.75` → `75 %`).
fn percent(f: f64) -> String {
    format!("{} %", (f * 100.0).round() as i64)
}

/// The failed requests of `t` by reason, in words (`30 with no ready endpoint, 40 sent to a
/// pod not answering`), or `none`.
pub fn failed_words(t: &TrafficTotals) -> String {
    let parts: Vec<String> = [
        (t.failed_no_endpoint, "with no ready endpoint"),
        (t.failed_not_answering, "sent to a pod not answering"),
        (t.failed_over_capacity, "over a pod's capacity"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{} {why}", group(*n as i64)))
    .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The whole run in one sentence (the strip's label and its visible summary).
pub fn run_words(t: &TrafficTotals) -> String {
    let lowest = match t.lowest_at {
        Some(at) if t.failed > 0 => format!(
            "; at worst {} of the load served, at {at} s",
            percent(t.lowest_served_fraction)
        ),
        _ => String::new(),
    };
    format!(
        "{} requests over {} s: {} failed ({}){lowest}",
        group(t.sent as i64),
        t.to - t.from,
        group(t.failed as i64),
        failed_words(t)
    )
}

/// The strip.
#[function_component(TrafficStrip)]
pub fn traffic_strip(props: &TrafficStripProps) -> Html {
    let t = &props.traffic;
    let end = t.end.max(1) as f64;
    let load = f64::from(t.model.load.max(1));
    let x = |s: i64| s as f64 / end * 1000.0;
    let rects: Html = t
        .spans
        .iter()
        .filter(|s| s.figures.load > 0)
        .map(|s| {
            let (x0, w) = (x(s.from), x(s.to) - x(s.from));
            let served = f64::from(s.figures.served) / load * HEIGHT;
            let failed = f64::from(s.figures.failed()) / load * HEIGHT;
            let fmt = crate::chart::fmt;
            html! {
                <>
                    <rect class="strip-served" x={fmt(x0)} y={fmt(HEIGHT - served)} width={fmt(w)} height={fmt(served)} />
                    if failed > 0.0 {
                        <rect class="strip-failed" x={fmt(x0)} y={fmt(HEIGHT - served - failed)} width={fmt(w)} height={fmt(failed)} />
                    }
                </>
            }
        })
        .collect();
    let now = t.now.clamp(0, t.end);
    let clock = format!("left: {}%", crate::chart::fmt(now as f64 / end * 100.0));
    let f = &t.second.figures;
    let now_words = if t.now < 0 {
        "Nothing has run yet.".to_string()
    } else if f.failed() > 0 {
        format!(
            "Second {}: {} of {} requests served, {} failed.",
            t.now,
            group(i64::from(f.served)),
            group(i64::from(f.load)),
            group(i64::from(f.failed()))
        )
    } else {
        format!(
            "Second {}: all {} requests served.",
            t.now,
            group(i64::from(f.load))
        )
    };
    let summary = run_words(&t.totals);
    html! {
        <section class="traffic-strip" data-testid="traffic-strip" aria-label="Requests a second over the run"
            data-failed={t.totals.failed.to_string()} data-sent={t.totals.sent.to_string()}
            data-failed-so-far={t.so_far.failed.to_string()}
            data-lowest={crate::chart::fmt(t.totals.lowest_served_fraction * 100.0)}>
            <div class="strip-head">
                <span class="strip-title">{ "Requests a second" }</span>
                <span class="strip-legend" aria-hidden="true">
                    <span class="strip-key strip-key-served">{ "served" }</span>
                    <span class="strip-key strip-key-failed">{ "failed" }</span>
                </span>
                <span class="strip-so-far" data-testid="traffic-so-far">
                    { format!("failed so far: {}", group(t.so_far.failed as i64)) }
                </span>
            </div>
            <div class="strip-plot">
                <svg class="strip-svg" viewBox={format!("0 0 1000 {HEIGHT}")} preserveAspectRatio="none"
                    role="img" aria-label={summary.clone()}>
                    { rects }
                </svg>
                <span class="strip-clock" style={clock} aria-hidden="true" />
            </div>
            <div class="strip-scale" aria-hidden="true"><span>{ "0 s" }</span><span>{ format!("{} s", t.end) }</span></div>
            <p class="strip-now" data-testid="traffic-now" aria-live="polite">{ now_words }</p>
            <p class="strip-summary" data-testid="traffic-summary">{ summary }</p>
        </section>
    }
}
