//! Static analysis of one tool module: parse it with oxc (never run or import it) and extract the facts the
//! module rules read.

pub(crate) mod bindings;
pub(crate) mod changed;
mod commonjs;
mod depth;
mod early;
pub(crate) mod export;

use oxc_allocator::Allocator;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{GetSpan, SourceType};

use self::depth::Scan;
use self::export::{Scope, env_binding, is_commonjs_export, span, string_value};
use crate::modules::facts::*;
use crate::source::Span;

/// How many expressions and statements the visitor enters inside one another: above what the depth scan lets
/// through (a bracket is at most three levels, a counted token one). Left-nested chains that the parser builds
/// without recursing (`a + b + …`, `a.b.c…`, `f()()…`) can be far deeper; a release build visits (and checks
/// for early errors) some 700,000 levels on the 64 MiB analysis stack.
const MAX_VISIT_DEPTH: usize = 25_000;

/// Parses `text` as the module at `path` (its extension picks TS or JS, module or CommonJS) and extracts its facts.
/// Never panics, never recurses without bound: a module nested deeper than the parser or the visitor can take
/// comes back not analysed (`not_analysed`), not as a stack overflow.
pub fn analyse(path: &str, text: &str, allocator: &mut Allocator) -> ModuleFacts {
    allocator.reset();
    let mut facts = Collected::default();
    // Most modules are too short to reach the limits: scanning them too cost 18 % of a cold run's instructions.
    let scan = depth::may_be_too_deep(text).then(|| depth::scan(text));
    if let Some(Scan { too_deep: Some(deep), comments }) = &scan {
        let span = Span::new(deep.at, deep.at + 1);
        facts.not_analysed = Some(NotAnalysed { span, why: deep.message.clone() });
        facts.comments = lint_comments(text, comments.iter().copied());
        return facts.into();
    }

    // `.ts` and `.js` are "unambiguous" in oxc (ESM when the file imports or exports); Bun accepts both
    // module and CommonJS syntax in them too. An unknown extension is read as TypeScript, the superset.
    // Bun's loader for `.js` (and `.jsx`, `.tsx`) is `jsx`: JSX is accepted there, and only there.
    let source_type = SourceType::from_path(path).unwrap_or_else(|_| SourceType::ts());
    let source_type = if path.ends_with(".js") { source_type.with_jsx(true) } else { source_type };
    // CommonJS runs inside a function, so a top-level `return` is fine there (and `.js` may be CommonJS).
    let options = ParseOptions {
        allow_return_outside_function: !source_type.is_module(),
        parse_regular_expression: true,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(allocator, text, source_type).with_options(options).parse();
    facts.syntax_errors.extend(parsed.diagnostics.errors().map(|d| early::syntax_error(d, false)));
    let program = &parsed.program;
    // A parser that gave up leaves an empty program: the scan's comments still carry the ignore markers.
    facts.comments = if parsed.panicked {
        let comments = scan.map_or_else(|| depth::scan(text).comments, |scan| scan.comments);
        lint_comments(text, comments.into_iter())
    } else {
        lint_comments(text, program.comments.iter().map(|c| (c.span.start as usize, c.span.end as usize)))
    };

    let scope = Scope::new(program);
    facts.opencode_exports = scope.opencode_exports(program);
    let mut execute = None;
    let commonjs = !(path.ends_with(".mjs") || path.ends_with(".mts"));
    if let Some((export, info)) = scope.default_export(program, commonjs) {
        facts.default_export = Some(export);
        execute = info;
    }
    let followed = scope.followed();
    let mut visitor = Collector {
        execute_body: execute.as_ref().and_then(|info| info.function),
        context_names: match execute.as_ref().and_then(|info| info.params.get(1)) {
            Some(&name) if name != "_" => vec![name],
            _ => vec!["context", "ctx"],
        },
        env_aliases: execute.as_ref().and_then(|info| info.env_alias).into_iter().collect(),
        depth: 0,
        too_deep: false,
        statements: 0,
        nested_module_code: None,
        guarded: 0,
        facts: &mut facts,
        fetches: Vec::new(),
        passed_to_change: Vec::new(),
        nested_commonjs: None,
        signal_requests: Vec::new(),
        invoked: None,
        functions: 0,
    };
    visitor.visit_program(program);
    let visitor_too_deep = visitor.too_deep;
    let fetch_without_signal = std::mem::take(&mut visitor.fetches);
    let nested_module_code = visitor.nested_module_code;
    let passed_to_change = std::mem::take(&mut visitor.passed_to_change);
    // UMD and Emscripten wrappers assign `module.exports` only if they run as CommonJS, which Bun does (a file
    // with `export` statements is an ES module, where `module` is not defined).
    let es_exports = program.body.iter().any(|s| s.as_module_declaration().is_some_and(|d| !d.is_import()));
    if let Some(at) = visitor.nested_commonjs.filter(|_| facts.default_export.is_none() && commonjs && !es_exports) {
        let why = "`module.exports` is assigned inside a block or a function".to_string();
        facts.default_export =
            Some(DefaultExport { statement: span(at), kind: DefaultExportKind::Unanalyzable { why: why.into() } });
    }
    let fetch_without_signal = fetch_without_signal.into_boxed_slice();
    facts.execute = execute.map(|info| ExecuteFacts { span: info.property, fetch_without_signal });
    facts.imports.sort_by_key(|import| import.span.start);
    if visitor_too_deep {
        // A syntax error is the finding that matters; otherwise the facts are partial: drop them.
        if facts.syntax_errors.is_empty() {
            let (not_analysed, comments) = (facts.not_analysed.take(), std::mem::take(&mut facts.comments));
            return Collected { not_analysed, comments, ..Collected::default() }.into();
        }
        facts.not_analysed = None;
    }
    // The visitor bounds its own depth but the checker does not: it runs only on what the visitor took whole.
    if facts.syntax_errors.is_empty() && !parsed.panicked {
        let (errors, semantic) = early::check(program, nested_module_code);
        facts.syntax_errors = errors;
        if let Some(name) = changed::first_changed(&semantic, &followed, &passed_to_change)
            && let Some(export) = &mut facts.default_export
        {
            let why = format!("the binding `{name}`, which is changed after its declaration");
            export.kind = DefaultExportKind::Unanalyzable { why: why.into() };
            facts.execute = None;
        }
    }
    facts.into()
}

/// The `beeuni-lint:` comments among `comments` (byte ranges that include the delimiters), delimiters removed.
fn lint_comments(text: &str, comments: impl Iterator<Item = (usize, usize)>) -> Vec<(Span, String)> {
    comments
        .filter_map(|(start, end)| {
            let comment = text.get(start..end)?;
            let inner = match comment.strip_prefix("/*") {
                Some(block) => block.strip_suffix("*/").unwrap_or(block),
                None => comment.strip_prefix("//").unwrap_or(comment),
            };
            inner.contains("beeuni-lint:").then(|| (Span::new(start, end), inner.to_string()))
        })
        .collect()
}

#[derive(Clone, Copy)]
enum Env {
    /// The box's environment at start-up: `process.env` or `Bun.env`.
    Process(&'static str),
    /// `env` of the context `execute` receives.
    Context,
}

/// Walks the whole program once for imports, environment reads and the `fetch` calls inside `execute`. Names are
/// borrowed from the program (`'a`), not copied: this runs for every module.
struct Collector<'a, 'f> {
    /// The span of `execute`'s function node: calls inside it are `execute`'s.
    execute_body: Option<TextSpan>,
    /// `<name>.env.X` reads count as `context.env` reads for these names.
    context_names: Vec<&'a str>,
    /// Inside `execute`, these names hold the context's `env` itself (`{ env }` parameters, `const { env } = ctx`).
    env_aliases: Vec<&'a str>,
    depth: usize,
    /// Whether the depth limit was hit and reported (once is enough).
    too_deep: bool,
    /// How many statements enclose the current one, counted from the top level or the nearest namespace body.
    statements: usize,
    /// The first `import`/`export` declaration below the top level (oxc's checker leaves it to TypeScript).
    nested_module_code: Option<(oxc_span::Span, &'static str)>,
    /// How many `try` blocks with a `catch` enclose the current node.
    guarded: usize,
    facts: &'f mut Collected,
    fetches: Vec<TextSpan>,
    /// Names given first to `Object.assign(x, ...)` and its kin, which change them.
    passed_to_change: Vec<&'a str>,
    /// The first CommonJS export (`module.exports = …`, `exports.x = …`) below the top level, outside any
    /// function but those called where they are written (a UMD wrapper's `(function () { … })()`).
    nested_commonjs: Option<oxc_span::Span>,
    /// Names bound to `new Request(url, { signal })`: a `fetch(name)` passes that signal.
    signal_requests: Vec<&'a str>,
    /// The function the call being visited invokes where it is written.
    invoked: Option<oxc_span::Span>,
    /// How many functions that are not called where they are written enclose the current node.
    functions: usize,
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
            self.facts.not_analysed = Some(NotAnalysed { span: span(at).span(), why });
        }
    }

    fn import(&mut self, specifier: &str, at: oxc_span::Span, kind: ImportKind, type_only: bool) {
        let guarded = self.guarded > 0 && matches!(kind, ImportKind::Dynamic | ImportKind::Require);
        let import = Import { specifier: InlineStr::from(specifier), span: span(at), kind, type_only, guarded };
        self.facts.imports.push(import);
    }

    fn in_execute(&self, at: oxc_span::Span) -> bool {
        self.execute_body.is_some_and(|body| body.start <= at.start && at.end <= body.end)
    }

    /// Which environment `expr` is, if it is one.
    fn env_object(&self, expr: &Expression) -> Option<Env> {
        let member = match expr.get_inner_expression() {
            Expression::StaticMemberExpression(member) => member,
            Expression::Identifier(id) if self.env_aliases.contains(&id.name.as_str()) && self.in_execute(id.span) => {
                return Some(Env::Context);
            }
            _ => return None,
        };
        if member.property.name != "env" {
            return None;
        }
        let Expression::Identifier(object) = member.object.get_inner_expression() else {
            return None;
        };
        match object.name.as_str() {
            "process" => Some(Env::Process("process.env")),
            "Bun" => Some(Env::Process("Bun.env")),
            name if self.context_names.contains(&name) => Some(Env::Context),
            _ => None,
        }
    }

    /// `const { env } = context` or `const e = context.env`: the name now holding the context's environment.
    fn env_alias(&self, id: &BindingPattern<'a>, init: &Expression) -> Option<&'a str> {
        match (id, init.get_inner_expression()) {
            (BindingPattern::BindingIdentifier(id), init) if matches!(self.env_object(init), Some(Env::Context)) => {
                Some(id.name.as_str())
            }
            (pattern, Expression::Identifier(ctx)) if self.context_names.contains(&ctx.name.as_str()) => {
                env_binding(pattern)
            }
            _ => None,
        }
    }

    fn env_read(&mut self, env: Env, name: &str, at: oxc_span::Span) {
        match env {
            Env::Context if self.facts.context_env.iter().any(|n| n == name) => {}
            Env::Context => {
                // Most modules read one name: room for it alone (a first push makes room for four).
                if self.facts.context_env.is_empty() {
                    self.facts.context_env.reserve_exact(1);
                }
                self.facts.context_env.push(InlineStr::from(name))
            }
            Env::Process(via) => {
                self.facts.env_reads.push(EnvRead { name: InlineStr::from(name), span: span(at), via })
            }
        }
    }
}

impl<'a> Visit<'a> for Collector<'a, '_> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
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

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        if let Some(specifier) = string_value(&it.source) {
            self.import(specifier, it.span, ImportKind::Dynamic, false);
        }
        walk::walk_import_expression(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let callee = it.callee.get_inner_expression();
        self.invoked = invoked_function(callee);
        if callee.is_specific_id("require")
            && let [Argument::StringLiteral(_) | Argument::TemplateLiteral(_)] = it.arguments.as_slice()
            && let Some(specifier) = it.arguments[0].as_expression().and_then(string_value)
        {
            self.import(specifier, it.span, ImportKind::Require, false);
        }
        if let Expression::StaticMemberExpression(member) = callee
            && member.property.name == "registerTool"
        {
            self.facts.registers_tools = true;
        }
        let is_fetch = callee.is_specific_id("fetch") || callee.is_specific_member_access("globalThis", "fetch");
        let request_with_signal = matches!(it.arguments.first(), Some(Argument::Identifier(id))
            if self.signal_requests.contains(&id.name.as_str()));
        if is_fetch && self.in_execute(it.span) && !request_with_signal && passes_no_signal(&it.arguments) {
            self.fetches.push(span(it.span));
        }
        if let Some(name) = changed::changed_argument(it) {
            self.passed_to_change.push(name);
        }
        walk::walk_call_expression(self, it);
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
            && (is_commonjs_export(&it.left) || commonjs::exported_field(&it.left).is_some())
        {
            self.nested_commonjs.get_or_insert(it.span);
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: oxc_semantic::ScopeFlags) {
        let called_here = self.invoked.take() == Some(it.span);
        self.functions += usize::from(!called_here);
        walk::walk_function(self, it, flags);
        self.functions -= usize::from(!called_here);
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        let called_here = self.invoked.take() == Some(it.span);
        self.functions += usize::from(!called_here);
        walk::walk_arrow_function_expression(self, it);
        self.functions -= usize::from(!called_here);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(Expression::NewExpression(request))) =
            (&it.id, it.init.as_ref().map(Expression::get_inner_expression))
            && is_request_with_signal(request)
        {
            self.signal_requests.push(id.name.as_str());
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
                    self.env_read(env, &name, property.span);
                }
            }
        }
        walk::walk_variable_declarator(self, it);
    }
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

/// Whether a `fetch` call's arguments pass no `signal`: no options at all, or an options literal without a
/// `signal` key, a spread or a computed key. Options built elsewhere (an identifier, a call) may carry one, and
/// so may a `new Request(url, options)` passed as the first argument (RULES.md §10, revision 2).
fn passes_no_signal(arguments: &[Argument]) -> bool {
    if arguments.iter().any(Argument::is_spread) {
        return false;
    }
    if let Some(Expression::NewExpression(request)) =
        arguments.first().and_then(Argument::as_expression).map(|e| e.get_inner_expression())
        && is_request_with_signal(request)
    {
        return false;
    }
    options_lack_signal(arguments.get(1))
}

/// `new Request(url, options)` whose options may carry a `signal`.
fn is_request_with_signal(request: &NewExpression) -> bool {
    request.callee.get_inner_expression().is_specific_id("Request") && !options_lack_signal(request.arguments.get(1))
}

/// Do these options (a call's argument) leave `signal` out? Only a missing argument or an object literal
/// without a `signal` key, a spread or a computed key says so.
fn options_lack_signal(options: Option<&Argument>) -> bool {
    let Some(options) = options else { return true };
    let Some(options) = options.as_expression() else { return false };
    let Expression::ObjectExpression(options) = options.get_inner_expression() else {
        return false;
    };
    options.properties.iter().all(|p| match p {
        ObjectPropertyKind::ObjectProperty(p) => !p.computed && !p.key.is_specific_static_name("signal"),
        ObjectPropertyKind::SpreadProperty(_) => false,
    })
}

#[cfg(test)]
mod tests;
