//! Image names as a user rolls them out: the next version of an image (`nginx:1.14.2` →
//! `nginx:1.16.1`, `app:v1` → `app:v2`) and the misspelt tag a cluster never starts (the
//! Kubernetes documentation's `nginx:1.161`). Used by `rollout plan` for a manifest's default
//! new image and by the app's "Roll out a new image".

/// Real nginx releases, so the demo reads like the Kubernetes documentation.
const NGINX: &[&str] = &[
    "1.14.2", "1.16.1", "1.18.0", "1.20.2", "1.22.1", "1.24.0", "1.25.3", "1.26.2", "1.27.3",
];

/// The tag of `image`, if it has one (`registry:5000/app` has none: that is a port), and the
/// repository before it; an image pinned by digest (`app@sha256:…`) has no tag to count up.
fn split_tag(image: &str) -> (&str, Option<&str>) {
    if let Some((repo, _digest)) = image.split_once('@') {
        return (repo, None);
    }
    match image.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, Some(t)),
        _ => (image, None),
    }
}

/// Whether `image` has a version number in its tag to count up (`app:v1` has, `nginx`,
/// `alpine:latest` and `app@sha256:…` have not).
pub fn has_version(image: &str) -> bool {
    split_tag(image)
        .1
        .is_some_and(|t| t.bytes().any(|b| b.is_ascii_digit()))
}

/// The version after `image`'s: the next known nginx release, otherwise the last number in
/// the tag plus one (`app:v1` → `app:v2`, `web:1.9` → `web:1.10`). An image without a number
/// to count up (`web`, `alpine:latest`, a digest) gets the tag `next` (`alpine:next`): a new
/// image that is plainly a stand-in for the one the user will name.
pub fn next_version(image: &str) -> String {
    let (repo, tag) = match split_tag(image) {
        (repo, Some(tag)) if has_version(image) => (repo, tag),
        // The stand-in's own successor, so that a second rollout differs from the first.
        (repo, Some("next")) => return format!("{repo}:next-2"),
        (repo, _) => return format!("{repo}:next"),
    };
    if repo == "nginx" {
        if let Some(i) = NGINX.iter().position(|v| *v == tag) {
            if let Some(next) = NGINX.get(i + 1) {
                return format!("nginx:{next}");
            }
        }
    }
    let bytes = tag.as_bytes();
    let Some(end) = bytes.iter().rposition(u8::is_ascii_digit) else {
        return format!("{repo}:next");
    };
    let start = bytes[..end]
        .iter()
        .rposition(|b| !b.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let digits = &tag[start..=end];
    let bumped = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_add(1))
        .map_or_else(|| format!("{digits}1"), |n| n.to_string());
    format!("{repo}:{}{bumped}{}", &tag[..start], &tag[end + 1..])
}

/// The misspelling of `image` that never becomes ready: the tag's last dot dropped
/// (`nginx:1.16.1` → `nginx:1.161`), or `-broken` added to a tag without dots.
pub fn broken(image: &str) -> String {
    match image.rsplit_once(':') {
        Some((repo, tag)) if tag.contains('.') => {
            let i = tag.rfind('.').unwrap_or(0);
            format!("{repo}:{}{}", &tag[..i], &tag[i + 1..])
        }
        _ => format!("{image}-broken"),
    }
}

/// The never-ready image of a new scenario that starts from `initial`.
pub fn never_ready_image(initial: &str) -> String {
    broken(&next_version(initial))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_follow_nginx_releases_then_count_up() {
        assert_eq!(next_version("nginx:1.14.2"), "nginx:1.16.1");
        assert_eq!(next_version("nginx:1.27.3"), "nginx:1.27.4");
        assert_eq!(next_version("app:v1"), "app:v2");
        assert_eq!(next_version("web:1.9"), "web:1.10");
        assert_eq!(next_version("nginx:1.14"), "nginx:1.15");
        assert_eq!(next_version("web"), "web:next");
        assert_eq!(next_version("nginx"), "nginx:next");
        assert_eq!(next_version("alpine:latest"), "alpine:next");
        assert_eq!(next_version("alpine:next"), "alpine:next-2");
        assert_eq!(next_version("alpine:next-2"), "alpine:next-3");
        assert_eq!(next_version("app@sha256:0123abc"), "app:next");
        assert_eq!(
            next_version("registry:5000/app"),
            "registry:5000/app:next",
            "a port is not a tag"
        );
        assert!(has_version("app:v1") && !has_version("alpine:latest") && !has_version("web"));
        assert_eq!(
            next_version("a:v99999999999999999999"),
            "a:v999999999999999999991"
        );
    }

    #[test]
    fn broken_tags_look_like_the_documentation() {
        assert_eq!(broken("nginx:1.16.1"), "nginx:1.161");
        assert_eq!(broken("app:v2"), "app:v2-broken");
        assert_eq!(never_ready_image("nginx:1.14.2"), "nginx:1.161");
    }
}
