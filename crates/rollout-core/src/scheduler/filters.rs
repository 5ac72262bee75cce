//! The scheduler's filter plugins that decide whether a rollout's pods fit (v1.28.4
//! `pkg/scheduler/framework/plugins`), run per node in the default profile's order, the first
//! that fails giving the node's reasons: `NodeAffinity` (`nodeaffinity/node_affinity.go`,
//! `Filter`), `NodeResourcesFit` (`noderesources/fit.go`, `fitsRequest`), `PodTopologySpread`
//! (`podtopologyspread/filtering.go`, `Filter`) and `InterPodAffinity`
//! (`interpodaffinity/filtering.go`, `Filter`), with their reason texts and status codes.
//!
//! Example: 3 replicas with required anti-affinity on `kubernetes.io/hostname`, one pod on each
//! of 3 nodes: a surge pod's anti-affinity term matches a pod in every hostname domain, so each
//! node answers "node(s) didn't match pod anti-affinity rules" (Unschedulable).

use super::nodes::Node;
use super::pod_spec::{AffinityTerm, PodScheduling, SpreadConstraint};
use super::selector::{LabelSelector, Requirement};
use std::collections::{BTreeMap, HashMap};

/// `ErrReasonPod` of NodeAffinity.
pub const NODE_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";
/// `ErrReasonConstraintsNotMatch` of PodTopologySpread.
pub const SPREAD: &str = "node(s) didn't match pod topology spread constraints";
/// `ErrReasonNodeLabelNotMatch` of PodTopologySpread.
pub const SPREAD_LABEL: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
/// `ErrReasonAffinityRulesNotMatch` of InterPodAffinity.
pub const AFFINITY: &str = "node(s) didn't match pod affinity rules";
/// `ErrReasonAntiAffinityRulesNotMatch` of InterPodAffinity.
pub const ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
/// `ErrReasonExistingAntiAffinityRulesNotMatch` of InterPodAffinity.
pub const EXISTING_ANTI_AFFINITY: &str = "node(s) didn't satisfy existing pods anti-affinity rules";

/// A filter's verdict on a node that fails it: the reasons, and whether preemption could
/// help (`Unschedulable`) or not (`UnschedulableAndUnresolvable`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The status's reasons (`Insufficient cpu`, …).
    pub reasons: Vec<&'static str>,
    /// `UnschedulableAndUnresolvable`.
    pub unresolvable: bool,
}

fn fail(reason: &'static str, unresolvable: bool) -> Option<Failure> {
    Some(Failure {
        reasons: vec![reason],
        unresolvable,
    })
}

/// A pod bound to a node, as the scheduler's cache holds it.
#[derive(Clone, Debug)]
pub struct BoundPod {
    /// Its node's index.
    pub node: usize,
    /// Its labels.
    pub labels: crate::api::StringMap,
    /// Being deleted (PodTopologySpread does not count it; the others do until it is gone).
    pub terminating: bool,
}

/// What a node has taken: `nodeInfo.Requested` and its pod count.
#[derive(Clone, Copy, Debug, Default)]
pub struct Requested {
    /// Millicores requested by its pods.
    pub cpu_millis: i64,
    /// Bytes requested by its pods.
    pub memory_bytes: i64,
    /// Pods bound there.
    pub pods: i64,
}

fn label_of<'a>(labels: &'a crate::api::StringMap) -> impl Fn(&str) -> Option<String> + 'a {
    move |k| labels.get(k).cloned()
}

fn matches(selector: &Option<LabelSelector>, labels: &crate::api::StringMap) -> bool {
    selector
        .as_ref()
        .is_some_and(|s| s.matches(&label_of(labels)))
}

/// `NodeAffinity.Filter`: `nodeSelector` and the required node selector terms.
pub fn node_affinity_ok(pod: &PodScheduling, node: &Node) -> bool {
    pod.node_selector
        .iter()
        .all(|(k, v)| node.labels.get(k) == Some(v))
        && (pod.node_affinity.is_empty()
            || pod
                .node_affinity
                .iter()
                .any(|t| t.matches(&node.name, &node.labels)))
}

/// `NodeAffinity.Filter` as a verdict.
pub fn node_affinity(pod: &PodScheduling, node: &Node) -> Option<Failure> {
    (!node_affinity_ok(pod, node)).then(|| Failure {
        reasons: vec![NODE_AFFINITY],
        unresolvable: true,
    })
}

/// `fitsRequest`: the pod count against `allocatable.pods`, then CPU and memory against
/// what is allocatable and not yet requested (each short resource a reason). A node of 1 CPU
/// with a 600m pod has 400m left: a second 600m pod gets "Insufficient cpu".
pub fn resources_fit(pod: &PodScheduling, node: &Node, used: &Requested) -> Option<Failure> {
    let mut reasons = Vec::new();
    if used.pods + 1 > node.pods {
        reasons.push("Too many pods");
    }
    if pod.cpu_millis > 0 && pod.cpu_millis > node.cpu_millis - used.cpu_millis {
        reasons.push("Insufficient cpu");
    }
    if pod.memory_bytes > 0 && pod.memory_bytes > node.memory_bytes - used.memory_bytes {
        reasons.push("Insufficient memory");
    }
    (!reasons.is_empty()).then_some(Failure {
        reasons,
        unresolvable: false,
    })
}

/// PodTopologySpread's PreFilter state for one incoming pod: each constraint's selector (with
/// `matchLabelKeys` merged) and its matching pods per domain over the eligible nodes.
pub struct SpreadState {
    constraints: Vec<(SpreadConstraint, LabelSelector, BTreeMap<String, i64>)>,
    self_match: Vec<bool>,
}

impl SpreadState {
    /// `calPreFilterState`: counts the bound, non-terminating pods matching each constraint on
    /// the nodes that have every constraint's topology key and (policy Honor) pass the pod's
    /// node affinity. A domain with no matching pod counts 0.
    pub fn new(
        pod: &PodScheduling,
        labels: &crate::api::StringMap,
        nodes: &[Node],
        bound: &[BoundPod],
    ) -> SpreadState {
        let constraints: Vec<_> = pod
            .spread
            .iter()
            .map(|c| {
                let mut sel = c.selector.clone().unwrap_or(LabelSelector {
                    // A nil selector matches nothing: a requirement no pod meets.
                    match_expressions: vec![Requirement {
                        key: String::new(),
                        operator: "Exists".into(),
                        values: Vec::new(),
                    }],
                    ..Default::default()
                });
                for k in &c.match_label_keys {
                    if let Some(v) = labels.get(k) {
                        sel.match_expressions.push(Requirement {
                            key: k.clone(),
                            operator: "In".into(),
                            values: vec![v.clone()],
                        });
                    }
                }
                (c.clone(), sel, BTreeMap::new())
            })
            .collect();
        let self_match = constraints
            .iter()
            .map(|(_, s, _)| s.matches(&label_of(labels)))
            .collect();
        let mut state = SpreadState {
            constraints,
            self_match,
        };
        let keys: Vec<String> = pod.spread.iter().map(|c| c.topology_key.clone()).collect();
        let affinity_ok: Vec<bool> = nodes.iter().map(|n| node_affinity_ok(pod, n)).collect();
        for (i, node) in nodes.iter().enumerate() {
            if !keys.iter().all(|k| node.labels.contains_key(k)) {
                continue;
            }
            for (c, _, counts) in &mut state.constraints {
                if c.ignore_node_affinity || affinity_ok[i] {
                    counts
                        .entry(node.labels[&c.topology_key].clone())
                        .or_insert(0);
                }
            }
        }
        for b in bound {
            state.add(b, nodes);
        }
        state
    }

    /// Counts one more bound pod.
    pub fn add(&mut self, b: &BoundPod, nodes: &[Node]) {
        if b.terminating {
            return;
        }
        for (c, sel, counts) in &mut self.constraints {
            let Some(v) = nodes[b.node].labels.get(&c.topology_key) else {
                continue;
            };
            if let Some(n) = counts.get_mut(v) {
                if sel.matches(&label_of(&b.labels)) {
                    *n += 1;
                }
            }
        }
    }

    /// `PodTopologySpread.Filter`: the node must have each topology key, and its domain's
    /// matching pods + the pod itself − the fewest in any domain must not exceed `maxSkew`
    /// (with fewer domains than `minDomains`, the fewest counts as 0). Over 2 zones holding 2
    /// and 1 matching pods, maxSkew 1: zone-a gives 2 + 1 − 1 = 2 > 1 (fails), zone-b 1.
    pub fn filter(&self, node: &Node) -> Option<Failure> {
        for (i, (c, _, counts)) in self.constraints.iter().enumerate() {
            let Some(v) = node.labels.get(&c.topology_key) else {
                return fail(SPREAD_LABEL, true);
            };
            let fewest = if (counts.len() as i64) < i64::from(c.min_domains.unwrap_or(1)) {
                0
            } else {
                counts.values().copied().min().unwrap_or(0)
            };
            let here = counts.get(v).copied().unwrap_or(0);
            if here + i64::from(self.self_match[i]) - fewest > i64::from(c.max_skew) {
                return fail(SPREAD, false);
            }
        }
        None
    }
}

/// InterPodAffinity's PreFilter state for one incoming pod: per topology pair, the pods
/// matching all its affinity terms, matching each anti-affinity term, and the existing pods
/// whose anti-affinity terms match it (`preFilterState`'s three counts).
#[derive(Default)]
pub struct AffinityState {
    affinity: HashMap<(String, String), i64>,
    anti: HashMap<(String, String), i64>,
    existing_anti: HashMap<(String, String), i64>,
}

fn bump(m: &mut HashMap<(String, String), i64>, term: &AffinityTerm, node: &Node) {
    if let Some(v) = node.labels.get(&term.topology_key) {
        *m.entry((term.topology_key.clone(), v.clone())).or_insert(0) += 1;
    }
}

impl AffinityState {
    /// Counts every bound pod (terminating ones too: they are in the scheduler's cache until
    /// they are gone). Every pod of the scenario has the template's terms.
    pub fn new(
        pod: &PodScheduling,
        labels: &crate::api::StringMap,
        nodes: &[Node],
        bound: &[BoundPod],
    ) -> AffinityState {
        let mut s = AffinityState::default();
        for b in bound {
            s.add(pod, labels, b, nodes);
        }
        s
    }

    /// Counts one more bound pod.
    pub fn add(
        &mut self,
        pod: &PodScheduling,
        labels: &crate::api::StringMap,
        b: &BoundPod,
        nodes: &[Node],
    ) {
        let node = &nodes[b.node];
        if !pod.pod_affinity.is_empty()
            && pod
                .pod_affinity
                .iter()
                .all(|t| matches(&t.selector, &b.labels))
        {
            for t in &pod.pod_affinity {
                bump(&mut self.affinity, t, node);
            }
        }
        for t in &pod.pod_anti_affinity {
            if matches(&t.selector, &b.labels) {
                bump(&mut self.anti, t, node);
            }
            // The existing pod's own term (the same template's) against the incoming pod.
            if matches(&t.selector, labels) {
                bump(&mut self.existing_anti, t, node);
            }
        }
    }

    /// `InterPodAffinity.Filter`: `satisfyPodAffinity` (every term's topology label on the
    /// node, a matching pod in each domain, or no matching pod anywhere and the pod matching
    /// its own terms), `satisfyPodAntiAffinity`, `satisfyExistingPodsAntiAffinity`.
    pub fn filter(
        &self,
        pod: &PodScheduling,
        labels: &crate::api::StringMap,
        node: &Node,
    ) -> Option<Failure> {
        let mut exist = true;
        for t in &pod.pod_affinity {
            let Some(v) = node.labels.get(&t.topology_key) else {
                return fail(AFFINITY, true);
            };
            if self
                .affinity
                .get(&(t.topology_key.clone(), v.clone()))
                .copied()
                .unwrap_or(0)
                <= 0
            {
                exist = false;
            }
        }
        if !exist {
            let own = pod
                .pod_affinity
                .iter()
                .all(|t| matches(&t.selector, labels));
            if !(self.affinity.is_empty() && own) {
                return fail(AFFINITY, true);
            }
        }
        for t in &pod.pod_anti_affinity {
            if let Some(v) = node.labels.get(&t.topology_key) {
                if self
                    .anti
                    .get(&(t.topology_key.clone(), v.clone()))
                    .copied()
                    .unwrap_or(0)
                    > 0
                {
                    return fail(ANTI_AFFINITY, false);
                }
            }
        }
        for (k, v) in &node.labels {
            if self
                .existing_anti
                .get(&(k.clone(), v.clone()))
                .copied()
                .unwrap_or(0)
                > 0
            {
                return fail(EXISTING_ANTI_AFFINITY, false);
            }
        }
        None
    }
}

/// `FitError.Error()` (`framework/types.go`) with the default preemption's PostFilter message
/// (`defaultpreemption`, `preemption.go`): each node's reasons counted, `"N reason"` sorted as
/// strings and joined; then, since every pod of a Deployment has the same priority, no node
/// has a victim: "No preemption victims found for incoming pod" where preemption might help,
/// "Preemption is not helpful for scheduling" where a node's failure is unresolvable. Each part
/// ends with `.` (`SeparatorFormat`), so v1.28's message ends with two.
pub fn fit_error(failures: &[Failure]) -> String {
    let n = failures.len();
    let histogram = |reasons: &mut dyn Iterator<Item = &str>| {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for r in reasons {
            *counts.entry(r).or_insert(0) += 1;
        }
        let mut parts: Vec<String> = counts.iter().map(|(r, c)| format!("{c} {r}")).collect();
        parts.sort();
        parts.join(", ")
    };
    let filters = histogram(&mut failures.iter().flat_map(|f| f.reasons.iter().copied()));
    let preemption = histogram(&mut failures.iter().map(|f| {
        if f.unresolvable {
            "Preemption is not helpful for scheduling"
        } else {
            "No preemption victims found for incoming pod"
        }
    }));
    format!("0/{n} nodes are available: {filters}. preemption: 0/{n} nodes are available: {preemption}..")
}
