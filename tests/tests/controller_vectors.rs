//! The function tables of `vectors/`: each helper of the controllers, called on the inputs the
//! real Kubernetes functions were called on, must give the same outputs.

use rollout_core::api::{
    Deployment, DeploymentStrategy, IntOrString, ObjectMeta, OwnerReference, PodPhase, PodTemplate,
    ReplicaSet, ReplicaSetSpec, ReplicaSetStatus, DESIRED_REPLICAS_ANNOTATION,
    MAX_REPLICAS_ANNOTATION, REVISION_ANNOTATION,
};
use rollout_core::deployment::util;
use rollout_core::deployment::DeploymentController;
use rollout_core::record::Recorder;
use rollout_core::replicaset::ranking::{self, RankedPod};
use rollout_core::replicaset::slow_start_batch;
use rollout_core::scenario::{DeploymentInput, StrategyInput};
use rollout_core::store::ApiServer;
use rollout_tests::read_json;
use serde_json::Value;
use std::sync::Arc;

fn int_or_string(v: &Value) -> Option<IntOrString> {
    match v {
        Value::Null => None,
        other => Some(serde_json::from_value(other.clone()).expect("int or string")),
    }
}

fn i32_of(v: &Value) -> i32 {
    v.as_i64().expect("integer") as i32
}

fn deployment(replicas: i32, strategy: DeploymentStrategy) -> Deployment {
    let mut d = DeploymentInput {
        name: "web".into(),
        replicas: Some(replicas),
        image: "nginx:1.14".into(),
        ..Default::default()
    }
    .to_deployment();
    d.spec.strategy = strategy;
    d
}

fn rolling(surge: Option<IntOrString>, unavailable: Option<IntOrString>) -> DeploymentStrategy {
    DeploymentStrategy::RollingUpdate {
        max_surge: surge,
        max_unavailable: unavailable,
    }
}

fn replica_set(name: &str, replicas: i32) -> ReplicaSet {
    ReplicaSet {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        spec: ReplicaSetSpec {
            replicas,
            min_ready_seconds: 0,
            selector: Default::default(),
            template: PodTemplate::default(),
        },
        status: ReplicaSetStatus::default(),
    }
}

/// Runs every case, collecting mismatches, and fails listing them.
fn check_cases(file: &str, key: &str, check: impl Fn(&Value, &Value) -> Result<(), String>) {
    let doc = read_json(&format!("vectors/{file}"));
    let cases = doc[key]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: no {key}"));
    assert!(!cases.is_empty(), "{file}: {key} is empty");
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            check(&c["input"], &c["expected"])
                .err()
                .map(|e| format!("case {i}: {e}\n  input {}", c["input"]))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{file} {key}: {} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}

#[test]
fn resolve_fenceposts_and_max_surge_unavailable_min_available() {
    check_cases("resolve_fenceposts.json", "cases", |input, want| {
        let surge = int_or_string(&input["maxSurge"]);
        let unavailable = int_or_string(&input["maxUnavailable"]);
        let desired = i32_of(&input["desired"]);
        match util::resolve_fenceposts(surge.as_ref(), unavailable.as_ref(), desired) {
            Ok((s, u)) => {
                expect_eq("error", Value::Null, want["error"].clone())?;
                expect_eq("surge", s, i32_of(&want["surge"]))?;
                expect_eq("unavailable", u, i32_of(&want["unavailable"]))?;
            }
            Err(e) => return expect_eq("error", Value::String(e), want["error"].clone()),
        }
        let d = deployment(desired, rolling(surge, unavailable));
        expect_eq("MaxSurge", util::max_surge(&d), i32_of(&want["MaxSurge"]))?;
        expect_eq(
            "MaxUnavailable",
            util::max_unavailable(&d),
            i32_of(&want["MaxUnavailable"]),
        )?;
        expect_eq(
            "MinAvailable",
            util::min_available(&d),
            i32_of(&want["MinAvailable"]),
        )
    });
    check_cases("resolve_fenceposts.json", "recreateCases", |input, want| {
        let d = deployment(i32_of(&input["desired"]), DeploymentStrategy::Recreate);
        expect_eq("MaxSurge", util::max_surge(&d), i32_of(&want["MaxSurge"]))?;
        expect_eq(
            "MaxUnavailable",
            util::max_unavailable(&d),
            i32_of(&want["MaxUnavailable"]),
        )?;
        expect_eq(
            "MinAvailable",
            util::min_available(&d),
            i32_of(&want["MinAvailable"]),
        )
    });
}

#[test]
fn new_rs_new_replicas() {
    check_cases("new_rs_new_replicas.json", "cases", |input, want| {
        let strategy = match input["strategy"].as_str() {
            Some("Recreate") => DeploymentStrategy::Recreate,
            _ => rolling(int_or_string(&input["maxSurge"]), Some(IntOrString::Int(1))),
        };
        let d = deployment(i32_of(&input["replicas"]), strategy);
        let old = Arc::new(replica_set("old", i32_of(&input["oldRSsSpecReplicasSum"])));
        let new = Arc::new(replica_set("new", i32_of(&input["newRSSpecReplicas"])));
        let got = util::new_rs_new_replicas(&d, &[old, Arc::clone(&new)], &new)
            .map(|a| a.new_replicas)
            .map_err(|e| e.to_string());
        match got {
            Ok(n) => {
                expect_eq("error", Value::Null, want["error"].clone())?;
                expect_eq("newReplicas", n, i32_of(&want["newReplicas"]))
            }
            Err(e) => expect_eq("error", Value::String(e), want["error"].clone()),
        }
    });
}

#[test]
fn get_proportion() {
    check_cases("get_proportion.json", "cases", |input, want| {
        let mut d = deployment(
            i32_of(&input["deploymentReplicas"]),
            rolling(int_or_string(&input["maxSurge"]), Some(IntOrString::Int(1))),
        );
        d.status.replicas = i32_of(&input["deploymentStatusReplicas"]);
        let mut rs = replica_set("rs", i32_of(&input["rsSpecReplicas"]));
        if let Some(max) = input["maxReplicasAnnotation"].as_i64() {
            rs.metadata
                .annotations
                .insert(MAX_REPLICAS_ANNOTATION.into(), max.to_string());
        }
        let got = util::get_proportion(
            &rs,
            &d,
            i32_of(&input["deploymentReplicasToAdd"]),
            i32_of(&input["deploymentReplicasAdded"]),
        );
        expect_eq("proportion", got, i32_of(&want["proportion"]))
    });
}

#[test]
fn slow_start_batch_sizes_and_failures() {
    check_cases("slow_start_batch.json", "cases", |input, want| {
        let fail_from = input["failFromCall"].as_i64().unwrap();
        let mut calls = 0i64;
        let out = slow_start_batch(
            input["count"].as_u64().unwrap() as usize,
            input["initialBatchSize"].as_u64().unwrap() as usize,
            || {
                let i = calls;
                calls += 1;
                if fail_from >= 0 && i >= fail_from {
                    Err("boom".to_string())
                } else {
                    Ok(())
                }
            },
        );
        let want_batches: Vec<usize> = serde_json::from_value(want["batchSizes"].clone()).unwrap();
        expect_eq("batchSizes", out.batch_sizes, want_batches)?;
        expect_eq("calls", calls, want["calls"].as_i64().unwrap())?;
        expect_eq(
            "successes",
            out.successes as i64,
            want["successes"].as_i64().unwrap(),
        )?;
        expect_eq(
            "error",
            out.error.is_some(),
            want["error"].as_bool().unwrap(),
        )
    });
}

const NOW: i64 = 1_000_000;

fn ranked_pod(p: &Value, rank: usize) -> RankedPod {
    let phase = match p["phase"].as_str().unwrap() {
        "Pending" => PodPhase::Pending,
        "Running" => PodPhase::Running,
        "Unknown" => PodPhase::Unknown,
        "Succeeded" => PodPhase::Succeeded,
        other => panic!("phase {other}"),
    };
    RankedPod {
        name: p["name"].as_str().unwrap().into(),
        node_name: p["nodeName"].as_str().unwrap().into(),
        phase,
        ready: p["ready"].as_bool().unwrap(),
        ready_time: p["readyAgeSeconds"].as_i64().map(|a| NOW - a),
        deletion_cost: p["deletionCost"].as_i64().unwrap_or(0) as i32,
        rank,
        restart_count: i32_of(&p["restartCount"]),
        creation_time: NOW - p["creationAgeSeconds"].as_i64().unwrap(),
        uid: p["uid"].as_str().unwrap().into(),
    }
}

fn names(pods: &[RankedPod]) -> Vec<String> {
    pods.iter().map(|p| p.name.clone()).collect()
}

fn want_names(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).unwrap()
}

#[test]
fn pod_deletion_ranking_picks_the_same_pods() {
    check_cases(
        "pod_deletion_ranking.json",
        "rankingCases",
        |input, want| {
            let filtered = input["filteredPods"].as_array().unwrap();
            let others = input["relatedOtherPods"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let is_active =
                |p: &Value| !matches!(p["phase"].as_str(), Some("Succeeded" | "Failed"));
            let on_node = ranking::active_pods_per_node(
                filtered
                    .iter()
                    .chain(others.iter())
                    .map(|p| (p["nodeName"].as_str().unwrap(), is_active(p))),
            );
            let pods: Vec<RankedPod> = filtered
                .iter()
                .map(|p| {
                    let rank = on_node.get(p["nodeName"].as_str().unwrap());
                    ranked_pod(p, rank)
                })
                .collect();
            let diff = input["diff"].as_u64().unwrap() as usize;
            let got = ranking::get_pods_to_delete(&pods, diff, NOW);
            expect_eq(
                "podsToDelete",
                names(&got),
                want_names(&want["podsToDelete"]),
            )
        },
    );
}

#[test]
fn active_pods_with_ranks_sorts_the_same() {
    check_cases("pod_deletion_ranking.json", "sortCases", |input, want| {
        let ranks = input["ranks"].as_array().unwrap();
        let mut pods: Vec<RankedPod> = input["pods"]
            .as_array()
            .unwrap()
            .iter()
            .zip(ranks)
            .map(|(p, r)| ranked_pod(p, r.as_u64().unwrap() as usize))
            .collect();
        ranking::sort_pods(&mut pods, NOW);
        expect_eq("sorted", names(&pods), want_names(&want["sorted"]))
    });
}

#[test]
fn proportional_scaling_sync() {
    check_cases("proportional_scaling_sync.json", "cases", |input, want| {
        let surge = int_or_string(&input["maxSurge"]);
        let unavailable = int_or_string(&input["maxUnavailable"]);
        let old_desired = i32_of(&input["oldDesired"]);
        let new_desired = i32_of(&input["newDesired"]);
        let sizes: Vec<i32> = serde_json::from_value(input["sizes"].clone()).unwrap();
        let new_is_last = input["newIsLast"].as_bool().unwrap();

        let mut api = ApiServer::new();
        let mut d = DeploymentInput {
            name: "web".into(),
            replicas: Some(old_desired),
            image: if new_is_last {
                format!("img:{}", sizes.len())
            } else {
                "img:other".into()
            },
            strategy: Some(StrategyInput {
                type_: Some("RollingUpdate".into()),
                max_surge: surge.clone(),
                max_unavailable: unavailable.clone(),
                with_rolling_update: None,
            }),
            ..Default::default()
        }
        .to_deployment();
        let old_max = old_desired + util::max_surge(&d);
        d = (*api.create_deployment(d).unwrap()).clone();
        for (i, size) in sizes.iter().enumerate() {
            api.set_now(i as i64 + 1);
            let mut rs = replica_set(&format!("web-rev{}", i + 1), *size);
            rs.spec.template = PodTemplate {
                labels: d.spec.template.labels.clone(),
                image: format!("img:{}", i + 1),
            };
            rs.metadata.owner = Some(OwnerReference {
                kind: "Deployment".into(),
                name: "web".into(),
                uid: d.metadata.uid,
            });
            for (k, v) in [
                (DESIRED_REPLICAS_ANNOTATION, old_desired.to_string()),
                (MAX_REPLICAS_ANNOTATION, old_max.to_string()),
                (REVISION_ANNOTATION, (i + 1).to_string()),
            ] {
                rs.metadata.annotations.insert(k.into(), v);
            }
            let created = api.create_replica_set(rs).unwrap();
            let mut with_status = (*created).clone();
            with_status.status = ReplicaSetStatus {
                replicas: *size,
                fully_labeled_replicas: *size,
                ready_replicas: *size,
                available_replicas: *size,
                terminating_replicas: None,
                observed_generation: 1,
                conditions: vec![],
            };
            api.update_replica_set_status(&with_status).unwrap();
        }
        api.set_now(100);
        d.status.replicas = sizes.iter().sum();
        d.metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), sizes.len().to_string());
        api.update_deployment_status(&d).unwrap();
        let mut scaled = d.clone();
        scaled.spec.replicas = new_desired;
        api.update_deployment(&scaled).unwrap();

        let mut rec = Recorder::default();
        let result = DeploymentController::new(&mut api, &mut rec).sync_deployment("web");
        expect_eq(
            "error",
            result.err().map(Value::String).unwrap_or(Value::Null),
            want["error"].clone(),
        )?;
        let events: Vec<Value> = rec
            .events
            .iter()
            .map(|e| serde_json::json!({"message": e.message, "reason": e.reason, "type": e.type_}))
            .collect();
        expect_eq("events", Value::Array(events), want["events"].clone())?;
        let mut rss: Vec<_> = api.replica_sets().cloned().collect();
        rss.sort_by(|a, b| util::by_creation_timestamp(a, b));
        let got: Vec<Value> = rss
            .iter()
            .map(|rs| {
                serde_json::json!({
                    "desiredReplicasAnnotation": rs.metadata.annotations.get(DESIRED_REPLICAS_ANNOTATION),
                    "maxReplicasAnnotation": rs.metadata.annotations.get(MAX_REPLICAS_ANNOTATION),
                    "name": rs.metadata.name,
                    "specReplicas": rs.spec.replicas,
                })
            })
            .collect();
        expect_eq(
            "replicaSets",
            Value::Array(got),
            want["replicaSets"].clone(),
        )
    });
}
