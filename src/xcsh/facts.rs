//! What static analysis learns about one xcsh custom tool module (docs/spec/rules.md §6): the factory it exports, what
//! the factory returns, and the uses of the host API the rules look at. Spans are byte ranges into the module.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct XcshFacts {
    pub export: Export,
    /// `pi.exec(...)` calls inside a tool's `execute` that pass no `signal` (each the call expression).
    pub exec_without_signal: Vec<Span>,
    /// `pi.ui` / `ctx.ui` uses outside a test of `hasUI`: the member expression and how it is written.
    pub unguarded_ui: Vec<(Span, String)>,
}

/// What the module exports, as the loader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Export {
    /// No default export and no named function export.
    #[default]
    Missing,
    /// The default export is not a function. `what` names it (`an object`, `` `null` ``); `beeuni` is set when it
    /// is an object shaped like a Beeuni tool (`description`, `parameters` or `execute`, and no `name`).
    NotFunction {
        span: Span,
        what: String,
        beeuni: bool,
    },
    Factory(Factory),
    /// Built at run time or imported: `why` says which.
    Unanalyzable {
        span: Span,
        why: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factory {
    /// The factory function (its first line is where findings about it point).
    pub span: Span,
    pub returns: Returns,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Returns {
    /// No `return` with a value, and no expression body.
    Nothing,
    /// No `return`, but `pi.registerTool(...)` calls: an extension, not a custom tool.
    RegistersTools,
    /// What the `return`s (or the expression body) give, each tool in order.
    Values(Vec<Returned>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Returned {
    Tool(Tool),
    /// A value built at run time (a call, an import, a spread): `why` says which.
    Unanalyzable {
        span: Span,
        why: String,
    },
}

/// A tool object literal the factory returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub span: Span,
    /// Required fields the literal does not spell out (none are claimed missing when `spread` is set).
    pub missing: Vec<&'static str>,
    /// A spread or computed key that may supply fields: (its span, how it is written).
    pub spread: Option<(Span, String)>,
    pub name: Option<(Span, Name)>,
    pub parameters: Option<(Span, Parameters)>,
    pub execute: Option<(Span, Execute)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    Text(String),
    /// A literal that is not a string (number, object, …).
    NotString,
    /// Computed at run time.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parameters {
    /// A `Type.*` call (TypeBox, injected as `pi.typebox` or imported from `@sinclair/typebox`).
    TypeBox,
    /// An object literal: JSON Schema written by hand.
    ObjectLiteral,
    /// A call on a binding imported from `zod`.
    Zod,
    /// Anything else (a helper's result, a binding not known statically): nothing is said.
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Execute {
    /// A function, with its parameters as written (`toolCallId`, `{ location }`), and whether the first one is a
    /// destructuring pattern.
    Function {
        params: Vec<String>,
        first_destructured: bool,
    },
    /// A literal that is not a function.
    NotFunction,
    Other,
}
