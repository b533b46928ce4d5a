//! YAML 1.2 core-schema typing of plain scalars: `yes` is a string, `~` is null.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Null,
    Bool,
    Int,
    Float,
    Str,
}

impl ScalarKind {
    /// The type as a user reads it in a message.
    pub fn describe(self) -> &'static str {
        match self {
            ScalarKind::Null => "null",
            ScalarKind::Bool => "a boolean",
            ScalarKind::Int => "a number",
            ScalarKind::Float => "a number",
            ScalarKind::Str => "a string",
        }
    }
}

/// The core-schema type of an untagged plain scalar.
pub fn plain_kind(text: &str) -> ScalarKind {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => ScalarKind::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => ScalarKind::Bool,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN"
        | ".NAN" => ScalarKind::Float,
        // A number starts with a digit, a sign or a dot; most scalars (names, paths, refs) start otherwise, and
        // this runs for every plain scalar of every manifest.
        _ if !matches!(text.as_bytes()[0], b'0'..=b'9' | b'-' | b'+' | b'.') => ScalarKind::Str,
        _ if is_int(text) => ScalarKind::Int,
        _ if is_float(text) => ScalarKind::Float,
        _ => ScalarKind::Str,
    }
}

/// The type a core-schema tag (`!!str`, `!!int`, …) forces, if it names one.
pub fn tagged_kind(suffix: &str) -> Option<ScalarKind> {
    Some(match suffix {
        "null" => ScalarKind::Null,
        "bool" => ScalarKind::Bool,
        "int" => ScalarKind::Int,
        "float" => ScalarKind::Float,
        "str" => ScalarKind::Str,
        _ => return None,
    })
}

fn is_int(text: &str) -> bool {
    if let Some(octal) = text.strip_prefix("0o") {
        return !octal.is_empty() && octal.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_float(text: &str) -> bool {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match fraction {
        Some(fraction) => all_digits(whole) && all_digits(fraction) && (!whole.is_empty() || !fraction.is_empty()),
        None => !whole.is_empty() && all_digits(whole),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['-', '+']).unwrap_or(e);
        !digits.is_empty() && all_digits(digits)
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema() {
        for (text, kind) in [
            ("", ScalarKind::Null),
            ("~", ScalarKind::Null),
            ("NULL", ScalarKind::Null),
            ("True", ScalarKind::Bool),
            ("yes", ScalarKind::Str),
            ("no", ScalarKind::Str),
            ("12", ScalarKind::Int),
            ("-3", ScalarKind::Int),
            ("0x1F", ScalarKind::Int),
            ("0o17", ScalarKind::Int),
            ("1.5", ScalarKind::Float),
            (".5", ScalarKind::Float),
            ("1e3", ScalarKind::Float),
            ("-.inf", ScalarKind::Float),
            (".", ScalarKind::Str),
            ("1.2.3", ScalarKind::Str),
            ("beeuni:web_search", ScalarKind::Str),
            ("tools/x.ts", ScalarKind::Str),
            ("+1", ScalarKind::Int),
            ("+.5e-3", ScalarKind::Float),
            ("-", ScalarKind::Str),
            ("e3", ScalarKind::Str),
            ("x1", ScalarKind::Str),
        ] {
            assert_eq!(plain_kind(text), kind, "{text:?}");
        }
    }
}
