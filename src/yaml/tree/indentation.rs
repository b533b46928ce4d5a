//! YAML's indentation rule for the lines that continue a flow collection or a quoted scalar, which the parser
//! does not check.

use super::SyntaxError;
use crate::source::Span;

/// The 0-based byte column of `offset` on its line.
pub(in crate::yaml) fn column(text: &str, offset: usize) -> usize {
    let before = &text.as_bytes()[..offset.min(text.len())];
    before.len() - before.iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |i| i + 1)
}

/// Every line of `span` after its first must be indented by more than `block` spaces (tabs are not
/// indentation), but for blank lines and, in a flow collection, comment lines.
pub(super) fn check_continuation(text: &str, span: Span, block: usize, flow: bool) -> Result<(), SyntaxError> {
    let bytes = &text.as_bytes()[span.range()];
    let mut at = 0;
    while let Some(next) = bytes[at..].iter().position(|&b| b == b'\n' || b == b'\r') {
        at += next + 1;
        if bytes.get(at - 1) == Some(&b'\r') && bytes.get(at) == Some(&b'\n') {
            at += 1;
        }
        let line = &bytes[at..];
        let end = line.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(line.len());
        let line = &line[..end];
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        let first = line.iter().position(|&b| b != b' ' && b != b'\t');
        let Some(first) = first else { continue };
        if (flow && line[first] == b'#') || spaces > block {
            continue;
        }
        let what = if flow { "a flow collection" } else { "a quoted scalar" };
        let message = if spaces < first {
            format!(
                "this line of {what} is indented with a tab; indent it with more than {block} spaces (tabs are not indentation in YAML)"
            )
        } else {
            format!(
                "this line continues {what} but is indented by {spaces} spaces: YAML needs more than {block}, the indentation of the block it is in"
            )
        };
        return Err(SyntaxError { offset: span.start() + at + first, message });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::yaml::tree::parse;

    #[test]
    fn continuation_lines_must_be_indented_more_than_their_block() {
        // yaml-test-suite 9C9N: a flow sequence whose later lines are not indented.
        let err = parse("---\nflow: [a,\nb,\nc]\n").unwrap_err();
        assert_eq!(err.offset, "---\nflow: [a,\n".len());
        // QB6E: a quoted scalar likewise.
        let err = parse("---\nquoted: \"a\nb\nc\"\n").unwrap_err();
        assert_eq!(err.offset, "---\nquoted: \"a\n".len());
        // DK95 case 01: a tab is not indentation.
        let err = parse("foo: \"bar\n\tbaz\"\n").unwrap_err();
        assert_eq!(err.offset, "foo: \"bar\n\t".len());
        assert!(err.message.contains("tab"), "{}", err.message);
        // Nested: the agent's `tools:` is at column 4.
        let text = "agents:\n  a:\n    tools: [read,\n    grep]\n";
        assert_eq!(parse(text).unwrap_err().offset, text.find("    grep").unwrap() + 4);
        // Indented more, blank lines and comment lines in flow: fine; a flow collection at the root: any indentation.
        for ok in [
            "flow: [a,\n b,\n c]\n",
            "agents:\n  a:\n    tools: [read,\n     grep]\n",
            "quoted: \"a\n\n b\"\n",
            "flow: [a, # one\n# two\n  b]\n",
            "[a,\nb]\n",
            "- [a,\n  b]\n",
            "q: \"a\r b\"\r",
        ] {
            assert!(parse(ok).is_ok(), "{ok:?}: {:?}", parse(ok).err());
        }
        assert!(parse("- \"a\nb\"\n").is_err());
    }
}
