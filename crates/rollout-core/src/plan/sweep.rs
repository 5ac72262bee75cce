//! Sweeps: the same rollout forecast for every combination of some Deployment settings
//! (`rollout plan FILE --sweep maxSurge=0..10 --sweep maxUnavailable=0,1,25%,50%`), each
//! applied to the Deployment as the scenario creates it. Combinations the API server would
//! refuse (maxSurge and maxUnavailable both 0) are reported with its message.
//!
//! Example: `maxSurge=0..2` × `maxUnavailable=0,25%` is 3 × 2 = 6 combinations, in the order
//! (0, 0) (refused), (0, 25%), (1, 0), (1, 25%), (2, 0), (2, 25%): the first axis varies
//! slowest.

use super::Forecast;
use crate::api::IntOrString;
use crate::scenario::{DeploymentInput, StrategyInput};
use serde::{Deserialize, Serialize};

/// The most simulations one sweep may ask for.
pub const MAX_SIMULATIONS: u64 = crate::limits::MAX_SWEEP_COMBINATIONS;

/// A Deployment setting a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Axis {
    /// `spec.strategy.rollingUpdate.maxSurge` (counts and percentages).
    MaxSurge,
    /// `spec.strategy.rollingUpdate.maxUnavailable` (counts and percentages).
    MaxUnavailable,
    /// `spec.replicas` (counts).
    Replicas,
    /// `spec.minReadySeconds` (counts).
    MinReadySeconds,
}

impl Axis {
    /// Every axis, in the order settings are listed.
    pub const ALL: [Axis; 4] = [
        Axis::Replicas,
        Axis::MaxSurge,
        Axis::MaxUnavailable,
        Axis::MinReadySeconds,
    ];

    /// The field's name as a manifest spells it.
    pub fn name(self) -> &'static str {
        match self {
            Axis::MaxSurge => "maxSurge",
            Axis::MaxUnavailable => "maxUnavailable",
            Axis::Replicas => "replicas",
            Axis::MinReadySeconds => "minReadySeconds",
        }
    }

    fn takes_percentages(self) -> bool {
        matches!(self, Axis::MaxSurge | Axis::MaxUnavailable)
    }
}

/// One item of an axis' value list: a count, a percentage, or an inclusive range of counts.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Value(IntOrString),
    Range(i32, i32),
}

impl Item {
    fn len(&self) -> u64 {
        match self {
            Item::Value(_) => 1,
            Item::Range(a, b) => (i64::from(*b) - i64::from(*a) + 1) as u64,
        }
    }
}

/// One parsed `--sweep AXIS=VALUES`: its values are listed only once the whole sweep is
/// known to stay within [`MAX_SIMULATIONS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisSpec {
    /// The setting.
    pub axis: Axis,
    items: Vec<Item>,
}

impl AxisSpec {
    /// How many values it lists.
    pub fn len(&self) -> u64 {
        self.items.iter().map(Item::len).sum()
    }

    /// Whether it lists none (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its values in order.
    pub fn values(&self) -> Vec<IntOrString> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                Item::Value(v) => out.push(v.clone()),
                Item::Range(a, b) => out.extend((*a..=*b).map(IntOrString::Int)),
            }
        }
        out
    }
}

fn parse_count(text: &str, spec: &str) -> Result<i32, String> {
    text.trim()
        .parse::<i32>()
        .map_err(|_| format!("--sweep {spec}: {:?} is not a whole number", text.trim()))
}

/// Reads one `--sweep` value: `AXIS=ITEM,ITEM,…` where an item is a count (`3`), a percentage
/// (`25%`, maxSurge and maxUnavailable only) or an inclusive range of counts (`0..10`).
/// Errors name the flag and what is wrong.
pub fn parse_axis(spec: &str) -> Result<AxisSpec, String> {
    let (name, list) = spec.split_once('=').ok_or_else(|| {
        format!("--sweep {spec}: expected SETTING=VALUES, e.g. --sweep maxSurge=0..10")
    })?;
    let axis = Axis::ALL
        .into_iter()
        .find(|a| a.name() == name.trim())
        .ok_or_else(|| {
            format!(
                "--sweep {spec}: unknown setting {:?}; sweeps vary {}",
                name.trim(),
                Axis::ALL.map(Axis::name).join(", ")
            )
        })?;
    let mut items = Vec::new();
    for raw in list.split(',') {
        let text = raw.trim();
        if text.is_empty() {
            return Err(format!("--sweep {spec}: an empty value in the list"));
        }
        if let Some((a, b)) = text.split_once("..") {
            let (a, b) = (parse_count(a, spec)?, parse_count(b, spec)?);
            if b < a {
                return Err(format!("--sweep {spec}: the range {a}..{b} is empty"));
            }
            items.push(Item::Range(a, b));
        } else if let Some(number) = text.strip_suffix('%') {
            if !axis.takes_percentages() {
                return Err(format!(
                    "--sweep {spec}: {} takes counts, not percentages",
                    axis.name()
                ));
            }
            let n = parse_count(number, spec)?;
            items.push(Item::Value(IntOrString::String(format!("{n}%"))));
        } else {
            items.push(Item::Value(IntOrString::Int(parse_count(text, spec)?)));
        }
    }
    Ok(AxisSpec { axis, items })
}

/// The values a combination gives the Deployment (absent: as the scenario creates it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// `spec.replicas`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// `maxSurge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
    /// `maxUnavailable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// `spec.minReadySeconds`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_ready_seconds: Option<i32>,
}

impl Settings {
    /// The value given to `axis`, if any.
    pub fn get(&self, axis: Axis) -> Option<IntOrString> {
        match axis {
            Axis::Replicas => self.replicas.map(IntOrString::Int),
            Axis::MaxSurge => self.max_surge.clone(),
            Axis::MaxUnavailable => self.max_unavailable.clone(),
            Axis::MinReadySeconds => self.min_ready_seconds.map(IntOrString::Int),
        }
    }

    fn set(&mut self, axis: Axis, value: IntOrString) {
        match axis {
            Axis::Replicas => self.replicas = Some(value.int_value()),
            Axis::MaxSurge => self.max_surge = Some(value),
            Axis::MaxUnavailable => self.max_unavailable = Some(value),
            Axis::MinReadySeconds => self.min_ready_seconds = Some(value.int_value()),
        }
    }

    /// The Deployment with these settings, as it would be sent to the API server.
    pub fn apply(&self, deployment: &DeploymentInput) -> DeploymentInput {
        let mut d = deployment.clone();
        if let Some(n) = self.replicas {
            d.replicas = Some(n);
        }
        if let Some(n) = self.min_ready_seconds {
            d.min_ready_seconds = Some(n);
        }
        if self.max_surge.is_some() || self.max_unavailable.is_some() {
            let s = d.strategy.get_or_insert_with(StrategyInput::default);
            if self.max_surge.is_some() {
                s.max_surge = self.max_surge.clone();
            }
            if self.max_unavailable.is_some() {
                s.max_unavailable = self.max_unavailable.clone();
            }
        }
        d
    }

    /// The API server's refusal of the Deployment with these settings, if it would refuse it
    /// (e.g. maxSurge 0 and maxUnavailable 0).
    pub fn refusal(&self, deployment: &DeploymentInput) -> Option<String> {
        let outcome = crate::validation::validate_create(&self.apply(deployment));
        crate::validation::status_message(&outcome).map(str::to_string)
    }
}

/// Every combination of some axes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    axes: Vec<(Axis, Vec<IntOrString>)>,
    len: usize,
}

impl Sweep {
    /// Checks the axes as a whole (each setting at most once, at most [`MAX_SIMULATIONS`]
    /// combinations, no maxSurge or maxUnavailable for a Recreate Deployment) and lists their
    /// values. `deployment` is the Deployment as the scenario creates it.
    pub fn new(specs: Vec<AxisSpec>, deployment: &DeploymentInput) -> Result<Sweep, String> {
        let mut total: u64 = 1;
        for (i, spec) in specs.iter().enumerate() {
            if specs[..i].iter().any(|s| s.axis == spec.axis) {
                return Err(format!(
                    "--sweep {}: given twice; list every value in one --sweep",
                    spec.axis.name()
                ));
            }
            total = total.saturating_mul(spec.len());
        }
        if total > MAX_SIMULATIONS {
            return Err(format!(
                "--sweep: {total} combinations; a sweep runs at most {MAX_SIMULATIONS} simulations"
            ));
        }
        let recreate = deployment
            .strategy
            .as_ref()
            .and_then(|s| s.type_.as_deref())
            == Some("Recreate");
        if let Some(spec) = specs
            .iter()
            .find(|s| recreate && s.axis.takes_percentages())
        {
            return Err(format!(
                "--sweep {}: deployment {:?} uses the Recreate strategy, which has no {} (only RollingUpdate has maxSurge and maxUnavailable)",
                spec.axis.name(),
                deployment.name,
                spec.axis.name()
            ));
        }
        Ok(Sweep {
            len: total as usize,
            axes: specs.iter().map(|s| (s.axis, s.values())).collect(),
        })
    }

    /// How many combinations.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (never: an empty sweep has one combination, the scenario itself).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The axes swept, in the order given.
    pub fn axes(&self) -> impl Iterator<Item = Axis> + '_ {
        self.axes.iter().map(|(a, _)| *a)
    }

    /// The `index`th combination (the first axis varies slowest).
    pub fn settings(&self, index: usize) -> Settings {
        let mut settings = Settings::default();
        let mut rest = index;
        for (axis, values) in self.axes.iter().rev() {
            settings.set(*axis, values[rest % values.len()].clone());
            rest /= values.len();
        }
        settings
    }
}

/// One combination's outcome, as `rollout plan --sweep … --json` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepRow {
    /// The combination.
    pub settings: Settings,
    /// Its forecast (`null` when refused).
    pub forecast: Option<Forecast>,
    /// The API server's refusal of the combination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The requests a Service in front of it fails over the rollout, under the plan's traffic
    /// assumptions (`plan::traffic`; absent when refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_requests: Option<u64>,
    /// The rollout where the new version fails (`fail`, `--fail`): `ifItFails`, the
    /// combination's capacity lost if it fails and the rest; absent without a failure.
    #[serde(default, rename = "ifItFails", skip_serializing_if = "Option::is_none")]
    pub if_it_fails: Option<super::failure::FailureForecast>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn web() -> DeploymentInput {
        DeploymentInput {
            name: "web".into(),
            replicas: Some(10),
            image: "a".into(),
            ..DeploymentInput::default()
        }
    }

    #[test]
    fn parses_ranges_lists_and_percentages() {
        let s = parse_axis("maxSurge=0..3").unwrap();
        assert_eq!(s.axis, Axis::MaxSurge);
        assert_eq!(
            s.values(),
            (0..=3).map(IntOrString::Int).collect::<Vec<_>>()
        );
        let s = parse_axis("maxUnavailable=0, 1,25%,50%").unwrap();
        assert_eq!(
            s.values(),
            vec![
                IntOrString::Int(0),
                IntOrString::Int(1),
                IntOrString::from("25%"),
                IntOrString::from("50%")
            ]
        );
        assert_eq!(parse_axis("replicas=1..2,10").unwrap().len(), 3);
        assert_eq!(parse_axis("minReadySeconds=0,5").unwrap().len(), 2);
    }

    #[test]
    fn malformed_values_name_the_flag() {
        for (spec, says) in [
            ("maxSurge", "expected SETTING=VALUES"),
            ("surge=1", "unknown setting \"surge\""),
            ("maxSurge=1..x", "\"x\" is not a whole number"),
            ("maxSurge=5..2", "the range 5..2 is empty"),
            ("maxSurge=1,,2", "an empty value"),
            ("replicas=25%", "replicas takes counts, not percentages"),
            ("maxUnavailable=a%", "\"a\" is not a whole number"),
            ("minReadySeconds=99999999999", "not a whole number"),
        ] {
            let e = parse_axis(spec).unwrap_err();
            assert!(e.starts_with(&format!("--sweep {spec}")), "{e}");
            assert!(e.contains(says), "{spec}: {e}");
        }
    }

    #[test]
    fn combinations_vary_the_first_axis_slowest() {
        let sweep = Sweep::new(
            vec![
                parse_axis("maxSurge=0..2").unwrap(),
                parse_axis("maxUnavailable=0,25%").unwrap(),
            ],
            &web(),
        )
        .unwrap();
        assert_eq!(sweep.len(), 6);
        let got: Vec<(String, String)> = (0..6)
            .map(|i| {
                let s = sweep.settings(i);
                (
                    s.max_surge.unwrap().to_string(),
                    s.max_unavailable.unwrap().to_string(),
                )
            })
            .collect();
        let want = [
            ("0", "0"),
            ("0", "25%"),
            ("1", "0"),
            ("1", "25%"),
            ("2", "0"),
            ("2", "25%"),
        ];
        assert_eq!(
            got,
            want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
        );
    }

    #[test]
    fn the_api_refuses_both_zero_with_its_message() {
        let s = Settings {
            max_surge: Some(IntOrString::Int(0)),
            max_unavailable: Some(IntOrString::Int(0)),
            ..Settings::default()
        };
        assert_eq!(
            s.refusal(&web()).unwrap(),
            "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0"
        );
        let ok = Settings {
            max_surge: Some(IntOrString::Int(1)),
            ..s
        };
        assert_eq!(ok.refusal(&web()), None);
        let d = ok.apply(&web());
        let strategy = d.strategy.unwrap();
        assert_eq!(strategy.max_surge, Some(IntOrString::Int(1)));
        assert_eq!(strategy.max_unavailable, Some(IntOrString::Int(0)));
    }

    #[test]
    fn more_than_ten_thousand_simulations_are_refused_before_listing_them() {
        let specs = vec![
            parse_axis("maxSurge=0..100").unwrap(),
            parse_axis("maxUnavailable=0..99").unwrap(),
        ];
        let e = Sweep::new(specs, &web()).unwrap_err();
        assert_eq!(
            e,
            "--sweep: 10100 combinations; a sweep runs at most 10000 simulations"
        );
        let huge = vec![
            parse_axis("replicas=0..2147483647").unwrap(),
            parse_axis("minReadySeconds=-2147483648..2147483647").unwrap(),
        ];
        assert!(Sweep::new(huge, &web())
            .unwrap_err()
            .contains("at most 10000"));
        let exactly = vec![
            parse_axis("maxSurge=1..100").unwrap(),
            parse_axis("maxUnavailable=0..99").unwrap(),
        ];
        assert_eq!(Sweep::new(exactly, &web()).unwrap().len(), 10_000);
    }

    #[test]
    fn recreate_has_no_surge_to_sweep_and_axes_come_once() {
        let mut d = web();
        d.strategy = Some(StrategyInput {
            type_: Some("Recreate".into()),
            ..StrategyInput::default()
        });
        let e = Sweep::new(vec![parse_axis("maxUnavailable=0,1").unwrap()], &d).unwrap_err();
        assert!(e.contains("uses the Recreate strategy"), "{e}");
        assert!(Sweep::new(vec![parse_axis("replicas=1..3").unwrap()], &d).is_ok());
        let twice = vec![
            parse_axis("replicas=1").unwrap(),
            parse_axis("replicas=2").unwrap(),
        ];
        assert!(Sweep::new(twice, &web())
            .unwrap_err()
            .contains("given twice"));
    }
}
