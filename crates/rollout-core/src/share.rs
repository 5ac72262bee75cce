//! Permalinks: a whole session (the scenario with every action taken, the step reached and the
//! preset it started from) in a URL fragment, compactly, and read back leniently.
//!
//! A link is `s=<scenario>&at=<step>&p=<preset>`. The scenario is its JSON in a compact,
//! URL-safe notation (a variant of Rison): objects are `(key:value,…)`, arrays `!(…)`, `!t`,
//! `!f`, `!n` are true, false and null, a string that looks like a name is written bare and any
//! other one in single quotes (`!'` and `!!` escape). Field names and action types are
//! abbreviated (`replicas` is `rp`, `setImage` is `si`; the full names are read too) and fields
//! at their default are left out. Everything else is percent-encoded, so the fragment survives
//! copying, chat clients and Markdown. For example the default rollout with one image update,
//! 17 steps in:
//!
//! ```text
//! s=(n:rollout-lab,nd:3,a:!((t:c,d:(n:web,i:'nginx:1.14.2',rp:3)),(r:4,t:si,i:'nginx:1.16.1')))&at=17
//! ```
//!
//! Reading never fails: [`decode_link`] keeps what it can read, says what it ignored and why,
//! and falls back to the given scenario when nothing usable is left (a link cut short is read up
//! to where it stops).

use crate::scenario::{Action, ActionKind, Scenario};
use serde_json::{Map, Value};

/// The link format's version (`v=` in a link; absent means 1).
pub const LINK_VERSION: u32 = 1;

pub use crate::limits::MAX_LINK_STEPS;

/// Field names and their abbreviations (every name is also read in full).
const KEYS: &[(&str, &str)] = &[
    ("name", "n"),
    ("description", "ds"),
    ("rounds", "ro"),
    ("secondsPerRound", "sp"),
    ("readyAfterRounds", "ra"),
    ("terminationRounds", "tr"),
    ("neverReadyImages", "nr"),
    ("nodes", "nd"),
    ("podQuota", "pq"),
    ("actions", "a"),
    ("model", "m"),
    ("readyJitterRounds", "rj"),
    ("seed", "sd"),
    ("round", "r"),
    ("type", "t"),
    ("deployment", "d"),
    ("image", "i"),
    ("replicas", "rp"),
    ("strategy", "s"),
    ("maxSurge", "ms"),
    ("maxUnavailable", "mu"),
    ("withRollingUpdate", "wr"),
    ("minReadySeconds", "mr"),
    ("progressDeadlineSeconds", "pd"),
    ("revisionHistoryLimit", "rh"),
    ("paused", "pa"),
    ("selector", "sl"),
    ("templateLabels", "tl"),
    ("revision", "rv"),
    ("toRevision", "tv"),
    ("value", "v"),
    ("pod", "p"),
    ("kubernetesVersion", "k8s"),
];

/// Values of `type` (action types and strategy types) and their abbreviations.
const TYPES: &[(&str, &str)] = &[
    ("create", "c"),
    ("setImage", "si"),
    ("scale", "sc"),
    ("pause", "pz"),
    ("resume", "rs"),
    ("rollback", "rb"),
    ("undo", "ud"),
    ("setStrategy", "ss"),
    ("setMinReadySeconds", "smr"),
    ("setProgressDeadlineSeconds", "spd"),
    ("setRevisionHistoryLimit", "srh"),
    ("setPodDeletionCost", "sdc"),
    ("restartPod", "rst"),
    ("setPodQuota", "sq"),
    ("RollingUpdate", "RU"),
    ("Recreate", "RC"),
];

/// The order fields are written in (by abbreviation); others follow alphabetically.
const ORDER: &[&str] = &[
    "r", "t", "n", "ds", "ro", "sp", "ra", "tr", "nr", "nd", "pq", "m", "rj", "sd", "d", "i", "rp",
    "s", "ms", "mu", "wr", "mr", "pd", "rh", "pa", "sl", "tl", "rv", "tv", "p", "v", "a",
];

/// Maps whose keys are the user's (label keys), never abbreviated.
const VERBATIM_MAPS: &[&str] = &["selector", "templateLabels"];

fn lookup<'a>(table: &'a [(&'a str, &'a str)], key: &str, long_to_short: bool) -> Option<&'a str> {
    table.iter().find_map(|(long, short)| {
        if long_to_short {
            (*long == key).then_some(*short)
        } else {
            (*short == key).then_some(*long)
        }
    })
}

/// Abbreviates (`shorten`) or expands field names and type values, leaving label maps alone.
fn rename(v: &Value, shorten: bool) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.iter().map(|x| rename(x, shorten)).collect()),
        Value::Object(o) => {
            let mut out = Map::new();
            for (k, x) in o {
                let long = if shorten {
                    k.as_str()
                } else {
                    lookup(KEYS, k, false).unwrap_or(k)
                };
                let key = if shorten {
                    lookup(KEYS, k, true).unwrap_or(k)
                } else {
                    long
                };
                let value = if VERBATIM_MAPS.contains(&long) {
                    x.clone()
                } else if long == "type" {
                    match x.as_str().and_then(|t| lookup(TYPES, t, shorten)) {
                        Some(t) => Value::String(t.to_string()),
                        None => x.clone(),
                    }
                } else {
                    rename(x, shorten)
                };
                out.insert(key.to_string(), value);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

// ---- the notation -------------------------------------------------------------------------

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '~')
}

fn is_bare(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    !(first.is_ascii_digit() || first == '-') && s.chars().all(is_id_char)
}

fn write_str(s: &str, out: &mut String) {
    if is_bare(s) {
        out.push_str(s);
        return;
    }
    out.push('\'');
    for c in s.chars() {
        if c == '\'' || c == '!' {
            out.push('!');
        }
        out.push(c);
    }
    out.push('\'');
}

fn write_value(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("!n"),
        Value::Bool(true) => out.push_str("!t"),
        Value::Bool(false) => out.push_str("!f"),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_str(s, out),
        Value::Array(a) => {
            out.push_str("!(");
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(x, out);
            }
            out.push(')');
        }
        Value::Object(o) => {
            out.push('(');
            // serde_json's maps are sorted; a link reads better (and survives being cut short
            // better) with the type and name first and the actions last: the fields of ORDER in
            // its order, then any others.
            let known = ORDER.iter().filter_map(|k| o.get_key_value(*k));
            let others = o.iter().filter(|(k, _)| !ORDER.contains(&k.as_str()));
            for (i, (k, x)) in known.chain(others).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(k, out);
                out.push(':');
                write_value(x, out);
            }
            out.push(')');
        }
    }
}

/// A JSON value in the compact notation (not yet percent-encoded).
pub fn to_notation(v: &Value) -> String {
    let mut out = String::new();
    write_value(v, &mut out);
    out
}

/// A value read from the notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The value.
    pub value: Value,
    /// The text ended inside the value, which was closed where it stopped.
    pub cut_short: bool,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    cut_short: bool,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        match self.peek() {
            Some(c) => Err(format!(
                "{what} at character {} (found `{c}`)",
                self.pos + 1
            )),
            None => Err(format!("{what} at the end")),
        }
    }

    fn value(&mut self) -> Result<Option<Value>, String> {
        let Some(c) = self.peek() else {
            self.cut_short = true;
            return Ok(None);
        };
        match c {
            '(' => {
                self.pos += 1;
                self.object().map(Some)
            }
            '!' => {
                self.pos += 1;
                match self.peek() {
                    Some('(') => {
                        self.pos += 1;
                        self.array().map(Some)
                    }
                    Some('t') => {
                        self.pos += 1;
                        Ok(Some(Value::Bool(true)))
                    }
                    Some('f') => {
                        self.pos += 1;
                        Ok(Some(Value::Bool(false)))
                    }
                    Some('n') => {
                        self.pos += 1;
                        Ok(Some(Value::Null))
                    }
                    None => {
                        self.cut_short = true;
                        Ok(None)
                    }
                    _ => self.error("unknown `!` sequence"),
                }
            }
            '\'' => {
                self.pos += 1;
                Ok(Some(Value::String(self.quoted())))
            }
            '-' | '0'..='9' => self.number().map(Some),
            c if is_id_char(c) => Ok(Some(Value::String(self.bare()))),
            _ => self.error("expected a value"),
        }
    }

    fn quoted(&mut self) -> String {
        let mut s = String::new();
        loop {
            match self.peek() {
                None => {
                    self.cut_short = true;
                    return s;
                }
                Some('\'') => {
                    self.pos += 1;
                    return s;
                }
                Some('!') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(c) => {
                            s.push(c);
                            self.pos += 1;
                        }
                        None => {
                            self.cut_short = true;
                            return s;
                        }
                    }
                }
                Some(c) => {
                    s.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    fn bare(&mut self) -> String {
        let start = self.pos;
        while self.peek().is_some_and(is_id_char) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.'))
        {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        // Scenarios hold whole numbers only (no float parsing: it would cost the wasm ~3 KB).
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        // `25%` without its quotes, `1.16.1`, `2.5` … : kept as text (reading the scenario
        // then says what is wrong with it).
        Ok(Value::String(text))
    }

    fn key(&mut self) -> Result<Option<String>, String> {
        match self.peek() {
            None => {
                self.cut_short = true;
                Ok(None)
            }
            Some('\'') => {
                self.pos += 1;
                Ok(Some(self.quoted()))
            }
            Some(c) if is_id_char(c) => Ok(Some(self.bare())),
            _ => self.error("expected a field name"),
        }
    }

    fn object(&mut self) -> Result<Value, String> {
        let mut m = Map::new();
        if self.peek() == Some(')') {
            self.pos += 1;
            return Ok(Value::Object(m));
        }
        loop {
            let Some(k) = self.key()? else {
                return Ok(Value::Object(m));
            };
            match self.peek() {
                Some(':') => self.pos += 1,
                None => {
                    self.cut_short = true;
                    return Ok(Value::Object(m));
                }
                _ => return self.error(&format!("expected `:` after `{k}`")),
            }
            match self.value()? {
                Some(v) => {
                    m.insert(k, v);
                }
                None => return Ok(Value::Object(m)),
            }
            if !self.next_item()? {
                return Ok(Value::Object(m));
            }
        }
    }

    /// After an item of an object or array: `,` (true: another item follows), `)` or the end
    /// of a link cut short (false: the container is complete).
    fn next_item(&mut self) -> Result<bool, String> {
        match self.peek() {
            Some(',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(')') => {
                self.pos += 1;
                Ok(false)
            }
            None => {
                self.cut_short = true;
                Ok(false)
            }
            _ => self.error("expected `,` or `)`"),
        }
    }

    fn array(&mut self) -> Result<Value, String> {
        let mut a = Vec::new();
        if self.peek() == Some(')') {
            self.pos += 1;
            return Ok(Value::Array(a));
        }
        loop {
            match self.value()? {
                Some(v) => a.push(v),
                None => return Ok(Value::Array(a)),
            }
            if !self.next_item()? {
                return Ok(Value::Array(a));
            }
        }
    }
}

/// Reads the notation. A text that stops inside a value is closed where it stops
/// ([`Parsed::cut_short`]); anything else malformed is an error saying where.
pub fn from_notation(text: &str) -> Result<Parsed, String> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
        cut_short: false,
    };
    let value = match p.value()? {
        Some(v) => v,
        None => return Err("it is empty".to_string()),
    };
    if p.pos < p.chars.len() {
        return p.error("unexpected text after the end");
    }
    Ok(Parsed {
        value,
        cut_short: p.cut_short,
    })
}

// ---- percent-encoding --------------------------------------------------------------------

/// Percent-encodes everything but the characters a URL fragment carries safely (and never `&`,
/// `=`, `#`, `%`, which separate or escape).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        let c = b as char;
        if c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.'
                    | '_'
                    | '~'
                    | '!'
                    | '$'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | ':'
                    | '@'
                    | '/'
                    | '?'
            )
        {
            out.push(c);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Undoes [`escape`] (and any other percent-encoding); a `%` not followed by two hex digits is
/// kept as it is, and bytes that are not UTF-8 become U+FFFD.
pub fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let hex = |b: u8| (b as char).to_digit(16);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A fragment's `key=value` pairs (separated by `&`, percent-decoded), in order. A leading `#`
/// is skipped; a pair without `=` has an empty value.
pub fn parse_params(fragment: &str) -> Vec<(String, String)> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (unescape(k), unescape(v)),
            None => (unescape(p), String::new()),
        })
        .collect()
}

// ---- the Plan page -----------------------------------------------------------------------

/// What a Plan page link holds: the manifest forecast (`after`), the live version it replaces
/// (`before`, for a change) and the `plan()` options of the assumptions.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanLink {
    /// The manifest (its text as written).
    pub after: String,
    /// The manifest it replaces, for a change (`rollout plan OLD NEW`).
    pub before: Option<String>,
    /// The assumptions, as `plan()`'s options object.
    pub options: Value,
}

/// The Plan page's address for `link` under `base` (the app's address):
/// `https://example.org/rollout-lab/?view=plan#plan=…&before=…&o=…`, each part escaped; the
/// page reads it back with [`decode_plan_link`] and makes the same forecast.
pub fn plan_link(base: &str, link: &PlanLink) -> String {
    let mut out = format!("{base}?view=plan#plan={}", escape(&link.after));
    if let Some(b) = &link.before {
        out.push_str(&format!("&before={}", escape(b)));
    }
    if link.options.as_object().is_some_and(|o| !o.is_empty()) {
        out.push_str(&format!("&o={}", escape(&link.options.to_string())));
    }
    out
}

/// Reads a Plan page fragment written by [`plan_link`]; `None` when it holds no `plan`. Options
/// that are not a JSON object are left out (the page's defaults).
pub fn decode_plan_link(fragment: &str) -> Option<PlanLink> {
    let params = parse_params(fragment);
    let get = |k: &str| {
        params
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let after = get("plan")?;
    crate::limits::check_manifest_text("the link's manifest", &after).ok()?;
    let options = get("o")
        .and_then(|o| serde_json::from_str::<Value>(&o).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| Value::Object(Default::default()));
    Some(PlanLink {
        after,
        before: get("before"),
        options,
    })
}

// ---- scenarios ---------------------------------------------------------------------------

/// The top-level fields [`Scenario::from_value`] fills in when absent, with those values.
fn top_level_defaults() -> Vec<(&'static str, Value)> {
    vec![
        ("name", Value::from("scenario")),
        ("description", Value::from("")),
        ("rounds", Value::from(30)),
        ("secondsPerRound", Value::from(5)),
        ("readyAfterRounds", Value::from(1)),
        ("terminationRounds", Value::from(0)),
        ("neverReadyImages", Value::Array(Vec::new())),
        ("nodes", Value::from(1)),
    ]
}

/// A scenario in the compact notation, percent-encoded for a fragment.
pub fn encode_scenario(s: &Scenario) -> String {
    // Through the text form: the app already has that serializer (to_value would add another).
    let mut v: Value = serde_json::to_string_pretty(s)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        for (k, default) in top_level_defaults() {
            if o.get(k) == Some(&default) {
                o.remove(k);
            }
        }
        if let Some(Value::Array(actions)) = o.get_mut("actions") {
            for a in actions {
                if let Value::Object(a) = a {
                    if a.get("round") == Some(&Value::from(0)) {
                        a.remove("round");
                    }
                }
            }
        }
    }
    escape(&to_notation(&rename(&v, true)))
}

/// What could be read, and what was not.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered<T> {
    /// What was read (or the fallback).
    pub value: T,
    /// One sentence per thing ignored, naming it and why.
    pub ignored: Vec<String>,
    /// Nothing usable was left, so this is the fallback.
    pub fell_back: bool,
}

fn brief(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// `action 2 (round 3): unknown action type `teleport``: an action's error, numbered from 1 and
/// without serde's list of every variant.
fn action_problem(index: usize, e: &crate::scenario::ScenarioError) -> String {
    let path = e.path.replacen(
        &format!("actions[{index}]"),
        &format!("action {}", index + 1),
        1,
    );
    let message = match e.message.strip_prefix("unknown variant ") {
        Some(rest) => format!(
            "unknown action type {}",
            rest.split(", expected").next().unwrap_or(rest)
        ),
        None => e
            .message
            .split("; expected one of")
            .next()
            .unwrap_or_default()
            .to_string(),
    };
    format!("{path}: {message}")
}

/// Reads a scenario written by [`encode_scenario`] (already percent-decoded), keeping every
/// field and action that is valid on its own: a bad field takes the fallback's value, a bad
/// action is dropped. With no readable Deployment to create, the result is `fallback`.
pub fn decode_scenario(text: &str, fallback: &Scenario) -> Recovered<Scenario> {
    let give_up = |why: String, mut ignored: Vec<String>| {
        ignored.push(why);
        Recovered {
            value: fallback.clone(),
            ignored,
            fell_back: true,
        }
    };
    let parsed = match from_notation(text) {
        Ok(p) => p,
        Err(e) => return give_up(format!("the scenario could not be read: {e}"), Vec::new()),
    };
    let mut ignored = Vec::new();
    if parsed.cut_short {
        ignored.push("the link was cut short; what it holds up to there was read".to_string());
    }
    let Value::Object(obj) = rename(&parsed.value, false) else {
        return give_up("the scenario is not an object `(…)`".to_string(), ignored);
    };
    let fallback_json = serde_json::to_value(fallback).unwrap_or(Value::Null);
    let mut out = Map::new();
    let mut actions_value = None;
    for (key, value) in obj {
        if key == "actions" {
            actions_value = Some(value);
            continue;
        }
        let mut probe = Map::new();
        probe.insert(key.clone(), value.clone());
        probe.insert("actions".to_string(), Value::Array(Vec::new()));
        match Scenario::from_value(&Value::Object(probe)) {
            Ok(_) => {
                out.insert(key, value);
            }
            Err(e) if e.message.starts_with("unknown field") => {
                ignored.push(format!("the unknown field `{key}`"));
            }
            Err(e) => {
                let instead = fallback_json.get(&key).cloned();
                ignored.push(match &instead {
                    Some(v) => format!(
                        "`{key}: {}` ({}, so {} is used)",
                        brief(&value),
                        e.message,
                        brief(v)
                    ),
                    None => format!("`{key}` ({})", e.message),
                });
                if let Some(v) = instead {
                    if !v.is_null() {
                        out.insert(key, v);
                    }
                }
            }
        }
    }
    let mut actions = Vec::new();
    match actions_value {
        Some(Value::Array(list)) => {
            for (i, a) in list.into_iter().enumerate() {
                let mut a = a;
                if let Value::Object(o) = &mut a {
                    o.entry("round").or_insert(Value::from(0));
                }
                match Action::from_value(i, &a) {
                    Ok(action) => actions.push(action),
                    Err(e) => ignored.push(action_problem(i, &e)),
                }
            }
        }
        Some(other) => {
            return give_up(
                format!("the actions are not a list `!(…)` but {}", brief(&other)),
                ignored,
            )
        }
        None => return give_up("the scenario has no actions".to_string(), ignored),
    }
    if !actions
        .iter()
        .any(|a| matches!(a.kind, ActionKind::Create { .. }))
    {
        return give_up("the scenario creates no Deployment".to_string(), ignored);
    }
    out.insert("actions".to_string(), Value::Array(Vec::new()));
    match Scenario::from_value(&Value::Object(out)) {
        Ok(mut s) => {
            s.actions = actions;
            Recovered {
                value: s,
                ignored,
                fell_back: false,
            }
        }
        Err(e) => give_up(format!("the scenario could not be read: {e}"), ignored),
    }
}

/// A session as a link holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The scenario, with every action taken so far (and those still pending).
    pub scenario: Scenario,
    /// Steps taken.
    pub step: usize,
    /// The preset the session started from, if any.
    pub preset: Option<String>,
}

/// The fragment (without `#`) for a session.
pub fn encode_link(link: &Link) -> String {
    // A preset's description is long and known: the link leaves it out (decode_link puts it back).
    let preset = link.preset.as_deref().and_then(crate::presets::preset);
    let text = match preset {
        Some(p) if p.scenario.description == link.scenario.description => {
            let mut s = link.scenario.clone();
            s.description.clear();
            encode_scenario(&s)
        }
        _ => encode_scenario(&link.scenario),
    };
    let mut out = format!("s={text}");
    if link.step > 0 {
        out.push_str(&format!("&at={}", link.step));
    }
    if let Some(p) = &link.preset {
        out.push_str(&format!("&p={}", escape(p)));
    }
    out
}

/// Reads a fragment. `None` when it holds no session at all (empty, or none of `s`, `p`, `at`);
/// otherwise the session with what was ignored. A fragment without `s` but with a known preset
/// `p` is that preset's scenario.
pub fn decode_link(fragment: &str, fallback: &Scenario) -> Option<Recovered<Link>> {
    let params = parse_params(fragment);
    if !params
        .iter()
        .any(|(k, _)| matches!(k.as_str(), "s" | "p" | "at"))
    {
        return None;
    }
    let mut ignored = Vec::new();
    let mut scenario_text = None;
    let mut step = 0usize;
    let mut preset = None;
    for (k, v) in params {
        match k.as_str() {
            "s" => scenario_text = Some(v),
            "at" => match v.trim().parse::<usize>() {
                Ok(n) if n <= MAX_LINK_STEPS => step = n,
                Ok(n) => {
                    ignored.push(format!(
                        "step {n} is more than the {MAX_LINK_STEPS} a link may replay; starting at step 0"
                    ));
                }
                Err(_) => ignored.push(format!(
                    "the step `{v}` is not a number; starting at step 0"
                )),
            },
            "p" => preset = Some(v),
            "v" => {
                // Version 2 (a session's link, `session::Session::link`) differs only in what
                // `at` counts, which the session reads.
                if !matches!(v.trim(), "1" | "2") {
                    ignored.push(format!(
                        "the link's version `{v}` is not one this Rollout Lab writes (1 or 2); reading it as version {LINK_VERSION}"
                    ));
                }
            }
            // A session's link (version 2) also says how many single syncs follow the last
            // change and were taken in all, which the session reads.
            "sync" | "syncs" => {}
            // A lesson's link (`&lesson=ID&step=N`) is the app's to open; an unknown id is
            // named here, so that the page can say so.
            "lesson" if crate::lessons::lesson(&v).is_none() => ignored.push(format!(
                "the unknown lesson `{}`",
                crate::limits::prefix(&v, 40)
            )),
            "challenge" if crate::lessons::challenges::challenge(&v).is_none() => ignored.push(
                format!("the unknown challenge `{}`", crate::limits::prefix(&v, 40)),
            ),
            "lesson" | "challenge" | "step" => {}
            other => ignored.push(format!(
                "the unknown part `{}`",
                crate::limits::prefix(other, 40)
            )),
        }
    }
    let known_preset = preset
        .as_deref()
        .and_then(crate::presets::preset)
        .map(|p| (p.id.to_string(), p.scenario));
    if let (Some(p), None) = (&preset, &known_preset) {
        if p != "custom" && p != "imported" {
            ignored.push(format!(
                "the unknown preset `{}`",
                crate::limits::prefix(p, 40)
            ));
        }
    }
    let (scenario, fell_back) = match (scenario_text, &known_preset) {
        (Some(text), _) => {
            let mut r = decode_scenario(&text, fallback);
            ignored.extend(r.ignored);
            if let (false, "", Some((_, p))) =
                (r.fell_back, r.value.description.as_str(), &known_preset)
            {
                r.value.description = p.description.clone();
            }
            (r.value, r.fell_back)
        }
        (None, Some((_, s))) => (s.clone(), false),
        // `p=custom` alone: the scenario the settings make (the caller's default).
        (None, None) if preset.as_deref() == Some("custom") => (fallback.clone(), false),
        (None, None) => {
            ignored.push("the link holds no scenario".to_string());
            (fallback.clone(), true)
        }
    };
    let preset = match (fell_back, known_preset, preset) {
        (true, _, _) => None,
        (false, Some((id, _)), _) => Some(id),
        // The app's own labels for a session that did not start from a preset.
        (false, None, Some(p)) if p == "imported" => Some(p),
        _ => None,
    };
    Some(Recovered {
        value: Link {
            scenario,
            step: if fell_back { 0 } else { step },
            preset,
        },
        ignored,
        fell_back,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn default_like() -> Scenario {
        Scenario::from_value(&json!({
            "name": "rollout-lab", "rounds": 30, "nodes": 3,
            "actions": [{"round": 0, "type": "create", "deployment": {
                "name": "web", "replicas": 3, "image": "nginx:1.14.2",
                "strategy": {"type": "RollingUpdate", "maxSurge": "25%", "maxUnavailable": "25%"}}}]
        }))
        .unwrap()
    }

    fn rich() -> Scenario {
        Scenario::from_value(&json!({
            "name": "rich", "description": "It's a 'test' with ! and & and # and 100% and ü",
            "rounds": 44, "secondsPerRound": 7, "readyAfterRounds": 2, "terminationRounds": 3,
            "neverReadyImages": ["nginx:1.161"], "nodes": 4, "podQuota": 12,
            "model": {"readyJitterRounds": 2, "seed": 99},
            "actions": [
                {"round": 0, "type": "create", "deployment": {
                    "name": "web", "replicas": 10, "image": "registry.example.com:5000/team/app@sha256:abc",
                    "strategy": {"type": "RollingUpdate", "maxSurge": 1, "maxUnavailable": "0%"},
                    "minReadySeconds": 10, "progressDeadlineSeconds": 60, "revisionHistoryLimit": 2,
                    "paused": false, "selector": {"app": "web", "n": "x"}, "templateLabels": {"app": "web", "n": "x", "tier": "a b"}}},
                {"round": 3, "type": "setImage", "image": "nginx:1.161"},
                {"round": 4, "type": "scale", "replicas": 15},
                {"round": 5, "type": "pause"},
                {"round": 6, "type": "resume", "name": "web"},
                {"round": 7, "type": "rollback", "revision": 0},
                {"round": 8, "type": "setStrategy", "strategy": {"type": "Recreate"}},
                {"round": 9, "type": "setMinReadySeconds", "value": 0},
                {"round": 9, "type": "setProgressDeadlineSeconds", "value": 600},
                {"round": 9, "type": "setRevisionHistoryLimit", "value": 10},
                {"round": 10, "type": "setPodDeletionCost", "pod": "web-rev1-00001", "value": -5},
                {"round": 10, "type": "setPodDeletionCost", "pod": "web-rev1-00002"},
                {"round": 11, "type": "restartPod", "pod": "web-rev1-00003"},
                {"round": 12, "type": "setPodQuota"},
                {"round": 12, "type": "setPodQuota", "value": 3}
            ]
        }))
        .unwrap()
    }

    #[test]
    fn scenarios_round_trip_exactly() {
        for s in [default_like(), rich()] {
            let text = encode_scenario(&s);
            let r = decode_scenario(&unescape(&text), &default_like());
            assert_eq!(r.ignored, Vec::<String>::new(), "{text}");
            assert!(!r.fell_back);
            assert_eq!(r.value, s, "{text}");
        }
        for p in crate::presets::presets() {
            let link = Link {
                scenario: p.scenario.clone(),
                step: 12,
                preset: Some(p.id.to_string()),
            };
            let r = decode_link(&format!("#{}", encode_link(&link)), &default_like()).unwrap();
            assert_eq!(r.ignored, Vec::<String>::new());
            assert_eq!(r.value, link);
        }
    }

    #[test]
    fn links_are_compact_and_fragment_safe() {
        let mut s = default_like();
        s.actions.push(Action {
            round: 4,
            kind: ActionKind::SetImage {
                name: None,
                image: "nginx:1.16.1".into(),
            },
        });
        let link = encode_link(&Link {
            scenario: s,
            step: 17,
            preset: None,
        });
        assert_eq!(
            link,
            "s=(n:rollout-lab,nd:3,a:!((t:c,d:(n:web,i:'nginx:1.14.2',rp:3,s:(t:RU,ms:'25%25',mu:'25%25'))),(r:4,t:si,i:'nginx:1.16.1')))&at=17"
        );
        let rich = encode_link(&Link {
            scenario: rich(),
            step: 1,
            preset: None,
        });
        assert!(
            rich.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~!$'()*+,;:@/?%&=".contains(c)),
            "{rich}"
        );
        assert!(!rich.contains('#') && !rich.contains(' '));
    }

    #[test]
    fn full_names_are_read_too() {
        let r = decode_scenario(
            "(name:x,nodes:2,actions:!((round:0,type:create,deployment:(name:web,image:a,replicas:2,strategy:(type:Recreate))),(round:3,type:scale,replicas:4)))",
            &default_like(),
        );
        assert!(r.ignored.is_empty(), "{:?}", r.ignored);
        assert_eq!(r.value.nodes, 2);
        assert_eq!(r.value.actions.len(), 2);
    }

    #[test]
    fn bad_fields_and_actions_are_reported_and_skipped() {
        let fallback = default_like();
        let r = decode_scenario(
            "(n:x,sp:0,nd:2,zz:1,a:!((t:c,d:(n:web,i:a,rp:5)),(r:2,t:si),(r:3,t:teleport),(r:4,t:sc,rp:7)))",
            &fallback,
        );
        assert!(!r.fell_back);
        assert_eq!(r.value.seconds_per_round, 5, "the fallback's");
        assert_eq!(r.value.nodes, 2);
        assert_eq!(r.value.actions.len(), 2, "create and scale");
        let text = r.ignored.join("\n");
        assert!(
            text.contains("`secondsPerRound: 0` (must be at least 1, so 5 is used)"),
            "{text}"
        );
        assert!(text.contains("`zz`"), "{text}");
        assert!(
            text.contains("action 2 (round 2): missing field `image`"),
            "{text}"
        );
        assert!(
            text.ends_with("action 3 (round 3): unknown action type `teleport`"),
            "{text}"
        );
        assert!(text.contains("the unknown field `zz`\n"), "{text}");
        assert_eq!(r.ignored.len(), 4, "{text}");
    }

    #[test]
    fn hopeless_links_fall_back() {
        let fallback = default_like();
        for text in [
            "",
            "((((",
            ")",
            "(a:!((t:si,i:x)))",
            "(n:x)",
            "!(1,2)",
            "(a:5)",
            "(n:'x'y)",
            "%%%%",
        ] {
            let r = decode_scenario(text, &fallback);
            assert!(r.fell_back, "{text}");
            assert_eq!(r.value, fallback);
            assert!(!r.ignored.is_empty(), "{text}");
        }
    }

    #[test]
    fn a_link_cut_short_keeps_what_it_has() {
        let mut s = default_like();
        s.actions.push(Action {
            round: 4,
            kind: ActionKind::SetImage {
                name: None,
                image: "nginx:1.16.1".into(),
            },
        });
        let full = unescape(&encode_scenario(&s));
        let cut = &full[..full.find("(r:4").unwrap() + 4];
        let r = decode_scenario(cut, &default_like());
        assert!(!r.fell_back);
        assert_eq!(
            r.value.actions.len(),
            1,
            "the create survives; the cut action is dropped"
        );
        assert!(r.ignored[0].contains("cut short"), "{:?}", r.ignored);
        // Every prefix decodes without panicking.
        for i in 0..full.len() {
            let _ = decode_scenario(&full[..i], &default_like());
        }
    }

    #[test]
    fn link_parameters() {
        let fallback = default_like();
        assert!(decode_link("", &fallback).is_none());
        assert!(decode_link("#section-2", &fallback).is_none());
        let r = decode_link("#p=rolling-basic&at=9", &fallback).unwrap();
        assert_eq!(r.value.preset.as_deref(), Some("rolling-basic"));
        assert_eq!(r.value.step, 9);
        assert_eq!(
            r.value.scenario,
            crate::presets::preset("rolling-basic").unwrap().scenario
        );
        let r = decode_link("#p=custom", &fallback).unwrap();
        assert!(!r.fell_back && r.ignored.is_empty(), "{:?}", r.ignored);
        assert_eq!(r.value.scenario, fallback);
        let r = decode_link("#p=nope&at=x&zz=1&v=7", &fallback).unwrap();
        assert!(r.fell_back);
        assert_eq!(r.value.step, 0);
        assert_eq!(r.ignored.len(), 5, "{:?}", r.ignored);
        let r = decode_link("#s=(n:x&at=99999999999", &fallback).unwrap();
        assert!(r.fell_back);
    }

    #[test]
    fn random_damage_never_panics() {
        let fallback = default_like();
        let good = encode_link(&Link {
            scenario: rich(),
            step: 5,
            preset: None,
        });
        let alphabet: Vec<char> = "()!,:'%&=#ats0123456789-xyz ".chars().collect();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let mut chars: Vec<char> = good.chars().collect();
            for _ in 0..(next() % 4 + 1) {
                let at = (next() as usize) % chars.len();
                match next() % 3 {
                    0 => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, alphabet[(next() as usize) % alphabet.len()]),
                    _ => chars[at] = alphabet[(next() as usize) % alphabet.len()],
                }
            }
            let text: String = chars.into_iter().collect();
            if let Some(r) = decode_link(&text, &fallback) {
                assert!(
                    r.fell_back || !r.value.scenario.actions.is_empty(),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn percent_decoding_is_lenient() {
        assert_eq!(unescape("25%25"), "25%");
        assert_eq!(unescape("a%2"), "a%2");
        assert_eq!(unescape("%zz%"), "%zz%");
        assert_eq!(unescape("%C3%BC"), "ü");
        assert_eq!(unescape("%FF"), "\u{FFFD}");
        assert_eq!(escape("a b&c=d#e%f'ü"), "a%20b%26c%3Dd%23e%25f'%C3%BC");
    }

    /// `&lesson=ID` is the app's to open: an unknown id is named (a known one, and its step,
    /// pass quietly), and odd parts are quoted only as a short prefix.
    #[test]
    fn unknown_lessons_are_named_and_long_parts_cut() {
        let s = crate::presets::preset("rolling-basic").unwrap().scenario;
        let link = encode_link(&Link {
            scenario: s.clone(),
            step: 2,
            preset: None,
        });
        let r = decode_link(&format!("{link}&lesson=nope&step=2"), &s).unwrap();
        assert_eq!(r.ignored, vec!["the unknown lesson `nope`".to_string()]);
        let id = crate::lessons::lessons()[0].id;
        let r = decode_link(&format!("{link}&lesson={id}&step=2"), &s).unwrap();
        assert!(r.ignored.is_empty(), "{:?}", r.ignored);
        let long = "z".repeat(10_000);
        let r = decode_link(&format!("{link}&{long}=1&p={long}"), &s).unwrap();
        assert!(r.ignored.iter().all(|i| i.len() < 100), "{:?}", r.ignored);
    }
}
