//! The visitor that walks a parsed module once for its imports, environment reads and the `fetch` calls inside
//! `execute`.

use oxc_allocator::{Allocator, Vec as ArenaVec};
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;

use super::export::{ExecuteInfo, span, string_value};
use super::regex::RegexLiteral;
use super::signal::{is_request_with_signal, passes_no_signal};
use super::{Found, changed, commonjs};
use crate::modules::facts::*;
use crate::source::Span;

mod env;

/// How many expressions and statements the visitor enters inside one another: above what the depth scan lets
/// through (a bracket is at most three levels, a counted token one). Left-nested chains that the parser builds
/// without recursing (`a + b + …`, `a.b.c…`, `f()()…`) can be far deeper; a release build visits (and checks
/// for early errors) some 700,000 levels on the 64 MiB analysis stack.
const MAX_VISIT_DEPTH: usize = 25_000;

/// Walks the whole program once for imports, environment reads and the `fetch` calls inside `execute`. Names are
/// borrowed from the program (`'a`), not copied, and the lists are gathered in the module's arena (reset for the
/// next module), not in the heap: this runs for every module, and the facts kept to the end of the run are then
/// made once at their exact size, instead of lists grown, shrunk and freed between them (see [`super::analyse`]).
pub(super) struct Collector<'a, 'f> {
    /// The span of `execute`'s function node: calls inside it are `execute`'s.
    execute_body: Option<Span>,
    /// `<name>.env.X` reads count as `context.env` reads for these names (one name given twice when `execute`
    /// names its context).
    context_names: [&'a str; 2],
    /// Inside `execute`, these names hold the context's `env` itself (`{ env }` parameters, `const { env } = ctx`).
    env_aliases: ArenaVec<'a, &'a str>,
    /// How many expressions and statements enclose the current node (at most [`MAX_VISIT_DEPTH`]).
    depth: usize,
    /// Whether the depth limit was hit and reported (once is enough).
    pub(super) too_deep: bool,
    /// How many statements enclose the current one, counted from the top level or the nearest namespace body.
    statements: usize,
    /// The first `import`/`export` declaration below the top level (oxc's checker leaves it to TypeScript).
    pub(super) nested_module_code: Option<(oxc_span::Span, &'static str)>,
    /// How many `try` blocks with a `catch` enclose the current node.
    guarded: usize,
    facts: &'f mut Collected,
    /// The module's arena, for the lists below and the rare name written out.
    arena: &'a Allocator,
    /// Every import, in the order visited.
    pub(super) imports: ArenaVec<'a, Found<'a>>,
    /// `process.env` / `Bun.env` reads: (name, member expression, environment).
    pub(super) env_reads: ArenaVec<'a, (&'a str, Span, &'static str)>,
    /// Names read from the context's `env`, each once.
    pub(super) context_env: ArenaVec<'a, &'a str>,
    /// The same names by hash once there are many: a module can read thousands, and each read looked for its name
    /// among all of them (30,000 names: 1.7 s for one module).
    pub(super) context_env_seen: Option<rustc_hash::FxHashSet<&'a str>>,
    /// The `fetch` calls inside `execute` that pass no `signal`.
    pub(super) fetches: ArenaVec<'a, Span>,
    /// Names given first to `Object.assign(x, ...)` and its kin, which change them.
    pub(super) passed_to_change: ArenaVec<'a, &'a str>,
    /// Every regular expression literal, in the order visited: their patterns are parsed after the walk.
    pub(super) regexes: ArenaVec<'a, RegexLiteral<'a>>,
    /// The first CommonJS export (`module.exports = …`, `exports.x = …`) below the top level, outside any
    /// function but those called where they are written (a UMD wrapper's `(function () { … })()`).
    pub(super) nested_commonjs: Option<oxc_span::Span>,
    /// Names bound to `new Request(url, { signal })`: a `fetch(name)` passes that signal.
    signal_requests: rustc_hash::FxHashSet<&'a str>,
    /// The function the call being visited invokes where it is written.
    invoked: Option<oxc_span::Span>,
    /// How many functions that are not called where they are written enclose the current node.
    functions: usize,
    /// The opening tag of the first JSX element or fragment, where Bun's transpiler puts a JSX runtime import.
    pub(super) first_jsx: Option<oxc_span::Span>,
    /// Whether the module holds a decorator (see [`super::erased::unused_as_values`]).
    pub(super) decorated: bool,
    /// How many functions of any kind enclose the current node.
    bodies: usize,
    /// The first `await` outside every function (`for await` and `await using` too): Bun then runs the module as
    /// an ES module ([`super::format`]).
    pub(super) top_level_await: Option<Span>,
}

impl<'a, 'f> Collector<'a, 'f> {
    /// A collector for a module whose default export's `execute` is `execute`, when it has one.
    /// `arena`: the allocator that holds the program.
    pub(super) fn new(execute: Option<&ExecuteInfo<'a>>, facts: &'f mut Collected, arena: &'a Allocator) -> Self {
        let mut env_aliases = ArenaVec::new_in(&arena);
        env_aliases.extend(execute.and_then(|info| info.env_alias));
        Collector {
            execute_body: execute.and_then(|info| info.function),
            context_names: match execute.and_then(|info| info.context) {
                Some(name) if name != "_" => [name, name],
                _ => ["context", "ctx"],
            },
            env_aliases,
            depth: 0,
            too_deep: false,
            statements: 0,
            nested_module_code: None,
            guarded: 0,
            facts,
            arena,
            imports: ArenaVec::new_in(&arena),
            env_reads: ArenaVec::new_in(&arena),
            context_env: ArenaVec::new_in(&arena),
            context_env_seen: None,
            fetches: ArenaVec::new_in(&arena),
            passed_to_change: ArenaVec::new_in(&arena),
            regexes: ArenaVec::new_in(&arena),
            nested_commonjs: None,
            signal_requests: rustc_hash::FxHashSet::default(),
            invoked: None,
            functions: 0,
            first_jsx: None,
            decorated: false,
            bodies: 0,
            top_level_await: None,
        }
    }
}

impl<'a> Collector<'a, '_> {
    /// Enters one more level, or records that the module is too deep (at `node`) and refuses to. Inlined, and the
    /// node's span is taken only when too deep: this runs for every expression and statement of every module.
    #[inline]
    fn descend(&mut self, node: &impl GetSpan) -> bool {
        if self.depth >= MAX_VISIT_DEPTH {
            self.too_deep_at(node.span());
            return false;
        }
        self.depth += 1;
        true
    }

    #[cold]
    fn too_deep_at(&mut self, at: oxc_span::Span) {
        if !std::mem::replace(&mut self.too_deep, true) {
            let why = format!(
                "nests more than {MAX_VISIT_DEPTH} expressions and statements inside one another, deeper than beeuni-lint analyses"
            );
            self.facts.not_analysed = Some(NotAnalysed { span: span(at), why });
        }
    }

    fn import(&mut self, specifier: &'a str, at: oxc_span::Span, kind: ImportKind, type_only: bool) {
        let called = matches!(kind, ImportKind::Dynamic | ImportKind::Require);
        let (guarded, deferred) = (called && self.guarded > 0, called && self.functions > 0);
        self.imports.push(Found { specifier, span: span(at), kind, type_only, guarded, deferred });
    }

    /// Notes an `await` at `at` when no function encloses it.
    fn top_level(&mut self, at: oxc_span::Span) {
        if self.bodies == 0 && self.top_level_await.is_none() {
            self.top_level_await = Some(span(at));
        }
    }

    fn in_execute(&self, at: oxc_span::Span) -> bool {
        self.execute_body.is_some_and(|body| body.contains(span(at)))
    }
}

impl<'a> Visit<'a> for Collector<'a, '_> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        // A leaf holds nothing the walk looks for: a third of a module's expressions end here without the walk's
        // dispatch (but at the depth limit, where entering one is reported).
        if is_leaf(it) && self.depth < MAX_VISIT_DEPTH {
            if let Expression::RegExpLiteral(literal) = it {
                self.visit_reg_exp_literal(literal);
            }
            return;
        }
        if self.descend(it) {
            walk::walk_expression(self, it);
            self.depth -= 1;
        }
    }

    fn visit_statement(&mut self, it: &Statement<'a>) {
        if let Some(declaration) = it.as_module_declaration()
            && self.statements > 0
        {
            let what = if declaration.is_import() { "import statement" } else { "export statement" };
            self.nested_module_code.get_or_insert((declaration.span(), what));
        }
        if self.descend(it) {
            self.statements += 1;
            walk::walk_statement(self, it);
            self.statements -= 1;
            self.depth -= 1;
        }
    }

    fn visit_try_statement(&mut self, it: &TryStatement<'a>) {
        let caught = it.handler.is_some();
        self.guarded += usize::from(caught);
        self.visit_block_statement(&it.block);
        self.guarded -= usize::from(caught);
        if let Some(handler) = &it.handler {
            self.visit_catch_clause(handler);
        }
        if let Some(finalizer) = &it.finalizer {
            self.visit_block_statement(finalizer);
        }
    }

    // A namespace body is a top level of its own: `namespace N { export const x = 1 }`.
    fn visit_ts_module_block(&mut self, it: &TSModuleBlock<'a>) {
        let outer = std::mem::take(&mut self.statements);
        walk::walk_ts_module_block(self, it);
        self.statements = outer;
    }

    // Ambient declarations (`declare module 'x' { import … }`, `declare global`, `declare namespace`) are
    // erased at run time: an import there loads nothing.
    fn visit_ts_external_module_declaration(&mut self, _it: &TSExternalModuleDeclaration<'a>) {}

    fn visit_ts_global_declaration(&mut self, _it: &TSGlobalDeclaration<'a>) {}

    fn visit_ts_namespace_declaration(&mut self, it: &TSNamespaceDeclaration<'a>) {
        if !it.declare {
            walk::walk_ts_namespace_declaration(self, it);
        }
    }

    // Types hold no run-time reads or imports (`typeof import('x')` loads nothing), and skipping them keeps
    // deeply nested type expressions away from the visitor's stack.
    fn visit_ts_type(&mut self, _it: &TSType<'a>) {}

    fn visit_import_declaration(&mut self, it: &ImportDeclaration<'a>) {
        let specifiers = it.specifiers.as_ref().map_or(&[][..], |s| s.as_slice());
        let all_types = !specifiers.is_empty()
            && specifiers
                .iter()
                .all(|s| matches!(s, ImportDeclarationSpecifier::ImportSpecifier(s) if s.import_kind.is_type()));
        let type_only = it.import_kind.is_type() || all_types;
        self.import(it.source.value.as_str(), it.span, ImportKind::Static, type_only);
    }

    fn visit_export_from_declaration(&mut self, it: &ExportFromDeclaration<'a>) {
        let all_types = !it.specifiers.is_empty() && it.specifiers.iter().all(|s| s.export_kind.is_type());
        let type_only = it.export_kind.is_type() || all_types;
        self.import(it.source.value.as_str(), it.span, ImportKind::ReExport, type_only);
    }

    fn visit_export_all_declaration(&mut self, it: &ExportAllDeclaration<'a>) {
        self.import(it.source.value.as_str(), it.span, ImportKind::ReExport, it.export_kind.is_type());
    }

    fn visit_ts_import_equals_declaration(&mut self, it: &TSImportEqualsDeclaration<'a>) {
        if let TSModuleReference::ExternalModuleReference(r) = &it.module_reference {
            self.import(r.expression.value.as_str(), it.span, ImportKind::Require, it.import_kind.is_type());
        }
    }

    fn visit_jsx_element(&mut self, it: &JSXElement<'a>) {
        self.first_jsx.get_or_insert(it.opening_element.span);
        walk::walk_jsx_element(self, it);
    }

    fn visit_jsx_fragment(&mut self, it: &JSXFragment<'a>) {
        self.first_jsx.get_or_insert(it.opening_fragment.span);
        walk::walk_jsx_fragment(self, it);
    }

    fn visit_decorator(&mut self, it: &Decorator<'a>) {
        self.decorated = true;
        walk::walk_decorator(self, it);
    }

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        if let Some(specifier) = string_value(&it.source) {
            self.import(specifier, it.span, ImportKind::Dynamic, false);
        }
        walk::walk_import_expression(self, it);
    }

    // Asked by the callee's kind, each question of the callees it can be true of: this runs for every call.
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let callee = it.callee.get_inner_expression();
        self.invoked = invoked_function(callee);
        let is_fetch = match callee {
            Expression::Identifier(id) => {
                if id.name == "require"
                    && let [Argument::StringLiteral(_) | Argument::TemplateLiteral(_)] = it.arguments.as_slice()
                    && let Some(specifier) = it.arguments[0].as_expression().and_then(string_value)
                {
                    self.import(specifier, it.span, ImportKind::Require, false);
                }
                id.name == "fetch"
            }
            Expression::StaticMemberExpression(member) => {
                if member.property.name == "registerTool" {
                    self.facts.registers_tools = true;
                }
                // `server.tool('name', …)`: the MCP SDK's way to register a tool with a server.
                if member.property.name == "tool" && matches!(it.arguments.first(), Some(Argument::StringLiteral(_))) {
                    self.facts.serves_tools = true;
                }
                if let Some(name) = changed::changed_argument(it) {
                    self.passed_to_change.push(name);
                }
                member.property.name == "fetch" && member.object.is_specific_id("globalThis")
            }
            // `globalThis['fetch']`, `globalThis?.fetch`.
            callee => callee.is_specific_member_access("globalThis", "fetch"),
        };
        if is_fetch
            && self.in_execute(it.span)
            && !matches!(it.arguments.first(), Some(Argument::Identifier(id))
                if self.signal_requests.contains(id.name.as_str()))
            && passes_no_signal(&it.arguments)
        {
            self.fetches.push(span(it.span));
        }
        walk::walk_call_expression(self, it);
    }

    // A key that is not computed (most) holds no expression.
    fn visit_property_key(&mut self, it: &PropertyKey<'a>) {
        if let Some(key) = it.as_expression() {
            self.visit_expression(key);
        }
    }

    fn visit_reg_exp_literal(&mut self, it: &RegExpLiteral<'a>) {
        let pattern = it.regex.pattern.text.as_str();
        // The parser's literals keep their source: `/pattern/flags`.
        let flags = it.raw.and_then(|raw| raw.as_str().get(pattern.len() + 2..)).unwrap_or_default();
        self.regexes.push(RegexLiteral { span: it.span, pattern, flags });
    }

    // The template's text holds nothing the walk looks for.
    fn visit_template_literal(&mut self, it: &TemplateLiteral<'a>) {
        self.visit_expressions(&it.expressions);
    }

    // A name (most patterns) holds no expression; a default value or a computed key may.
    fn visit_binding_pattern(&mut self, it: &BindingPattern<'a>) {
        if !matches!(it, BindingPattern::BindingIdentifier(_)) {
            walk::walk_binding_pattern(self, it);
        }
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let Some(env) = self.env_object(&it.object) {
            self.env_read(env, it.property.name.as_str(), it.span);
        }
        walk::walk_static_member_expression(self, it);
    }

    fn visit_computed_member_expression(&mut self, it: &ComputedMemberExpression<'a>) {
        if let Some(env) = self.env_object(&it.object)
            && let Some(name) = it.static_property_name()
        {
            self.env_read(env, name.as_str(), it.span);
        }
        walk::walk_computed_member_expression(self, it);
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        if self.statements > 1
            && self.functions == 0
            && (commonjs::is_commonjs_export(&it.left) || commonjs::exported_field(&it.left).is_some())
        {
            self.nested_commonjs.get_or_insert(it.span);
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: oxc_semantic::ScopeFlags) {
        let called_here = self.invoked.take() == Some(it.span);
        self.functions += usize::from(!called_here);
        self.bodies += 1;
        walk::walk_function(self, it, flags);
        self.bodies -= 1;
        self.functions -= usize::from(!called_here);
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        let called_here = self.invoked.take() == Some(it.span);
        self.functions += usize::from(!called_here);
        self.bodies += 1;
        walk::walk_arrow_function_expression(self, it);
        self.bodies -= 1;
        self.functions -= usize::from(!called_here);
    }

    fn visit_await_expression(&mut self, it: &AwaitExpression<'a>) {
        self.top_level(it.span);
        walk::walk_await_expression(self, it);
    }

    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        if it.r#await {
            self.top_level(it.span);
        }
        walk::walk_for_of_statement(self, it);
    }

    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        if it.kind == VariableDeclarationKind::AwaitUsing {
            self.top_level(it.span);
        }
        walk::walk_variable_declaration(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(Expression::NewExpression(request))) =
            (&it.id, it.init.as_ref().map(Expression::get_inner_expression))
            && is_request_with_signal(request)
        {
            self.signal_requests.insert(id.name.as_str());
        }
        if let Some(init) = &it.init
            && self.in_execute(it.span)
            && let Some(alias) = self.env_alias(&it.id, init)
        {
            self.env_aliases.push(alias);
        }
        if let (BindingPattern::ObjectPattern(pattern), Some(init)) = (&it.id, &it.init)
            && let Some(env) = self.env_object(init)
        {
            for property in pattern.properties.iter().filter(|p| !p.computed) {
                if let Some(name) = property.key.static_name() {
                    // Borrowed but for a number key (`{ 1: x } = process.env`), which is written out.
                    let name = match name {
                        std::borrow::Cow::Borrowed(name) => name,
                        std::borrow::Cow::Owned(name) => self.arena.alloc_str(&name),
                    };
                    self.env_read(env, name, property.span);
                }
            }
        }
        walk::walk_variable_declarator(self, it);
    }
}

/// An expression without expressions, statements or bindings inside it: a literal (not a template), a name,
/// `this` or `super`.
fn is_leaf(expr: &Expression) -> bool {
    expr.is_literal()
        || matches!(expr, Expression::Identifier(_) | Expression::ThisExpression(_) | Expression::Super(_))
}

/// The function a call with this callee runs where it is written: `(function () {})()`, `(() => {})()`,
/// `(function () {}).call(this)`.
fn invoked_function(callee: &Expression) -> Option<oxc_span::Span> {
    let callee = match callee {
        Expression::StaticMemberExpression(m) if matches!(m.property.name.as_str(), "call" | "apply") => {
            m.object.get_inner_expression()
        }
        callee => callee,
    };
    match callee {
        Expression::FunctionExpression(f) => Some(f.span),
        Expression::ArrowFunctionExpression(f) => Some(f.span),
        _ => None,
    }
}
