//! What static analysis learns about one xcsh custom tool module (docs/spec/rules.md §6): the factory it exports, what
//! the factory returns, and the uses of the host API the rules look at. Spans are byte ranges into the module.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct XcshFacts {
    pub export: Export,
    /// `pi.exec(...)` calls inside a tool's `execute` that pass no `signal` (each the call expression).
    pub exec_without_signal: Vec<Span>,
    /// `pi.ui` / `ctx.ui` uses outside a test of `hasUI`, or where such a test says there is no UI.
    pub unguarded_ui: Vec<UiUse>,
}

/// A `.ui` read on the host API or a context that no `hasUI` test guards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiUse {
    /// The member expression (`pi.ui`).
    pub span: Span,
    /// How it is written (`pi.ui`, `ctx.ui`).
    pub written: String,
    /// Inside a test that says there is no UI (`pi.hasUI || pi.ui.notify()`, after `if (pi.hasUI) return`): an
    /// inverted guard.
    pub inverted: bool,
}

/// What the module exports, as the loader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Export {
    /// No default export and no named function export.
    #[default]
    Missing,
    /// No default export, but a named function export: the loader takes `module.default ?? module` (the
    /// namespace, not a function) and fails. `local` is the function's binding.
    NamedOnly {
        local: String,
    },
    /// CommonJS `exports.default = …` without `__esModule`: Bun's default export is the exports object
    /// `{ default: … }`, not a function.
    CommonJsDefault {
        span: Span,
    },
    /// The default export is not a function. `what` names it (`an object`, `` `null` ``); `beeuni` is set when it
    /// is an object shaped like a Beeuni tool (`description`, `parameters` or `execute`, and no `name`).
    NotFunction {
        span: Span,
        what: String,
        beeuni: bool,
        /// The binding the default export names (`export default lookupOrder`), if any.
        binding: Option<String>,
        /// An object's own keys, as written (spreads and computed keys left out), for the help.
        keys: Vec<String>,
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
    /// A value that is no tool (`null`, `undefined`, `void 0`, a number, a bare `return;`): `what` shows it.
    NotTool {
        span: Span,
        what: String,
    },
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
