//! The YAML reader's module for a page that reads typed YAML: loaded the first time it is
//! needed (`crate::yaml_reader`), so that what depends on it can run again once it is there.

use yew::prelude::*;

/// Whether the YAML reader is loaded, and a callback that starts loading it.
#[hook]
pub fn use_yaml_reader() -> (bool, Callback<()>) {
    let yaml_ready = use_state(crate::yaml_reader::loaded);
    let load_yaml = {
        let yaml_ready = yaml_ready.clone();
        Callback::from(move |_: ()| {
            if !*yaml_ready {
                let yaml_ready = yaml_ready.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if crate::yaml_reader::load().await.is_ok() {
                        yaml_ready.set(true);
                    }
                });
            }
        })
    };
    (*yaml_ready, load_yaml)
}

/// Loads the YAML reader as soon as the page is drawn when `now` (a Plan page link's
/// manifests, which are text).
#[hook]
pub fn use_yaml_now(now: bool, load: &Callback<()>) {
    let load = load.clone();
    use_effect_with(now, move |now| {
        if *now {
            load.emit(());
        }
    });
}
