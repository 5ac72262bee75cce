//! A container's `lifecycle.preStop` hook, read as the sleep it makes before the kubelet sends
//! SIGTERM (`pkg/kubelet/kuberuntime/kuberuntime_container.go`, `killContainer`: the hook runs
//! first, then the runtime stops the container, both within the grace period).
//!
//! v1.28 has no `sleep` action (`PodLifecycleSleepAction` is alpha in 1.29, beta in 1.30), so
//! manifests for it sleep with `exec`: `command: ["sleep", "5"]` or `["/bin/sh", "-c", "sleep
//! 5"]` read as 5 s. The 1.30 `sleep: {seconds: 5}` is read too, with a note that v1.28 refuses
//! it. Any other hook (a script, `httpGet`) takes a time the manifest does not say: it is read
//! as no sleep, with a note naming it and the flag that gives the time.

use serde_json::Value;

/// The `preStop` sleep of `container` (a pod spec's `containers[i]`), in seconds, and a note
/// when the hook is not one the model can time. `(0, None)` without a hook.
pub fn read_pre_stop(container: &Value) -> (i64, Option<String>) {
    let Some(hook) = container.pointer("/lifecycle/preStop") else {
        return (0, None);
    };
    if let Some(s) = hook.pointer("/sleep/seconds").and_then(Value::as_i64) {
        return (
            s.max(0),
            Some(format!(
                "lifecycle.preStop.sleep ({s} s) is Kubernetes 1.30's (v1.28's API server refuses the field): read as a {s} s sleep before SIGTERM"
            )),
        );
    }
    if let Some(command) = hook.pointer("/exec/command").and_then(Value::as_array) {
        let words: Vec<&str> = command.iter().filter_map(Value::as_str).collect();
        if let Some(s) = sleep_seconds(&words) {
            return (s, None);
        }
        return (
            0,
            Some(format!(
                "lifecycle.preStop runs {:?}, which takes a time the manifest does not say: read as no sleep before SIGTERM (--pre-stop gives one)",
                words.join(" ")
            )),
        );
    }
    (
        0,
        Some("lifecycle.preStop is not an exec of sleep: read as no sleep before SIGTERM (--pre-stop gives one)".to_string()),
    )
}

/// `sleep 5`, `/bin/sleep 5`, `sh -c "sleep 5"` (or `sleep 5 && …`): 5.
fn sleep_seconds(words: &[&str]) -> Option<i64> {
    let is_sleep = |w: &str| w == "sleep" || w.ends_with("/sleep");
    match words {
        [s, n] if is_sleep(s) => parse_seconds(n),
        [sh, flag, script] if sh.ends_with("sh") && *flag == "-c" => {
            let mut it = script.split_whitespace();
            match (it.next(), it.next()) {
                (Some(s), Some(n)) if is_sleep(s) => parse_seconds(n.trim_end_matches(';')),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `5`, `5s`, `2m`; whole seconds only.
fn parse_seconds(text: &str) -> Option<i64> {
    crate::kubelet::failures::parse_duration(text).filter(|s| *s <= super::MAX_TRAFFIC_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sleeps_are_read_and_other_hooks_named() {
        let c = |hook: Value| json!({"name": "web", "lifecycle": {"preStop": hook}});
        assert_eq!(read_pre_stop(&json!({"name": "web"})), (0, None));
        assert_eq!(
            read_pre_stop(&c(json!({"exec": {"command": ["sleep", "5"]}}))),
            (5, None)
        );
        assert_eq!(
            read_pre_stop(&c(
                json!({"exec": {"command": ["/bin/sh", "-c", "sleep 15 && nginx -s quit"]}})
            )),
            (15, None)
        );
        let (s, note) = read_pre_stop(&c(json!({"sleep": {"seconds": 7}})));
        assert_eq!(s, 7);
        assert!(note.unwrap().contains("1.30"));
        let (s, note) = read_pre_stop(&c(json!({"exec": {"command": ["/wait-shutdown"]}})));
        assert_eq!(s, 0);
        assert!(note.unwrap().contains("\"/wait-shutdown\""));
        let (s, note) = read_pre_stop(&c(json!({"httpGet": {"path": "/quit", "port": 80}})));
        assert_eq!(s, 0);
        assert!(note.unwrap().contains("not an exec of sleep"));
    }
}
