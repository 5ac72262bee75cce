//! Which page the app shows: the stage, or the Plan page (`?view=plan` in the address). Going
//! to the other adds a history entry, so Back returns and a permalink keeps the page; the
//! fragment (the session's link) is kept as it is.

use yew::prelude::*;

/// Whether the address asks for the Plan page: `?view=plan`.
pub fn plan_in_address() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| query_has_plan(&s))
}

/// Whether a query string holds `view=plan`.
pub fn query_has_plan(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .any(|kv| kv == "view=plan")
}

/// The query string with `view=plan` set or removed, the other parameters kept:
/// `?lesson=x` and the Plan page give `?lesson=x&view=plan`.
pub fn query_with_plan(search: &str, plan: bool) -> String {
    let mut parts: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("view="))
        .collect();
    if plan {
        parts.push("view=plan");
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Whether the Plan page is shown, and a callback that goes to it (`true`) or to the stage.
#[hook]
pub fn use_plan_page() -> (bool, Callback<bool>) {
    let plan = use_state(plan_in_address);
    {
        let plan = plan.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "popstate", move |_| {
                    plan.set(plan_in_address())
                })
            });
            move || drop(listener)
        });
    }
    let go = {
        let plan = plan.clone();
        Callback::from(move |to: bool| {
            let Some(w) = web_sys::window() else { return };
            let loc = w.location();
            let search = loc.search().unwrap_or_default();
            if query_has_plan(&search) != to {
                let path = loc.pathname().unwrap_or_default();
                let url = format!(
                    "{path}{}{}",
                    query_with_plan(&search, to),
                    loc.hash().unwrap_or_default()
                );
                if let Ok(h) = w.history() {
                    h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                        .ok();
                }
            }
            w.scroll_to_with_x_and_y(0.0, 0.0);
            plan.set(to);
        })
    };
    (*plan, go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_page_is_one_query_parameter_among_others() {
        assert!(query_has_plan("?view=plan"));
        assert!(query_has_plan("?lesson=x&view=plan"));
        assert!(!query_has_plan("?view=planner"));
        assert_eq!(query_with_plan("", true), "?view=plan");
        assert_eq!(query_with_plan("?lesson=x", true), "?lesson=x&view=plan");
        assert_eq!(query_with_plan("?lesson=x&view=plan", false), "?lesson=x");
        assert_eq!(query_with_plan("?view=plan", false), "");
    }
}
