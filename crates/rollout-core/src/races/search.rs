//! A search for races: every schedule of a configuration up to a depth, breadth-first, each
//! state visited once.
//!
//! It starts where the scenario's schedule starts (after the setup and the schedule's
//! leading `setImage`) and tries the six other steps at every state. A state is the API
//! server's truth, both controllers' caches and the expectations; one reached before (by a
//! schedule as short or shorter) is not explored again. Breadth-first, so the first state
//! that breaks a promise is reached by a shortest schedule. For example without expectations
//! on 3 replicas (maxSurge 1, maxUnavailable 0): `deliver-dc, sync-dc, deliver-rs, sync-rs,
//! sync-rs` creates the new ReplicaSet's pod twice, 5 pods > 3 + 1.

use super::schedule::{Race, RaceScenario, RaceState, Step};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// The default depth of a search (steps after its start).
pub const DEFAULT_DEPTH: usize = 12;
/// The default cap on the states a search visits.
pub const DEFAULT_MAX_STATES: usize = 2_000_000;
/// The highest cap a search accepts (each state kept costs memory until the search ends).
pub const MAX_STATES_LIMIT: usize = 20_000_000;

/// How far to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Steps after the start.
    pub depth: usize,
    /// At most this many states; the search stops with [`SearchError::TooManyStates`] beyond.
    pub max_states: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            depth: DEFAULT_DEPTH,
            max_states: DEFAULT_MAX_STATES,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchReport {
    /// The steps after the start of the counterexample when there is one, else the depth
    /// searched to.
    pub depth: usize,
    /// The distinct states visited (the start included).
    pub states: usize,
    /// The shortest schedule that breaks a promise, or `None`: none to `depth`.
    pub violation: Option<Counterexample>,
}

/// A schedule that breaks a promise, and the promises broken after its last step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The whole schedule, the leading `setImage` included: put in the scenario's `schedule`,
    /// it replays the race.
    pub schedule: Vec<String>,
    /// As the trace words them.
    pub violations: Vec<String>,
}

/// Why a search stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The cap was asked above [`MAX_STATES_LIMIT`] (a `u64`: a front end may be asked for
    /// more than its `usize` holds, and says the number it was given).
    CapTooHigh(u64),
    /// The cap was reached before the depth: every schedule up to `complete_depth` steps was
    /// explored and none breaks a promise.
    TooManyStates {
        /// The cap.
        cap: usize,
        /// The depth asked.
        depth: usize,
        /// The deepest level explored completely.
        complete_depth: usize,
    },
    /// The progress callback asked to stop.
    Cancelled,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::CapTooHigh(cap) => write!(
                f,
                "a state cap of {cap} is above the limit of {MAX_STATES_LIMIT} states"
            ),
            SearchError::TooManyStates {
                cap,
                depth,
                complete_depth,
            } => write!(
                f,
                "more than {cap} states before depth {depth}: no schedule of up to {complete_depth} steps breaks a promise; raise the state cap (at most {MAX_STATES_LIMIT}) or lower the depth"
            ),
            SearchError::Cancelled => f.write_str("the search was cancelled"),
        }
    }
}

/// A state's fingerprint: 128 bits of the truth, both caches and the expectations.
fn fingerprint(state: &RaceState) -> u128 {
    let mut h = Fingerprint::default();
    state.truth.hash_state(&mut h);
    state.dc.hash_into(&mut h);
    state.rs.hash_into(&mut h);
    state.expectations.hash(&mut h);
    state.consistency.hash_pending(state.rs.listers(), &mut h);
    h.finish128()
}

/// Searches the schedules of `rs` up to `opts.depth` steps for one that breaks a promise.
pub fn search(rs: &RaceScenario, opts: SearchOptions) -> Result<SearchReport, SearchError> {
    search_with_progress(rs, opts, |_, _| true)
}

/// [`search`], calling `progress(depth, states)` after each level and every 16,384 states;
/// it stops with [`SearchError::Cancelled`] when `progress` returns false.
pub fn search_with_progress(
    rs: &RaceScenario,
    opts: SearchOptions,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> Result<SearchReport, SearchError> {
    if opts.max_states > MAX_STATES_LIMIT {
        return Err(SearchError::CapTooHigh(opts.max_states as u64));
    }
    let mut runner = Race::new(rs);
    let lead = rs.leading_actions();
    for step in &rs.schedule[..lead] {
        runner.step_quietly(step);
    }
    let prefix: Vec<String> = rs.schedule[..lead].iter().map(|s| s.to_string()).collect();
    let found = |runner: &Race, path: Vec<u8>| {
        let mut schedule = prefix.clone();
        schedule.extend(
            path.iter()
                .map(|&i| Step::SEARCHED[usize::from(i)].to_string()),
        );
        Counterexample {
            schedule,
            violations: runner.violations(),
        }
    };
    // Every state reached: its parent and the step that led to it (for the schedule).
    let mut nodes: Vec<(u32, u8)> = vec![(u32::MAX, 0)];
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(fingerprint(&runner.state));
    if !runner.violations().is_empty() {
        return Ok(SearchReport {
            depth: 0,
            states: 1,
            violation: Some(found(&runner, Vec::new())),
        });
    }
    let path_to = |nodes: &[(u32, u8)], mut i: u32| {
        let mut path = Vec::new();
        while nodes[i as usize].0 != u32::MAX {
            path.push(nodes[i as usize].1);
            i = nodes[i as usize].0;
        }
        path.reverse();
        path
    };
    let mut frontier: Vec<(RaceState, u32)> = vec![(runner.state.clone(), 0)];
    for level in 1..=opts.depth {
        let mut next = Vec::new();
        for (state, node) in &frontier {
            for (i, step) in Step::SEARCHED.iter().enumerate() {
                runner.state = state.clone();
                runner.step_quietly(step);
                if !seen.insert(fingerprint(&runner.state)) {
                    continue;
                }
                if seen.len() > opts.max_states {
                    return Err(SearchError::TooManyStates {
                        cap: opts.max_states,
                        depth: opts.depth,
                        complete_depth: level - 1,
                    });
                }
                nodes.push((*node, i as u8));
                let id = (nodes.len() - 1) as u32;
                if !runner.violations().is_empty() {
                    return Ok(SearchReport {
                        depth: level,
                        states: seen.len(),
                        violation: Some(found(&runner, path_to(&nodes, id))),
                    });
                }
                if seen.len().is_multiple_of(16_384) && !progress(level, seen.len()) {
                    return Err(SearchError::Cancelled);
                }
                if level < opts.depth {
                    next.push((runner.state.clone(), id));
                }
            }
        }
        frontier = next;
        if !progress(level, seen.len()) {
            return Err(SearchError::Cancelled);
        }
        if frontier.is_empty() {
            break;
        }
    }
    Ok(SearchReport {
        depth: opts.depth,
        states: seen.len(),
        violation: None,
    })
}

/// A fast 128-bit hasher for state fingerprints (two 64-bit multiply-rotate lanes with a
/// final avalanche). Not for anything adversarial: it only has to tell states apart.
#[derive(Default)]
pub(crate) struct Fingerprint {
    a: u64,
    b: u64,
}

impl Fingerprint {
    fn mix(&mut self, x: u64) {
        self.a = (self.a.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
        self.b = (self.b.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    pub(crate) fn finish128(&self) -> u128 {
        (u128::from(avalanche(self.a)) << 64) | u128::from(avalanche(self.b ^ 0x2545_f491))
    }
}

/// splitmix64's finaliser.
fn avalanche(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Hasher for Fingerprint {
    fn write(&mut self, bytes: &[u8]) {
        self.mix(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(buf));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.mix(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.mix(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.mix(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.mix(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.mix(x as u64);
    }
    fn write_i64(&mut self, x: i64) {
        self.mix(x as u64);
    }
    fn write_i32(&mut self, x: i32) {
        self.mix(u64::from(x as u32));
    }
    fn finish(&self) -> u64 {
        avalanche(self.a ^ self.b.rotate_left(32))
    }
}
