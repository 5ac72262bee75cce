//! The session as a scenario in the conformance format: export it (copy or download), export
//! its trace (JSON) and chart (SVG), and import a scenario to replay it exactly, or a Deployment
//! manifest (`kubectl get deployment NAME -o yaml|json`, pasted, dropped or chosen) to start
//! from its spec (`crate::export`).

use crate::state::Msg;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// A file the panel offers: `(file name, MIME type, contents)`.
pub type File = (&'static str, &'static str, String);

/// Props of [`ScenarioPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ScenarioPanelProps {
    /// The scenario as pretty JSON, computed only while the panel is open.
    pub json: Callback<(), String>,
    /// Bumped when the simulation changes (to refresh the export).
    pub version: u64,
    /// Receives imports.
    pub on_msg: Callback<Msg>,
    /// The session's trace (`"trace"`: JSON, conformance format) or pod chart (`"chart"`: SVG)
    /// as a file, made when its button is pressed; no buttons without it.
    #[prop_or_default]
    pub file: Option<Callback<&'static str, File>>,
}

/// Imports pasted text: a scenario as it is (the reducer says what is wrong with it); a
/// Deployment manifest (YAML or JSON) as the scenario that creates it, saying what was left out.
pub fn import_text(text: String, on_msg: Callback<Msg>) {
    if crate::export::looks_like_manifest(&text) {
        import_read(text, on_msg);
    } else {
        on_msg.emit(Msg::Import(text));
    }
}

/// Imports text that was read from a file or dropped (`crate::export::import_text`); YAML once
/// the YAML reader's module has loaded (the first time, a moment after; crate::yaml_reader).
fn import_read(text: String, on_msg: Callback<Msg>) {
    if crate::yaml_reader::is_yaml(&text) && !crate::yaml_reader::loaded() {
        spawn_local(async move {
            match crate::yaml_reader::load().await {
                Ok(()) => import_now(&text, &on_msg),
                Err(e) => on_msg.emit(Msg::Notice(format!("Could not read that manifest: {e}"))),
            }
        });
    } else {
        import_now(&text, &on_msg);
    }
}

/// Imports text now (`crate::export::import_text`).
fn import_now(text: &str, on_msg: &Callback<Msg>) {
    match crate::export::import_text(text) {
        Ok((scenario, notice)) => {
            on_msg.emit(Msg::Import(scenario));
            on_msg.emit(Msg::Notice(notice));
        }
        Err(e) => on_msg.emit(Msg::Notice(e)),
    }
}

/// Imports a dropped or chosen `File` (or dropped text); `shown` receives the text that was
/// read (for the import box).
fn import_file(input: JsValue, on_msg: Callback<Msg>, shown: Callback<String>) {
    spawn_local(async move {
        let text = match input.as_string() {
            Some(t) => t,
            None => match input.dyn_into::<web_sys::Blob>() {
                Ok(blob) => match wasm_bindgen_futures::JsFuture::from(blob.text()).await {
                    Ok(t) => t.as_string().unwrap_or_default(),
                    Err(_) => {
                        return on_msg.emit(Msg::Notice("The file could not be read.".into()))
                    }
                },
                Err(_) => return,
            },
        };
        shown.emit(text.clone());
        import_read(text, on_msg);
    });
}

/// `data:` URL escaping for a JSON download.
pub fn data_url(json: &str) -> String {
    let mut out = String::from("data:application/json;charset=utf-8,");
    for b in json.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Export and import.
#[function_component(ScenarioPanel)]
pub fn scenario_panel(props: &ScenarioPanelProps) -> Html {
    let open = use_state(|| false);
    let draft = use_state(String::new);
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let details: web_sys::HtmlElement = e.target_unchecked_into();
            open.set(details.has_attribute("open"));
        })
    };
    let on_draft = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            draft.set(area.value());
        })
    };
    let on_import = {
        let draft = draft.clone();
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| import_text((*draft).clone(), on_msg.clone()))
    };
    // A dropped or chosen file (or dropped text) is shown in the box and imported at once.
    let load = {
        let draft = draft.clone();
        let on_msg = props.on_msg.clone();
        Callback::from(move |input: JsValue| {
            let shown = {
                let draft = draft.clone();
                Callback::from(move |t: String| draft.set(t))
            };
            import_file(input, on_msg.clone(), shown);
        })
    };
    let over = use_state(|| false);
    let on_dragover = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(true);
        })
    };
    let on_dragleave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let on_drop = {
        let over = over.clone();
        let load = load.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(false);
            load_dropped(&e, &load);
        })
    };
    let on_file = {
        let load = load.clone();
        Callback::from(move |e: Event| load_chosen(&e, &load))
    };
    // The session's trace or chart, saved as a file.
    let export = |what: &'static str| {
        props.file.clone().map(|file| {
            let on_msg = props.on_msg.clone();
            Callback::from(move |_: MouseEvent| {
                let (name, mime, text) = file.emit(what);
                if let Err(e) = crate::files::download(name, mime, &text) {
                    on_msg.emit(Msg::Notice(format!("Could not export the {what}: {e}")));
                }
            })
        })
    };
    let (on_trace, on_chart) = (export("trace"), export("chart"));
    let json = if *open {
        props.json.emit(())
    } else {
        String::new()
    };
    html! {
        <section class="panel scenario" aria-labelledby="scenario-title">
            <details ontoggle={on_toggle}>
                <summary><h2 class="panel-title inline" id="scenario-title">{ "Scenario (export / import)" }</h2></summary>
                <p class="panel-sub">
                    { "Every session is a scenario in the conformance format: the create, your commands with the round they took effect in, and the cluster model. " }
                    <code>{ "rollout trace scenario.json" }</code>{ " replays it exactly." }
                </p>
                if *open {
                    <label class="field-label" for="scenario-json">{ "This session" }</label>
                    <textarea id="scenario-json" class="code-area" readonly=true rows="10"
                        data-testid="scenario-json" value={json.clone()} />
                    { export_row(&json, on_trace, on_chart) }
                    <label class="field-label" for="scenario-import">{ "Import a scenario or a Deployment manifest" }</label>
                    <p class="panel-sub">
                        { "Paste or drop a scenario, or what " }<code>{ "kubectl get deployment NAME -o yaml" }</code>
                        { " (or " }<code>{ "-o json" }</code>{ ") prints: the visualisation starts from its spec." }
                    </p>
                    <div class={classes!("drop-zone", over.then_some("is-over"))}
                        ondragover={on_dragover.clone()} ondragenter={on_dragover} ondragleave={on_dragleave} ondrop={on_drop}
                        data-testid="import-drop">
                        <textarea id="scenario-import" class="code-area" rows="6"
                            placeholder="apiVersion: apps/v1&#10;kind: Deployment&#10;…  or  { &quot;rounds&quot;: 20, &quot;actions&quot;: [ … ] }"
                            data-testid="import-textarea" value={(*draft).clone()} oninput={on_draft} />
                    </div>
                    <div class="export-row">
                        <button type="button" class="btn" data-testid="import-button" onclick={on_import}>{ "Load it" }</button>
                        <label class="btn">
                            { "Choose a file…" }
                            <input type="file" class="visually-hidden" accept=".json,.yaml,.yml,application/json,text/yaml"
                                data-testid="import-file" onchange={on_file} />
                        </label>
                    </div>
                }
            </details>
        </section>
    }
}

/// A dropped file, else dropped text, handed to `load`.
fn load_dropped(e: &DragEvent, load: &Callback<JsValue>) {
    let data = e.data_transfer();
    if let Some(file) = data.as_ref().and_then(|d| d.files()).and_then(|f| f.get(0)) {
        load.emit(file.into());
    } else if let Some(text) = data.and_then(|d| d.get_data("text/plain").ok()) {
        if !text.trim().is_empty() {
            load.emit(JsValue::from_str(&text));
        }
    }
}

/// The file chosen in the file input, handed to `load`; the input is emptied so the same file
/// can be chosen again.
fn load_chosen(e: &Event, load: &Callback<JsValue>) {
    let input: HtmlInputElement = e.target_unchecked_into();
    if let Some(file) = input.files().and_then(|f| f.get(0)) {
        load.emit(file.into());
    }
    input.set_value("");
}

/// Download the scenario, and the trace and chart when the page can export them.
fn export_row(
    json: &str,
    on_trace: Option<Callback<MouseEvent>>,
    on_chart: Option<Callback<MouseEvent>>,
) -> Html {
    html! {
        <div class="export-row">
            <a class="btn" href={data_url(json)} download="rollout-lab-scenario.json" data-testid="download-link">
                { "Download scenario.json" }
            </a>
            if let Some(on_trace) = on_trace {
                <button type="button" class="btn" data-testid="download-trace" onclick={on_trace}
                    title="The trace so far, in the conformance format">
                    { "Trace (JSON)" }
                </button>
            }
            if let Some(on_chart) = on_chart {
                <button type="button" class="btn" data-testid="download-chart" onclick={on_chart}
                    title="The pod chart as an SVG file">
                    { "Chart (SVG)" }
                </button>
            }
        </div>
    }
}
