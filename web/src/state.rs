//! The app's single source of truth, driven by `use_reducer`.

use std::rc::Rc;
use yew::Reducible;

/// What the user has typed, kept verbatim so a half-typed value never jumps around.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `spec.replicas` as typed.
    pub replicas: String,
    /// `spec.strategy.rollingUpdate.maxSurge` as typed (`1` or `25%`).
    pub max_surge: String,
    /// `spec.strategy.rollingUpdate.maxUnavailable` as typed (`1` or `25%`).
    pub max_unavailable: String,
}

impl Default for Settings {
    /// Three replicas with the apps/v1 defaults (25% / 25%): small enough that the rounding
    /// is visible straight away (25% of 3 is 1 surge pod but 0 unavailable ones).
    fn default() -> Self {
        Settings {
            replicas: "3".to_string(),
            max_surge: "25%".to_string(),
            max_unavailable: "25%".to_string(),
        }
    }
}

/// Everything that can change [`Settings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The replicas field changed.
    SetReplicas(String),
    /// The maxSurge field changed.
    SetMaxSurge(String),
    /// The maxUnavailable field changed.
    SetMaxUnavailable(String),
    /// A preset: set maxSurge and maxUnavailable together.
    ApplyStrategy {
        /// The new maxSurge text.
        max_surge: String,
        /// The new maxUnavailable text.
        max_unavailable: String,
    },
}

impl Reducible for Settings {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::SetReplicas(v) => next.replicas = v,
            Action::SetMaxSurge(v) => next.max_surge = v,
            Action::SetMaxUnavailable(v) => next.max_unavailable = v,
            Action::ApplyStrategy {
                max_surge,
                max_unavailable,
            } => {
                next.max_surge = max_surge;
                next.max_unavailable = max_unavailable;
            }
        }
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_update_only_their_field() {
        let s = Rc::new(Settings::default());
        let s = s.reduce(Action::SetReplicas("10".into()));
        assert_eq!(s.replicas, "10");
        assert_eq!(s.max_surge, "25%");
        let s = s.reduce(Action::ApplyStrategy {
            max_surge: "1".into(),
            max_unavailable: "0".into(),
        });
        assert_eq!(
            (s.max_surge.as_str(), s.max_unavailable.as_str()),
            ("1", "0")
        );
        assert_eq!(s.replicas, "10");
    }

    #[test]
    fn an_unchanged_state_is_the_same_rc() {
        let s = Rc::new(Settings::default());
        let same = Rc::clone(&s).reduce(Action::SetReplicas("3".into()));
        assert!(Rc::ptr_eq(&s, &same));
    }
}
