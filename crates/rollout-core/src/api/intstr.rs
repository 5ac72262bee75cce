//! `k8s.io/apimachinery/pkg/util/intstr`: the int-or-percent values of `maxSurge` and
//! `maxUnavailable`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// `intstr.IntOrString`: an absolute count (`1`) or a percentage string (`"25%"`).
///
/// Serialises exactly as in a manifest: a JSON number or a JSON string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// `Type: 0` (intstr.Int).
    Int(i32),
    /// `Type: 1` (intstr.String), normally a percentage such as `"25%"`.
    String(String),
}

/// Reads a JSON number that fits in 32 bits or a string, as the API server's decoder does;
/// anything else (`1.5`, `true`, `4294967296`) is refused with what was expected, e.g.
/// `invalid type: floating point `1.5`, expected a 32-bit integer or a percentage such as "25%"`.
impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = IntOrString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a 32-bit integer or a percentage such as \"25%\"")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<IntOrString, E> {
                i32::try_from(n)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<IntOrString, E> {
                i32::try_from(n)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<IntOrString, E> {
                // A whole number written by JavaScript (`3` arrives as 3.0 through some readers).
                if n.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&n) {
                    Ok(IntOrString::Int(n as i32))
                } else {
                    Err(E::invalid_type(serde::de::Unexpected::Float(n), &self))
                }
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::String(s.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl IntOrString {
    /// Parses what a user types into a text field: `3` becomes an int, anything else a string.
    pub fn parse_user(text: &str) -> IntOrString {
        let t = text.trim();
        match t.parse::<i32>() {
            Ok(n) => IntOrString::Int(n),
            Err(_) => IntOrString::String(t.to_string()),
        }
    }

    /// Go's `%#v` rendering used in validation messages, e.g.
    /// `intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}`.
    pub fn go_syntax(&self) -> String {
        match self {
            IntOrString::Int(n) => format!("intstr.IntOrString{{Type:0, IntVal:{n}, StrVal:\"\"}}"),
            IntOrString::String(s) => format!(
                "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
                crate::api::go_quote(s)
            ),
        }
    }

    /// `IntOrString.IntValue()`: the int, or `strconv.Atoi` of the string (0 when that fails).
    pub fn int_value(&self) -> i32 {
        match self {
            IntOrString::Int(n) => *n,
            IntOrString::String(s) => go_atoi(s).unwrap_or(0) as i32,
        }
    }
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(n) => write!(f, "{n}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl From<i32> for IntOrString {
    fn from(n: i32) -> Self {
        IntOrString::Int(n)
    }
}

impl From<&str> for IntOrString {
    fn from(s: &str) -> Self {
        IntOrString::String(s.to_string())
    }
}

/// Go's `strconv.Atoi`: an optional sign and decimal digits, nothing else, within i64.
pub fn go_atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

/// `intstr.GetScaledValueFromIntOrPercent`: an int as it is, a percentage of `total`
/// rounded up or down. Errors carry Go's wording.
pub fn get_scaled_value_from_int_or_percent(
    value: &IntOrString,
    total: i32,
    round_up: bool,
) -> Result<i32, String> {
    match value {
        IntOrString::Int(n) => Ok(*n),
        IntOrString::String(s) => {
            let percent = get_int_or_percent_value_safely(s)?;
            let scaled = f64::from(percent) * f64::from(total) / 100.0;
            let v = if round_up {
                scaled.ceil()
            } else {
                scaled.floor()
            };
            // Go computes an `int` (64 bits) and the callers truncate it to int32.
            let wide = if v.is_nan() || v.abs() >= 9.223_372_036_854_776e18 {
                i64::MIN
            } else {
                v as i64
            };
            Ok(wide as i32)
        }
    }
}

/// The percentage inside `"NN%"`, with the errors of `getIntOrPercentValueSafely`.
fn get_int_or_percent_value_safely(s: &str) -> Result<i32, String> {
    let Some(number) = s.strip_suffix('%') else {
        return Err(
            "invalid value for IntOrString: invalid type: string is not a percentage".to_string(),
        );
    };
    match go_atoi(number) {
        Some(v) if i64::from(i32::MIN) <= v && v <= i64::from(i32::MAX) => Ok(v as i32),
        _ => Err(format!(
            "invalid value for IntOrString: invalid value {}: strconv.Atoi: parsing {}: {}",
            crate::api::go_quote(s),
            crate::api::go_quote(number),
            if number.bytes().all(|b| b.is_ascii_digit()) && !number.is_empty() {
                "value out of range"
            } else {
                "invalid syntax"
            }
        )),
    }
}

/// Whether a string is a percentage the API accepts (`^[0-9]+%$`).
pub fn is_valid_percent(s: &str) -> bool {
    s.strip_suffix('%')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_percentages_up_for_surge_and_down_for_unavailable() {
        let p = IntOrString::from("25%");
        assert_eq!(get_scaled_value_from_int_or_percent(&p, 10, true), Ok(3));
        assert_eq!(get_scaled_value_from_int_or_percent(&p, 10, false), Ok(2));
        assert_eq!(
            get_scaled_value_from_int_or_percent(&IntOrString::Int(7), 10, false),
            Ok(7)
        );
        assert!(get_scaled_value_from_int_or_percent(&"abc".into(), 10, false).is_err());
    }

    #[test]
    fn int_value_follows_go() {
        assert_eq!(IntOrString::from("25").int_value(), 25);
        assert_eq!(IntOrString::from("abc%").int_value(), 0);
        assert_eq!(IntOrString::Int(-3).int_value(), -3);
    }
}
