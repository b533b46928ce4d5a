// Loads tool modules with Bun as their runtimes do and checks each one's contract; run by tests/bun_runtime.rs
// on copies of the repository's own fixtures (never on a linted repository: this executes the modules).
//
//   bun --no-install check.ts <kind>=<absolute path>...
//
// kind `beeuni`: the Beeuni daemon's contract: `(await import(path)).default` is an object with a non-blank
// string `description`, a JSON Schema object `parameters` (`type: 'object'`) and a function `execute`.
// kind `xcsh`: the xcsh custom-tool loader's contract: `module.default ?? module` is a function; called with the
// host API it returns (or resolves to) a tool or an array of tools, each with a `name` of letters, digits, `_`
// or `-`, a string `description`, an object `parameters` and a function `execute`.
//
// Prints one JSON line per module: {"kind", "path", "error"} where `error` is null when the module passes.

type Verdict = { kind: string; path: string; error: string | null };

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function beeuniContract(mod: Record<string, unknown>): string | null {
  const tool = mod.default;
  if (!isObject(tool)) return `the default export is ${describe(tool)}, not the tool object`;
  if (!("description" in tool) && isObject(tool.default))
    return "the default export is `{ default: … }`: Bun wraps a CommonJS module's `exports.default`";
  // Blank counts as empty, as the linter reads "an empty string" (`module-description`).
  if (typeof tool.description !== "string" || tool.description.trim() === "")
    return "`description` is not a non-empty string";
  const parameters = tool.parameters;
  if (!isObject(parameters)) return `\`parameters\` is ${describe(parameters)}, not a JSON Schema object`;
  if (parameters.type !== "object") return `\`parameters.type\` is ${JSON.stringify(parameters.type)}, not "object"`;
  if (typeof tool.execute !== "function") return `\`execute\` is ${describe(tool.execute)}, not a function`;
  return null;
}

// TypeBox's `Type.X(...)` as a JSON Schema stand-in: `Type.Object({...})` gives `{ type: "object", properties }`,
// any other builder `{ type: "<x>" }`, which is all a tool's contract needs of it.
const Type = new Proxy(
  {},
  {
    get: (_target, builder) => (...args: unknown[]) =>
      builder === "Object"
        ? { type: "object", properties: args[0] ?? {} }
        : { type: String(builder).toLowerCase(), args },
  },
);

// The host API the loader passes to a factory (seed 001: cwd, exec, ui, hasUI, logger, typebox, pi,
// pushPendingAction). Nothing here runs a command: a factory only builds its tool.
function hostApi(cwd: string) {
  const ui = { notify() {}, confirm: async () => false, select: async () => undefined, input: async () => undefined };
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  const api: Record<string, unknown> = {
    cwd,
    exec: async () => ({ stdout: "", stderr: "", code: 0, killed: false }),
    ui,
    hasUI: false,
    logger,
    typebox: { Type },
    pushPendingAction() {},
  };
  api.pi = api;
  return api;
}

const NAME = /^[A-Za-z0-9_-]+$/;

function xcshTool(tool: unknown, at: string): string | null {
  if (!isObject(tool)) return `${at} is ${describe(tool)}, not a tool`;
  if (typeof tool.name !== "string" || !NAME.test(tool.name))
    return `${at}: \`name\` ${JSON.stringify(tool.name)} is not letters, digits, _ or -`;
  if (typeof tool.description !== "string") return `${at}: \`description\` is ${describe(tool.description)}`;
  if (!isObject(tool.parameters)) return `${at}: \`parameters\` is ${describe(tool.parameters)}`;
  if (typeof tool.execute !== "function") return `${at}: \`execute\` is ${describe(tool.execute)}`;
  return null;
}

async function xcshContract(mod: Record<string, unknown>, path: string): Promise<string | null> {
  const factory = mod.default ?? mod;
  if (typeof factory !== "function") return "Tool must export a default function";
  const cwd = path.slice(0, path.lastIndexOf("/"));
  const made = await factory(hostApi(cwd));
  const tools = Array.isArray(made) ? made : [made];
  if (tools.length === 0) return "the factory returned an empty array";
  for (const [index, tool] of tools.entries()) {
    const problem = xcshTool(tool, Array.isArray(made) ? `tool ${index}` : "the factory's result");
    if (problem) return problem;
  }
  return null;
}

async function check(kind: string, path: string): Promise<Verdict> {
  let mod: Record<string, unknown>;
  try {
    mod = await import(path);
  } catch (error) {
    return { kind, path, error: `import failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  try {
    const error = kind === "xcsh" ? await xcshContract(mod, path) : beeuniContract(mod);
    return { kind, path, error };
  } catch (error) {
    return { kind, path, error: `the factory threw: ${error instanceof Error ? error.message : String(error)}` };
  }
}

for (const argument of process.argv.slice(2)) {
  const split = argument.indexOf("=");
  const verdict = await check(argument.slice(0, split), argument.slice(split + 1));
  console.log(JSON.stringify(verdict));
}
