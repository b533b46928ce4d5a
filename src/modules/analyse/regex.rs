//! Regular expression literals, parsed after the walk rather than by the parser. oxc's pattern parser recurses
//! once per group (and per nested class of a `v`-flag pattern) without a limit of its own: 100,000 nested groups
//! overflow the 64 MiB analysis stack. And its check for duplicate group names compares each name with every
//! earlier one, keeping a path as long as the nesting for each: 120,000 named groups took 33 s, 30,000 nested ones
//! 1.8 GB. The walk hands over each literal exactly as the parser read it, so its pattern is measured exactly
//! here (no guess at where a regular expression starts, as the depth scan must make) before it is parsed.

use oxc_allocator::Allocator;
use oxc_regular_expression::{LiteralParser, Options};

use super::early;
use crate::modules::facts::{NotAnalysed, SyntaxError};
use crate::source::Span;

/// Groups and classes nested deeper than this in one pattern are refused. The 64 MiB stack takes about 95,000
/// nested groups in a release build (`v`-flag classes about 144,000), but only about 4,100 (and 4,950) in the fuzz
/// smoke build, unoptimised and instrumented for coverage: a margin of 4 there, 95 in a release.
const MAX_NESTING: usize = 1_000;
/// More named groups than this in one pattern are refused: the duplicate check costs the square of their number.
/// 1,000 take 2 ms (4.7 MB when nested).
const MAX_NAMED_GROUPS: usize = 1_000;
/// And more than this in all the patterns of a module: bounds the sum of those squares (10 patterns of 1,000).
const MAX_MODULE_NAMED_GROUPS: usize = 10_000;
/// Patterns longer than this in all, in one module, are refused: the pattern parser reads some 16 MB a second
/// (a release build; the parser 150 MB of strings), so that 29 MB of patterns took 2 s.
const MAX_MODULE_PATTERN_BYTES: usize = 1 << 20;

/// A regular expression literal as the walk found it, borrowed from the program.
#[derive(Clone, Copy)]
pub(super) struct RegexLiteral<'a> {
    /// Of the whole literal, slashes and flags included.
    pub span: oxc_span::Span,
    /// Between the slashes.
    pub pattern: &'a str,
    /// After the closing slash.
    pub flags: &'a str,
}

/// A limit a pattern passes.
#[derive(Debug, PartialEq)]
enum Breach {
    Nesting,
    NamedGroups,
    ModuleNamedGroups,
    ModulePatternBytes,
}

impl Breach {
    fn why(&self) -> String {
        match self {
            Breach::Nesting => format!(
                "has a regular expression nested more than {MAX_NESTING} groups or classes deep, deeper than beeuni-lint analyses"
            ),
            Breach::NamedGroups => format!(
                "has a regular expression with more than {MAX_NAMED_GROUPS} named groups, more than beeuni-lint analyses"
            ),
            Breach::ModuleNamedGroups => format!(
                "has more than {MAX_MODULE_NAMED_GROUPS} named groups in its regular expressions, more than beeuni-lint analyses"
            ),
            Breach::ModulePatternBytes => format!(
                "has more than {} MiB of regular expressions, more than beeuni-lint analyses",
                MAX_MODULE_PATTERN_BYTES >> 20
            ),
        }
    }
}

/// What the patterns of a module come to.
pub(super) enum Checked {
    Valid,
    /// The first invalid pattern's error (the only one a module's report shows: none after it is parsed).
    Invalid(SyntaxError),
    /// The first pattern past a limit: not parsed, nor any after it.
    Refused(NotAnalysed),
}

/// Parses each literal's pattern as oxc's parser does with `parse_regular_expression`, up to the first invalid
/// one, or the first that passes a limit (located at the group or class that passes it).
pub(super) fn check(literals: &[RegexLiteral]) -> Checked {
    if literals.is_empty() {
        return Checked::Valid;
    }
    // Only an error is kept, so each pattern's tree (some 65 bytes a byte of pattern) is let go before the
    // next is parsed: in the module's arena, 30 MB of patterns took 1.5 GB.
    let mut scratch = Allocator::default();
    let (mut named_in_module, mut pattern_bytes) = (0, 0);
    for literal in literals {
        // The parser reported bad flags, and parses no pattern after them.
        if !flags_are_valid(literal.flags) {
            continue;
        }
        let pattern_span_offset = literal.span.start + 1;
        pattern_bytes += literal.pattern.len();
        // Measuring is cheap: a long pattern is refused for what it holds first, if it holds too much.
        let within =
            if pattern_bytes > MAX_MODULE_PATTERN_BYTES { Err((0, Breach::ModulePatternBytes)) } else { Ok(()) };
        let measured = measure(literal.pattern, literal.flags.contains('v'), &mut named_in_module).and(within);
        if let Err((offset, breach)) = measured {
            let at = pattern_span_offset as usize + offset;
            return Checked::Refused(NotAnalysed { span: Span::new(at, at + 1), why: breach.why() });
        }
        // Spans are `u32` in oxc: the pattern's length fits, as the literal's end does.
        let flags_span_offset = pattern_span_offset + literal.pattern.len() as u32 + 1;
        let options = Options { pattern_span_offset, flags_span_offset };
        if let Err(diagnostic) = LiteralParser::new(&scratch, literal.pattern, Some(literal.flags), options).parse() {
            return Checked::Invalid(early::syntax_error(&diagnostic, false));
        }
        scratch.reset();
    }
    Checked::Valid
}

/// Flags oxc's lexer accepts (each known, none twice); after others it parses no pattern.
fn flags_are_valid(flags: &str) -> bool {
    let mut seen = 0u8;
    flags.bytes().all(|flag| {
        let Some(bit) = b"dgimsuvy".iter().position(|&known| known == flag) else { return false };
        let first = seen & 1 << bit == 0;
        seen |= 1 << bit;
        first
    })
}

/// Reads `pattern` as oxc's parser does, erring high, and adds its named groups to `named_in_module`: the offset
/// of the first group or class that passes a limit. A `[` opens a class until the next `]`, as the lexer and the
/// parser's pre-pass over group names read it (a `v`-flag class may nest, and a `(` inside one is an error that
/// ends the parse); an escape takes the next byte; `(?<` not followed by `=` or `!` opens a named group.
fn measure(pattern: &str, unicode_sets: bool, named_in_module: &mut usize) -> Result<(), (usize, Breach)> {
    let bytes = pattern.as_bytes();
    let (mut depth, mut named, mut in_class, mut i) = (0usize, 0usize, false, 0);
    while i < bytes.len() {
        let opens = match bytes[i] {
            b'\\' => {
                i += 1;
                false
            }
            b'[' => {
                in_class = true;
                unicode_sets
            }
            b']' => {
                if unicode_sets {
                    depth = depth.saturating_sub(1);
                }
                in_class = false;
                false
            }
            b'(' => !in_class,
            b')' if !in_class => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => false,
        };
        if opens {
            depth += 1;
            if depth > MAX_NESTING {
                return Err((i, Breach::Nesting));
            }
        }
        if opens
            && bytes[i] == b'('
            && bytes[i + 1..].starts_with(b"?<")
            && !matches!(bytes.get(i + 3), Some(b'=' | b'!'))
        {
            named += 1;
            *named_in_module += 1;
            if named > MAX_NAMED_GROUPS {
                return Err((i, Breach::NamedGroups));
            }
            if *named_in_module > MAX_MODULE_NAMED_GROUPS {
                return Err((i, Breach::ModuleNamedGroups));
            }
        }
        i += 1;
    }
    Ok(())
}
