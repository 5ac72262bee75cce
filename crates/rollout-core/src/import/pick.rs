//! What every build reads, with or without the YAML reader: which Deployment of several the user
//! chose ([`Pick`]), and `null` fields read as absent, as the API server reads them.

use serde_json::Value;

/// How a front end lets the user choose one Deployment of several: `name` is the one chosen
/// (the CLI's `--deployment NAME`, `plan()`'s `deployment` option), `how` finishes the message
/// that lists the names when none is chosen (`choose one with --deployment NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick<'a> {
    /// The Deployment chosen by `metadata.name`, if any.
    pub name: Option<&'a str>,
    /// How to choose, in the front end's words.
    pub how: &'a str,
}

impl Default for Pick<'_> {
    fn default() -> Self {
        Pick {
            name: None,
            how: "name the one to read",
        }
    }
}

/// Removes every `null` field, as the API server reads them: a field set to `null` is a field
/// left out (`strategy: {type: Recreate, rollingUpdate: null}` is `{type: Recreate}`). Nulls
/// inside lists stay (they are not fields).
pub fn drop_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(drop_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn null_fields_are_absent() {
        let mut v =
            json!({"strategy": {"type": "Recreate", "rollingUpdate": null}, "l": [null, 1]});
        drop_nulls(&mut v);
        assert_eq!(v, json!({"strategy": {"type": "Recreate"}, "l": [null, 1]}));
    }
}
