//! The root component: the header, playback, the cluster, the explanation and the settings.
//! All state is in one reducer ([`Lab`]); the page is drawn from [`Frame`], recomputed once
//! per simulation version.

use crate::components::inside_section::{inside_section, reveal};
use crate::components::logo::logo;
use crate::components::stage::Stage;
use crate::components::transport::{outcome_key, rollout_state};
use crate::components::{
    chart_panel, deployment_status, explanation_panel, lessons_menu, quiz_bar, settings_panel,
    ChartPanelProps, DeploymentStatusProps, EventsTable, ExplanationPanelProps, GuidePanel,
    KubectlPanel, QuizProps, ReplicaSets, ScenarioPanel, Select, SettingsPanelProps, Transport,
};
use crate::hooks::use_keyboard::Route;
use crate::hooks::Page;
use crate::hooks::Presenting;
use crate::settings::StrategyKind;
use crate::state::compare::Compare;
use crate::state::{Frame, Lab, Msg};
use rollout_facade::scenario::Scenario;
use rollout_facade::view::DeploymentView;
use std::rc::Rc;
use yew::prelude::*;

/// What the app starts from and how it behaves. Every prop has a default, so `<App />` is
/// the full page; an embed can start from a scenario or a preset and opt out of the
/// document-wide keyboard shortcuts.
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// Start from this preset (`custom` or one of `rollout_facade::presets`).
    #[prop_or_default]
    pub preset: Option<AttrValue>,
    /// Start from this scenario (wins over `preset`).
    #[prop_or_default]
    pub scenario: Option<Rc<Scenario>>,
    /// Listen for Space and the arrow keys on the whole document.
    #[prop_or(true)]
    pub keyboard: bool,
    /// Show the header (title and preset menu).
    #[prop_or(true)]
    pub header: bool,
    /// Start from this lab (a restored permalink, see `crate::share`; wins over the others).
    #[prop_or_default]
    pub start: Option<Rc<Lab>>,
}

impl Default for AppProps {
    fn default() -> Self {
        AppProps {
            preset: None,
            scenario: None,
            keyboard: true,
            header: true,
            start: None,
        }
    }
}

fn initial_lab(props: &AppProps) -> Lab {
    if let Some(lab) = &props.start {
        return (**lab).clone();
    }
    // An unknown preset: the default.
    Lab::starting(props.scenario.as_deref(), props.preset.as_deref()).unwrap_or_default()
}

/// Rollout Lab.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let lab = use_reducer(|| initial_lab(props));
    // The stage, the Plan page (`?view=plan`) or the Races view (`?view=races`):
    // crate::hooks::use_plan_page.
    let (page, go_page) = crate::hooks::use_plan_page();
    let plan_page = page == Page::Plan;
    let large = use_state(|| false);
    let presenting = crate::hooks::use_presentation();
    crate::hooks::use_guide_address(lab.guide.is_some());
    let dispatcher = lab.dispatcher();

    // Playback (one step per tick) and seeking (the next chunk once this one is drawn).
    crate::hooks::use_playback(&lab);
    // What Step does, set once Compare is known below: while comparing, both stages go to
    // the next moment either changes (crate::state::compare::route_step).
    let route = use_mut_ref(|| None::<Rc<dyn Fn(Msg) -> Msg>>);
    // Keyboard: Space plays / pauses, arrows step (Shift: a whole round), P presents.
    crate::hooks::use_keyboard(
        props.keyboard && page == Page::Stage,
        dispatcher.clone(),
        route.clone(),
        presenting.dispatcher(),
    );

    let frame = crate::hooks::use_frame(&lab);

    let frame: &Frame = &frame;
    // Compare side by side (crate::compare): its own reducer, following this lab.
    let compare = crate::hooks::use_compare(&lab);
    *route.borrow_mut() = Some(crate::hooks::route_step(&lab, &compare));
    let on_msg = routed(&dispatcher, &route);
    let started = lab.started();
    let deployment = frame.cluster.deployments.first().cloned();
    let first_command = first_command(frame, started);
    let band = deployment
        .as_ref()
        .map_or(lab.settings.strategy == StrategyKind::RollingUpdate, |d| {
            d.strategy == "RollingUpdate"
        });
    let scenario_json = {
        let lab = lab.clone();
        Callback::from(move |()| {
            serde_json::to_string_pretty(lab.sim().scenario()).unwrap_or_default()
        })
    };
    // "Inside the controllers", while open: computed from this lab's simulation at its step.
    let inside = crate::hooks::use_inside_frame(&lab);
    // The trace or the chart as a file, for the Scenario panel.
    let file = {
        let lab = lab.clone();
        Callback::from(move |what: &'static str| file_of(&lab, what))
    };
    let description = rollout_facade::presets::menu()
        .find(|(id, _, _)| *id == lab.preset)
        .map(|(_, _, description)| description);
    // The open Copy link / Embed dialog, drawn through a portal (crate::components::share_dialog).
    let (share, on_share, close_share) = crate::hooks::use_share_dialog::use_share_dialog();
    let share_session = share_session(&lab, &scenario_json, &compare);
    let share_buttons = crate::components::share_buttons(&share_session, &on_share, &on_msg);
    let selected = lab.selected.clone().map(AttrValue::from);
    let on_select = select_callback(&lab);
    let quiz_question = lab.quiz.as_ref().and_then(|_| {
        rollout_facade::lessons::quiz::next_question(&lab.sim()).map(|q| (q.prompt, q.ask.kind()))
    });

    let present = presenting.0;
    // The Plan view forecasts the settings' Deployment (the last valid settings while typing).
    let plan_source = crate::hooks::use_plan_source(&lab);
    // "Watch it" on the Plan page: its Deployment as planned, on the stage.
    let watch = {
        let (d, go_page) = (dispatcher.clone(), go_page.clone());
        Callback::from(move |scenario: String| {
            d.dispatch(Msg::Import(scenario));
            go_page.emit(Page::Stage);
        })
    };
    let chart = chart_panel(&ChartPanelProps {
        points: frame.chart.clone(),
        horizon: frame.horizon,
        band,
        heading: 2,
    });
    let stage_a = stage_a(&lab, frame, &compare, &presenting, &on_select, &chart);

    html! {
        // `on-plan` / `on-races`: the page shown, for the stylesheets (a class, not
        // `.app:has(…)`: a `:has()` over the app's subtree made Chrome check it on every
        // step's DOM changes, about 6 ms a step at 100 replicas; BENCHMARKS.md).
        <div class={classes!("app", large.then_some("large-text"), present.then_some("presenting"), (compare.on && !present).then_some("comparing"),
            (plan_page && !present).then_some("on-plan"), (page == Page::Races).then_some("on-races"))} data-version={lab.version.to_string()}>
            if props.header && !present {
                { header(Header {
                    preset: AttrValue::from(lab.preset.clone()),
                    preset_options: preset_options(&lab),
                    on_preset: {
                        let d = lab.dispatcher();
                        Callback::from(move |id: String| d.dispatch(Msg::LoadPreset(id)))
                    },
                    page,
                    go_page: go_page.clone(),
                    // The stage's session: not what the Races view shows (its address is its link).
                    share: if page == Page::Races { Html::default() } else { share_buttons },
                    large: *large,
                    toggle_large: {
                        let large = large.clone();
                        Callback::from(move |_: MouseEvent| large.set(!*large))
                    },
                }) }
            }
            { notice(&lab) }
            if page == Page::Races {
                // Read from the address when opened: the walk-through and steps of a permalink.
                <crate::components::races_view::RacesView link={races_link()} />
            }
            if page == Page::Stage {
            { stage_area(&lab, frame, &compare, stage_a, present, &on_msg) }
            { quiz_bar(&QuizProps { quiz: lab.quiz.clone(), question: quiz_question, at: frame.steps, on_msg: on_msg.clone() }) }
            if !present {
                { layout(&lab, frame, Layout {
                    description,
                    first_command,
                    chart,
                    selected,
                    on_select,
                    deployment,
                    scenario_json,
                    file,
                    on_msg: on_msg.clone(),
                }) }
            }
            if !present {
                { inside_section(inside, &on_msg) }
            }
            }
            // The Plan page stays mounted behind the stage, so its text survives a visit there.
            <crate::components::plan_view::PlanView source={plan_source} visible={plan_page && !present} on_watch={watch} />
            if let Some(open) = &share {
                { crate::components::share_dialog::share_portal(open, close_share) }
            }
        </div>
    }
}

/// Before the first step: every command it applies (the scenario's and any given since).
fn first_command(frame: &Frame, started: bool) -> Option<AttrValue> {
    (!started && !frame.pending.is_empty()).then(|| {
        let first = frame.pending[0].round;
        let all: Vec<&str> = frame
            .pending
            .iter()
            .filter(|p| p.round == first)
            .map(|p| p.command.as_str())
            .collect();
        AttrValue::from(all.join("; "))
    })
}

/// The trace or the chart of `lab` as a file: its name, its type and its text.
fn file_of(lab: &Lab, what: &str) -> (&'static str, &'static str, String) {
    match what {
        "chart" => {
            let f = Frame::of(lab);
            let band = f
                .cluster
                .deployments
                .first()
                .is_none_or(|d| d.strategy == "RollingUpdate");
            let title = format!("Pods over time: {}", f.deployment);
            (
                "rollout-lab-chart.svg",
                "image/svg+xml",
                crate::export::chart_svg(&f.chart, f.horizon, band, &title),
            )
        }
        _ => (
            "rollout-lab-trace.json",
            "application/json",
            crate::export::trace_json(&lab.sim()),
        ),
    }
}

/// The preset menu: the menu's titles only (building the presets' scenarios on every render
/// would be waste), and the imported, lesson's or challenge's scenario the lab shows.
fn preset_options(lab: &Lab) -> Vec<(AttrValue, AttrValue)> {
    let mut preset_options: Vec<(AttrValue, AttrValue)> =
        vec![("custom".into(), "Custom: from the settings".into())];
    preset_options.extend(
        rollout_facade::presets::menu()
            .map(|(id, title, _)| (AttrValue::from(id), AttrValue::from(title))),
    );
    if lab.preset == "imported" {
        preset_options.push(("imported".into(), "Imported scenario".into()));
    }
    // A lesson's or challenge's scenario (also once its panel is closed).
    if lab.preset == "lesson" || lab.preset == "challenge" {
        let title = match lab.guide.as_ref().map(|g| &g.guide) {
            Some(crate::lesson::Guide::Lesson { lesson, .. }) => {
                format!("Lesson: {}", lesson.title)
            }
            Some(crate::lesson::Guide::Challenge { challenge, .. }) => {
                format!("Challenge: {}", challenge.title)
            }
            None if lab.preset == "lesson" => "A lesson's scenario".to_string(),
            None => "A challenge's scenario".to_string(),
        };
        preset_options.push((AttrValue::from(lab.preset.clone()), title.into()));
    }
    preset_options
}

/// The stage's caption: what the last step did, what End or Compare's Step ran, or what the
/// first step will do.
fn caption(
    lab: &Lab,
    frame: &Frame,
    deployment: Option<&DeploymentView>,
    first_command: Option<&AttrValue>,
) -> String {
    // Commands due at this moment, not applied yet (the first visit's `kubectl set image`).
    let due_now = (frame.at_round_start && frame.step_note.is_none())
        .then(|| {
            frame
                .pending
                .iter()
                .filter(|p| p.round == frame.round)
                .map(|p| p.command.as_str())
                .collect::<Vec<_>>()
        })
        .filter(|c| !c.is_empty());
    match frame.explanation.as_ref() {
        // After End or Compare's Step: what it ran (the status line says where it stopped).
        Some(_) if lab.ran.is_some() => lab.ran.clone().unwrap_or_default(),
        // A moment reached with commands due: the state, and what Step applies.
        Some(_) if due_now.is_some() => format!(
            "{}. Next: {}. Press Step (→) to apply it.",
            deployment
                .as_ref()
                .map_or(String::new(), |d| crate::explain::capitalise(
                    d.rollout_status.message.trim_end()
                )),
            due_now.unwrap_or_default().join("; ")
        ),
        Some(e) => crate::explain::caption_after(e, frame.step_note.as_ref()),
        None => match &first_command {
            Some(cmd) => format!("Nothing has run yet. The first step applies {cmd}"),
            None => "Nothing has run yet. Press Step (or →) to begin.".to_string(),
        },
    }
}

/// What the page's header shows.
struct Header {
    preset: AttrValue,
    preset_options: Vec<(AttrValue, AttrValue)>,
    on_preset: Callback<String>,
    page: Page,
    go_page: Callback<Page>,
    /// "Copy link" and "Embed".
    share: Html,
    large: bool,
    toggle_large: Callback<MouseEvent>,
}

/// The page's header: the title, the preset menu, the lessons, Plan, sharing, large text.
fn header(h: Header) -> Html {
    html! {
    <header class="app-header">
        <div class="brand">
            { logo() }
            <div>
                <h1>{ "Rollout Lab" }</h1>
                <p class="tagline">{ "How Kubernetes rolls out a Deployment, step by step, worked out by a Rust port of its controllers (1.37, or 1.28 on request)." }</p>
            </div>
        </div>
        <div class="header-tools">
            <div class="preset-picker">
                <label class="field-label" for="preset">{ "Start from" }</label>
                <Select id="preset" testid="preset-select" value={h.preset}
                    options={h.preset_options} on_change={h.on_preset} />
            </div>
            { lessons_menu() }
            if h.page != Page::Stage {
                <button type="button" class="btn" data-testid="stage-open" onclick={h.go_page.reform(|_: MouseEvent| Page::Stage)}
                    title="Back to the stage: step through the rollout">{ "Stage" }</button>
            }
            <button type="button" class="btn" data-testid="races-open" onclick={h.go_page.reform(|_: MouseEvent| Page::Races)}
                aria-current={(h.page == Page::Races).then_some("page")}
                title="Races: the two controllers with caches that lag, stepped by hand">{ "Races" }</button>
            <button type="button" class="btn" data-testid="plan-open" onclick={h.go_page.reform(|_: MouseEvent| Page::Plan)}
                aria-current={(h.page == Page::Plan).then_some("page")}
                title="Forecast a rollout on a page of its own: duration, peak pods, lowest availability, sweeps">{ "Plan" }</button>
            { h.share }
            <button type="button" class="btn btn-toggle" data-testid="large-text-toggle"
                aria-pressed={if h.large { "true" } else { "false" }} onclick={h.toggle_large}
                title="Larger text for projectors">
                <span aria-hidden="true" class="aa">{ "Aa" }</span>{ "Large text" }
            </button>
        </div>
    </header>
    }
}

/// What the panels under the stage show besides the lab and its frame.
struct Layout {
    description: Option<&'static str>,
    first_command: Option<AttrValue>,
    chart: Html,
    selected: Option<AttrValue>,
    on_select: Callback<String>,
    deployment: Option<DeploymentView>,
    scenario_json: Callback<(), String>,
    file: Callback<&'static str, (&'static str, &'static str, String)>,
    on_msg: Callback<Msg>,
}

/// The panels under the stage: the explanation and the chart, kubectl, the ReplicaSets and
/// the Deployment's status, the events; beside them the settings and the scenario.
fn layout(lab: &Lab, frame: &Frame, p: Layout) -> Html {
    let next_image = lab.next_image();
    let next_image_broken = lab
        .sim()
        .scenario()
        .never_ready_images
        .contains(&next_image);
    let next_round = lab.sim().next_action_round();
    let (problems, started) = (lab.problems(), lab.started());
    html! {
    <div class="layout">
        <main class="main">
            if let Some(d) = p.description {
                <p class="preset-description" data-testid="preset-description">{ d }</p>
            }
            <div class="cluster-grid">
                <div class="cluster-col">
                    { explanation_panel(&ExplanationPanelProps { explanation: frame.explanation.clone(), note: frame.step_note.clone(), first_command: p.first_command, now: frame.time }) }
                </div>
                <div class="cluster-col">
                    { p.chart }
                </div>
            </div>
            <KubectlPanel
                deployment={AttrValue::from(frame.deployment.clone())}
                next_image={AttrValue::from(next_image)}
                {next_image_broken}
                replicas={AttrValue::from(lab.settings.replicas.trim().to_string())}
                paused={lab.session().paused_after_pending()}
                history={frame.history.clone()}
                pending={frame.pending.clone()}
                console={lab.console.clone()}
                {next_round}
                quota={lab.session().quota_after_pending()}
                on_msg={p.on_msg.clone()}
            />
            <div class="cluster-grid">
                <div class="cluster-col">
                    <ReplicaSets
                        replica_sets={frame.replica_sets.clone()}
                        departed={frame.departed.clone()}
                        before={lab.before.clone()}
                        selected={p.selected}
                        on_select={p.on_select}
                        pods={false}
                    />
                </div>
                <div class="cluster-col">
                    { deployment_status(&DeploymentStatusProps {
                        deployment: p.deployment,
                        name: AttrValue::from(frame.deployment.clone()),
                        now: frame.time,
                        before: lab.before.clone(),
                        get_pods: frame.get_pods.clone().map(AttrValue::from),
                        kubernetes: lab.kubernetes(),
                    }) }
                </div>
            </div>
            <EventsTable
                deployment_events={frame.deployment_events.clone()}
                all_events={frame.all_events.clone()}
                total={frame.event_count}
                name={AttrValue::from(frame.deployment.clone())}
                round={frame.round}
            />
        </main>
        <aside class="aside" aria-label="Settings">
            { settings_panel(&SettingsPanelProps {
                settings: lab.settings.clone(),
                applied: lab.applied.clone(),
                problems,
                started,
                on_msg: p.on_msg.clone(),
            }) }
            <ScenarioPanel json={p.scenario_json} version={lab.version} on_msg={p.on_msg.clone()}
                file={Some(p.file)} />
            <p class="footnote">
                { "Keyboard: Space plays and pauses, ← and → step, Shift+← and Shift+→ move a whole round, P presents." }
            </p>
        </aside>
    </div>
    }
}

/// The transport bar: the clock, Step, Back, Play and the timeline.
fn transport(
    lab: &Lab,
    frame: &Frame,
    deployment: Option<&DeploymentView>,
    on_msg: &Callback<Msg>,
) -> Html {
    html! {
        <Transport
            round={frame.round}
            time={frame.time}
            at_round_start={frame.at_round_start}
            finished={frame.finished}
            can_back={frame.can_back}
            steps={frame.steps}
            horizon={frame.horizon}
            action_rounds={frame.action_rounds.clone()}
            playing={lab.playing}
            seeking={lab.seek.is_some()}
            speed={lab.speed}
            settled={frame.settled.as_ref().map(|s| (outcome_key(s.outcome), AttrValue::from(s.sentence.clone())))}
            instant={lab.session().instant_reactions()}
            state={deployment.as_ref().map(|d| rollout_state(d, frame.pending.first().map(|p| p.command.as_str())))}
            next_image={deployment.is_some().then(|| AttrValue::from(lab.next_image()))}
            on_msg={on_msg.clone()}
        />
    }
}

/// The stage's own tools: presentation mode and Compare's switch.
fn stage_tools(present: bool, toggle_present: Callback<MouseEvent>, compare_toggle: Html) -> Html {
    html! { <>
        <button type="button" class={classes!("btn", "btn-toggle", present.then_some("is-on"))} data-testid="present-toggle"
            aria-pressed={if present { "true" } else { "false" }} onclick={toggle_present}
            title={if present { "Leave presentation mode (P or Esc)" } else { "Presentation mode: the stage fills the screen (P)" }}>
            <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 4h18v12H3zM5 6v8h14V6zM11 17h2v2h4v2H7v-2h4z" /></svg>
            <span>{ if present { "Leave presentation" } else { "Present" } }</span>
        </button>
        { compare_toggle }
    </> }
}

/// The stage area: the lesson's panel, the transport bar and the stage (beside B's while
/// comparing); in presentation mode, the page's main content (a landmark with the page's
/// heading), otherwise a plain wrapper that takes no part in the layout.
fn stage_area(
    lab: &Lab,
    frame: &Frame,
    compare: &UseReducerHandle<Compare>,
    stage_a: Html,
    present: bool,
    on_msg: &Callback<Msg>,
) -> Html {
    let lesson_view = lab
        .guide
        .as_ref()
        .and_then(|g| crate::lesson::view_of(g, &lab.sim()));
    html! {
        // In presentation mode the stage is the page's main content (a landmark with the
        // page's heading); otherwise a plain wrapper that takes no part in the layout.
        <@{if present { "main" } else { "div" }} class={classes!("stage-area", (present && lab.guide.is_some()).then_some("with-guide"),
            (!present && !compare.on && lesson_view.is_some()).then_some("beside-lesson"))}>
        if present {
            <h1 class="visually-hidden">{ "Rollout Lab: presentation" }</h1>
        }
        if let Some(guide) = &lab.guide {
            <GuidePanel guide={guide.clone()} version={lab.version} view={lesson_view} on_msg={on_msg.clone()} started={frame.steps > 0} at_end={frame.settled.is_some()} />
        }
        { transport(lab, frame, frame.cluster.deployments.first(), on_msg) }
        if compare.on && !present {
            // Compare: A's and B's stages side by side (stacked on narrow screens), B's
            // settings and the figures under them.
            // Each side's forecast right above its stage, the figures that differ marked.
            <div class="compare-stages compare-strip">
                { crate::components::compare::figures_beside(compare, false) }
                { crate::components::compare::figures_beside(compare, true) }
            </div>
            <div class="compare-stages" data-testid="compare-stages">
                { stage_a.clone() }
                { crate::components::compare::stage_b(compare) }
            </div>
            { crate::components::compare::bar(compare, &lab.settings, frame.settled.is_some()) }
        } else {
            { stage_a }
        }
        </@>
    }
}

/// The stage of this page's Deployment (A while comparing), with its tools and caption; in
/// presentation mode the chart beside it and pods that cannot be selected.
fn stage_a(
    lab: &Lab,
    frame: &Frame,
    compare: &UseReducerHandle<Compare>,
    presenting: &UseReducerHandle<Presenting>,
    on_select: &Callback<String>,
    chart: &Html,
) -> Html {
    let present = presenting.0;
    let toggle_present = {
        let p = presenting.dispatcher();
        Callback::from(move |_: MouseEvent| p.dispatch(None))
    };
    let stage_tools = stage_tools(
        present,
        toggle_present,
        crate::components::compare::toggle(compare, &lab.settings),
    );
    let explanation = frame.explanation.as_ref();
    let first_command = first_command(frame, lab.started());
    let deployment = frame.cluster.deployments.first();
    let caption = caption(lab, frame, deployment, first_command.as_ref());
    let selected = lab.selected.clone().map(AttrValue::from);
    let (traffic, traffic_error) = match &frame.traffic {
        Some(Ok(t)) => (Some(t.clone()), None),
        Some(Err(e)) => (None, Some(AttrValue::from(e.clone()))),
        None => (None, None),
    };
    html! {
    <Stage
        {traffic}
        {traffic_error}
        deployment={AttrValue::from(frame.deployment.clone())}
        replica_sets={frame.replica_sets.clone()}
        departed={frame.departed.clone()}
        budget={frame.budget.clone()}
        caption={AttrValue::from(caption)}
        actor={explanation.map(|e| e.actor.key())}
        version={lab.version}
        selected={selected}
        on_select={if present { Callback::noop() } else { on_select.clone() }}
        tools={stage_tools}
        title={compare.on.then_some(AttrValue::Static("A: this page's Deployment"))}
        kubernetes={Some(lab.kubernetes())}
    >
        if present { { chart.clone() } }
    </Stage>
    }
}

/// What a click on an object does: select it, and open "Inside the controllers" at it unless
/// it answers a lesson's question (a pod clicked answers it where it is asked).
fn select_callback(lab: &UseReducerHandle<Lab>) -> Callback<String> {
    let d = lab.dispatcher();
    // With a lesson or challenge open, a pod tapped or Entered stays where it is (the lesson
    // beside it answers or reads it); the page does not jump to "Inside the controllers".
    let answering = lab.guide.is_some();
    Callback::from(move |object: String| {
        d.dispatch(Msg::Select(object));
        if !answering {
            reveal();
        }
    })
}

/// The session as the share dialog takes it when a button is pressed (with Compare's B while
/// comparing).
fn share_session(
    lab: &UseReducerHandle<Lab>,
    json: &Callback<(), String>,
    compare: &UseReducerHandle<Compare>,
) -> Callback<(), crate::share::ShareSession> {
    let (lab, json) = (lab.clone(), json.clone());
    let variant = compare.on.then(|| compare.variant.clone());
    Callback::from(move |()| crate::share::ShareSession {
        compare: variant.clone(),
        ..crate::share::session_of(&lab, json.emit(()))
    })
}

/// `on_msg` for the page's components: each message through `route` (what Step does while
/// comparing) to the lab.
fn routed(d: &UseReducerDispatcher<Lab>, route: &Route) -> Callback<Msg> {
    let (d, route) = (d.clone(), route.clone());
    Callback::from(move |m: Msg| {
        let m = match route.borrow().as_ref() {
            Some(r) => r(m),
            None => m,
        };
        d.dispatch(m)
    })
}

/// The notice, with its OK button. A status notice (where the session came to rest) is said
/// by the status line instead.
fn notice(lab: &UseReducerHandle<Lab>) -> Html {
    let dismiss = {
        let d = lab.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::DismissNotice))
    };
    html! {
        if let (Some(n), false) = (&lab.notice, lab.status_notice) {
        <div class="notice" role="status" data-testid="notice">
            <span>{ n.clone() }</span>
            <button type="button" class="btn btn-small" onclick={dismiss} aria-label="Dismiss">{ "OK" }</button>
        </div>
        }
    }
}

/// The Races view's start the address asks for (`?view=races&race=…&steps=…`).
fn races_link() -> rollout_facade::embed::RaceLink {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    rollout_facade::embed::race_link(&search).unwrap_or_default()
}
