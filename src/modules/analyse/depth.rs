//! A cheap scan, before parsing, that bounds how deep oxc's recursive-descent parser will recurse.
//!
//! oxc has no depth limit of its own: 50,000 nested parentheses, or a long run of `!`, `a = b = …`,
//! `x => y => …` or `else if` without braces, overflow even a 64 MiB stack. The scan is a rough tokenizer
//! (it skips strings, comments, template text and regular expressions) that tracks the bracket nesting and,
//! at each bracket level, counts the tokens that make the parser recurse without a bracket. Both estimates
//! are meant to err high. The limits are what the 64 MiB stack of an analysis thread takes (parse, visit and
//! early errors), measured in a release build, with a margin of at least 4.5 (docs/limits.md).
//! A text too short to reach them is not scanned at all ([`may_be_too_deep`]). Where a `/` may divide or start
//! a regular expression, both readings are followed ([`readings`]). The patterns of regular expressions are not
//! the parser's to recurse into: they are measured exactly, and parsed, after it (`regex`).
//!
//! What the parser does not recurse into is not counted: a `<` after an operand (a comparison, type arguments or
//! parameters) weighs only until its `>` or the statement's end, and a JSX element only until its closing tag (a list
//! of siblings is a loop in the parser). A statement ends at a `;`, and also where a declaration keyword (`const`,
//! `function`, `export`, …) starts a line after an operand (automatic semicolon insertion): a flat module of 8,000
//! generic functions or of 5,000 `const a = 1 < 2` lines without semicolons is shallow, as the parser sees it.

mod frame;
mod lexical;
mod readings;

use self::frame::{Counter, Frame};

use self::lexical::{
    find, is_declaration_word, is_operator_word, is_prefix_word, is_word, line_end, skip_regex, skip_string,
};

/// Deeper bracket nesting than this is refused.
const MAX_BRACKETS: usize = 5_000;
/// A bracket level weighs this much, a counted token 1; a heavier path from the top level is refused.
const BRACKET_WEIGHT: usize = 2;
const MAX_WEIGHT: usize = 15_000;
/// A byte adds at most one bracket level, and at most 3 to the weight (a `[` right after `]` is a counted
/// token and a bracket; `<` counts twice), so a text this short cannot reach either limit.
const SHORTEST_TOO_DEEP: usize = if MAX_WEIGHT / 3 < MAX_BRACKETS { MAX_WEIGHT / 3 } else { MAX_BRACKETS } + 1;
/// Closing brackets look this far down the stack for their opener, so that a bracket misread inside a
/// regular expression does not shift every later level.
const RECOVERY_LOOKBACK: usize = 4;

/// Where the scan gave up, and why.
pub(super) struct TooDeep {
    pub at: usize,
    pub message: String,
}

/// What the scan found: the comments it skipped (a fallback for when the parser gives up) and whether the
/// module is too deeply nested to parse.
pub(super) struct Scan {
    pub comments: Vec<(usize, usize)>,
    pub too_deep: Option<TooDeep>,
}

/// Could `text` be nested too deeply? Only then is it worth a [`scan`].
pub(super) fn may_be_too_deep(text: &str) -> bool {
    text.len() >= SHORTEST_TOO_DEEP
}

/// `jsx`: the file is read with JSX (`.js`, `.jsx`, `.tsx`), where a `<` that starts an operand opens an element
/// rather than a type assertion.
pub(super) fn scan(text: &str, jsx: bool) -> Scan {
    let bytes = text.as_bytes();
    let first = Scanner {
        bytes,
        jsx,
        line_break: false,
        after_as: false,
        // A `#!` line is the runtime's, not JavaScript.
        i: if bytes.starts_with(b"#!") { line_end(bytes, 0) } else { 0 },
        stack: vec![Frame::new(0, 0, false)],
        comments: Vec::new(),
        regex_ok: true,
        unary_ok: true,
        after_control: false,
        after_end: false,
        ambiguous: false,
        unterminated: false,
    };
    let (too_deep, comments) = readings::follow(first);
    Scan { comments, too_deep }
}

#[derive(Clone)]
struct Scanner<'t> {
    bytes: &'t [u8],
    /// JSX is read (see [`scan`]).
    jsx: bool,
    /// A line break came since the previous token.
    line_break: bool,
    /// The previous token was the word `as` (`x as const`: `const` continues the expression).
    after_as: bool,
    /// Where the next token starts.
    i: usize,
    stack: Vec<Frame>,
    comments: Vec<(usize, usize)>,
    /// Would a `/` here start a regular expression (rather than divide)?
    regex_ok: bool,
    /// Would a `+` or `-` here be a prefix operator? Errs towards yes.
    unary_ok: bool,
    /// The previous token was `if`, `while`, `for` or `with`.
    after_control: bool,
    /// The previous token was a `;` or a `}` that closed a level.
    after_end: bool,
    /// The previous token leaves a `/` both readings: a `}` (a block's, or an object's), a word that is an operator
    /// or a name (`in`, `x.return`), `++` or `--` (postfix, or prefix).
    ambiguous: bool,
    /// A `/` was read as a regular expression that the line ends first: the parser stops there, so no reading
    /// goes on from it.
    unterminated: bool,
}

impl Scanner<'_> {
    fn top(&mut self) -> &mut Frame {
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    fn count(&mut self, at: usize, counter: Counter) -> Result<(), TooDeep> {
        let top = self.top();
        match counter {
            Counter::Expr => top.expr += 1,
            Counter::Angle => top.angle += 1,
            Counter::Stmt => top.stmt += 1,
            Counter::Jsx => top.jsx += 1,
        }
        check_weight(top.weight(), at)
    }

    fn push(&mut self, open: u8, at: usize) -> Result<(), TooDeep> {
        let control = std::mem::take(&mut self.after_control);
        let base = self.top().weight() + BRACKET_WEIGHT;
        self.stack.push(Frame::new(open, base, control));
        self.regex_ok = true;
        self.unary_ok = true;
        if self.stack.len() - 1 > MAX_BRACKETS {
            return Err(TooDeep {
                at,
                message: format!("is nested more than {MAX_BRACKETS} brackets deep, deeper than beeuni-lint analyses"),
            });
        }
        check_weight(base, at)
    }

    /// Pops the level `close` ends; returns the popped frame's `open` and `control` when one matched.
    fn pop(&mut self, close: u8) -> Option<(u8, bool)> {
        let want: &[u8] = match close {
            b')' => b"(",
            b']' => b"[",
            _ => b"{$",
        };
        let depth = self.stack.len() - 1;
        let found = (1..=depth.min(RECOVERY_LOOKBACK)).find(|k| want.contains(&self.stack[depth + 1 - k].open))?;
        let mut popped = None;
        for _ in 0..found {
            popped = self.stack.pop().map(|f| (f.open, f.control));
        }
        popped
    }

    /// Reads the token at `i` and moves past it.
    fn step(&mut self) -> Result<(), TooDeep> {
        self.run(true)
    }

    /// Reads tokens up to the end, or to a `/` that may divide or start a regular expression: the scan of nearly
    /// every text.
    fn run_to_ambiguous_slash(&mut self) -> Result<(), TooDeep> {
        self.run(false)
    }

    /// One loop for both, with the token's code in it: a call a token, or two copies of it (which called out for
    /// words and closers), cost the scan half or a fifth as much again.
    fn run(&mut self, one: bool) -> Result<(), TooDeep> {
        let bytes = self.bytes;
        let mut i = self.i;
        let mut first = true;
        while i < bytes.len() {
            if one {
                if !std::mem::take(&mut first) {
                    break;
                }
            } else if self.ambiguous && self.is_ambiguous_slash(i) {
                break;
            }
            let b = bytes[i];
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            let start = i;
            if b.is_ascii_whitespace() {
                self.line_break |= b == b'\n' || b == b'\r';
                i += 1;
                continue;
            }
            let after_end = std::mem::take(&mut self.after_end);
            let ambiguous = std::mem::take(&mut self.ambiguous);
            let line_break = std::mem::take(&mut self.line_break);
            let after_as = std::mem::take(&mut self.after_as);
            match b {
                b'/' if next == b'/' => {
                    i = line_end(bytes, i);
                    self.comments.push((start, i));
                    (self.after_end, self.ambiguous, self.line_break) = (after_end, ambiguous, line_break);
                    self.after_as = after_as;
                    continue;
                }
                b'/' if next == b'*' => {
                    i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |end| end + 2);
                    self.comments.push((start, i));
                    (self.after_end, self.ambiguous, self.line_break) = (after_end, ambiguous, line_break);
                    self.after_as = after_as;
                    continue;
                }
                // A closing tag ends the element it closes (`</` only where one is open: elsewhere it is a `<`
                // before a regular expression).
                b'<' if next == b'/' && self.top().jsx > 0 => {
                    self.top().jsx -= 1;
                    i += 2;
                    continue;
                }
                // An element opens where an operand may start (a `<` after an operand compares, or opens type
                // arguments), or among the children of an open one.
                b'<' if self.jsx && (self.regex_ok || self.top().jsx > 0) && (is_word(next) || next == b'>') => {
                    self.count(start, Counter::Jsx)?;
                    self.regex_ok = true;
                    self.unary_ok = true;
                    i += 1;
                    continue;
                }
                b'/' if self.regex_ok => {
                    i = skip_regex(bytes, i + 1);
                    self.unterminated = bytes.get(i.wrapping_sub(1)) != Some(&b'/') || i == start + 1;
                    self.operand();
                    continue;
                }
                b'\'' | b'"' => {
                    i = skip_string(bytes, i + 1, b);
                    self.operand();
                    continue;
                }
                b'`' => {
                    i = self.template(i + 1)?;
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    // `a[0][1]…` and the types `A[][]…`, `A['k']['j']…` nest one level a pair, without a bracket.
                    if b == b'[' && bytes[..i].iter().rev().find(|c| !c.is_ascii_whitespace()) == Some(&b']') {
                        self.count(i, Counter::Expr)?;
                    }
                    self.push(b, i)?;
                    i += 1;
                    continue;
                }
                b')' | b']' | b'}' => {
                    i += 1;
                    match self.pop(b) {
                        Some((b'$', _)) => i = self.template(i)?,
                        Some((open, control)) => {
                            self.regex_ok = control;
                            self.unary_ok = true;
                            if open == b'{' {
                                self.top().end_statement();
                                self.after_end = true;
                                self.ambiguous = true;
                            }
                        }
                        None => {}
                    }
                    continue;
                }
                _ if is_word(b) => {
                    while i < bytes.len() && is_word(bytes[i]) {
                        i += 1;
                    }
                    let word = &bytes[start..i];
                    // A declaration that starts a line after an operand starts a statement (automatic semicolon
                    // insertion), unless it is the text of a JSX element.
                    if line_break && !self.regex_ok && !after_as && self.top().jsx == 0 && is_declaration_word(word) {
                        let top = self.top();
                        (top.expr, top.angle) = (0, 0);
                    }
                    self.after_as = word == b"as";
                    self.word(word, start, after_end)?;
                    continue;
                }
                _ => {}
            }
            // Punctuators: `counted` says whether this one may make the parser recurse.
            let (len, counted) = match (b, next) {
                (b';', _) => {
                    let top = self.top();
                    top.end_statement();
                    top.expr = 0;
                    top.angle = 0;
                    self.after_end = true;
                    (1, false)
                }
                (b',', _) => {
                    self.top().expr = 0;
                    (1, false)
                }
                (b'!', b'=') | (b'=', b'=') => (if bytes.get(i + 2) == Some(&b'=') { 3 } else { 2 }, false),
                (b'=', b'>') | (b'*', b'*') => (2, true),
                (b'+', b'+') | (b'-', b'-') => {
                    self.ambiguous = true;
                    (2, self.unary_ok)
                }
                (b'+' | b'-', b'=') => (2, true),
                (b'+' | b'-', _) => (1, self.unary_ok),
                (b'?', b'?') => (2, false),
                (b'?', b'.') if !bytes.get(i + 2).is_some_and(u8::is_ascii_digit) => (2, false),
                (b'.', b'.') if bytes.get(i + 2) == Some(&b'.') => (3, false),
                // A self-closing element ends here.
                (b'/', b'>') if self.top().jsx > 0 => {
                    self.top().jsx -= 1;
                    (2, false)
                }
                // A cast `<T>x` where an operand starts is a prefix the parser recurses into, until its own `>`.
                // After an operand, a comparison or type arguments (open across `,`): only until the `>`, the `;`.
                (b'<', _) => {
                    self.count(start, Counter::Angle)?;
                    (1, self.regex_ok)
                }
                (b'>', _) => {
                    let top = self.top();
                    top.angle = top.angle.saturating_sub(1);
                    (1, false)
                }
                (b'!' | b'~' | b'=' | b'?' | b':', _) => (1, true),
                _ => (1, false),
            };
            if counted {
                self.count(start, Counter::Expr)?;
            }
            self.regex_ok = true;
            self.unary_ok = true;
            self.after_control = false;
            i += len;
        }
        self.i = i;
        Ok(())
    }

    /// Is the next token a `/` that may divide or start a regular expression?
    fn at_ambiguous_slash(&self) -> bool {
        self.ambiguous && self.is_ambiguous_slash(self.i)
    }

    /// Is the token at `i` a `/` rather than a comment?
    fn is_ambiguous_slash(&self, i: usize) -> bool {
        self.bytes.get(i) == Some(&b'/') && !matches!(self.bytes.get(i + 1), Some(b'/' | b'*'))
    }

    fn operand(&mut self) {
        self.regex_ok = false;
        self.unary_ok = false;
        self.after_control = false;
    }

    fn word(&mut self, word: &[u8], at: usize, after_end: bool) -> Result<(), TooDeep> {
        if is_operator_word(word) {
            self.regex_ok = true;
            self.unary_ok = true;
            self.ambiguous = true;
        } else {
            self.operand();
        }
        self.after_control = matches!(word, b"if" | b"while" | b"for" | b"with");
        match word {
            b"else" | b"while" if after_end => {
                let top = self.top();
                top.stmt += top.carry;
                self.count(at, Counter::Stmt)
            }
            b"else" | b"while" | b"if" | b"for" | b"with" | b"do" => self.count(at, Counter::Stmt),
            _ if is_prefix_word(word) => self.count(at, Counter::Expr),
            _ => Ok(()),
        }
    }

    /// Scans template text from `i` (just after a backtick or the `}` of a `${`): to the closing backtick,
    /// or into the next `${`, which opens a level.
    fn template(&mut self, mut i: usize) -> Result<usize, TooDeep> {
        let bytes = self.bytes;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'`' => {
                    self.operand();
                    return Ok(i + 1);
                }
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    self.push(b'$', i)?;
                    return Ok(i + 2);
                }
                _ => i += 1,
            }
        }
        self.operand();
        Ok(bytes.len())
    }
}

fn check_weight(weight: usize, at: usize) -> Result<(), TooDeep> {
    if weight > MAX_WEIGHT {
        return Err(TooDeep { at, message: "chains operators or statements deeper than beeuni-lint analyses".into() });
    }
    Ok(())
}
