//! The Service in front of the lanes: the load it gets, requests flowing from it to the pods,
//! what was served and what failed this second, and its endpoints by their EndpointSlice
//! conditions (ready, serving while terminating, not ready). The pods themselves carry their
//! endpoint marks (`pod_token`); the figures are the core's (`rollout_facade::traffic`), the
//! second the clock shows.

use crate::state::traffic::{marks, TrafficFrame};
use rollout_facade::limits::group;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`ServiceView`].
#[derive(Properties, PartialEq, Clone)]
pub struct ServiceViewProps {
    /// The Service's second on the clock and the run.
    pub traffic: Rc<TrafficFrame>,
    /// The Deployment it selects the pods of (the Service has its name).
    pub deployment: AttrValue,
}

/// `n` with its unit, grouped (`1,200 req/s`).
fn rate(n: u32) -> String {
    format!("{} req/s", group(i64::from(n)))
}

/// The Service.
#[function_component(ServiceView)]
pub fn service_view(props: &ServiceViewProps) -> Html {
    let t = &props.traffic;
    let f = &t.second.figures;
    let failed = f.failed();
    let count = |key: &str| {
        marks(&t.second)
            .iter()
            .filter(|(_, m)| m.key == key)
            .count()
    };
    let (ready, serving, terminating, not_ready) = (
        count("ready"),
        count("serving"),
        count("terminating"),
        count("not-ready"),
    );
    let mut endpoints = vec![format!("{ready} ready")];
    if serving > 0 {
        endpoints.push(format!("{serving} serving while terminating"));
    }
    if terminating > 0 {
        endpoints.push(format!("{terminating} terminating"));
    }
    if not_ready > 0 {
        endpoints.push(format!("{not_ready} not ready"));
    }
    let sending = t.second.endpoints.iter().filter(|e| e.sent_to).count();
    let name = if props.deployment.is_empty() {
        "web".to_string()
    } else {
        props.deployment.to_string()
    };
    html! {
        <div class={classes!("service", (failed > 0).then_some("service-failing"), (sending == 0).then_some("service-idle"))}
            data-testid="service" data-load={f.load.to_string()} data-served={f.served.to_string()}
            data-failed={failed.to_string()} data-at={t.now.to_string()}
            role="group" aria-label={format!("Service {name}")}>
            <div class="service-box">
                <span class="service-kind">{ "Service" }</span>
                <strong class="service-name">{ name }</strong>
                <span class="service-load" title="The load the model sends (model.traffic.load)">{ rate(f.load) }</span>
            </div>
            <div class="service-flow" aria-hidden="true">
                <span class="service-flow-ok" style={format!("--share: {}", share(f.served, f.load))} />
                <span class="service-flow-bad" style={format!("--share: {}", share(failed, f.load))} />
            </div>
            if t.now < 0 {
                <p class="service-figures">{ "No requests yet: nothing has run." }</p>
            } else {
            <p class="service-figures">
                <span class="service-served"><strong>{ group(i64::from(f.served)) }</strong>{ " served" }</span>
                <span class={classes!("service-failed", (failed > 0).then_some("service-failed-some"))}>
                    <strong>{ group(i64::from(failed)) }</strong>{ " failed" }
                </span>
                <span class="service-second">{ format!("in second {}", t.now) }</span>
                <span class="service-endpoints" title="The Service's EndpointSlice: a pod is an endpoint once it has an IP; ready = Ready and not terminating">
                    { format!("endpoints: {}", endpoints.join(", ")) }
                </span>
            </p>
            }
        </div>
    }
}

/// `part` of `whole` as a number from 0 to 1, for a CSS variable (0 with no load).
fn share(part: u32, whole: u32) -> String {
    if whole == 0 {
        "0".into()
    } else {
        crate::chart::fmt(f64::from(part) / f64::from(whole))
    }
}
