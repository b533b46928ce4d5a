//! What static analysis learns about one tool module: the facts rules read.
//! Spans are byte ranges into the module's text ([`Span`], 8 bytes). Facts are a pure function of the file's bytes and
//! extension, so the warm cache ([`crate::cache`]) stores them as they are.

use crate::source::Span;

mod codec;
mod params;
mod properties;
mod shape;
pub use params::Params;
pub use properties::Properties;
pub use shape::{Foreign, ImportedWrapper, Wrapper};

/// A name or specifier of the facts: up to 24 bytes held inline, without an allocation of its own (most are
/// short: `id`, `context`, `node:fs`, `../lib/x.ts`), and every module keeps its facts to the end of the run.
pub type InlineStr = compact_str::CompactString;

/// A property of the default-exported object, as far as it could be read without running the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field<T> {
    /// Not present in the object literal.
    Missing,
    /// Present and read; `span` is the whole property (`key: value`, or the method).
    Found { span: Span, value: T },
    /// Present (or possibly present), but built at run time: a spread, a call, an import. `why` says what.
    Unanalyzable { span: Span, why: Box<str> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Description {
    /// A string literal or a template literal without expressions: whether its value is blank (empty or white space
    /// only), all that a rule asks of it (its text cost every module an allocation kept to the end of the run, 1.9
    /// MB at the 20k bench).
    Text { blank: bool },
    /// Some other expression whose value is not known statically (an identifier, a call, a template with `${}`).
    Other,
    /// A literal that is not a string (number, object, …).
    NotString,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameters {
    /// The value of `type` when it is a string literal: `Some("object")` is good. `None` when absent or not a literal.
    pub type_value: Option<InlineStr>,
    /// Was a `type` key present at all?
    pub has_type: bool,
    /// Whether `parameters` is an object literal at all (`false` for e.g. a string or number literal).
    pub is_object_literal: bool,
    /// Keys of `properties` when it is an object literal without spreads or computed keys; `None` otherwise.
    pub properties: Option<Properties>,
    /// Span of the `properties` key-value, when present.
    pub properties_span: Option<Span>,
    /// String elements of `required` (an array literal) that `properties` does not define, each with its span; none
    /// when `properties` is not read (`None`). All that a rule asks of `required`: the whole list cost nearly every
    /// module an allocation kept to the end of the run (1 MB at the 20k bench), for names `properties` holds.
    pub required_undefined: Box<[(InlineStr, Span)]>,
    /// `parameters` is a zod schema (`z.object({...})`, a call on a binding imported from `zod`), not JSON
    /// Schema: the call as written.
    pub zod: Option<Box<str>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Execute {
    /// A method, arrow function or function expression, with its parameters as written (`{ location }`).
    Function { params: Params },
    /// Some other literal or expression that is clearly not a function (a string, number, object, array).
    NotFunction,
    /// An identifier or call whose value is unknown.
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectExport {
    pub description: Field<Description>,
    pub parameters: Field<Parameters>,
    pub execute: Field<Execute>,
    /// The call the object was passed to (`tool({...})` of the AI SDK, say), or none.
    pub wrapper: Wrapper,
    /// The fields it holds under another library's name (`inputSchema`, `handler`).
    pub foreign: Foreign,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefaultExportKind {
    /// A plain object literal (directly, through a `const`, `export { x as default }`, `module.exports =`,
    /// `exports.default =` beside `__esModule`, `satisfies`, `as`, parentheses, a call that returns its argument).
    Object(Box<ObjectExport>),
    /// `exports.default = …` (or `module.exports.default`) in CommonJS without `__esModule`: Bun's default export
    /// is then the exports object, `{ default: … }`, which holds no tool field.
    ExportsDefault,
    /// A function or arrow function that returns an object literal or takes `pi`: the xcsh/pi `CustomToolFactory`
    /// form.
    Factory,
    /// Another function or arrow function (the tool's body alone, say): never called by the loader.
    Function,
    /// A literal that is not an object (`null`, a number, a string, a boolean, an array, a template): its text.
    Literal { text: Box<str> },
    /// `tool({ ... })` (or `tool.define(...)`) from `@opencode-ai/plugin`.
    OpencodeTool,
    /// Something else built at run time; `why` says what (e.g. "a call to `makeTool`", "a class").
    Unanalyzable { why: Box<str> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultExport {
    /// The whole `export default …` / `export { x as default }` / `module.exports = …` statement.
    pub statement: Span,
    pub kind: DefaultExportKind,
}

/// A named export that holds a tool object (an object literal with `description`, `parameters` or `execute`),
/// in a module without a default export: what the module meant as its tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedToolObject {
    /// The local binding (`crmNote` of `export const crmNote = {…}` or `export { crmNote as note }`), or the field
    /// of CommonJS `exports.crmNote = {…}`.
    pub name: String,
    /// Made by `exports.NAME = {…}` (or `module.exports.NAME`), not by an `export` statement.
    pub commonjs: bool,
    /// The call the object was passed to (`tool({...})` of the AI SDK), or none.
    pub wrapper: Wrapper,
    /// The fields it holds under another library's name.
    pub foreign: Foreign,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    /// `import … from 'x'`, `import 'x'`
    Static,
    /// `export … from 'x'`, `export * from 'x'`
    ReExport,
    /// `import('x')` with a string literal
    Dynamic,
    /// `require('x')` with a string literal
    Require,
    /// The import of `<source>/jsx-dev-runtime` that Bun's transpiler adds to a module holding JSX (at its first
    /// element): not written by the author.
    Jsx,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub specifier: InlineStr,
    /// The statement (`import …;`) or the call expression (`require('x')`, `import('x')`).
    pub span: Span,
    pub kind: ImportKind,
    /// Erased at run time: `import type …`, `export type … from`, an import whose every specifier is `type`-only,
    /// or, in TypeScript, an `import … from` none of whose bindings is used as a value (Bun's transpiler drops it).
    pub type_only: bool,
    /// `import('x')` or `require('x')` inside a `try` block that has a `catch`: a failure is handled where it is
    /// called and does not stop the module loading.
    pub guarded: bool,
    /// `import('x')` or `require('x')` inside a function (`execute`, say): it runs when the function is called,
    /// not when the module loads.
    pub deferred: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvRead {
    /// The variable name (`X` of `process.env.X`, `process.env['X']`, `Bun.env.X`, `const { X } = process.env`).
    pub name: InlineStr,
    /// The member expression (or the destructured property).
    pub span: Span,
    /// `"process.env"` or `"Bun.env"`.
    pub via: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecuteFacts {
    /// Span of the `execute` property/method (for `module-execute-signature`).
    pub span: Span,
    /// `fetch(...)` calls inside `execute` whose arguments pass no `signal` (no second argument, or an object
    /// literal without a `signal` key and without a spread). Each span is the call's callee-to-paren `fetch(`
    /// expression (the whole call expression is fine).
    pub fetch_without_signal: Box<[Span]>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// Why a module was not analysed at all, and where: it is nested deeper than the analysis can follow, or too
/// large to read. Not an error of the module (the runtime may load it): its checks were not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnalysed {
    pub span: Span,
    pub why: String,
}

/// What static analysis learns about one module, as every module keeps it to the end of the run: lists of their
/// exact length, and what most modules have none of in one box.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleFacts {
    /// `None`: the module has no default export.
    pub default_export: Option<DefaultExport>,
    /// The module calls `<x>.registerTool(...)`: with a function default export, a pi/xcsh extension.
    pub registers_tools: bool,
    /// The module calls `<x>.tool('name', …)`: an MCP server registering its tools.
    pub serves_tools: bool,
    /// Every import in source order.
    pub imports: Box<[Import]>,
    /// `process.env` / `Bun.env` reads, in source order.
    pub env_reads: Box<[EnvRead]>,
    /// Names read as `context.env.NAME` (or `ctx.env.NAME` / `<second param of execute>.env.NAME`), deduplicated.
    pub context_env: Box<[InlineStr]>,
    pub execute: Option<ExecuteFacts>,
    /// `None` when the module has none of them (most modules).
    rare: Option<Box<Rare>>,
}

/// The facts most modules have none of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Rare {
    syntax_errors: Vec<SyntaxError>,
    not_analysed: Option<NotAnalysed>,
    opencode_exports: Vec<String>,
    named_tool_object: Option<NamedToolObject>,
    identity_exports: Vec<InlineStr>,
    load_error: Option<SyntaxError>,
    comments: Vec<(Span, String)>,
}

/// The facts as the analysis collects them, made into [`ModuleFacts`] when it ends.
#[derive(Debug, Default)]
pub struct Collected {
    /// Parse errors; when non-empty the other facts may be partial.
    pub syntax_errors: Vec<SyntaxError>,
    /// Set when the module was not analysed; then every other fact is empty (but `comments`, when it was read).
    pub not_analysed: Option<NotAnalysed>,
    pub default_export: Option<DefaultExport>,
    /// Named exports that are opencode tools (`export const search = tool({...})`), by exported name.
    pub opencode_exports: Vec<String>,
    /// Without a default export: the first named export that holds a tool object.
    pub named_tool_object: Option<NamedToolObject>,
    /// The exported functions that return their first parameter, by exported name (`default` for the default).
    pub identity_exports: Vec<InlineStr>,
    /// A statement that throws when Bun loads the module, though it parses (CommonJS's exports in an ES module).
    pub load_error: Option<SyntaxError>,
    pub registers_tools: bool,
    pub serves_tools: bool,
    pub imports: Vec<Import>,
    pub env_reads: Vec<EnvRead>,
    pub context_env: Vec<InlineStr>,
    pub execute: Option<ExecuteFacts>,
    /// `// beeuni-lint: ignore[...]` and `/* … */` comments: (comment span, comment text without the `//`).
    pub comments: Vec<(Span, String)>,
}

impl From<Collected> for ModuleFacts {
    fn from(collected: Collected) -> Self {
        let Collected {
            syntax_errors,
            not_analysed,
            default_export,
            opencode_exports,
            named_tool_object,
            identity_exports,
            load_error,
            registers_tools,
            serves_tools,
            imports,
            env_reads,
            context_env,
            execute,
            comments,
        } = collected;
        // Asked of the parts, not by comparing with `Rare::default()`: a warm run builds facts from every module's
        // cache entry, and a default made and dropped for each is work for nothing.
        let none = syntax_errors.is_empty()
            && not_analysed.is_none()
            && opencode_exports.is_empty()
            && named_tool_object.is_none()
            && identity_exports.is_empty()
            && load_error.is_none()
            && comments.is_empty();
        let rare = Rare {
            syntax_errors,
            not_analysed,
            opencode_exports,
            named_tool_object,
            identity_exports,
            load_error,
            comments,
        };
        ModuleFacts {
            default_export,
            registers_tools,
            serves_tools,
            imports: imports.into_boxed_slice(),
            env_reads: env_reads.into_boxed_slice(),
            context_env: context_env.into_boxed_slice(),
            execute,
            rare: (!none).then(|| Box::new(rare)),
        }
    }
}

impl ModuleFacts {
    /// Parse errors; when non-empty the other facts may be partial.
    pub fn syntax_errors(&self) -> &[SyntaxError] {
        self.rare.as_ref().map_or(&[], |rare| &rare.syntax_errors)
    }

    /// Set when the module was not analysed; then every other fact is empty (but `comments`, when it was read).
    pub fn not_analysed(&self) -> Option<&NotAnalysed> {
        self.rare.as_ref().and_then(|rare| rare.not_analysed.as_ref())
    }

    /// Named exports that are opencode tools (`export const search = tool({...})`), by exported name.
    pub fn opencode_exports(&self) -> &[String] {
        self.rare.as_ref().map_or(&[], |rare| &rare.opencode_exports)
    }

    /// Without a default export: the first named export that holds a tool object.
    pub fn named_tool_object(&self) -> Option<&NamedToolObject> {
        self.rare.as_ref().and_then(|rare| rare.named_tool_object.as_ref())
    }

    /// The exported functions that return their first parameter, by exported name (`default` for the default),
    /// sorted.
    pub fn identity_exports(&self) -> &[InlineStr] {
        self.rare.as_ref().map_or(&[], |rare| &rare.identity_exports)
    }

    /// A statement that throws when Bun loads the module, though it parses.
    pub fn load_error(&self) -> Option<&SyntaxError> {
        self.rare.as_ref().and_then(|rare| rare.load_error.as_ref())
    }

    /// Records what fails when Bun links the module with the modules it imports (found once they are read).
    pub fn set_load_error(&mut self, error: SyntaxError) {
        self.rare.get_or_insert_default().load_error = Some(error);
    }

    /// `// beeuni-lint: ignore[...]` and `/* … */` comments: (comment span, comment text without the `//`).
    pub fn comments(&self) -> &[(Span, String)] {
        self.rare.as_ref().map_or(&[], |rare| &rare.comments)
    }

    /// Was the module parsed without error, so that its facts are whole?
    pub fn is_whole(&self) -> bool {
        self.syntax_errors().is_empty() && self.not_analysed().is_none()
    }
}

/// The environments [`EnvRead::via`] names (the cache stores a read's environment as its index here).
pub const ENVIRONMENTS: [&str; 2] = ["process.env", "Bun.env"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_every_module_keeps_stays_small() {
        assert!(std::mem::size_of::<Import>() <= 40, "{}", std::mem::size_of::<Import>());
        // Every tool object keeps one to the end of the run: a wrapper's names are boxed.
        assert!(std::mem::size_of::<ObjectExport>() <= 216, "{}", std::mem::size_of::<ObjectExport>());
        let params = Params::new(["{ a, b }", "context", "...rest"]);
        assert_eq!(
            (params.joined(), params.len(), params.first()),
            ("{ a, b }, context, ...rest", 3, Some("{ a, b }"))
        );
        assert_eq!(Params::from_parts(params.joined(), 3, 8), Some(params));
        assert_eq!(Params::new::<&str>([]).first(), None);
        for (joined, count, first) in
            [("a, b", 2, 3), ("a, b", 1, 1), ("", 1, 1), ("a", 0, 0), ("é, b", 2, 1), ("a, b", 3, 1)]
        {
            assert_eq!(Params::from_parts(joined, count, first), None, "{joined} {count} {first}");
        }
    }
}
