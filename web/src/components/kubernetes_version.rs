//! Which Kubernetes release a stage shows: a small badge beside the Deployment, linking to
//! that release's Deployment controller source (`KubernetesVersion::source_url`, the core's).

use rollout_facade::version::KubernetesVersion;
use yew::prelude::*;

/// The badge: `Kubernetes 1.37`, a link to `pkg/controller/deployment` at `v1.37.0`.
pub fn kubernetes_version(v: KubernetesVersion) -> Html {
    html! {
        <a class="k8s-version" href={v.source_url()} target="_blank" rel="noopener"
            data-testid="k8s-version" data-version={v.as_str()}
            title={format!("The Deployment and ReplicaSet controllers of Kubernetes {}: their source", v.release())}>
            <span class="k8s-version-name">{ "Kubernetes " }</span><strong>{ v.as_str() }</strong>
            <span class="visually-hidden">{ format!(" (the controllers' source in {})", v.release()) }</span>
        </a>
    }
}
