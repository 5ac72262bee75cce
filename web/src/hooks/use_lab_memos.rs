//! Values the app computes from its lab only when what they depend on changes.

use crate::inside::InsideFrame;
use crate::state::{Frame, Lab};
use rollout_facade::scenario::Scenario;
use std::rc::Rc;
use yew::prelude::*;

/// "Inside the controllers", while open: computed from this lab's simulation at its step.
#[hook]
pub fn use_inside_frame(lab: &UseReducerHandle<Lab>) -> Option<Rc<InsideFrame>> {
    let inside = {
        let lab = lab.clone();
        use_memo(
            (lab.inside_open, lab.version, lab.selected.clone()),
            move |(open, _, selected)| {
                open.then(|| {
                    crate::load_stylesheet("rollout-internals-css", "internals.css");
                    let selected = selected.as_deref().unwrap_or("");
                    Rc::new(InsideFrame::of(&lab.sim(), selected))
                })
            },
        )
    };
    (*inside).clone()
}

/// The scenario the settings describe, for the Plan view (the last valid settings while typing).
#[hook]
pub fn use_plan_source(lab: &UseReducerHandle<Lab>) -> Option<Rc<Scenario>> {
    let (settings, base) = (lab.settings.clone(), lab.base.clone());
    (*use_memo((settings, base), |(s, b)| {
        crate::state::build_scenario(s, b).ok().map(Rc::new)
    }))
    .clone()
}

/// The frame the page is drawn from, computed once per session version (the app's and the
/// embed's).
#[hook]
pub fn use_frame(lab: &UseReducerHandle<Lab>) -> Rc<Frame> {
    let lab = lab.clone();
    use_memo(lab.version, move |_| Frame::of(&lab))
}
