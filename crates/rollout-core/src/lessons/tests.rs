//! Goes through every lesson: each step reaches its moment, every placeholder resolves, and
//! each question's computed answer is what the simulation then does, so a change in the core
//! can never leave a lesson saying something false.

use super::moment::{self, Moment};
use super::question::{self, Answer, Ask, Expected, Kind};
use super::*;
use crate::scenario::ActionKind;
use crate::sim::{Simulation, StepKind};

/// Checks, on a copy of `sim`, that the simulation does what `expected` says, by watching the
/// API server rather than re-running the question's own computation where possible.
fn verify(ask: &Ask, sim: &Simulation, expected: &Expected, at: &str) {
    let mut s = sim.clone_without_history();
    let before = s.api().clone();
    let take = |s: &mut Simulation, n: usize| {
        for i in 0..n {
            assert!(
                s.step().is_some(),
                "{at}: the scenario ended after {i} of {n} steps"
            );
        }
    };
    match (ask, &expected.answer) {
        (Ask::DesiredAfterNextSync(rs), Answer::Number(n)) => {
            take(&mut s, expected.steps - 1);
            assert!(
                s.past_steps()
                    .all(|r| !matches!(r.kind, StepKind::SyncDeployment { .. })),
                "{at}: a Deployment sync came earlier"
            );
            take(&mut s, 1);
            let r = s.last_step().unwrap();
            assert!(matches!(r.kind, StepKind::SyncDeployment { .. }), "{at}");
            let got = moment::resolve(s.api(), *rs).expect("the ReplicaSet exists");
            assert_eq!(i64::from(got.spec.replicas), *n, "{at}");
        }
        (Ask::CreatedInNextSync(rs), Answer::Number(n)) => {
            let rs = moment::resolve(s.api(), *rs).unwrap();
            take(&mut s, expected.steps - 1);
            let count = |s: &Simulation| s.api().pods_of_iter(&rs).count() as i64;
            let was = count(&s);
            take(&mut s, 1);
            assert_eq!(
                s.last_step().unwrap().kind,
                StepKind::SyncReplicaSet {
                    name: rs.metadata.name.clone()
                },
                "{at}"
            );
            assert_eq!(count(&s) - was, *n, "{at}: pods created");
        }
        (Ask::NextDeletedPod, Answer::Pods(pods)) => {
            assert_eq!(pods.len(), 1, "{at}: one pod is right");
            let active = |s: &Simulation, p: &str| s.api().pod(p).is_some_and(|p| p.is_active());
            assert!(active(&s, &pods[0]), "{at}: {} is active now", pods[0]);
            take(&mut s, expected.steps - 1);
            let all_active: Vec<String> = before
                .pods()
                .filter(|p| p.is_active())
                .map(|p| p.metadata.name.clone())
                .collect();
            assert!(
                all_active.iter().all(|p| active(&s, p)),
                "{at}: a pod went earlier"
            );
            take(&mut s, 1);
            assert!(!active(&s, &pods[0]), "{at}: {} was deleted", pods[0]);
        }
        (Ask::RoundOf(m), Answer::Round(round)) => {
            let got = match moment::run_to(&mut s, m) {
                Ok(_) => Some(moment::round_reached(m, &s, s.last_step().unwrap())),
                Err(_) => None,
            };
            assert_eq!(got, *round, "{at}");
        }
        (Ask::Completes, Answer::Round(round)) => {
            let image = moment::deployment(s.api())
                .unwrap()
                .spec
                .template
                .image
                .clone();
            let mut done = None;
            while s.step().is_some() {
                let d = moment::deployment(s.api()).unwrap();
                if d.spec.template.image != image {
                    break;
                }
                let status = crate::kubectl::rollout_status::rollout_status_of(d, 0);
                if status.done {
                    done = Some(s.last_step().unwrap().round);
                    break;
                }
            }
            assert_eq!(done, *round, "{at}");
        }
        (Ask::Refused(options), Answer::Choices(refused)) => {
            for (i, o) in options.iter().enumerate() {
                let patch: serde_json::Value = serde_json::from_str(o.patch).unwrap();
                let strategy = serde_json::from_value(patch["strategy"].clone()).unwrap();
                let mut t = sim.clone_without_history();
                let round = t.push_action(ActionKind::SetStrategy {
                    name: None,
                    strategy,
                });
                while t.round() < round || !t.at_round_start() {
                    t.step();
                }
                let record = t.step().unwrap().clone();
                assert_eq!(record.kind, StepKind::Actions, "{at}");
                assert_eq!(
                    !record.errors.is_empty(),
                    refused.contains(&i),
                    "{at}: {}: {:?}",
                    o.label,
                    record.errors
                );
            }
        }
        (Ask::FailedRequests, Answer::Number(n)) => {
            // Second by second over the window, as the strip shows them.
            let run = crate::traffic::run_scenario(s.scenario(), None, None).unwrap();
            let (from, to) = super::question::request_window(&s, &run);
            let failed: i64 = (from..to)
                .map(|t| i64::from(run.figures_at(t).failed()))
                .sum();
            assert_eq!(failed, *n, "{at}");
        }
        (ask, answer) => panic!("{at}: {ask:?} answered with {answer:?}"),
    }
}

/// Wrong answers of the same kind as `a`: too many and too few, another pod of the same
/// ReplicaSet and one of another, too early, too late, never.
fn wrongs(a: &Answer, sim: &Simulation) -> Vec<String> {
    match a {
        Answer::Number(n) => vec![(n + 1).to_string(), (n - 1).to_string(), "999".into()],
        Answer::Pods(p) => {
            let owner = |name: &str| name.rsplit_once('-').map(|(rs, _)| rs.to_string());
            let mut others: Vec<String> = sim
                .api()
                .pods()
                .filter(|x| x.is_active() && x.metadata.name != p[0])
                .map(|x| x.metadata.name.clone())
                .collect();
            others.sort_by_key(|x| owner(x) != owner(&p[0]));
            let same = others.first().cloned().expect("another pod");
            let other = others.iter().find(|x| owner(x) != owner(&p[0])).cloned();
            [Some(same), other, Some("web-rev9-00009".into())]
                .into_iter()
                .flatten()
                .collect()
        }
        Answer::Round(Some(r)) => {
            let mut w = vec![(r + 1).to_string(), "never".into()];
            if *r > sim.round() {
                w.push((r - 1).to_string());
            }
            w
        }
        Answer::Round(None) => vec![(sim.round() + 3).to_string()],
        Answer::Choices(_) => vec![wrong(a, sim)],
    }
}

/// The numbers in `text` as a reader sees them: runs of digits not inside a name
/// (`web-rev2-00001` and `nginx:1.16.1` are not numbers; `25%` and `3.` are).
pub(super) fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == ':' || c == '.'))
        .map(|t| t.trim_end_matches('.'))
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// A hint says why an answer is wrong, or where to look, and never gives the answer away: no
/// placeholder, no number, pod name, round or time that is the answer, no "the simulation
/// says".
///
/// Example: rolling-update step 1 asks what the new ReplicaSet will ask for (1, as maxSurge
/// 25% of 3 rounds up to 1); a hint that said "replicas 3 + maxSurge 1 = 4" would contain the
/// 1, so it fails here.
pub(super) fn assert_hint_keeps_the_answer(at: &str, given: &str, hint: &str, expected: &Expected) {
    assert!(
        hint.len() > 40,
        "{at}: {given:?} gets no real hint: {hint:?}"
    );
    assert!(!hint.contains('{') && !hint.contains('}'), "{at}: {hint}");
    assert!(!hint.contains("simulation says"), "{at}: {hint}");
    match &expected.answer {
        Answer::Pods(p) => assert!(!hint.contains(&p[0]), "{at}: {hint} names {}", p[0]),
        Answer::Round(Some(r)) => {
            let lower = hint.to_lowercase();
            for said in [
                format!("round {r} "),
                format!("round {r}."),
                format!("round {r})"),
                format!("round {r},"),
            ] {
                assert!(!lower.contains(&said), "{at}: {hint}");
            }
            if let Some(t) = expected.time {
                assert!(
                    !hint.contains(&format!("t = {t} s")),
                    "{at}: {hint} says the time"
                );
            }
        }
        Answer::Round(None) => assert!(!hint.to_lowercase().contains("never"), "{at}: {hint}"),
        Answer::Number(n) => assert!(
            !numbers(hint).contains(&n.to_string()),
            "{at}: {hint} quotes the answer {n}"
        ),
        Answer::Choices(c) => {
            let options = c
                .iter()
                .map(|i| format!("option {}", i + 1))
                .collect::<Vec<_>>();
            assert!(options.iter().all(|o| !hint.contains(o)), "{at}: {hint}");
        }
    }
}

/// Every round a Show me explanation names is one the shown stage has reached, so the caption
/// and the clock agree (bad-image step 2 once explained "never" by round 16 while Show me left
/// the stage at round 5).
fn assert_rounds_reached(at: &str, expected: &Expected, shown: &Simulation) {
    for line in &expected.explanation {
        let lower = line.to_lowercase();
        for part in lower.split("round ").skip(1) {
            let Some(n) = numbers(part).first().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            if !part.starts_with(&n.to_string()) {
                continue;
            }
            assert!(
                n <= shown.round(),
                "{at}: {line:?} names round {n}, the stage shows round {}",
                shown.round()
            );
        }
    }
}

/// "Show me" at the step: the answer, in plain words with no placeholder, and the shown
/// simulation at the step that decided it; the lesson's step and its text do not move.
fn show_me(run: &LessonRun, expected: &Expected, at: &str) {
    let (shown, sim) = run
        .show_me()
        .unwrap_or_else(|e| panic!("{at}: show me: {e}"))
        .expect("a question");
    assert_eq!(&shown, expected, "{at}");
    assert_rounds_reached(at, expected, &sim);
    assert_eq!(
        sim.steps_taken(),
        run.sim.steps_taken() + expected.steps,
        "{at}"
    );
    for (i, line) in shown.explanation.iter().enumerate() {
        assert!(!line.contains('{') && !line.contains('}'), "{at}: {line}");
        let last = i + 1 == shown.explanation.len();
        assert!(
            !(last && line.ends_with(':')),
            "{at}: a sentence left open: {line}"
        );
    }
    assert!(!expected.answer.describe().is_empty(), "{at}");
    assert!(run.text().is_ok(), "{at}: the step's text after show me");
}

/// A wrong answer of the same kind as `a`.
fn wrong(a: &Answer, sim: &Simulation) -> String {
    match a {
        Answer::Number(n) => (n + 1).to_string(),
        Answer::Pods(p) => sim
            .api()
            .pods()
            .find(|x| x.is_active() && x.metadata.name != p[0])
            .map(|x| x.metadata.name.clone())
            .expect("another pod"),
        Answer::Round(Some(r)) => (r + 1).to_string(),
        Answer::Round(None) => "3".into(),
        Answer::Choices(c) => {
            let all: Vec<usize> = (0..6).filter(|i| !c.contains(i)).collect();
            all.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
    }
}

/// How the expected answer would be typed.
fn typed(a: &Answer) -> String {
    match a {
        Answer::Number(n) => n.to_string(),
        Answer::Pods(p) => p[0].clone(),
        Answer::Round(Some(r)) => r.to_string(),
        Answer::Round(None) => "never".into(),
        Answer::Choices(c) => c
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn walk(lesson: &'static Lesson, scenario: crate::scenario::Scenario) {
    let mut run = LessonRun {
        lesson,
        sim: Simulation::new(scenario),
        step: 0,
    };
    moment::run_to(&mut run.sim, &lesson.steps[0].until)
        .unwrap_or_else(|e| panic!("{} step 1: {e}", lesson.id));
    loop {
        let at = format!("{} step {}", lesson.id, run.step + 1);
        let step = run.current();
        let text = run.text().unwrap_or_else(|e| panic!("{at}: {e}"));
        for c in step.claims {
            assert_eq!(c.holds(&run.sim), Ok(true), "{at}: {c:?} in {text}");
        }
        if let Some(h) = &step.highlight {
            assert!(h.target(&run.sim).is_some(), "{at}: nothing to highlight");
        }
        assert!(!text.contains('{') && !text.contains('}'), "{at}: {text}");
        let code = run
            .code()
            .unwrap_or_else(|e| panic!("{at}: in the code: {e}"));
        if let Some(code) = &code {
            assert!(!code.contains('{') && !code.contains('}'), "{at}: {code}");
        }
        if let Some(q) = &step.question {
            text::fill(q.prompt, &run.sim).unwrap_or_else(|e| panic!("{at}: {e}"));
            if let Ask::Refused(options) = q.ask {
                // The options show the values each change writes, filled by the core.
                let labels = question::option_labels(options, &run.sim)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                for (o, label) in options.iter().zip(&labels) {
                    let patch: serde_json::Value = serde_json::from_str(o.patch).unwrap();
                    for key in ["maxSurge", "maxUnavailable"] {
                        let v = &patch["strategy"][key];
                        let written = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                        assert!(
                            label.contains(&format!("{key}: {written}")),
                            "{at}: {label} for {}",
                            o.patch
                        );
                    }
                }
            }
            let expected =
                question::expected(&q.ask, &run.sim).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(!expected.explanation.is_empty(), "{at}: no explanation");
            verify(&q.ask, &run.sim, &expected, &at);
            let right = question::check(q, &run.sim, &typed(&expected.answer)).unwrap();
            assert!(right.correct, "{at}: the right answer is refused");
            assert_eq!(right.hint, None, "{at}: a right answer needs no hint");
            for typed_wrong in wrongs(&expected.answer, &run.sim) {
                let wrong = question::check(q, &run.sim, &typed_wrong).unwrap();
                assert!(!wrong.correct, "{at}: a wrong answer is accepted");
                assert_eq!(
                    wrong.expected, right.expected,
                    "{at}: checking changed nothing"
                );
                let hint = wrong.hint.unwrap_or_default();
                assert_hint_keeps_the_answer(&at, &typed_wrong, &hint, &expected);
            }
            let nudge = hint::nudge(&q.ask, &run.sim).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_hint_keeps_the_answer(&at, "the Hint button", &nudge, &expected);
            show_me(&run, &expected, &at);
        }
        match run.forward() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn every_lesson_runs_to_every_moment_and_its_questions_come_true() {
    for lesson in lessons() {
        walk(lesson, lesson.scenario.scenario().unwrap());
    }
}

/// Lessons name moments by what happens, so they hold in either mode: settled rounds (the
/// controllers react at once, what people meet) and lock-step rounds (one hop per round).
#[test]
fn every_lesson_holds_in_the_other_mode_too() {
    for lesson in lessons() {
        let mut scenario = lesson.scenario.scenario().unwrap();
        scenario.settle = !scenario.settle;
        walk(lesson, scenario);
    }
}

#[test]
fn lessons_have_unique_ids_a_doc_section_and_short_steps() {
    let mut ids: Vec<_> = lessons().iter().map(|l| l.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), lessons().len());
    assert!(lessons().len() >= 11);
    for l in lessons() {
        assert!(
            l.doc.url.starts_with("https://kubernetes.io/docs/"),
            "{}",
            l.id
        );
        assert!(!l.steps.is_empty());
        for s in l.steps {
            assert!(s.text.len() < 600, "{}: a step is too long", l.id);
            assert_no_typed_number(l.id, s.text);
            if let Some(q) = &s.question {
                assert_no_typed_number(l.id, q.prompt);
                if let Ask::Refused(options) = q.ask {
                    for o in options {
                        assert_no_typed_number(l.id, o.label);
                    }
                }
            }
        }
    }
}

/// The text outside `{placeholders}`.
fn bare(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Numbers come from placeholders: outside them, lesson prose has no digit (names such as
/// nginx:1.14.2 or --replicas=15 come from the scenario through placeholders too).
fn assert_no_typed_number(id: &str, text: &str) {
    let bare = bare(text);
    assert!(
        !bare.chars().any(|c| c.is_ascii_digit()),
        "{id}: a number typed into the text: {bare}"
    );
}

/// Summaries, challenge stories and hints state numbers only through placeholders, and every
/// one of them fills from the core.
#[test]
fn summaries_stories_and_hints_type_no_number_and_fill() {
    for l in lessons() {
        for text in [l.title, l.teaches] {
            assert_no_typed_number(l.id, text);
        }
        let summary = l.summary().unwrap();
        assert!(!summary.contains('{'), "{}: {summary}", l.id);
    }
    for c in super::challenges() {
        for text in [c.title, c.story, c.hint] {
            assert_no_typed_number(c.id, text);
        }
        for t in [c.story_text(), c.hint_text()] {
            let t = t.unwrap_or_else(|e| panic!("{}: {e}", c.id));
            assert!(!t.contains('{'), "{}: {t}", c.id);
        }
    }
}

#[test]
fn stories_say_what_the_situation_is() {
    let story = |id| super::challenge(id).unwrap().story_text().unwrap();
    assert_eq!(
        story("predict-proportional"),
        "10 replicas, maxSurge 3, maxUnavailable 2, a rollout to an image that never becomes ready, then `kubectl scale --replicas=15` in round 20. Predict how many replicas the old and the new ReplicaSet ask for right after the Deployment controller's next sync."
    );
    assert!(
        story("fast-and-safe").contains(
            "a pod is ready 5 s after it is created. Finish within 5 s of `kubectl set image`"
        ),
        "{}",
        story("fast-and-safe")
    );
    let tight = super::challenge("tight-band").unwrap().hint_text().unwrap();
    assert!(
        tight.starts_with("The defaults (25% / 25%) allow 13 pods and 8 available."),
        "{tight}"
    );
    let summary = lesson("rolling-update").unwrap().summary().unwrap();
    assert!(
        summary.starts_with("How maxSurge 25% and maxUnavailable 25% become 1 extra pod and 0 unavailable with 3 replicas"),
        "{summary}"
    );
}

#[test]
fn answers_parse_by_kind() {
    assert_eq!(Answer::parse(Kind::Number, " 3 "), Ok(Answer::Number(3)));
    assert!(Answer::parse(Kind::Number, "three").is_err());
    assert_eq!(Answer::parse(Kind::Round, "Never"), Ok(Answer::Round(None)));
    assert_eq!(
        Answer::parse(Kind::Round, "12"),
        Ok(Answer::Round(Some(12)))
    );
    assert_eq!(
        Answer::parse(Kind::Choice, "4, 0 2"),
        Ok(Answer::Choices(vec![0, 2, 4]))
    );
    assert!(Answer::parse(Kind::Pod, " ").is_err());
    // A number question accepts exactly one value.
    assert!(Answer::Number(1).accepts(&Answer::Number(1)));
    assert!(!Answer::Number(1).accepts(&Answer::Number(2)));
    assert!(!Answer::Choices(vec![0, 2]).accepts(&Answer::Choices(vec![0])));
}

#[test]
fn a_state_moment_that_holds_takes_no_step_and_a_step_moment_takes_the_next() {
    let lesson = lesson("rolling-update").unwrap();
    let mut sim = Simulation::new(lesson.scenario.scenario().unwrap());
    moment::run_to(&mut sim, &Moment::Action("create")).unwrap();
    let n = moment::run_to(&mut sim, &Moment::RolloutComplete).unwrap();
    assert!(n > 0);
    assert_eq!(moment::run_to(&mut sim, &Moment::RolloutComplete), Ok(0));
    moment::run_to(&mut sim, &Moment::ScaledUp(super::Rs::New)).unwrap();
    let first = sim.steps_taken();
    moment::run_to(&mut sim, &Moment::ScaledUp(super::Rs::New)).unwrap();
    assert!(
        sim.steps_taken() > first,
        "the same step moment again means the next time"
    );
    assert!(moment::run_to(&mut sim, &Moment::DeadlineExceeded).is_err());
}

#[test]
fn open_at_a_step_equals_walking_there() {
    let l = lesson("proportional-scaling").unwrap();
    let at = LessonRun::open_at(l, 2).unwrap();
    let mut walked = LessonRun::open(l).unwrap();
    walked.forward().unwrap();
    walked.forward().unwrap();
    assert_eq!(at.step, 2);
    assert_eq!(at.sim.steps_taken(), walked.sim.steps_taken());
    assert_eq!(at.text(), walked.text());
    assert_eq!(LessonRun::open_at(l, 99).unwrap().step, l.steps.len() - 1);
    walked.back().unwrap();
    assert_eq!(walked.step, 1);
    assert_eq!(walked.text(), LessonRun::open_at(l, 1).unwrap().text());
}

#[test]
fn the_proportional_lesson_says_plus_three_old_plus_two_new() {
    let l = lesson("proportional-scaling").unwrap();
    let run = LessonRun::open_at(l, 2).unwrap();
    let text = run.text().unwrap();
    let code = run.code().unwrap().unwrap();
    assert!(code.contains("web-rev1 +3, web-rev2 +2"), "{code}");
    assert!(!text.contains("scale"), "plain words first: {text}");
    assert!(
        text.contains("web-rev1 now asks for 11, web-rev2 for 7"),
        "{text}"
    );
}

#[test]
fn the_rolling_update_lesson_explains_25_percent_of_3() {
    let run = LessonRun::open(lesson("rolling-update").unwrap()).unwrap();
    let text = run.text().unwrap();
    assert!(
        text.contains("maxSurge 25% is 0.75 pods, rounded up to 1; maxUnavailable 25% is 0.75, rounded down to 0"),
        "{text}"
    );
}

/// Prints every lesson as a learner meets it (`LESSON_MODE=lockstep` for the other mode):
/// `cargo test -p rollout-core --lib lessons::tests::print -- --ignored --nocapture`.
#[test]
#[ignore]
fn print() {
    let flip = std::env::var("LESSON_MODE").is_ok_and(|m| m == "flip");
    for l in lessons() {
        let mut scenario = l.scenario.scenario().unwrap();
        scenario.settle ^= flip;
        let mut run = LessonRun {
            lesson: l,
            sim: Simulation::new(scenario),
            step: 0,
        };
        moment::run_to(&mut run.sim, &l.steps[0].until).unwrap();
        println!("=== {} (settle {})", l.id, run.sim.scenario().settle);
        loop {
            let s = run.current();
            println!(
                "[{}] r{} {}\n  {}",
                run.step + 1,
                run.sim.round(),
                s.until.describe(),
                run.text().unwrap()
            );
            if let Some(code) = run.code().unwrap() {
                println!("  C {code}");
            }
            if let Some(q) = &s.question {
                let e = question::expected(&q.ask, &run.sim).unwrap();
                println!(
                    "  Q {}\n  A {}\n    {}",
                    text::fill(q.prompt, &run.sim).unwrap(),
                    e.answer.describe(),
                    e.explanation.join("\n    ")
                );
                println!("  N {}", hint::nudge(&q.ask, &run.sim).unwrap());
                for w in wrongs(&e.answer, &run.sim) {
                    let f = question::check(q, &run.sim, &w).unwrap();
                    println!("  H {w}: {}", f.hint.unwrap_or_default());
                }
            }
            if !run.forward().unwrap() {
                break;
            }
        }
    }
}

/// bad-image step 2 ("Will this rollout finish?", answer never): Show me explains it by the
/// moment the rollout gives up and moves the stage there. Set image at round 4 (t = 20 s),
/// progressDeadlineSeconds 30, 5 s rounds: the first sync past 20 + 30 = 50 s is round 11
/// (t = 55 s), the moment step 3 shows; not the undo at round 16.
#[test]
fn bad_image_show_me_goes_to_the_deadline() {
    let run = LessonRun::open_at(lesson("bad-image").unwrap(), 1).unwrap();
    let (e, shown) = run.show_me().unwrap().unwrap();
    assert_eq!(e.answer, Answer::Round(None));
    assert_eq!((e.round, e.time), (Some(11), Some(55)));
    assert!(
        e.explanation[0].starts_with("In round 11 (t = 55 s)"),
        "{:?}",
        e.explanation
    );
    assert_eq!(shown.round(), 11);
    let mut there = shown.clone_without_history();
    assert_eq!(
        moment::run_to(&mut there, &Moment::DeadlineExceeded),
        Ok(0),
        "the deadline is exceeded on the shown stage"
    );
    let next = LessonRun::open_at(lesson("bad-image").unwrap(), 2).unwrap();
    assert_eq!(next.sim.now(), 55, "step 3 shows the same moment");
}

/// The Hint button on rolling-update: step 1 quotes the limit (4) but neither the old
/// ReplicaSet's 3 nor maxSurge's 1 (the answer 1 = 4 − 3); step 3's deciding criterion is the
/// node rank, which counts the Deployment's pods of every ReplicaSet on the node (web-rev2's
/// first pod shares node-1 with web-rev1-00001), so the hint says so.
#[test]
fn rolling_update_hints_point_at_the_right_thing() {
    let l = lesson("rolling-update").unwrap();
    let first = LessonRun::open_at(l, 0).unwrap();
    let q = first.current().question.unwrap();
    let n = hint::nudge(&q.ask, &first.sim).unwrap();
    assert!(n.contains("= 4 pods"), "{n}");
    assert!(!numbers(&n).iter().any(|x| x == "1" || x == "3"), "{n}");
    assert!(!n.contains("never beyond"), "{n}");
    let third = LessonRun::open_at(l, 2).unwrap();
    let q = third.current().question.unwrap();
    let n = hint::nudge(&q.ask, &third.sim).unwrap();
    assert!(n.contains("Deployment's pods, new ones included"), "{n}");
}
