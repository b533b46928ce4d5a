//! The scan's byte-level reading: which words start an expression or recurse, and where a line, comment,
//! string or regular expression ends.

/// Words after which an expression starts (so `/` begins a regular expression and `-` is a sign).
/// A `match` on byte strings: this runs for every word of every module.
pub(super) fn is_operator_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"return"
            | b"typeof"
            | b"instanceof"
            | b"in"
            | b"of"
            | b"new"
            | b"delete"
            | b"void"
            | b"throw"
            | b"case"
            | b"do"
            | b"else"
            | b"yield"
            | b"await"
            | b"extends"
            | b"keyof"
            | b"readonly"
            | b"unique"
            | b"infer"
            | b"if"
            | b"while"
            | b"for"
            | b"with"
    )
}

/// Prefix words, in expressions and types, that the parser handles by recursing into their operand.
pub(super) fn is_prefix_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"typeof"
            | b"void"
            | b"delete"
            | b"await"
            | b"new"
            | b"yield"
            | b"keyof"
            | b"readonly"
            | b"unique"
            | b"infer"
            | b"extends"
    )
}

/// Words that start a declaration, never an operator or operand that goes on with the expression before them: one at
/// the start of a line after an operand starts a statement.
pub(super) fn is_declaration_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"const"
            | b"let"
            | b"var"
            | b"function"
            | b"class"
            | b"export"
            | b"import"
            | b"interface"
            | b"type"
            | b"enum"
            | b"declare"
            | b"namespace"
            | b"abstract"
    )
}

pub(super) fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'\\' || b >= 0x80
}

pub(super) fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..].iter().position(|&b| b == b'\n' || b == b'\r').map_or(bytes.len(), |p| from + p)
}

pub(super) fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

/// Skips a string body; a newline ends it too, so that a misread quote hides at most one line.
pub(super) fn skip_string(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') => i += 3,
            b'\\' => i += 2,
            b'\n' | b'\r' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Skips a regular expression body (a `/` inside `[...]` does not end it) and stops at a newline likewise.
pub(super) fn skip_regex(bytes: &[u8], mut i: usize) -> usize {
    let mut class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' | b'\r' => return i,
            b'[' => {
                class = true;
                i += 1;
            }
            b']' => {
                class = false;
                i += 1;
            }
            b'/' if !class => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}
