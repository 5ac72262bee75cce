//! The cluster's nodes as the scheduler sees them (`v1.Node`): a name, `status.allocatable`
//! CPU, memory and pods, and labels. By default `nodes` alike (`--nodes 3 --node-cpu 4
//! --node-memory 16Gi`), named `node-0` …, labelled as a kubelet labels its node
//! (`kubernetes.io/hostname`, `kubernetes.io/os: linux`, `kubernetes.io/arch: amd64` and the
//! deprecated `beta.` pair) and spread over zones in turn (`topology.kubernetes.io/zone`:
//! with 2 zones node-0 is in `zone-a`, node-1 in `zone-b`, node-2 in `zone-a`); or a list
//! (`kubectl get nodes -o json`, or `[{name, cpu, memory, pods, labels}]`).

use super::quantity;
use super::selector::read_string_map;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// `kubernetes.io/hostname`.
pub const HOSTNAME: &str = "kubernetes.io/hostname";
/// `topology.kubernetes.io/zone`.
pub const ZONE: &str = "topology.kubernetes.io/zone";
/// Default allocatable CPU of a node: 4 cores (in millicores).
pub const DEFAULT_CPU_MILLIS: i64 = 4000;
/// Default allocatable memory of a node: 16 GiB.
pub const DEFAULT_MEMORY_BYTES: i64 = 16 << 30;
/// The kubelet's default `maxPods`.
pub const DEFAULT_PODS: i64 = 110;
/// The most zones a default cluster spreads its nodes over (`zone-a` … `zone-z`).
pub const MAX_ZONES: u32 = 26;

/// One node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// `metadata.name`.
    pub name: String,
    /// `status.allocatable.cpu` in millicores.
    pub cpu_millis: i64,
    /// `status.allocatable.memory` in bytes.
    pub memory_bytes: i64,
    /// `status.allocatable.pods`.
    pub pods: i64,
    /// `metadata.labels`.
    pub labels: BTreeMap<String, String>,
}

/// The zone name of zone `i` (0-based): `zone-a`, `zone-b`, ….
pub fn zone_name(i: u32) -> String {
    format!("zone-{}", char::from(b'a' + (i % MAX_ZONES) as u8))
}

/// The labels a kubelet puts on node `name` (and the zone, when there is one).
pub fn default_labels(name: &str, zone: Option<String>) -> BTreeMap<String, String> {
    let mut l = BTreeMap::new();
    for (k, v) in [
        ("beta.kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("kubernetes.io/os", "linux"),
        (HOSTNAME, name),
    ] {
        l.insert(k.to_string(), v.to_string());
    }
    if let Some(z) = zone {
        l.insert(ZONE.to_string(), z);
    }
    l
}

/// `count` nodes alike, node `i` in zone `i mod zones`.
pub fn uniform(count: u32, cpu_millis: i64, memory_bytes: i64, zones: u32) -> Vec<Node> {
    let zones = zones.clamp(1, MAX_ZONES);
    (0..count)
        .map(|i| {
            let name = format!("node-{i}");
            Node {
                labels: default_labels(&name, Some(zone_name(i % zones))),
                name,
                cpu_millis,
                memory_bytes,
                pods: DEFAULT_PODS,
            }
        })
        .collect()
}

fn quantity_field(v: &Value, key: &str, path: &str, millis: bool) -> Result<Option<i64>, String> {
    let Some(x) = v.get(key).filter(|x| !x.is_null()) else {
        return Ok(None);
    };
    let text =
        quantity::text_of(x).ok_or_else(|| format!("{path}.{key}: {}", quantity::FORMAT_WRONG))?;
    let parsed = if millis {
        quantity::parse_millis(&text)
    } else {
        quantity::parse_bytes(&text)
    };
    parsed.map(Some).map_err(|e| format!("{path}.{key}: {e}"))
}

/// Reads one node: a `v1.Node` (`kind: Node`, `status.allocatable`, `metadata.labels`) or the
/// short form `{name, cpu, memory, pods, labels}`; what is left out is the default size and
/// the kubelet's labels (a given label wins).
pub fn read_node(v: &Value, path: &str, index: usize) -> Result<Node, String> {
    if !v.is_object() {
        return Err(format!("{path}: expected an object"));
    }
    let full = v.get("kind").and_then(Value::as_str) == Some("Node");
    let (meta, alloc, known): (&Value, &Value, &[&str]) = if full {
        (
            v.get("metadata").unwrap_or(&Value::Null),
            v.pointer("/status/allocatable").unwrap_or(&Value::Null),
            &[],
        )
    } else {
        (v, v, &["name", "cpu", "memory", "pods", "labels"])
    };
    if let Some(k) = v
        .as_object()
        .and_then(|o| o.keys().find(|k| !full && !known.contains(&k.as_str())))
    {
        return Err(format!(
            "{path}: unknown field `{k}`, expected one of {} (or a kind: Node object)",
            known.join(", ")
        ));
    }
    let name = match meta.get("name") {
        None | Some(Value::Null) => format!("node-{index}"),
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(_) => return Err(format!("{path}.name: expected a node name")),
    };
    let apath = if full {
        format!("{path}.status.allocatable")
    } else {
        path.to_string()
    };
    let pods = match alloc.get("pods").filter(|x| !x.is_null()) {
        None => DEFAULT_PODS,
        Some(x) => quantity::text_of(x)
            .and_then(|t| t.parse::<i64>().ok())
            .filter(|n| *n >= 0)
            .ok_or_else(|| format!("{apath}.pods: expected a whole number of pods, not {x}"))?,
    };
    let mut labels = default_labels(&name, None);
    if let Some(l) = meta.get("labels").filter(|x| !x.is_null()) {
        let lpath = if full {
            format!("{path}.metadata.labels")
        } else {
            format!("{path}.labels")
        };
        labels.extend(read_string_map(l, &lpath)?);
    }
    Ok(Node {
        cpu_millis: quantity_field(alloc, "cpu", &apath, true)?.unwrap_or(DEFAULT_CPU_MILLIS),
        memory_bytes: quantity_field(alloc, "memory", &apath, false)?
            .unwrap_or(DEFAULT_MEMORY_BYTES),
        pods,
        name,
        labels,
    })
}

/// Reads a list of nodes: a JSON array, or a `kind: List`/`NodeList` object's `items`
/// (`kubectl get nodes -o json`). Names must differ.
pub fn read_node_list(v: &Value, path: &str) -> Result<Vec<Node>, String> {
    let items = match v {
        Value::Array(a) => a,
        Value::Object(o) => o.get("items").and_then(Value::as_array).ok_or_else(|| {
            format!("{path}: expected a list of nodes (or kubectl get nodes -o json)")
        })?,
        _ => return Err(format!("{path}: expected a list of nodes")),
    };
    if items.is_empty() {
        return Err(format!("{path}: no nodes; a cluster needs at least one"));
    }
    if items.len() > crate::limits::MAX_NODES as usize {
        return Err(format!(
            "{path}: {} nodes, at most {}, the most nodes Kubernetes supports in one cluster",
            crate::limits::group(items.len() as i64),
            crate::limits::group(i64::from(crate::limits::MAX_NODES))
        ));
    }
    let mut nodes: Vec<Node> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let n = read_node(item, &format!("{path}[{i}]"), i)?;
        if nodes.iter().any(|m| m.name == n.name) {
            return Err(format!("{path}[{i}].name: Duplicate value: {:?}", n.name));
        }
        nodes.push(n);
    }
    Ok(nodes)
}

impl Node {
    /// The short form [`read_node`] reads back.
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "cpu": quantity::millis_text(self.cpu_millis),
            "memory": quantity::bytes_text(self.memory_bytes),
            "pods": self.pods,
            "labels": self.labels,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_nodes_take_turns_in_the_zones() {
        let n = uniform(3, 1000, 4 << 30, 2);
        let zones: Vec<&str> = n.iter().map(|n| n.labels[ZONE].as_str()).collect();
        assert_eq!(zones, ["zone-a", "zone-b", "zone-a"]);
        assert_eq!(n[2].labels[HOSTNAME], "node-2");
        assert_eq!(n[0].labels["kubernetes.io/os"], "linux");
    }

    #[test]
    fn kubectl_get_nodes_output_and_the_short_form_read_alike() {
        let full = json!({"kind": "List", "items": [{"kind": "Node",
            "metadata": {"name": "a", "labels": {"disk": "ssd"}},
            "status": {"allocatable": {"cpu": "3920m", "memory": "15Gi", "pods": "110"}}}]});
        let short = json!([{"name": "a", "cpu": "3920m", "memory": "15Gi", "pods": 110,
            "labels": {"disk": "ssd"}}]);
        let a = read_node_list(&full, "nodes").unwrap();
        assert_eq!(a, read_node_list(&short, "nodes").unwrap());
        assert_eq!(
            (a[0].cpu_millis, a[0].labels[HOSTNAME].as_str()),
            (3920, "a")
        );
        assert_eq!(read_node_list(&json!([a[0].to_json()]), "n").unwrap(), a);
    }

    #[test]
    fn bad_nodes_are_named() {
        let e = read_node_list(&json!([{"name": "a", "gpu": 1}]), "nodes").unwrap_err();
        assert!(e.starts_with("nodes[0]: unknown field `gpu`"), "{e}");
        let e = read_node_list(&json!([{"name": "a"}, {"name": "a"}]), "nodes").unwrap_err();
        assert_eq!(e, "nodes[1].name: Duplicate value: \"a\"");
        let e = read_node_list(&json!([{"cpu": "x"}]), "nodes").unwrap_err();
        assert!(e.starts_with("nodes[0].cpu: quantities must match"), "{e}");
    }
}
