//! The collector's reading of environments: which expression is `process.env`, `Bun.env` or the context's `env`,
//! which names come to hold the context's `env`, and the reads it records.

use oxc_ast::ast::*;

use super::Collector;
use crate::modules::analyse::export::{env_binding, span};

/// The environment an `env` read is from.
#[derive(Clone, Copy)]
pub(super) enum Env {
    /// The box's environment at start-up: `process.env` or `Bun.env`.
    Process(&'static str),
    /// `env` of the context `execute` receives.
    Context,
}

impl<'a> Collector<'a, '_> {
    /// Which environment `expr` is, if it is one.
    pub(super) fn env_object(&self, expr: &Expression) -> Option<Env> {
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
    pub(super) fn env_alias(&self, id: &BindingPattern<'a>, init: &Expression) -> Option<&'a str> {
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

    pub(super) fn env_read(&mut self, env: Env, name: &'a str, at: oxc_span::Span) {
        match env {
            Env::Context if self.context_env.len() < 32 => {
                if !self.context_env.contains(&name) {
                    self.context_env.push(name);
                }
            }
            Env::Context => {
                let seen = self.context_env_seen.get_or_insert_with(|| self.context_env.iter().copied().collect());
                if seen.insert(name) {
                    self.context_env.push(name);
                }
            }
            Env::Process(via) => self.env_reads.push((name, span(at), via)),
        }
    }
}
