//! The stage: the rollout itself, big enough to point at from the back of a room. One lane per
//! ReplicaSet (revision and image; the new one set apart), each pod a token whose shape,
//! pattern and colour give its state, the rolling-update budget as two gauges, and the step's
//! caption. It draws the core's view (`rollout_facade::view`) and nothing else.
//!
//! Motion explains what changed between two steps: created pods grow in, pods that became
//! ready pulse, deleted pods shrink away where they were, and pods that moved (a deleted
//! neighbour, a lane that appeared) slide from their old place to the new one (FLIP: the
//! positions are read before Yew patches the DOM and each moved pod starts at its old place).
//! A step during an animation first puts every pod at its end. `prefers-reduced-motion`
//! turns all of it off.

use crate::components::pod_token::{
    density, describe_pods, failure_words, pod_legend, pod_token, pod_words, small_grid,
    state_of_key, with_ghosts, Look, Motion, DENSITY_ABOVE, SMALL_ABOVE,
};
use crate::components::service_view::ServiceView;
use crate::components::traffic_strip::TrafficStrip;
use crate::state::traffic::{marks, EndpointMark, TrafficFrame};
use rollout_facade::ui_support::DepartedPod;
use rollout_facade::view::{BudgetView, GaugeView, PodState, ReplicaSetView};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// Up to this many pods per lane every token is big (2.5em, 40 px at the default size).
pub const BIG_UP_TO: usize = 20;
/// Pods slide (FLIP reads and writes each moved token) only in lanes of big tokens and while
/// there are at most this many of them on the stage; lanes always slide (one transform each,
/// carrying their pods).
pub const FLIP_UP_TO: usize = 160;

/// The token size in em for a lane of `n` pods: 2.5em up to [`BIG_UP_TO`], shrinking
/// linearly to 1.5em (24 px) at [`SMALL_ABOVE`]; e.g. 34 pods → 2.0em.
pub fn token_em(n: usize) -> f64 {
    if n <= BIG_UP_TO {
        2.5
    } else {
        let over = n.min(SMALL_ABOVE) - BIG_UP_TO;
        2.5 - over as f64 / (SMALL_ABOVE - BIG_UP_TO) as f64
    }
}

/// One gauge: a bar on a scale shared by both gauges, a mark at the limit, the numbers and
/// the arithmetic in words (so neither colour nor the bar alone carries the meaning), all of
/// it the core's ([`GaugeView`]). When the Deployment's status lags the pods, the bar shows
/// the pods on the stage, a tick the status, and the gauge says which controller has not
/// synced yet instead of judging the stale figure.
fn gauge(testid: &'static str, title: &str, g: &GaugeView, scale: i32) -> Html {
    let pct =
        |n: i32| crate::chart::fmt(f64::from(n.clamp(0, scale)) * 100.0 / f64::from(scale.max(1)));
    html! {
        <div class={classes!("gauge", g.over.then_some("gauge-over"), g.behind.is_some().then_some("gauge-behind"))} data-testid={testid}
            data-value={g.status.to_string()} data-live={g.live.to_string()} data-limit={g.limit.to_string()}>
            <p class="gauge-head">
                <span class="gauge-title">{ title.to_string() }</span>
                <span class="gauge-figure"><strong>{ g.status }</strong>{ format!(" / {}", g.limit) }</span>
            </p>
            <div class="gauge-bar" aria-hidden="true">
                <span class="gauge-fill" style={format!("width: {}%", pct(g.live))} />
                if g.behind.is_some() {
                    <span class="gauge-status" style={format!("left: {}%", pct(g.status))} />
                }
                <span class="gauge-mark" style={format!("left: {}%", pct(g.limit))} />
            </div>
            <p class="gauge-rule">{ g.rule.clone() }<span class="gauge-verdict">{ format!(" · {}", g.verdict) }</span></p>
        </div>
    }
}

/// Why a gauge's status lags the pods, one line each, under the lanes (where there is room
/// for a sentence): nothing when the status agrees with the stage.
pub fn behind_notes(b: &BudgetView) -> Html {
    let notes = [
        ("budget-total", "Pods in total", &b.total),
        ("budget-available", "Available", &b.available),
    ];
    let behind: Html = notes
        .iter()
        .filter(|(_, _, g)| b.rolling && g.behind.is_some())
        .map(|(testid, title, g)| {
            html! {
                <p class="gauge-behind-note" data-testid={format!("{testid}-behind")}>
                    <strong>{ format!("{title}: ") }</strong>{ g.behind.clone().unwrap_or_default() }
                </p>
            }
        })
        .collect();
    html! {
        <>
            { waiting_note(b) }
            { behind }
        </>
    }
}

/// Why the rollout waits on a new pod whose app fails, in the core's words
/// ([`BudgetView::waiting`]): nothing when no new pod fails.
pub fn waiting_note(b: &BudgetView) -> Html {
    match &b.waiting {
        Some(why) => html! {
            <p class="gauge-waiting-note" data-testid="budget-waiting" role="status">{ why.clone() }</p>
        },
        None => Html::default(),
    }
}

/// The two gauges of the core's [`BudgetView`]: total pods against replicas + maxSurge,
/// available pods against replicas − maxUnavailable (a note for Recreate).
pub fn gauges(b: &BudgetView) -> Html {
    if !b.rolling {
        return html! {
            <div class="gauges gauges-recreate">
                <p class="gauge-note">{ b.recreate_note() }</p>
            </div>
        };
    }
    let scale = [
        b.total.limit,
        b.total.status,
        b.total.live,
        b.available.status,
        b.available.live,
    ]
    .into_iter()
    .max()
    .unwrap_or(1)
    .max(1);
    html! {
        <div class="gauges" role="group" aria-label="Rolling-update budget (the Deployment's status)">
            { gauge("budget-total", "Pods in total", &b.total, scale) }
            { gauge("budget-available", "Available", &b.available, scale) }
        </div>
    }
}

/// Props of [`Lane`].
#[derive(Properties, PartialEq, Clone)]
pub struct LaneProps {
    /// The ReplicaSet.
    pub rs: Rc<ReplicaSetView>,
    /// Its pods that the last step removed (drawn where they were, shrinking away).
    #[prop_or_default]
    pub departed: Vec<String>,
    /// The largest lane on the stage (pods and slots), which sets the token size.
    pub most: usize,
    /// The inspected pod, if it is one of these.
    #[prop_or_default]
    pub selected: Option<AttrValue>,
    /// Which stage it is on, when there are two (` (B)`), so the lanes' names stay unique.
    #[prop_or_default]
    pub stage: Option<AttrValue>,
    /// The pods as the Service's endpoints (when the stage shows its requests), by pod name.
    #[prop_or_default]
    pub marks: Option<Rc<HashMap<String, EndpointMark>>>,
}

/// A lane's head: the ReplicaSet's name, revision and image, its counts (spec.replicas and the
/// status its controller last wrote) and what it still has to create or delete.
fn lane_head(rs: &ReplicaSetView, delta: i32) -> Html {
    html! {
        <header class="lane-head">
            <span class={classes!("lane-badge", if rs.is_new { "lane-badge-new" } else { "lane-badge-old" })}>
                { if rs.is_new { "new" } else { "old" } }
            </span>
            <span class="lane-name">{ rs.name.clone() }</span>
            <span class="lane-rev">{ format!("revision {}", rs.revision) }</span>
            <code class="lane-image">{ rs.image.clone() }</code>
            <span class="lane-counts">
                <span title="spec.replicas">{ "desired " }<strong>{ rs.desired }</strong></span>
                <span title="status.readyReplicas">{ "ready " }<strong>{ rs.ready }</strong></span>
                <span title="status.availableReplicas">{ "available " }<strong>{ rs.available }</strong></span>
                // Only while it counts a pod (the lane's data-terminating keeps the 0): a fourth
                // count on every lane wraps the head at 1280 px and pushes the pods of a lesson's
                // "which pod" question below the screen; "+1 to create" comes and goes the same way.
                if let Some(t) = rs.terminating.filter(|t| *t > 0) {
                    <span class={classes!("lane-terminating", "is-some")} title="status.terminatingReplicas: its pods being deleted, as the ReplicaSet controller last counted them (reported since Kubernetes 1.35)"
                        data-testid="lane-terminating">{ "terminating " }<strong>{ t }</strong></span>
                }
                if delta > 0 {
                    <span class="lane-delta lane-delta-up" title="spec.replicas is above the pods it has: the ReplicaSet controller creates the rest">
                        { format!("+{delta} to create") }
                    </span>
                } else if delta < 0 {
                    <span class="lane-delta lane-delta-down" title="spec.replicas is below the pods it has: the ReplicaSet controller deletes the rest">
                        { format!("{} to delete", -delta) }
                    </span>
                }
            </span>
        </header>
    }
}

/// One ReplicaSet's lane.
#[function_component(Lane)]
pub fn lane(props: &LaneProps) -> Html {
    // Which pods this lane drew last time, and in which state: new pods grow in, pods that
    // just became ready pulse. One animation on the lane's grid (restarted by switching
    // between batch-a and batch-b) drives them all through inherited custom properties.
    let motion = use_mut_ref(Motion::default);
    let rs = &props.rs;
    let pods = &rs.pods;
    let summary = format!("{}: {}", rs.name, describe_pods(pods));
    let delta = rs.pods_to_create();
    let head = lane_head(rs, delta);
    let attrs = |body: Html, class: Classes| {
        html! {
            <section class={classes!("lane", if rs.is_new { "lane-new" } else { "lane-old" }, class)}
                data-testid="rs-lane" data-name={rs.name.clone()} data-revision={rs.revision.clone()}
                data-image={rs.image.clone()} data-new={rs.is_new.to_string()}
                data-desired={rs.desired.to_string()} data-current={rs.current.to_string()}
                data-ready={rs.ready.to_string()} data-available={rs.available.to_string()}
                data-terminating={rs.terminating.map(|t| t.to_string())}
                aria-label={format!("ReplicaSet {}, revision {}, {}{}", rs.name, rs.revision, rs.image, props.stage.as_deref().unwrap_or(""))}>
                { head.clone() }
                { body }
            </section>
        }
    };
    if pods.len() > DENSITY_ABOVE {
        motion.borrow_mut().update(pods, false, true);
        return attrs(density(pods, false), classes!("lane-dense"));
    }
    let small = props.most > SMALL_ABOVE;
    // Small tokens (hundreds in a lane) do not move one by one: an animation of the lane's
    // inherited --enter / --leave / --pulse recalculates the style of every token in every
    // frame (about 20 ms a frame at 1,000 pods in software), so they change in place and the
    // lane head's counts say what changed.
    let mut motion = motion.borrow_mut();
    let changes = motion.update(pods, !props.departed.is_empty(), small);
    let idle = || {
        html! { <p class="lane-empty">{ if rs.desired == 0 { "scaled to 0, kept for rollbacks" } else { "no pods yet" } }</p> }
    };
    if small {
        // Hundreds of small tokens change in place, as one piece of HTML (see `small_grid`);
        // their deleted pods are not drawn (without the lane's animation they would not fade)
        // and there are no empty slots.
        if pods.is_empty() {
            return attrs(idle(), classes!("lane-idle"));
        }
        let grid = small_grid(
            pods,
            props.selected.as_deref(),
            "pod-grid lane-pods pod-grid-small",
            &summary,
        );
        return attrs(grid, classes!());
    }
    // Up to SMALL_ABOVE pods each token is a focusable image that names itself; one per lane
    // is in the tab order and the arrow keys move between them (a roving tabindex).
    let mut first = true;
    let token = |p: &rollout_facade::view::PodView| {
        let tabindex = if std::mem::take(&mut first) {
            "0"
        } else {
            "-1"
        };
        let mut words = pod_words(&p.name, p.state, &p.node, &rs.image, p.reason.as_deref());
        words.push_str(&failure_words(p.restarts, p.back_off_left));
        if p.next_deletion {
            words.push_str(", deleted next");
        }
        if let Some(why) = &p.unschedulable {
            words.push_str(", ");
            words.push_str(why);
        }
        let endpoint = props.marks.as_ref().and_then(|m| m.get(&p.name)).cloned();
        if let Some(m) = &endpoint {
            words.push_str(&m.words());
        }
        pod_token(
            p,
            Look {
                fresh: changes.fresh.contains(p.name.as_str()),
                now_ready: changes.now_ready.contains(p.name.as_str()),
                selected: props.selected.as_deref() == Some(p.name.as_str()),
                doomed: p.next_deletion,
                focus: Some((tabindex, words)),
                title: None,
                endpoint,
            },
        )
    };
    let mut items = with_ghosts(pods, &props.departed, token);
    // Pods the ReplicaSet wants but has not created yet: dashed empty slots.
    let slots = delta.clamp(0, 60) as usize;
    for i in 0..slots {
        items
            .push(html! { <span key={format!("slot/{i}")} class="pod-slot" aria-hidden="true" /> });
    }
    if items.is_empty() {
        return attrs(idle(), classes!("lane-idle"));
    }
    let grid_class = classes!("pod-grid", "lane-pods", changes.batch);
    if pods.is_empty() && slots == 0 {
        // Only the pods deleted this step, fading out: the lane reads as it will once they
        // are gone (the same line End shows), with them drawn over it, not a row of their own.
        let ghosts = html! { <div class={classes!(grid_class, "lane-ghosts")} aria-hidden="true">{ for items }</div> };
        return attrs(
            html! { <div class="lane-ghosts-only">{ idle() }{ ghosts }</div> },
            classes!("lane-idle"),
        );
    }
    let body =
        html! { <div class={grid_class} role="group" aria-label={summary}>{ for items }</div> };
    attrs(body, classes!())
}

/// The arrow keys move focus between the pods of a lane (Home and End to its ends); Enter
/// inspects the focused pod.
fn on_lane_key(e: KeyboardEvent, on_select: &Callback<String>) {
    let Some(pod) = e
        .target_dyn_into::<Element>()
        .filter(|t| t.has_attribute("data-pod"))
    else {
        return;
    };
    let step = |el: &Element, forward: bool| {
        let mut next = if forward {
            el.next_element_sibling()
        } else {
            el.previous_element_sibling()
        };
        while let Some(n) = next {
            if n.has_attribute("data-pod") {
                return Some(n);
            }
            next = if forward {
                n.next_element_sibling()
            } else {
                n.previous_element_sibling()
            };
        }
        None
    };
    let target = match e.key().as_str() {
        "ArrowRight" | "ArrowDown" => step(&pod, true),
        "ArrowLeft" | "ArrowUp" => step(&pod, false),
        "Home" => pod
            .parent_element()
            .and_then(|p| p.query_selector("[data-pod]").ok().flatten()),
        "End" => pod
            .parent_element()
            .and_then(|p| p.query_selector_all("[data-pod]").ok())
            .and_then(|l| l.item(l.length().saturating_sub(1)))
            .and_then(|n| n.dyn_into::<Element>().ok()),
        "Enter" | " " => {
            e.prevent_default();
            if let Some(name) = pod.get_attribute("data-pod") {
                on_select.emit(format!("pod/{name}"));
            }
            return;
        }
        _ => return,
    };
    e.prevent_default();
    if let Some(t) = target.and_then(|t| t.dyn_into::<HtmlElement>().ok()) {
        pod.set_attribute("tabindex", "-1").ok();
        t.set_attribute("tabindex", "0").ok();
        t.focus().ok();
    }
}

/// Whether the user asked for less motion.
fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// What slides: the lanes (within the stage) and the big pods (within their lane).
const LANES: &str = "[data-testid=rs-lane]";
const BIG_PODS: &str = ".lane-pods:not(.pod-grid-small) > [data-pod]";

/// The lanes and, up to [`FLIP_UP_TO`], the big pods under `root`.
fn movable(root: &Element) -> Vec<HtmlElement> {
    let all = |selector: &str| -> Vec<HtmlElement> {
        let Ok(list) = root.query_selector_all(selector) else {
            return Vec::new();
        };
        (0..list.length())
            .filter_map(|i| list.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()))
            .collect()
    };
    let mut out = all(LANES);
    let pods = all(BIG_PODS);
    if pods.len() <= FLIP_UP_TO {
        out.extend(pods);
    }
    out
}

/// The key of a movable element: `pod/NAME` or `lane/NAME`.
fn flip_key(el: &Element) -> Option<String> {
    el.get_attribute("data-pod")
        .map(|n| format!("pod/{n}"))
        .or_else(|| el.get_attribute("data-name").map(|n| format!("lane/{n}")))
}

/// FLIP's memory: where each pod and lane was last laid out, and what is still sliding.
///
/// Nothing here reads layout while Yew renders or patches: a read there forces the browser to
/// lay out the page in the middle of the step's task (the other panels have just been patched),
/// and the frame after it lays out again. Instead the positions are read in the next animation
/// frame's callback, where the layout the browser computes is the one it then paints with, and
/// compared with the positions read after the previous step. Steps faster than frames (playing
/// at 60 steps a second) slide once, from where the pods were last drawn.
#[derive(Default)]
struct Flip {
    /// Layout offsets (a pod's within its lane, a lane's within the stage) after the last step.
    last: HashMap<String, (i32, i32)>,
    moving: Vec<Element>,
    /// A frame callback is waiting to read the new positions.
    pending: bool,
}

impl Flip {
    /// Before Yew patches the DOM: every slide jumps to its end (removing a style attribute
    /// reads no layout).
    fn finish(&mut self) {
        for el in self.moving.drain(..) {
            el.remove_attribute("style").ok();
        }
    }

    /// In an animation frame after the patch: each pod or lane that moved since the last step
    /// starts where it was and slides to its place. e.g. the old lane loses a row of 14 pods
    /// (42 px): the new lane below it is read 42 px higher, starts at `translate(0, 42px)` and
    /// slides up.
    fn play(&mut self, root: &Element) {
        self.pending = false;
        self.finish();
        if reduced_motion() {
            self.last.clear();
            return;
        }
        let now: Vec<(HtmlElement, String, (i32, i32))> = movable(root)
            .into_iter()
            .filter_map(|el| {
                let key = flip_key(&el)?;
                let at = (el.offset_left(), el.offset_top());
                Some((el, key, at))
            })
            .collect();
        let first = std::mem::take(&mut self.last);
        for (el, key, (x, y)) in now {
            if let Some(&(x0, y0)) = first.get(&key) {
                let (dx, dy) = (x0 - x, y0 - y);
                if dx != 0 || dy != 0 {
                    let style = format!("transform: translate({dx}px, {dy}px); transition: none");
                    el.set_attribute("style", &style).ok();
                    self.moving.push(el.clone().into());
                }
            }
            self.last.insert(key, (x, y));
        }
        if self.moving.is_empty() {
            return;
        }
        // Styles only (a transform does not change layout), then everything that moved
        // transitions back to its own place.
        let _ = root.get_bounding_client_rect();
        for el in &self.moving {
            el.set_attribute(
                "style",
                "transition: transform 420ms cubic-bezier(0.3, 0.7, 0.3, 1)",
            )
            .ok();
        }
    }

    /// After a patch: reads the new positions in the next animation frame (once, however many
    /// steps come before it).
    fn schedule(flip: &Rc<RefCell<Flip>>, root: &NodeRef) {
        if std::mem::replace(&mut flip.borrow_mut().pending, true) {
            return;
        }
        let (later, root) = (flip.clone(), root.clone());
        let frame =
            wasm_bindgen::closure::Closure::once_into_js(move || match root.cast::<Element>() {
                Some(el) => later.borrow_mut().play(&el),
                None => later.borrow_mut().pending = false,
            });
        if let Some(w) = web_sys::window() {
            if w.request_animation_frame(frame.unchecked_ref()).is_err() {
                flip.borrow_mut().pending = false;
            }
        }
    }
}

/// Props of [`Stage`].
#[derive(Properties, PartialEq, Clone)]
pub struct StageProps {
    /// The ReplicaSets in creation order.
    pub replica_sets: Rc<Vec<Rc<ReplicaSetView>>>,
    /// Pods the last step removed.
    #[prop_or_default]
    pub departed: Vec<DepartedPod>,
    /// The Deployment's budget (none before it exists).
    #[prop_or_default]
    pub budget: Option<BudgetView>,
    /// The step in one line.
    pub caption: AttrValue,
    /// The Deployment's name (the Service's, in front of it).
    #[prop_or_default]
    pub deployment: AttrValue,
    /// Who acted (a CSS key, `deployment`, …), for the caption's colour.
    #[prop_or_default]
    pub actor: Option<&'static str>,
    /// The simulation's version: the pods slide when it changes.
    pub version: u64,
    /// The inspected object (`kind/name`), if any.
    #[prop_or_default]
    pub selected: Option<AttrValue>,
    /// Called with `pod/NAME` when a pod is clicked or Enter is pressed on it.
    #[prop_or_default]
    pub on_select: Callback<String>,
    /// `stage`, or `stage-b` for the variant in Compare.
    #[prop_or(AttrValue::Static("stage"))]
    pub testid: AttrValue,
    /// A heading for the stage (Compare's "A" and "B").
    #[prop_or_default]
    pub title: Option<AttrValue>,
    /// The Kubernetes release its controllers behave as (a badge beside the title).
    #[prop_or_default]
    pub kubernetes: Option<rollout_facade::version::KubernetesVersion>,
    /// Announce the caption (a polite live region). Compare's second stage does not: one
    /// announcement a step.
    #[prop_or(true)]
    pub live: bool,
    /// Buttons for the stage's bar (present, compare).
    #[prop_or_default]
    pub tools: Html,
    /// What goes beside the lanes, under the gauges (the chart in presentation mode).
    #[prop_or_default]
    pub children: Html,
    /// The Service in front of the pods and its requests, when the scenario models them.
    #[prop_or_default]
    pub traffic: Option<Rc<TrafficFrame>>,
    /// Why the Service's requests could not be worked out (the core's refusal).
    #[prop_or_default]
    pub traffic_error: Option<AttrValue>,
}

/// The stage.
#[function_component(Stage)]
pub fn stage(props: &StageProps) -> Html {
    let root = use_node_ref();
    let flip = use_mut_ref(Flip::default);
    // Lanes of ReplicaSets that were deleted in the last step fade out once.
    let last = use_mut_ref(|| Rc::new(Vec::<Rc<ReplicaSetView>>::new()));
    let readout = use_node_ref();
    flip.borrow_mut().finish();
    {
        let (root, flip) = (root.clone(), flip.clone());
        use_effect_with(props.version, move |_| Flip::schedule(&flip, &root));
    }
    let gone: Vec<Rc<ReplicaSetView>> = {
        let mut last = last.borrow_mut();
        let gone = last
            .iter()
            .filter(|old| !props.replica_sets.iter().any(|rs| rs.name == old.name))
            .cloned()
            .collect();
        *last = props.replica_sets.clone();
        gone
    };
    let mut lanes: Vec<Rc<ReplicaSetView>> = props.replica_sets.iter().cloned().collect();
    // Oldest revision on top, the new ReplicaSet at the bottom: read down, the rollout moves
    // pods from the past to the future.
    rollout_facade::order::sort_by_key(&mut lanes, |rs| rs.revision.parse::<i64>().unwrap_or(0));
    let departed_of = |name: &str| -> Vec<String> {
        props
            .departed
            .iter()
            .filter(|d| d.replica_set == name)
            .map(|d| d.name.clone())
            .collect()
    };
    let most = lanes
        .iter()
        .map(|rs| {
            // The slots the next manageReplicas fills (the core's arithmetic).
            rs.pods.len() + departed_of(&rs.name).len() + rs.pods_to_create().max(0) as usize
        })
        .max()
        .unwrap_or(0);
    let pod_selected = props
        .selected
        .as_deref()
        .and_then(|s| s.strip_prefix("pod/"))
        .map(|s| AttrValue::from(s.to_string()));
    let images: Rc<HashMap<String, String>> = Rc::new(
        lanes
            .iter()
            .map(|rs| (rs.name.clone(), rs.image.clone()))
            .collect(),
    );
    // The readout line under the lanes names the pod under the pointer or focus; written
    // straight into its element, so hovering never re-renders the stage.
    let show = {
        let (readout, images) = (readout.clone(), images.clone());
        move |e: &Event| show_pod(e, &readout, &images)
    };
    let onmouseover = {
        let show = show.clone();
        Callback::from(move |e: MouseEvent| show(&e))
    };
    let onfocusin = Callback::from(move |e: FocusEvent| show(&e));
    let onclick = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: MouseEvent| select_clicked_pod(&e, &on_select))
    };
    let onkeydown = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: KeyboardEvent| on_lane_key(e, &on_select))
    };
    let marks: Option<Rc<HashMap<String, EndpointMark>>> = props
        .traffic
        .as_ref()
        .map(|t| Rc::new(marks(&t.second).into_iter().collect()));
    let size = format!("--pod-em: {}", crate::chart::fmt(token_em(most)));
    let title_id = format!("{}-title", props.testid);
    html! {
        <section class="stage" data-testid={props.testid.clone()} aria-labelledby={title_id.clone()} style={size}>
            <div class="stage-bar">
                <h2 class="stage-title" id={title_id}>{ props.title.clone().unwrap_or(AttrValue::Static("The rollout")) }</h2>
                { props.kubernetes.map(crate::components::kubernetes_version).unwrap_or_default() }
                { pod_legend() }
                <div class="stage-tools">{ props.tools.clone() }</div>
            </div>
            <p class={classes!("stage-caption", props.actor.map(|a| format!("actor-{a}")))} data-testid={format!("{}-caption", props.testid)}
                aria-live={if props.live { "polite" } else { "off" }} aria-atomic="true">
                { props.caption.clone() }
                if let Some(why) = props.traffic.as_ref().and_then(|t| t.second.why.clone()) {
                    <span class="stage-caption-why" data-testid={format!("{}-traffic-why", props.testid)}>{ format!("Requests fail: {why}.") }</span>
                }
                if let Some(e) = &props.traffic_error {
                    <span class="stage-caption-why" data-testid={format!("{}-traffic-why", props.testid)}>{ format!("The Service's requests are not shown: {e}") }</span>
                }
            </p>
            <div class="stage-body">
                <div class="stage-left">
                if let Some(t) = &props.traffic {
                    <ServiceView traffic={t.clone()} deployment={props.deployment.clone()} />
                }
                <div class="lanes" ref={root} {onmouseover} {onfocusin} {onclick} {onkeydown}>
                    if lanes.is_empty() && gone.is_empty() {
                        <p class="lane-empty stage-empty">{ "No ReplicaSets yet: the Deployment controller creates the first one in its first sync." }</p>
                    }
                    { for lanes.iter().map(|rs| html! {
                        <Lane key={rs.name.clone()} rs={rs.clone()} departed={departed_of(&rs.name)} {most} selected={pod_selected.clone()} marks={marks.clone()}
                            stage={(props.testid != "stage").then(|| AttrValue::from(format!(" ({})", props.testid)))} />
                    }) }
                    { for gone.iter().map(|rs| gone_lane(rs)) }
                    <p class="pod-readout" ref={readout} aria-hidden="true">{ "Point at a pod (or Tab to it) for its name, state and node." }</p>
                </div>
                { props.budget.as_ref().map(behind_notes).unwrap_or_default() }
                if let Some(t) = &props.traffic {
                    <TrafficStrip traffic={t.clone()} />
                }
                </div>
                <div class="stage-side">
                    { props.budget.as_ref().map(gauges).unwrap_or_default() }
                    { props.children.clone() }
                </div>
            </div>
        </section>
    }
}

/// Writes the words of the pod under the pointer or focus (`e`'s target) into the readout line
/// under the lanes: straight into its element, so hovering never re-renders the stage.
fn show_pod(e: &Event, readout: &NodeRef, images: &HashMap<String, String>) {
    let Some(t) = e.target_dyn_into::<Element>() else {
        return;
    };
    let Some(pod) = t.closest("[data-pod]").ok().flatten() else {
        return;
    };
    let (Some(name), Some(state), node) = (
        pod.get_attribute("data-pod"),
        pod.get_attribute("data-state"),
        pod.get_attribute("data-node").unwrap_or_default(),
    ) else {
        return;
    };
    let state = state_of_key(&state).unwrap_or(PodState::Pending);
    let doomed = pod.has_attribute("data-doomed");
    let rs = rollout_facade::ui_support::replica_set_of_pod(&name);
    let image = images.get(rs).cloned().unwrap_or_default();
    if let Some(out) = readout.cast::<Element>() {
        let reason = pod.get_attribute("data-reason");
        let mut words = pod_words(&name, state, &node, &image, reason.as_deref());
        let number = |key: &str| pod.get_attribute(key).and_then(|v| v.parse::<i64>().ok());
        words.push_str(&failure_words(
            number("data-restarts").map_or(0, |n| i32::try_from(n).unwrap_or(0)),
            number("data-back-off"),
        ));
        if doomed {
            words.push_str(" · the ReplicaSet controller deletes it next");
        }
        if let Some(why) = pod.get_attribute("data-unschedulable") {
            words.push_str(" · ");
            words.push_str(&why);
        }
        out.set_text_content(Some(&words));
    }
}

/// The pod a click landed on, selected for Inside (`pod/NAME`).
fn select_clicked_pod(e: &MouseEvent, on_select: &Callback<String>) {
    let pod = e
        .target_dyn_into::<Element>()
        .and_then(|t| t.closest("[data-pod]").ok().flatten());
    if let Some(name) = pod.and_then(|p| p.get_attribute("data-pod")) {
        on_select.emit(format!("pod/{name}"));
    }
}

/// The lane of a ReplicaSet deleted in the last step (revisionHistoryLimit), fading out once.
fn gone_lane(rs: &ReplicaSetView) -> Html {
    html! {
        <section key={format!("gone/{}", rs.name)} class="lane lane-gone" aria-hidden="true">
            <header class="lane-head"><span class="lane-name">{ rs.name.clone() }</span>
            <span class="lane-rev">{ "deleted: revisionHistoryLimit" }</span></header>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_big_up_to_twenty_pods_then_shrink_to_24_px_at_48() {
        assert_eq!(token_em(3), 2.5);
        assert_eq!(token_em(20), 2.5);
        assert_eq!(token_em(34), 2.0);
        assert_eq!(token_em(48), 1.5);
        assert_eq!(token_em(500), 1.5);
    }
}
