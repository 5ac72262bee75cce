//! Which page the app shows: the stage, the Plan page (`?view=plan` in the address) or the
//! Races view (`?view=races`, with its walk-through and steps: `crate::state::races`). Going
//! to another adds a history entry, so Back returns and a permalink keeps the page; the
//! fragment (the session's link) is kept as it is.

use yew::prelude::*;

/// The app's pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The stage and the panels under it.
    Stage,
    /// `?view=plan`.
    Plan,
    /// `?view=races`.
    Races,
}

/// The page the address asks for.
pub fn page_in_address() -> Page {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map_or(Page::Stage, |s| page_of_query(&s))
}

/// The page a query string asks for: `view=plan`, `view=races`, else the stage.
pub fn page_of_query(search: &str) -> Page {
    let views = search.trim_start_matches('?').split('&');
    views.fold(Page::Stage, |page, kv| match kv {
        "view=plan" => Page::Plan,
        "view=races" => Page::Races,
        _ => page,
    })
}

/// The query string with `page`'s `view=` set (none for the stage), the other parameters kept
/// but the Races view's own (`race=`, `steps=`): `?lesson=x` and the Plan page give
/// `?lesson=x&view=plan`.
pub fn query_with_page(search: &str, page: Page) -> String {
    let mut parts: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| {
            !kv.is_empty()
                && !["view=", "race=", "steps="]
                    .iter()
                    .any(|p| kv.starts_with(p))
        })
        .collect();
    match page {
        Page::Stage => {}
        Page::Plan => parts.push("view=plan"),
        Page::Races => parts.push("view=races"),
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Replaces the address's query with `query` (a history entry of its own when `push`), the
/// path and the fragment kept.
pub fn set_query(query: &str, push: bool) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let url = format!(
        "{}{query}{}",
        loc.pathname().unwrap_or_default(),
        loc.hash().unwrap_or_default()
    );
    if let Ok(h) = w.history() {
        let null = wasm_bindgen::JsValue::NULL;
        if push {
            h.push_state_with_url(&null, "", Some(&url)).ok();
        } else {
            h.replace_state_with_url(&null, "", Some(&url)).ok();
        }
    }
}

/// The page shown, and a callback that goes to another.
#[hook]
pub fn use_plan_page() -> (Page, Callback<Page>) {
    let page = use_state(page_in_address);
    {
        let page = page.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "popstate", move |_| {
                    page.set(page_in_address())
                })
            });
            move || drop(listener)
        });
    }
    let go = {
        let page = page.clone();
        Callback::from(move |to: Page| {
            let Some(w) = web_sys::window() else { return };
            let search = w.location().search().unwrap_or_default();
            if page_of_query(&search) != to {
                set_query(&query_with_page(&search, to), true);
            }
            w.scroll_to_with_x_and_y(0.0, 0.0);
            page.set(to);
        })
    };
    (*page, go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_one_query_parameter_among_others() {
        assert_eq!(page_of_query("?view=plan"), Page::Plan);
        assert_eq!(page_of_query("?lesson=x&view=plan"), Page::Plan);
        assert_eq!(page_of_query("?view=races&race=conflict"), Page::Races);
        assert_eq!(page_of_query("?view=planner"), Page::Stage);
        assert_eq!(query_with_page("", Page::Plan), "?view=plan");
        assert_eq!(
            query_with_page("?lesson=x", Page::Plan),
            "?lesson=x&view=plan"
        );
        assert_eq!(
            query_with_page("?lesson=x&view=plan", Page::Stage),
            "?lesson=x"
        );
        assert_eq!(query_with_page("?view=plan", Page::Stage), "");
        assert_eq!(
            query_with_page("?view=races&race=conflict&steps=tick", Page::Plan),
            "?view=plan"
        );
    }
}
