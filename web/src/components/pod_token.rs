//! One pod drawn as a token, for the stage's lanes and the embed's ReplicaSet cards alike: its
//! state by shape, pattern and colour (`pod-pending` … `pod-terminating`), the hooks the tests
//! and the page read (`data-testid="pod"`, `data-pod`, `data-state`, `data-node`), and what
//! changed since the last step (new pods grow in, pods that just became ready pulse, pods
//! that the ReplicaSet controller deletes next are marked). Also the pieces both pictures
//! share: the states in order, counts by state, the legend and the density bar.

use rollout_facade::view::{PodState, PodView};
use std::collections::{HashMap, HashSet};
use yew::prelude::*;

/// Above this many pods a ReplicaSet's pods are drawn as a density bar, not one by one.
pub const DENSITY_ABOVE: usize = 500;
/// Above this many pods in a lane (or card) the tokens are small, flat and not focusable (the
/// pod grid's lesson: hundreds of dashed outlines and gradients are slow to rasterise in
/// software), and they change in place (no per-token motion).
pub const SMALL_ABOVE: usize = 48;

/// Every state, in the order a pod goes through them.
pub const STATES: [PodState; 5] = [
    PodState::Pending,
    PodState::Running,
    PodState::Ready,
    PodState::Available,
    PodState::Terminating,
];

/// A CSS-friendly key of a state (also `data-state`).
pub fn state_key(s: PodState) -> &'static str {
    match s {
        PodState::Pending => "pending",
        PodState::Running => "running",
        PodState::Ready => "ready",
        PodState::Available => "available",
        PodState::Terminating => "terminating",
    }
}

/// The state of a `data-state` key.
pub fn state_of_key(key: &str) -> Option<PodState> {
    STATES.iter().copied().find(|s| state_key(*s) == key)
}

/// How many pods are in each state, in [`STATES`] order.
pub fn count_states(pods: &[PodView]) -> [usize; 5] {
    let mut counts = [0; 5];
    for p in pods {
        if let Some(i) = STATES.iter().position(|s| *s == p.state) {
            counts[i] += 1;
        }
    }
    counts
}

/// `3 pods: 2 Available, 1 Pending`.
pub fn describe_pods(pods: &[PodView]) -> String {
    if pods.is_empty() {
        return "no pods".to_string();
    }
    let counts = count_states(pods);
    let parts: Vec<String> = STATES
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| format!("{n} {}", s.label()))
        .collect();
    format!(
        "{} {}: {}",
        pods.len(),
        if pods.len() == 1 { "pod" } else { "pods" },
        parts.join(", ")
    )
}

/// What a pod says to a screen reader and on the stage's readout line (under the pointer),
/// with the reason its container waits when there is one (`ErrImagePull`,
/// `ImagePullBackOff`), e.g. `web-rev1-x7k2p: Available, on node-1, nginx:1.25`.
pub fn pod_words(
    name: &str,
    state: PodState,
    node: &str,
    image: &str,
    reason: Option<&str>,
) -> String {
    let node = if node.is_empty() {
        "not scheduled".to_string()
    } else {
        format!("on {node}")
    };
    match reason {
        Some(r) => format!("{name}: {} ({r}), {node}, {image}", state.label()),
        None => format!("{name}: {}, {node}, {image}", state.label()),
    }
}

/// What a failing pod's token adds to its words: `, restarted 3 times, back-off 20 s left`
/// (the view's `restarts` and `back_off_left`); empty for a pod that never restarted and
/// does not wait.
pub fn failure_words(restarts: i32, back_off_left: Option<i64>) -> String {
    let mut out = String::new();
    match restarts {
        0 => {}
        1 => out.push_str(", restarted once"),
        n => out.push_str(&format!(", restarted {n} times")),
    }
    if let Some(left) = back_off_left.filter(|l| *l > 0) {
        out.push_str(&format!(", back-off {left} s left"));
    }
    out
}

/// A failing pod's marks inside its token: a corner badge with its restarts (`↻3`) and the
/// back-off counting down in its middle (`20s`); nothing for a pod that does not fail.
fn failure_marks(p: &PodView) -> Html {
    let left = p.back_off_left.filter(|l| *l > 0);
    html! {
        <>
            if p.restarts > 0 {
                <span class="pod-restarts" aria-hidden="true">{ format!("↻{}", p.restarts) }</span>
            }
            if let Some(left) = left {
                <span class="pod-countdown" aria-hidden="true">{ format!("{left}s") }</span>
            }
        </>
    }
}

/// A pod's marks as the Service's endpoint: a dot for its EndpointSlice conditions (ready,
/// serving while terminating, terminating, not ready, gone), requests dropping in while the
/// proxies send to it, and the requests a second it gets (red with the failed ones).
fn endpoint_marks(m: Option<&crate::state::traffic::EndpointMark>) -> Html {
    let Some(m) = m else {
        return Html::default();
    };
    html! {
        <>
            <span class={classes!("pod-ep", format!("pod-ep-{}", m.key))} aria-hidden="true" />
            if m.sent > 0 {
                <span class="pod-flow" aria-hidden="true" />
                <span class={classes!("pod-rps", (m.failed > 0).then_some("pod-rps-failing"))} aria-hidden="true">
                    { if m.failed > 0 { format!("✕{}/s", m.failed) } else { format!("{}/s", m.sent) } }
                </span>
            }
        </>
    }
}

/// A pod whose app fails: it restarted, or the kubelet backs off, or its container waits for
/// a reason (`CrashLoopBackOff`, `ImagePullBackOff`).
pub fn is_failing(p: &PodView) -> bool {
    p.restarts > 0
        || p.back_off_left.is_some()
        || p.reason
            .as_deref()
            .is_some_and(|r| r != "ContainerCreating")
}

/// The legend of pod states (a plain function: it has no state and no props).
pub fn pod_legend() -> Html {
    html! {
        <ul class="pod-legend" aria-label="Pod states">
            { for STATES.iter().map(|s| html! {
                <li class="legend-item">
                    <span class={classes!("pod", "pod-sample", format!("pod-{}", state_key(*s)))} aria-hidden="true" />
                    { s.label() }
                </li>
            }) }
            <li class="legend-item">
                <span class="pod pod-sample pod-doomed pod-available" aria-hidden="true" />{ "Deleted next" }
            </li>
            <li class="legend-item">
                <span class="pod pod-sample pod-gone" aria-hidden="true" />{ "Deleted this step" }
            </li>
        </ul>
    }
}

/// How one token is drawn besides its pod's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Look {
    /// Created since the last step: grows in.
    pub fresh: bool,
    /// Became ready since the last step: pulses.
    pub now_ready: bool,
    /// The inspected pod.
    pub selected: bool,
    /// The ReplicaSet controller's next sync deletes it (`getPodsToDelete`).
    pub doomed: bool,
    /// A focusable image that names itself: its tabindex (`0` for one token per lane, the
    /// roving tab stop) and its words ([`pod_words`]).
    pub focus: Option<(&'static str, String)>,
    /// A tooltip.
    pub title: Option<String>,
    /// The pod as the Service's endpoint, when the stage shows the Service's requests.
    pub endpoint: Option<crate::state::traffic::EndpointMark>,
}

/// The class of a state (`pod-pending` …), static, so a lane of 500 tokens formats none.
pub fn state_class(s: PodState) -> &'static str {
    match s {
        PodState::Pending => "pod-pending",
        PodState::Running => "pod-running",
        PodState::Ready => "pod-ready",
        PodState::Available => "pod-available",
        PodState::Terminating => "pod-terminating",
    }
}

/// One pod's token, keyed by its name.
pub fn pod_token(p: &PodView, look: Look) -> Html {
    // The name once (the key and `data-pod` share it).
    let name: std::rc::Rc<str> = p.name.as_str().into();
    let class = classes!(
        "pod",
        state_class(p.state),
        look.fresh.then_some("pod-new"),
        look.now_ready.then_some("pod-now-ready"),
        look.selected.then_some("pod-selected"),
        look.doomed.then_some("pod-doomed"),
        is_failing(p).then_some("pod-failing"),
        look.endpoint.as_ref().map(|m| match (m.sent, m.failed) {
            (0, _) => "pod-unsent",
            (_, 0) => "pod-sent",
            _ => "pod-dropping",
        }),
    );
    let endpoint = look.endpoint.as_ref();
    let (tabindex, role, label) = match look.focus {
        Some((t, words)) => (Some(t), Some("img"), Some(words)),
        None => (None, None, None),
    };
    html! {
        <span key={name.clone()} {class} data-testid="pod" data-pod={AttrValue::from(name)}
            data-state={state_key(p.state)} data-node={p.node.clone()}
            data-reason={p.reason.clone()} data-unschedulable={p.unschedulable.clone()}
            data-doomed={look.doomed.then_some("true")} title={look.title}
            data-restarts={(p.restarts > 0).then(|| p.restarts.to_string())}
            data-back-off={p.back_off_left.map(|l| l.to_string())}
            data-endpoint={endpoint.map(|m| m.key)}
            data-sent={endpoint.map(|m| m.sent.to_string())}
            data-failed={endpoint.map(|m| m.failed.to_string())}
            tabindex={tabindex} role={role} aria-label={label}>{ failure_marks(p) }{ endpoint_marks(endpoint) }</span>
    }
}

/// Text for an HTML attribute value or element content (`&`, `<`, `>`, `"`, `'` escaped).
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// A grid of small tokens (a lane or card of more than [`SMALL_ABOVE`] pods) as one piece of
/// HTML: the same element per pod as [`pod_token`] draws (`class`, `data-testid="pod"`,
/// `data-pod`, `data-state`, `data-node`, `data-reason`, `data-doomed`), inside one grid
/// element with `class` and the grid's words as its `aria-label` (`role="img"`).
///
/// Why not one Yew element per pod: small tokens do not move one by one (no keys to keep, no
/// ghosts, no grow-in), and a step that creates or deletes 500 pods would make about 3,500
/// calls from wasm into the DOM (an element, five attributes and an insertion each, every
/// string decoded on the way), 30 to 40 ms on a slow machine. As one string it is one call,
/// and the browser's own parser builds the 500 elements. Yew replaces the grid only when the
/// string differs (a pod changed); an unchanged lane is not touched.
pub fn small_grid(pods: &[PodView], selected: Option<&str>, class: &str, label: &str) -> Html {
    Html::from_html_unchecked(AttrValue::from(small_grid_html(
        pods, selected, class, label,
    )))
}

/// The HTML of [`small_grid`].
fn small_grid_html(pods: &[PodView], selected: Option<&str>, class: &str, label: &str) -> String {
    let mut out = String::with_capacity(64 + pods.len() * 112);
    out.push_str("<div class=\"");
    escape_into(&mut out, class);
    out.push_str("\" role=\"img\" aria-label=\"");
    escape_into(&mut out, label);
    out.push_str("\">");
    for p in pods {
        let doomed = p.next_deletion;
        out.push_str("<span class=\"pod ");
        out.push_str(state_class(p.state));
        if selected == Some(p.name.as_str()) {
            out.push_str(" pod-selected");
        }
        if doomed {
            out.push_str(" pod-doomed");
        }
        if is_failing(p) {
            out.push_str(" pod-failing");
        }
        out.push_str("\" data-testid=\"pod\" data-pod=\"");
        escape_into(&mut out, &p.name);
        out.push_str("\" data-state=\"");
        out.push_str(state_key(p.state));
        out.push_str("\" data-node=\"");
        escape_into(&mut out, &p.node);
        out.push('"');
        if let Some(r) = &p.reason {
            out.push_str(" data-reason=\"");
            escape_into(&mut out, r);
            out.push('"');
        }
        if doomed {
            out.push_str(" data-doomed=\"true\"");
        }
        if p.restarts > 0 {
            out.push_str(&format!(" data-restarts=\"{}\"", p.restarts));
        }
        if let Some(l) = p.back_off_left {
            out.push_str(&format!(" data-back-off=\"{l}\""));
        }
        out.push_str("></span>");
    }
    out.push_str("</div>");
    out
}

/// A pod the last step removed, drawn where it was while it shrinks away (big tokens only:
/// without its lane's animation it would not fade).
pub fn ghost(name: &str) -> Html {
    html! { <span key={format!("gone/{name}")} class="pod pod-gone" data-gone={name.to_string()} aria-hidden="true" /> }
}

/// Pods and the ghosts of the departed ones (both sorted by name) merged by name, so a
/// deleted pod stays where it was among its neighbours.
pub fn with_ghosts(
    pods: &[PodView],
    departed: &[String],
    mut token: impl FnMut(&PodView) -> Html,
) -> Vec<Html> {
    let mut items = Vec::with_capacity(pods.len() + departed.len());
    let mut gone = departed.iter().peekable();
    for p in pods {
        while let Some(g) = gone.next_if(|g| g.as_str() < p.name.as_str()) {
            items.push(ghost(g));
        }
        items.push(token(p));
    }
    items.extend(gone.map(|g| ghost(g)));
    items
}

/// Hundreds of pods as one bar of counts by state, with the counts in words.
pub fn density(pods: &[PodView], note: bool) -> Html {
    let counts = count_states(pods);
    html! {
        <div class="pod-density" data-testid="pod-density">
            <div class="density-bar" role="img" aria-label={describe_pods(pods)}>
                { for STATES.iter().zip(counts).filter(|(_, n)| *n > 0).map(|(s, n)| html! {
                    <span class={classes!("density-seg", format!("pod-{}", state_key(*s)))}
                        style={format!("flex-grow: {n}")} title={format!("{n} {}", s.label())} />
                }) }
            </div>
            <ul class="density-counts">
                { for STATES.iter().zip(counts).filter(|(_, n)| *n > 0).map(|(s, n)| html! {
                    <li><span class={classes!("pod", "pod-sample", format!("pod-{}", state_key(*s)))} aria-hidden="true" />
                        <strong>{ crate::settings::group(n as i64) }</strong>{ format!(" {}", s.label()) }</li>
                }) }
            </ul>
            if note {
                <p class="density-note">{ format!("{} pods: drawn as a density bar above {DENSITY_ABOVE} per ReplicaSet.", crate::settings::group(pods.len() as i64)) }</p>
            }
        </div>
    }
}

/// What a grid of tokens remembers between renders, to tell what changed: each pod's last
/// state, and a counter that switches the grid's one animation (`batch-a` / `batch-b`), which
/// drives every moving token through inherited custom properties (starting hundreds of
/// per-token CSS animations at once costs far more).
#[derive(Debug, Default)]
pub struct Motion {
    seen: HashMap<String, PodState>,
    batch: u32,
    /// Drawn small or as a density bar last time (its pods were not remembered).
    was_still: bool,
}

/// What changed in a grid since its last render.
#[derive(Debug, Default)]
pub struct Changes<'a> {
    /// Pods created since.
    pub fresh: HashSet<&'a str>,
    /// Pods that became ready since.
    pub now_ready: HashSet<&'a str>,
    /// The grid's animation class (none for still grids).
    pub batch: Option<&'static str>,
}

impl Motion {
    /// Compares `pods` with the last render. A still grid (small tokens or a density bar)
    /// remembers nothing and animates nothing; the first render after being still animates
    /// nothing either (so a lane shrinking to 48 pods does not grow them all in).
    pub fn update<'a>(&mut self, pods: &'a [PodView], departed: bool, still: bool) -> Changes<'a> {
        if still {
            self.seen.clear();
            self.was_still = true;
            return Changes::default();
        }
        let known = !std::mem::take(&mut self.was_still);
        let ready = |s: PodState| matches!(s, PodState::Ready | PodState::Available);
        let mut c = Changes::default();
        for p in pods {
            match self.seen.get(&p.name) {
                None if known => {
                    c.fresh.insert(p.name.as_str());
                }
                Some(before) if ready(p.state) && !ready(*before) => {
                    c.now_ready.insert(p.name.as_str());
                }
                _ => {}
            }
        }
        if !c.fresh.is_empty() || !c.now_ready.is_empty() || departed {
            self.batch = self.batch.wrapping_add(1);
        }
        self.seen = pods.iter().map(|p| (p.name.clone(), p.state)).collect();
        c.batch = Some(if self.batch.is_multiple_of(2) {
            "batch-a"
        } else {
            "batch-b"
        });
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str, state: PodState) -> PodView {
        PodView {
            name: name.into(),
            state,
            node: String::new(),
            created: 0,
            reason: None,
            next_deletion: false,
            restarts: 0,
            back_off_until: None,
            back_off_left: None,
            killed: false,
            unschedulable: None,
        }
    }

    #[test]
    fn a_failing_pods_words_say_its_restarts_and_back_off() {
        assert_eq!(failure_words(0, None), "");
        assert_eq!(failure_words(1, Some(0)), ", restarted once");
        assert_eq!(
            failure_words(3, Some(20)),
            ", restarted 3 times, back-off 20 s left"
        );
        let mut p = pod("web-rev2-a", PodState::Running);
        assert!(!is_failing(&p));
        p.reason = Some("ImagePullBackOff".into());
        assert!(is_failing(&p));
    }

    #[test]
    fn a_states_class_is_pod_and_its_key() {
        for s in STATES {
            assert_eq!(state_class(s), format!("pod-{}", state_key(s)));
        }
    }

    #[test]
    fn motion_finds_new_and_newly_ready_pods_and_switches_the_animation() {
        let mut m = Motion::default();
        let first = vec![pod("a", PodState::Pending)];
        let c = m.update(&first, false, false);
        assert_eq!(c.fresh, HashSet::from(["a"]));
        let b1 = c.batch;
        let second = vec![pod("a", PodState::Ready), pod("b", PodState::Pending)];
        let c = m.update(&second, false, false);
        assert_eq!(c.fresh, HashSet::from(["b"]));
        assert_eq!(c.now_ready, HashSet::from(["a"]));
        assert_ne!(c.batch, b1, "a change restarts the animation");
        let c = m.update(&second, false, false);
        assert!(c.fresh.is_empty() && c.now_ready.is_empty());
    }

    #[test]
    fn still_grids_animate_nothing_and_the_next_big_render_grows_nothing_in() {
        let mut m = Motion::default();
        let many: Vec<PodView> = (0..60)
            .map(|i| pod(&format!("p{i:02}"), PodState::Available))
            .collect();
        let c = m.update(&many, true, true);
        assert!(c.batch.is_none() && c.fresh.is_empty());
        let c = m.update(&many[..40], false, false);
        assert!(
            c.fresh.is_empty(),
            "no burst of 40 new pods after being small"
        );
        let more = [&many[..40], &[pod("q", PodState::Pending)]].concat();
        let c = m.update(&more, false, false);
        assert_eq!(c.fresh, HashSet::from(["q"]));
    }

    #[test]
    fn a_small_grid_is_one_element_with_a_token_per_pod_and_escaped_text() {
        let mut doomed = pod("web-rev1-b", PodState::Available);
        doomed.next_deletion = true;
        doomed.node = "node-1".into();
        let mut waiting = pod("web-rev2-c", PodState::Running);
        waiting.reason = Some("Err<\"&'>".into());
        waiting.restarts = 3;
        waiting.back_off_left = Some(20);
        let html = small_grid_html(
            &[pod("web-rev1-a", PodState::Ready), doomed, waiting],
            Some("web-rev1-a"),
            "pod-grid pod-grid-small",
            "3 pods: 1 Ready, 1 Available, 1 Running",
        );
        assert_eq!(
            html,
            concat!(
                r#"<div class="pod-grid pod-grid-small" role="img" aria-label="3 pods: 1 Ready, 1 Available, 1 Running">"#,
                r#"<span class="pod pod-ready pod-selected" data-testid="pod" data-pod="web-rev1-a" data-state="ready" data-node=""></span>"#,
                r#"<span class="pod pod-available pod-doomed" data-testid="pod" data-pod="web-rev1-b" data-state="available" data-node="node-1" data-doomed="true"></span>"#,
                r#"<span class="pod pod-running pod-failing" data-testid="pod" data-pod="web-rev2-c" data-state="running" data-node="" data-reason="Err&lt;&quot;&amp;&#39;&gt;" data-restarts="3" data-back-off="20"></span>"#,
                "</div>"
            )
        );
    }

    #[test]
    fn ghosts_stay_where_they_were_among_their_neighbours() {
        let pods = vec![pod("a", PodState::Available), pod("c", PodState::Available)];
        let items = with_ghosts(
            &pods,
            &["b".to_string(), "d".to_string()],
            |p| html! { <i key={p.name.clone()} /> },
        );
        let keys: Vec<String> = items
            .iter()
            .map(|h| match h {
                yew::virtual_dom::VNode::VTag(t) => {
                    t.key.as_ref().map(|k| k.to_string()).unwrap_or_default()
                }
                _ => String::new(),
            })
            .collect();
        assert_eq!(keys, ["a", "gone/b", "c", "gone/d"]);
    }
}
