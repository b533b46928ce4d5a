//! Uses of the xcsh host API in a tool module: `pi.exec(...)` inside `execute` without a `signal`, `pi.ui` /
//! `ctx.ui` outside a test of `hasUI` (or where the test says there is no UI), `pi.registerTool(...)` (an
//! extension).

use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_semantic::ScopeFlags;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::source::Span;
use crate::xcsh::facts::UiUse;

/// How many expressions and statements a walk enters inside one another (as in the modules stage).
const MAX_VISIT_DEPTH: usize = 10_000;

/// The names the rules watch, learnt from the factory and its tools.
#[derive(Debug, Default)]
pub struct Receivers {
    /// The factory's host API parameter (`pi`).
    pi: Option<String>,
    /// `exec` and `registerTool` destructured from the host API (`({ exec }) => …`).
    exec: Option<String>,
    register: Option<String>,
    /// Names whose `.ui` needs a `hasUI` guard: the host API and the context parameters, each with the function
    /// it is a parameter of (a helper's own `ctx` parameter is another binding, guarded or not by its callers).
    ui: Vec<(String, Span)>,
    /// The `execute` functions.
    executes: Vec<Span>,
}

impl Receivers {
    /// The factory `function` and its first parameter (the host API).
    pub fn factory(&mut self, function: Span, pattern: &BindingPattern) {
        match pattern {
            BindingPattern::BindingIdentifier(id) => {
                self.pi = Some(id.name.to_string());
                self.ui.push((id.name.to_string(), function));
            }
            BindingPattern::AssignmentPattern(p) => self.factory(function, &p.left),
            BindingPattern::ObjectPattern(object) => {
                for property in &object.properties {
                    let Some(local) = property.value.get_binding_identifier() else { continue };
                    match property.key.static_name().as_deref() {
                        Some("exec") => self.exec = Some(local.name.to_string()),
                        Some("registerTool") => self.register = Some(local.name.to_string()),
                        _ => {}
                    }
                }
            }
            BindingPattern::ArrayPattern(_) => {}
        }
    }

    /// An `execute` function and its fourth parameter (`ctx`).
    pub fn execute(&mut self, function: Span, ctx: Option<&BindingPattern>) {
        self.executes.push(function);
        self.context(function, ctx);
    }

    /// A context parameter (`ctx` of `execute` or `onSession`) of `function`.
    pub fn context(&mut self, function: Span, ctx: Option<&BindingPattern>) {
        if let Some(BindingPattern::BindingIdentifier(id)) = ctx {
            self.ui.push((id.name.to_string(), function));
        }
    }

    fn is(&self, expr: &Expression, name: &Option<String>) -> bool {
        name.as_ref().is_some_and(|n| expr.get_inner_expression().is_specific_id(n))
    }

    /// `pi.<method>(...)`, or the destructured `alias(...)`.
    fn calls(&self, callee: &Expression, method: &str, alias: &Option<String>) -> bool {
        match callee.get_inner_expression() {
            Expression::StaticMemberExpression(m) => m.property.name == method && self.is(&m.object, &self.pi),
            callee => self.is(callee, alias),
        }
    }
}

/// The `pi.exec` calls without a signal, and the unguarded UI uses, of the whole program.
pub fn collect(program: &Program, receivers: &Receivers) -> (Vec<Span>, Vec<UiUse>) {
    let mut uses = Uses::new(receivers);
    uses.visit_program(program);
    (uses.exec, uses.ui)
}

/// Whether `statements` call `pi.registerTool(...)`.
pub fn calls_register_tool(statements: &[Statement], receivers: &Receivers) -> bool {
    let mut uses = Uses::new(receivers);
    for statement in statements {
        uses.visit_statement(statement);
    }
    uses.registers
}

/// What `hasUI` is when a test is truthy, and when it is falsy (`None`: the test does not tell).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Test {
    truthy: Option<bool>,
    falsy: Option<bool>,
}

impl Test {
    const HAS_UI: Test = Test { truthy: Some(true), falsy: Some(false) };

    fn not(self) -> Test {
        Test { truthy: self.falsy, falsy: self.truthy }
    }
}

/// What both sides say, when they agree.
fn agree(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    if a == b { a } else { None }
}

/// How deep a test is read (`!!!pi.hasUI`, `a && (b || c)`): a deeper one tells nothing.
const MAX_TEST_DEPTH: usize = 64;

struct Uses<'r> {
    receivers: &'r Receivers,
    /// The names whose `.ui` needs a guard, by the function they are parameters of (each name once: a function
    /// that many tools name as their `execute` is one entry).
    ui_of: FxHashMap<Span, Vec<&'r str>>,
    /// The `execute` functions.
    executes: FxHashSet<Span>,
    /// The names of `ui_of` of the functions the walk is in, and how many `execute` functions it is in: what a
    /// search of every receiver's function for one containing each use would find, without that search (which a
    /// module of 20,000 tools made quadratic).
    guarded_names: Vec<&'r str>,
    in_executes: usize,
    /// Variables that hold a test of `hasUI` (`const interactive = pi.hasUI`), the last one met of each name.
    flags: FxHashMap<String, Test>,
    /// What `hasUI` is where the walk is, as the enclosing tests and early exits say.
    known: Option<bool>,
    depth: usize,
    exec: Vec<Span>,
    ui: Vec<UiUse>,
    registers: bool,
}

impl<'r> Uses<'r> {
    fn new(receivers: &'r Receivers) -> Self {
        let mut ui_of: FxHashMap<Span, Vec<&'r str>> = FxHashMap::default();
        for (name, function) in &receivers.ui {
            let names = ui_of.entry(*function).or_default();
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        Uses {
            receivers,
            ui_of,
            executes: receivers.executes.iter().copied().collect(),
            guarded_names: Vec::new(),
            in_executes: 0,
            flags: FxHashMap::default(),
            known: None,
            depth: 0,
            exec: Vec::new(),
            ui: Vec::new(),
            registers: false,
        }
    }

    /// What the test `expr` says of `hasUI`: `pi.hasUI`, a destructured `hasUI`, a variable holding a test,
    /// through `!`, `&&`, `||`, `=== true`/`false` and `Boolean(…)`.
    fn test(&self, expr: &Expression, depth: usize) -> Test {
        if depth > MAX_TEST_DEPTH {
            return Test::default();
        }
        let test = |e: &Expression| self.test(e, depth + 1);
        match expr.get_inner_expression() {
            Expression::StaticMemberExpression(m) if m.property.name == "hasUI" => Test::HAS_UI,
            Expression::Identifier(id) if id.name == "hasUI" => Test::HAS_UI,
            Expression::Identifier(id) => self.flags.get(id.name.as_str()).copied().unwrap_or_default(),
            Expression::UnaryExpression(u) if u.operator == UnaryOperator::LogicalNot => test(&u.argument).not(),
            Expression::LogicalExpression(l) => {
                let (left, right) = (test(&l.left), test(&l.right));
                match l.operator {
                    // Truthy: both sides are; falsy: one of them is.
                    LogicalOperator::And => {
                        Test { truthy: left.truthy.or(right.truthy), falsy: agree(left.falsy, right.falsy) }
                    }
                    LogicalOperator::Or => {
                        Test { truthy: agree(left.truthy, right.truthy), falsy: left.falsy.or(right.falsy) }
                    }
                    LogicalOperator::Coalesce => Test::default(),
                }
            }
            Expression::BinaryExpression(b) => {
                let equal = match b.operator {
                    BinaryOperator::StrictEquality | BinaryOperator::Equality => true,
                    BinaryOperator::StrictInequality | BinaryOperator::Inequality => false,
                    _ => return Test::default(),
                };
                let (value, other) = match (&b.left, &b.right) {
                    (Expression::BooleanLiteral(l), other) | (other, Expression::BooleanLiteral(l)) => (l.value, other),
                    _ => return Test::default(),
                };
                if equal == value { test(other) } else { test(other).not() }
            }
            Expression::CallExpression(call) if call.callee.is_specific_id("Boolean") && call.arguments.len() == 1 => {
                call.arguments[0].as_expression().map_or_else(Test::default, test)
            }
            _ => Test::default(),
        }
    }

    /// Walks the function at `span` with its receivers in view.
    fn in_function(&mut self, span: oxc_span::Span, walk: impl FnOnce(&mut Self)) {
        let span = Span::from(span);
        let names = self.ui_of.get(&span).map_or(&[][..], Vec::as_slice);
        let (before, execute) = (self.guarded_names.len(), self.executes.contains(&span));
        self.guarded_names.extend_from_slice(names);
        self.in_executes += usize::from(execute);
        walk(self);
        self.in_executes -= usize::from(execute);
        self.guarded_names.truncate(before);
    }

    /// Visits with `hasUI` known to be `known` (kept as it was when the test tells nothing).
    fn knowing(&mut self, known: Option<bool>, visit: impl FnOnce(&mut Self)) {
        let before = self.known;
        self.known = known.or(before);
        visit(self);
        self.known = before;
    }
}

impl<'a> Visit<'a> for Uses<'_> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        if self.depth < MAX_VISIT_DEPTH {
            self.depth += 1;
            walk::walk_expression(self, it);
            self.depth -= 1;
        }
    }

    fn visit_statement(&mut self, it: &Statement<'a>) {
        if self.depth < MAX_VISIT_DEPTH {
            self.depth += 1;
            walk::walk_statement(self, it);
            self.depth -= 1;
        }
    }

    fn visit_ts_type(&mut self, _it: &TSType<'a>) {}

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.in_function(it.span, |this| walk::walk_function(this, it, flags));
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        self.in_function(it.span, |this| walk::walk_arrow_function_expression(this, it));
    }

    /// After `if (!pi.hasUI) return;` the rest of the block has a UI; after `if (pi.hasUI) return;` it has none.
    fn visit_statements(&mut self, it: &oxc_allocator::Vec<'a, Statement<'a>>) {
        let before = self.known;
        for statement in it {
            self.visit_statement(statement);
            if let Statement::IfStatement(s) = statement {
                let test = self.test(&s.test, 0);
                let after = match &s.alternate {
                    None if exits(&s.consequent) => test.falsy,
                    Some(alternate) if exits(alternate) && !exits(&s.consequent) => test.truthy,
                    _ => None,
                };
                self.known = after.or(self.known);
            }
        }
        self.known = before;
    }

    fn visit_if_statement(&mut self, it: &IfStatement<'a>) {
        let test = self.test(&it.test, 0);
        self.visit_expression(&it.test);
        self.knowing(test.truthy, |this| this.visit_statement(&it.consequent));
        if let Some(alternate) = &it.alternate {
            self.knowing(test.falsy, |this| this.visit_statement(alternate));
        }
    }

    fn visit_conditional_expression(&mut self, it: &ConditionalExpression<'a>) {
        let test = self.test(&it.test, 0);
        self.visit_expression(&it.test);
        self.knowing(test.truthy, |this| this.visit_expression(&it.consequent));
        self.knowing(test.falsy, |this| this.visit_expression(&it.alternate));
    }

    /// `pi.hasUI && pi.ui.notify()` runs the right side with a UI; `pi.hasUI || pi.ui.notify()` without one.
    fn visit_logical_expression(&mut self, it: &LogicalExpression<'a>) {
        let test = self.test(&it.left, 0);
        let right = match it.operator {
            LogicalOperator::And => test.truthy,
            LogicalOperator::Or => test.falsy,
            LogicalOperator::Coalesce => None,
        };
        self.visit_expression(&it.left);
        self.knowing(right, |this| this.visit_expression(&it.right));
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if it.property.name == "ui"
            && self.known != Some(true)
            && let Expression::Identifier(object) = it.object.get_inner_expression()
            && self.guarded_names.contains(&object.name.as_str())
        {
            self.ui.push(UiUse {
                span: Span::new(it.span.start as usize, it.span.end as usize),
                written: format!("{}.ui", object.name),
                inverted: self.known == Some(false),
            });
        }
        walk::walk_static_member_expression(self, it);
    }

    /// `const interactive = pi.hasUI`: a later test of `interactive` guards too.
    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init) {
            let test = self.test(init, 0);
            if test != Test::default() {
                self.flags.insert(id.name.to_string(), test);
            }
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let receivers = self.receivers;
        if receivers.calls(&it.callee, "registerTool", &receivers.register) {
            self.registers = true;
        }
        if receivers.calls(&it.callee, "exec", &receivers.exec)
            && self.in_executes > 0
            && passes_no_signal(&it.arguments)
        {
            self.exec.push(Span::new(it.span.start as usize, it.span.end as usize));
        }
        walk::walk_call_expression(self, it);
    }
}

/// `exec(command, args, options?)`: no options, or an options literal without `signal` (nor a spread or a
/// computed key that may carry one). Options built elsewhere may carry one.
fn passes_no_signal(arguments: &[Argument]) -> bool {
    if arguments.iter().any(Argument::is_spread) {
        return false;
    }
    let Some(options) = arguments.get(2).and_then(Argument::as_expression) else {
        return true;
    };
    let Expression::ObjectExpression(options) = options.get_inner_expression() else {
        return false;
    };
    options.properties.iter().all(|p| match p {
        ObjectPropertyKind::ObjectProperty(p) => p.key.static_name().is_some_and(|k| k != "signal"),
        ObjectPropertyKind::SpreadProperty(_) => false,
    })
}

/// Does control leave after this statement (`return`, `throw`, `break`, `continue`, or a block ending so)?
fn exits(statement: &Statement) -> bool {
    match statement {
        Statement::ReturnStatement(_)
        | Statement::ThrowStatement(_)
        | Statement::BreakStatement(_)
        | Statement::ContinueStatement(_) => true,
        Statement::BlockStatement(b) => b.body.last().is_some_and(exits),
        _ => false,
    }
}
