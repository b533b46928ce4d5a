//! Uses of the xcsh host API in a tool module: `pi.exec(...)` inside `execute` without a `signal`, `pi.ui` /
//! `ctx.ui` outside a test of `hasUI`, `pi.registerTool(...)` (an extension).

use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};

use crate::source::Span;

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

    /// Is `name` at `at` a receiver whose `.ui` needs a guard: inside the function it is a parameter of?
    fn needs_guard(&self, name: &str, at: oxc_span::Span) -> bool {
        self.ui.iter().any(|(n, f)| n == name && f.start <= at.start as usize && at.end as usize <= f.end)
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
pub fn collect(program: &Program, receivers: &Receivers) -> (Vec<Span>, Vec<(Span, String)>) {
    let mut uses =
        Uses { receivers, flags: Vec::new(), guard: 0, depth: 0, exec: Vec::new(), ui: Vec::new(), registers: false };
    uses.visit_program(program);
    (uses.exec, uses.ui)
}

/// Whether `statements` call `pi.registerTool(...)`.
pub fn calls_register_tool(statements: &[Statement], receivers: &Receivers) -> bool {
    let mut uses =
        Uses { receivers, flags: Vec::new(), guard: 0, depth: 0, exec: Vec::new(), ui: Vec::new(), registers: false };
    for statement in statements {
        uses.visit_statement(statement);
    }
    uses.registers
}

struct Uses<'r> {
    receivers: &'r Receivers,
    /// Variables that hold a test of `hasUI` (`const interactive = pi.hasUI`), as met in source order.
    flags: Vec<String>,
    /// How many `hasUI` tests enclose the current node.
    guard: usize,
    depth: usize,
    exec: Vec<Span>,
    ui: Vec<(Span, String)>,
    registers: bool,
}

impl Uses<'_> {
    fn in_execute(&self, at: oxc_span::Span) -> bool {
        self.receivers.executes.iter().any(|f| f.start <= at.start as usize && at.end as usize <= f.end)
    }

    /// Does the expression read `hasUI` (`pi.hasUI`, `!ctx.hasUI`, a destructured `hasUI`, a variable holding it)?
    fn tests_has_ui(&self, expr: &Expression) -> bool {
        let mut finder = Mentions { flags: &self.flags, found: false, depth: 0 };
        finder.visit_expression(expr);
        finder.found
    }

    fn guarded(&mut self, visit: impl FnOnce(&mut Self)) {
        self.guard += 1;
        visit(self);
        self.guard -= 1;
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

    /// After `if (!pi.hasUI) return;` the rest of the block is guarded.
    fn visit_statements(&mut self, it: &oxc_allocator::Vec<'a, Statement<'a>>) {
        let before = self.guard;
        for statement in it {
            self.visit_statement(statement);
            if let Statement::IfStatement(s) = statement
                && s.alternate.is_none()
                && exits(&s.consequent)
                && self.tests_has_ui(&s.test)
            {
                self.guard += 1;
            }
        }
        self.guard = before;
    }

    fn visit_if_statement(&mut self, it: &IfStatement<'a>) {
        if !self.tests_has_ui(&it.test) {
            return walk::walk_if_statement(self, it);
        }
        self.visit_expression(&it.test);
        self.guarded(|this| {
            this.visit_statement(&it.consequent);
            if let Some(alternate) = &it.alternate {
                this.visit_statement(alternate);
            }
        });
    }

    fn visit_conditional_expression(&mut self, it: &ConditionalExpression<'a>) {
        if !self.tests_has_ui(&it.test) {
            return walk::walk_conditional_expression(self, it);
        }
        self.visit_expression(&it.test);
        self.guarded(|this| {
            this.visit_expression(&it.consequent);
            this.visit_expression(&it.alternate);
        });
    }

    fn visit_logical_expression(&mut self, it: &LogicalExpression<'a>) {
        if !self.tests_has_ui(&it.left) {
            return walk::walk_logical_expression(self, it);
        }
        self.visit_expression(&it.left);
        self.guarded(|this| this.visit_expression(&it.right));
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if it.property.name == "ui"
            && self.guard == 0
            && let Expression::Identifier(object) = it.object.get_inner_expression()
            && self.receivers.needs_guard(&object.name, it.span)
        {
            self.ui.push((Span::new(it.span.start as usize, it.span.end as usize), format!("{}.ui", object.name)));
        }
        walk::walk_static_member_expression(self, it);
    }

    /// `const interactive = pi.hasUI`: a later test of `interactive` guards too.
    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init)
            && self.tests_has_ui(init)
        {
            self.flags.push(id.name.to_string());
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let receivers = self.receivers;
        if receivers.calls(&it.callee, "registerTool", &receivers.register) {
            self.registers = true;
        }
        if receivers.calls(&it.callee, "exec", &receivers.exec)
            && self.in_execute(it.span)
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

struct Mentions<'f> {
    flags: &'f [String],
    found: bool,
    depth: usize,
}

impl<'a> Visit<'a> for Mentions<'_> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        if !self.found && self.depth < MAX_VISIT_DEPTH {
            self.depth += 1;
            walk::walk_expression(self, it);
            self.depth -= 1;
        }
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.found |= it.name == "hasUI" || self.flags.iter().any(|f| it.name == f.as_str());
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        self.found |= it.property.name == "hasUI";
        walk::walk_static_member_expression(self, it);
    }

    fn visit_statement(&mut self, _it: &Statement<'a>) {}

    fn visit_ts_type(&mut self, _it: &TSType<'a>) {}
}
