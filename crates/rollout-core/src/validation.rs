//! What the API server says about a Deployment on create and on update: apps/v1 defaulting,
//! then the registry strategy (`pkg/registry/apps/deployment/strategy.go`) with
//! `ValidateDeployment` / `ValidateDeploymentUpdate` (`pkg/apis/apps/validation`), reported
//! with Kubernetes' exact wording (`k8s.io/apimachinery/pkg/util/validation/field`) and
//! `apierrors.NewInvalid`'s status message, e.g.
//!
//! ```text
//! Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value:
//! intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0
//! ```
//!
//! Only the fields a [`DeploymentInput`] can express are modelled: metadata (name, namespace
//! `default`, labels `app=<name>`), replicas, selector `matchLabels`, template labels, the one
//! container's image, strategy, minReadySeconds, revisionHistoryLimit, progressDeadlineSeconds
//! and paused. Everything else of a real object is at its default and cannot fail validation.
//!
//! Two deliberate differences from Go: labels are checked in key order (Go walks its maps in
//! random order, so with several bad labels the order of their errors varies between runs), and
//! a heap address printed by `%#v` is written `(0xADDR)`, as the conformance vectors write it.

use crate::api::intstr::is_valid_percent;
use crate::api::{go_quote, IntOrString, StringMap};
use crate::scenario::DeploymentInput;
use serde::Serialize;

/// `apps.RecreateDeploymentStrategyType`.
const RECREATE: &str = "Recreate";
/// `apps.RollingUpdateDeploymentStrategyType`.
const ROLLING_UPDATE: &str = "RollingUpdate";
/// The status code of an `Invalid` StatusError (`http.StatusUnprocessableEntity`).
pub const STATUS_CODE_INVALID: u16 = 422;
/// `metav1.StatusReasonInvalid`.
pub const STATUS_REASON_INVALID: &str = "Invalid";

// ---------------------------------------------------------------------------------------------
// field.Error
// ---------------------------------------------------------------------------------------------

/// `field.ErrorType`: the kinds of field error Deployment validation produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `field.ErrorTypeRequired`.
    Required,
    /// `field.ErrorTypeInvalid`.
    Invalid,
    /// `field.ErrorTypeNotSupported`.
    NotSupported,
    /// `field.ErrorTypeForbidden`.
    Forbidden,
}

impl ErrorType {
    /// The `ErrorType` string, which is also the StatusCause's `reason` (`FieldValueInvalid`).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
        }
    }

    /// `ErrorType.String()`: the human form (`Invalid value`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Required => "Required value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
        }
    }
}

/// One `*field.Error`, with every rendering a client can see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldError {
    /// `Field`, the JSON path, e.g. `spec.strategy.rollingUpdate.maxUnavailable`.
    pub field: String,
    /// The `ErrorType` / StatusCause reason, e.g. `FieldValueInvalid`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `ErrorType.String()`, e.g. `Invalid value`.
    pub type_string: String,
    /// `Error()`: `<field>: <ErrorBody()>`.
    pub message: String,
    /// `ErrorBody()`, the StatusCause's message: the type, the bad value, the detail.
    pub cause_message: String,
    /// `Detail` (may be empty).
    pub detail: String,
}

impl FieldError {
    /// `field.Error{...}` with `ErrorBody()` computed from an already rendered bad value
    /// (`None` when the type does not print one: Required and Forbidden).
    fn new(type_: ErrorType, field: &str, value: Option<String>, detail: &str) -> FieldError {
        let mut body = type_.as_str().to_string();
        if let Some(v) = value {
            body.push_str(": ");
            body.push_str(&v);
        }
        if !detail.is_empty() {
            body.push_str(": ");
            body.push_str(detail);
        }
        FieldError {
            field: field.to_string(),
            type_: type_.reason().to_string(),
            type_string: type_.as_str().to_string(),
            message: format!("{field}: {body}"),
            cause_message: body,
            detail: detail.to_string(),
        }
    }

    /// The error's type as an enum (`None` only for a hand-built value with an unknown type).
    pub fn error_type(&self) -> Option<ErrorType> {
        [
            ErrorType::Required,
            ErrorType::Invalid,
            ErrorType::NotSupported,
            ErrorType::Forbidden,
        ]
        .into_iter()
        .find(|t| t.reason() == self.type_)
    }
}

/// `field.Invalid(path, value, detail)`; `value` is the bad value already rendered the way
/// `ErrorBody` prints it (see the `show_*` helpers).
fn invalid(field: &str, value: String, detail: &str) -> FieldError {
    FieldError::new(ErrorType::Invalid, field, Some(value), detail)
}

/// `field.Required(path, detail)`.
fn required(field: &str, detail: &str) -> FieldError {
    FieldError::new(ErrorType::Required, field, None, detail)
}

/// `field.Forbidden(path, detail)`.
fn forbidden(field: &str, detail: &str) -> FieldError {
    FieldError::new(ErrorType::Forbidden, field, None, detail)
}

/// `field.NotSupported(path, value, validValues)`: the detail lists the values `%q`-quoted.
fn not_supported(field: &str, value: String, valid: &[&str]) -> FieldError {
    let quoted: Vec<String> = valid.iter().map(|v| go_quote(v)).collect();
    let detail = if quoted.is_empty() {
        String::new()
    } else {
        format!("supported values: {}", quoted.join(", "))
    };
    FieldError::new(ErrorType::NotSupported, field, Some(value), &detail)
}

// How `ErrorBody` prints a bad value: integers with `%v`, strings with `%q`, structs and maps
// (which are not `fmt.Stringer`s as values) with `%#v`.

/// An int32/int64 bad value (`%v`).
fn show_int(v: impl Into<i64>) -> String {
    v.into().to_string()
}

/// A string bad value (`%q`).
fn show_str(s: &str) -> String {
    go_quote(s)
}

/// `%#v` of a `map[string]string`: `map[string]string{"app":"web", "tier":"fe"}` (Go sorts keys).
fn show_string_map(m: &StringMap) -> String {
    let entries: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v)))
        .collect();
    format!("map[string]string{{{}}}", entries.join(", "))
}

/// `%#v` of a `metav1.LabelSelector` that only has `matchLabels`.
fn show_selector(match_labels: &StringMap) -> String {
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}",
        show_string_map(match_labels)
    )
}

/// `%#v` of an `apps.DeploymentStrategy`; a non-nil `RollingUpdate` pointer prints as
/// `(0xADDR)` in place of the heap address Go would show.
fn show_strategy(type_: &str, has_rolling_update: bool) -> String {
    format!(
        "apps.DeploymentStrategy{{Type:{}, RollingUpdate:(*apps.RollingUpdateDeployment)({})}}",
        go_quote(type_),
        if has_rolling_update { "0xADDR" } else { "nil" }
    )
}

// ---------------------------------------------------------------------------------------------
// k8s.io/apimachinery/pkg/util/validation: the string checks
// ---------------------------------------------------------------------------------------------

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH: usize = 63;
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH: usize = 63;
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
const PERCENT_FMT: &str = "[0-9]+%";
const PERCENT_ERR: &str =
    "a valid percent string must be a numeric string followed by an ending '%'";

/// `validation.RegexError`: a message, examples and the regex.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, ex) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{ex}', "));
    }
    out.push_str(&format!("regex used for validation is '{fmt}')"));
    out
}

/// `validation.MaxLenError`.
fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// Matches `^E([EM]*E)?$`: one or more characters, the first and last matching `ends`, the
/// others `ends` or `middle`.
fn matches_run(s: &str, ends: fn(u8) -> bool, middle: fn(u8) -> bool) -> bool {
    match s.as_bytes() {
        [] => false,
        [only] => ends(*only),
        [first, inner @ .., last] => {
            ends(*first) && ends(*last) && inner.iter().all(|&c| ends(c) || middle(c))
        }
    }
}

fn is_lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`
fn matches_qualified_name(s: &str) -> bool {
    matches_run(
        s,
        |c| c.is_ascii_alphanumeric(),
        |c| matches!(c, b'-' | b'_' | b'.'),
    )
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
fn matches_dns1123_label(s: &str) -> bool {
    matches_run(s, is_lower_alnum, |c| c == b'-')
}

/// `^<dns1123 label>(\.<dns1123 label>)*$`
fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// `validation.IsQualifiedName`: a label or annotation key, `[prefix/]name`.
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    QUALIFIED_NAME_ERR,
                    QUALIFIED_NAME_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            max_len_error(QUALIFIED_NAME_MAX_LENGTH)
        ));
    }
    if !matches_qualified_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `validation.IsValidLabelValue`.
pub fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(max_len_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !(value.is_empty() || matches_qualified_name(value)) {
        errs.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `validation.IsDNS1123Label`.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            // A valid subdomain but not a label: the length was checked above, so it has dots.
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `validation.IsDNS1123Subdomain` (which is what `apimachineryvalidation.NameIsDNSSubdomain`,
/// the Deployment name check, applies).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `validation.IsValidPercent`.
fn is_valid_percent_msgs(value: &str) -> Vec<String> {
    if is_valid_percent(value) {
        Vec::new()
    } else {
        vec![regex_error(PERCENT_ERR, PERCENT_FMT, &["1%", "93%"])]
    }
}

/// `path.IsValidPathSegmentName` (`ValidatePathSegmentName` without a prefix): the name check
/// the generic registry applies to every object's metadata.
fn is_valid_path_segment_name(name: &str) -> Vec<String> {
    for illegal in [".", ".."] {
        if name == illegal {
            return vec![format!("may not be '{illegal}'")];
        }
    }
    ["/", "%"]
        .into_iter()
        .filter(|c| name.contains(c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

/// Go's `strconv.Atoi` result as `getIntOrPercentValue` uses it, errors ignored: the value, 0
/// on a syntax error, clamped to the int64 range on overflow.
fn go_atoi_lenient(s: &str) -> i64 {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let magnitude = digits.bytes().fold(0i128, |acc, d| {
        (acc * 10 + i128::from(d - b'0')).min(i128::from(u64::MAX) + 1)
    });
    let signed = if neg { -magnitude } else { magnitude };
    signed.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

// ---------------------------------------------------------------------------------------------
// apps/v1 defaulting and the internal object
// ---------------------------------------------------------------------------------------------

/// `apps.RollingUpdateDeployment` (internal: the values are not pointers; an absent value of a
/// non-RollingUpdate strategy converts to the zero `IntOrString`, int 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdate {
    /// `maxUnavailable`.
    pub max_unavailable: IntOrString,
    /// `maxSurge`.
    pub max_surge: IntOrString,
}

/// A Deployment as validation sees it: the request after apps/v1 defaulting
/// (`SetObjectDefaults_Deployment`) and conversion to the internal `apps.Deployment`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DefaultedDeployment {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace` (always `default`).
    pub namespace: String,
    /// `metadata.labels` (`app: <name>`).
    pub labels: StringMap,
    /// `spec.replicas` (defaulted to 1).
    pub replicas: i32,
    /// `spec.selector.matchLabels` (absent: `app: <name>`).
    pub selector: StringMap,
    /// `spec.template.metadata.labels` (absent: `app: <name>`).
    pub template_labels: StringMap,
    /// `spec.template.spec.containers[0].image`.
    pub image: String,
    /// `spec.strategy.type` (empty or absent: `RollingUpdate`; any other string is kept).
    pub strategy_type: String,
    /// `spec.strategy.rollingUpdate`: for RollingUpdate always present, with absent values
    /// defaulted to 25%; for other types present exactly when the request carried the block.
    pub rolling_update: Option<RollingUpdate>,
    /// `spec.minReadySeconds` (defaulted to 0).
    pub min_ready_seconds: i32,
    /// `spec.revisionHistoryLimit` (defaulted to 10).
    pub revision_history_limit: i32,
    /// `spec.progressDeadlineSeconds` (defaulted to 600).
    pub progress_deadline_seconds: i32,
    /// `spec.paused`.
    pub paused: bool,
}

/// `SetDefaults_Deployment` of `pkg/apis/apps/v1/defaults.go` followed by the conversion to the
/// internal type: replicas 1, strategy type `RollingUpdate` when empty, maxSurge and
/// maxUnavailable 25% when absent and the type is RollingUpdate, revisionHistoryLimit 10,
/// progressDeadlineSeconds 600; plus the scenario format's own defaults (labels, selector and
/// template labels `app: <name>`).
pub fn apply_defaults(input: &DeploymentInput) -> DefaultedDeployment {
    let app = || StringMap::from([("app".to_string(), input.name.clone())]);
    let strategy = input.strategy.clone().unwrap_or_default();
    let strategy_type = match strategy.type_.as_deref() {
        None | Some("") => ROLLING_UPDATE.to_string(),
        Some(t) => t.to_string(),
    };
    let rolling_update = if strategy_type == ROLLING_UPDATE {
        let pct = || IntOrString::from("25%");
        Some(RollingUpdate {
            max_unavailable: strategy.max_unavailable.clone().unwrap_or_else(pct),
            max_surge: strategy.max_surge.clone().unwrap_or_else(pct),
        })
    } else if strategy.has_rolling_update_block() {
        // Convert_Pointer_intstr_IntOrString_To_intstr_IntOrString: nil -> the zero value.
        Some(RollingUpdate {
            max_unavailable: strategy
                .max_unavailable
                .clone()
                .unwrap_or(IntOrString::Int(0)),
            max_surge: strategy.max_surge.clone().unwrap_or(IntOrString::Int(0)),
        })
    } else {
        None
    };
    DefaultedDeployment {
        name: input.name.clone(),
        namespace: "default".to_string(),
        labels: app(),
        replicas: input.replicas.unwrap_or(1),
        selector: input.selector.clone().unwrap_or_else(app),
        template_labels: input.template_labels.clone().unwrap_or_else(app),
        image: input.image.clone(),
        strategy_type,
        rolling_update,
        min_ready_seconds: input.min_ready_seconds.unwrap_or(0),
        revision_history_limit: input.revision_history_limit.unwrap_or(10),
        progress_deadline_seconds: input.progress_deadline_seconds.unwrap_or(600),
        paused: input.paused.unwrap_or(false),
    }
}

// ---------------------------------------------------------------------------------------------
// The validation functions
// ---------------------------------------------------------------------------------------------

/// `apivalidation.ValidateNonnegativeField`.
fn validate_nonnegative_field(value: i64, field: &str) -> Vec<FieldError> {
    if value < 0 {
        vec![invalid(
            field,
            show_int(value),
            "must be greater than or equal to 0",
        )]
    } else {
        Vec::new()
    }
}

/// `metav1validation.ValidateLabels` (keys visited in sorted order; Go's order is random).
fn validate_labels(labels: &StringMap, field: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in labels {
        for msg in is_qualified_name(k) {
            errs.push(invalid(field, show_str(k), &msg));
        }
        for msg in is_valid_label_value(v) {
            errs.push(invalid(field, show_str(v), &msg));
        }
    }
    errs
}

/// Whether `metav1.LabelSelectorAsSelector` accepts a `matchLabels`-only selector: every key a
/// qualified name and every value a valid label value (`labels.NewRequirement`).
fn label_selector_parses(match_labels: &StringMap) -> bool {
    match_labels
        .iter()
        .all(|(k, v)| is_qualified_name(k).is_empty() && is_valid_label_value(v).is_empty())
}

/// `labels.Selector.Matches` for a `matchLabels` selector: every pair present in `labels`.
fn selector_matches(match_labels: &StringMap, labels: &StringMap) -> bool {
    match_labels.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// How `ValidateObjectMetaAccessor` checks the name.
#[derive(Clone, Copy)]
enum NameCheck {
    /// `ValidateDeploymentName` = `apimachineryvalidation.NameIsDNSSubdomain`.
    DnsSubdomain,
    /// `path.ValidatePathSegmentName` (the generic registry's common check).
    PathSegment,
}

/// `apimachineryvalidation.ValidateObjectMetaAccessor` for a namespaced object without
/// generateName, annotations, owner references, finalizers or managed fields.
fn validate_object_meta(d: &DefaultedDeployment, check: NameCheck) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if d.name.is_empty() {
        errs.push(required(
            "metadata.name",
            "name or generateName is required",
        ));
    } else {
        let msgs = match check {
            NameCheck::DnsSubdomain => is_dns1123_subdomain(&d.name),
            NameCheck::PathSegment => is_valid_path_segment_name(&d.name),
        };
        for msg in msgs {
            errs.push(invalid("metadata.name", show_str(&d.name), &msg));
        }
    }
    // The namespace is always "default" and the generation never negative: nothing to report.
    errs.extend(validate_labels(&d.labels, "metadata.labels"));
    errs
}

/// `apimachineryvalidation.ValidateObjectMetaAccessorUpdate`: the name is immutable (namespace,
/// uid and timestamps are copied from the old object) and the new labels must be valid.
fn validate_object_meta_update(
    new: &DefaultedDeployment,
    old: &DefaultedDeployment,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if new.name != old.name {
        errs.push(invalid(
            "metadata.name",
            show_str(&new.name),
            "field is immutable",
        ));
    }
    errs.extend(validate_labels(&new.labels, "metadata.labels"));
    errs
}

/// `ValidatePositiveIntOrPercent`: a percentage must match `[0-9]+%`, an int must be >= 0.
fn validate_positive_int_or_percent(value: &IntOrString, field: &str) -> Vec<FieldError> {
    match value {
        IntOrString::String(s) => is_valid_percent_msgs(s)
            .into_iter()
            .map(|msg| invalid(field, value.go_syntax(), &msg))
            .collect(),
        IntOrString::Int(n) => validate_nonnegative_field(i64::from(*n), field),
    }
}

/// `getPercentValue`: the number of a valid percentage.
fn get_percent_value(value: &IntOrString) -> Option<i64> {
    match value {
        IntOrString::String(s) if is_valid_percent(s) => Some(go_atoi_lenient(&s[..s.len() - 1])),
        _ => None,
    }
}

/// `getIntOrPercentValue`: a valid percentage's number, otherwise `IntValue()` (for a string
/// that is `Atoi` of the whole string, 0 when it is not a number: `"abc%"` is 0, `"25"` is 25).
fn get_int_or_percent_value(value: &IntOrString) -> i64 {
    get_percent_value(value).unwrap_or_else(|| match value {
        IntOrString::Int(n) => i64::from(*n),
        IntOrString::String(s) => go_atoi_lenient(s),
    })
}

/// `IsNotMoreThan100Percent`.
fn is_not_more_than_100_percent(value: &IntOrString, field: &str) -> Vec<FieldError> {
    match get_percent_value(value) {
        Some(p) if p > 100 => vec![invalid(
            field,
            value.go_syntax(),
            "must not be greater than 100%",
        )],
        _ => Vec::new(),
    }
}

/// `ValidateRollingUpdateDeployment`.
fn validate_rolling_update_deployment(ru: &RollingUpdate, field: &str) -> Vec<FieldError> {
    let max_unavailable = format!("{field}.maxUnavailable");
    let max_surge = format!("{field}.maxSurge");
    let mut errs = validate_positive_int_or_percent(&ru.max_unavailable, &max_unavailable);
    errs.extend(validate_positive_int_or_percent(&ru.max_surge, &max_surge));
    if get_int_or_percent_value(&ru.max_unavailable) == 0
        && get_int_or_percent_value(&ru.max_surge) == 0
    {
        errs.push(invalid(
            &max_unavailable,
            ru.max_unavailable.go_syntax(),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    errs.extend(is_not_more_than_100_percent(
        &ru.max_unavailable,
        &max_unavailable,
    ));
    errs
}

/// `ValidateDeploymentStrategy`.
fn validate_deployment_strategy(d: &DefaultedDeployment, field: &str) -> Vec<FieldError> {
    let rolling_update_field = format!("{field}.rollingUpdate");
    match (d.strategy_type.as_str(), &d.rolling_update) {
        (RECREATE, Some(_)) => vec![forbidden(
            &rolling_update_field,
            "may not be specified when strategy `type` is 'Recreate'",
        )],
        (RECREATE, None) => Vec::new(),
        (ROLLING_UPDATE, Some(ru)) => validate_rolling_update_deployment(ru, &rolling_update_field),
        (ROLLING_UPDATE, None) => vec![required(
            &rolling_update_field,
            "this should be defaulted and never be nil",
        )],
        (other, ru) => vec![not_supported(
            field,
            show_strategy(other, ru.is_some()),
            &[RECREATE, ROLLING_UPDATE],
        )],
    }
}

/// `ValidatePodTemplateSpecForReplicaSet` with `ValidatePodTemplateSpec` reduced to what the
/// modelled template can get wrong: its labels and the container's image.
fn validate_pod_template_for_replica_set(d: &DefaultedDeployment, field: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    // An empty selector (labels.Everything()) matches anything and is not checked here.
    if !d.selector.is_empty() && !selector_matches(&d.selector, &d.template_labels) {
        errs.push(invalid(
            &format!("{field}.metadata.labels"),
            show_string_map(&d.template_labels),
            "`selector` does not match template `labels`",
        ));
    }
    // ValidatePodTemplateSpec checks the labels under `<template>.labels` (sic, no `metadata`).
    errs.extend(validate_labels(
        &d.template_labels,
        &format!("{field}.labels"),
    ));
    // validateContainerCommon: the image must be set (whitespace is not checked for templates).
    if d.image.is_empty() {
        errs.push(required(&format!("{field}.spec.containers[0].image"), ""));
    }
    errs
}

/// `ValidateDeploymentSpec`.
fn validate_deployment_spec(d: &DefaultedDeployment) -> Vec<FieldError> {
    let mut errs = validate_nonnegative_field(i64::from(d.replicas), "spec.replicas");
    errs.extend(validate_labels(&d.selector, "spec.selector.matchLabels"));
    if d.selector.is_empty() {
        errs.push(invalid(
            "spec.selector",
            show_selector(&d.selector),
            "empty selector is invalid for deployment",
        ));
    }
    if label_selector_parses(&d.selector) {
        errs.extend(validate_pod_template_for_replica_set(d, "spec.template"));
    } else {
        errs.push(invalid(
            "spec.selector",
            show_selector(&d.selector),
            "invalid label selector",
        ));
    }
    errs.extend(validate_deployment_strategy(d, "spec.strategy"));
    errs.extend(validate_nonnegative_field(
        i64::from(d.min_ready_seconds),
        "spec.minReadySeconds",
    ));
    errs.extend(validate_nonnegative_field(
        i64::from(d.revision_history_limit),
        "spec.revisionHistoryLimit",
    ));
    errs.extend(validate_nonnegative_field(
        i64::from(d.progress_deadline_seconds),
        "spec.progressDeadlineSeconds",
    ));
    if d.progress_deadline_seconds <= d.min_ready_seconds {
        errs.push(invalid(
            "spec.progressDeadlineSeconds",
            show_int(d.progress_deadline_seconds),
            "must be greater than minReadySeconds",
        ));
    }
    errs
}

/// `deploymentStrategy.WarningsOnCreate`: a name that is not a DNS label (the pod-template
/// warnings cannot fire for the modelled template).
fn warnings_on_create(d: &DefaultedDeployment) -> Vec<String> {
    let msgs = is_dns1123_label(&d.name);
    if msgs.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [{}]",
            msgs.join(" ")
        )]
    }
}

// ---------------------------------------------------------------------------------------------
// The outcome
// ---------------------------------------------------------------------------------------------

/// What the API server answers to a create or an update.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationOutcome {
    /// The field errors in the order Kubernetes returns them: the StatusError's causes, not
    /// deduplicated.
    pub errors: Vec<FieldError>,
    /// `errs.ToAggregate().Error()`: the messages deduplicated, in `[a, b]` when more than one.
    pub error_string: Option<String>,
    /// The StatusError's message, `Deployment.apps "<name>" is invalid: <error_string>`.
    pub status_error: Option<String>,
    /// `WarningsOnCreate` / `WarningsOnUpdate` (returned whether or not the object is valid).
    pub warnings: Vec<String>,
    /// Updates only: how many of `errors` come from `ValidateDeploymentUpdate` itself. They
    /// follow the generic metadata errors of `rest.BeforeUpdate` (only a renamed object or a
    /// name that makes a bad `app` label has any; the conformance vectors have none, so there
    /// they are the leading errors) and precede the registry's selector-immutability error.
    pub errors_from_validate_deployment_update: Option<usize>,
}

impl ValidationOutcome {
    /// Whether the API server accepts the request.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// The HTTP status of the refusal (422), `None` when valid.
    pub fn status_code(&self) -> Option<u16> {
        (!self.is_valid()).then_some(STATUS_CODE_INVALID)
    }

    /// The Status reason of the refusal (`Invalid`), `None` when valid.
    pub fn status_reason(&self) -> Option<&'static str> {
        (!self.is_valid()).then_some(STATUS_REASON_INVALID)
    }

    /// The errors that belong next to one input control.
    pub fn errors_for(&self, field: InputField) -> impl Iterator<Item = &FieldError> {
        self.errors
            .iter()
            .filter(move |e| field_of(e) == Some(field))
    }

    fn new(
        name: &str,
        errors: Vec<FieldError>,
        warnings: Vec<String>,
        from_update: Option<usize>,
    ) -> ValidationOutcome {
        let error_string = aggregate_error(&errors);
        let status_error = error_string
            .as_ref()
            .map(|s| format!("Deployment.apps {} is invalid: {}", go_quote(name), s));
        ValidationOutcome {
            errors,
            error_string,
            status_error,
            warnings,
            errors_from_validate_deployment_update: from_update,
        }
    }
}

/// `field.ErrorList.ToAggregate().Error()`: duplicate messages dropped, one message as it is,
/// several as `[a, b, ...]`.
fn aggregate_error(errors: &[FieldError]) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for e in errors {
        if !seen.contains(&e.message.as_str()) {
            seen.push(&e.message);
        }
    }
    match seen.as_slice() {
        [] => None,
        [one] => Some(one.to_string()),
        many => Some(format!("[{}]", many.join(", "))),
    }
}

/// The message a client shows for a refused request (the StatusError's), `None` when valid.
pub fn status_message(outcome: &ValidationOutcome) -> Option<&str> {
    outcome.status_error.as_deref()
}

/// `rest.BeforeCreate` with the Deployment strategy: apps/v1 defaulting, `PrepareForCreate`,
/// `Strategy.Validate` = `ValidateDeployment` (metadata, then `ValidateDeploymentSpec`), the
/// generic metadata check when that passed, and `WarningsOnCreate`.
pub fn validate_create(input: &DeploymentInput) -> ValidationOutcome {
    let d = apply_defaults(input);
    let mut errors = validate_object_meta(&d, NameCheck::DnsSubdomain);
    errors.extend(validate_deployment_spec(&d));
    if errors.is_empty() {
        // BeforeCreate's common check, run after the strategy's; a valid DNS subdomain always
        // passes it, so this only keeps the two in step.
        errors = validate_object_meta(&d, NameCheck::PathSegment);
    }
    ValidationOutcome::new(&d.name, errors, warnings_on_create(&d), None)
}

/// `rest.BeforeUpdate` with the Deployment strategy, `old` being the stored object (created
/// from its own input): the generic metadata checks (`validateCommonFields`, which only fail
/// for a renamed object or labels a name cannot make), `ValidateDeploymentUpdate` (metadata
/// update, then `ValidateDeploymentSpec`) and the apps/v1 selector immutability check.
/// `WarningsOnUpdate` only has pod-template warnings, which the modelled template never has.
pub fn validate_update(new: &DeploymentInput, old: &DeploymentInput) -> ValidationOutcome {
    let new = apply_defaults(new);
    let old = apply_defaults(old);
    let mut errors = validate_object_meta(&new, NameCheck::PathSegment);
    errors.extend(validate_object_meta_update(&new, &old));
    let common = errors.len();
    errors.extend(validate_object_meta_update(&new, &old));
    errors.extend(validate_deployment_spec(&new));
    let from_update = errors.len() - common;
    // apivalidation.ValidateImmutableField (Semantic.DeepEqual: nil and empty maps are equal).
    if new.selector != old.selector {
        errors.push(invalid(
            "spec.selector",
            show_selector(&new.selector),
            "field is immutable",
        ));
    }
    ValidationOutcome::new(&new.name, errors, Vec::new(), Some(from_update))
}

// ---------------------------------------------------------------------------------------------
// Errors to input controls
// ---------------------------------------------------------------------------------------------

/// A field a scenario's author sets, and so the control of a form that sets it: the
/// Deployment's ([`DeploymentInput`]; a field error belongs to one of these, [`field_of`]) and
/// the cluster model's (the scenario's `readyAfterRounds`, `nodes`, …). One enum for the
/// validation's messages, the app's settings form and the JavaScript API's field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum InputField {
    /// `name` (also errors about the `app=<name>` metadata label).
    Name,
    /// `replicas`.
    Replicas,
    /// `image`.
    Image,
    /// `strategy` as a whole (its type, or a rollingUpdate block where none is allowed).
    Strategy,
    /// `strategy.maxSurge`.
    MaxSurge,
    /// `strategy.maxUnavailable`.
    MaxUnavailable,
    /// `minReadySeconds`.
    MinReadySeconds,
    /// `progressDeadlineSeconds`.
    ProgressDeadlineSeconds,
    /// `revisionHistoryLimit`.
    RevisionHistoryLimit,
    /// `selector`.
    Selector,
    /// `templateLabels`.
    TemplateLabels,
    /// Cluster model: rounds from a pod's creation until it is ready (`readyAfterRounds`).
    ReadyAfterRounds,
    /// Cluster model: up to this many rounds more, per pod (`model.readyJitterRounds`).
    ReadyJitterRounds,
    /// Cluster model: nodes (`nodes`).
    Nodes,
    /// Cluster model: rounds a deleted pod stays Terminating (`terminationRounds`).
    TerminationRounds,
    /// Cluster model: simulated seconds per round (`secondsPerRound`).
    SecondsPerRound,
    /// Cluster model: how the next image's app fails (`model.failures`: `crash:after=5s`,
    /// `probe:after=5s`, `readiness:from=30s,to=90s`, `slow:ready=45s`, `pull`; empty: it does
    /// not).
    Failure,
    /// Traffic model: requests a second sent to the Service (`model.traffic.load`).
    Load,
    /// Traffic model: requests a second one pod serves at most (`model.traffic.podCapacity`;
    /// empty: no limit).
    PodCapacity,
    /// Traffic model: seconds for an endpoint change to reach the proxies
    /// (`model.traffic.endpointDelaySeconds`).
    EndpointDelaySeconds,
    /// Traffic model: seconds the app takes to exit after SIGTERM
    /// (`model.traffic.exitAfterSigtermSeconds`).
    ExitAfterSigtermSeconds,
    /// Traffic model: the container's `preStop` sleep (`model.traffic.preStopSleepSeconds`).
    PreStopSleepSeconds,
}

impl InputField {
    /// The Deployment's fields a form sets, in form order.
    pub const SPEC: [InputField; 7] = [
        InputField::Replicas,
        InputField::Strategy,
        InputField::MaxSurge,
        InputField::MaxUnavailable,
        InputField::MinReadySeconds,
        InputField::ProgressDeadlineSeconds,
        InputField::RevisionHistoryLimit,
    ];
    /// The cluster model's fields, in form order.
    pub const MODEL: [InputField; 6] = [
        InputField::ReadyAfterRounds,
        InputField::ReadyJitterRounds,
        InputField::Nodes,
        InputField::TerminationRounds,
        InputField::SecondsPerRound,
        InputField::Failure,
    ];
    /// The traffic model's fields (the Service's requests: read by no controller), in form
    /// order.
    pub const TRAFFIC: [InputField; 5] = [
        InputField::Load,
        InputField::PodCapacity,
        InputField::EndpointDelaySeconds,
        InputField::ExitAfterSigtermSeconds,
        InputField::PreStopSleepSeconds,
    ];

    /// Whether it is one of the Deployment's fields a form sets ([`InputField::SPEC`]: an
    /// update mid-rollout) rather than the cluster model's (applied by a reset).
    pub fn is_spec(self) -> bool {
        InputField::SPEC.contains(&self)
    }

    /// The key of the field in the scenario / [`DeploymentInput`] JSON format (a dotted path
    /// for the one in the scenario's `model` object).
    pub fn as_str(self) -> &'static str {
        match self {
            InputField::Name => "name",
            InputField::Replicas => "replicas",
            InputField::Image => "image",
            InputField::Strategy => "strategy",
            InputField::MaxSurge => "maxSurge",
            InputField::MaxUnavailable => "maxUnavailable",
            InputField::MinReadySeconds => "minReadySeconds",
            InputField::ProgressDeadlineSeconds => "progressDeadlineSeconds",
            InputField::RevisionHistoryLimit => "revisionHistoryLimit",
            InputField::Selector => "selector",
            InputField::TemplateLabels => "templateLabels",
            InputField::ReadyAfterRounds => "readyAfterRounds",
            InputField::ReadyJitterRounds => "model.readyJitterRounds",
            InputField::Nodes => "nodes",
            InputField::TerminationRounds => "terminationRounds",
            InputField::SecondsPerRound => "secondsPerRound",
            InputField::Failure => "model.failures",
            InputField::Load => "model.traffic.load",
            InputField::PodCapacity => "model.traffic.podCapacity",
            InputField::EndpointDelaySeconds => "model.traffic.endpointDelaySeconds",
            InputField::ExitAfterSigtermSeconds => "model.traffic.exitAfterSigtermSeconds",
            InputField::PreStopSleepSeconds => "model.traffic.preStopSleepSeconds",
        }
    }
}

/// Which input control a field error is about (by its `field` path), so a form can show the
/// message next to it; `None` for a path no control sets.
pub fn field_of(err: &FieldError) -> Option<InputField> {
    let f = err.field.as_str();
    let under = |prefix: &str| f == prefix || f.starts_with(&format!("{prefix}."));
    Some(match f {
        "metadata.name" | "metadata.labels" => InputField::Name,
        "spec.replicas" => InputField::Replicas,
        "spec.template.spec.containers[0].image" => InputField::Image,
        "spec.template.metadata.labels" | "spec.template.labels" => InputField::TemplateLabels,
        "spec.strategy.rollingUpdate.maxSurge" => InputField::MaxSurge,
        "spec.strategy.rollingUpdate.maxUnavailable" => InputField::MaxUnavailable,
        "spec.minReadySeconds" => InputField::MinReadySeconds,
        "spec.progressDeadlineSeconds" => InputField::ProgressDeadlineSeconds,
        "spec.revisionHistoryLimit" => InputField::RevisionHistoryLimit,
        _ if under("spec.selector") => InputField::Selector,
        _ if under("spec.strategy") => InputField::Strategy,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::StrategyInput;

    fn web() -> DeploymentInput {
        DeploymentInput {
            name: "web".into(),
            replicas: Some(3),
            image: "nginx:1.14".into(),
            ..Default::default()
        }
    }

    fn rolling(surge: IntOrString, unavailable: IntOrString) -> Option<StrategyInput> {
        Some(StrategyInput {
            type_: Some("RollingUpdate".into()),
            max_surge: Some(surge),
            max_unavailable: Some(unavailable),
            with_rolling_update: None,
        })
    }

    #[test]
    fn every_cluster_model_field_is_a_key_of_the_scenario_format() {
        let scenario = crate::scenario::Scenario::from_json(
            r#"{"name":"t","rounds":3,"readyAfterRounds":2,"model":{"readyJitterRounds":1,"failures":{"web:2":"pull"}},
                "nodes":2,"terminationRounds":1,"secondsPerRound":5,"actions":[]}"#,
        )
        .unwrap();
        let value = serde_json::to_value(&scenario).unwrap();
        for f in InputField::MODEL {
            let found = f.as_str().split('.').try_fold(&value, |v, key| v.get(key));
            assert!(found.is_some(), "{f:?}: {}", f.as_str());
            assert!(!f.is_spec());
        }
        assert!(InputField::SPEC.iter().all(|f| f.is_spec()));
    }

    #[test]
    fn defaults_are_valid() {
        let out = validate_create(&web());
        assert!(out.is_valid());
        assert_eq!(out.error_string, None);
        assert_eq!(status_message(&out), None);
        assert_eq!(out.status_code(), None);
        let d = apply_defaults(&web());
        assert_eq!(d.strategy_type, "RollingUpdate");
        assert_eq!(
            d.rolling_update,
            Some(RollingUpdate {
                max_unavailable: "25%".into(),
                max_surge: "25%".into()
            })
        );
        assert_eq!(
            (d.revision_history_limit, d.progress_deadline_seconds),
            (10, 600)
        );
    }

    #[test]
    fn both_zero_is_refused_with_the_go_value() {
        let mut input = web();
        input.strategy = rolling(0.into(), 0.into());
        let out = validate_create(&input);
        assert_eq!(out.errors.len(), 1);
        let e = &out.errors[0];
        assert_eq!(e.field, "spec.strategy.rollingUpdate.maxUnavailable");
        assert_eq!(e.type_, "FieldValueInvalid");
        assert_eq!(
            e.cause_message,
            "Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0"
        );
        assert_eq!(
            status_message(&out),
            Some("Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0")
        );
        assert_eq!(field_of(e), Some(InputField::MaxUnavailable));
        assert_eq!(out.status_code(), Some(422));
    }

    #[test]
    fn int_value_semantics_of_the_both_zero_check() {
        // "abc%" is not a valid percentage and counts as Atoi("abc%") = 0.
        let mut input = web();
        input.strategy = rolling("abc%".into(), "abc%".into());
        let out = validate_create(&input);
        assert_eq!(out.errors.len(), 3);
        assert!(out.errors[2]
            .message
            .ends_with("may not be 0 when `maxSurge` is 0"));
        // "25" is not a valid percentage either, but counts as 25.
        input.strategy = rolling("25".into(), 0.into());
        let out = validate_create(&input);
        assert_eq!(out.errors.len(), 1);
        assert_eq!(out.errors[0].field, "spec.strategy.rollingUpdate.maxSurge");
    }

    #[test]
    fn recreate_with_rolling_update_and_unknown_types() {
        let mut input = web();
        input.strategy = Some(StrategyInput {
            type_: Some("Recreate".into()),
            with_rolling_update: Some(true),
            ..Default::default()
        });
        let out = validate_create(&input);
        assert_eq!(
            out.error_string.as_deref(),
            Some("spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'")
        );
        assert_eq!(
            out.errors[0].detail,
            "may not be specified when strategy `type` is 'Recreate'"
        );
        input.strategy = Some(StrategyInput {
            type_: Some("rollingupdate".into()),
            max_surge: Some(1.into()),
            ..Default::default()
        });
        let out = validate_create(&input);
        assert_eq!(
            out.errors[0].cause_message,
            "Unsupported value: apps.DeploymentStrategy{Type:\"rollingupdate\", RollingUpdate:(*apps.RollingUpdateDeployment)(0xADDR)}: supported values: \"Recreate\", \"RollingUpdate\""
        );
        assert_eq!(field_of(&out.errors[0]), Some(InputField::Strategy));
    }

    #[test]
    fn several_errors_are_bracketed_and_deduplicated() {
        let mut input = web();
        input.progress_deadline_seconds = Some(-1);
        let out = validate_create(&input);
        assert_eq!(
            out.error_string.as_deref(),
            Some("[spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds]")
        );
        let e = required("x", "");
        assert_eq!(
            aggregate_error(&[e.clone(), e.clone()]),
            Some("x: Required value".into())
        );
        let f = required("y", "");
        assert_eq!(
            aggregate_error(&[e.clone(), f, e]),
            Some("[x: Required value, y: Required value]".into())
        );
    }

    #[test]
    fn name_checks_and_warnings() {
        let mut input = web();
        input.name = "web.v1".into();
        let out = validate_create(&input);
        assert!(out.is_valid());
        assert_eq!(
            out.warnings,
            vec!["metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]".to_string()]
        );
        // A 64-character name is a valid subdomain but not a valid label value: the app label
        // fails in metadata and in the selector, which then cannot be parsed.
        input.name = "a".repeat(64);
        let out = validate_create(&input);
        let fields: Vec<&str> = out.errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "metadata.labels",
                "spec.selector.matchLabels",
                "spec.selector"
            ]
        );
        assert_eq!(out.errors[2].detail, "invalid label selector");
    }

    #[test]
    fn update_selector_is_immutable() {
        let mut new = web();
        new.selector = Some(StringMap::from([("app".into(), "web2".into())]));
        let out = validate_update(&new, &web());
        assert_eq!(out.errors_from_validate_deployment_update, Some(1));
        assert_eq!(out.errors.len(), 2);
        assert_eq!(out.errors[0].field, "spec.template.metadata.labels");
        assert_eq!(
            out.errors[1].message,
            "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"
        );
        assert!(validate_update(&web(), &web()).is_valid());
    }

    #[test]
    fn string_checks_follow_apimachinery() {
        assert!(is_qualified_name("example.com/MyName").is_empty());
        assert_eq!(
            is_qualified_name("/x"),
            vec!["prefix part must be non-empty".to_string()]
        );
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert!(is_valid_label_value("").is_empty());
        assert_eq!(is_valid_label_value("-a").len(), 1);
        assert!(is_dns1123_subdomain("a.b-c").is_empty());
        assert_eq!(is_dns1123_subdomain("a..b").len(), 1);
        assert_eq!(go_atoi_lenient("99999999999999999999"), i64::MAX);
        assert_eq!(go_atoi_lenient("-12"), -12);
        assert_eq!(go_atoi_lenient("1_0"), 0);
    }
}
