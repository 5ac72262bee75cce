//! The playback timer and the chunked seek of a lab (the app's and the embed's).

use crate::state::{Lab, Msg, SPEEDS};
use gloo_timers::callback::Timeout;
use yew::prelude::*;

/// The playback timer and the chunked seek of a lab, as the full app runs them.
#[hook]
pub fn use_playback(lab: &UseReducerHandle<Lab>) {
    let d = lab.dispatcher();
    let interval = 1000 / SPEEDS[lab.speed.min(SPEEDS.len() - 1)];
    use_effect_with(
        (lab.playing, lab.version, interval),
        move |(playing, _, interval)| {
            let timer = playing.then(|| Timeout::new(*interval, move || d.dispatch(Msg::Tick)));
            move || drop(timer)
        },
    );
    let d = lab.dispatcher();
    use_effect_with((lab.seek, lab.version), move |(seek, _)| {
        let timer = seek.map(|_| Timeout::new(0, move || d.dispatch(Msg::Advance)));
        move || drop(timer)
    });
}
