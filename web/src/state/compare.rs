//! Compare side by side (issue #11 item 4): the page's session (A) beside a variant (B) whose
//! strategy, maxSurge, maxUnavailable, replicas or minReadySeconds the user edits. B is A's
//! scenario with the variant's values in A's first `create`, so both receive the same kubectl
//! actions at the same time; it is a core `Session` that follows A's clock (after each move of
//! A, the core's `Session::advance_to` runs B to the moment A shows, so both clocks read the
//! same seconds; B is rebuilt when A's actions change or A goes back). Under the stages, each
//! side's figures come from the core's `plan::forecast`: the time to complete, the peak pod
//! count and the lowest availability.
//!
//! The state is its own reducer ([`Compare`]), beside the app's; it decides nothing about
//! Kubernetes: the variant is checked by `settings::check_create` (the API's validation) and
//! every message is the core's.

use crate::settings::{check_create, first_create, Field, Settings, StrategyKind};
use rollout_facade::api::Time;
use rollout_facade::plan::{forecast, Forecast};
use rollout_facade::scenario::{ActionKind, Scenario};
use rollout_facade::session::Session;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The fields B can change, in form order.
pub const FIELDS: [Field; 5] = [
    Field::Strategy,
    Field::MaxSurge,
    Field::MaxUnavailable,
    Field::Replicas,
    Field::MinReadySeconds,
];

/// The permalink parameter: `cmp=RollingUpdate,1,0,10,0` (strategy, maxSurge, maxUnavailable,
/// replicas, minReadySeconds; `%` written as `%25`).
pub const PARAM: &str = "cmp";

/// B's settings as a permalink value, e.g. `RollingUpdate,1,0,10,0`.
pub fn encode(v: &Settings) -> String {
    FIELDS
        .iter()
        .map(|f| v.get(*f).replace('%', "%25").replace(',', "%2C"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The variant of a permalink value over `base` (A's settings); `None` when it is not five
/// values or names no strategy.
pub fn decode(value: &str, base: &Settings) -> Option<Settings> {
    let parts: Vec<String> = value
        .split(',')
        .map(|p| p.replace("%25", "%").replace("%2C", ","))
        .collect();
    if parts.len() != FIELDS.len() {
        return None;
    }
    let mut v = base.clone();
    StrategyKind::parse(&parts[0])?;
    for (f, text) in FIELDS.iter().zip(parts) {
        v.set(*f, text);
    }
    Some(v)
}

/// `fragment` (without `#`) with its `cmp=` part replaced by `variant`'s (or removed when
/// there is none): the one place the address bar and the copied link get it from.
pub fn with_param(fragment: &str, variant: Option<&Settings>) -> String {
    let mut parts: Vec<String> = fragment
        .trim_start_matches('#')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("cmp="))
        .map(str::to_string)
        .collect();
    if let Some(v) = variant {
        parts.push(format!("{PARAM}={}", encode(v)));
    }
    parts.join("&")
}

/// The `cmp=` value in a fragment or query (`#s=…&cmp=…`), if any.
pub fn param_of(fragment: &str) -> Option<&str> {
    fragment
        .trim_start_matches(['#', '?'])
        .split('&')
        .find_map(|kv| kv.strip_prefix("cmp="))
}

/// B's scenario: `a` with the variant in its first `create` (and in later `create`s of the
/// same Deployment). Errors are the API's validation message for the variant.
pub fn variant_scenario(a: &Scenario, variant: &Settings) -> Result<Scenario, String> {
    let base = first_create(a).ok_or("this scenario creates no Deployment to compare")?;
    let name = base.name.clone();
    // Each field's message in the API's words (`B: spec.strategy.rollingUpdate.maxSurge: a
    // valid percent string must be …`), without the Go value the StatusError quotes
    // (`intstr.IntOrString{…}`): B's form already shows the value as typed.
    let input = check_create(variant, base).map_err(|p| {
        let each: Vec<String> = p
            .list
            .iter()
            .map(|x| {
                format!(
                    "B: {}",
                    rollout_facade::lessons::question::field_and_reason(&x.message)
                )
            })
            .collect();
        if each.is_empty() {
            p.summary
        } else {
            each.join("; ")
        }
    })?;
    let mut b = a.clone();
    for action in &mut b.actions {
        if let ActionKind::Create { deployment } = &mut action.kind {
            if deployment.name == name {
                *deployment = input.clone();
            }
        }
    }
    b.name = format!("{} (B)", a.name);
    Ok(b)
}

/// Where A is on the clock: its time, and whether it has begun that moment (a step into the
/// round at that time) rather than only reached it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    /// A's clock, in seconds.
    pub seconds: Time,
    /// A has run something at `seconds`.
    pub begun: bool,
}

impl Moment {
    /// Where `session` is.
    pub fn of(session: &Session) -> Moment {
        Moment {
            seconds: session.sim().now(),
            begun: !session.sim().at_round_start(),
        }
    }

    /// Whether `b` is further on than this moment (and must be rebuilt to show it).
    fn behind(&self, b: &Session) -> bool {
        let now = b.sim().now();
        now > self.seconds || (now == self.seconds && !self.begun && !b.sim().at_round_start())
    }
}

/// Runs `session` (B) to A's moment with the core's `Session::advance_to`: both clocks read the
/// same seconds. Returns the caption of the last sync that changed something, if one did.
fn follow(session: &mut Session, at: Moment) -> Option<String> {
    let moved = session.advance_to(at.seconds, at.begun);
    moved.last_change.map(|r| {
        let e = crate::explain::explain(&r, &session.deployment_name());
        crate::explain::caption(&e)
    })
}

/// One side's figures, as `plan::forecast` gives them (or why there are none).
pub type Figures = Result<Forecast, String>;

/// The forecast of a side as the page would play it: past the scenario's own rounds, up to
/// the rounds a run to the end looks (`limits::MAX_RUN_ROUNDS`), as Step and End go on.
fn figures(s: &Scenario) -> Figures {
    let mut s = s.clone();
    s.rounds = s.rounds.max(rollout_facade::limits::MAX_RUN_ROUNDS);
    forecast(&s)
}

/// Compare: on or off, B's settings, B's session and both sides' figures.
#[derive(Clone, Debug, Default)]
pub struct Compare {
    /// Showing the second stage.
    pub on: bool,
    /// B's settings as typed.
    pub variant: Settings,
    /// Why B cannot run (the API's message), if it cannot.
    pub problem: Option<String>,
    /// B, following A (absent when B cannot run).
    pub session: Option<Rc<RefCell<Session>>>,
    /// The scenario B was made from (A's, when B was built).
    from: Option<Scenario>,
    /// A's and B's figures.
    pub figures: Option<(Rc<Figures>, Rc<Figures>)>,
    /// Changes whenever B moves (for redraws).
    pub version: u64,
    /// B's last change, in one line.
    pub caption: Option<String>,
    /// A's moment, as last told.
    at: Moment,
}

impl PartialEq for Compare {
    fn eq(&self, other: &Self) -> bool {
        self.on == other.on
            && self.version == other.version
            && self.variant == other.variant
            && self.problem == other.problem
    }
}

/// What Compare is told.
#[derive(Clone, Debug)]
pub enum CompareMsg {
    /// Show it, with B starting as this variant (or as A's settings).
    Open(Option<Box<Settings>>),
    /// Hide it.
    Close,
    /// B's field changed.
    Set(Field, String),
    /// A moved: its scenario and the moment it shows.
    Follow(Rc<Scenario>, Moment),
    /// A has nothing more to do: B goes to its own next change.
    StepB,
}

impl Compare {
    /// Compare before its first move: on (a permalink's `cmp=`) or off, with B's settings.
    pub fn starting(variant: Settings, on: bool) -> Compare {
        Compare {
            on,
            variant,
            ..Compare::default()
        }
    }

    /// B's session built afresh from `a` and followed to `at`, with both sides' figures.
    fn rebuild(&mut self, a: &Scenario, at: Moment) {
        self.from = Some(a.clone());
        self.version += 1;
        match variant_scenario(a, &self.variant) {
            Ok(b) => {
                self.problem = None;
                self.figures = Some((Rc::new(figures(a)), Rc::new(figures(&b))));
                match Session::new(b) {
                    Ok(mut s) => {
                        self.caption = follow(&mut s, at);
                        self.session = Some(Rc::new(RefCell::new(s)));
                    }
                    Err(e) => {
                        self.problem = Some(e);
                        self.session = None;
                    }
                }
            }
            // B's stage and figures stay as they were (the last valid B) under the message.
            Err(e) => self.problem = Some(e),
        }
    }
}

impl Reducible for Compare {
    type Action = CompareMsg;

    fn reduce(self: Rc<Self>, msg: CompareMsg) -> Rc<Self> {
        let mut next = (*self).clone();
        match msg {
            CompareMsg::Open(variant) => {
                next.on = true;
                if let Some(v) = variant {
                    next.variant = *v;
                }
                // Built on the next Follow (the app sends one when Compare opens).
                next.from = None;
            }
            CompareMsg::Close => {
                next.on = false;
                next.session = None;
                next.from = None;
                next.figures = None;
            }
            CompareMsg::Set(field, text) => {
                next.variant.set(field, text);
                if let Some(a) = next.from.clone() {
                    let at = next.at;
                    next.rebuild(&a, at);
                }
            }
            CompareMsg::StepB => {
                let Some(s) = &next.session else {
                    return self;
                };
                let result = s.borrow_mut().step();
                match result {
                    Some(r) => {
                        next.caption = Some(r.headline);
                        next.version += 1;
                    }
                    None => return self,
                }
            }
            CompareMsg::Follow(a, at) => {
                if !next.on {
                    return self;
                }
                next.at = at;
                let behind = next
                    .session
                    .as_ref()
                    .is_some_and(|s| at.behind(&s.borrow()));
                if next.from.as_ref() != Some(&*a) || behind || next.session.is_none() {
                    next.rebuild(&a, at);
                } else if let Some(s) = &next.session {
                    // Where B is: its syncs and its clock (idle seconds move the clock
                    // without a sync, and B's stage must show that too).
                    let position = |s: &Session| {
                        let sim = s.sim();
                        (sim.steps_taken(), sim.now(), sim.at_round_start())
                    };
                    let before = position(&s.borrow());
                    let caption = follow(&mut s.borrow_mut(), at);
                    if position(&s.borrow()) != before {
                        next.version += 1;
                        if caption.is_some() {
                            next.caption = caption;
                        }
                    } else {
                        return self;
                    }
                }
            }
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ten_replicas() -> Scenario {
        let mut s = rollout_facade::presets::preset("rolling-basic")
            .unwrap()
            .scenario;
        for a in &mut s.actions {
            if let ActionKind::Create { deployment } = &mut a.kind {
                deployment.replicas = Some(10);
            }
        }
        s
    }

    #[test]
    fn the_permalink_value_round_trips() {
        let v = Settings {
            max_surge: "1".into(),
            max_unavailable: "25%".into(),
            replicas: "10".into(),
            ..Settings::default()
        };
        let text = encode(&v);
        assert_eq!(text, "RollingUpdate,1,25%25,10,0");
        assert_eq!(decode(&text, &Settings::default()).as_ref(), Some(&v));
        assert_eq!(
            param_of("#s=abc&cmp=Recreate,1,0,3,0&at=2"),
            Some("Recreate,1,0,3,0")
        );
        assert_eq!(
            with_param("#s=abc&cmp=Recreate,1,0,3,0&at=2", Some(&v)),
            "s=abc&at=2&cmp=RollingUpdate,1,25%25,10,0"
        );
        assert_eq!(with_param("s=abc&cmp=x", None), "s=abc");
        assert_eq!(decode("Sideways,1,0,3,0", &Settings::default()), None);
    }

    #[test]
    fn b_gets_the_same_actions_with_its_own_strategy() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_surge = "1".into();
        v.max_unavailable = "0".into();
        let b = variant_scenario(&a, &v).unwrap();
        assert_eq!(a.actions.len(), b.actions.len());
        for (x, y) in a.actions.iter().zip(&b.actions) {
            assert_eq!(x.round, y.round);
            assert_eq!(x.kind.type_name(), y.kind.type_name());
        }
        // 1 / 0 on 10 replicas rolls one pod at a time: slower than 25% / 25% (3 / 2).
        let (fa, fb) = (figures(&a).unwrap(), figures(&b).unwrap());
        assert!(fb.complete_round > fa.complete_round, "{fa:?} {fb:?}");
        // 10 + 1 surge pod, plus the old pods still terminating (counted in the peak).
        assert!(
            fb.peak_pods >= 11 && fb.peak_pods < fa.peak_pods,
            "{fa:?} {fb:?}"
        );
        assert_eq!(fb.min_available, Some(10));
    }

    #[test]
    fn a_bad_variant_gets_the_apis_message() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_surge = "0".into();
        v.max_unavailable = "0".into();
        let e = variant_scenario(&a, &v).unwrap_err();
        assert!(e.contains("may not be 0 when `maxSurge` is 0"), "{e}");
        assert!(!e.contains("intstr"), "{e}");
        // Typed into B's form: the message in the API's words, without the Go value, and B's
        // stage stays (the last valid B) under it.
        let a = Rc::new(a);
        let mut c = Rc::new(Compare::default()).reduce(CompareMsg::Open(None));
        c = c.reduce(CompareMsg::Follow(a, Moment::default()));
        assert!(c.session.is_some() && c.problem.is_none());
        c = c.reduce(CompareMsg::Set(Field::MaxSurge, "abc".into()));
        let problem = c.problem.clone().unwrap();
        assert!(
            problem.starts_with("B: spec.strategy.rollingUpdate.maxSurge: "),
            "{problem}"
        );
        assert!(!problem.contains("IntOrString"), "{problem}");
        assert!(c.session.is_some(), "B's stage is kept");
    }

    #[test]
    fn b_follows_a_round_by_round_through_idle_seconds() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_surge = "1".into();
        v.max_unavailable = "0".into();
        let mut s = Session::new(variant_scenario(&a, &v).unwrap()).unwrap();
        for seconds in 1..=40 {
            follow(
                &mut s,
                Moment {
                    seconds,
                    begun: false,
                },
            );
            assert_eq!(
                (s.sim().now(), s.sim().at_round_start()),
                (seconds, true),
                "B's clock after A's Round to 0:{seconds:02}"
            );
        }
    }

    #[test]
    fn b_is_redrawn_when_only_its_clock_moves() {
        // Before the image changes nothing happens: A's Round moves both clocks a second,
        // and B gets there without a sync. Its stage must still be drawn again.
        let a = Rc::new(ten_replicas());
        let mut c = Rc::new(Compare::default()).reduce(CompareMsg::Open(None));
        c = c.reduce(CompareMsg::Follow(a.clone(), Moment::default()));
        for seconds in 1..=3 {
            let version = c.version;
            c = c.reduce(CompareMsg::Follow(
                a.clone(),
                Moment {
                    seconds,
                    begun: false,
                },
            ));
            assert!(c.version > version, "B redrawn at 0:{seconds:02}");
            let b = c.session.as_ref().unwrap().borrow();
            assert_eq!(b.sim().now(), seconds);
        }
    }

    #[test]
    fn b_follows_a_by_time() {
        let a = ten_replicas();
        let mut v = Settings::from_scenario(&a).unwrap().0;
        v.max_unavailable = "0".into();
        let mut s = Session::new(variant_scenario(&a, &v).unwrap()).unwrap();
        // A has only reached 0:30: B stops as its clock reads 30 s.
        let reached = Moment {
            seconds: 30,
            begun: false,
        };
        let caption = follow(&mut s, reached);
        assert!(caption.is_some_and(|c| !c.is_empty()));
        assert_eq!(s.sim().now(), 30);
        assert!(s.sim().at_round_start());
        assert!(!reached.behind(&s));
        // A steps into 0:30: B runs that moment too, and its clock stays at 30 s.
        let begun = Moment {
            seconds: 30,
            begun: true,
        };
        follow(&mut s, begun);
        assert_eq!(s.sim().now(), 30);
        assert!(!s.sim().at_round_start());
        assert!(reached.behind(&s), "A went back to the start of 0:30");
        assert!(!begun.behind(&s));
    }
}
