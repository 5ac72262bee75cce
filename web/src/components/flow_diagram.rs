//! The decision flow of `syncDeployment` or `syncReplicaSet` as an SVG flowchart: boxes for
//! steps, diamonds for questions, the path this step took drawn solid and numbered, the rest
//! dashed and dimmed. Under it, the same path as text with each branch's live values.
//!
//! Geometry is computed here from the core's grid (`FlowNode::row` / `col`); edges are routed
//! orthogonally around the boxes.

// Coordinates are written with `chart::fmt` (one decimal, no float formatting machinery).
use crate::chart::fmt;
use rollout_facade::flow::{Flow, FlowEdge, FlowNode, NodeKind};
use rollout_facade::ui_support::source_of;
use std::rc::Rc;
use yew::prelude::*;

/// What [`flow_diagram`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct FlowDiagramProps {
    /// The diagram of one controller step (`rollout_facade::flow::flow_of`).
    pub flow: Rc<Flow>,
}

/// Width of a grid column (viewBox units).
const COL_W: f64 = 244.0;
/// Height of a grid row.
const ROW_H: f64 = 100.0;
/// Room on the left for the bypass lane and its label.
const MARGIN_L: f64 = 56.0;
/// Room on the right of the last column.
const MARGIN_R: f64 = 20.0;
/// Room above the first row and below the last.
const MARGIN_Y: f64 = 14.0;
/// A step's box.
const BOX_W: f64 = 196.0;
const BOX_H: f64 = 52.0;
/// A decision's diamond.
const DIAMOND_W: f64 = 220.0;
const DIAMOND_H: f64 = 76.0;
/// Font size of node labels.
const FONT: f64 = 17.0;
/// Corner radius of edge bends.
const BEND: f64 = 8.0;

type Point = (f64, f64);

fn center(n: &FlowNode) -> Point {
    (
        MARGIN_L + f64::from(n.col) * COL_W + COL_W / 2.0,
        MARGIN_Y + f64::from(n.row) * ROW_H + ROW_H / 2.0,
    )
}

fn half(n: &FlowNode) -> (f64, f64) {
    match n.kind {
        NodeKind::Step => (BOX_W / 2.0, BOX_H / 2.0),
        NodeKind::Decision => (DIAMOND_W / 2.0, DIAMOND_H / 2.0),
    }
}

fn top(n: &FlowNode) -> Point {
    let (x, y) = center(n);
    (x, y - half(n).1)
}
fn bottom(n: &FlowNode) -> Point {
    let (x, y) = center(n);
    (x, y + half(n).1)
}
fn left(n: &FlowNode) -> Point {
    let (x, y) = center(n);
    (x - half(n).0, y)
}
fn right(n: &FlowNode) -> Point {
    let (x, y) = center(n);
    (x + half(n).0, y)
}

/// The x of the centre of column `col`.
fn col_x(col: u8) -> f64 {
    MARGIN_L + f64::from(col) * COL_W + COL_W / 2.0
}

/// Vertical lanes in the gap right of column `col`: the nearest one (0) first.
fn lane(col: u8, k: u8) -> f64 {
    col_x(col) + DIAMOND_W / 2.0 + 12.0 + f64::from(k) * 16.0
}

fn occupied(nodes: &[FlowNode], row: u8, col: u8) -> bool {
    nodes.iter().any(|n| n.row == row && n.col == col)
}

/// The polyline of an edge: orthogonal, leaving and entering the nodes at their sides.
fn route(from: &FlowNode, to: &FlowNode, nodes: &[FlowNode]) -> Vec<Point> {
    let (r1, c1, r2, c2) = (from.row, from.col, to.row, to.col);
    let (fx, fy) = center(from);
    let (tx, ty) = center(to);
    if c1 == c2 && r2 > r1 {
        if (r1 + 1..r2).any(|r| occupied(nodes, r, c1)) {
            // Something is in the way: bypass it in a lane on the outer side.
            if c1 == 0 {
                let x = MARGIN_L / 2.0;
                return vec![left(from), (x, fy), (x, ty), left(to)];
            }
            let x = lane(c1, 0);
            return vec![right(from), (x, fy), (x, ty), right(to)];
        }
        return vec![bottom(from), top(to)];
    }
    if r1 == r2 && c2 > c1 {
        if (c1 + 1..c2).any(|c| occupied(nodes, r1, c)) {
            // Over the top of what is in between, entering from above.
            let x = lane(c1, 0);
            let over = fy - ROW_H / 2.0;
            return vec![right(from), (x, fy), (x, over), (tx, over), top(to)];
        }
        return vec![right(from), left(to)];
    }
    if r2 > r1 && c2 > c1 {
        return vec![right(from), (tx, fy), top(to)];
    }
    if r2 > r1 && c2 < c1 {
        if (r1 + 1..=r2).any(|r| occupied(nodes, r, c1)) {
            let x = lane(c1, 0);
            return vec![right(from), (x, fy), (x, ty), right(to)];
        }
        return vec![bottom(from), (fx, ty), right(to)];
    }
    if r2 < r1 && c2 > c1 {
        // Upwards into the side of the target, below its middle, so it stays apart from
        // edges that leave at the target's height.
        let x = lane(c1, 1);
        let entry = ty + 12.0;
        return vec![right(from), (x, fy), (x, entry), (left(to).0, entry)];
    }
    // Anything else: round the left lane.
    let x = MARGIN_L / 2.0;
    vec![left(from), (x, fy), (x, ty), left(to)]
}

/// An SVG path through `points` with rounded bends.
fn path_d(points: &[Point]) -> String {
    let mut d = String::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        if i == 0 {
            d.push_str(&format!("M{} {}", fmt(x), fmt(y)));
            continue;
        }
        if i + 1 == points.len() {
            d.push_str(&format!(" L{} {}", fmt(x), fmt(y)));
            continue;
        }
        let (px, py) = points[i - 1];
        let (nx, ny) = points[i + 1];
        let r = BEND
            .min(((x - px).abs() + (y - py).abs()) / 2.0)
            .min(((nx - x).abs() + (ny - y).abs()) / 2.0);
        let toward = |(ax, ay): Point, len: f64| {
            let (dx, dy) = (ax - x, ay - y);
            let l = (dx * dx + dy * dy).sqrt().max(1e-9);
            (x + dx / l * len, y + dy / l * len)
        };
        let (ax, ay) = toward((px, py), r);
        let (bx, by) = toward((nx, ny), r);
        d.push_str(&format!(
            " L{} {} Q{} {} {} {}",
            fmt(ax),
            fmt(ay),
            fmt(x),
            fmt(y),
            fmt(bx),
            fmt(by)
        ));
    }
    d
}

/// The arrowhead at the end of `points`, pointing along the last segment.
fn arrowhead(points: &[Point]) -> String {
    let n = points.len();
    let (x, y) = points[n - 1];
    let (px, py) = points[n - 2];
    let (dx, dy) = (x - px, y - py);
    let l = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / l, dy / l);
    let (len, wid) = (11.0, 5.5);
    let (bx, by) = (x - ux * len, y - uy * len);
    format!(
        "{},{} {},{} {},{}",
        fmt(x),
        fmt(y),
        fmt(bx - uy * wid),
        fmt(by + ux * wid),
        fmt(bx + uy * wid),
        fmt(by - ux * wid)
    )
}

/// Where an edge's yes/no goes: beside the first segment long enough to hold it.
fn label_at(points: &[Point]) -> (f64, f64, &'static str) {
    let segment = points
        .windows(2)
        .find(|w| (w[1].0 - w[0].0).abs() + (w[1].1 - w[0].1).abs() >= 40.0)
        .unwrap_or(&points[..2]);
    let ((x, y), (nx, ny)) = (segment[0], segment[1]);
    if (ny - y).abs() > (nx - x).abs() {
        if ny > y {
            (x + 8.0, y + 18.0, "start")
        } else {
            (x - 6.0, y - 14.0, "end")
        }
    } else {
        // Above a long run; below a short one, where a badge on the target's corner could
        // be in the way.
        let short = (nx - x).abs() < 60.0;
        let dy = if short { 18.0 } else { -8.0 };
        if nx > x {
            (x + if short { 6.0 } else { 10.0 }, y + dy, "start")
        } else {
            (x - if short { 6.0 } else { 10.0 }, y + dy, "end")
        }
    }
}

/// A label in one or two lines, broken at the space nearest the middle.
fn wrap(label: &str, max: usize) -> Vec<&str> {
    if label.chars().count() <= max {
        return vec![label];
    }
    let mid = label.len() / 2;
    match label
        .match_indices(' ')
        .map(|(i, _)| i)
        .min_by_key(|i| i.abs_diff(mid))
    {
        Some(i) => vec![&label[..i], &label[i + 1..]],
        None => vec![label],
    }
}

fn node_shape(n: &FlowNode) -> Html {
    let (x, y) = center(n);
    let (hw, hh) = half(n);
    match n.kind {
        NodeKind::Step => html! {
            <rect class="fd-shape" x={fmt(x - hw)} y={fmt(y - hh)}
                width={fmt(BOX_W)} height={fmt(BOX_H)} rx="10" />
        },
        NodeKind::Decision => html! {
            <polygon class="fd-shape" points={format!("{},{} {},{} {},{} {},{}", fmt(x - hw), fmt(y), fmt(x), fmt(y - hh), fmt(x + hw), fmt(y), fmt(x), fmt(y + hh))} />
        },
    }
}

fn node_label(n: &FlowNode) -> Html {
    let (x, y) = center(n);
    let max = match n.kind {
        NodeKind::Step => 20,
        NodeKind::Decision => 15,
    };
    let lines = wrap(n.label, max);
    let first = y - (lines.len() as f64 - 1.0) * FONT * 0.6;
    html! {
        <text class="fd-label" x={fmt(x)} text-anchor="middle" dominant-baseline="central">
            { for lines.iter().enumerate().map(|(i, l)| html! {
                <tspan x={fmt(x)} y={fmt(first + i as f64 * FONT * 1.2)}>{ *l }</tspan>
            }) }
        </text>
    }
}

/// The little number that gives the order of the path.
fn badge(n: &FlowNode, number: usize) -> Html {
    let (x, y) = center(n);
    let (hw, hh) = half(n);
    // On the top-left corner of a box (clear of an edge entering its side), on the upper-left
    // side of a diamond (clear of its two-line label).
    let (bx, by) = match n.kind {
        NodeKind::Step => (x - hw + 14.0, y - hh),
        NodeKind::Decision => (x - hw * 0.72, y - hh * 0.5),
    };
    html! {
        <g class="fd-badge" aria-hidden="true">
            <circle cx={fmt(bx)} cy={fmt(by)} r="12" />
            <text x={fmt(bx)} y={fmt(by)} text-anchor="middle" dominant-baseline="central">
                { number }
            </text>
        </g>
    }
}

fn answer_word(answer: bool) -> &'static str {
    if answer {
        "yes"
    } else {
        "no"
    }
}

fn node_title(n: &FlowNode, replicaset: bool) -> String {
    let mut t = format!("{} — {}", n.label, n.function);
    if let Some(a) = n.answer {
        t.push_str(&format!(": {}", answer_word(a)));
    }
    if let Some(d) = &n.detail {
        t.push_str(&format!("\n{d}"));
    }
    if !n.active {
        t.push_str("\n(not on this step's path)");
    }
    if source_of(n.function, replicaset).is_some() {
        t.push_str("\nOpen the Kubernetes source");
    }
    t
}

fn edge_view(e: &FlowEdge, nodes: &[FlowNode]) -> Option<Html> {
    let from = nodes.iter().find(|n| n.id == e.from)?;
    let to = nodes.iter().find(|n| n.id == e.to)?;
    let points = route(from, to, nodes);
    let d = path_d(&points);
    let (lx, ly, anchor) = label_at(&points);
    Some(html! {
        <g
            class={classes!("fd-edge", if e.active { "fd-on" } else { "fd-off" })}
            data-from={e.from}
            data-to={e.to}
            data-active={if e.active { "true" } else { "false" }}
        >
            <path class="fd-halo" d={d.clone()} />
            <path class="fd-line" d={d} />
            <polygon class="fd-head" points={arrowhead(&points)} />
            if !e.label.is_empty() {
                <text class="fd-edge-label" x={fmt(lx)} y={fmt(ly)} text-anchor={anchor}>
                    { e.label }
                </text>
            }
        </g>
    })
}

/// The active nodes in the order the step went through them: along the active edges from
/// the node none of them enters (the grid's rows are not always that order: a scaling event
/// goes up to `scale`), then any others by row.
fn path_of(flow: &Flow) -> Vec<&FlowNode> {
    let mut rest: Vec<&FlowNode> = flow.nodes.iter().filter(|n| n.active).collect();
    rollout_facade::order::sort_by_key(&mut rest, |n| (n.row, n.col));
    let on: Vec<&FlowEdge> = flow.edges.iter().filter(|e| e.active).collect();
    let mut path: Vec<&FlowNode> = Vec::with_capacity(rest.len());
    while !rest.is_empty() {
        let next = path
            .last()
            .and_then(|last| {
                on.iter()
                    .filter(|e| e.from == last.id)
                    .find_map(|e| rest.iter().position(|n| n.id == e.to))
            })
            .or_else(|| {
                rest.iter().position(|n| {
                    !on.iter()
                        .any(|e| e.to == n.id && rest.iter().any(|m| m.id == e.from))
                })
            })
            .unwrap_or(0);
        path.push(rest.remove(next));
    }
    path
}

/// [`Flow::describe`] in path order.
pub fn describe(flow: &Flow) -> String {
    let parts: Vec<String> = path_of(flow)
        .iter()
        .map(|n| match (n.kind, n.answer) {
            (NodeKind::Decision, Some(a)) => format!(
                "{} {}{}",
                n.label,
                answer_word(a),
                n.detail
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
            _ => n.label.to_string(),
        })
        .collect();
    format!("{}: {}", flow.title, parts.join(" → "))
}

/// The flowchart with its text equivalent.
pub fn flow_diagram(props: &FlowDiagramProps) -> Html {
    let flow = &*props.flow;
    let replicaset = flow.title == "syncReplicaSet";
    let rows = flow.nodes.iter().map(|n| n.row).max().unwrap_or(0) as f64 + 1.0;
    let cols = flow.nodes.iter().map(|n| n.col).max().unwrap_or(0) as f64 + 1.0;
    // Whole pixels (the columns and rows are at most 256 and the sizes whole), written as
    // integers: `{:.0}` would link Rust's float formatting into the module.
    let width = (MARGIN_L + cols * COL_W + MARGIN_R) as i64;
    let height = (2.0 * MARGIN_Y + rows * ROW_H) as i64;
    let path = path_of(flow);
    let number = |id: &str| path.iter().position(|n| n.id == id).map(|i| i + 1);

    // Inactive edges first, so the path is drawn over them.
    let mut edges: Vec<&FlowEdge> = flow.edges.iter().collect();
    rollout_facade::order::sort_by_key(&mut edges, |e| e.active);

    let nodes = flow.nodes.iter().map(|n| {
        let source = source_of(n.function, replicaset);
        let body = html! {
            <>
                <title>{ node_title(n, replicaset) }</title>
                { node_shape(n) }
                { node_label(n) }
                { for number(n.id).map(|k| badge(n, k)) }
            </>
        };
        html! {
            <g
                class={classes!(
                    "flow-node",
                    match n.kind { NodeKind::Step => "fd-step", NodeKind::Decision => "fd-decision" },
                    if n.active { "fd-on" } else { "fd-off" },
                )}
                data-node={n.id}
                data-active={if n.active { "true" } else { "false" }}
                data-answer={n.answer.map(answer_word)}
            >
                // A mouse shortcut only: inside role="img" a link is not exposed, so the
                // keyboard and screen-reader way to the source is the list under the diagram.
                { match source {
                    Some(s) => html! {
                        <a class="fd-link" href={s.url()} target="_blank" rel="noopener noreferrer" tabindex="-1">
                            { body }
                        </a>
                    },
                    None => body,
                } }
            </g>
        }
    });

    let description = describe(flow);
    html! {
        <figure class="fd" data-testid="flow-diagram" data-flow={flow.title}>
            <figcaption class="fd-caption">
                <span class="fd-title"><code>{ flow.title }</code>{ " — the path this step took" }</span>
                <span class="fd-key" aria-hidden="true">
                    <span class="fd-key-item fd-key-on">{ "taken" }</span>
                    <span class="fd-key-item fd-key-off">{ "not taken" }</span>
                    <span class="fd-key-item fd-key-box">{ "step" }</span>
                    <span class="fd-key-item fd-key-diamond">{ "question" }</span>
                </span>
            </figcaption>
            <div class="fd-body">
                <div class="fd-canvas">
                    <svg
                        class="fd-svg"
                        viewBox={format!("0 0 {width} {height}")}
                        preserveAspectRatio="xMidYMin meet"
                        aria-hidden="true"
                        style={format!("--fd-w: {width}px")}
                    >
                        { for edges.into_iter().filter_map(|e| edge_view(e, &flow.nodes)) }
                        { for nodes }
                    </svg>
                </div>
                <ol class="fd-path" data-testid="flow-path" aria-label={format!("{}: the path, step by step", flow.title)}>
                    { for path.iter().enumerate().map(|(i, n)| html! {
                        <li class={classes!("fd-path-item", match n.kind { NodeKind::Step => "fd-step", NodeKind::Decision => "fd-decision" })}
                            data-path-node={n.id}>
                            <span class="fd-num" aria-hidden="true">{ i + 1 }</span>
                            <div class="fd-path-text">
                                <span class="fd-path-head">
                                    <strong>{ n.label }</strong>
                                    if let Some(a) = n.answer {
                                        <span class={classes!("fd-answer", if a { "fd-yes" } else { "fd-no" })}>
                                            { if a { "→ yes" } else { "→ no" } }
                                        </span>
                                    }
                                    { match source_of(n.function, replicaset) {
                                        Some(s) => html! {
                                            <a class="fd-fn fd-fn-link" href={s.url()} target="_blank" rel="noopener noreferrer"
                                                title={format!("{} in {} (Kubernetes v1.28.4 source)", n.function, s.file_name())}>
                                                <code>{ n.function }</code>
                                            </a>
                                        },
                                        None => html! { <code class="fd-fn">{ n.function }</code> },
                                    } }
                                </span>
                                if let Some(d) = &n.detail {
                                    <span class="fd-detail">{ d.clone() }</span>
                                }
                            </div>
                        </li>
                    }) }
                </ol>
            </div>
            <p class="fd-sr-only" data-testid="flow-description">{ description }</p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_break_near_the_middle() {
        assert_eq!(wrap("Paused?", 19), vec!["Paused?"]);
        assert_eq!(
            wrap("Fewer pods than replicas?", 19),
            vec!["Fewer pods", "than replicas?"]
        );
    }

    #[test]
    fn the_path_follows_the_edges_not_the_rows() {
        use rollout_facade::flow::flow_of;
        use rollout_facade::presets::preset;
        use rollout_facade::sim::{Simulation, StepKind};
        let mut sim = Simulation::new(preset("proportional-scaling").unwrap().scenario);
        while sim.round() < 20 {
            sim.run_round();
        }
        let flow = loop {
            let step = sim.step().unwrap();
            if matches!(step.kind, StepKind::SyncDeployment { .. }) {
                break flow_of(step).unwrap();
            }
        };
        let ids: Vec<&str> = path_of(&flow).iter().map(|n| n.id).collect();
        assert_eq!(
            ids,
            [
                "list-replicasets",
                "list-pods",
                "deleting",
                "paused",
                "rollback",
                "scaling-event",
                "scale",
                "sync-status"
            ]
        );
        assert!(describe(&flow).starts_with("syncDeployment: List ReplicaSets → List pods → "));
    }

    #[test]
    fn a_path_bends_with_rounded_corners() {
        let d = path_d(&[(0.0, 0.0), (100.0, 0.0), (100.0, 100.0)]);
        assert_eq!(d, "M0.0 0.0 L92.0 0.0 Q100.0 0.0 100.0 8.0 L100.0 100.0");
        assert_eq!(
            arrowhead(&[(0.0, 0.0), (0.0, 100.0)]),
            "0.0,100.0 -5.5,89.0 5.5,89.0"
        );
    }
}
