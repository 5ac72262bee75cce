//! The challenges, as data, easiest first. Each has a known solution (and most a known
//! failing attempt) that `lessons::challenges::tests` checks.

use super::challenge::{Challenge, Goal};
use super::ScenarioSource;

const CHALLENGES: &[Challenge] = &[
    Challenge {
        id: "first-rollout",
        title: "Your first rollout",
        level: 1,
        story: "{deployment} runs {image} with {replicas} replicas. Roll out {goal:0} and wait until `kubectl rollout status` is happy.",
        hint: "Roll out a new image (`kubectl set image`), then run until the end.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"first-rollout","rounds":30,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2"}}]}"#,
        ),
        goals: &[Goal::FinalImage("nginx:1.16.1"), Goal::Completes(None)],
        solution: r#"{"actions":[{"round":3,"type":"setImage","image":"nginx:1.16.1"}]}"#,
        failing: Some(r#"{"actions":[{"round":3,"type":"setImage","image":"nginx:1.16"}]}"#),
    },
    Challenge {
        id: "no-capacity-loss",
        title: "Never lose capacity",
        level: 2,
        story: "{deployment} has {replicas} replicas, maxSurge {surgeSpec} and maxUnavailable {unavailableSpec}, so its rollout to {set:1} takes pods away. Change the strategy so that {goal:0} pods are always available and there are never more than {goal:1} pods.",
        hint: "maxSurge adds pods above replicas; maxUnavailable takes them away.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"no-capacity-loss","rounds":40,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":4,"image":"nginx:1.14.2",
             "strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":1}}},
            {"round":4,"type":"setImage","image":"nginx:1.16.1"}]}"#,
        ),
        goals: &[Goal::MinAvailable(4), Goal::MaxPods(5), Goal::Completes(None)],
        solution: r#"{"deployment":{"strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}}"#,
        failing: Some(r#"{}"#),
    },
    Challenge {
        id: "tight-band",
        title: "A tight band",
        level: 3,
        story: "{replicas} replicas of {deployment} roll out {set:1}. Never run more than {goal:0} pods, never have fewer than {goal:1} available, and finish.",
        hint: "The defaults ({surgeSpec} / {unavailableSpec}) allow {maxTotal} pods and {minAvailable} available. Counts are exact; percentages round.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"tight-band","rounds":60,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":10,"image":"nginx:1.14.2"}},
            {"round":4,"type":"setImage","image":"nginx:1.16.1"}]}"#,
        ),
        goals: &[Goal::MaxPods(11), Goal::MinAvailable(9), Goal::Completes(None)],
        solution: r#"{"deployment":{"strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":1}}}"#,
        failing: Some(r#"{}"#),
    },
    Challenge {
        id: "fast-and-safe",
        title: "Fast and safe",
        level: 4,
        story: "{replicas} replicas of {deployment} roll out {set:1}; a pod is ready {readyAfter} s after it is created. Finish within {goal:0} s of `kubectl set image` (until `kubectl rollout status` succeeds) without ever having fewer than {goal:1} available pods.",
        hint: "Extra pods cost nothing here: how large may maxSurge be?",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"fast-and-safe","rounds":120,"secondsPerRound":1,"readyAfterRounds":5,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":10,"image":"nginx:1.14.2"}},
            {"round":10,"type":"setImage","image":"nginx:1.16.1"}]}"#,
        ),
        goals: &[Goal::Completes(Some(5)), Goal::MinAvailable(9)],
        solution: r#"{"deployment":{"strategy":{"type":"RollingUpdate","maxSurge":"100%","maxUnavailable":1}}}"#,
        failing: Some(r#"{"deployment":{"strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":1}}}"#),
    },
    Challenge {
        id: "undo-before-deadline",
        title: "Roll back before the deadline",
        level: 5,
        story: "A rollout to {set:1} (a typo) starts in round {at:1}; progressDeadlineSeconds is {progressDeadline}. Roll back to {goal:1} before the Deployment reports ProgressDeadlineExceeded.",
        hint: "`kubectl rollout undo` writes the previous template back: the image {image}.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"undo-before-deadline","rounds":40,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"neverReadyImages":["nginx:1.161"],"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2",
             "progressDeadlineSeconds":30}},
            {"round":4,"type":"setImage","image":"nginx:1.161"}]}"#,
        ),
        goals: &[
            Goal::NoDeadlineExceeded,
            Goal::FinalImage("nginx:1.14.2"),
            Goal::Completes(None),
        ],
        solution: r#"{"actions":[{"round":7,"type":"undo"}]}"#,
        failing: Some(r#"{"actions":[{"round":20,"type":"undo"}]}"#),
    },
    Challenge {
        id: "quota-room",
        title: "No room to surge",
        level: 6,
        story: "A ResourceQuota allows {podQuota} pods in the namespace, and {deployment} has {replicas} replicas. Roll out {set:1} without a single refused pod create.",
        hint: "Every surge pod would be refused (FailedCreate). Which setting makes room first?",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"quota-room","rounds":60,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"podQuota":10,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":10,"image":"nginx:1.14.2"}},
            {"round":4,"type":"setImage","image":"nginx:1.16.1"}]}"#,
        ),
        goals: &[Goal::NoRefusedCreates, Goal::Replicas(10), Goal::Completes(None)],
        solution: r#"{"deployment":{"strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":2}}}"#,
        failing: Some(r#"{}"#),
    },
    Challenge {
        id: "batch-changes",
        title: "Two changes, one rollout",
        level: 7,
        story: "Image changes are coming: {set:1} in round {at:1} and a fix, {set:2}, in round {at:2}. Ship {goal:1} creating no more than {goal:0} ReplicaSets in all, the first included.",
        hint: "A paused Deployment takes changes without rolling them out.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"batch-changes","rounds":40,"secondsPerRound":5,"readyAfterRounds":2,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":4,"image":"app:v1"}},
            {"round":4,"type":"setImage","image":"app:v2"},
            {"round":6,"type":"setImage","image":"app:v3"}]}"#,
        ),
        goals: &[
            Goal::MaxReplicaSetsCreated(2),
            Goal::FinalImage("app:v3"),
            Goal::Completes(None),
        ],
        solution: r#"{"actions":[{"round":3,"type":"pause"},{"round":7,"type":"resume"}]}"#,
        failing: Some(r#"{"actions":[{"round":5,"type":"pause"},{"round":7,"type":"resume"}]}"#),
    },
    Challenge {
        id: "short-history",
        title: "Keep the history short",
        level: 8,
        story: "{deployment} is rolled out to {set:1}, then {set:2}, then {set:3}. Keep the history short: no more than {goal:0} ReplicaSets at the end, the new one included.",
        hint: "Look for the setting that limits the revision history.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"short-history","rounds":60,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":2,"image":"app:v1"}},
            {"round":4,"type":"setImage","image":"app:v2"},
            {"round":20,"type":"setImage","image":"app:v3"},
            {"round":36,"type":"setImage","image":"app:v4"}]}"#,
        ),
        goals: &[
            Goal::ReplicaSetsAtEnd(2),
            Goal::FinalImage("app:v4"),
            Goal::Completes(None),
        ],
        solution: r#"{"deployment":{"revisionHistoryLimit":1}}"#,
        failing: Some(r#"{"deployment":{"revisionHistoryLimit":2}}"#),
    },
    Challenge {
        id: "predict-proportional",
        title: "Predict proportional scaling",
        level: 9,
        story: "{replicas} replicas, maxSurge {surgeSpec}, maxUnavailable {unavailableSpec}, a rollout to an image that never becomes ready, then `kubectl scale --replicas={set:2}` in round {at:2}. Predict how many replicas the old and the new ReplicaSet ask for right after the Deployment controller's next sync.",
        hint: "The extra replicas are shared in proportion to each ReplicaSet's size; the largest share is rounded first.",
        scenario: ScenarioSource::Preset("proportional-scaling"),
        goals: &[
            Goal::PredictAfterScale { rs: 1, answer: 0 },
            Goal::PredictAfterScale { rs: 2, answer: 1 },
        ],
        solution: r#"{"answers":[11,7]}"#,
        failing: Some(r#"{"answers":[12,6]}"#),
    },
    Challenge {
        id: "choose-the-victim",
        title: "Choose which pod goes",
        level: 10,
        story: "{deployment} is scaled from {replicas} to {set:1} replicas in round {at:1}. Make the ReplicaSet controller delete {goal:0} first, without deleting it yourself.",
        hint: "The controller.kubernetes.io/pod-deletion-cost annotation ranks pods: lower cost goes first.",
        scenario: ScenarioSource::Inline(
            r#"{"settle":true,"name":"choose-the-victim","rounds":12,"secondsPerRound":5,"readyAfterRounds":1,
            "terminationRounds":0,"nodes":3,"actions":[
            {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2"}},
            {"round":6,"type":"scale","replicas":2}]}"#,
        ),
        goals: &[Goal::FirstDeleted("web-rev1-00003"), Goal::Replicas(2)],
        solution: r#"{"actions":[{"round":4,"type":"setPodDeletionCost","pod":"web-rev1-00003","value":-10}]}"#,
        failing: Some(r#"{"actions":[{"round":4,"type":"setPodDeletionCost","pod":"web-rev1-00003","value":10}]}"#),
    },
];

/// Every challenge, easiest first.
pub fn challenges() -> &'static [Challenge] {
    CHALLENGES
}

/// One challenge by id.
pub fn challenge(id: &str) -> Option<&'static Challenge> {
    CHALLENGES.iter().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::super::challenge::{figures, run, Attempt};
    use super::*;

    #[test]
    fn every_known_solution_meets_every_goal() {
        for c in challenges() {
            let attempt = Attempt::from_json(c.solution).unwrap();
            for g in c.evaluate(&attempt).unwrap() {
                assert!(g.met, "{}: {}", c.id, g.text);
            }
        }
    }

    #[test]
    fn every_known_failing_attempt_shows_what_broke() {
        let mut failing = 0;
        for c in challenges() {
            let Some(a) = c.failing else { continue };
            failing += 1;
            let results = c.evaluate(&Attempt::from_json(a).unwrap()).unwrap();
            let broken: Vec<_> = results.iter().filter(|g| !g.met).collect();
            assert!(!broken.is_empty(), "{}: the failing attempt succeeds", c.id);
            for g in broken {
                assert!(g.round.is_some(), "{}: no breaking round: {}", c.id, g.text);
            }
        }
        assert!(failing >= 5);
    }

    #[test]
    fn challenges_are_ordered_by_difficulty_with_unique_ids() {
        assert!(challenges().len() >= 8);
        let levels: Vec<u8> = challenges().iter().map(|c| c.level).collect();
        assert!(levels.windows(2).all(|w| w[0] < w[1]), "{levels:?}");
        let mut ids: Vec<_> = challenges().iter().map(|c| c.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), challenges().len());
        assert!(challenges().iter().all(|c| challenge(c.id) == Some(c)));
    }

    #[test]
    fn the_tight_band_default_breaks_in_the_first_round_of_the_rollout() {
        let c = challenge("tight-band").unwrap();
        let results = c.evaluate(&Attempt::default()).unwrap();
        assert_eq!(
            results[0].text,
            "never more than 11 pods: broken in round 4: 13 pods"
        );
        assert_eq!(
            results[1].text,
            "never fewer than 9 available pods: broken in round 4: 8 available"
        );
        assert!(results[2].met);
    }

    /// The fast-and-safe limit is in seconds (durationSeconds of plan_metrics.py), so it means
    /// the same whatever a round is: settled 1 s rounds as the challenge runs, or lock-step.
    #[test]
    fn fast_and_safe_measures_seconds_from_set_image_to_rollout_status() {
        let c = challenge("fast-and-safe").unwrap();
        let Goal::Completes(Some(limit)) = c.goals[0] else {
            panic!("fast-and-safe limits the duration")
        };
        let solution = c
            .evaluate(&Attempt::from_json(c.solution).unwrap())
            .unwrap();
        let failing = c
            .evaluate(&Attempt::from_json(c.failing.unwrap()).unwrap())
            .unwrap();
        let scenario = c.base().unwrap();
        let (start, ready) = (10, i64::from(scenario.ready_after_rounds));
        assert_eq!(scenario.actions[1].round, start);
        // maxSurge 100%: every new pod at once; one wait for Ready (in seconds) and done.
        let took = solution[0].value.unwrap();
        assert!(
            took >= ready && took <= i64::from(limit),
            "{}",
            solution[0].text
        );
        assert_eq!(
            took,
            i64::from(solution[0].round.unwrap() - start) * scenario.seconds_per_round
        );
        // maxSurge 1, maxUnavailable 1: two pods a wave, five waves of a Ready wait each.
        assert!(!failing[0].met);
        assert!(
            failing[0].value.unwrap() >= 5 * ready,
            "{}",
            failing[0].text
        );
        assert!(failing[0].text.contains(" s ("), "{}", failing[0].text);
        // Lock-step rounds take longer (a round per hop), measured the same way.
        let mut lockstep = c
            .scenario_of(&Attempt::from_json(c.solution).unwrap())
            .unwrap();
        lockstep.settle = false;
        let slow = super::super::challenge::evaluate(c.goals, &lockstep, &[]);
        assert!(slow[0].value.unwrap() > took, "{}", slow[0].text);
    }

    #[test]
    fn a_refused_setting_fails_the_goals_without_a_panic() {
        let c = challenge("tight-band").unwrap();
        let attempt = Attempt::from_json(
            r#"{"deployment":{"strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":0}}}"#,
        )
        .unwrap();
        let scenario = c.scenario_of(&attempt).unwrap();
        let r = run(&scenario);
        assert!(r.rounds[0].errors[0].contains("may not be 0 when `maxSurge` is 0"));
        assert!(c.evaluate(&attempt).unwrap().iter().all(|g| !g.met));
        assert!(Attempt::from_json(r#"{"deploymnt":{}}"#).is_err());
        let bad = Attempt::from_json(r#"{"actions":[{"round":1,"type":"fly"}]}"#).unwrap();
        assert!(c.scenario_of(&bad).is_err());
    }

    #[test]
    fn figures_follow_plan_metrics() {
        // 10 replicas, 25% / 25%: 3 surge pods and 2 unavailable at once (plan_metrics.py's
        // peakPods and minAvailable); settled, pods ready one round after their creation:
        // waves in rounds 4 and 5, complete in round 6.
        let c = challenge("tight-band").unwrap();
        let f = figures(&run(&c.base().unwrap())).unwrap();
        assert_eq!(f.start_round, 4);
        assert_eq!(f.peak_pods.0, 13);
        assert_eq!(f.min_available.0, 8);
        assert_eq!(f.complete_round, Some(6));
        assert_eq!(f.deadline_exceeded_round, None);
    }

    #[test]
    #[ignore]
    fn dump() {
        for c in challenges() {
            for (what, a) in [("solution", Some(c.solution)), ("failing", c.failing)] {
                let Some(a) = a else { continue };
                let attempt = Attempt::from_json(a).unwrap();
                let scenario = c.scenario_of(&attempt).unwrap();
                let f = figures(&run(&scenario));
                println!("{} {what}: {f:?}", c.id);
                for g in c.evaluate(&attempt).unwrap() {
                    println!("   {} {}", if g.met { "MET " } else { "FAIL" }, g.text);
                }
            }
        }
    }
}
