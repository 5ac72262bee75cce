//! "Find a race" off the main thread: a search runs in the page's worker (`plan-worker.js`, a
//! `race` job calling `findRace`), its messages reduced into [`RaceSearch`]; Cancel terminates
//! the worker, as the Plan page's sweeps do, and so does leaving the view.

use crate::plan_worker::{start_race, Running};
use crate::state::race_search::{RaceMsg, RaceSearch};
use rollout_facade::races::Mode;
use serde_json::{json, Value};
use std::rc::Rc;
use yew::prelude::*;

/// What [`use_race_search`] gives a component.
#[derive(Clone, PartialEq)]
pub struct RaceSearchHandle {
    /// The search's state.
    pub state: UseReducerHandle<RaceSearch>,
    /// Starts a search of a scenario (as `findRace` takes it) to a depth in a mode; a search
    /// running is stopped first.
    pub start: Callback<(Rc<Value>, usize, Mode)>,
    /// Stops the search (terminates its worker).
    pub cancel: Callback<()>,
}

/// A race search in a worker: start, cancel, and what it has reported.
#[hook]
pub fn use_race_search() -> RaceSearchHandle {
    let state = use_reducer(RaceSearch::default);
    let running = use_mut_ref(Running::default);
    {
        let running = running.clone();
        use_effect_with((), move |_| move || running.borrow_mut().stop());
    }
    let start = {
        let (running, dispatch) = (running.clone(), state.dispatcher());
        Callback::from(move |(scenario, depth, mode): (Rc<Value>, usize, Mode)| {
            dispatch.dispatch(RaceMsg::Start(depth));
            let options = json!({"depth": depth, "mode": mode.id()});
            let on_msg = {
                let dispatch = dispatch.clone();
                move |m| dispatch.dispatch(m)
            };
            if let Err(e) = start_race(&running, &scenario, options, on_msg) {
                dispatch.dispatch(RaceMsg::Failed(e));
            }
        })
    };
    let cancel = {
        let (running, dispatch) = (running.clone(), state.dispatcher());
        Callback::from(move |()| {
            running.borrow_mut().stop();
            dispatch.dispatch(RaceMsg::Cancel);
        })
    };
    RaceSearchHandle {
        state,
        start,
        cancel,
    }
}
