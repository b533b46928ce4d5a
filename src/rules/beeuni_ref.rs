use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Safety};
use crate::manifest::tools::ToolValue;
use crate::project::Project;
use crate::yaml::edit::{requote, settable_value};

crate::rules::declare_rule! {
    /// A Beeuni tool's value is neither `beeuni:<its name>` nor a module path.
    ///
    /// ## What it checks
    /// The keys `web_search`, `image_search`, `scrape_webpage`, `memory` and
    /// `show` accept exactly `beeuni:<key>` (the hosted tool) or a valid module
    /// path (a module that replaces it). `web_search: beeuni:image_search`,
    /// `web_search: web_search` and `show: tools/show.json` are errors.
    ///
    /// ## Why
    /// The platform's validation refuses it; the tool is not loaded.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:image_search
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// `--fix` sets the value to `beeuni:<key>` (a safe fix).
    id: "beeuni-ref",
    severity: Error,
    category: Tool,
    fix: Safe,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for decl in project.tools.iter().filter(|d| d.is_beeuni_name()) {
        let wrong = match &decl.value {
            ToolValue::Beeuni(target) => *target != decl.name,
            ToolValue::Module { path } => path.is_err(),
            ToolValue::NotString(_) => false,
        };
        if !wrong {
            continue;
        }
        let name = &decl.name;
        let message = format!(
            "must be `beeuni:{name}` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/{name}.ts`) that replaces it."
        );
        // A block scalar becomes a plain value on the key's line (its content alone set to `beeuni:show` would keep
        // the line break `|` and `>` add); one whose `|`/`>` line holds a comment, tag or anchor gets no fix.
        let text = &project.file(decl.file).text;
        let fix = settable_value(text, decl.name_span().end(), decl.value_span()).map(|span| {
            let content = requote(project.file(decl.file).slice(span), &format!("beeuni:{name}"));
            Fix::new(Safety::Safe, vec![Edit { file: decl.file, span, content }])
        });
        let help = format!("write `{name}: beeuni:{name}` to keep the Beeuni tool");
        let mut diagnostic = RULE.diagnostic(Label::new(decl.file, decl.entry()), message).help(help);
        diagnostic.fix = fix;
        out.push(diagnostic);
    }
}
