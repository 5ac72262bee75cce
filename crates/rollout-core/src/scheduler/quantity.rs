//! `resource.Quantity` (k8s.io/apimachinery `pkg/api/resource/quantity.go`, `ParseQuantity`):
//! `600m`, `1`, `0.5`, `4Gi`, `512Mi`, `1e3`, read exactly and scaled up as `MilliValue()` and
//! `Value()` do (rounding up). `0.5` CPU is 500 millicores; `1.5Gi` is 1,610,612,736 bytes;
//! `100n` CPU rounds up to 1 millicore.

/// `resource.ErrFormatWrong`'s text.
pub const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// A parsed quantity: `mantissa × 10^exp10 × 2^binary`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parsed {
    mantissa: i128,
    exp10: i32,
    binary: u32,
}

fn parse(text: &str) -> Result<Parsed, String> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    let number = number.strip_prefix('+').unwrap_or(number);
    if number.starts_with('-') {
        return Err(format!("{text}: must be greater than or equal to 0"));
    }
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if (whole.is_empty() && frac.is_empty())
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
        || whole.len() + frac.len() > 30
    {
        return Err(FORMAT_WRONG.to_string());
    }
    let digits = format!("{whole}{frac}");
    let mantissa: i128 = digits.parse().map_err(|_| FORMAT_WRONG.to_string())?;
    let mut exp10 = -(frac.len() as i32);
    let mut binary = 0;
    match suffix {
        "" => {}
        "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
            let i = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                .iter()
                .position(|x| *x == suffix)
                .unwrap_or(0);
            binary = 10 * (i as u32 + 1);
        }
        "n" => exp10 -= 9,
        "u" => exp10 -= 6,
        "m" => exp10 -= 3,
        "k" => exp10 += 3,
        "M" => exp10 += 6,
        "G" => exp10 += 9,
        "T" => exp10 += 12,
        "P" => exp10 += 15,
        "E" => exp10 += 18,
        e if e.starts_with(['e', 'E']) => {
            let n: i32 = e[1..].parse().map_err(|_| FORMAT_WRONG.to_string())?;
            if !(-30..=30).contains(&n) {
                return Err(FORMAT_WRONG.to_string());
            }
            exp10 += n;
        }
        _ => return Err(FORMAT_WRONG.to_string()),
    }
    Ok(Parsed {
        mantissa,
        exp10,
        binary,
    })
}

/// The value in units of 10^`scale` (−3: milli), rounded up, at most `i64::MAX`.
fn scaled(p: Parsed, scale: i32) -> i64 {
    let mut n = p.mantissa;
    for _ in 0..p.binary {
        n = n.saturating_mul(2);
    }
    let e = p.exp10 - scale;
    let v = if e >= 0 {
        (0..e).fold(n, |n, _| n.saturating_mul(10))
    } else {
        let d = (0..-e).fold(1i128, |d, _| d.saturating_mul(10));
        (n + d - 1) / d
    };
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// `q.MilliValue()`: CPU in millicores (`600m` → 600, `2` → 2000, `0.5` → 500).
pub fn parse_millis(text: &str) -> Result<i64, String> {
    parse(text).map(|p| scaled(p, -3))
}

/// `q.Value()`: memory in bytes (`4Gi` → 4,294,967,296, `128M` → 128,000,000).
pub fn parse_bytes(text: &str) -> Result<i64, String> {
    parse(text).map(|p| scaled(p, 0))
}

/// A JSON quantity: a string, or a number as YAML writes `cpu: 2`.
pub fn text_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Millicores as a quantity's canonical text: 2000 → `2`, 600 → `600m`.
pub fn millis_text(m: i64) -> String {
    if m % 1000 == 0 {
        (m / 1000).to_string()
    } else {
        format!("{m}m")
    }
}

/// Bytes as the largest binary suffix that divides them: 4 GiB → `4Gi`, 1,000 → `1000`.
pub fn bytes_text(b: i64) -> String {
    for (shift, suffix) in [(40, "Ti"), (30, "Gi"), (20, "Mi"), (10, "Ki")] {
        if b != 0 && b % (1i64 << shift) == 0 {
            return format!("{}{suffix}", b >> shift);
        }
    }
    b.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_reads_in_millicores_rounding_up() {
        assert_eq!(parse_millis("600m"), Ok(600));
        assert_eq!(parse_millis("2"), Ok(2000));
        assert_eq!(parse_millis("0.5"), Ok(500));
        assert_eq!(parse_millis(".5"), Ok(500));
        assert_eq!(parse_millis("100n"), Ok(1));
        assert_eq!(parse_millis("1e3"), Ok(1_000_000));
        assert_eq!(parse_millis("+1"), Ok(1000));
    }

    #[test]
    fn memory_reads_in_bytes() {
        // 1.5 × 2^30 = 1,610,612,736.
        assert_eq!(parse_bytes("1.5Gi"), Ok(1_610_612_736));
        assert_eq!(parse_bytes("128M"), Ok(128_000_000));
        assert_eq!(parse_bytes("64Mi"), Ok(67_108_864));
        assert_eq!(bytes_text(4 << 30), "4Gi");
        assert_eq!(millis_text(600), "600m");
        assert_eq!(millis_text(2000), "2");
    }

    #[test]
    fn malformed_and_negative_quantities_are_refused() {
        for bad in ["", "abc", "1Gb", "1..2", "m", "1e"] {
            assert_eq!(parse_millis(bad), Err(FORMAT_WRONG.to_string()), "{bad}");
        }
        assert!(parse_bytes("-1Gi")
            .unwrap_err()
            .contains("greater than or equal to 0"));
    }
}
