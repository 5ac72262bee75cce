//! Image names as a user rolls them out: the next version of an image (`nginx:1.14.2` →
//! `nginx:1.16.1`, `app:v1` → `app:v2`) and the misspelt tag a cluster never starts (the
//! Kubernetes documentation's `nginx:1.161`). Used by `rollout plan` for a manifest's default
//! new image and by the app's "Roll out a new image".

/// Real nginx releases, so the demo reads like the Kubernetes documentation.
const NGINX: &[&str] = &[
    "1.14.2", "1.16.1", "1.18.0", "1.20.2", "1.22.1", "1.24.0", "1.25.3", "1.26.2", "1.27.3",
];

/// The version after `image`'s: the next known nginx release, otherwise the last number in
/// the tag plus one (`app:v1` → `app:v2`, `web:1.9` → `web:1.10`, `web` → `web:2`).
pub fn next_version(image: &str) -> String {
    let (repo, tag) = match image.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, t),
        _ => return format!("{image}:2"),
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
        return format!("{repo}:{tag}-2");
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
        assert_eq!(next_version("web"), "web:2");
        assert_eq!(next_version("app:latest"), "app:latest-2");
        assert_eq!(
            next_version("registry:5000/app"),
            "registry:5000/app:2",
            "a port is not a tag"
        );
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
