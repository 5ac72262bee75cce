//! Inside one ReplicaSet controller sync (`manageReplicas`): the expectations it left, the
//! slow-start batches of its creates, and for every pod it deleted the ranking
//! (`ActivePodsWithRanks`) that chose that pod over the first pod it kept.

use rollout_facade::api::Time;
use rollout_facade::report::{log_bucket, Criterion, RankedPod};
use rollout_facade::report::{
    DeletionReason, Expectations, ManageReport, SlowStart, BURST_REPLICAS,
};
use std::rc::Rc;
use yew::prelude::*;

/// What [`replica_set_internals`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct ReplicaSetInternalsProps {
    /// The ReplicaSet's name.
    pub name: AttrValue,
    /// What its last `manageReplicas` did (`StepRecord::manage` of a SyncReplicaSet step);
    /// `None` when it did not sync in this step.
    pub report: Option<Rc<ManageReport>>,
    /// The simulated time of the sync (`StepRecord::time`): ages and log buckets are taken
    /// from it.
    pub now: Time,
}

/// The criterion's name and its rule, as a table row heading.
fn criterion_name(c: Criterion) -> (&'static str, &'static str) {
    match c {
        Criterion::Unassigned => ("Scheduled", "unscheduled goes first"),
        Criterion::Phase => ("Phase", "Pending < Unknown < Running"),
        Criterion::Readiness => ("Readiness", "not ready goes first"),
        Criterion::DeletionCost => ("pod-deletion-cost", "lower goes first"),
        Criterion::NodeRank => (
            "Pods on its node",
            "more active pods of the Deployment on the node goes first",
        ),
        Criterion::ReadyTime => (
            "Ready time",
            "ready more recently goes first, in log₂ buckets; same bucket: lower UID",
        ),
        Criterion::Restarts => ("Restarts", "more goes first"),
        Criterion::CreationTime => (
            "Creation time",
            "newer goes first, in log₂ buckets; same bucket: lower UID",
        ),
        Criterion::Tie => ("Tie", "nothing tells them apart"),
    }
}

/// The end of a UID, enough to compare two of them.
fn short_uid(uid: &str) -> &str {
    let start = uid.len().saturating_sub(6);
    &uid[start..]
}

fn seconds(t: Time) -> String {
    format!("{t} s")
}

/// What the ranking reads of `p` for criterion `c`.
fn value_of(c: Criterion, p: &RankedPod, now: Time, uid: bool) -> String {
    match c {
        Criterion::Unassigned => {
            if p.node_name.is_empty() {
                "not scheduled".into()
            } else {
                format!("on {}", p.node_name)
            }
        }
        Criterion::Phase => p.phase.as_str().into(),
        Criterion::Readiness => if p.ready { "ready" } else { "not ready" }.into(),
        Criterion::DeletionCost => p.deletion_cost.to_string(),
        Criterion::NodeRank => {
            let node = if p.node_name.is_empty() {
                "no node"
            } else {
                p.node_name.as_str()
            };
            format!("{} on {node}", p.rank)
        }
        Criterion::ReadyTime => match (p.ready, p.ready_time) {
            (true, Some(t)) => format!(
                "ready at {} · bucket {}{}",
                seconds(t),
                log_bucket(t, now),
                uid_note(p, uid)
            ),
            _ => "not ready".into(),
        },
        Criterion::Restarts => p.restart_count.to_string(),
        Criterion::CreationTime => format!(
            "created at {} · bucket {}{}",
            seconds(p.creation_time),
            log_bucket(p.creation_time, now),
            uid_note(p, uid)
        ),
        Criterion::Tie => String::new(),
    }
}

fn uid_note(p: &RankedPod, uid: bool) -> String {
    if uid {
        format!(" · uid …{}", short_uid(&p.uid))
    } else {
        String::new()
    }
}

/// Whether the criterion was settled by the UID tie-break (same log bucket).
fn by_uid(c: Criterion, a: &RankedPod, b: &RankedPod, now: Time) -> bool {
    match c {
        Criterion::ReadyTime => match (a.ready_time, b.ready_time) {
            (Some(x), Some(y)) => log_bucket(x, now) == log_bucket(y, now),
            _ => false,
        },
        Criterion::CreationTime => {
            log_bucket(a.creation_time, now) == log_bucket(b.creation_time, now)
        }
        _ => false,
    }
}

fn expectations_view(e: Option<&Expectations>, now: Time) -> Html {
    let Some(e) = e else {
        return html! {
            <div class="rsi-block rsi-expectations" data-testid="expectations" data-add="0" data-del="0">
                <h4 class="rsi-h">{ "Expectations" }</h4>
                <p class="rsi-muted">{ "None set: this sync neither created nor deleted pods." }</p>
            </div>
        };
    };
    let when = if e.set_at == now {
        format!("set at {} (this sync)", seconds(e.set_at))
    } else {
        format!("set at {}", seconds(e.set_at))
    };
    let n = |v: i64, one: &str, many: &str| plural(v.max(0) as usize, one, many);
    let what = match (e.add, e.del) {
        (0, 0) => "Expects nothing: no create or delete went through".to_string(),
        (a, 0) => format!("Expects {}", n(a, "creation", "creations")),
        (0, d) => format!("Expects {}", n(d, "deletion", "deletions")),
        (a, d) => format!(
            "Expects {} and {}",
            n(a, "creation", "creations"),
            n(d, "deletion", "deletions")
        ),
    };
    html! {
        <div class="rsi-block rsi-expectations" data-testid="expectations"
            data-add={e.add.to_string()} data-del={e.del.to_string()}>
            <h4 class="rsi-h">{ "Expectations" }</h4>
            <p class="rsi-expect">
                <span class="rsi-expect-main">{ format!("{what}, {when}") }</span>
                <span class="rsi-pills">
                    <span class="rsi-pill">{ format!("adds pending {}", e.add) }</span>
                    <span class="rsi-pill">{ format!("deletes pending {}", e.del) }</span>
                </span>
            </p>
            <p class="rsi-muted">
                { "Observed before the next sync: the simulation has no informer delay, so the \
                   ReplicaSet's next sync (the next pass of a settled round, or the next round \
                   when each hop takes a round) sees every create and delete, and " }
                <code>{ "SatisfiedExpectations" }</code>
                { " lets that sync through." }
            </p>
        </div>
    }
}

/// At most this many pods are drawn in one batch; more show as a number.
const DRAWN_PER_BATCH: usize = 16;

fn slow_start_view(s: &SlowStart, wanted: i64) -> Html {
    let batches = s.batch_sizes.len();
    let mut before = 0;
    let items = s.batch_sizes.iter().enumerate().map(|(i, &size)| {
        let failed = s.error.is_some() && i + 1 == batches;
        let created = if failed {
            s.successes.saturating_sub(before).min(size)
        } else {
            size
        };
        before += size;
        let drawn = size.min(DRAWN_PER_BATCH);
        let label = if failed {
            format!("batch {}: {size} calls, {created} created, then failed", i + 1)
        } else {
            format!("batch {}: {size} created", i + 1)
        };
        html! {
            <li class={classes!("rsi-batch", failed.then_some("rsi-batch-failed"))}
                data-testid="slow-start-batch" data-size={size.to_string()}
                data-failed={if failed { "true" } else { "false" }}
                aria-label={label}>
                <span class="rsi-batch-size">{ size }</span>
                <span class="rsi-batch-pods" aria-hidden="true">
                    { for (0..drawn).map(|k| html! {
                        <span class={classes!("rsi-dot", (k >= created).then_some("rsi-dot-failed"))} />
                    }) }
                    if size > drawn {
                        <span class="rsi-more">{ format!("+{}", size - drawn) }</span>
                    }
                </span>
                if failed {
                    <span class="rsi-batch-tag">{ "✕ failed" }</span>
                }
            </li>
        }
    });
    let calls: usize = s.batch_sizes.iter().sum();
    let sizes = s
        .batch_sizes
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" · ");
    let count = (wanted.max(0) as usize).min(BURST_REPLICAS);
    let mut summary = format!(
        "{} to create, in batches {sizes}: {} created",
        plural(count, "pod", "pods"),
        s.successes
    );
    if s.error.is_some() {
        summary.push_str(&format!(", {} refused", calls - s.successes));
        if count > calls {
            summary.push_str(&format!(", {} not tried", count - calls));
        }
    }
    if wanted > BURST_REPLICAS as i64 {
        summary.push_str(&format!(
            " (capped at burstReplicas {BURST_REPLICAS}; {wanted} wanted)"
        ));
    }
    html! {
        <div class="rsi-block rsi-slow-start" data-testid="slow-start">
            <h4 class="rsi-h">{ "Slow start" }<code class="rsi-fn">{ "slowStartBatch" }</code></h4>
            <p class="rsi-summary">{ summary }</p>
            <ol class="rsi-batches">{ for items }</ol>
            if let Some(e) = &s.error {
                <p class="rsi-error" data-testid="slow-start-error">
                    <strong>{ "FailedCreate" }</strong>{ format!(" Error creating: {e}") }
                    <span class="rsi-muted">{ " — the batch's other calls still ran; the next batches did not." }</span>
                </p>
            }
        </div>
    }
}

fn deletion_view(d: &DeletionReason, now: Time, index: usize) -> Html {
    let criterion = Criterion::id(d.criterion);
    let Some(kept) = &d.kept else {
        return html! {
            <li class="rsi-deletion rsi-all" data-testid="deletion-reason" data-criterion={criterion}
                data-pod={d.pod.name.clone()}>
                <p class="rsi-deletion-head">
                    <span class="rsi-tag">{ "deleted" }</span>
                    <strong class="rsi-pod">{ d.pod.name.clone() }</strong>
                    { " — no pod kept to compare with" }
                </p>
            </li>
        };
    };
    let decided = Criterion::ORDER.iter().position(|&c| c == d.criterion);
    let uid = by_uid(d.criterion, &d.pod, kept, now);
    let rows = Criterion::ORDER.iter().enumerate().map(|(i, &c)| {
        let (name, rule) = criterion_name(c);
        let state = match decided {
            Some(k) if i < k => "equal",
            Some(k) if i == k => "decides",
            Some(_) => "not compared",
            None => "equal",
        };
        let show_uid = uid && Some(i) == decided;
        let verdict = match state {
            "decides" if show_uid => "◀ decides (same bucket, by UID)",
            "decides" => "◀ decides",
            "equal" if c == Criterion::ReadyTime && !(d.pod.ready && kept.ready) => {
                "skipped: not both ready"
            }
            other => other,
        };
        html! {
            <tr class={classes!("rsi-row", format!("rsi-{}", state.replace(' ', "-")))}
                data-criterion={Criterion::id(c)} data-state={state}>
                <th scope="row">
                    <span class="rsi-crit-name">{ format!("{}. {name}", i + 1) }</span>
                    <span class="rsi-crit-rule">{ rule }</span>
                </th>
                <td class="rsi-val rsi-val-deleted" data-label="deleted">{ value_of(c, &d.pod, now, show_uid) }</td>
                <td class="rsi-val rsi-val-kept" data-label="kept">{ value_of(c, kept, now, show_uid) }</td>
                <td class="rsi-verdict">{ verdict }</td>
            </tr>
        }
    });
    html! {
        <li class="rsi-deletion" data-testid="deletion-reason" data-criterion={criterion}
            data-pod={d.pod.name.clone()} data-kept={kept.name.clone()}>
            <details open={index == 0}>
                <summary class="rsi-deletion-head">
                    <span class="rsi-tag">{ "deleted" }</span>
                    <strong class="rsi-pod">{ d.pod.name.clone() }</strong>
                    { " before " }
                    <strong class="rsi-pod rsi-pod-kept">{ kept.name.clone() }</strong>
                    { " (first pod kept): " }
                    <span class="rsi-because">{ d.criterion.describe() }</span>
                </summary>
                <div class="rsi-table-wrap">
                    <table class="rsi-table">
                        <caption class="rsi-sr-only">
                            { format!("ActivePodsWithRanks: {} against {}, criteria in order", d.pod.name, kept.name) }
                        </caption>
                        <thead>
                            <tr>
                                <th scope="col">{ "Criterion" }</th>
                                <th scope="col">{ "deleted" }<span class="rsi-col-pod">{ d.pod.name.clone() }</span></th>
                                <th scope="col">{ "kept" }<span class="rsi-col-pod">{ kept.name.clone() }</span></th>
                                <th scope="col"><span class="rsi-sr-only">{ "Verdict" }</span></th>
                            </tr>
                        </thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
                if d.criterion == Criterion::Tie {
                    <p class="rsi-muted">{ "Nothing told them apart: the sort kept their order." }</p>
                }
            </details>
        </li>
    }
}

/// Deletions listed before the rest fold away.
const SHOWN_DELETIONS: usize = 5;

fn deletions_view(deletions: &[DeletionReason], now: Time) -> Html {
    let kept = deletions.first().and_then(|d| d.kept.as_ref());
    html! {
        <div class="rsi-block rsi-deletions" data-testid="deletions">
            <h4 class="rsi-h">
                { "Which pods go" }
                <code class="rsi-fn">{ "getPodsToDelete" }</code>
                <code class="rsi-fn">{ "ActivePodsWithRanks" }</code>
            </h4>
            <p class="rsi-summary">
                { match kept {
                    Some(k) => format!(
                        "{} deleted. Each is compared with {}, the first pod kept; the first criterion that differs decides.",
                        plural(deletions.len(), "pod", "pods"),
                        k.name
                    ),
                    None => format!(
                        "{} deleted: every pod goes, so none is kept and getPodsToDelete does not rank them.",
                        plural(deletions.len(), "pod", "pods")
                    ),
                } }
            </p>
            <ol class="rsi-deletion-list">
                { for deletions.iter().take(SHOWN_DELETIONS).enumerate().map(|(i, d)| deletion_view(d, now, i)) }
            </ol>
            if deletions.len() > SHOWN_DELETIONS {
                <details class="rsi-more-deletions">
                    <summary>{ format!("{} more", plural(deletions.len() - SHOWN_DELETIONS, "deleted pod", "deleted pods")) }</summary>
                    <ol class="rsi-deletion-list" start={(SHOWN_DELETIONS + 1).to_string()}>
                        { for deletions.iter().enumerate().skip(SHOWN_DELETIONS).map(|(i, d)| deletion_view(d, now, i)) }
                    </ol>
                </details>
            }
        </div>
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// One ReplicaSet's `manageReplicas`, opened up.
pub fn replica_set_internals(props: &ReplicaSetInternalsProps) -> Html {
    let body = match &props.report {
        None => html! {
            <p class="rsi-muted">{ "Not synced in this step: nothing to show." }</p>
        },
        Some(r) => {
            let diff = match r.diff {
                0 => {
                    "as many active pods as spec.replicas: nothing to create or delete".to_string()
                }
                d if d > 0 => format!("{} too few: create", plural(d as usize, "pod", "pods")),
                d => format!(
                    "{} too many: delete",
                    plural(d.unsigned_abs() as usize, "pod", "pods")
                ),
            };
            html! {
                <>
                    <p class="rsi-diff" data-testid="manage-diff" data-diff={r.diff.to_string()}>
                        <code class="rsi-fn">{ "manageReplicas" }</code>{ format!(" {diff}") }
                    </p>
                    if let Some(s) = &r.slow_start {
                        { slow_start_view(s, r.diff) }
                    }
                    if !r.deletions.is_empty() {
                        { deletions_view(&r.deletions, props.now) }
                    }
                    { expectations_view(r.expectations.as_ref(), props.now) }
                </>
            }
        }
    };
    html! {
        <section class="rsi" data-testid="rs-internals" data-replicaset={props.name.clone()}
            aria-label={format!("Inside the ReplicaSet controller: {}", props.name)}>
            <h3 class="rsi-title"><span class="rsi-kind">{ "ReplicaSet" }</span>{ props.name.clone() }</h3>
            { body }
        </section>
    }
}
