//! "Inside the controllers" in a real browser: the object inspector, the decision-flow diagram
//! and the ReplicaSet internals, each rendered on its own from what the core computes for a
//! real simulation, then read back from the DOM.
//!
//! Runs under `wasm-bindgen-test-runner` in headless Chromium:
//! `cargo test -p rollout-web --target wasm32-unknown-unknown --test internals`. Natively this
//! file is empty.
#![cfg(target_arch = "wasm32")]

use rollout_facade::flow::{flow_of, Flow};
use rollout_facade::presets::preset;
use rollout_facade::report::ManageReport;
use rollout_facade::scenario::{ActionKind, Scenario};
use rollout_facade::sim::{Simulation, StepKind, StepRecord};
use rollout_facade::yaml;
use rollout_web::components::flow_diagram::{self, flow_diagram, FlowDiagramProps};
use rollout_web::components::object_inspector::{ObjectInspector, ObjectInspectorProps};
use rollout_web::components::rs_internals::{replica_set_internals, ReplicaSetInternalsProps};
use std::rc::Rc;
use wasm_bindgen_test::*;
use web_sys::Element;
use yew::prelude::*;
use yew::BaseComponent;

wasm_bindgen_test_configure!(run_in_browser);

/// A component rendered into its own `<div>`, removed again on drop.
struct Mounted {
    root: Element,
}

impl Mounted {
    async fn new<C: BaseComponent>(props: C::Properties) -> Self {
        let document = web_sys::window().unwrap().document().unwrap();
        let root = document.create_element("div").unwrap();
        document.body().unwrap().append_child(&root).unwrap();
        yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
        settle().await;
        Mounted { root }
    }

    fn one(&self, selector: &str) -> Element {
        self.root
            .query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("nothing matches {selector}"))
    }

    fn all(&self, selector: &str) -> Vec<Element> {
        let list = self.root.query_selector_all(selector).unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).unwrap())
            .collect()
    }

    fn text(&self, selector: &str) -> String {
        self.one(selector).text_content().unwrap_or_default()
    }

    fn attr(&self, selector: &str, name: &str) -> String {
        self.one(selector)
            .get_attribute(name)
            .unwrap_or_else(|| panic!("{selector} has no {name}"))
    }
}

/// What a plain view function draws, as a component to mount (the flow diagram and the
/// ReplicaSet internals are functions of their props, not components).
#[derive(Properties)]
struct DrawnProps {
    draw: Rc<dyn Fn() -> Html>,
}

impl PartialEq for DrawnProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.draw, &other.draw)
    }
}

#[function_component(Drawn)]
fn drawn(props: &DrawnProps) -> Html {
    (props.draw)()
}

impl Mounted {
    async fn drawn(draw: impl Fn() -> Html + 'static) -> Self {
        Mounted::new::<Drawn>(DrawnProps {
            draw: Rc::new(draw),
        })
        .await
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

/// Yew renders on its scheduler, after the current task: give it a moment (a 30 ms timeout).
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// The round of the preset's `kubectl scale` (where the presets put it is the core's business).
fn scale_round(sim: &Simulation) -> u32 {
    sim.scenario()
        .actions
        .iter()
        .find(|a| matches!(a.kind, ActionKind::Scale { .. }))
        .expect("a scale")
        .round
}

fn run_to_round(sim: &mut Simulation, round: u32) {
    while sim.round() < round {
        sim.run_round();
    }
}

/// Steps on to the next step of `kind` in this round.
fn step_to(sim: &mut Simulation, kind: &StepKind) -> StepRecord {
    let round = sim.round();
    while sim.round() == round {
        let step = sim.step().expect("a step").clone();
        if &step.kind == kind {
            return step;
        }
    }
    panic!("no {kind:?} step in round {round}");
}

fn sync_deployment() -> StepKind {
    StepKind::SyncDeployment { name: "web".into() }
}

fn sync_rs(name: &str) -> StepKind {
    StepKind::SyncReplicaSet { name: name.into() }
}

fn deployment_lines(sim: &Simulation) -> Vec<yaml::YamlLine> {
    yaml::lines(&yaml::deployment_value(
        sim.api().deployment("web").unwrap(),
    ))
}

async fn inspector(lines: Vec<yaml::YamlLine>, changed: Vec<yaml::ChangedLine>) -> Mounted {
    Mounted::new::<ObjectInspector>(ObjectInspectorProps {
        title: "deployment/web".into(),
        lines: Rc::new(lines),
        changed: Rc::new(changed),
    })
    .await
}

// ---- ObjectInspector ---------------------------------------------------------------------

#[wasm_bindgen_test]
async fn the_inspector_shows_exactly_the_yaml_and_marks_a_scale() {
    let mut sim = Simulation::new(preset("proportional-scaling").unwrap().scenario);
    let at = scale_round(&sim);
    run_to_round(&mut sim, at);
    let before = deployment_lines(&sim);
    assert_eq!(
        sim.step().unwrap().kind,
        StepKind::Actions,
        "the scale round starts with the scale to 15"
    );
    let after = deployment_lines(&sim);
    let changed = yaml::changed_lines(&before, &after);
    let view = inspector(after.clone(), changed.clone()).await;

    assert_eq!(
        view.text("[data-testid=object-inspector]"),
        yaml::text(&after),
        "the <pre> holds the YAML and nothing else"
    );
    assert_eq!(view.all("pre mark").len(), changed.len());

    let replicas = view.one("pre mark[data-path=\"spec.replicas\"]");
    assert_eq!(replicas.text_content().unwrap(), "  replicas: 15");
    assert_eq!(replicas.get_attribute("tabindex").as_deref(), Some("0"));
    assert_eq!(
        replicas.get_attribute("data-was").as_deref(),
        Some("was 10")
    );
    assert_eq!(
        replicas.get_attribute("title").as_deref(),
        Some("spec.replicas: was 10")
    );
    let described = replicas.get_attribute("aria-describedby").unwrap();
    let description = view.one(&format!("#{described}"));
    assert_eq!(
        description.text_content().unwrap(),
        "spec.replicas changed from 10 to 15"
    );
    assert!(
        view.one("pre").contains(Some(&replicas)) && !view.one("pre").contains(Some(&description)),
        "the description lives outside the <pre>"
    );
    // Unchanged lines are not marked.
    assert!(view.all("pre mark[data-path=\"kind\"]").is_empty());

    // The scale bumped the generation; the controller has not synced yet.
    assert_eq!(
        view.attr("[data-testid=generation-status]", "data-seen"),
        "false"
    );
    let note = view.text("[data-testid=generation-status]");
    assert!(
        note.contains("generation 3 · observedGeneration 2")
            && note.contains("has not yet seen the latest spec"),
        "{note}"
    );
    drop(view);

    // After syncDeployment, observedGeneration catches up.
    step_to(&mut sim, &sync_deployment());
    let synced = deployment_lines(&sim);
    let changed = yaml::changed_lines(&after, &synced);
    let view = inspector(synced.clone(), changed).await;
    assert_eq!(
        view.attr("[data-testid=generation-status]", "data-seen"),
        "true"
    );
    assert!(view
        .text("[data-testid=generation-status]")
        .contains("generation 3 · observedGeneration 3 — the controller has seen"));
    assert_eq!(
        view.attr(
            "pre mark[data-path=\"status.observedGeneration\"]",
            "data-was"
        ),
        "was 2"
    );
}

#[wasm_bindgen_test]
async fn a_new_pod_shows_new_fields_and_no_generation() {
    let mut sim = Simulation::new(preset("rolling-basic").unwrap().scenario);
    step_to(&mut sim, &sync_rs("web-rev1"));
    let pod = sim.api().pod("web-rev1-00001").unwrap().clone();
    let lines = yaml::lines(&yaml::pod_value(&pod));
    let changed = yaml::changed_lines(&[], &lines);
    let view = Mounted::new::<ObjectInspector>(ObjectInspectorProps {
        title: "pod/web-rev1-00001".into(),
        lines: Rc::new(lines.clone()),
        changed: Rc::new(changed),
    })
    .await;
    assert_eq!(view.text("pre"), yaml::text(&lines));
    let phase = view.one("pre mark[data-path=\"status.phase\"]");
    assert_eq!(phase.get_attribute("data-was").as_deref(), Some("new"));
    assert_eq!(
        phase.get_attribute("title").as_deref(),
        Some("status.phase: new in this step")
    );
    assert!(view
        .root
        .query_selector("[data-testid=generation-status]")
        .unwrap()
        .is_none());
}

// ---- flow_diagram -------------------------------------------------------------------------

async fn diagram(flow: Flow) -> Mounted {
    let props = FlowDiagramProps {
        flow: Rc::new(flow),
    };
    Mounted::drawn(move || flow_diagram(&props)).await
}

fn node(view: &Mounted, id: &str) -> Element {
    view.one(&format!("g.flow-node[data-node=\"{id}\"]"))
}

fn active(view: &Mounted, id: &str) -> bool {
    node(view, id).get_attribute("data-active").as_deref() == Some("true")
}

#[wasm_bindgen_test]
async fn a_scale_takes_the_scaling_event_branch() {
    let mut sim = Simulation::new(preset("proportional-scaling").unwrap().scenario);
    let at = scale_round(&sim);
    run_to_round(&mut sim, at);
    let step = step_to(&mut sim, &sync_deployment());
    let flow = flow_of(&step).unwrap();
    let description = flow_diagram::describe(&flow);
    let view = diagram(flow.clone()).await;

    assert_eq!(view.all("g.flow-node").len(), flow.nodes.len());
    assert!(active(&view, "scaling-event"));
    assert_eq!(
        node(&view, "scaling-event")
            .get_attribute("data-answer")
            .as_deref(),
        Some("yes")
    );
    assert!(active(&view, "scale"));
    assert!(!active(&view, "scale-up-new"));
    assert!(!active(&view, "recreate"));
    assert_eq!(
        view.attr(
            "g.fd-edge[data-from=\"scaling-event\"][data-to=\"scale\"]",
            "data-active"
        ),
        "true"
    );
    assert_eq!(
        view.attr(
            "g.fd-edge[data-from=\"scaling-event\"][data-to=\"recreate\"]",
            "data-active"
        ),
        "false"
    );
    // Steps are boxes, questions diamonds.
    assert!(node(&view, "scale")
        .query_selector("rect")
        .unwrap()
        .is_some());
    assert!(node(&view, "scaling-event")
        .query_selector("polygon")
        .unwrap()
        .is_some());

    // The live condition is in the text under the diagram.
    let item = view.text("[data-path-node=\"scaling-event\"]");
    assert!(
        item.contains("annotation 10 ≠ spec.replicas 15") && item.contains("yes"),
        "{item}"
    );
    // The text equivalent, for screen readers, in the order the step went: the scaling event
    // is asked before `scale` runs (though `scale` sits higher in the grid).
    let at = |s: &str| {
        description
            .find(s)
            .unwrap_or_else(|| panic!("{s} in {description}"))
    };
    assert!(at("Scaling event? yes (isScalingEvent") < at("Scale (proportionally)"));
    assert!(at("Rollback requested? no") < at("Scaling event? yes"));
    assert!(
        description.ends_with("Scale (proportionally) → Sync status"),
        "{description}"
    );
    let numbers: Vec<String> = view
        .all("[data-path-node]")
        .iter()
        .map(|e| e.get_attribute("data-path-node").unwrap())
        .collect();
    assert_eq!(
        numbers[numbers.len() - 3..],
        ["scaling-event", "scale", "sync-status"]
    );
    // The drawing is a picture beside the numbered path list, which screen readers read instead.
    assert_eq!(view.attr("svg", "aria-hidden"), "true");
    assert_eq!(view.text("[data-testid=flow-description]"), description);
    assert!(view.attr("svg", "viewBox").starts_with("0 0 "));
    // Functions link to the Kubernetes source: in the list for everyone, on the node for the
    // mouse.
    assert!(view
        .attr("[data-path-node=\"scaling-event\"] a", "href")
        .contains("pkg/controller/deployment/sync.go#L"));
    assert_eq!(
        node(&view, "scaling-event")
            .query_selector("a")
            .unwrap()
            .unwrap()
            .get_attribute("tabindex")
            .as_deref(),
        Some("-1")
    );
}

#[wasm_bindgen_test]
async fn an_image_change_takes_the_rolling_path() {
    let mut sim = Simulation::new(preset("rolling-basic").unwrap().scenario);
    run_to_round(&mut sim, 4);
    let step = step_to(&mut sim, &sync_deployment());
    let view = diagram(flow_of(&step).unwrap()).await;
    assert!(active(&view, "scale-up-new"));
    assert!(active(&view, "scale-down-old"));
    assert!(!active(&view, "scale"));
    assert_eq!(
        node(&view, "scaling-event")
            .get_attribute("data-answer")
            .as_deref(),
        Some("no")
    );
    assert_eq!(
        view.attr(
            "g.fd-edge[data-from=\"recreate\"][data-to=\"scale-up-new\"]",
            "data-active"
        ),
        "true"
    );
    let path: Vec<String> = view
        .all("[data-path-node]")
        .iter()
        .map(|e| e.get_attribute("data-path-node").unwrap())
        .collect();
    let up = path.iter().position(|p| p == "scale-up-new").unwrap();
    let down = path.iter().position(|p| p == "scale-down-old").unwrap();
    assert!(up < down, "{path:?}");
}

#[wasm_bindgen_test]
async fn a_replica_set_create_takes_the_too_few_branch() {
    let mut sim = Simulation::new(preset("rolling-basic").unwrap().scenario);
    let step = step_to(&mut sim, &sync_rs("web-rev1"));
    let view = diagram(flow_of(&step).unwrap()).await;
    assert_eq!(
        view.attr("[data-testid=flow-diagram]", "data-flow"),
        "syncReplicaSet"
    );
    assert!(active(&view, "too-few"));
    assert!(active(&view, "create"));
    assert!(!active(&view, "delete"));
    assert!(view
        .text("[data-path-node=\"too-few\"]")
        .contains("0 active pods < spec.replicas 3"));
}

// ---- replica_set_internals -----------------------------------------------------------------

/// The lock-step harness's small scenario: one node, 3 replicas ready after one round.
fn small(extra: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"name":"t","rounds":8,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":1{extra},"actions":[
            {{"round":0,"type":"create","deployment":{{"name":"web","replicas":3,"image":"a"}}}}]}}"#
    ))
    .unwrap()
}

/// The ReplicaSet sync of this round, with its report.
fn manage_step(sim: &mut Simulation) -> (Rc<ManageReport>, i64) {
    let step = step_to(sim, &sync_rs("web-rev1"));
    (Rc::new(step.manage.clone().expect("a report")), step.time)
}

async fn internals(report: Option<Rc<ManageReport>>, now: i64) -> Mounted {
    let props = ReplicaSetInternalsProps {
        name: "web-rev1".into(),
        report,
        now,
    };
    Mounted::drawn(move || replica_set_internals(&props)).await
}

#[wasm_bindgen_test]
async fn a_not_ready_pod_goes_first_and_the_table_says_why() {
    let mut sim = Simulation::new(small(""));
    run_to_round(&mut sim, 3);
    sim.push_action(ActionKind::RestartPod {
        pod: "web-rev1-00001".into(),
    });
    sim.run_round();
    assert!(!sim.api().pod("web-rev1-00001").unwrap().is_ready());
    sim.push_action(ActionKind::Scale {
        name: None,
        replicas: 2,
    });
    let (report, now) = manage_step(&mut sim);
    assert_eq!(report.deletions.len(), 1);
    let view = internals(Some(report), now).await;

    let reasons = view.all("[data-testid=deletion-reason]");
    assert_eq!(reasons.len(), 1);
    let reason = &reasons[0];
    assert_eq!(
        reason.get_attribute("data-criterion").as_deref(),
        Some("readiness")
    );
    assert_eq!(
        reason.get_attribute("data-pod").as_deref(),
        Some("web-rev1-00001")
    );
    let kept = reason.get_attribute("data-kept").unwrap();
    assert_ne!(kept, "web-rev1-00001");

    // Every criterion, in Kubernetes' order; the ones before readiness tie, readiness decides
    // with both values shown, the rest are never reached.
    let rows: Vec<(String, String)> = view
        .all("[data-testid=deletion-reason] tbody tr")
        .iter()
        .map(|r| {
            (
                r.get_attribute("data-criterion").unwrap(),
                r.get_attribute("data-state").unwrap(),
            )
        })
        .collect();
    let expected = [
        ("unassigned", "equal"),
        ("phase", "equal"),
        ("readiness", "decides"),
        ("deletionCost", "not compared"),
        ("nodeRank", "not compared"),
        ("readyTime", "not compared"),
        ("restarts", "not compared"),
        ("creationTime", "not compared"),
    ];
    assert_eq!(
        rows,
        expected
            .iter()
            .map(|(c, s)| (c.to_string(), s.to_string()))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        view.text("tr[data-criterion=readiness] .rsi-val-deleted"),
        "not ready"
    );
    assert_eq!(
        view.text("tr[data-criterion=readiness] .rsi-val-kept"),
        "ready"
    );
    assert!(view
        .text("[data-testid=deletion-reason] summary")
        .contains("not ready"));
    assert_eq!(view.attr("[data-testid=manage-diff]", "data-diff"), "-1");
    assert_eq!(view.attr("[data-testid=expectations]", "data-del"), "1");
    assert!(view
        .text("[data-testid=expectations]")
        .contains("Expects 1 deletion, set at"));
}

#[wasm_bindgen_test]
async fn a_lower_deletion_cost_decides_after_equal_readiness() {
    let mut sim = Simulation::new(small(""));
    run_to_round(&mut sim, 3);
    sim.push_action(ActionKind::SetPodDeletionCost {
        pod: "web-rev1-00003".into(),
        value: Some(-5),
    });
    sim.push_action(ActionKind::Scale {
        name: None,
        replicas: 2,
    });
    let (report, now) = manage_step(&mut sim);
    let view = internals(Some(report), now).await;
    assert_eq!(
        view.attr("[data-testid=deletion-reason]", "data-criterion"),
        "deletionCost"
    );
    assert_eq!(
        view.text("tr[data-criterion=deletionCost] .rsi-val-deleted"),
        "-5"
    );
    assert_eq!(
        view.text("tr[data-criterion=deletionCost] .rsi-val-kept"),
        "0"
    );
    assert_eq!(
        view.attr("tr[data-criterion=readiness]", "data-state"),
        "equal"
    );
}

#[wasm_bindgen_test]
async fn when_every_pod_goes_none_is_kept() {
    let mut sim = Simulation::new(small(""));
    run_to_round(&mut sim, 3);
    sim.push_action(ActionKind::Scale {
        name: None,
        replicas: 0,
    });
    let (report, now) = manage_step(&mut sim);
    let view = internals(Some(report), now).await;
    let reasons = view.all("[data-testid=deletion-reason]");
    assert_eq!(reasons.len(), 3);
    assert!(reasons.iter().all(
        |r| r.get_attribute("data-criterion").as_deref() == Some("tie")
            && r.get_attribute("data-kept").is_none()
    ));
    assert!(view
        .text("[data-testid=deletions]")
        .contains("every pod goes"));
}

#[wasm_bindgen_test]
async fn a_create_of_three_runs_in_batches_of_one_and_two() {
    let mut sim = Simulation::new(small(""));
    let (report, now) = manage_step(&mut sim);
    let view = internals(Some(report), now).await;
    let sizes: Vec<String> = view
        .all("[data-testid=slow-start-batch]")
        .iter()
        .map(|b| b.get_attribute("data-size").unwrap())
        .collect();
    assert_eq!(sizes, ["1", "2"]);
    assert!(view
        .all("[data-testid=slow-start-batch]")
        .iter()
        .all(|b| b.get_attribute("data-failed").as_deref() == Some("false")));
    assert!(view
        .text("[data-testid=slow-start]")
        .contains("batches 1 · 2"));
    assert_eq!(view.attr("[data-testid=manage-diff]", "data-diff"), "3");
    assert_eq!(view.attr("[data-testid=expectations]", "data-add"), "3");
    assert!(view
        .text("[data-testid=expectations]")
        .contains("Expects 3 creations, set at 0 s (this sync)"));
    assert!(view
        .root
        .query_selector("[data-testid=deletions]")
        .unwrap()
        .is_none());
}

#[wasm_bindgen_test]
async fn a_quota_refusal_fails_the_batch_it_hits() {
    // Room for 2 pods: batch 1 (1 pod) succeeds, batch 2 (2 calls) gets one refusal.
    let mut sim = Simulation::new(small(r#","podQuota":2"#));
    let (report, now) = manage_step(&mut sim);
    let slow = report.slow_start.clone().unwrap();
    assert_eq!(slow.batch_sizes, vec![1, 2]);
    assert!(slow.error.is_some());
    let view = internals(Some(report), now).await;
    let batches = view.all("[data-testid=slow-start-batch]");
    assert_eq!(
        batches[1].get_attribute("data-failed").as_deref(),
        Some("true")
    );
    assert!(batches[1].text_content().unwrap().contains("failed"));
    let error = view.text("[data-testid=slow-start-error]");
    assert!(error.starts_with("FailedCreate"), "{error}");
    assert!(error.contains("exceeded quota"), "{error}");
    assert_eq!(view.attr("[data-testid=expectations]", "data-add"), "2");
}

#[wasm_bindgen_test]
async fn without_a_report_it_says_so() {
    let view = internals(None, 0).await;
    assert!(view
        .text("[data-testid=rs-internals]")
        .contains("Not synced in this step"));
    assert!(view.all("[data-testid=deletion-reason]").is_empty());
}
