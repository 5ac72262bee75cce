//! Files the browser saves: text offered as a download through a temporary `blob:` link (the
//! trace and the chart of the Scenario panel, and the JavaScript API's `downloadSession`).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Saves `text` as the file `name` of type `mime`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "could not make the file")?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "could not make the file")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "no link")?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    if let Some(body) = document.body() {
        body.append_child(&a).ok();
        a.click();
        a.remove();
    }
    // Revoked a moment later: the download has started by then.
    let revoke = Closure::once_into_js(move || {
        web_sys::Url::revoke_object_url(&url).ok();
    });
    window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 5_000)
        .ok();
    Ok(())
}
