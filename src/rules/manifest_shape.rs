use crate::diagnostic::{Diagnostic, Label};
use crate::project::Project;
use crate::yaml::{Document, NodeId, Value};

crate::rules::declare_rule! {
    /// A top-level value of the manifest has the wrong type.
    ///
    /// ## What it checks
    /// In every file of the graph: the root is a mapping; `imports` is a list of
    /// strings; `tools` is a mapping (or null); `agents` is a mapping whose values
    /// are mappings. The finding points at the key whose value has the wrong type
    /// (or at the list item that is not a string).
    ///
    /// ## Why
    /// A value of the wrong type fails the whole manifest, or is ignored:
    /// neither is what the author meant.
    ///
    /// ## Example
    /// ```yaml
    /// imports: config/agents.yaml   # must be a list
    /// tools:
    ///   - web_search                # must be a mapping
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// imports: [config/agents.yaml]
    /// tools:
    ///   web_search: beeuni:web_search
    /// ```
    ///
    /// ## Fix
    /// Write the value in the documented form: `imports: [config/agents.yaml]`,
    /// `tools: { web_search: beeuni:web_search }`.
    id: "manifest-shape",
    severity: Error,
    category: Manifest,
    fix: None,
    check: check,
}

fn check(project: &Project, out: &mut Vec<Diagnostic>) {
    for manifest in &project.graph.files {
        let doc = &manifest.doc;
        let file = manifest.file;
        let Some(root) = doc.root else { continue };
        let report = |out: &mut Vec<Diagnostic>, node: NodeId, message: String, help: &str| {
            out.push(RULE.diagnostic(Label::new(file, doc.node(node).span), message).help(help));
        };
        let Some(entries) = doc.entries(root) else {
            let path = &project.file(file).shown;
            let message = format!("the root of `{path}` must be a mapping, not {}", doc.describe(root));
            report(out, root, message, "write `tools:`, `imports:` and `agents:` as top-level keys");
            continue;
        };
        for entry in entries {
            match doc.scalar(entry.key) {
                Some("imports") => check_imports(doc, entry.key, entry.value, out, &report),
                Some("tools") if !doc.is_null(entry.value) && doc.entries(entry.value).is_none() => report(
                    out,
                    entry.key,
                    format!("`tools` must be a mapping of tool names to sources, not {}", doc.describe(entry.value)),
                    "write each tool as `name: beeuni:name` or `name: path/to/module.ts` under `tools:`",
                ),
                Some("agents") => check_agents(doc, entry.key, entry.value, out, &report),
                _ => {}
            }
        }
    }
}

type Report<'a> = dyn Fn(&mut Vec<Diagnostic>, NodeId, String, &str) + 'a;

fn check_imports(doc: &Document, key: NodeId, value: NodeId, out: &mut Vec<Diagnostic>, report: &Report) {
    // Only `tools` may be null (docs/spec/rules.md §10, revision 2): `imports:` with nothing is a mistake too.
    let Some(items) = doc.items(value) else {
        let message = format!("`imports` must be a list of repo-relative paths, not {}", doc.describe(value));
        let help = if doc.is_null(value) {
            "write `imports: [config/agents.yaml]` or one `- path` a line, or delete the empty `imports:`"
        } else {
            "write `imports: [config/agents.yaml]` or one `- path` a line"
        };
        report(out, key, message, help);
        return;
    };
    for &item in items {
        if doc.str(item).is_none() {
            let message = format!("an import must be a repo-relative path (a string), not {}", doc.describe(item));
            report(out, item, message, "write the path of a YAML file in the repository");
        }
    }
}

fn check_agents(doc: &Document, key: NodeId, value: NodeId, out: &mut Vec<Diagnostic>, report: &Report) {
    let Some(agents) = doc.entries(value) else {
        let message = format!("`agents` must be a mapping of agent names to settings, not {}", doc.describe(value));
        let help = if doc.is_null(value) {
            "write each agent as `name:` with its settings indented below, or delete the empty `agents:`"
        } else {
            "write each agent as `name:` with its settings indented below"
        };
        report(out, key, message, help);
        return;
    };
    for agent in agents {
        if !matches!(doc.node(doc.resolve(agent.value)).value, Value::Map(_)) {
            let name = doc.scalar(agent.key).unwrap_or_default();
            let message = format!("agent `{name}` must be a mapping of settings, not {}", doc.describe(agent.value));
            report(
                out,
                agent.key,
                message,
                "write the agent's settings (`tools:`, `secrets:`, …) indented below its name",
            );
        }
    }
}
