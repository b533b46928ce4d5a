//! The library a tool object was written for, when it is not Beeuni's plain object: what a finding's help maps
//! onto `{ description, parameters, execute }`.

use super::InlineStr;

/// The call the tool object was passed to, if any: one the analysis sees through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Wrapper {
    /// Written as it is: `export default { … }`.
    #[default]
    None,
    /// `tool({ … })` of the Vercel AI SDK (`ai`), which returns its argument.
    AiSdk,
    /// A function of the module itself whose body returns its parameter (`const defineTool = (t) => t`): its name.
    Identity(InlineStr),
    /// A function imported from a relative module: `local` imported as `imported` from `specifier`. It returns its
    /// argument only if that module exports it so ([`super::ModuleFacts::identity_exports`]): the modules stage
    /// checks, and makes the default export unanalysable if not. Boxed: its three names took 72 bytes of every tool
    /// object (1.3 MB at the 20k bench's peak), which holds none as a rule.
    Imported(Box<ImportedWrapper>),
    /// `tool(fn, { name, description, schema })` of `@langchain/core/tools`: a StructuredTool, not its argument.
    /// Its `description` is read from the config object; it has neither `parameters` nor `execute`.
    LangChain,
}

/// A wrapper imported from a relative module ([`Wrapper::Imported`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedWrapper {
    /// The name it is called by in the module.
    pub local: InlineStr,
    /// The name the other module exports it as.
    pub imported: InlineStr,
    /// The other module, as the import names it.
    pub specifier: InlineStr,
}

impl Wrapper {
    /// `local` imported as `imported` from `specifier`.
    pub fn imported(local: &str, imported: &str, specifier: &str) -> Wrapper {
        Wrapper::Imported(Box::new(ImportedWrapper {
            local: local.into(),
            imported: imported.into(),
            specifier: specifier.into(),
        }))
    }

    /// The function of the project's own that the tool object is passed to, as the module calls it.
    pub fn helper(&self) -> Option<&str> {
        match self {
            Wrapper::Identity(local) => Some(local),
            Wrapper::Imported(by) => Some(&by.local),
            Wrapper::None | Wrapper::AiSdk | Wrapper::LangChain => None,
        }
    }
}

/// The fields other libraries name differently, as the tool object holds them: `inputSchema` (the AI SDK 5 and
/// MCP), `schema` (LangChain), `handler` (MCP).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Foreign(u8);

impl Foreign {
    const INPUT_SCHEMA: u8 = 1;
    const SCHEMA: u8 = 2;
    const HANDLER: u8 = 4;

    /// Notes `key` if it is one of the foreign names.
    pub fn note(&mut self, key: &str) {
        self.0 |= match key {
            "inputSchema" => Self::INPUT_SCHEMA,
            "schema" => Self::SCHEMA,
            "handler" => Self::HANDLER,
            _ => 0,
        };
    }

    pub fn input_schema(self) -> bool {
        self.0 & Self::INPUT_SCHEMA != 0
    }

    pub fn schema(self) -> bool {
        self.0 & Self::SCHEMA != 0
    }

    pub fn handler(self) -> bool {
        self.0 & Self::HANDLER != 0
    }

    /// The bits, as the cache stores them.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The foreign fields of [`Foreign::bits`], unless a bit names none.
    pub fn from_bits(bits: u8) -> Option<Foreign> {
        (bits & !(Self::INPUT_SCHEMA | Self::SCHEMA | Self::HANDLER) == 0).then_some(Foreign(bits))
    }

    /// The renames that make these fields Beeuni's, as a help lists them: "`inputSchema` → `parameters`, …".
    pub fn renames(self) -> Option<String> {
        let renames: Vec<&str> = [
            (self.input_schema(), "`inputSchema` → `parameters`"),
            (self.schema(), "`schema` → `parameters`"),
            (self.handler(), "`handler` → `execute`"),
        ]
        .into_iter()
        .filter_map(|(has, rename)| has.then_some(rename))
        .collect();
        (!renames.is_empty()).then(|| renames.join(", "))
    }
}
