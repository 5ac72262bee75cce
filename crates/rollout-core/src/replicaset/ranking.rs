//! `controller.ActivePodsWithRanks` (pkg/controller/controller_utils.go): the order in which
//! a ReplicaSet gives up pods when it scales down, with `PodDeletionCost` and
//! `LogarithmicScaleDown` on (their v1.28 defaults).

use crate::api::{Pod, PodPhase, Time, Uid};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The criteria of `ActivePodsWithRanks.Less`, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Criterion {
    /// An unscheduled pod goes before a scheduled one.
    Unassigned,
    /// Pending < Unknown < Running.
    Phase,
    /// A not-ready pod goes before a ready one.
    Readiness,
    /// Lower `controller.kubernetes.io/pod-deletion-cost` first.
    DeletionCost,
    /// More active pods of the same Deployment on its node first.
    NodeRank,
    /// Ready more recently first, in logarithmic buckets; same bucket: by UID.
    ReadyTime,
    /// More container restarts first.
    Restarts,
    /// Created more recently first, in logarithmic buckets; same bucket: by UID.
    CreationTime,
    /// Nothing told them apart.
    Tie,
}

impl Criterion {
    /// The criteria that can tell two pods apart, in the order `ActivePodsWithRanks.Less`
    /// tries them (without [`Criterion::Tie`]).
    pub const ORDER: [Criterion; 8] = [
        Criterion::Unassigned,
        Criterion::Phase,
        Criterion::Readiness,
        Criterion::DeletionCost,
        Criterion::NodeRank,
        Criterion::ReadyTime,
        Criterion::Restarts,
        Criterion::CreationTime,
    ];

    /// The criterion's stable id, as serialised (`readiness`, `deletionCost`, …).
    pub fn id(self) -> &'static str {
        match self {
            Criterion::Unassigned => "unassigned",
            Criterion::Phase => "phase",
            Criterion::Readiness => "readiness",
            Criterion::DeletionCost => "deletionCost",
            Criterion::NodeRank => "nodeRank",
            Criterion::ReadyTime => "readyTime",
            Criterion::Restarts => "restarts",
            Criterion::CreationTime => "creationTime",
            Criterion::Tie => "tie",
        }
    }

    /// A short English phrase for the UI.
    pub fn describe(self) -> &'static str {
        match self {
            Criterion::Unassigned => "not yet scheduled to a node",
            Criterion::Phase => "earlier phase (Pending < Unknown < Running)",
            Criterion::Readiness => "not ready",
            Criterion::DeletionCost => "lower pod-deletion-cost",
            Criterion::NodeRank => "more sibling pods on its node",
            Criterion::ReadyTime => "ready more recently (logarithmic buckets, then UID)",
            Criterion::Restarts => "more container restarts",
            Criterion::CreationTime => "created more recently (logarithmic buckets, then UID)",
            Criterion::Tie => "tie: interchangeable",
        }
    }
}

/// What the ranking reads of a pod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RankedPod {
    /// The pod's name.
    pub name: String,
    /// `spec.nodeName` ("" = unscheduled).
    pub node_name: String,
    /// `status.phase`.
    pub phase: PodPhase,
    /// Ready=True.
    pub ready: bool,
    /// When it became ready (`None` = never).
    pub ready_time: Option<Time>,
    /// The deletion-cost annotation (0 when absent).
    pub deletion_cost: i32,
    /// Active pods of the same Deployment on the pod's node.
    pub rank: usize,
    /// Max container restarts.
    pub restart_count: i32,
    /// `metadata.creationTimestamp`.
    pub creation_time: Time,
    /// `metadata.uid`.
    pub uid: String,
}

impl RankedPod {
    /// The ranking view of a pod.
    pub fn of(pod: &Pod, rank: usize) -> RankedPod {
        RankedPod {
            name: pod.metadata.name.clone(),
            node_name: pod.node_name.clone(),
            phase: pod.phase,
            ready: pod.is_ready(),
            ready_time: pod.ready_time(),
            deletion_cost: pod.deletion_cost(),
            rank,
            restart_count: pod.restart_count,
            creation_time: pod.metadata.creation_timestamp,
            uid: pod.metadata.uid.to_string(),
        }
    }
}

/// The logarithmic bucket of a time: ⌊log2(age in nanoseconds)⌋, −1 for no age (what
/// `logarithmicRankDiff` compares).
pub fn log_bucket(t: Time, now: Time) -> i64 {
    let d = (now - t) as f64 * 1e9;
    if d > 0.0 {
        d.log2() as i64
    } else {
        -1
    }
}

/// `ActivePodsWithRanks.Less` for `a` before `b`, with the criterion that decided.
/// `Ordering::Less` means `a` is deleted first.
pub fn compare(a: &RankedPod, b: &RankedPod, now: Time) -> (Ordering, Criterion) {
    compare_keys(&SortKey::of_ranked(a, now), &SortKey::of_ranked(b, now))
}

/// A pod's logarithmic time buckets at one `now`: `logarithmicRankDiff(t1, t2)` is the
/// difference of two pods' buckets. Computed once per pod for a sort (5,000 pods: about
/// 60,000 comparisons) instead of twice per comparison.
#[derive(Clone, Copy, Debug)]
struct Buckets {
    ready: i64,
    creation: i64,
}

impl Buckets {
    fn of(ready_time: Option<Time>, creation_time: Time, now: Time) -> Buckets {
        Buckets {
            // Only read when the pod is ready, hence has a ready time.
            ready: log_bucket(ready_time.unwrap_or(0), now),
            creation: log_bucket(creation_time, now),
        }
    }
}

/// [`log_bucket`] at one `now`, remembering the last time asked for each of the two
/// criteria: a ReplicaSet's pods, listed by name, were created and became ready in batches
/// (a slow start of 1, 2, 4 … pods, a kubelet pass readying hundreds at one time), so
/// neighbours nearly always share their times, and ranking 5,000 pods takes a few dozen
/// logarithms instead of 10,000. The buckets are those of [`Buckets::of`].
struct BucketMemo {
    now: Time,
    ready: Option<(Time, i64)>,
    creation: Option<(Time, i64)>,
}

impl BucketMemo {
    fn new(now: Time) -> BucketMemo {
        BucketMemo {
            now,
            ready: None,
            creation: None,
        }
    }

    fn of(&mut self, ready_time: Option<Time>, creation_time: Time) -> Buckets {
        let now = self.now;
        let bucket = |slot: &mut Option<(Time, i64)>, t: Time| match *slot {
            Some((last, b)) if last == t => b,
            _ => {
                let b = log_bucket(t, now);
                *slot = Some((t, b));
                b
            }
        };
        Buckets {
            ready: bucket(&mut self.ready, ready_time.unwrap_or(0)),
            creation: bucket(&mut self.creation, creation_time),
        }
    }
}

/// A uid as the ranking's tie-break compares it: Go compares the uid strings.
#[derive(Clone, Copy, Debug)]
enum UidText<'a> {
    /// A simulated pod's uid, not written out ([`Uid::cmp_text`] orders it as its text).
    Counter(Uid),
    /// A uid as text (a [`RankedPod`]'s).
    Text(&'a str),
}

impl UidText<'_> {
    /// The order of the two uids' texts.
    fn cmp(self, other: UidText<'_>) -> Ordering {
        match (self, other) {
            (UidText::Counter(a), UidText::Counter(b)) => a.cmp_text(b),
            (UidText::Text(a), UidText::Text(b)) => a.cmp(b),
            (a, b) => a.text().cmp(&b.text()),
        }
    }

    fn text(self) -> String {
        match self {
            UidText::Counter(uid) => uid.to_string(),
            UidText::Text(text) => text.to_string(),
        }
    }
}

/// Everything `ActivePodsWithRanks.Less` reads of one pod, made once per pod for a sort and
/// borrowed rather than copied: a [`RankedPod`] copies three strings, this copies none.
#[derive(Clone, Copy, Debug)]
struct SortKey<'a> {
    unassigned: bool,
    phase_ordinal: i32,
    ready: bool,
    ready_time: Option<Time>,
    deletion_cost: i32,
    rank: usize,
    restart_count: i32,
    creation_time: Time,
    uid: UidText<'a>,
    buckets: Buckets,
}

impl<'a> SortKey<'a> {
    fn of_ranked(p: &'a RankedPod, now: Time) -> SortKey<'a> {
        SortKey {
            unassigned: p.node_name.is_empty(),
            phase_ordinal: p.phase.ordinal(),
            ready: p.ready,
            ready_time: p.ready_time,
            deletion_cost: p.deletion_cost,
            rank: p.rank,
            restart_count: p.restart_count,
            creation_time: p.creation_time,
            uid: UidText::Text(&p.uid),
            buckets: Buckets::of(p.ready_time, p.creation_time, now),
        }
    }

    /// What [`RankedPod::of`] would give, read straight from the pod (its Ready condition
    /// looked up once).
    fn of_pod(p: &Pod, rank: usize, memo: &mut BucketMemo) -> SortKey<'static> {
        let ready_time = p.ready_time();
        SortKey {
            unassigned: p.node_name.is_empty(),
            phase_ordinal: p.phase.ordinal(),
            ready: ready_time.is_some(),
            ready_time,
            deletion_cost: p.deletion_cost(),
            rank,
            restart_count: p.restart_count,
            creation_time: p.metadata.creation_timestamp,
            uid: UidText::Counter(p.metadata.uid),
            buckets: memo.of(ready_time, p.metadata.creation_timestamp),
        }
    }
}

/// `ActivePodsWithRanks.Less` on two sort keys (inlined into the sort, which reads only the
/// order: the criterion is then never made).
#[inline(always)]
fn compare_keys(a: &SortKey, b: &SortKey) -> (Ordering, Criterion) {
    let by = |less: bool, c: Criterion| {
        (
            if less {
                Ordering::Less
            } else {
                Ordering::Greater
            },
            c,
        )
    };
    // `a.node_name != b.node_name && (one of them is "")` is exactly "one is assigned and the
    // other is not", without comparing the names.
    if a.unassigned != b.unassigned {
        return by(a.unassigned, Criterion::Unassigned);
    }
    if a.phase_ordinal != b.phase_ordinal {
        return by(a.phase_ordinal < b.phase_ordinal, Criterion::Phase);
    }
    if a.ready != b.ready {
        return by(!a.ready, Criterion::Readiness);
    }
    if a.deletion_cost != b.deletion_cost {
        return by(a.deletion_cost < b.deletion_cost, Criterion::DeletionCost);
    }
    if a.rank != b.rank {
        return by(a.rank > b.rank, Criterion::NodeRank);
    }
    if a.ready && b.ready && a.ready_time != b.ready_time {
        // Both are ready, so both have a ready time (a real cluster's zero time never occurs).
        let diff = a.buckets.ready - b.buckets.ready;
        if diff == 0 {
            return uid_order(a, b, Criterion::ReadyTime);
        }
        return by(diff < 0, Criterion::ReadyTime);
    }
    if a.restart_count != b.restart_count {
        return by(a.restart_count > b.restart_count, Criterion::Restarts);
    }
    if a.creation_time != b.creation_time {
        let diff = a.buckets.creation - b.buckets.creation;
        if diff == 0 {
            return uid_order(a, b, Criterion::CreationTime);
        }
        return by(diff < 0, Criterion::CreationTime);
    }
    (Ordering::Equal, Criterion::Tie)
}

/// The uid tie-break. Go's `<` on equal uids is false, so neither goes first.
fn uid_order(a: &SortKey, b: &SortKey, c: Criterion) -> (Ordering, Criterion) {
    (a.uid.cmp(b.uid), c)
}

/// `sort.Sort(ActivePodsWithRanks)` on sort keys: the indices of `keys` in deletion order.
fn sorted_order(keys: &[SortKey]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    let less = |a: &usize, b: &usize| compare_keys(&keys[*a], &keys[*b]).0 == Ordering::Less;
    let mut scratch = Vec::with_capacity(order.len());
    merge_sort(&mut order, &mut scratch, &less);
    order
}

/// `sort.Sort(ActivePodsWithRanks)`: a stable merge sort by [`compare`], which gives what Go's
/// insertion sort gives for the short lists it uses it on, and never panics whatever the
/// comparisons say.
pub fn sort_pods(pods: &mut Vec<RankedPod>, now: Time) {
    let keys: Vec<SortKey> = pods.iter().map(|p| SortKey::of_ranked(p, now)).collect();
    let order = sorted_order(&keys);
    drop(keys);
    let mut slots: Vec<Option<RankedPod>> = std::mem::take(pods).into_iter().map(Some).collect();
    pods.reserve(order.len());
    pods.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// `ActivePodsWithRanks` over the API server's pods, for a scale-down: each pod's sort key is
/// read once and nothing is copied, so ranking 5,000 pods to delete 500 makes a
/// [`RankedPod`] only for those 500 (and the first pod kept). Orders and criteria are those
/// of [`sort_pods`] and [`compare`] on the pods' [`RankedPod`]s.
pub struct PodRanking {
    keys: Vec<SortKey<'static>>,
}

impl PodRanking {
    /// The ranking of `pods`, each with its node's count from [`active_pods_per_node`].
    pub fn new<'p>(pods: impl IntoIterator<Item = (&'p Pod, usize)>, now: Time) -> PodRanking {
        let mut memo = BucketMemo::new(now);
        PodRanking {
            keys: pods
                .into_iter()
                .map(|(p, rank)| SortKey::of_pod(p, rank, &mut memo))
                .collect(),
        }
    }

    /// The pods' indices in deletion order ([`sort_pods`]).
    pub fn sorted(&self) -> Vec<usize> {
        sorted_order(&self.keys)
    }

    /// [`compare`] of the pods at indices `a` and `b`.
    pub fn compare(&self, a: usize, b: usize) -> (Ordering, Criterion) {
        compare_keys(&self.keys[a], &self.keys[b])
    }
}

/// A top-down stable merge sort: halves of `v` (the first `len / 2` on the left) sorted
/// recursively, insertion sort at 12 or fewer (Go's `sort.Sort` on short slices), merged
/// taking the right element only when it is strictly less. `scratch` holds the left half
/// while merging, so a sort of 5,000 pods allocates once instead of at every level.
fn merge_sort<T: Copy>(v: &mut [T], scratch: &mut Vec<T>, less: &impl Fn(&T, &T) -> bool) {
    if v.len() <= 12 {
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && less(&v[j], &v[j - 1]) {
                v.swap(j, j - 1);
                j -= 1;
            }
        }
        return;
    }
    let mid = v.len() / 2;
    merge_sort(&mut v[..mid], scratch, less);
    merge_sort(&mut v[mid..], scratch, less);
    scratch.clear();
    scratch.extend_from_slice(&v[..mid]);
    let (mut i, mut j, mut out) = (0, mid, 0);
    while i < scratch.len() && j < v.len() {
        if less(&v[j], &scratch[i]) {
            v[out] = v[j];
            j += 1;
        } else {
            v[out] = scratch[i];
            i += 1;
        }
        out += 1;
    }
    // What is left of the right half is already in place.
    let rest = &scratch[i..];
    v[out..out + rest.len()].copy_from_slice(rest);
}

/// `getPodsRankedByRelatedPodsOnSameNode`'s count: active related pods per node name
/// ("" counts as a node name). `related` yields each related pod's node and whether it is
/// active.
pub fn active_pods_per_node<'a>(
    related: impl IntoIterator<Item = (&'a str, bool)>,
) -> NodeCounts<'a> {
    let mut counts = NodeCounts::default();
    for (node, _) in related.into_iter().filter(|(_, active)| *active) {
        counts.add(node, 1);
    }
    counts
}

/// Active pods per node. A cluster usually has few nodes, and a short list beats hashing; past
/// [`NodeCounts::LISTED`] nodes an index by name keeps each lookup from walking them all (with
/// 5,000 nodes the list made a scale-down of 8,000 pods cost 8,000 × 5,000 comparisons, and a
/// run 10 times slower than with 10 nodes).
#[derive(Clone, Debug, Default)]
pub struct NodeCounts<'a> {
    counts: Vec<(&'a str, usize)>,
    /// Each node's slot in `counts`, by name (a sorted list: no map's code in the app's
    /// module), once there are more than [`NodeCounts::LISTED`] nodes.
    index: Vec<(&'a str, usize)>,
}

impl<'a> NodeCounts<'a> {
    /// The most nodes looked up by walking the list.
    const LISTED: usize = 32;

    /// The slot of `node`, if it has one.
    fn slot(&self, node: &str) -> Option<usize> {
        if self.counts.len() <= Self::LISTED {
            self.counts.iter().position(|(m, _)| same_node(m, node))
        } else {
            self.index
                .binary_search_by(|(m, _)| (*m).cmp(node))
                .ok()
                .map(|at| self.index[at].1)
        }
    }

    /// Files `node` at `slot` in the index.
    fn index(&mut self, node: &'a str, slot: usize) {
        if let Err(at) = self.index.binary_search_by(|(m, _)| (*m).cmp(node)) {
            self.index.insert(at, (node, slot));
        }
    }

    /// Adds `n` active pods on `node` (0 makes sure the node has an entry); the node's slot,
    /// for [`NodeCounts::at`].
    pub fn add(&mut self, node: &'a str, n: usize) -> usize {
        if let Some(slot) = self.slot(node) {
            self.counts[slot].1 += n;
            return slot;
        }
        self.counts.push((node, n));
        let slot = self.counts.len() - 1;
        if self.counts.len() > Self::LISTED {
            if self.index.is_empty() {
                for i in 0..self.counts.len() {
                    self.index(self.counts[i].0, i);
                }
            } else {
                self.index(node, slot);
            }
        }
        slot
    }

    /// The count in a slot [`NodeCounts::add`] gave.
    pub fn at(&self, slot: usize) -> usize {
        self.counts[slot].1
    }

    /// The count for a node (0 when none).
    pub fn get(&self, node: &str) -> usize {
        self.slot(node).map_or(0, |slot| self.counts[slot].1)
    }
}

/// `a == b` for node names, looking at the length and the last byte first: names such as
/// `node-3` and `node-7` differ there, so the full comparison (a `memcmp` call) runs about
/// once per lookup instead of once per node (10,000 related pods × 10 nodes per scale-down
/// of the 5,000-replica benchmark).
fn same_node(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().last() == b.as_bytes().last() && a == b
}

/// `getPodsToDelete`: the first `diff` pods after ranking (unsorted when all go). Each pod's
/// `rank` must already hold its node's count from [`active_pods_per_node`].
pub fn get_pods_to_delete(filtered: &[RankedPod], diff: usize, now: Time) -> Vec<RankedPod> {
    let mut pods = filtered.to_vec();
    if diff < pods.len() {
        sort_pods(&mut pods, now);
    }
    pods.truncate(diff);
    pods
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The merge sort as it was (a `Vec` split at every level), kept to check the in-place
    /// one against.
    fn reference_sort<T: Copy>(v: &mut Vec<T>, less: &impl Fn(&T, &T) -> bool) {
        if v.len() <= 12 {
            for i in 1..v.len() {
                let mut j = i;
                while j > 0 && less(&v[j], &v[j - 1]) {
                    v.swap(j, j - 1);
                    j -= 1;
                }
            }
            return;
        }
        let mut right = v.split_off(v.len() / 2);
        reference_sort(v, less);
        reference_sort(&mut right, less);
        let left = std::mem::take(v);
        let (mut i, mut j) = (0, 0);
        while i < left.len() && j < right.len() {
            if less(&right[j], &left[i]) {
                v.push(right[j]);
                j += 1;
            } else {
                v.push(left[i]);
                i += 1;
            }
        }
        v.extend_from_slice(&left[i..]);
        v.extend_from_slice(&right[j..]);
    }

    proptest::proptest! {
        /// Same comparisons in the same order, so the same result for any comparison, even
        /// one that is not an order at all (a pseudo-random answer per pair).
        #[test]
        fn the_in_place_merge_sort_equals_the_reference(
            keys in proptest::collection::vec(0u32..50, 0..300),
            salt in 0u64..1000,
        ) {
            let consistent = |a: &u32, b: &u32| a / 3 < b / 3;
            let arbitrary = |a: &u32, b: &u32| {
                (u64::from(*a) * 31 + u64::from(*b) * 17 + salt) % 7 < 3
            };
            for less in [&consistent as &dyn Fn(&u32, &u32) -> bool, &arbitrary] {
                let items: Vec<(u32, usize)> = keys.iter().copied().zip(0..).collect();
                let by = |x: &(u32, usize), y: &(u32, usize)| less(&x.0, &y.0);
                let mut want = items.clone();
                reference_sort(&mut want, &by);
                let mut got = items;
                merge_sort(&mut got, &mut Vec::new(), &by);
                proptest::prop_assert_eq!(got, want);
            }
        }
    }

    /// A simulated pod from a few numbers: `ready_at` 0 = not ready; `cost` 0 = no annotation.
    fn api_pod(i: usize, settings: (u8, u8, Time, Time, i32, u64)) -> Pod {
        use crate::api::{ConditionStatus, ObjectMeta, PodCondition, PodConditionType};
        let (node, phase, ready_at, created, cost, uid) = settings;
        let mut annotations = crate::api::StringMap::new();
        if cost != 0 {
            annotations.insert(
                crate::api::POD_DELETION_COST_ANNOTATION.to_string(),
                cost.to_string(),
            );
        }
        Pod {
            metadata: ObjectMeta {
                name: format!("web-{i}"),
                uid: Uid(uid),
                creation_timestamp: created,
                annotations,
                ..Default::default()
            },
            image: "app:v1".into(),
            node_name: if node == 0 {
                String::new()
            } else {
                format!("node-{node}")
            },
            phase: [PodPhase::Pending, PodPhase::Unknown, PodPhase::Running][usize::from(phase)],
            conditions: (ready_at != 0)
                .then_some(PodCondition {
                    type_: PodConditionType::Ready,
                    status: ConditionStatus::True,
                    last_transition_time: ready_at,
                    reason: String::new(),
                    message: String::new(),
                })
                .into_iter()
                .collect(),
            restart_count: (i % 2) as i32,
            serial: i as u32,
            container: None,
            started_at: created,
        }
    }

    proptest::proptest! {
        /// Ranking the API server's pods gives the order and the criteria that ranking their
        /// `RankedPod`s gives, uids of any size included (past 2^48 their texts no longer sort
        /// as the numbers do).
        #[test]
        fn pod_ranking_equals_ranking_the_ranked_pods(
            settings in proptest::collection::vec(
                (0u8..3, 0u8..3, 0i64..40, 1i64..40, -1i32..2,
                 proptest::prop_oneof![0u64..64, (1u64 << 48) - 4..(1u64 << 48) + 4]),
                0..40,
            ),
            ranks in proptest::collection::vec(1usize..4, 40),
        ) {
            let now = 100;
            let pods: Vec<Pod> = settings.iter().enumerate().map(|(i, s)| api_pod(i, *s)).collect();
            let ranked: Vec<RankedPod> =
                pods.iter().zip(&ranks).map(|(p, r)| RankedPod::of(p, *r)).collect();
            let ranking = PodRanking::new(pods.iter().zip(ranks.iter().copied()), now);
            let mut want = ranked.clone();
            sort_pods(&mut want, now);
            let got: Vec<RankedPod> = ranking.sorted().into_iter().map(|i| ranked[i].clone()).collect();
            proptest::prop_assert_eq!(got, want);
            for a in 0..pods.len() {
                for b in 0..pods.len() {
                    proptest::prop_assert_eq!(ranking.compare(a, b), compare(&ranked[a], &ranked[b], now));
                }
            }
        }
    }

    #[test]
    fn uid_texts_sort_as_texts() {
        let below = Uid((1 << 48) - 1);
        let above = Uid(1 << 48);
        assert_eq!(Uid(10).cmp_text(Uid(16)), Ordering::Less);
        // "…-ffffffffffff" > "…-1000000000000" as text, though smaller as a number.
        assert_eq!(below.cmp_text(above), Ordering::Greater);
        assert_eq!(
            below.cmp_text(above),
            below.to_string().cmp(&above.to_string())
        );
    }

    fn pod(name: &str, ready: bool, created: Time) -> RankedPod {
        RankedPod {
            name: name.into(),
            node_name: "node-0".into(),
            phase: if ready {
                PodPhase::Running
            } else {
                PodPhase::Pending
            },
            ready,
            ready_time: ready.then_some(created + 5),
            deletion_cost: 0,
            rank: 1,
            restart_count: 0,
            creation_time: created,
            uid: format!("uid-{name}"),
        }
    }

    #[test]
    fn criterion_ids_are_the_serialised_names() {
        for c in Criterion::ORDER.into_iter().chain([Criterion::Tie]) {
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::json!(c.id()));
        }
    }

    #[test]
    fn unready_pods_go_before_ready_ones() {
        let ready = pod("a", true, 0);
        let pending = pod("b", false, 0);
        assert_eq!(
            compare(&pending, &ready, 100),
            (Ordering::Less, Criterion::Phase)
        );
        let picked = get_pods_to_delete(&[ready, pending], 1, 100);
        assert_eq!(picked[0].name, "b");
    }

    #[test]
    fn node_counts_agree_past_the_listed_nodes() {
        // 5,000 nodes (Kubernetes' most): the index answers as the list did.
        let names: Vec<String> = (0..5_000).map(|i| format!("node-{i}")).collect();
        let pods: Vec<(&str, bool)> = (0..20_000)
            .map(|i| (names[(i * 7) % names.len()].as_str(), i % 3 != 0))
            .collect();
        let counts = active_pods_per_node(pods.iter().copied());
        for (i, name) in names.iter().enumerate().step_by(97) {
            let want = pods.iter().filter(|(n, a)| *a && *n == name).count();
            assert_eq!(counts.get(name), want, "{name}");
            let mut more = counts.clone();
            let slot = more.add(name, 2);
            assert_eq!(more.at(slot), want + 2, "{i}");
        }
        assert_eq!(counts.get("node-x"), 0);
        assert_eq!(counts.get(""), 0);
    }
}
