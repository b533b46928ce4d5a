use super::site::{export_site, in_module, object_modules};
use crate::diagnostic::Diagnostic;
use crate::modules::facts::{Description, Field};
use crate::project::Project;

crate::rules::declare_rule! {
    /// A tool module's `description` is missing or empty.
    ///
    /// ## What it checks
    /// The default-exported object has a `description` that is a non-empty
    /// string.
    ///
    /// ## Why
    /// The model reads the description to decide when to call the tool; the
    /// platform refuses a tool without one.
    ///
    /// ## Example
    /// ```ts
    /// export default { description: '', parameters: { type: 'object' }, execute() {} }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export default {
    ///   description: 'Look up an order by its id and return its status',
    ///   parameters: { type: 'object' },
    ///   execute() {},
    /// }
    /// ```
    ///
    /// ## Fix
    /// Say in a sentence what the tool does and returns.
    id: "module-description",
    severity: Error,
    category: Module,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for (module, object) in object_modules(project) {
        let (span, message) = match &object.description {
            Field::Missing => (
                export_site(project, module),
                format!("the tool in `{}` has no `description`", project.module_path(module)),
            ),
            Field::Found { span, value: Description::Text { blank: true } } => {
                (*span, format!("the `description` of the tool in `{}` is empty", project.module_path(module)))
            }
            Field::Found { span, value: Description::NotString } => {
                (*span, format!("the `description` of the tool in `{}` is not a string", project.module_path(module)))
            }
            _ => continue,
        };
        let diagnostic = in_module(project, &RULE, module, span, message);
        out.push(diagnostic.help("add a non-empty `description`: the model reads it to decide when to call the tool"));
    }
}
