//! The Races view's reducer (`?view=races`, issue #26): a teaching walk-through's schedule
//! stepped by hand in the core's [`RaceExplorer`] (the real controllers and both
//! counterfactuals at once), which counterfactuals are shown beside the real run, and the
//! permalink (`?view=races&race=ID&steps=STEP,STEP,…`). It knows no component; the view draws
//! [`RaceLab::frames`].

use rollout_facade::embed::RaceLink;
use rollout_facade::limits::{MAX_IMAGE_BYTES, MAX_LINK_STEPS};
use rollout_facade::races::{Mode, RaceExplorer, RaceFrame, Step, Walkthrough, WALKTHROUGHS};
use rollout_facade::share::{escape, unescape};
use std::rc::Rc;
use yew::Reducible;

/// The six step kinds a learner takes by hand, in the order of their buttons and keys 1–6: the
/// ones a search tries at every state (all but `setImage`), in the core's order.
pub const KINDS: [Step; 6] = Step::SEARCHED;

/// Everything the Races view can be asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceMsg {
    /// Open a walk-through (by id), no step taken.
    Pick(String),
    /// Take one step of this kind.
    Step(Step),
    /// Take the walk-through's next step.
    Next,
    /// Undo the last step.
    Back,
    /// Go back to just after this many steps.
    GoTo(usize),
    /// Replace the steps taken by this schedule ("Find a race"'s counterexample), found with
    /// these controllers: a counterfactual is shown beside the real ones, where its promise
    /// breaks.
    Load(Vec<Step>, Mode),
    /// Show this counterfactual beside the real controllers, or hide it.
    Toggle(Mode),
    /// Hide the notice.
    Dismiss,
}

/// The Races view's state.
#[derive(Clone, Debug)]
pub struct RaceLab {
    /// The walk-through followed.
    pub walk: &'static Walkthrough,
    /// Its scenario stepped by hand, in the three modes.
    pub explorer: RaceExplorer,
    /// The counterfactuals shown beside the real controllers.
    pub shown: Vec<Mode>,
    /// A refused link or step, said once.
    pub notice: Option<String>,
    /// Moves with every change (what memos and Yew compare).
    pub version: u64,
}

impl PartialEq for RaceLab {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.walk.id == other.walk.id
            && self.shown == other.shown
            && self.notice == other.notice
    }
}

impl Default for RaceLab {
    fn default() -> Self {
        RaceLab::of(&WALKTHROUGHS[0])
    }
}

/// Reads a permalink's steps: `sync-dc,deliver-rs,setImage%20web:2`.
pub fn parse_steps(text: &str) -> Result<Vec<Step>, String> {
    let parts: Vec<&str> = text.split(',').filter(|s| !s.trim().is_empty()).collect();
    if parts.len() > MAX_LINK_STEPS {
        return Err(format!(
            "{} steps; a link may replay at most {MAX_LINK_STEPS}",
            parts.len()
        ));
    }
    parts
        .into_iter()
        .map(|p| {
            let step = Step::parse(unescape(p).trim())?;
            match &step {
                Step::SetImage(i) if i.len() > MAX_IMAGE_BYTES => Err(format!(
                    "an image of {} bytes; at most {MAX_IMAGE_BYTES}",
                    i.len()
                )),
                _ => Ok(step),
            }
        })
        .collect()
}

impl RaceLab {
    /// A walk-through, no step taken.
    pub fn of(walk: &'static Walkthrough) -> RaceLab {
        RaceLab {
            walk,
            explorer: RaceExplorer::new(walk.scenario()),
            shown: Vec::new(),
            notice: None,
            version: 0,
        }
    }

    /// The lab a permalink asks for; a link that cannot be followed opens what it can (the
    /// walk-through, or the first) with a notice saying why, never a panic.
    pub fn from_link(link: &RaceLink) -> RaceLab {
        let walk = match link.race.as_deref().map(str::trim) {
            None | Some("") => Ok(&WALKTHROUGHS[0]),
            Some(id) => Walkthrough::find(id).ok_or_else(|| {
                let ids: Vec<&str> = WALKTHROUGHS.iter().map(|w| w.id).collect();
                format!(
                    "there is no walk-through \"{}\" (there are {})",
                    rollout_facade::limits::prefix(id, 40),
                    ids.join(", ")
                )
            }),
        };
        let mut lab = RaceLab::of(walk.as_ref().copied().unwrap_or(&WALKTHROUGHS[0]));
        let steps = match (&walk, link.steps.as_deref()) {
            (Ok(_), Some(text)) => parse_steps(text)
                .and_then(|steps| lab.explorer.load(&steps))
                .err(),
            _ => None,
        };
        if let Some(why) = walk.err().or(steps) {
            lab.explorer = RaceExplorer::new(lab.walk.scenario());
            lab.notice = Some(format!("This link could not be followed: {why}."));
        }
        // `show=noexp,norv`: the counterfactuals beside the real controllers; a name that is
        // none of them is left out, and said.
        for name in link.show.iter().flat_map(|s| s.split(',')).map(str::trim) {
            match Mode::from_id(name).filter(|m| *m != Mode::Real) {
                Some(m) if !lab.shown.contains(&m) => lab.shown.push(m),
                Some(_) => {}
                None if name.is_empty() => {}
                None => {
                    lab.notice.get_or_insert(format!(
                        "This link shows \"{}\", which is no counterfactual (there are {}, {} and {}, the 1.36+ controllers).",
                        rollout_facade::limits::prefix(name, 40),
                        Mode::WithoutExpectations.id(),
                        Mode::LastWriteWins.id(),
                        Mode::Guarded.id()
                    ));
                }
            }
        }
        lab
    }

    /// The address's query for this moment: `view=races&race=ID&steps=…&show=…` (no `steps`
    /// before the first, no `show` while only the real controllers are shown).
    pub fn query(&self) -> String {
        let mut q = format!("view=races&race={}", self.walk.id);
        let shown: Vec<&str> = Mode::EVERY
            .into_iter()
            .filter(|m| self.shown.contains(m))
            .map(Mode::id)
            .collect();
        let steps: Vec<String> = self
            .explorer
            .schedule_text()
            .iter()
            .map(|s| escape(s))
            .collect();
        if !steps.is_empty() {
            q.push_str("&steps=");
            q.push_str(&steps.join(","));
        }
        if !shown.is_empty() {
            q.push_str("&show=");
            q.push_str(&shown.join(","));
        }
        q
    }

    /// The frames drawn: the real controllers', then each counterfactual shown and the 1.36+
    /// controllers (`Mode::Guarded`) when shown, in `Mode::EVERY`'s order.
    pub fn frames(&self) -> Vec<RaceFrame> {
        std::iter::once(Mode::Real)
            .chain(Mode::EVERY.into_iter().filter(|m| self.shown.contains(m)))
            .map(|m| self.explorer.frame(m))
            .collect()
    }

    /// Whether the steps taken follow the walk-through's script so far.
    pub fn on_script(&self) -> bool {
        let taken = self.explorer.steps();
        self.explorer.script().get(..taken.len()) == Some(taken)
    }

    /// The walk-through's note on the step just taken, while the steps follow its script.
    /// Worded for the counterfactuals shown (`Walkthrough::note`).
    pub fn note(&self) -> Option<String> {
        let n = self.explorer.steps().len();
        n.checked_sub(1)
            .filter(|_| self.on_script())
            .and_then(|i| self.walk.note(i, &self.shown))
    }

    /// Applies one message.
    pub fn update(&mut self, msg: RaceMsg) {
        self.version += 1;
        let x = &mut self.explorer;
        let refused = match msg {
            RaceMsg::Step(step) => x.step(step).err(),
            RaceMsg::Next => x.next_scripted().cloned().and_then(|s| x.step(s).err()),
            RaceMsg::Back => {
                x.back();
                None
            }
            RaceMsg::GoTo(n) => {
                while x.steps().len() > n && x.back() {}
                None
            }
            RaceMsg::Load(steps, mode) => {
                if mode != Mode::Real && !self.shown.contains(&mode) {
                    self.shown.push(mode);
                }
                x.load(&steps).err()
            }
            RaceMsg::Pick(id) => {
                let walk = Walkthrough::find(&id).unwrap_or(&WALKTHROUGHS[0]);
                (self.walk, self.explorer) = (walk, RaceExplorer::new(walk.scenario()));
                None
            }
            RaceMsg::Toggle(mode) => {
                match self.shown.iter().position(|m| *m == mode) {
                    Some(i) => {
                        self.shown.remove(i);
                    }
                    None => self.shown.push(mode),
                }
                None
            }
            RaceMsg::Dismiss => {
                self.notice = None;
                None
            }
        };
        if refused.is_some() {
            self.notice = refused;
        }
    }
}

impl Reducible for RaceLab {
    type Action = RaceMsg;

    fn reduce(self: Rc<Self>, msg: RaceMsg) -> Rc<Self> {
        let mut next = (*self).clone();
        next.update(msg);
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(race: &str, steps: &str) -> RaceLink {
        RaceLink {
            race: Some(race.into()),
            steps: Some(steps.into()),
            show: None,
        }
    }

    #[test]
    fn a_permalink_round_trips() {
        let mut lab = RaceLab::default();
        for _ in 0..6 {
            lab.update(RaceMsg::Next);
        }
        lab.update(RaceMsg::Step(Step::Kubelet));
        let q = lab.query();
        assert_eq!(
            q,
            "view=races&race=expectations&steps=setImage%20web:2,deliver-dc,sync-dc,deliver-rs,sync-rs,sync-rs,kubelet"
        );
        let steps = q.split("steps=").nth(1).unwrap();
        let back = RaceLab::from_link(&link("expectations", steps));
        assert_eq!(back.notice, None);
        assert_eq!(back.explorer.steps(), lab.explorer.steps());
        assert_eq!(back.query(), q);
    }

    #[test]
    fn the_counterfactuals_shown_are_in_the_permalink() {
        let mut lab = RaceLab::default();
        lab.update(RaceMsg::Next);
        lab.update(RaceMsg::Toggle(Mode::LastWriteWins));
        lab.update(RaceMsg::Toggle(Mode::WithoutExpectations));
        let q = lab.query();
        assert_eq!(
            q,
            "view=races&race=expectations&steps=setImage%20web:2&show=noexp,norv"
        );
        let back = RaceLab::from_link(&rollout_facade::embed::race_link(&q).unwrap());
        assert_eq!(back.notice, None);
        assert_eq!(back.frames().len(), 3);
        assert_eq!(back.query(), q);
        // Hidden again: no `show`.
        lab.update(RaceMsg::Toggle(Mode::LastWriteWins));
        lab.update(RaceMsg::Toggle(Mode::WithoutExpectations));
        assert!(!lab.query().contains("show"));
        // A name that is no counterfactual is left out and said; the rest is shown.
        let odd = RaceLab::from_link(&RaceLink {
            show: Some("real, norv,lww,".into()),
            ..RaceLink::default()
        });
        assert_eq!(odd.shown, vec![Mode::LastWriteWins]);
        assert_eq!(
            odd.notice.as_deref(),
            Some(
                "This link shows \"real\", which is no counterfactual (there are noexp, norv and guard, the 1.36+ controllers)."
            )
        );
    }

    /// The fourth column, "the real controllers, 1.36+": in the permalink as `show=guard`; on
    /// "A stale cache holds the rollout back" it does all the real controllers do at every
    /// step (the ReplicaSet controller's cache holds its own writes whenever it syncs; the stale
    /// one is the Deployment controller's, which 1.37 does not guard), and the walk-through's
    /// note says so.
    #[test]
    fn the_guarded_controllers_beside_the_real_ones() {
        let mut lab = RaceLab::from_link(&RaceLink {
            race: Some("stale-status".into()),
            show: Some("guard".into()),
            ..RaceLink::default()
        });
        assert_eq!(lab.notice, None);
        assert_eq!(lab.shown, vec![Mode::Guarded]);
        assert!(lab.query().ends_with("&show=guard"), "{}", lab.query());
        let n = lab.explorer.script().len();
        for i in 0..n {
            lab.update(RaceMsg::Next);
            let frames = lab.frames();
            assert_eq!(
                frames.iter().map(|f| f.mode).collect::<Vec<_>>(),
                vec![Mode::Real, Mode::Guarded]
            );
            let (real, guarded) = (&frames[0], &frames[1]);
            assert_eq!(guarded.truth, real.truth, "step {}", i + 1);
            assert_eq!(
                guarded.deployment_cache,
                real.deployment_cache,
                "step {}",
                i + 1
            );
            assert!(guarded.violations.is_empty() && guarded.errors == real.errors);
        }
        // The note of the Deployment controller's stale sync names what the guard does not do.
        lab.update(RaceMsg::GoTo(12));
        let note = lab.note().unwrap();
        assert!(
            note.contains("the Deployment controller has no such guard"),
            "{note}"
        );
    }

    #[test]
    fn a_bad_link_opens_what_it_can_and_says_why() {
        let lab = RaceLab::from_link(&link("nope", "sync-dc"));
        assert_eq!(lab.walk.id, "expectations");
        assert!(lab.explorer.steps().is_empty());
        assert!(lab.notice.unwrap().contains("no walk-through \"nope\""));
        let lab = RaceLab::from_link(&link("conflict", "sync-dc,fly"));
        assert_eq!(lab.walk.id, "conflict");
        assert!(lab.explorer.steps().is_empty());
        assert!(lab.notice.unwrap().contains("unknown step \"fly\""));
        let long = vec!["tick"; MAX_LINK_STEPS + 1].join(",");
        let lab = RaceLab::from_link(&link("conflict", &long));
        assert!(lab.notice.unwrap().contains("at most"));
    }

    #[test]
    fn the_walk_through_is_followed_its_notes_shown_and_back_and_goto_undo() {
        let mut lab = RaceLab::default();
        assert_eq!(lab.note(), None);
        lab.update(RaceMsg::Next);
        assert_eq!(lab.note().as_deref(), Some(lab.walk.notes[0]));
        lab.update(RaceMsg::Next);
        lab.update(RaceMsg::Step(Step::Tick));
        assert_eq!(lab.note(), None, "off the script: no note");
        lab.update(RaceMsg::Back);
        assert_eq!(lab.note().as_deref(), Some(lab.walk.notes[1]));
        lab.update(RaceMsg::GoTo(0));
        assert!(lab.explorer.steps().is_empty());
        lab.update(RaceMsg::Toggle(Mode::WithoutExpectations));
        assert_eq!(lab.frames().len(), 2);
        lab.update(RaceMsg::Pick("conflict".into()));
        assert_eq!(lab.walk.id, "conflict");
        assert_eq!(lab.shown, vec![Mode::WithoutExpectations]);
        lab.update(RaceMsg::Load(vec![Step::SyncDc, Step::SyncDc], Mode::Real));
        assert_eq!(lab.explorer.steps().len(), 2);
    }

    #[test]
    fn without_expectations_the_second_sync_breaks_max_surge() {
        let mut lab = RaceLab::default();
        lab.update(RaceMsg::Toggle(Mode::WithoutExpectations));
        for _ in 0..6 {
            lab.update(RaceMsg::Next);
        }
        let frames = lab.frames();
        assert!(frames[0].violations.is_empty());
        assert_eq!(frames[1].violations, vec!["maxSurge: 5 pods > 3 + 1"]);
        // The note speaks of the counterfactual it shows.
        assert!(lab
            .note()
            .unwrap()
            .contains("watch that counterfactual break maxSurge"));
        lab.update(RaceMsg::Toggle(Mode::WithoutExpectations));
        let note = lab.note().unwrap();
        assert!(!note.contains("watch that counterfactual"), "{note}");
        assert!(note.contains("Turn on"), "{note}");
    }
}
