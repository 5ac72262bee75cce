//! What a scenario's actions read to, and every message a bad action gets, word for word:
//! the path and serde's message a user sees, and the JSON a good action writes back. The
//! expected strings were taken from the reader as it was when actions were read by serde's
//! derive for the internally tagged `ActionKind` (`#[serde(tag = "type")]`), so a rewrite of
//! the reader keeps every message.

use rollout_core::scenario::Scenario;

/// An action, and `Ok(its JSON written back)` or `Err((path, message))`.
type Case = (
    &'static str,
    Result<&'static str, (&'static str, &'static str)>,
);

fn cases() -> Vec<Case> {
    vec![
        (r#"5"#, Err(("actions[0]", "an action must be a JSON object"))),
        (r#""x""#, Err(("actions[0]", "an action must be a JSON object"))),
        (r#"[]"#, Err(("actions[0]", "an action must be a JSON object"))),
        (r#"{}"#, Err(("actions[0]", "missing field `round`"))),
        (r#"{"type":"setImage","image":"a"}"#, Err(("actions[0]", "missing field `round`"))),
        (r#"{"round":-1,"type":"setImage","image":"a"}"#, Err(("actions[0]", "round: invalid value: integer `-1`, expected u32"))),
        (r#"{"round":"1","type":"setImage","image":"a"}"#, Err(("actions[0]", "round: invalid type: string \"1\", expected u32"))),
        (r#"{"round":1.5,"type":"setImage","image":"a"}"#, Err(("actions[0]", "round: invalid type: floating point `1.5`, expected u32"))),
        (r#"{"round":null,"type":"setImage","image":"a"}"#, Err(("actions[0]", "round: invalid type: null, expected u32"))),
        (r#"{"round":1}"#, Err(("actions[0] (round 1)", "missing field `type`"))),
        (r#"{"round":1,"image":"a"}"#, Err(("actions[0] (round 1)", "missing field `type`"))),
        (r#"{"round":1,"type":null,"image":"a"}"#, Err(("actions[0] (round 1)", "missing field `type`"))),
        (r#"{"round":1,"replicas":"x"}"#, Err(("actions[0] (round 1).replicas", "missing field `type`"))),
        (r#"{"round":1,"image":5,"zz":1}"#, Err(("actions[0] (round 1).image", "missing field `type`"))),
        (r#"{"round":1,"type":5}"#, Err(("actions[0] (round 1).type", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":true}"#, Err(("actions[0] (round 1).type", "invalid type: boolean `true`, expected a string"))),
        (r#"{"round":1,"type":["setImage"]}"#, Err(("actions[0] (round 1).type", "invalid type: sequence, expected a string"))),
        (r#"{"round":1,"type":{"a":1}}"#, Err(("actions[0] (round 1).type", "invalid type: map, expected a string"))),
        (r#"{"round":1,"type":""}"#, Err(("actions[0] (round 1)", "unknown action type ``; expected one of create, setImage, scale, pause, resume, rollback, undo, setStrategy, setMinReadySeconds, setProgressDeadlineSeconds, setRevisionHistoryLimit, setPodQuota, setPodDeletionCost, restartPod"))),
        (r#"{"round":1,"type":"SetImage","image":"a"}"#, Err(("actions[0] (round 1)", "unknown action type `SetImage`; expected one of create, setImage, scale, pause, resume, rollback, undo, setStrategy, setMinReadySeconds, setProgressDeadlineSeconds, setRevisionHistoryLimit, setPodQuota, setPodDeletionCost, restartPod"))),
        (r#"{"round":1,"type":"explode"}"#, Err(("actions[0] (round 1)", "unknown action type `explode`; expected one of create, setImage, scale, pause, resume, rollback, undo, setStrategy, setMinReadySeconds, setProgressDeadlineSeconds, setRevisionHistoryLimit, setPodQuota, setPodDeletionCost, restartPod"))),
        (r#"{"round":1,"type":"set_image","image":"a"}"#, Err(("actions[0] (round 1)", "unknown action type `set_image`; expected one of create, setImage, scale, pause, resume, rollback, undo, setStrategy, setMinReadySeconds, setProgressDeadlineSeconds, setRevisionHistoryLimit, setPodQuota, setPodDeletionCost, restartPod"))),
        (r#"{"round":1,"type":"create"}"#, Err(("actions[0] (round 1)", "missing field `deployment`"))),
        (r#"{"round":1,"type":"create","deployment":5}"#, Err(("actions[0] (round 1).deployment", "invalid type: integer `5`, expected a map"))),
        (r#"{"round":1,"type":"create","deployment":"web"}"#, Err(("actions[0] (round 1).deployment", "invalid type: string \"web\", expected a map"))),
        (r#"{"round":1,"type":"create","deployment":[]}"#, Err(("actions[0] (round 1).deployment", "invalid type: sequence, expected a map"))),
        (r#"{"round":1,"type":"create","deployment":{}}"#, Err(("actions[0] (round 1).deployment", "missing field `name`"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web"}}"#, Err(("actions[0] (round 1).deployment", "missing field `image`"))),
        (r#"{"round":1,"type":"create","deployment":{"image":"a"}}"#, Err(("actions[0] (round 1).deployment", "missing field `name`"))),
        (r#"{"round":1,"type":"create","deployment":{"name":5,"image":"a"}}"#, Err(("actions[0] (round 1).deployment.name", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":"create","deployment":{"name":null,"image":"a"}}"#, Err(("actions[0] (round 1).deployment.name", "invalid type: null, expected a string"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","replicas":null}}"#, Ok("{\"round\":1,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"image\":\"a\"}}")),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","replicas":"3"}}"#, Err(("actions[0] (round 1).deployment.replicas", "invalid type: string \"3\", expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","replicas":3.0}}"#, Err(("actions[0] (round 1).deployment.replicas", "invalid type: floating point `3.0`, expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","replicas":3000000000}}"#, Err(("actions[0] (round 1).deployment.replicas", "invalid value: integer `3000000000`, expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","replicas":-3000000000}}"#, Err(("actions[0] (round 1).deployment.replicas", "invalid value: integer `-3000000000`, expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","replicas":true}}"#, Err(("actions[0] (round 1).deployment.replicas", "invalid type: boolean `true`, expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","paused":"yes"}}"#, Err(("actions[0] (round 1).deployment.paused", "invalid type: string \"yes\", expected a boolean"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","imagee":"b"}}"#, Err(("actions[0] (round 1).deployment", "unknown field `imagee`, expected one of `name`, `replicas`, `image`, `strategy`, `minReadySeconds`, `progressDeadlineSeconds`, `revisionHistoryLimit`, `paused`, `selector`, `templateLabels`"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","selector":{"app":5}}}"#, Err(("actions[0] (round 1).deployment", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","selector":[]}}"#, Err(("actions[0] (round 1).deployment", "invalid type: sequence, expected a map"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","templateLabels":"x"}}"#, Err(("actions[0] (round 1).deployment", "invalid type: string \"x\", expected a map"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","minReadySeconds":1.5}}"#, Err(("actions[0] (round 1).deployment.minReadySeconds", "invalid type: floating point `1.5`, expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","progressDeadlineSeconds":-1e10}}"#, Err(("actions[0] (round 1).deployment.progressDeadlineSeconds", "invalid type: floating point `-10000000000.0`, expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","revisionHistoryLimit":"x"}}"#, Err(("actions[0] (round 1).deployment.revisionHistoryLimit", "invalid type: string \"x\", expected i32"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":5}}"#, Err(("actions[0] (round 1).deployment.strategy", "invalid type: integer `5`, expected struct StrategyInput"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":{"type":3}}}"#, Err(("actions[0] (round 1).deployment", "invalid type: integer `3`, expected a string"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":{"tipe":"Recreate"}}}"#, Err(("actions[0] (round 1).deployment", "unknown field `tipe`, expected one of `type`, `maxSurge`, `maxUnavailable`, `withRollingUpdate`"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":{"type":"RollingUpdate","maxSurge":1.5}}}"#, Err(("actions[0] (round 1).deployment.strategy.maxSurge (spec.strategy.rollingUpdate.maxSurge)", "invalid type: floating point `1.5`, expected a 32-bit integer or a percentage such as \"25%\""))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":{"maxUnavailable":true}}}"#, Err(("actions[0] (round 1).deployment.strategy.maxUnavailable (spec.strategy.rollingUpdate.maxUnavailable)", "invalid type: boolean `true`, expected a 32-bit integer or a percentage such as \"25%\""))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":{"maxUnavailable":4294967296}}}"#, Err(("actions[0] (round 1).deployment.strategy.maxUnavailable (spec.strategy.rollingUpdate.maxUnavailable)", "invalid value: integer `4294967296`, expected a 32-bit integer or a percentage such as \"25%\""))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":{"withRollingUpdate":1}}}"#, Err(("actions[0] (round 1).deployment", "invalid type: integer `1`, expected a boolean"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a","strategy":null}}"#, Ok("{\"round\":1,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"image\":\"a\"}}")),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a"},"name":"x"}"#, Err(("actions[0] (round 1)", "unknown field `name`, expected `deployment`"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":"a"},"x":1,"y":2}"#, Err(("actions[0] (round 1)", "unknown field `x`, expected `deployment`"))),
        (r#"{"round":1,"type":"create","deployment":{"name":"web","image":5,"replicas":"x","zz":1}}"#, Err(("actions[0] (round 1).deployment.image", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":"setImage"}"#, Err(("actions[0] (round 1)", "missing field `image`"))),
        (r#"{"round":1,"type":"setImage","image":5}"#, Err(("actions[0] (round 1).image", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":"setImage","image":null}"#, Err(("actions[0] (round 1)", "missing field `image`"))),
        (r#"{"round":1,"type":"setImage","image":"a","name":5}"#, Err(("actions[0] (round 1).name", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":"setImage","image":"a","name":[]}"#, Err(("actions[0] (round 1).name", "invalid type: sequence, expected a string"))),
        (r#"{"round":1,"type":"setImage","imagee":"b"}"#, Err(("actions[0] (round 1)", "unknown field `imagee`, expected `name` or `image`"))),
        (r#"{"round":1,"type":"setImage","image":"a","deployment":{"name":"x","image":"b"}}"#, Err(("actions[0] (round 1)", "unknown field `deployment`, expected `name` or `image`"))),
        (r#"{"round":1,"type":"setImage","image":"a","strategy":5}"#, Err(("actions[0] (round 1).strategy", "invalid type: integer `5`, expected a map"))),
        (r#"{"round":1,"type":"setImage","image":"a","replicas":"x"}"#, Err(("actions[0] (round 1).replicas", "unknown field `replicas`, expected `name` or `image`"))),
        (r#"{"round":1,"type":"setImage","a":1,"image":2}"#, Err(("actions[0] (round 1).image", "unknown field `a`, expected `name` or `image`"))),
        (r#"{"round":1,"type":"setImage","image":2,"z":1}"#, Err(("actions[0] (round 1).image", "invalid type: integer `2`, expected a string"))),
        (r#"{"round":1,"type":"scale"}"#, Err(("actions[0] (round 1)", "missing field `replicas`"))),
        (r#"{"round":1,"type":"scale","replicas":"x"}"#, Err(("actions[0] (round 1).replicas", "invalid type: string \"x\", expected i32"))),
        (r#"{"round":1,"type":"scale","replicas":3000000000}"#, Err(("actions[0] (round 1).replicas", "invalid value: integer `3000000000`, expected i32"))),
        (r#"{"round":1,"type":"scale","replicas":-1}"#, Ok("{\"round\":1,\"type\":\"scale\",\"replicas\":-1}")),
        (r#"{"round":1,"type":"scale","replicas":2.5}"#, Err(("actions[0] (round 1).replicas", "invalid type: floating point `2.5`, expected i32"))),
        (r#"{"round":1,"type":"scale","replicas":3,"value":1}"#, Err(("actions[0] (round 1)", "unknown field `value`, expected `name` or `replicas`"))),
        (r#"{"round":1,"type":"scale","replicas":3,"name":{}}"#, Err(("actions[0] (round 1).name", "invalid type: map, expected a string"))),
        (r#"{"round":1,"type":"pause","name":5}"#, Err(("actions[0] (round 1).name", "invalid type: integer `5`, expected a string"))),
        (r#"{"round":1,"type":"pause","image":"a"}"#, Err(("actions[0] (round 1)", "unknown field `image`, expected `name`"))),
        (r#"{"round":1,"type":"resume","name":true}"#, Err(("actions[0] (round 1).name", "invalid type: boolean `true`, expected a string"))),
        (r#"{"round":1,"type":"resume","x":1}"#, Err(("actions[0] (round 1)", "unknown field `x`, expected `name`"))),
        (r#"{"round":1,"type":"rollback"}"#, Err(("actions[0] (round 1)", "missing field `revision`"))),
        (r#"{"round":1,"type":"rollback","revision":"1"}"#, Err(("actions[0] (round 1).revision", "invalid type: string \"1\", expected i64"))),
        (r#"{"round":1,"type":"rollback","revision":1.5}"#, Err(("actions[0] (round 1).revision", "invalid type: floating point `1.5`, expected i64"))),
        (r#"{"round":1,"type":"rollback","revision":18446744073709551615}"#, Err(("actions[0] (round 1).revision", "invalid value: integer `18446744073709551615`, expected i64"))),
        (r#"{"round":1,"type":"rollback","revision":1,"toRevision":2}"#, Err(("actions[0] (round 1)", "unknown field `toRevision`, expected `name` or `revision`"))),
        (r#"{"round":1,"type":"undo","toRevision":"x"}"#, Err(("actions[0] (round 1).toRevision", "invalid type: string \"x\", expected i64"))),
        (r#"{"round":1,"type":"undo","revision":1}"#, Err(("actions[0] (round 1)", "unknown field `revision`, expected `name` or `toRevision`"))),
        (r#"{"round":1,"type":"undo","toRevision":-1.0}"#, Err(("actions[0] (round 1).toRevision", "invalid type: floating point `-1.0`, expected i64"))),
        (r#"{"round":1,"type":"setStrategy"}"#, Err(("actions[0] (round 1)", "missing field `strategy`"))),
        (r#"{"round":1,"type":"setStrategy","strategy":"Recreate"}"#, Err(("actions[0] (round 1).strategy", "invalid type: string \"Recreate\", expected a map"))),
        (r#"{"round":1,"type":"setStrategy","strategy":{"type":3}}"#, Err(("actions[0] (round 1).strategy.type", "invalid type: integer `3`, expected a string"))),
        (r#"{"round":1,"type":"setStrategy","strategy":{"type":"Recreate","x":1}}"#, Err(("actions[0] (round 1).strategy", "unknown field `x`, expected one of `type`, `maxSurge`, `maxUnavailable`, `withRollingUpdate`"))),
        (r#"{"round":1,"type":"setStrategy","strategy":{"maxSurge":1.5}}"#, Err(("actions[0] (round 1).strategy.maxSurge (spec.strategy.rollingUpdate.maxSurge)", "invalid type: floating point `1.5`, expected a 32-bit integer or a percentage such as \"25%\""))),
        (r#"{"round":1,"type":"setStrategy","strategy":{"maxSurge":"25%","maxUnavailable":[1]}}"#, Err(("actions[0] (round 1).strategy.maxUnavailable (spec.strategy.rollingUpdate.maxUnavailable)", "invalid type: sequence, expected a 32-bit integer or a percentage such as \"25%\""))),
        (r#"{"round":1,"type":"setStrategy","strategy":{"type":"Recreate"},"value":1}"#, Err(("actions[0] (round 1)", "unknown field `value`, expected `name` or `strategy`"))),
        (r#"{"round":1,"type":"setMinReadySeconds"}"#, Err(("actions[0] (round 1)", "missing field `value`"))),
        (r#"{"round":1,"type":"setMinReadySeconds","value":"5"}"#, Err(("actions[0] (round 1).value", "invalid type: string \"5\", expected i32"))),
        (r#"{"round":1,"type":"setMinReadySeconds","value":5,"seconds":5}"#, Err(("actions[0] (round 1)", "unknown field `seconds`, expected `name` or `value`"))),
        (r#"{"round":1,"type":"setProgressDeadlineSeconds","value":1e3}"#, Err(("actions[0] (round 1).value", "invalid type: floating point `1000.0`, expected i32"))),
        (r#"{"round":1,"type":"setProgressDeadlineSeconds"}"#, Err(("actions[0] (round 1)", "missing field `value`"))),
        (r#"{"round":1,"type":"setRevisionHistoryLimit","value":-5000000000}"#, Err(("actions[0] (round 1).value", "invalid value: integer `-5000000000`, expected i32"))),
        (r#"{"round":1,"type":"setRevisionHistoryLimit","limit":2}"#, Err(("actions[0] (round 1)", "unknown field `limit`, expected `name` or `value`"))),
        (r#"{"round":1,"type":"setPodDeletionCost"}"#, Err(("actions[0] (round 1)", "missing field `pod`"))),
        (r#"{"round":1,"type":"setPodDeletionCost","pod":"p","value":"x"}"#, Err(("actions[0] (round 1).value", "invalid type: string \"x\", expected i32"))),
        (r#"{"round":1,"type":"setPodDeletionCost","value":1}"#, Err(("actions[0] (round 1)", "missing field `pod`"))),
        (r#"{"round":1,"type":"setPodDeletionCost","pod":1,"value":1}"#, Err(("actions[0] (round 1).pod", "invalid type: integer `1`, expected a string"))),
        (r#"{"round":1,"type":"setPodDeletionCost","pod":"p","name":"web"}"#, Err(("actions[0] (round 1)", "unknown field `name`, expected `pod` or `value`"))),
        (r#"{"round":1,"type":"restartPod"}"#, Err(("actions[0] (round 1)", "missing field `pod`"))),
        (r#"{"round":1,"type":"restartPod","pod":"p","x":1}"#, Err(("actions[0] (round 1)", "unknown field `x`, expected `pod`"))),
        (r#"{"round":1,"type":"restartPod","pod":["p"]}"#, Err(("actions[0] (round 1).pod", "invalid type: sequence, expected a string"))),
        (r#"{"round":1,"type":"setPodQuota","value":"x"}"#, Err(("actions[0] (round 1).value", "invalid type: string \"x\", expected i32"))),
        (r#"{"round":1,"type":"setPodQuota","quota":3}"#, Err(("actions[0] (round 1)", "unknown field `quota`, expected `value`"))),
        (r#"{"round":1,"type":"setPodQuota","value":1,"name":"web"}"#, Err(("actions[0] (round 1)", "unknown field `name`, expected `value`"))),
        (r#"{"round":0,"type":"create","deployment":{"name":"web","image":"a"}}"#, Ok("{\"round\":0,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"image\":\"a\"}}")),
        (r#"{"round":0,"type":"create","deployment":{"templateLabels":{"app":"w","t":"x"},"selector":{"app":"w"},"paused":true,"revisionHistoryLimit":3,"progressDeadlineSeconds":60,"minReadySeconds":2,"strategy":{"withRollingUpdate":true,"maxUnavailable":"10%","maxSurge":2,"type":"RollingUpdate"},"image":"a","replicas":3,"name":"web"}}"#, Ok("{\"round\":0,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"replicas\":3,\"image\":\"a\",\"strategy\":{\"type\":\"RollingUpdate\",\"maxSurge\":2,\"maxUnavailable\":\"10%\",\"withRollingUpdate\":true},\"minReadySeconds\":2,\"progressDeadlineSeconds\":60,\"revisionHistoryLimit\":3,\"paused\":true,\"selector\":{\"app\":\"w\"},\"templateLabels\":{\"app\":\"w\",\"t\":\"x\"}}}")),
        (r#"{"round":0,"type":"create","deployment":{"name":"web","image":"a","strategy":{"type":"Recreate"}}}"#, Ok("{\"round\":0,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"image\":\"a\",\"strategy\":{\"type\":\"Recreate\"}}}")),
        (r#"{"round":0,"type":"create","deployment":{"name":"web","image":"a","strategy":{"maxSurge":2.0}}}"#, Ok("{\"round\":0,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"image\":\"a\",\"strategy\":{\"maxSurge\":2}}}")),
        (r#"{"round":0,"type":"create","deployment":{"name":"web","image":"a","strategy":{}}}"#, Ok("{\"round\":0,\"type\":\"create\",\"deployment\":{\"name\":\"web\",\"image\":\"a\",\"strategy\":{}}}")),
        (r#"{"round":2,"type":"setImage","image":"b"}"#, Ok("{\"round\":2,\"type\":\"setImage\",\"image\":\"b\"}")),
        (r#"{"round":2,"image":"b","name":"web","type":"setImage"}"#, Ok("{\"round\":2,\"type\":\"setImage\",\"name\":\"web\",\"image\":\"b\"}")),
        (r#"{"round":2,"type":"setImage","image":"b","name":null}"#, Ok("{\"round\":2,\"type\":\"setImage\",\"image\":\"b\"}")),
        (r#"{"round":3,"type":"scale","replicas":0}"#, Ok("{\"round\":3,\"type\":\"scale\",\"replicas\":0}")),
        (r#"{"round":3,"type":"scale","replicas":5,"name":"web"}"#, Ok("{\"round\":3,\"type\":\"scale\",\"name\":\"web\",\"replicas\":5}")),
        (r#"{"round":4,"type":"pause"}"#, Ok("{\"round\":4,\"type\":\"pause\"}")),
        (r#"{"round":4,"type":"pause","name":"web"}"#, Ok("{\"round\":4,\"type\":\"pause\",\"name\":\"web\"}")),
        (r#"{"round":5,"type":"resume"}"#, Ok("{\"round\":5,\"type\":\"resume\"}")),
        (r#"{"round":5,"type":"resume","name":"web"}"#, Ok("{\"round\":5,\"type\":\"resume\",\"name\":\"web\"}")),
        (r#"{"round":6,"type":"rollback","revision":0}"#, Ok("{\"round\":6,\"type\":\"rollback\",\"revision\":0}")),
        (r#"{"round":6,"type":"rollback","revision":2,"name":"web"}"#, Ok("{\"round\":6,\"type\":\"rollback\",\"name\":\"web\",\"revision\":2}")),
        (r#"{"round":7,"type":"undo"}"#, Ok("{\"round\":7,\"type\":\"undo\"}")),
        (r#"{"round":7,"type":"undo","toRevision":0}"#, Ok("{\"round\":7,\"type\":\"undo\"}")),
        (r#"{"round":7,"type":"undo","toRevision":3,"name":"web"}"#, Ok("{\"round\":7,\"type\":\"undo\",\"name\":\"web\",\"toRevision\":3}")),
        (r#"{"round":8,"type":"setStrategy","strategy":{"type":"Recreate"}}"#, Ok("{\"round\":8,\"type\":\"setStrategy\",\"strategy\":{\"type\":\"Recreate\"}}")),
        (r#"{"round":8,"type":"setStrategy","strategy":{"maxSurge":"50%","maxUnavailable":0},"name":"web"}"#, Ok("{\"round\":8,\"type\":\"setStrategy\",\"name\":\"web\",\"strategy\":{\"maxSurge\":\"50%\",\"maxUnavailable\":0}}")),
        (r#"{"round":9,"type":"setMinReadySeconds","value":5}"#, Ok("{\"round\":9,\"type\":\"setMinReadySeconds\",\"value\":5}")),
        (r#"{"round":9,"type":"setMinReadySeconds","value":5,"name":"web"}"#, Ok("{\"round\":9,\"type\":\"setMinReadySeconds\",\"name\":\"web\",\"value\":5}")),
        (r#"{"round":10,"type":"setProgressDeadlineSeconds","value":30}"#, Ok("{\"round\":10,\"type\":\"setProgressDeadlineSeconds\",\"value\":30}")),
        (r#"{"round":10,"type":"setProgressDeadlineSeconds","value":30,"name":"web"}"#, Ok("{\"round\":10,\"type\":\"setProgressDeadlineSeconds\",\"name\":\"web\",\"value\":30}")),
        (r#"{"round":11,"type":"setRevisionHistoryLimit","value":0}"#, Ok("{\"round\":11,\"type\":\"setRevisionHistoryLimit\",\"value\":0}")),
        (r#"{"round":11,"type":"setRevisionHistoryLimit","value":2,"name":"web"}"#, Ok("{\"round\":11,\"type\":\"setRevisionHistoryLimit\",\"name\":\"web\",\"value\":2}")),
        (r#"{"round":12,"type":"setPodDeletionCost","pod":"web-abc-1","value":-3}"#, Ok("{\"round\":12,\"type\":\"setPodDeletionCost\",\"pod\":\"web-abc-1\",\"value\":-3}")),
        (r#"{"round":12,"type":"setPodDeletionCost","pod":"web-abc-1"}"#, Ok("{\"round\":12,\"type\":\"setPodDeletionCost\",\"pod\":\"web-abc-1\"}")),
        (r#"{"round":12,"type":"setPodDeletionCost","pod":"web-abc-1","value":null}"#, Ok("{\"round\":12,\"type\":\"setPodDeletionCost\",\"pod\":\"web-abc-1\"}")),
        (r#"{"round":13,"type":"restartPod","pod":"web-abc-1"}"#, Ok("{\"round\":13,\"type\":\"restartPod\",\"pod\":\"web-abc-1\"}")),
        (r#"{"round":14,"type":"setPodQuota","value":4}"#, Ok("{\"round\":14,\"type\":\"setPodQuota\",\"value\":4}")),
        (r#"{"round":14,"type":"setPodQuota"}"#, Ok("{\"round\":14,\"type\":\"setPodQuota\"}")),
        (r#"{"round":14,"type":"setPodQuota","value":null}"#, Ok("{\"round\":14,\"type\":\"setPodQuota\"}")),
    ]
}

#[test]
fn actions_read_and_fail_as_before() {
    let mut wrong = Vec::new();
    for (action, expected) in cases() {
        let got = Scenario::from_json(&format!(r#"{{"actions":[{action}]}}"#))
            .map(|s| s.actions[0].clone())
            .map_err(|e| (e.path, e.message));
        let same = match (&got, &expected) {
            (Ok(a), Ok(json)) => {
                serde_json::to_string(a).unwrap() == *json
                    && serde_json::to_value(a).unwrap()
                        == serde_json::from_str::<serde_json::Value>(json).unwrap()
            }
            (Err((path, message)), Err((p, m))) => path == p && message == m,
            _ => false,
        };
        if !same {
            wrong.push(format!("{action}\n  expected {expected:?}\n  got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
