//! The open "Copy link" / "Embed" dialog of a page ([`ShareOpen`]): at most one at a time.

use crate::share::Which;
use web_sys::Element;
use yew::prelude::*;

/// An open dialog: what it shows and the element it is drawn in, positioned under the button
/// that opened it. Whoever holds it draws `components::share_dialog::share_portal` in its own Yew tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareOpen {
    /// Which dialog.
    pub which: Which,
    /// The app's address (no query, no fragment).
    pub page: AttrValue,
    /// The session's permalink fragment (without `#`).
    pub fragment: AttrValue,
    /// A title for the embed.
    pub title: AttrValue,
    /// The element it is drawn in (appended to `<body>`; removed by [`ShareOpen::close`]).
    pub host: Element,
}

impl ShareOpen {
    /// Removes the dialog's element from the page.
    pub fn close(&self) {
        self.host.remove();
    }
}

/// The dialog open now, a callback that opens one (closing the one open) and one that closes it.
#[hook]
pub fn use_share_dialog() -> (Option<ShareOpen>, Callback<ShareOpen>, Callback<()>) {
    let share = use_state(|| None::<ShareOpen>);
    let on_share = {
        let share = share.clone();
        Callback::from(move |open: ShareOpen| {
            if let Some(old) = &*share {
                old.close();
            }
            share.set(Some(open));
        })
    };
    let close_share = {
        let share = share.clone();
        Callback::from(move |()| {
            if let Some(open) = &*share {
                open.close();
            }
            share.set(None);
        })
    };
    ((*share).clone(), on_share, close_share)
}
