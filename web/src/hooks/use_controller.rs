//! The [`Controller`] through which the JavaScript API drives a mounted lab and hears its
//! changes, and the hook that attaches a component's lab to it.

use crate::state::{Lab, Msg};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

type Listener = Rc<dyn Fn(&Lab)>;

#[derive(Default)]
struct Inner {
    lab: Option<UseReducerHandle<Lab>>,
    /// The lab before the component has taken it (its first render is a microtask away).
    staged: Option<Lab>,
    listeners: Vec<(u32, Listener)>,
    next_id: u32,
}

/// A handle on a mounted lab for code outside Yew: send it [`Msg`]s, read its state, hear
/// about every change. Cheap to clone; all clones are the same controller.
#[derive(Clone, Default)]
pub struct Controller(Rc<RefCell<Inner>>);

impl PartialEq for Controller {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Controller {
    /// A controller not yet attached to a lab.
    pub fn new() -> Controller {
        Controller::default()
    }

    fn attach(&self, lab: UseReducerHandle<Lab>) {
        self.0.borrow_mut().lab = Some(lab);
    }

    /// Gives the controller the lab the component will start from: until the component's
    /// first render takes it, messages apply to it directly and reads see it.
    pub fn stage(&self, lab: Lab) {
        self.0.borrow_mut().staged = Some(lab);
    }

    /// The staged lab, for the component's first render.
    pub fn take_staged(&self) -> Option<Lab> {
        self.0.borrow_mut().staged.take()
    }

    /// Whether a lab is attached (it has rendered at least once).
    pub fn is_attached(&self) -> bool {
        self.0.borrow().lab.is_some()
    }

    /// Sends a message; the lab's state changes at once (the page redraws just after).
    /// False when no lab is attached.
    pub fn dispatch(&self, msg: Msg) -> bool {
        let lab = self.0.borrow().lab.clone();
        match lab {
            Some(lab) => {
                lab.dispatch(msg);
                true
            }
            None => match self.0.borrow_mut().staged.as_mut() {
                Some(staged) => {
                    staged.update(msg);
                    true
                }
                None => false,
            },
        }
    }

    /// Reads the lab as it is now.
    pub fn with_lab<R>(&self, f: impl FnOnce(&Lab) -> R) -> Option<R> {
        let lab = self.0.borrow().lab.clone();
        match lab {
            Some(l) => Some(f(&l)),
            None => {
                let staged = self.0.borrow().staged.clone();
                staged.map(|l| f(&l))
            }
        }
    }

    /// Calls `f` after every change of the lab has been drawn; returns an id for
    /// [`Controller::unsubscribe`].
    pub fn subscribe(&self, f: impl Fn(&Lab) + 'static) -> u32 {
        let mut inner = self.0.borrow_mut();
        inner.next_id += 1;
        let id = inner.next_id;
        inner.listeners.push((id, Rc::new(f)));
        id
    }

    /// Stops calling a listener.
    pub fn unsubscribe(&self, id: u32) {
        self.0.borrow_mut().listeners.retain(|(i, _)| *i != id);
    }

    /// Forgets the lab and every listener (after unmounting).
    pub fn detach(&self) {
        let mut inner = self.0.borrow_mut();
        inner.lab = None;
        inner.staged = None;
        inner.listeners.clear();
    }

    fn notify(&self) {
        let (lab, listeners) = {
            let inner = self.0.borrow();
            let listeners: Vec<Listener> = inner.listeners.iter().map(|(_, l)| l.clone()).collect();
            (inner.lab.clone(), listeners)
        };
        if let Some(lab) = lab {
            for l in listeners {
                l(&lab);
            }
        }
    }
}

/// Attaches a component's lab to its controller (if any) and tells the controller's listeners
/// about every new version once it has been drawn.
#[hook]
pub fn use_controller(controller: Option<Controller>, lab: &UseReducerHandle<Lab>) {
    if let Some(c) = &controller {
        c.attach(lab.clone());
    }
    use_effect_with((controller, lab.version), |(controller, _)| {
        if let Some(c) = controller {
            c.notify();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controller_reaches_its_lab_only_once_attached() {
        let c = Controller::new();
        assert!(!c.dispatch(Msg::Step));
        assert!(c.with_lab(|l| l.version).is_none());
        c.stage(Lab::default());
        assert!(c.dispatch(Msg::Step), "a staged lab takes messages");
        assert_eq!(c.with_lab(|l| l.sim().steps_taken()), Some(1));
        assert_eq!(c.take_staged().map(|l| l.sim().steps_taken()), Some(1));
        assert!(c.take_staged().is_none());
        let id = c.subscribe(|_| {});
        c.unsubscribe(id);
        assert!(c.0.borrow().listeners.is_empty());
        assert!(c.clone() == c);
        assert!(Controller::new() != c);
    }
}
