//! The lessons, as data. Every number in their text is a `{placeholder}` filled from the
//! simulation (see [`super::text`]); every question's answer is computed (see
//! [`super::question`]). `lessons::tests` runs every lesson to check both.

use super::moment::{Count, Moment, Rs};
use super::question::{Ask, Question, SettingOption};
use super::{Claim, DocRef, Highlight, Lesson, LessonStep, ScenarioSource};

const DEPLOYMENTS: &str = "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/";

const fn lit(until: Moment, highlight: Highlight, text: &'static str) -> LessonStep {
    LessonStep {
        until,
        text,
        highlight: Some(highlight),
        question: None,
        code: "",
        claims: &[],
    }
}

/// `step` with an "In the code" part (the Go functions behind it).
const fn coded(step: LessonStep, code: &'static str) -> LessonStep {
    LessonStep { code, ..step }
}

/// `step` whose text relies on `claims`.
const fn claiming(step: LessonStep, claims: &'static [Claim]) -> LessonStep {
    LessonStep { claims, ..step }
}

const fn ask(
    until: Moment,
    highlight: Option<Highlight>,
    text: &'static str,
    prompt: &'static str,
    ask: Ask,
) -> LessonStep {
    LessonStep {
        until,
        text,
        highlight,
        question: Some(Question { prompt, ask }),
        code: "",
        claims: &[],
    }
}

const BASICS: Lesson = Lesson {
    id: "deployment-basics",
    title: "Deployment, ReplicaSet and pod-template-hash",
    teaches: "What `kubectl apply` of a Deployment sets in motion: the Deployment controller creates a ReplicaSet labelled with a pod-template-hash, the ReplicaSet controller creates the pods, the kubelet makes them Ready.",
    doc: DocRef {
        title: "Deployments › Creating a Deployment",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#creating-a-deployment",
    },
    scenario: ScenarioSource::Preset("rolling-basic"),
    steps: &[
        ask(
            Moment::Action("create"),
            Some(Highlight::Explanation),
            "`kubectl apply` sent Deployment {deployment}: {replicas} replicas of {image}. The API server stored it (generation {generation}). No controller has acted yet: there is no ReplicaSet and no pod.",
            "The Deployment controller syncs next. How many replicas will the ReplicaSet it creates ask for?",
            Ask::DesiredAfterNextSync(Rs::New),
        ),
        coded(ask(
            Moment::ReplicaSetCreated(Rs::New),
            Some(Highlight::Lane(Rs::New)),
            "The Deployment controller created ReplicaSet {newRs}, asking for {desired:newRs} replicas. Its selector and its pods carry the label pod-template-hash={hash:newRs}, a hash of the pod template, which keeps its pods apart from those of the Deployment's other templates. (A real cluster names it {deployment}-{hash:newRs}; Rollout Lab names it after its revision.)",
            "The ReplicaSet controller syncs {newRs} next. How many pods will it create?",
            Ask::CreatedInNextSync(Rs::New),
        ), "`getNewReplicaSet`: {decision:getNewReplicaSet}."),
        coded(lit(
            Moment::PodsCreated(Rs::New),
            Highlight::Pods(Rs::New),
            "The ReplicaSet controller created the pods {newRs} was missing: it has {pods:newRs} now, as its spec.replicas {desired:newRs} asks. They are Pending until the scheduler gives them a node and the kubelet starts their container.",
        ), "`manageReplicas`: {decision:manageReplicas}."),
        lit(
            Moment::PodsReady(Rs::New, Count::All),
            Highlight::Pods(Rs::New),
            "The kubelet started the containers: {ready:newRs} pods of {newRs} are Ready. The ReplicaSet's status and then the Deployment's status count them in their own syncs.",
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status` prints: {status}. {updatedReplicas} up-to-date replicas, {availablePods} available. `kubectl get rs` lists {newRs} with DESIRED {desired:newRs}, CURRENT {pods:newRs}, READY {ready:newRs}.",
        ),
    ],
};

const ROLLING: Lesson = Lesson {
    id: "rolling-update",
    title: "A rolling update, step by step",
    teaches: "How maxSurge {surgeSpec} and maxUnavailable {unavailableSpec} become {maxSurge} extra pod and {maxUnavailable} unavailable with {replicas} replicas, and how the two controllers replace pods one by one.",
    doc: DocRef {
        title: "Deployments › Updating a Deployment",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#updating-a-deployment",
    },
    scenario: ScenarioSource::Preset("rolling-basic"),
    steps: &[
        ask(
            Moment::Action("setImage"),
            Some(Highlight::BudgetTotal),
            "`kubectl set image` changed the pod template to {image}: a new revision (generation {generation}, observed {observedGeneration}). With {replicas} replicas, maxSurge {surgeSpec} is {surgeExact} pods, rounded up to {maxSurge}; maxUnavailable {unavailableSpec} is {unavailableExact}, rounded down to {maxUnavailable}. So at most {maxTotal} pods may exist and at least {minAvailable} must stay available.",
            "After the Deployment controller's next sync, how many replicas will the new ReplicaSet ask for?",
            Ask::DesiredAfterNextSync(Rs::New),
        ),
        coded(lit(
            Moment::ScaledUp(Rs::New),
            Highlight::Lane(Rs::New),
            "The Deployment controller created {newRs} for {image}: \"{event:ScalingReplicaSet}\". It asks for {desired:newRs}, as many as fit under the {maxTotal} pods that maxSurge allows; {oldRs} keeps its {desired:oldRs} for now.",
        ), "`getNewReplicaSet`: {decision:getNewReplicaSet}."),
        claiming(
            ask(
                Moment::PodsReady(Rs::New, Count::AtLeast(1)),
                Some(Highlight::BudgetAvailable),
                "The first pod of {newRs} is Ready. There are {totalPods} pods, the most maxSurge allows ({maxTotal}), so {newRs} cannot grow until an old pod goes; and an old pod may only go while {minAvailable} stay available.",
                "Which pod will the ReplicaSet controller delete next? Click it.",
                Ask::NextDeletedPod,
            ),
            &[Claim::Equal("totalPods", "maxTotal")],
        ),
        coded(ask(
            Moment::PodsDeleted(Rs::Old),
            Some(Highlight::Lane(Rs::Old)),
            "The Deployment controller scaled {oldRs} down to {desired:oldRs}, and the ReplicaSet controller deleted {deletedPod}: {criterion} compared with {keptPod}, the first pod kept. {newRs} may now grow again, one pod at a time.",
            "In which round will `kubectl rollout status` report success?",
            Ask::Completes,
        ), "`manageReplicas`: {decision:manageReplicas}."),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status} (round {round}). {newRs} has {desired:newRs} replicas; {oldRs} is kept at {desired:oldRs} as revision {revision:oldRs}, so `kubectl rollout undo` can scale it up again.",
        ),
    ],
};

/// An option's label: the values as the change writes them (filled by the core).
const SETTINGS: &str = "maxSurge: {surgeSpec}, maxUnavailable: {unavailableSpec}";

const REFUSED: &[SettingOption] = &[
    SettingOption {
        label: SETTINGS,
        patch: r#"{"strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":0}}"#,
    },
    SettingOption {
        label: SETTINGS,
        patch: r#"{"strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}"#,
    },
    SettingOption {
        label: SETTINGS,
        patch: r#"{"strategy":{"type":"RollingUpdate","maxSurge":"0%","maxUnavailable":"0%"}}"#,
    },
    SettingOption {
        label: SETTINGS,
        patch: r#"{"strategy":{"type":"RollingUpdate","maxSurge":"200%","maxUnavailable":0}}"#,
    },
    SettingOption {
        label: SETTINGS,
        patch: r#"{"strategy":{"type":"RollingUpdate","maxSurge":0,"maxUnavailable":"110%"}}"#,
    },
    SettingOption {
        label: SETTINGS,
        patch: r#"{"strategy":{"type":"RollingUpdate","maxSurge":"1%","maxUnavailable":0}}"#,
    },
];

const SURGE: Lesson = Lesson {
    id: "max-surge-max-unavailable",
    title: "maxSurge and maxUnavailable",
    teaches: "Counts and percentages, how percentages round (maxSurge up, maxUnavailable down), and why the API refuses both at zero (nothing could move).",
    doc: DocRef {
        title: "Deployments › Rolling Update Deployment (Max Surge, Max Unavailable)",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#max-surge",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"surge-unavailable","rounds":24,"secondsPerRound":5,"readyAfterRounds":1,
        "terminationRounds":0,"nodes":3,"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":10,"image":"nginx:1.14.2",
         "strategy":{"type":"RollingUpdate","maxSurge":"25%","maxUnavailable":"25%"}}},
        {"round":4,"type":"setImage","image":"nginx:1.16.1"}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("create"),
            Some(Highlight::BudgetTotal),
            "maxSurge and maxUnavailable are a count or a percentage of replicas. {deployment} has {replicas} replicas, maxSurge {surgeSpec} and maxUnavailable {unavailableSpec}: {surgeExact} rounds up to {maxSurge} extra pods, {unavailableExact} rounds down to {maxUnavailable} unavailable. If both were zero no pod could ever be added or removed, so the API refuses zero for both; a percentage that only rounds down to zero is accepted, and then the controller lets one pod be unavailable anyway.",
            "Which of these settings does the API server refuse?",
            Ask::Refused(REFUSED),
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::BudgetTotal),
            "`kubectl set image` starts a rollout to {image}. Up to {maxTotal} pods may exist, and {minAvailable} must stay available.",
            "After the Deployment controller's next sync, how many replicas will the new ReplicaSet ask for?",
            Ask::DesiredAfterNextSync(Rs::New),
        ),
        coded(ask(
            Moment::ScaledUp(Rs::New),
            Some(Highlight::Lane(Rs::New)),
            "The Deployment controller created {newRs}, asking for {desired:newRs} replicas: as many as fit under {maxTotal}. The old ReplicaSet still has all its pods.",
            "After the Deployment controller's next sync, how many replicas will {oldRs} ask for?",
            Ask::DesiredAfterNextSync(Rs::Old),
        ), "`getNewReplicaSet`: {decision:getNewReplicaSet}."),
        claiming(
            coded(lit(
                Moment::ScaledDown(Rs::Old),
                Highlight::BudgetAvailable,
                "The Deployment controller scaled {oldRs} down to {desired:oldRs}. Both limits work at once: {totalPods} pods at most {maxTotal}, and never fewer than {minAvailable} available.",
            ), "`reconcileOldReplicaSets`: {decision:reconcileOldReplicaSets}."),
            &[
                Claim::AtMost("totalPods", "maxTotal"),
                Claim::AtMost("minAvailable", "availablePods"),
            ],
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status} (round {round}). Larger maxSurge and maxUnavailable finish sooner; they cost extra pods and available capacity.",
        ),
    ],
};

const MIN_READY: Lesson = Lesson {
    id: "readiness-min-ready-seconds",
    title: "Ready is not yet available: minReadySeconds",
    teaches: "A pod is Ready when its readiness probe passes; it counts as available for the Deployment only after being Ready for minReadySeconds.",
    doc: DocRef {
        title: "Deployments › Min Ready Seconds",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#min-ready-seconds",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"min-ready","rounds":30,"secondsPerRound":5,"readyAfterRounds":1,
        "terminationRounds":0,"nodes":3,"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2",
         "minReadySeconds":10,"strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
        {"round":4,"type":"setImage","image":"nginx:1.16.1"}]}"#,
    ),
    steps: &[
        lit(
            Moment::Action("setImage"),
            Highlight::BudgetAvailable,
            "{deployment} has minReadySeconds {minReadySeconds}: a pod counts as available only once it has been Ready for more than {minReadySeconds} seconds. maxUnavailable is {maxUnavailable}, so an old pod may go only when a new one is available.",
        ),
        ask(
            Moment::PodsReady(Rs::New, Count::AtLeast(1)),
            Some(Highlight::Pods(Rs::New)),
            "A pod of {newRs} became Ready at t = {readyAt:newRs} s: {ready:newRs} ready, {available:newRs} available. A Service already sends it traffic; the Deployment controller does not count it yet.",
            "In which round will the first pod of {newRs} become available?",
            Ask::RoundOf(Moment::PodsAvailable(Rs::New, Count::AtLeast(1))),
        ),
        ask(
            Moment::PodsAvailable(Rs::New, Count::AtLeast(1)),
            Some(Highlight::BudgetAvailable),
            "Now, at t = {now} s, the pod has been Ready for more than {minReadySeconds} s: {available:newRs} available. Now the old ReplicaSet may give up a pod.",
            "In which round will `kubectl rollout status` report success?",
            Ask::Completes,
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status} (round {round}). Every wave waited minReadySeconds: it guards against pods that pass their probe and crash soon after.",
        ),
    ],
};

const BAD_IMAGE: Lesson = Lesson {
    id: "bad-image",
    title: "A bad image: stuck, deadline, undo",
    teaches: "A rollout to an image that never starts stops safely, `kubectl rollout status` reports the progress deadline, and `kubectl rollout undo` brings the old template back.",
    doc: DocRef {
        title: "Deployments › Failed Deployment",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#failed-deployment",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"bad-image","rounds":30,"secondsPerRound":5,"readyAfterRounds":1,
        "terminationRounds":0,"nodes":3,"neverReadyImages":["nginx:1.161"],"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2",
         "progressDeadlineSeconds":30}},
        {"round":4,"type":"setImage","image":"nginx:1.161"},
        {"round":16,"type":"undo"}]}"#,
    ),
    steps: &[
        lit(
            Moment::Action("setImage"),
            Highlight::Explanation,
            "`kubectl set image` to {image}, a typo: that tag does not exist, so its pods never start. progressDeadlineSeconds is {progressDeadline}.",
        ),
        claiming(
            ask(
                Moment::PodsCreated(Rs::New),
                Some(Highlight::Pods(Rs::New)),
                "{newRs} got its surge pod; it stays Pending (ErrImagePull). There are {totalPods} pods = maxTotal {maxTotal} and {availablePods} available = minAvailable {minAvailable}: neither ReplicaSet may move. `kubectl rollout status` waits: {status}",
                "Will this rollout finish? Give the round, or \"never\".",
                Ask::Completes,
            ),
            &[
                Claim::Equal("totalPods", "maxTotal"),
                Claim::Equal("availablePods", "minAvailable"),
            ],
        ),
        lit(
            Moment::DeadlineExceeded,
            Highlight::Condition("Progressing"),
            "No progress for more than {progressDeadline} s: Progressing is now {progressing}. `kubectl rollout status` gives up: {status}. The controller does not roll back by itself, and the old pods keep serving. `kubectl rollout undo` would answer: {undo}.",
        ),
        lit(
            Moment::Action("undo"),
            Highlight::Explanation,
            "`kubectl rollout undo` wrote the previous revision's template ({image}) back into the Deployment: an ordinary template change, so the controller rolls out again.",
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status}. The old ReplicaSet is the new one again, now revision {revision:newRs}; {oldRs} (the bad image) is scaled to {desired:oldRs}. History: {history}.",
        ),
    ],
};

const CRASH_LOOP: Lesson = Lesson {
    id: "crash-loop",
    title: "A new version that crashes: CrashLoopBackOff and what maxUnavailable protects",
    teaches: "A new version whose app exits a few seconds after each start: the kubelet restarts it at once, then after a back-off that doubles (CrashLoopBackOff); the pod is never available, so with maxUnavailable {unavailableSpec} no old pod goes and the {replicas} old replicas keep serving until `kubectl rollout undo`.",
    doc: DocRef {
        title: "Pods › Container restarts (CrashLoopBackOff)",
        url: "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"crash-loop","rounds":160,"secondsPerRound":1,"readyAfterRounds":5,
        "terminationRounds":0,"nodes":3,"model":{"failures":{"nginx:1.16.1":"crash:after=5s"}},
        "actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2",
         "progressDeadlineSeconds":60,
         "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
        {"round":10,"type":"setImage","image":"nginx:1.16.1"}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("setImage"),
            Some(Highlight::BudgetAvailable),
            "`kubectl set image` changed the template to {image}, a version whose app exits a few seconds after it starts. maxSurge {surgeSpec} and maxUnavailable {unavailableSpec}: at most {maxTotal} pods, and at least {minAvailable} of the {replicas} must stay available.",
            "After the Deployment controller's next sync, how many replicas will the old ReplicaSet still ask for? (The capacity left while the new version fails.)",
            Ask::DesiredAfterNextSync(Rs::Old),
        ),
        lit(
            Moment::Restarted(Rs::New, 1),
            Highlight::Pods(Rs::New),
            "The new pod's container exited with an error and the kubelet started it again at once: RESTARTS {restarts:newRs}. A first restart finds no back-off yet.",
        ),
        ask(
            Moment::Restarted(Rs::New, 2),
            Some(Highlight::Pods(Rs::New)),
            "It crashed again and the kubelet waited this time: the pod read CrashLoopBackOff until its back-off ended, and it has now restarted {restarts:newRs} times. Each back-off is measured from the container's exit and doubles.",
            "In which round will the kubelet start it again after its next crash (its third restart)?",
            Ask::RoundOf(Moment::Restarted(Rs::New, 3)),
        ),
        claiming(
            lit(
                Moment::Restarted(Rs::New, 3),
                Highlight::BudgetAvailable,
                "Third restart, after the last exit at t = {lastExit:newRs} s. The new pod is never available, so {availablePods} pods are available, exactly the {minAvailable} maxUnavailable {unavailableSpec} requires: the old ReplicaSet keeps its {desired:oldRs} replicas, and the capacity lost is none. With a higher maxUnavailable an old pod would have gone for a pod that never serves.",
            ),
            &[Claim::Equal("availablePods", "minAvailable")],
        ),
        lit(
            Moment::DeadlineExceeded,
            Highlight::Condition("Progressing"),
            "No progress for more than {progressDeadline} s: Progressing is now {progressing}. The kubelet keeps restarting the pod ({restarts:newRs} restarts so far), the controller does not roll back by itself, and `kubectl rollout undo` would answer: {undo}.",
        ),
    ],
};

const LIVENESS_VS_READINESS: Lesson = Lesson {
    id: "liveness-vs-readiness",
    title: "Liveness versus readiness: a slow app that restarts for ever, or waits and joins",
    teaches: "The same slow-starting app under each probe: a livenessProbe with less patience than the app needs gets it killed before it ever answers, again and again, and the rollout never completes; a readinessProbe only keeps it out of Ready until it answers, and then it joins.",
    doc: DocRef {
        title: "Configure Liveness, Readiness and Startup Probes",
        url: "https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"liveness-vs-readiness","rounds":420,"secondsPerRound":1,
        "readyAfterRounds":5,"terminationRounds":0,"nodes":3,
        "model":{
          "failures":{"shop:2":"slow:ready=45s","shop:2 (livenessProbe removed)":"slow:ready=45s"},
          "templateProbes":{
            "shop:2":{"containers":[{"name":"shop",
              "readinessProbe":{"periodSeconds":10,"failureThreshold":3},
              "livenessProbe":{"periodSeconds":10,"failureThreshold":3}}]},
            "shop:2 (livenessProbe removed)":{"containers":[{"name":"shop",
              "readinessProbe":{"periodSeconds":10,"failureThreshold":3}}]}}},
        "actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"shop:1",
         "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
        {"round":10,"type":"setImage","image":"shop:2"},
        {"round":210,"type":"setImage","image":"shop:2 (livenessProbe removed)"}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Explanation),
            "`kubectl set image` to {image}, a version whose app needs {answersAfter} s after each start before it answers. Its pod template has a readinessProbe (every {readinessPeriod} s) and a livenessProbe: every {livenessPeriod} s, failureThreshold {livenessThreshold}, so {livenessPatience} s of patience.",
            "In which round will the kubelet restart the new pod for the first time?",
            Ask::RoundOf(Moment::Restarted(Rs::New, 1)),
        ),
        claiming(
            lit(
                Moment::Restarted(Rs::New, 1),
                Highlight::Pods(Rs::New),
                "The liveness probe failed {livenessThreshold} times in a row before the app could answer: the kubelet killed the container (a Killing event) and started it again, RESTARTS {restarts:newRs}. Meanwhile the readinessProbe kept the pod out of Ready ({unhealthy:newRs} Unhealthy events so far), so it never counted: {availablePods} pods are available, the {minAvailable} maxUnavailable {unavailableSpec} requires, and no old pod went.",
            ),
            &[Claim::Equal("availablePods", "minAvailable")],
        ),
        ask(
            Moment::Restarted(Rs::New, 4),
            Some(Highlight::Pods(Rs::New)),
            "RESTARTS {restarts:newRs}. Each new container is as slow as the last, and the livenessProbe gives each only {livenessPatience} s of the {answersAfter} s it needs: this version can never become Ready, and its rollout can never complete. So far every restart came at once, the container before having exited longer ago than its back-off.",
            "The next kill comes {livenessPatience} s after this restart. In which round will the kubelet start the container again after it?",
            Ask::RoundOf(Moment::Restarted(Rs::New, 5)),
        ),
        lit(
            Moment::Restarted(Rs::New, 5),
            Highlight::Pods(Rs::New),
            "The kills now come faster than the back-off grows: the kubelet made the killed container wait (CrashLoopBackOff) until its back-off ended, and restarted it: RESTARTS {restarts:newRs}. The old pods keep serving; the fix is in the template.",
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Explanation),
            "`kubectl apply` of the same template without its livenessProbe ({image}: the simulation's pod template is its image, so the edited template is named after the edit). A new template, so a new ReplicaSet; the crash-looping one is scaled down at once, as it has no available pod to lose.",
            "In which round will the first pod of the new ReplicaSet be Ready?",
            Ask::RoundOf(Moment::PodsReady(Rs::New, Count::AtLeast(1))),
        ),
        lit(
            Moment::PodsReady(Rs::New, Count::AtLeast(1)),
            Highlight::Pods(Rs::New),
            "Ready at t = {readyAt:newRs} s. Its readiness probe failed while the app started ({unhealthy:newRs} Unhealthy events), but a failing readinessProbe only keeps a pod out of Ready: no kill, RESTARTS {restarts:newRs}. The first run after the app answered succeeded; now the pod counts as available and an old pod may go.",
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status}. Every new pod waited for its app and joined. A livenessProbe asks \"is it stuck for good?\" and answers by killing; for an app that is slow to start, give it a startupProbe or enough patience, and let the readinessProbe say when it can serve.",
        ),
    ],
};

const ROLLOVER: Lesson = Lesson {
    id: "rollover",
    title: "Rollover: a new image during a rollout",
    teaches: "A template change mid-rollout makes the half-finished ReplicaSet an old one; it is scaled down at once instead of completing.",
    doc: DocRef {
        title: "Deployments › Rollover (aka multiple updates in-flight)",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#rollover-aka-multiple-updates-in-flight",
    },
    scenario: ScenarioSource::Preset("rollover"),
    steps: &[
        lit(
            Moment::Action("setImage"),
            Highlight::BudgetTotal,
            "A rollout to {image} starts: {replicas} replicas, maxSurge {maxSurge}, maxUnavailable {maxUnavailable}.",
        ),
        lit(
            Moment::ScaledUp(Rs::New),
            Highlight::Lane(Rs::New),
            "\"{event:ScalingReplicaSet}\". Its pods take a while to become ready.",
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Lane(Rs::Nth(2))),
            "Before {rs2} is done, `kubectl set image` changes the template to {image}. {rs2} no longer matches the template: it is an old ReplicaSet now, like {rs1}, and {available:rs2} of its pods are available.",
            "After the Deployment controller's next sync, how many replicas will {rs2} ask for?",
            Ask::DesiredAfterNextSync(Rs::Nth(2)),
        ),
        coded(ask(
            Moment::ScaledDown(Rs::Nth(2)),
            Some(Highlight::Lane(Rs::Nth(2))),
            "The Deployment controller created {newRs} for {image} and scaled {rs2} down to {desired:rs2}. Old pods that are not available go first, whatever their ReplicaSet, since removing them costs no availability. {rs2} gives up instead of finishing: Kubernetes does not wait for a rollout to complete before starting the next.",
            "After the Deployment controller's next sync, how many replicas will {newRs} ask for?",
            Ask::DesiredAfterNextSync(Rs::New),
        ), "`getNewReplicaSet`: {decision:getNewReplicaSet}. `cleanupUnhealthyReplicas`: {decision:cleanupUnhealthyReplicas}."),
        coded(lit(
            Moment::ScaledUp(Rs::New),
            Highlight::Lane(Rs::New),
            "The Deployment controller scaled {newRs} up to {desired:newRs}: \"{event:ScalingReplicaSet}\".",
        ), "`reconcileNewReplicaSet`: {decision:reconcileNewReplicaSet}."),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status}. {rs1} and {rs2} are kept as history, scaled to {desired:rs1} and {desired:rs2}: {history}.",
        ),
    ],
};

const PROPORTIONAL: Lesson = Lesson {
    id: "proportional-scaling",
    title: "Proportional scaling mid-rollout",
    teaches: "Scaling a Deployment during a rollout shares the new replicas among its ReplicaSets in proportion to their size, so neither the old nor the new version takes all the risk.",
    doc: DocRef {
        title: "Deployments › Proportional scaling",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#proportional-scaling",
    },
    scenario: ScenarioSource::Preset("proportional-scaling"),
    steps: &[
        lit(
            Moment::Action("setImage"),
            Highlight::BudgetTotal,
            "{replicas} replicas, maxSurge {maxSurge}, maxUnavailable {maxUnavailable}; a rollout to {image}, an image that never becomes ready.",
        ),
        ask(
            Moment::Action("scale"),
            Some(Highlight::BudgetTotal),
            "The rollout is stuck mid-way: {oldRs} asks for {desired:oldRs} replicas and {newRs} for {desired:newRs}. Now `kubectl scale --replicas={replicas}`: up to {maxTotal} pods may exist.",
            "After the Deployment controller's next sync, how many replicas will {oldRs} ask for?",
            Ask::DesiredAfterNextSync(Rs::Old),
        ),
        coded(lit(
            Moment::ScaledUp(Rs::Old),
            Highlight::Explanation,
            "The Deployment controller shared the new replicas out: {oldRs} now asks for {desired:oldRs}, {newRs} for {desired:newRs}. Each ReplicaSet's share follows its size (its max-replicas annotation records the Deployment's size it was set for).",
        ), "`scale`: {decision:scale}."),
        claiming(
            lit(
                Moment::RoundEnd,
                Highlight::BudgetTotal,
                "{totalPods} pods exist, within maxTotal {maxTotal}; the new image still never becomes ready, so the rollout stays where it is, at the new size.",
            ),
            &[Claim::AtMost("totalPods", "maxTotal")],
        ),
    ],
};

const PAUSE: Lesson = Lesson {
    id: "pause-resume",
    title: "Pause, edit, resume",
    teaches: "A paused Deployment accepts template changes without rolling them out, still scales, and rolls out everything at once on resume.",
    doc: DocRef {
        title: "Deployments › Pausing and Resuming a rollout of a Deployment",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#pausing-and-resuming-a-deployment",
    },
    scenario: ScenarioSource::Preset("pause-resume"),
    steps: &[
        lit(
            Moment::Action("pause"),
            Highlight::Explanation,
            "`kubectl rollout pause`: spec.paused is now true (generation {generation}).",
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Lane(Rs::Old)),
            "While paused, `kubectl set image` to {image}: the template changed (generation {generation}) but no ReplicaSet is created for it yet.",
            "In which round will the new ReplicaSet be created?",
            Ask::RoundOf(Moment::ReplicaSetCreated(Rs::New)),
        ),
        ask(
            Moment::Action("scale"),
            Some(Highlight::Lane(Rs::Old)),
            "`kubectl scale --replicas={replicas}` while paused.",
            "After the Deployment controller's next sync, how many replicas will {oldRs} ask for?",
            Ask::DesiredAfterNextSync(Rs::Old),
        ),
        coded(lit(
            Moment::ScaledUp(Rs::Old),
            Highlight::Explanation,
            "\"{event:ScalingReplicaSet}\". A paused Deployment still scales; it only stops rolling out.",
        ), "`scale`: {decision:scale}."),
        lit(
            Moment::Action("resume"),
            Highlight::Explanation,
            "`kubectl rollout resume`: spec.paused is false again.",
        ),
        coded(lit(
            Moment::ReplicaSetCreated(Rs::New),
            Highlight::Lane(Rs::New),
            "Only now does the Deployment controller create {newRs} for {image}. Every change made while paused goes out in this one rollout.",
        ), "`getNewReplicaSet`: {decision:getNewReplicaSet}."),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status}: {desired:newRs} replicas of {image:newRs}.",
        ),
    ],
};

const RECREATE: Lesson = Lesson {
    id: "recreate",
    title: "Recreate and its barrier",
    teaches: "strategy Recreate scales every old ReplicaSet down to zero and waits until no old pod runs, terminating ones included, before creating the new ReplicaSet: no two versions ever run together.",
    doc: DocRef {
        title: "Deployments › Recreate Deployment",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#recreate-deployment",
    },
    scenario: ScenarioSource::Preset("recreate"),
    steps: &[
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Lane(Rs::Old)),
            "strategy {strategy}; `kubectl set image` to {image}.",
            "In which round will the new ReplicaSet be created?",
            Ask::RoundOf(Moment::ReplicaSetCreated(Rs::New)),
        ),
        coded(lit(
            Moment::ScaledDown(Rs::Old),
            Highlight::Lane(Rs::Old),
            "Recreate scaled {oldRs} straight down to {desired:oldRs}, all at once: no new pod exists yet.",
        ), "`scaleDownOldReplicaSetsForRecreate`: {decision:scaleDownOldReplicaSetsForRecreate}."),
        coded(lit(
            Moment::Decided("oldPodsRunning"),
            Highlight::Pods(Rs::Old),
            "{terminating:oldRs} pods of {oldRs} are Terminating (graceful shutdown). {terminatingStatus:oldRs} This is Recreate's barrier: the new version may not start while any old pod still runs.",
        ), "`oldPodsRunning`: {decision:oldPodsRunning}."),
        coded(lit(
            Moment::ReplicaSetCreated(Rs::New),
            Highlight::Lane(Rs::New),
            "Only now does the Deployment controller create {newRs}, with all {desired:newRs} replicas at once, since nothing old is left to protect. Until they are ready, nothing serves: the price of Recreate.",
        ), "`getNewReplicaSet`: {decision:getNewReplicaSet}."),
        lit(
            Moment::RolloutComplete,
            Highlight::RolloutStatus,
            "`kubectl rollout status`: {status} (round {round}).",
        ),
    ],
};

const HISTORY: Lesson = Lesson {
    id: "revision-history",
    title: "Revision history and clean-up",
    teaches: "Every template gets a ReplicaSet and a revision number; old ReplicaSets are kept, scaled to zero, for `kubectl rollout undo`, and revisionHistoryLimit decides how many.",
    doc: DocRef {
        title: "Deployments › Clean up Policy",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#clean-up-policy",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"revision-history","rounds":40,"secondsPerRound":5,"readyAfterRounds":1,
        "terminationRounds":0,"nodes":3,"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":2,"image":"app:v1",
         "revisionHistoryLimit":1}},
        {"round":4,"type":"setImage","image":"app:v2"},
        {"round":20,"type":"setImage","image":"app:v3"}]}"#,
    ),
    steps: &[
        lit(
            Moment::RolloutComplete,
            Highlight::Lane(Rs::New),
            "{deployment} runs {image} as revision {revision}. revisionHistoryLimit is {revisionHistoryLimit}: the number of old ReplicaSets kept for rollbacks.",
        ),
        lit(
            Moment::Action("setImage"),
            Highlight::Explanation,
            "A rollout to {image}.",
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::Lane(Rs::Old),
            "`kubectl rollout status`: {status}. `kubectl rollout history`: {history}. {oldRs} keeps its template at {desired:oldRs} replicas: that is what `kubectl rollout undo` scales up again.",
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Explanation),
            "Another rollout, to {image}. The Deployment has {oldRsCount} old ReplicaSets, and revisionHistoryLimit is {revisionHistoryLimit}.",
            "In which round will the oldest ReplicaSet be deleted?",
            Ask::RoundOf(Moment::ReplicaSetDeleted),
        ),
        coded(lit(
            Moment::ReplicaSetDeleted,
            Highlight::Explanation,
            "History clean-up deleted the oldest ReplicaSet. It runs only once the rollout is complete, and deletes only old ReplicaSets without pods. History now: {history}.",
        ), "`cleanupDeployment`: {decision:cleanupDeployment}."),
    ],
};

const RS_CONTROLLER: Lesson = Lesson {
    id: "inside-replicaset-controller",
    title: "Inside the ReplicaSet controller",
    teaches: "How the ReplicaSet controller creates pods in slow-start batches, waits for the creations and deletions it expects, and ranks which pod is deleted first.",
    doc: DocRef {
        title: "ReplicaSet › How a ReplicaSet works, Pod deletion cost",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#how-a-replicaset-works",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"rs-controller","rounds":20,"secondsPerRound":5,"readyAfterRounds":1,
        "terminationRounds":0,"nodes":3,"actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":1,"image":"nginx:1.14.2"}},
        {"round":3,"type":"scale","replicas":10},
        {"round":8,"type":"restartPod","pod":"web-rev1-00006"},
        {"round":9,"type":"scale","replicas":6}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("scale"),
            Some(Highlight::Lane(Rs::New)),
            "`kubectl scale --replicas={replicas}`. The Deployment controller will set {newRs}'s spec.replicas; the ReplicaSet controller then makes the pods.",
            "In its next sync of {newRs}, how many pods will the ReplicaSet controller create?",
            Ask::CreatedInNextSync(Rs::New),
        ),
        coded(lit(
            Moment::PodsCreated(Rs::New),
            Highlight::Explanation,
            "The ReplicaSet controller created {created} pods in batches of {batches}. Slow start doubles the batch only while every create succeeds, so a create that always fails (a quota, a webhook) costs one call, not hundreds. The controller now expects {expectations}, and does not act on the ReplicaSet again until its informer has seen them. {ownWrites}",
        ), "`manageReplicas`: {decision:manageReplicas}. The batches are `slowStartBatch`'s."),
        lit(
            Moment::Action("restartPod"),
            Highlight::Pods(Rs::New),
            "A container restarted: the pod is Running but not Ready until it passes its readiness probe again ({ready:newRs} of {pods:newRs} ready).",
        ),
        ask(
            Moment::Action("scale"),
            Some(Highlight::Pods(Rs::New)),
            "`kubectl scale --replicas={replicas}`: {newRs} has {pods:newRs} pods, some have to go.",
            "Which pod will the ReplicaSet controller delete first? Click it.",
            Ask::NextDeletedPod,
        ),
        coded(lit(
            Moment::PodsDeleted(Rs::New),
            Highlight::Explanation,
            "{deletedPod} went first, before {keptPod}: {criterion}. The controller ranks pods: unscheduled, then Pending, then not ready, then lower pod-deletion-cost, then more pods on the same node, then ready more recently, then more restarts, then newer.",
        ), "`manageReplicas`: {decision:manageReplicas}. The ranking is `getPodsToDelete`'s."),
    ],
};

/// The Kubernetes documentation's page on probes (the readiness lesson follows it).
const PROBES: &str =
    "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-probes";

const READINESS: Lesson = Lesson {
    id: "readiness-probes",
    title: "Why readiness probes exist: requests sent to an app still booting",
    teaches: "Without a readiness probe a pod is Ready, and the Service sends it requests, as soon as its container starts, while its app needs {appReady} s more: requests fail until it answers. A readiness probe keeps the pod out of the Service's ready endpoints until then.",
    doc: DocRef {
        title: "Pods › Container probes (readinessProbe)",
        url: PROBES,
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"readiness-probes","rounds":90,"secondsPerRound":1,"readyAfterRounds":0,
        "terminationRounds":5,"nodes":3,
        "model":{"probes":{"appReadySeconds":8,"containers":[{"name":"web"}]},
                 "traffic":{"load":40,"endpointDelaySeconds":1,"preStopSleepSeconds":3}},
        "actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":3,"image":"nginx:1.14.2",
         "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
        {"round":20,"type":"scale","replicas":4},
        {"round":40,"type":"setImage","image":"nginx:1.16.1"}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("scale"),
            Some(Highlight::Service),
            "The Service in front of {deployment} gets {load} requests a second, spread evenly over its ready endpoints, and `kubectl scale` now asks for {replicas} pods. The pods have no readiness probe: the kubelet reports a container ready as soon as it starts, while this app needs {appReady} s more before it answers. The proxies learn of an endpoint change {endpointDelay} s after it. (The red at the start of the strip: the first pods, booting the same way.)",
            "How many requests will fail between this `kubectl scale` and the next command?",
            Ask::FailedRequests,
        ),
        lit(
            Moment::RequestsFail,
            Highlight::Service,
            "Requests fail: {why}. The Service counts the pod among its ready endpoints and sends it {perPod} requests a second, and none is answered.",
        ),
        lit(
            Moment::RequestsServed,
            Highlight::Requests,
            "The app answers now and every request is served again: {failedAfter:scale} requests failed because of the scale-up. The same scale-up with a readiness probe (Kubernetes' defaults, succeeding once the app answers): {failedAfter:scale/readinessProbe} failed, since the pod becomes Ready, and an endpoint the proxies send to, only then.",
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Requests),
            "`kubectl set image` starts a rolling update to {image}: maxSurge {surgeSpec}, maxUnavailable {unavailableSpec}. Every new pod is again Ready as soon as its container starts, {appReady} s before its app answers, so the controllers also delete old pods for it at once.",
            "How many requests will fail during this rolling update (until the script ends)?",
            Ask::FailedRequests,
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::Requests,
            "`kubectl rollout status`: {status}. On the stage it looked perfect, yet {failedAfter:setImage} requests failed, and in the worst second only {lowestServedAfter:setImage} of the load was served. With a readiness probe the same rollout fails {failedAfter:setImage/readinessProbe} requests: it waits for each new app, and the old pods serve meanwhile.",
        ),
    ],
};

const GRACEFUL: Lesson = Lesson {
    id: "graceful-shutdown",
    title: "Graceful shutdown: errors at termination and the preStop sleep",
    teaches: "A deleted pod gets SIGTERM at once, while the proxies keep sending it requests for {endpointDelay} s until they learn its endpoint is terminating: an app that exits at once fails them. A `preStop` sleep longer than that delay keeps it answering until nothing is sent to it.",
    doc: DocRef {
        title: "Pods › Termination of Pods",
        url: "https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"graceful-shutdown","rounds":90,"secondsPerRound":1,"readyAfterRounds":0,
        "terminationRounds":10,"nodes":3,
        "model":{"probes":{"appReadySeconds":5,"containers":[{"name":"web","readinessProbe":{"periodSeconds":1}}]},
                 "traffic":{"load":40,"endpointDelaySeconds":1,"exitAfterSigtermSeconds":0,"preStopSleepSeconds":0}},
        "actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":4,"image":"nginx:1.14.2",
         "strategy":{"type":"RollingUpdate","maxSurge":1,"maxUnavailable":0}}},
        {"round":20,"type":"scale","replicas":3},
        {"round":40,"type":"setImage","image":"nginx:1.16.1"}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("scale"),
            Some(Highlight::Service),
            "`kubectl scale` to {replicas}: the ReplicaSet controller deletes one of the pods. The Service sends {load} requests a second over its ready endpoints, and the proxies learn of an endpoint change {endpointDelay} s after it. The pods have a readiness probe, so none gets requests before its app answers; but the container has no preStop hook, so the kubelet sends SIGTERM as soon as the pod is deleted, and this app exits {exitAfterSigterm} s after it.",
            "How many requests will fail between this `kubectl scale` and the next command?",
            Ask::FailedRequests,
        ),
        lit(
            Moment::RequestsFail,
            Highlight::Service,
            "Requests fail: {why}. The EndpointSlice already says the pod is terminating; the proxies act on what they heard {endpointDelay} s ago.",
        ),
        lit(
            Moment::RequestsServed,
            Highlight::Requests,
            "The proxies have caught up: {failedAfter:scale} requests failed while the pod's app was gone but the proxies still sent to it. With a preStop sleep of {setting:preStop=5} s, longer than the endpoint delay, the pod answers until nothing is sent to it: {failedAfter:scale/preStop=5} failed.",
        ),
        ask(
            Moment::Action("setImage"),
            Some(Highlight::Requests),
            "`kubectl set image` to {image}: a rolling update (maxSurge {surgeSpec}, maxUnavailable {unavailableSpec}) that deletes each old pod in turn, each one exiting at SIGTERM the same way.",
            "How many requests will fail during this rolling update (until the script ends)?",
            Ask::FailedRequests,
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::Requests,
            "`kubectl rollout status`: {status}. {failedAfter:setImage} requests failed, a window for every old pod deleted. With a preStop sleep of {setting:preStop=5} s: {failedAfter:setImage/preStop=5}. (A preStop hook runs before SIGTERM; newer Kubernetes versions have a built-in `sleep` action for it.)",
        ),
    ],
};

const UNAVAILABLE_REQUESTS: Lesson = Lesson {
    id: "max-unavailable-requests",
    title: "maxUnavailable in requests: the capacity a rollout takes away",
    teaches: "maxUnavailable {unavailableSpec} lets the controllers take {maxUnavailable} of {replicas} pods away before a new one is available: with {load} requests a second and {podCapacity} a pod, the pods left cannot serve them all. maxUnavailable {setting:maxUnavailable=0} keeps the capacity.",
    doc: DocRef {
        title: "Deployments › Max Unavailable",
        url: "https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#max-unavailable",
    },
    scenario: ScenarioSource::Inline(
        r#"{"settle":true,"name":"max-unavailable-requests","rounds":90,"secondsPerRound":1,"readyAfterRounds":0,
        "terminationRounds":10,"nodes":3,
        "model":{"probes":{"appReadySeconds":5,"containers":[{"name":"web","readinessProbe":{"periodSeconds":1}}]},
                 "traffic":{"load":100,"podCapacity":28,"endpointDelaySeconds":1,"preStopSleepSeconds":5}},
        "actions":[
        {"round":0,"type":"create","deployment":{"name":"web","replicas":4,"image":"nginx:1.14.2",
         "strategy":{"type":"RollingUpdate","maxSurge":"25%","maxUnavailable":"25%"}}},
        {"round":20,"type":"setImage","image":"nginx:1.16.1"}]}"#,
    ),
    steps: &[
        ask(
            Moment::Action("setImage"),
            Some(Highlight::BudgetAvailable),
            "The Service gets {load} requests a second and a pod serves at most {podCapacity}: {replicas} pods serve them all. `kubectl set image` starts a rolling update with maxSurge {surgeSpec} and maxUnavailable {unavailableSpec}, which is {maxUnavailable} of {replicas} pods: at least {minAvailable} must stay available. The pods have a readiness probe and a preStop sleep, so no request goes to an app that is booting or gone.",
            "How many requests will fail during this rolling update?",
            Ask::FailedRequests,
        ),
        lit(
            Moment::RequestsFail,
            Highlight::Service,
            "Requests fail: {why}. The Available gauge is within its limit: maxUnavailable counts pods, the users count requests.",
        ),
        lit(
            Moment::RolloutComplete,
            Highlight::Requests,
            "`kubectl rollout status`: {status}. {failedAfter:setImage} requests failed, and in the worst second {lowestServedAfter:setImage} of the load was served. The same rollout with maxUnavailable {setting:maxUnavailable=0} keeps {replicas} pods serving throughout and adds one at a time: {failedAfter:setImage/maxUnavailable=0} failed, {lowestServedAfter:setImage/maxUnavailable=0} served at worst.",
        ),
    ],
};

const LESSONS: &[Lesson] = &[
    BASICS,
    ROLLING,
    SURGE,
    MIN_READY,
    BAD_IMAGE,
    CRASH_LOOP,
    LIVENESS_VS_READINESS,
    READINESS,
    GRACEFUL,
    UNAVAILABLE_REQUESTS,
    ROLLOVER,
    PROPORTIONAL,
    PAUSE,
    RECREATE,
    HISTORY,
    RS_CONTROLLER,
];

/// Every lesson, in the menu's order.
pub fn lessons() -> &'static [Lesson] {
    LESSONS
}

/// One lesson by id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The documentation page most lessons follow.
pub const DEPLOYMENTS_PAGE: &str = DEPLOYMENTS;
