use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Safety};
use crate::manifest::agents::ToolList;
use crate::project::Project;
use crate::source::FileId;
use crate::yaml::{Document, NodeId, Value};

crate::rules::declare_rule! {
    /// An agent's `tools` is not one of the documented forms.
    ///
    /// ## What it checks
    /// `agents.<name>.tools` is `all`, `none`, a list of tool names,
    /// `{exclude: [names]}`, or the earlier map of booleans (`{bash: false}`).
    /// Everything else is an error: `tools: bash`, `tools: All`,
    /// `{exclude: bash}`, a map mixing `exclude` with booleans, a map value that
    /// is not a boolean (`no` is a string in YAML 1.2), a list item that is not a
    /// string. A near miss of `exclude` is `unknown-key` instead.
    ///
    /// ## Why
    /// The agent's tool list decides what its model sees; a list the platform
    /// cannot read fails the agent.
    ///
    /// ## Example
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools: All
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// agents:
    ///   support:
    ///     tools: all
    /// ```
    ///
    /// ## Fix
    /// `--fix` corrects a case slip (a safe fix): `All` → `all`, `NONE` → `none`,
    /// and `'*'` → `all`. Any other value: write it in one of the forms above.
    id: "agent-tools-shape",
    severity: Error,
    category: Agent,
    fix: Safe,
    check: check,
}

const FORMS: &str = "`all`, `none`, a list of tools, `{exclude: [...]}` or a map of booleans";

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for agent in &project.agents {
        let (ToolList::Invalid, Some((key, value))) = (&agent.tools, agent.tools_key) else {
            continue;
        };
        let doc = &project.graph.files[agent.graph_index].doc;
        if doc
            .entries(value)
            .is_some_and(|e| e.iter().any(|e| doc.scalar(e.key).is_some_and(super::unknown_key::is_exclude_typo)))
        {
            continue;
        }
        let text = &project.file(agent.file).text;
        let report = diagnose(doc, text, agent.file, &agent.name, value).unwrap_or_else(|| Problem {
            at: value,
            message: format!("`tools` of agent `{}` must be {FORMS}", agent.name),
            help: None,
            fix: None,
        });
        let at = if report.at == value && doc.node(value).span.is_empty() { key } else { doc.node(report.at).span };
        let mut diagnostic = RULE.diagnostic(Label::new(agent.file, at), report.message);
        diagnostic.help = report.help;
        diagnostic.fix = report.fix;
        out.push(diagnostic);
    }
}

struct Problem {
    at: NodeId,
    message: String,
    help: Option<String>,
    fix: Option<Fix>,
}

fn diagnose(doc: &Document, source: &str, file: FileId, agent: &str, value: NodeId) -> Option<Problem> {
    let problem = |at, message: String, help: String| Some(Problem { at, message, help: Some(help), fix: None });
    match &doc.node(doc.resolve(value)).value {
        Value::Scalar { text, .. } => {
            let message = format!("`tools` of agent `{agent}` must be {FORMS}, not `{text}`");
            let lower = if text == "*" { "all".to_string() } else { text.as_str().to_ascii_lowercase() };
            if lower == "all" || lower == "none" {
                let span = doc.node(value).span;
                let written = source.get(span.range()).unwrap_or_default();
                // `'*'` becomes a plain `all`: quoted, the star was only there to survive YAML.
                let content = if text == "*" { lower.clone() } else { crate::yaml::edit::requote(written, &lower) };
                let edit = Edit { file, span, content };
                let fix = Some(Fix::new(Safety::Safe, vec![edit]));
                return Some(Problem { at: value, message, help: Some(format!("did you mean `{lower}`?")), fix });
            }
            problem(value, message, format!("for a list of one tool write `[{text}]`"))
        }
        Value::Seq(items) => {
            let &bad = items.iter().find(|&&i| doc.str(i).is_none())?;
            let message =
                format!("a tool in the list of agent `{agent}` must be a name (a string), not {}", doc.describe(bad));
            problem(bad, message, "write the tool's name".into())
        }
        Value::Map(_) => {
            let entries = doc.entries(value)?;
            if let Some(exclude) = entries.iter().find(|e| doc.scalar(e.key) == Some("exclude")) {
                if entries.len() > 1 {
                    let message = format!("agent `{agent}` mixes `exclude` with `tool: true/false` entries in `tools`");
                    return problem(
                        exclude.key,
                        message,
                        "use one form: `exclude: [bash, …]` lists every hidden tool".into(),
                    );
                }
                let shown = doc
                    .scalar(exclude.value)
                    .map_or_else(|| doc.describe(exclude.value).to_string(), |s| s.to_string());
                let message = format!(
                    "`exclude` of agent `{agent}` must be a list of tool names, not {}",
                    doc.describe(exclude.value)
                );
                return problem(exclude.value, message, format!("write `exclude: [{shown}]`"));
            }
            let bad = entries.iter().find(|e| {
                !matches!(
                    &doc.node(doc.resolve(e.value)).value,
                    Value::Scalar { kind: crate::yaml::scalar::ScalarKind::Bool, .. }
                )
            })?;
            let name = doc.scalar(bad.key).unwrap_or_default();
            let message = format!(
                "`{name}` in the tools map of agent `{agent}` must be `true` or `false`, not {}",
                doc.describe(bad.value)
            );
            problem(
                bad.value,
                message,
                format!("write `{name}: false` to hide it (`yes`/`no` are strings in YAML 1.2)"),
            )
        }
        Value::Alias(_) => None,
    }
}
