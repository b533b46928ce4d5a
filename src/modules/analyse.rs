//! Static analysis of one tool module: parse it with oxc (never run or import it) and extract the facts the
//! module rules read.

pub(crate) mod bindings;
pub(crate) mod changed;
mod collector;
pub(crate) mod commonjs;
mod depth;
mod early;
mod erased;
pub(crate) mod export;
mod format;
mod regex;
mod signal;

use oxc_allocator::Allocator;
use oxc_ast_visit::Visit;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{FileExtension, SourceType};

use self::collector::Collector;
use self::depth::Scan;
use self::erased::JsxRuntime;
use self::export::{Scope, span};
use crate::modules::facts::*;
use crate::source::Span;

/// Parses `text` as the module at `path` (its extension picks TS or JS, module or CommonJS) and extracts its facts.
/// Never panics, never recurses without bound: a module nested deeper than the parser or the visitor can take
/// comes back not analysed (`not_analysed`), not as a stack overflow.
pub fn analyse(path: &str, text: &str, allocator: &mut Allocator) -> ModuleFacts {
    allocator.reset();
    let allocator = &*allocator;
    let mut facts = Collected::default();
    // `.ts` and `.js` are "unambiguous" in oxc (ESM when the file imports or exports); Bun accepts both
    // module and CommonJS syntax in them too. An unknown extension is read as TypeScript, the superset.
    // Bun's loader for `.js` (and `.jsx`, `.tsx`) is `jsx`: JSX is accepted there, and only there.
    let source_type = source_type(path).unwrap_or_else(SourceType::ts);
    let source_type = if path.ends_with(".js") { source_type.with_jsx(true) } else { source_type };
    let jsx = source_type.is_jsx();
    // Most modules are too short to reach the limits: scanning them too cost 18 % of a cold run's instructions.
    let scan = depth::may_be_too_deep(text).then(|| depth::scan(text, jsx));
    if let Some(Scan { too_deep: Some(deep), comments }) = &scan {
        let span = Span::new(deep.at, deep.at + 1);
        facts.not_analysed = Some(NotAnalysed { span, why: deep.message.clone() });
        facts.comments = lint_comments(text, comments.iter().copied());
        return facts.into();
    }

    // CommonJS runs inside a function, so a top-level `return` is fine there (and `.js` may be CommonJS).
    // Regular expressions are parsed after the walk, each measured first (`regex`).
    let options = ParseOptions { allow_return_outside_function: !source_type.is_module(), ..ParseOptions::default() };
    let parsed = Parser::new(allocator, text, source_type).with_options(options).parse();
    facts.syntax_errors.extend(parsed.diagnostics.errors().map(|d| early::syntax_error(d, false)));
    let program = &parsed.program;
    // A parser that gave up leaves an empty program: the scan's comments still carry the ignore markers.
    facts.comments = if parsed.panicked {
        let comments = scan.map_or_else(|| depth::scan(text, jsx).comments, |scan| scan.comments);
        lint_comments(text, comments.into_iter())
    } else {
        lint_comments(text, program.comments.iter().map(|c| (c.span.start as usize, c.span.end as usize)))
    };

    let scope = Scope::new(program);
    facts.opencode_exports = scope.opencode_exports(program);
    let mut execute = None;
    // CommonJS's exports are read whatever the extension, as Bun runs an `.mjs` without `export` as CommonJS too
    // ([`format`]); in an ES module they throw at load, which `format::load_error` reports.
    match scope.default_export(program) {
        Some((export, info)) => {
            facts.default_export = Some(export);
            execute = info;
        }
        None => facts.named_tool_object = scope.named_tool_object(program),
    }
    facts.identity_exports = scope.identity_exports(program);
    let followed = scope.followed();
    let mut visitor = Collector::new(execute.as_ref(), &mut facts, allocator);
    visitor.visit_program(program);
    let Collector {
        too_deep: visitor_too_deep,
        nested_module_code,
        nested_commonjs,
        mut imports,
        env_reads,
        context_env,
        fetches,
        passed_to_change,
        first_jsx,
        decorated,
        regexes,
        top_level_await,
        ..
    } = visitor;
    match regex::check(&regexes) {
        regex::Checked::Valid => {}
        regex::Checked::Invalid(error) => insert_in_order(&mut facts.syntax_errors, error),
        // A pattern past a limit leaves the module unanalysed, unless it has a syntax error.
        regex::Checked::Refused(refused) if facts.syntax_errors.is_empty() => {
            let comments = std::mem::take(&mut facts.comments);
            return Collected { not_analysed: Some(refused), comments, ..Collected::default() }.into();
        }
        regex::Checked::Refused(_) => {}
    }
    let jsx = first_jsx.map(|at| (at, JsxRuntime::of(text, &program.comments)));
    if let Some((at, JsxRuntime::Automatic { source })) = jsx {
        let specifier = allocator.alloc_str(&format!("{source}/jsx-dev-runtime"));
        imports.push(Found {
            specifier,
            span: span(at),
            kind: ImportKind::Jsx,
            type_only: false,
            guarded: false,
            deferred: false,
        });
    }
    let read_by_jsx = match &jsx {
        Some((_, JsxRuntime::Classic { factories })) => &factories[..],
        _ => &[],
    };
    // What is kept to the end of the run is made here, each list in one allocation of its exact size.
    imports.sort_by_key(Found::start);
    facts.imports = imports.iter().map(Found::import).collect();
    facts.env_reads =
        env_reads.iter().map(|&(name, span, via)| EnvRead { name: InlineStr::from(name), span, via }).collect();
    facts.context_env = context_env.iter().map(|&name| InlineStr::from(name)).collect();
    // UMD and Emscripten wrappers assign `module.exports` only if they run as CommonJS, which Bun does (a file
    // with `export` statements is an ES module, where `module` is not defined).
    if let Some(at) = nested_commonjs.filter(|_| facts.default_export.is_none() && format::may_be_commonjs(program)) {
        let why = "`module.exports` is assigned inside a block or a function".to_string();
        facts.default_export =
            Some(DefaultExport { statement: span(at), kind: DefaultExportKind::Unanalyzable { why: why.into() } });
        facts.named_tool_object = None;
    }
    facts.execute =
        execute.map(|info| ExecuteFacts { span: info.property, fetch_without_signal: Box::from(&fetches[..]) });
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
        // Both lists are in source order: a search, not a scan, for each of a module's (unbounded) imports.
        let erased = erased::unused_as_values(program, &semantic, decorated, read_by_jsx);
        for import in facts.imports.iter_mut().filter(|i| i.kind == ImportKind::Static) {
            import.type_only |= erased.binary_search_by_key(&import.span.start(), |at| Span::from(*at).start()).is_ok();
        }
        if facts.syntax_errors.is_empty() {
            let evidence = format::Evidence { top_level_await, imports: &facts.imports };
            let format = format::decide(program, &semantic, &evidence);
            facts.syntax_errors.extend(format::compile_error(format, &mut facts.imports));
            if facts.syntax_errors.is_empty() {
                facts.load_error = format::load_error(text, program, format);
            }
        }
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

/// What [`SourceType::from_path`] makes of `path` (`None`: no extension oxc knows), without taking the path apart
/// into components twice (for its file name, then for its extension): 1,150 instructions a module, the last
/// `/`-separated part and its last `.` give the same. A name that is no file's (empty, `.`, `..`) is left to oxc.
fn source_type(path: &str) -> Option<SourceType> {
    let name = path.rsplit(std::path::is_separator).next().unwrap_or(path);
    if matches!(name, "" | "." | "..") {
        return SourceType::from_path(path).ok();
    }
    // A name that starts with its only `.` (`.ts`) has no extension.
    let extension = name.rsplit_once('.').filter(|(stem, _)| !stem.is_empty())?.1;
    let extension = extension.parse::<FileExtension>().ok()?;
    // Every declaration name holds `.d.` (`a.d.ts`, `a.d.mts`): the bytes are asked first, as oxc's `rfind` costs
    // a substring search (430 instructions).
    let declaration = name.as_bytes().windows(3).any(|w| w == b".d.") && extension.is_ts_declaration(name);
    Some(SourceType::from(extension).with_typescript_definition(declaration))
}

/// An import as the walk finds it: its specifier borrowed from the program until the facts are made.
#[derive(Clone, Copy)]
struct Found<'a> {
    specifier: &'a str,
    span: Span,
    kind: ImportKind,
    type_only: bool,
    guarded: bool,
    deferred: bool,
}

impl Found<'_> {
    fn start(&self) -> usize {
        self.span.start()
    }

    fn import(&self) -> Import {
        let Found { specifier, span, kind, type_only, guarded, deferred } = *self;
        Import { specifier: InlineStr::from(specifier), span, kind, type_only, guarded, deferred }
    }
}

/// Adds a pattern's `error` to the parser's `syntax_errors`, before the first that starts after it (the parser
/// lists its lexer's errors first): the first error of a module is the one reported.
fn insert_in_order(syntax_errors: &mut Vec<SyntaxError>, error: SyntaxError) {
    let at = syntax_errors.iter().position(|e| e.span.start() > error.span.start()).unwrap_or(syntax_errors.len());
    syntax_errors.insert(at, error);
}

/// The `beeuni-lint:` comments among `comments` (byte ranges that include the delimiters), delimiters removed: one
/// more than the ignores a file may hold (see [`crate::diagnostic::IGNORES_PER_FILE`]), whose place says where the
/// file goes past them; a module of a million such comments keeps no more.
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
        .take(crate::diagnostic::IGNORES_PER_FILE + 1)
        .collect()
}

#[cfg(test)]
mod tests;
