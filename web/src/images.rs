//! Which image "Roll out a new image" sets: the next version of the Deployment's first image
//! that this session has not used yet, or, when the "never becomes ready" switch is on, a
//! misspelt tag the cluster model never starts (the documentation's `nginx:1.161`).

use rollout_facade::scenario::{ActionKind, Scenario};

pub use rollout_facade::images::{never_ready_image, next_version};

/// Every image the scenario's actions use, in order (creates and setImage).
pub fn images_used(s: &Scenario) -> Vec<&str> {
    s.actions
        .iter()
        .filter_map(|a| match &a.kind {
            ActionKind::Create { deployment } => Some(deployment.image.as_str()),
            ActionKind::SetImage { image, .. } => Some(image.as_str()),
            _ => None,
        })
        .collect()
}

/// The image the next "Roll out a new image" sets: the scenario's never-ready image if the
/// switch is on and it has not been rolled out yet, otherwise the first version after the
/// initial image that no action has used.
pub fn next_image(s: &Scenario, initial: &str, never_ready: bool) -> String {
    let used = images_used(s);
    if never_ready {
        if let Some(bad) = s.never_ready_images.first() {
            if !used.contains(&bad.as_str()) {
                return bad.clone();
            }
        }
    }
    let mut candidate = next_version(initial);
    for _ in 0..1000 {
        if !used.contains(&candidate.as_str()) {
            break;
        }
        candidate = next_version(&candidate);
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_image_skips_what_was_used() {
        let preset = rollout_facade::presets::preset("bad-image-stuck").unwrap();
        // The preset already rolled out its bad image, so the fix comes next.
        assert_eq!(
            next_image(&preset.scenario, "nginx:1.14.2", true),
            "nginx:1.16.1"
        );
        let basic = rollout_facade::presets::preset("rolling-basic").unwrap();
        assert_eq!(
            next_image(&basic.scenario, "nginx:1.14.2", false),
            "nginx:1.18.0"
        );
        let mut s = basic.scenario.clone();
        s.actions.truncate(1);
        s.never_ready_images = vec!["nginx:1.161".into()];
        assert_eq!(next_image(&s, "nginx:1.14.2", true), "nginx:1.161");
        assert_eq!(next_image(&s, "nginx:1.14.2", false), "nginx:1.16.1");
    }
}
