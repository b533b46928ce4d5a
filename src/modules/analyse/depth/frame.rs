//! A bracket level of the scan and what it counts.

/// What a token adds to its level's weight.
pub(super) enum Counter {
    Expr,
    Angle,
    Stmt,
    Jsx,
}

#[derive(Clone)]
pub(super) struct Frame {
    /// `(`, `[`, `{`, or `$` for the `${` of a template literal.
    pub(super) open: u8,
    /// Weight of every enclosing level, this bracket included.
    pub(super) base: usize,
    /// Counted tokens since the last `,` or `;` at this level: unary operators, assignments, `?`, `=>`, ….
    pub(super) expr: usize,
    /// `<` minus `>` since the last `;`: type arguments nest across the `,` between them.
    pub(super) angle: usize,
    /// Statement keywords (`if`, `else`, `while`, …) since the last `;` or block at this level.
    pub(super) stmt: usize,
    /// JSX elements open at this level (in a file where JSX is read): each is a recursion of the parser until its
    /// closing tag, which text in it (a `;`, a line break) does not end.
    pub(super) jsx: usize,
    /// The statement count at the last `;` or block end, which an `else` right after it (or the `while` of
    /// `do … while`) continues.
    pub(super) carry: usize,
    /// Whether this `(` follows `if`, `while`, `for` or `with`: a `/` after its `)` starts a regular expression.
    pub(super) control: bool,
}

impl Frame {
    pub(super) fn new(open: u8, base: usize, control: bool) -> Self {
        Frame { open, base, expr: 0, angle: 0, stmt: 0, jsx: 0, carry: 0, control }
    }

    pub(super) fn weight(&self) -> usize {
        self.base + self.expr + self.angle + self.stmt + self.jsx
    }

    /// A `;`, or a block closed back to this level: statements end, unless an `else` continues them.
    pub(super) fn end_statement(&mut self) {
        self.carry = self.stmt;
        self.stmt = 0;
    }
}
