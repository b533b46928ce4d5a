//! Module-level objects read through: a member read `details.function.description` and a spread `{ ...base }`
//! of an object literal (or of the object a call that returns its argument is given), bounded in depth and count.

use super::*;

impl<'b, 'a> Scope<'b, 'a> {
    /// The value `member` reads, when its object is an object literal (through module-level bindings, or the object
    /// a call that returns its argument is given) that writes the field and nothing that may change it after.
    pub(super) fn member(&self, member: &'b StaticMemberExpression<'a>) -> Option<&'b Expression<'a>> {
        let object = self.nested(|| self.object_literal(&member.object))??;
        field_value(object, member.property.name.as_str())
    }

    /// The object literal `expr` is, through module-level bindings, or the one the AI SDK's `tool({...})` or a
    /// function of the module that returns its argument is given.
    pub(super) fn object_literal(&self, expr: &'b Expression<'a>) -> Option<&'b ObjectExpression<'a>> {
        match self.resolve(expr) {
            Resolved::Expr(Expression::ObjectExpression(object)) => Some(object),
            Resolved::Expr(Expression::CallExpression(call)) => match self.wrapped_object(call)? {
                (Wrapper::AiSdk | Wrapper::Identity(_), object) => Some(object),
                _ => None,
            },
            _ => None,
        }
    }

    /// `read()` one object further in, unless the reading is [`MAX_HOPS`] objects deep already (`const a = { ...b
    /// }; const b = { ...a }` ends) or has read [`MAX_OBJECT_READS`] objects.
    pub(super) fn nested<T>(&self, read: impl FnOnce() -> T) -> Option<T> {
        let (depth, reads) = (self.nesting.get(), self.reads.get());
        if depth >= MAX_HOPS || reads >= MAX_OBJECT_READS {
            return None;
        }
        self.reads.set(reads + 1);
        self.nesting.set(depth + 1);
        let value = read();
        self.nesting.set(depth);
        Some(value)
    }
}

/// The value `object` gives its field `name`: the last property of that name, unless a spread, a computed key, a
/// prototype or an accessor after it may give another (or none writes it).
fn field_value<'b, 'a>(object: &'b ObjectExpression<'a>, name: &str) -> Option<&'b Expression<'a>> {
    let mut value = None;
    for property in &object.properties {
        match property {
            ObjectPropertyKind::ObjectProperty(p) if !p.computed => match p.key.static_name().as_deref() {
                Some("__proto__") if !p.shorthand => value = None,
                Some(key) if key == name => value = (p.kind == PropertyKind::Init).then_some(&p.value),
                _ => {}
            },
            _ => value = None,
        }
    }
    value
}
