//! The lessons menu, the lesson panel (a step's text, its question and the feedback) and the
//! challenge panel. What they show comes from `rollout_facade::lessons` through
//! `crate::lesson`; answers and moves go back as `Msg`s.

use crate::lesson::{Guide, GuideState, StepView};
use crate::state::Msg;
use rollout_facade::lessons::question::{Answer, Expected, Kind};
use rollout_facade::lessons::{challenges, lessons, Target};
use rollout_facade::races::WALKTHROUGHS;
use wasm_bindgen::JsCast;
use yew::prelude::*;

const PROGRESS_KEY: &str = "rollout-lab-progress";

/// The learner's progress, kept in `localStorage` only: the furthest step of each lesson and
/// the challenges solved, as `{"lessons":{"id":step},"challenges":{"id":true}}`.
fn progress() -> serde_json::Value {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| serde_json::json!({"lessons": {}, "challenges": {}}))
}

fn save_progress(update: impl FnOnce(&mut serde_json::Value)) {
    let mut p = progress();
    update(&mut p);
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(PROGRESS_KEY, &p.to_string());
    }
}

/// The menu of every lesson, race walk-through (the Races view, `races::walkthroughs`: checked
/// by the core like the lessons) and challenge, each a link that opens it.
pub fn lessons_menu() -> Html {
    let p = progress();
    html! {
        <details class="lessons-menu" data-testid="lessons-menu">
            <summary class="btn">{ "Lessons" }</summary>
            <div class="lessons-menu-body">
                <h2 class="lessons-menu-title">{ "Lessons" }</h2>
                <ol>
                    { for lessons().iter().map(|l| {
                        let reached = p["lessons"][l.id].as_u64().map(|s| s as usize + 1);
                        let done = reached.is_some_and(|r| r >= l.steps.len());
                        html! {
                            <li>
                                <a data-testid="lesson-link" data-lesson={l.id} href={format!("?lesson={}", l.id)}>{ l.title }</a>
                                if done { <span class="progress-mark" data-testid="lesson-done" aria-label="done">{ " ✓" }</span> }
                                else if let Some(r) = reached { <span class="progress-mark">{ format!(" {r}/{}", l.steps.len()) }</span> }
                            </li>
                        }
                    }) }
                </ol>
                <h2 class="lessons-menu-title">{ "Races: controllers whose caches lag" }</h2>
                <ol>
                    { for WALKTHROUGHS.iter().map(|w| html! {
                        <li>
                            <a data-testid="race-lesson-link" data-race={w.id} href={format!("?view=races&race={}", w.id)}>{ w.title }</a>
                        </li>
                    }) }
                </ol>
                <h2 class="lessons-menu-title">{ "Challenges" }</h2>
                <ol>
                    { for challenges().iter().map(|c| {
                        let solved = p["challenges"][c.id].as_bool() == Some(true);
                        html! {
                            <li>
                                <a data-testid="challenge-link" data-challenge={c.id} href={format!("?challenge={}", c.id)}>{ c.title }</a>
                                if solved { <span class="progress-mark" data-testid="challenge-solved" aria-label="solved">{ " ✓" }</span> }
                            </li>
                        }
                    }) }
                </ol>
            </div>
        </details>
    }
}

/// Props of the guide panel.
#[derive(Properties, PartialEq, Clone)]
pub struct GuideProps {
    /// The lesson or challenge and the learner's answer.
    pub guide: GuideState,
    /// Bumped with the simulation.
    pub version: u64,
    /// A lesson's current step, read out on the simulation (`crate::lesson::step_view`).
    pub view: Option<StepView>,
    /// Moves and answers.
    pub on_msg: Callback<Msg>,
    /// The session has taken a step: a challenge's story folds to give the stage room.
    #[prop_or_default]
    pub started: bool,
    /// Nothing more will happen on the stage (it shows the run's end): a challenge whose goals
    /// are met says "solved" only then, as the goals are checked on the run to its end.
    #[prop_or_default]
    pub at_end: bool,
}

fn selectors(t: &Target) -> String {
    let name = t.name.clone().unwrap_or_default();
    match t.part {
        "rs-lane" => format!(
            r#"[data-testid="rs-lane"][data-name="{name}"], [data-testid="rs-card"][data-name="{name}"]"#
        ),
        "pod" => format!(
            r#"[data-testid="rs-lane"][data-name="{name}"] [data-pod], [data-testid="rs-card"][data-name="{name}"] [data-pod]"#
        ),
        "budget-total" => r#"[data-testid="budget-total"], [data-testid="chart-band"]"#.into(),
        "budget-available" => {
            r#"[data-testid="budget-available"], [data-testid="bounds-summary"]"#.into()
        }
        "condition" => format!(r#"[data-testid="condition-row"][data-type="{name}"]"#),
        "event" => r#"[data-testid="event-row"]"#.into(),
        "explanation" => r#"[data-testid="explanation"]"#.into(),
        "service" => r#"[data-testid="service"]"#.into(),
        "traffic-strip" => r#"[data-testid="traffic-strip"]"#.into(),
        _ => r#"[data-testid="rollout-status"]"#.into(),
    }
}

/// The part of the page one app draws into: the `.app` around the panel (inside a
/// `<rollout-lab>` element's shadow root, where the document's queries do not reach, or on
/// the page), else the whole document.
fn app_root(panel: &NodeRef) -> Option<web_sys::Element> {
    panel
        .cast::<web_sys::Element>()
        .and_then(|el| el.closest(".app").ok().flatten())
        .or_else(|| {
            web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
        })
}

/// Marks what a step points at with the `lesson-highlight` class (and clears the last one),
/// within `root`.
fn highlight(root: Option<&web_sys::Element>, target: Option<&Target>) {
    let Some(root) = root else {
        return;
    };
    let each = |selector: &str, limit: Option<u32>, f: &dyn Fn(&web_sys::Element)| {
        if let Ok(found) = root.query_selector_all(selector) {
            for i in 0..limit.unwrap_or(u32::MAX).min(found.length()) {
                if let Some(el) = found
                    .item(i)
                    .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                {
                    f(&el);
                }
            }
        }
    };
    each(".lesson-highlight", None, &|el| {
        let _ = el.class_list().remove_1("lesson-highlight");
    });
    let Some(t) = target else { return };
    let limit = (t.part == "event").then_some(1);
    each(&selectors(t), limit, &|el| {
        let _ = el.class_list().add_1("lesson-highlight");
    });
}

/// Scrolls the lesson's column (`panel`, a scroll box beside the stage and in Present) so the
/// answer's outcome and Next under it are in view, its top kept in view first; when the
/// column does not scroll (a phone), the page does. Focuses `focus` (the revealed answer after
/// Show me, a pod answer's feedback).
fn reveal_outcome(panel: &NodeRef, focus: Option<&str>) {
    let Some(p) = panel.cast::<web_sys::HtmlElement>() else {
        return;
    };
    let find = |sel: &str| p.query_selector(sel).ok().flatten();
    let Some(outcome) = find(r#"[data-testid="lesson-shown"]"#)
        .or_else(|| find(r#"[data-testid="lesson-feedback"]"#))
        .or_else(|| find(r#"[data-testid="lesson-hint"]"#))
    else {
        return;
    };
    let view_height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(f64::MAX);
    let column = p.get_bounding_client_rect();
    let top = outcome.get_bounding_client_rect().top();
    let bottom = find(".lesson-nav").map_or(outcome.get_bounding_client_rect().bottom(), |n| {
        n.get_bounding_client_rect().bottom()
    });
    // Down until Next's bottom shows, but never so far that the outcome's top leaves.
    let shown_bottom = column.bottom().min(view_height);
    let by = (bottom - shown_bottom).min(top - column.top().max(0.0));
    if by > 0.0 {
        p.set_scroll_top(p.scroll_top() + by.ceil() as i32);
    }
    if outcome.get_bounding_client_rect().bottom() > view_height {
        outcome.scroll_into_view_with_bool(false);
    }
    if let Some(el) = focus
        .and_then(&find)
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// The lesson or challenge panel.
#[function_component(GuidePanel)]
pub fn guide_panel(props: &GuideProps) -> Html {
    // A lesson step: point at its part of the page once this render has reached the DOM (the
    // panel renders before the parts it points at), and remember the furthest step. (Hooks
    // live here: the helpers below are plain functions.)
    let step = match (&props.guide.guide, &props.view) {
        (Guide::Lesson { lesson, step }, Some(v)) => Some((lesson.id, *step, v.target.clone())),
        _ => None,
    };
    let panel = use_node_ref();
    use_effect_with((props.version, step), {
        let panel = panel.clone();
        move |(_, step)| {
            // Found now, while the panel is in the page, and kept for the clean-up (which
            // may run once the panel is gone).
            let root = app_root(&panel);
            if let Some((id, step, target)) = step.clone() {
                let root = root.clone();
                gloo_timers::callback::Timeout::new(0, move || {
                    highlight(root.as_ref(), target.as_ref())
                })
                .forget();
                save_progress(|p| {
                    let best = p["lessons"][id].as_u64().unwrap_or(0).max(step as u64);
                    p["lessons"][id] = serde_json::json!(best);
                });
            }
            move || highlight(root.as_ref(), None)
        }
    });
    // What an answer brought (the feedback, the revealed answer, the hint) and Next under it
    // in view, in the lesson's own column where it scrolls; after Show me the revealed
    // answer takes the focus (the button is disabled), so the keyboard stays in the lesson.
    // A pod's answer (clicked or Entered on the stage) moves the focus to its feedback.
    let outcome = (
        props.guide.feedback.clone().map(|f| f.is_ok()),
        props.guide.shown.is_some(),
        props.guide.hint.is_some(),
        props.guide.asks_for_a_pod(),
    );
    use_effect_with(outcome, {
        let panel = panel.clone();
        move |&(feedback, shown, hint, pod)| {
            if feedback.is_some() || shown || hint {
                let focus = if shown {
                    Some(r#"[data-testid="lesson-shown"]"#)
                } else {
                    (pod && feedback.is_some()).then_some(r#"[data-testid="lesson-feedback"]"#)
                };
                gloo_timers::callback::Timeout::new(0, move || reveal_outcome(&panel, focus))
                    .forget();
            }
        }
    });
    // A challenge whose goals are all met is remembered as solved.
    let solved = match &props.guide.guide {
        Guide::Challenge {
            challenge,
            results: Some(r),
            ..
        } if r.iter().all(|g| g.met) => Some(challenge.id),
        _ => None,
    };
    use_effect_with(solved, |solved| {
        if let Some(id) = *solved {
            save_progress(|p| p["challenges"][id] = serde_json::json!(true));
        }
    });
    match &props.guide.guide {
        Guide::Lesson { lesson, step } => match &props.view {
            Some(view) => lesson_panel(props, lesson, *step, view, panel),
            None => html! {},
        },
        Guide::Challenge {
            challenge,
            results,
            answers,
        } => challenge_panel(props, challenge, results.as_deref(), answers),
    }
}

fn lesson_panel(
    props: &GuideProps,
    lesson: &'static rollout_facade::lessons::Lesson,
    step: usize,
    view: &StepView,
    panel: NodeRef,
) -> Html {
    let msg = |m: Msg| {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(m.clone()))
    };
    let question = question_block(props, view);
    html! {
        <section ref={panel} class="lesson-panel" data-testid="lesson-panel" data-lesson={lesson.id}
            data-step={step.to_string()} aria-label={format!("Lesson: {}", lesson.title)}>
            <div class="lesson-head">
                <h2 class="lesson-title">{ lesson.title }</h2>
                <span class="lesson-count">{ format!("Step {} of {}", step + 1, view.steps) }</span>
                <a class="lesson-doc" href={view.doc_url} target="_blank" rel="noopener">{ view.doc_title }</a>
                <button type="button" class="btn btn-small" data-testid="lesson-close" onclick={msg(Msg::CloseGuide)}>{ "Close" }</button>
            </div>
            if let Some(e) = &props.guide.error {
                <p class="validation-message" role="alert">{ e.clone() }</p>
            }
            <p class="lesson-text" data-testid="lesson-text" aria-live="polite">{ rich(&view.text) }</p>
            if let Some(code) = &view.code {
                <details class="lesson-code" data-testid="lesson-code">
                    <summary>{ "In the code" }</summary>
                    <p>{ rich(code) }</p>
                </details>
            }
            { for question }
            if step + 1 >= view.steps {
                { lesson_complete(props, view) }
            }
            <nav class="lesson-nav" aria-label="Lesson steps">
                <button type="button" class="btn" data-testid="lesson-back" disabled={step == 0}
                    onclick={msg(Msg::LessonBack)} title="Previous step (Page Up)">{ "← Back" }</button>
                if step + 1 < view.steps {
                    <button type="button" class="btn btn-primary" data-testid="lesson-next"
                        onclick={msg(Msg::LessonNext)} title="Next step (Page Down)">{ "Next →" }</button>
                }
            </nav>
        </section>
    }
}

/// A step's question: the prompt, the options or pods, the answer with Check, Hint and Show
/// me, then what they said.
fn question_block(props: &GuideProps, view: &StepView) -> Option<Html> {
    let msg = |m: Msg| {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(m.clone()))
    };
    let on_input = {
        let on = props.on_msg.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                on.emit(Msg::LessonAnswer(i.value()));
            }
        })
    };
    let on_key = {
        let on = props.on_msg.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                on.emit(Msg::LessonCheck);
            }
        })
    };
    let answer = props.guide.answer.clone();
    view.question.as_ref().map(|(prompt, kind, options)| {
        let choices: Vec<usize> = answer
            .split([',', ' '])
            .filter_map(|s| s.parse().ok())
            .collect();
        let toggle = |i: usize| {
            let (on, choices) = (props.on_msg.clone(), choices.clone());
            Callback::from(move |_: Event| {
                let mut c: Vec<usize> = choices.iter().copied().filter(|x| *x != i).collect();
                if !choices.contains(&i) {
                    c.push(i);
                }
                rollout_facade::order::sort_by(&mut c, usize::cmp);
                let text = c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
                on.emit(Msg::LessonAnswer(text));
            })
        };
        let placeholder = match kind {
            Kind::Number => "a number",
            Kind::Round => "a round, or never",
            Kind::Pod => "click a pod (or type its name)",
            Kind::Choice => "the options' numbers",
        };
        html! {
            <div class="lesson-question" data-testid="lesson-question" data-kind={kind.id()}>
                <p class="lesson-prompt" data-testid="lesson-prompt"><strong>{ "Predict: " }</strong>{ rich(prompt) }</p>
                if *kind == Kind::Choice {
                    <ul class="lesson-options">
                        { for options.iter().enumerate().map(|(i, label)| html! {
                            <li><label>
                                <input type="checkbox" data-testid="lesson-option" data-index={i.to_string()}
                                    checked={choices.contains(&i)} onchange={toggle(i)} />
                                { format!(" {i}: {label}") }
                            </label></li>
                        }) }
                    </ul>
                }
                if *kind == Kind::Pod {
                    { pod_choices(props, &view.pods, &answer) }
                }
                <div class="lesson-answer-row">
                    <input class="text-input" data-testid="lesson-answer" aria-label="Your answer"
                        placeholder={placeholder} value={answer.clone()} oninput={on_input} onkeydown={on_key}
                        inputmode={if matches!(kind, Kind::Number | Kind::Round) { "numeric" } else { "text" }} />
                    <button type="button" class="btn btn-primary" data-testid="lesson-check" onclick={msg(Msg::LessonCheck)}>{ "Check" }</button>
                    <button type="button" class="btn" data-testid="lesson-hint-button" onclick={msg(Msg::LessonHint)}
                        disabled={props.guide.hint.is_some() || props.guide.shown.is_some()}
                        title="Where to look, without the answer">{ "Hint" }</button>
                    <button type="button" class="btn" data-testid="lesson-show-me" onclick={msg(Msg::LessonShowMe)}
                        disabled={props.guide.shown.is_some()}
                        title="Plays the simulation to the step that decides it, and says why">{ "Show me" }</button>
                </div>
                if let Some(h) = &props.guide.hint {
                    <p class="lesson-hint" data-testid="lesson-hint" role="status">
                        <strong>{ "Hint: " }</strong>{ rich(h.as_deref().unwrap_or_else(|e| e)) }</p>
                }
                { feedback(&props.guide, options) }
            </div>
        }
    })
}

/// The pods a "which pod?" question asks about, beside it (on a phone the stage is far
/// below): a click answers, as a click on the stage does.
fn pod_choices(props: &GuideProps, pods: &[crate::lesson::PodChoice], answer: &str) -> Html {
    html! {
        <ul class="lesson-pods" aria-label="The pods">
            { for pods.iter().map(|p| {
                let (on, name) = (props.on_msg.clone(), p.name.clone());
                let onclick = Callback::from(move |_: MouseEvent| {
                    on.emit(Msg::LessonAnswer(name.clone()));
                    on.emit(Msg::LessonCheck);
                });
                let node = if p.node.is_empty() { "no node".to_string() } else { p.node.clone() };
                html! {
                    <li><button type="button" class="lesson-pod" data-testid="lesson-pod" data-pod={p.name.clone()}
                        aria-pressed={(answer == p.name).to_string()} {onclick}>
                        <code>{ p.name.clone() }</code>{ format!(" {} · {node}", p.state) }
                    </button></li>
                }
            }) }
        </ul>
    }
}

/// Text with `inline code` (between backticks) set as code.
pub fn rich(text: &str) -> Html {
    html! {
        { for text.split('`').enumerate().map(|(i, part)| if i % 2 == 1 {
            html! { <code>{ part.to_string() }</code> }
        } else {
            html! { { part.to_string() } }
        }) }
    }
}

/// The end of a lesson: it says so, and offers the next lesson (or, after the last, a
/// challenge).
fn lesson_complete(props: &GuideProps, view: &StepView) -> Html {
    let on = props.on_msg.clone();
    let (label, message) = match view.next {
        Some((id, title)) => (
            format!("Next lesson: {title} →"),
            Msg::OpenLesson(id.to_string(), 0),
        ),
        None => {
            let first = &challenges()[0];
            (
                format!("Try a challenge: {} →", first.title),
                Msg::OpenChallenge(first.id.to_string()),
            )
        }
    };
    let onclick = Callback::from(move |_: MouseEvent| on.emit(message.clone()));
    html! {
        <div class="lesson-complete" data-testid="lesson-complete" role="status">
            <p><strong>{ "Lesson complete ✓" }</strong>{ format!(" You have been through all {} steps of “{}”.", view.steps, view.title) }</p>
            <button type="button" class="btn btn-primary" data-testid="lesson-next-lesson" {onclick}>{ label }</button>
        </div>
    }
}

/// The answer in words; a choice names its options by their labels.
fn answer_text(answer: &Answer, options: &[String]) -> String {
    match answer {
        Answer::Choices(c) if !c.is_empty() => c
            .iter()
            .map(|i| {
                options
                    .get(*i)
                    .map_or_else(|| i.to_string(), |l| format!("{i}: {l}"))
            })
            .collect::<Vec<_>>()
            .join("; "),
        a => a.describe(),
    }
}

/// Why the simulation answers as it does: plain sentences, then the Go functions that decided
/// behind "In the code".
fn explanation(e: &Expected) -> Html {
    html! {
        <>
            <ul class="lesson-explanation">
                { for e.explanation.iter().map(|l| html! { <li>{ rich(l) }</li> }) }
            </ul>
            if !e.decisions.is_empty() {
                <details class="lesson-code">
                    <summary>{ "In the code" }</summary>
                    <ul class="lesson-explanation">
                        { for e.decisions.iter().map(|d| html! { <li><code>{ d.function.clone() }</code>{ format!(": {}", d.text) }</li> }) }
                    </ul>
                </details>
            }
        </>
    }
}

/// The check of the learner's answer, then what Show me revealed.
fn feedback(g: &GuideState, options: &[String]) -> Html {
    let shown = g.shown.as_ref().map(|e| {
        html! {
            <div class="lesson-feedback shown" data-testid="lesson-shown" role="status" tabindex="-1">
                <p><strong>{ "The answer: " }</strong><span data-testid="lesson-answer-shown">{ answer_text(&e.answer, options) }</span></p>
                { explanation(e) }
            </div>
        }
    });
    html! { <>{ check_feedback(g) }{ for shown }</> }
}

fn check_feedback(g: &GuideState) -> Html {
    match &g.feedback {
        None => html! {},
        Some(Err(e)) => html! {
            <div class="lesson-feedback" data-testid="lesson-feedback" data-correct="false" role="status">
                <p>{ e.clone() }</p>
            </div>
        },
        Some(Ok(f)) if f.correct => html! {
            <div class="lesson-feedback right" data-testid="lesson-feedback" data-correct="true" role="status" tabindex="-1">
                <p><strong>{ "Right." }</strong></p>
                { explanation(&f.expected) }
            </div>
        },
        Some(Ok(f)) => html! {
            <div class="lesson-feedback wrong" data-testid="lesson-feedback" data-correct="false" role="status" tabindex="-1">
                <p><strong>{ "Not quite. " }</strong>{ rich(f.hint.as_deref().unwrap_or_default()) }</p>
                <p class="lesson-try">{ "Try again, or press Show me." }</p>
            </div>
        },
    }
}

fn challenge_panel(
    props: &GuideProps,
    challenge: &'static rollout_facade::lessons::Challenge,
    results: Option<&[rollout_facade::lessons::GoalResult]>,
    answers: &[String],
) -> Html {
    let check = {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(Msg::ChallengeCheck))
    };
    let close = {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(Msg::CloseGuide))
    };
    let mut prediction = 0usize;
    // Compact, so that the stage stays in view under it (1280×720): the check and close
    // buttons on the title row, the story and hint in a disclosure that folds once the learner
    // steps, the goals (and their results) in one wrapping row under it.
    html! {
        <section class="lesson-panel challenge" data-testid="challenge" data-challenge={challenge.id}
            aria-label={format!("Challenge: {}", challenge.title)}>
            <div class="lesson-head">
                <h2 class="lesson-title">{ format!("Challenge {}: {}", challenge.level, challenge.title) }</h2>
                <button type="button" class="btn btn-primary btn-small" data-testid="challenge-check" onclick={check}
                    title="Runs the session's scenario to its end and checks every goal">{ "Check the goals" }</button>
                <button type="button" class="btn btn-small" data-testid="lesson-close" onclick={close}>{ "Close" }</button>
            </div>
            // Open until the first step (the learner reads it, then watches the stage); the
            // summary opens it again.
            <details class="challenge-body" open={!props.started}>
                <summary class="challenge-summary">{ "The challenge: story and hint" }</summary>
                <p class="lesson-text" data-testid="challenge-story">{ rich(&challenge.story_text().unwrap_or_else(|e| e)) }</p>
                <p class="lesson-hint"><strong>{ "Hint: " }</strong>{ rich(&challenge.hint_text().unwrap_or_else(|e| e)) }
                    { " Change the settings and act with kubectl, then check: the session's scenario is run to its end." }</p>
            </details>
            <ul class="challenge-goals">
                { for challenge.goals.iter().enumerate().map(|(i, goal)| {
                    let result = results.and_then(|r| r.get(i));
                    let input = matches!(goal, rollout_facade::lessons::Goal::PredictAfterScale { .. }).then(|| {
                        let k = prediction;
                        prediction += 1;
                        let on = props.on_msg.clone();
                        let oninput = Callback::from(move |e: InputEvent| {
                            if let Some(el) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                                on.emit(Msg::ChallengeAnswer(k, el.value()));
                            }
                        });
                        html! { <input class="text-input" data-testid="challenge-answer" inputmode="numeric"
                            aria-label={goal.describe()} value={answers.get(k).cloned().unwrap_or_default()} {oninput} /> }
                    });
                    html! {
                        <li class={classes!("challenge-goal", result.map(|r| if r.met { "met" } else { "not-met" }))}
                            data-testid="challenge-goal"
                            data-met={result.map(|r| r.met.to_string())}
                            data-round={result.and_then(|r| r.round).map(|r| r.to_string())}>
                            { result.map_or_else(|| goal.describe(), |r| r.text.clone()) }
                            { for input }
                        </li>
                    }
                }) }
            </ul>
            { solved_banner(props, challenge, results) }
        </section>
    }
}

/// A solved challenge says so, with its figures, and offers the next one.
fn solved_banner(
    props: &GuideProps,
    challenge: &'static rollout_facade::lessons::Challenge,
    results: Option<&[rollout_facade::lessons::GoalResult]>,
) -> Html {
    let Some(results) = results.filter(|r| !r.is_empty() && r.iter().all(|g| g.met)) else {
        return html! {};
    };
    let next = crate::lesson::next_challenge(challenge.id).map(|c| {
        let (on, id) = (props.on_msg.clone(), c.id.to_string());
        let onclick = Callback::from(move |_: MouseEvent| on.emit(Msg::OpenChallenge(id.clone())));
        html! {
            <button type="button" class="btn btn-primary btn-small" data-testid="challenge-next" {onclick}>
                { format!("Next challenge: {} →", c.title) }</button>
        }
    });
    if !props.at_end {
        // Checked on a copy run to the end; the stage has not got there yet.
        return html! {
            <div class="lesson-complete" data-testid="challenge-met-banner" role="status">
                <p>{ format!("All {} goals are met when your scenario runs to its end. Press End to watch it get there.", results.len()) }</p>
            </div>
        };
    }
    html! {
        <div class="lesson-complete" data-testid="challenge-solved-banner" role="status">
            <p><strong>{ "Challenge solved ✓" }</strong>{ format!(" All {} goals met, with the figures above.", results.len()) }</p>
            { for next }
        </div>
    }
}

/// Props of the quiz bar.
#[derive(PartialEq, Clone)]
pub struct QuizProps {
    /// On or off, with the answer, the last check and the score.
    pub quiz: Option<crate::lesson::QuizState>,
    /// The question for the next step (`None`: the next step is not a controller's).
    pub question: Option<(String, Kind)>,
    /// Steps taken (a check is shown only for the step it was made before).
    pub at: usize,
    /// Toggle, answers and checks.
    pub on_msg: Callback<Msg>,
}

/// The quiz toggle and, when on, the prediction asked before the next controller step.
pub fn quiz_bar(props: &QuizProps) -> Html {
    let on = props.on_msg.clone();
    let toggle = Callback::from(move |_: MouseEvent| on.emit(Msg::ToggleQuiz));
    let pressed = props.quiz.is_some();
    let body = props.quiz.as_ref().map(|q| {
        let on = props.on_msg.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                on.emit(Msg::QuizAnswer(i.value()));
            }
        });
        let on = props.on_msg.clone();
        let check = Callback::from(move |_: MouseEvent| on.emit(Msg::QuizCheck));
        let on = props.on_msg.clone();
        let hint = Callback::from(move |_: MouseEvent| on.emit(Msg::QuizHint));
        let shown_hint = q.hint.as_ref().filter(|(at, _)| *at == props.at).map(|(_, h)| h.as_str());
        let feedback = q.feedback.as_ref().filter(|(at, _)| *at == props.at).map(|(_, r)| match r {
            Ok(f) => html! {
                <span class={classes!("lesson-feedback", if f.correct { "right" } else { "wrong" })}
                    data-testid="quiz-feedback" data-correct={f.correct.to_string()} role="status">
                    if f.correct && !q.counted {
                        <>{ "Right, on a second try (the score counts first tries only): " }{ f.expected.explanation.last().cloned().unwrap_or_default() }</>
                    } else if f.correct {
                        <>{ "Right: " }{ f.expected.explanation.last().cloned().unwrap_or_default() }</>
                    } else {
                        <>{ "Not quite: " }{ rich(f.hint.as_deref().unwrap_or_default()) }{ " Step to see what happens." }</>
                    }
                </span>
            },
            Err(e) => html! { <span class="lesson-feedback" data-testid="quiz-feedback" data-correct="false" role="status">{ e.clone() }</span> },
        });
        html! {
            <>
                <span class="quiz-score" data-testid="quiz-score" data-right={q.score.right.to_string()}
                    data-asked={q.score.asked.to_string()} title="Each question's first try counts">{ format!("{} / {} right (first tries)", q.score.right, q.score.asked) }</span>
                if let Some((prompt, kind)) = &props.question {
                    <span class="quiz-question" data-testid="quiz-question" data-kind={kind.id()}>{ prompt.clone() }</span>
                    <input class="text-input" data-testid="quiz-answer" aria-label="Your prediction"
                        value={q.answer.clone()} {oninput} />
                    <button type="button" class="btn btn-primary" data-testid="quiz-check" onclick={check}>{ "Check" }</button>
                    <button type="button" class="btn" data-testid="quiz-hint-button" onclick={hint}
                        disabled={shown_hint.is_some()} title="Where to look, without the answer">{ "Hint" }</button>
                    if let Some(h) = shown_hint {
                        <span class="lesson-hint" data-testid="quiz-hint" role="status"><strong>{ "Hint: " }</strong>{ rich(h) }</span>
                    }
                } else {
                    <span class="quiz-question">{ "No controller acts in the next step: step on." }</span>
                }
                { for feedback }
            </>
        }
    });
    html! {
        <div class="quiz-bar">
            <button type="button" class="btn btn-toggle" data-testid="quiz-toggle"
                aria-pressed={pressed.to_string()} onclick={toggle}
                title="Predict what the next controller step does">{ "Quiz" }</button>
            { for body }
        </div>
    }
}
