use super::site::{in_module, object_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::Field;
use crate::project::Project;
use crate::suggest::did_you_mean;

crate::rules::declare_rule! {
    /// `parameters.required` names a property that `parameters.properties` lacks.
    ///
    /// ## What it checks
    /// Every string in the `required` array of a module's `parameters` is a key
    /// of its `properties` (when both are literals).
    ///
    /// ## Why
    /// The model gets the schema as it is: it is asked for an argument it is
    /// never told about, and calls fail or carry invented values.
    ///
    /// ## Example
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['order_id'] },
    ///   async execute(args, context) { return `order ${args.id}` },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'Look up an order',
    ///   parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    ///   async execute(args, context) { return `order ${args.order_id}` },
    /// }
    /// ```
    ///
    /// ## Fix
    /// Name the property in `required` as in `properties`, or describe it there.
    id: "module-required",
    severity: Warning,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, object) in object_modules(project) {
        let Field::Found { value, .. } = &object.parameters else {
            continue;
        };
        let Some(properties) = &value.properties else { continue };
        for (name, span) in &value.required_undefined {
            let message = format!("`required` names `{name}`, which `properties` does not define");
            let help = did_you_mean(name, properties.iter())
                .unwrap_or_else(|| format!("describe `{name}` under `properties`, or remove it from `required`"));
            out.push(in_module(project, &RULE, module, *span, message).help(help));
        }
    }
}
