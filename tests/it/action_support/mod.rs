//! A small local runner for the composite action in `action.yml`, as GitHub
//! runs it: steps in order, `if:` conditions, `env:` and `with:` values with
//! their `${{ }}` expressions evaluated against inputs, `github` (with the
//! event payload) and earlier steps' outputs; `run:` steps in bash with a
//! fresh `GITHUB_OUTPUT` each, a shared `GITHUB_STEP_SUMMARY`, and
//! `GITHUB_EVENT_PATH`. `uses:` steps are recorded, not run; `actions/cache`
//! answers `cache-hit` by whether its path already exists (as if restored).
//!
//! The expressions it knows are the ones action.yml may use: a context path
//! (`inputs.x`, `github.event.pull_request.base.ref`, `steps.id.outputs.x`),
//! `path == 'literal'`, `path != 'literal'`, and `&&` of those. Anything else
//! fails the test, so action.yml cannot drift into what this runner skips.

use beeuni_lint::yaml::{self, Document, NodeId, Value as Yaml};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod github_api;

/// One step of action.yml, its fields as written.
#[derive(Debug)]
pub struct Step {
    pub id: Option<String>,
    pub name: String,
    pub condition: Option<String>,
    pub uses: Option<String>,
    pub with: Vec<(String, String)>,
    pub env: Vec<(String, String)>,
    pub run: Option<String>,
}

/// The action as written: input defaults, output expressions and steps.
pub struct Action {
    pub inputs: BTreeMap<String, String>,
    pub outputs: BTreeMap<String, String>,
    pub steps: Vec<Step>,
}

pub fn action_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(doc: &Document, id: NodeId) -> String {
    match &doc.node(doc.resolve(id)).value {
        Yaml::Scalar { text, .. } => text.to_string(),
        other => panic!("a scalar expected in action.yml, not {other:?}"),
    }
}

fn map(doc: &Document, id: Option<NodeId>) -> Vec<(String, NodeId)> {
    let Some(id) = id else { return Vec::new() };
    doc.entries(id).unwrap_or_default().into_iter().map(|e| (text(doc, e.key), e.value)).collect()
}

fn strings(doc: &Document, id: Option<NodeId>) -> Vec<(String, String)> {
    map(doc, id).into_iter().map(|(k, v)| (k, text(doc, v))).collect()
}

impl Action {
    pub fn load() -> Action {
        let source = std::fs::read_to_string(action_path().join("action.yml")).unwrap();
        let doc = yaml::parse(&source).expect("action.yml parses");
        let root = doc.root.unwrap();
        let get = |map: NodeId, key: &str| doc.get(map, key).map(|e| e.value);
        let inputs = map(&doc, get(root, "inputs"))
            .into_iter()
            .map(|(name, spec)| (name, get(spec, "default").map(|d| text(&doc, d)).unwrap_or_default()))
            .collect();
        let outputs = map(&doc, get(root, "outputs"))
            .into_iter()
            .map(|(name, spec)| (name, text(&doc, get(spec, "value").expect("an output value"))))
            .collect();
        let runs = get(root, "runs").unwrap();
        assert_eq!(get(runs, "using").map(|u| text(&doc, u)).as_deref(), Some("composite"));
        let steps = doc
            .items(get(runs, "steps").unwrap())
            .unwrap()
            .iter()
            .map(|&step| {
                let field = |key: &str| get(step, key).map(|v| text(&doc, v));
                let run = field("run");
                if run.is_some() {
                    assert_eq!(field("shell").as_deref(), Some("bash"), "every run step is bash");
                }
                Step {
                    id: field("id"),
                    name: field("name").expect("every step has a name"),
                    condition: field("if"),
                    uses: field("uses"),
                    with: strings(&doc, get(step, "with")),
                    env: strings(&doc, get(step, "env")),
                    run,
                }
            })
            .collect();
        Action { inputs, outputs, steps }
    }
}

/// What the workflow gives the action: inputs, the event and the `github` context around it.
pub struct Invocation {
    pub inputs: Vec<(&'static str, String)>,
    pub event_name: &'static str,
    pub event: Value,
    pub repository: &'static str,
    /// `github.server_url` (`https://github.com`, or a GitHub Enterprise Server's).
    pub server_url: String,
    pub actor: &'static str,
    pub action_ref: String,
    /// The workspace (the checked-out repository) the steps run in.
    pub workspace: PathBuf,
    /// `RUNNER_TEMP`.
    pub temp: PathBuf,
    /// `github.token`, the job's token.
    pub token: &'static str,
    /// Extra environment of the job (e.g. `BEEUNI_LINT_RELEASES`).
    pub env: Vec<(&'static str, String)>,
}

/// A `uses:` step as it would have run.
#[derive(Debug)]
pub struct Used {
    #[allow(dead_code)] // read through `Debug`, in the messages of failed assertions
    pub name: String,
    pub uses: String,
    pub with: BTreeMap<String, String>,
}

/// What a run of the action did.
pub struct Outcome {
    /// Whether every step succeeded (the action's, and so the job step's, result).
    pub success: bool,
    /// The names of the steps that ran (conditions true), in order.
    pub ran: Vec<String>,
    pub used: Vec<Used>,
    /// Every step's outputs, by step id.
    pub steps: BTreeMap<String, BTreeMap<String, String>>,
    /// The action's outputs (its `outputs:` evaluated at the end).
    pub outputs: BTreeMap<String, String>,
    /// Standard output and error of the run steps, in order.
    pub log: String,
    pub summary: String,
}

impl Outcome {
    pub fn output(&self, name: &str) -> &str {
        self.outputs.get(name).map_or("", String::as_str)
    }

    pub fn step(&self, id: &str, name: &str) -> &str {
        self.steps.get(id).and_then(|outputs| outputs.get(name)).map_or("", String::as_str)
    }

    pub fn upload(&self) -> Option<&Used> {
        self.used.iter().find(|u| u.uses.starts_with("github/codeql-action/upload-sarif@"))
    }
}

struct Context {
    inputs: BTreeMap<String, String>,
    github: Value,
    steps: BTreeMap<String, BTreeMap<String, String>>,
}

impl Context {
    fn lookup(&self, path: &str) -> String {
        let parts: Vec<&str> = path.split('.').collect();
        match parts.as_slice() {
            ["inputs", name] => self.inputs.get(*name).cloned().unwrap_or_else(|| panic!("no input `{name}`")),
            ["steps", id, "outputs", name] => {
                self.steps.get(*id).and_then(|o| o.get(*name)).cloned().unwrap_or_default()
            }
            ["github", rest @ ..] => {
                let value = rest.iter().fold(&self.github, |value, key| &value[*key]);
                match value {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    other => other.to_string(),
                }
            }
            _ => panic!("an expression this runner does not know: `{path}`"),
        }
    }

    /// `path`, `path == 'x'`, `path != 'x'`, joined by `&&`.
    fn condition(&self, expression: &str) -> bool {
        expression.split("&&").all(|part| {
            let part = part.trim();
            let compare = |op: &str| {
                part.split_once(op).map(|(lhs, rhs)| {
                    let literal = rhs.trim().strip_prefix('\'').and_then(|r| r.strip_suffix('\''));
                    (self.lookup(lhs.trim()), literal.unwrap_or_else(|| panic!("a quoted literal in `{part}`")))
                })
            };
            if let Some((value, literal)) = compare("==") {
                value == literal
            } else if let Some((value, literal)) = compare("!=") {
                value != literal
            } else {
                !self.lookup(part).is_empty()
            }
        })
    }

    /// A value with `${{ path }}` expressions substituted.
    fn expand(&self, value: &str) -> String {
        let mut out = String::new();
        let mut rest = value;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").expect("a closed expression") + start;
            out.push_str(&self.lookup(rest[start + 3..end].trim()));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }
}

/// A `GITHUB_OUTPUT` file read as the runner reads it: `name=value` lines and `name<<DELIMITER` … `DELIMITER`
/// blocks (the value the lines between, joined by line breaks); a later value of a name replaces an earlier one.
fn parse_outputs(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut outputs = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let heredoc = line.split_once("<<").filter(|(name, _)| !name.contains('='));
        if let Some((name, delimiter)) = heredoc {
            let value: Vec<&str> = lines.by_ref().take_while(|line| *line != delimiter).collect();
            outputs.insert(name.to_owned(), value.join("\n"));
        } else if let Some((name, value)) = line.split_once('=') {
            outputs.insert(name.to_owned(), value.to_owned());
        }
    }
    outputs
}

/// Runs the action as GitHub would for `invocation`.
pub fn run(invocation: &Invocation) -> Outcome {
    let action = Action::load();
    let mut given = BTreeMap::new();
    for (name, value) in &invocation.inputs {
        assert!(action.inputs.contains_key(*name), "action.yml has no input `{name}`");
        given.insert((*name).to_owned(), value.clone());
    }
    let event_path = invocation.temp.join("event.json");
    std::fs::write(&event_path, invocation.event.to_string()).unwrap();
    let summary_path = invocation.temp.join("step-summary.md");
    let github = json!({
        "action_path": action_path(),
        "action_ref": invocation.action_ref,
        "repository": invocation.repository,
        "server_url": invocation.server_url,
        "actor": invocation.actor,
        "event_name": invocation.event_name,
        "event": invocation.event,
        "token": invocation.token,
    });
    let mut context = Context { inputs: BTreeMap::new(), github, steps: BTreeMap::new() };
    // A default may be an expression (`${{ github.token }}`): GitHub evaluates it before the steps see it.
    let defaults: BTreeMap<String, String> =
        action.inputs.iter().map(|(k, v)| (k.clone(), context.expand(v))).collect();
    context.inputs = defaults.into_iter().chain(given).collect();
    let mut outcome = Outcome {
        success: true,
        ran: Vec::new(),
        used: Vec::new(),
        steps: BTreeMap::new(),
        outputs: BTreeMap::new(),
        log: String::new(),
        summary: String::new(),
    };
    for (number, step) in action.steps.iter().enumerate() {
        if step.condition.as_deref().is_some_and(|c| !context.condition(c)) {
            continue;
        }
        outcome.ran.push(step.name.clone());
        let mut outputs = BTreeMap::new();
        if let Some(uses) = &step.uses {
            let with: BTreeMap<String, String> =
                step.with.iter().map(|(k, v)| (k.clone(), context.expand(v))).collect();
            if uses.starts_with("actions/cache@") {
                let hit = Path::new(&with["path"]).exists();
                outputs.insert("cache-hit".to_owned(), hit.to_string());
            }
            outcome.used.push(Used { name: step.name.clone(), uses: uses.clone(), with });
        } else if let Some(script) = &step.run {
            assert!(!script.contains("${{"), "step `{}` expands an expression inside its script", step.name);
            let output_path = invocation.temp.join(format!("output-{number}"));
            std::fs::write(&output_path, "").unwrap();
            let mut cmd = std::process::Command::new("bash");
            cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
                .current_dir(&invocation.workspace)
                .env_clear()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .env("HOME", std::env::var_os("HOME").unwrap_or_default())
                .env("GITHUB_OUTPUT", &output_path)
                .env("GITHUB_STEP_SUMMARY", &summary_path)
                .env("GITHUB_EVENT_PATH", &event_path)
                .env("GITHUB_EVENT_NAME", invocation.event_name)
                .env("GITHUB_WORKSPACE", &invocation.workspace)
                .env("RUNNER_TEMP", &invocation.temp)
                .env("RUNNER_OS", "Linux")
                .env("RUNNER_ARCH", if cfg!(target_arch = "aarch64") { "ARM64" } else { "X64" })
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("NO_COLOR", "1");
            for (name, value) in &invocation.env {
                cmd.env(name, value);
            }
            for (name, value) in &step.env {
                cmd.env(name, context.expand(value));
            }
            let done = cmd.output().unwrap();
            outcome.log.push_str(&String::from_utf8_lossy(&done.stdout));
            outcome.log.push_str(&String::from_utf8_lossy(&done.stderr));
            outputs = parse_outputs(&output_path);
            if !done.status.success() {
                outcome.success = false;
            }
        }
        if let Some(id) = &step.id {
            context.steps.insert(id.clone(), outputs.clone());
            outcome.steps.insert(id.clone(), outputs);
        }
        if !outcome.success {
            break;
        }
    }
    outcome.outputs = action.outputs.iter().map(|(name, value)| (name.clone(), context.expand(value))).collect();
    outcome.summary = std::fs::read_to_string(&summary_path).unwrap_or_default();
    outcome
}
