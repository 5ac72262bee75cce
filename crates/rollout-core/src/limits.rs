//! How big a simulation Rollout Lab runs, in one place. These are Rollout Lab's limits, not
//! Kubernetes': they keep a page responsive and a link's replay short. The scenario reader,
//! the session (the app, the embed, the JavaScript API) and permalinks all check these.

use crate::scenario::{ActionKind, Scenario};

/// The most replicas a Deployment may have, in a `create` or a `scale` (a real cluster takes
/// up to 2^31 - 1).
pub const MAX_REPLICAS: i32 = 10_000;

/// The most pods a rolling update may have at once (replicas + maxSurge).
pub const MAX_PODS: i64 = 20_000;

/// The most rounds a scenario may have.
pub const MAX_ROUNDS: u32 = 100_000;

/// The most rounds a scenario opened in the app or an embed may script: every step is kept
/// for stepping back.
pub const MAX_INTERACTIVE_ROUNDS: u32 = 2_000;

/// The most steps a permalink may ask to replay.
pub const MAX_LINK_STEPS: usize = 50_000;

/// The most rounds one "run to the end" goes before it stops with a notice (a scenario that
/// keeps changing, or one whose next change is very far away).
pub const MAX_RUN_ROUNDS: u32 = 2_000;

/// `10000` → `10,000`.
pub fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Why a replica count is too big: `Rollout Lab simulates at most 10,000 replicas`.
pub fn check_replicas(replicas: i32) -> Result<(), String> {
    if replicas > MAX_REPLICAS {
        Err(format!(
            "Rollout Lab simulates at most {} replicas",
            group(i64::from(MAX_REPLICAS))
        ))
    } else {
        Ok(())
    }
}

/// Whether a scenario is within the limits: its rounds, and every create and scale. `Err`
/// names the action, e.g. `actions[2] (round 8): scales to 20000 replicas; Rollout Lab
/// simulates at most 10,000 replicas`.
pub fn check_scenario(s: &Scenario) -> Result<(), String> {
    if s.rounds > MAX_ROUNDS {
        return Err(format!(
            "rounds: {} is more than the {} rounds Rollout Lab simulates",
            s.rounds,
            group(i64::from(MAX_ROUNDS))
        ));
    }
    for (i, a) in s.actions.iter().enumerate() {
        let (verb, replicas) = match &a.kind {
            ActionKind::Create { deployment } => ("creates", deployment.replicas.unwrap_or(1)),
            ActionKind::Scale { replicas, .. } => ("scales to", *replicas),
            _ => continue,
        };
        if let Err(why) = check_replicas(replicas) {
            return Err(format!(
                "actions[{i}] (round {}): {verb} {replicas} replicas; {why}",
                a.round
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(10_000), "10,000");
        assert_eq!(group(-1_234_567), "-1,234,567");
    }

    #[test]
    fn scenarios_beyond_the_limits_are_refused_naming_the_action() {
        let s = |replicas: i32, scale: i32| {
            Scenario::from_json(&format!(
                r#"{{"actions":[{{"round":0,"type":"create","deployment":{{"name":"web","image":"a","replicas":{replicas}}}}},
                {{"round":3,"type":"scale","replicas":{scale}}}]}}"#
            ))
            .unwrap()
        };
        assert_eq!(check_scenario(&s(10_000, 10_000)), Ok(()));
        assert_eq!(
            check_scenario(&s(10_001, 1)).unwrap_err(),
            "actions[0] (round 0): creates 10001 replicas; Rollout Lab simulates at most 10,000 replicas"
        );
        assert_eq!(
            check_scenario(&s(1, 20_000)).unwrap_err(),
            "actions[1] (round 3): scales to 20000 replicas; Rollout Lab simulates at most 10,000 replicas"
        );
        let mut long = s(1, 1);
        long.rounds = MAX_ROUNDS + 1;
        assert_eq!(
            check_scenario(&long).unwrap_err(),
            "rounds: 100001 is more than the 100,000 rounds Rollout Lab simulates"
        );
    }
}
