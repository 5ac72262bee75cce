//! Rollout Lab's mark: three pods, old, in between and new, as a rollout moves them.

use yew::prelude::*;

/// The mark, decorative (the title beside it names the page).
pub fn logo() -> Html {
    html! {
        <svg class="logo" viewBox="0 0 32 32" aria-hidden="true">
            <rect x="3" y="9" width="8" height="14" rx="2" class="logo-old" />
            <rect x="12" y="9" width="8" height="14" rx="2" class="logo-mid" />
            <rect x="21" y="9" width="8" height="14" rx="2" class="logo-new" />
        </svg>
    }
}
