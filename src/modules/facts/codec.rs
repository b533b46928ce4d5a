//! [`ModuleFacts`] as a cache entry ([`crate::cache::codec`] has the form). Optional parts are marked by bits of one flags byte
//! rather than a byte each, and enums by a tag byte; a decoded list has its exact length.

use super::{
    Collected, DefaultExport, DefaultExportKind, Description, ENVIRONMENTS, EnvRead, Execute, ExecuteFacts, Field,
    Foreign, Import, ImportKind, InlineStr, ModuleFacts, NamedToolObject, NotAnalysed, ObjectExport, Parameters,
    Params, Properties, SyntaxError, Wrapper,
};
use crate::cache::codec::{BYTE, Codec, Reader, SPAN, STR, Writer};

// The flags byte of a module's facts.
const DEFAULT_EXPORT: u8 = 1;
const REGISTERS_TOOLS: u8 = 2;
const EXECUTE: u8 = 4;
const NOT_ANALYSED: u8 = 8;
const NAMED_TOOL_OBJECT: u8 = 16;
const SERVES_TOOLS: u8 = 32;

impl Codec for ModuleFacts {
    fn write(&self, w: &mut Writer) {
        let flags = [
            (self.default_export.is_some(), DEFAULT_EXPORT),
            (self.registers_tools, REGISTERS_TOOLS),
            (self.execute.is_some(), EXECUTE),
            (self.not_analysed().is_some(), NOT_ANALYSED),
            (self.named_tool_object().is_some(), NAMED_TOOL_OBJECT),
            (self.serves_tools, SERVES_TOOLS),
        ];
        w.byte(flags.iter().filter(|(set, _)| *set).map(|(_, bit)| bit).sum());
        if let Some(export) = &self.default_export {
            default_export(w, export);
        }
        w.list(&self.imports, |w, import| {
            w.str(&import.specifier);
            w.span(import.span);
            let kind = match import.kind {
                ImportKind::Static => 0,
                ImportKind::ReExport => 1,
                ImportKind::Dynamic => 2,
                ImportKind::Require => 3,
                ImportKind::Jsx => 4,
            };
            w.byte(
                kind | u8::from(import.type_only) << 3 | u8::from(import.guarded) << 4 | u8::from(import.deferred) << 5,
            );
        });
        w.list(&self.env_reads, |w, read| {
            w.str(&read.name);
            w.span(read.span);
            // An environment the list lacks cannot be read back: the entry is a miss, never a wrong name.
            w.byte(ENVIRONMENTS.iter().position(|known| *known == read.via).map_or(u8::MAX, |i| i as u8));
        });
        w.list(&self.context_env, |w, name| w.str(name));
        if let Some(execute) = &self.execute {
            w.span(execute.span);
            w.list(&execute.fetch_without_signal, |w, span| w.span(*span));
        }
        // The facts most modules have none of: four empty lists cost four bytes.
        w.list(self.syntax_errors(), |w, error| {
            w.span(error.span);
            w.str(&error.message);
        });
        if let Some(not_analysed) = self.not_analysed() {
            w.span(not_analysed.span);
            w.str(&not_analysed.why);
        }
        w.list(self.opencode_exports(), |w, name| w.str(name));
        if let Some(named) = self.named_tool_object() {
            w.str(&named.name);
            w.byte(u8::from(named.commonjs));
            shape(w, &named.wrapper, named.foreign);
        }
        w.list(self.identity_exports(), |w, name| w.str(name));
        // None or one.
        w.list(self.load_error().as_slice(), |w, error| {
            w.span(error.span);
            w.str(&error.message);
        });
        w.list(self.comments(), |w, (span, text)| {
            w.span(*span);
            w.str(text);
        });
    }

    fn decode(bytes: &[u8], text_len: usize) -> Option<Self> {
        let mut r = Reader::new(bytes, text_len)?;
        let flags = r.byte()?;
        if flags & !(DEFAULT_EXPORT | REGISTERS_TOOLS | EXECUTE | NOT_ANALYSED | NAMED_TOOL_OBJECT | SERVES_TOOLS) != 0
        {
            return None;
        }
        let default_export = if flags & DEFAULT_EXPORT != 0 { Some(read_default_export(&mut r)?) } else { None };
        let imports = r.list(STR + SPAN + BYTE, |r| {
            let (specifier, span) = (InlineStr::new(r.str()?), r.span()?);
            let bits = r.byte()?;
            let kind = match bits & 7 {
                0 => ImportKind::Static,
                1 => ImportKind::ReExport,
                2 => ImportKind::Dynamic,
                3 => ImportKind::Require,
                4 => ImportKind::Jsx,
                _ => return None,
            };
            (bits >> 6 == 0).then_some(Import {
                specifier,
                span,
                kind,
                type_only: bits & 8 != 0,
                guarded: bits & 16 != 0,
                deferred: bits & 32 != 0,
            })
        })?;
        let env_reads = r.list(STR + SPAN + BYTE, |r| {
            let (name, span) = (InlineStr::new(r.str()?), r.span()?);
            Some(EnvRead { name, span, via: ENVIRONMENTS.get(usize::from(r.byte()?))? })
        })?;
        let context_env = r.list(STR, |r| r.str().map(InlineStr::new))?;
        let execute = match flags & EXECUTE != 0 {
            true => {
                let span = r.span()?;
                Some(ExecuteFacts { span, fetch_without_signal: r.list(SPAN, Reader::span)?.into_boxed_slice() })
            }
            false => None,
        };
        let syntax_errors = r.list(SPAN + STR, |r| Some(SyntaxError { span: r.span()?, message: r.str()?.into() }))?;
        let not_analysed = match flags & NOT_ANALYSED != 0 {
            true => Some(NotAnalysed { span: r.span()?, why: r.str()?.into() }),
            false => None,
        };
        let opencode_exports = r.list(STR, |r| r.str().map(String::from))?;
        let named_tool_object = match flags & NAMED_TOOL_OBJECT != 0 {
            true => {
                let name = r.str()?.into();
                let commonjs = match r.byte()? {
                    0 => false,
                    1 => true,
                    _ => return None,
                };
                let (wrapper, foreign) = read_shape(&mut r)?;
                Some(NamedToolObject { name, commonjs, wrapper, foreign })
            }
            false => None,
        };
        let identity_exports = r.list(STR, |r| r.str().map(InlineStr::from))?;
        let mut load_errors =
            r.list(SPAN + STR, |r| Some(SyntaxError { span: r.span()?, message: r.str()?.into() }))?;
        if load_errors.len() > 1 {
            return None;
        }
        let load_error = load_errors.pop();
        let comments = r.list(SPAN + STR, |r| Some((r.span()?, r.str()?.into())))?;
        let collected = Collected {
            syntax_errors,
            not_analysed,
            default_export,
            opencode_exports,
            named_tool_object,
            identity_exports,
            load_error,
            registers_tools: flags & REGISTERS_TOOLS != 0,
            serves_tools: flags & SERVES_TOOLS != 0,
            imports,
            env_reads,
            context_env,
            execute,
            comments,
        };
        r.end(ModuleFacts::from(collected))
    }
}

fn default_export(w: &mut Writer, export: &DefaultExport) {
    w.span(export.statement);
    match &export.kind {
        DefaultExportKind::Object(object) => {
            w.byte(0);
            field(w, &object.description, |w, description| match description {
                Description::Text { blank: false } => w.byte(0),
                Description::Other => w.byte(1),
                Description::NotString => w.byte(2),
                Description::Text { blank: true } => w.byte(3),
            });
            field(w, &object.parameters, parameters);
            field(w, &object.execute, |w, execute| match execute {
                Execute::Function { params } => {
                    w.byte(0);
                    w.str(params.joined());
                    w.number(params.len());
                    w.number(params.first_len());
                }
                Execute::NotFunction => w.byte(1),
                Execute::Other => w.byte(2),
            });
            shape(w, &object.wrapper, object.foreign);
        }
        DefaultExportKind::Factory => w.byte(1),
        DefaultExportKind::Literal { text } => {
            w.byte(2);
            w.str(text);
        }
        DefaultExportKind::OpencodeTool => w.byte(3),
        DefaultExportKind::Unanalyzable { why } => {
            w.byte(4);
            w.str(why);
        }
        DefaultExportKind::ExportsDefault => w.byte(5),
        DefaultExportKind::Function => w.byte(6),
    }
}

/// The wrapper of a tool object (a tag, and the helper's name for [`Wrapper::Identity`]), then its foreign fields.
fn shape(w: &mut Writer, wrapper: &Wrapper, foreign: Foreign) {
    match wrapper {
        Wrapper::None => w.byte(0),
        Wrapper::AiSdk => w.byte(1),
        Wrapper::Identity(name) => {
            w.byte(2);
            w.str(name);
        }
        Wrapper::LangChain => w.byte(3),
        Wrapper::Imported(by) => {
            w.byte(4);
            w.str(&by.local);
            w.str(&by.imported);
            w.str(&by.specifier);
        }
    }
    w.byte(foreign.bits());
}

fn read_shape(r: &mut Reader) -> Option<(Wrapper, Foreign)> {
    let wrapper = match r.byte()? {
        0 => Wrapper::None,
        1 => Wrapper::AiSdk,
        2 => Wrapper::Identity(r.str()?.into()),
        3 => Wrapper::LangChain,
        4 => Wrapper::imported(r.str()?, r.str()?, r.str()?),
        _ => return None,
    };
    Some((wrapper, Foreign::from_bits(r.byte()?)?))
}

#[inline(always)]
fn read_default_export(r: &mut Reader) -> Option<DefaultExport> {
    let statement = r.span()?;
    let kind = match r.byte()? {
        0 => {
            let description = read_field(r, |r| match r.byte()? {
                0 => Some(Description::Text { blank: false }),
                1 => Some(Description::Other),
                2 => Some(Description::NotString),
                3 => Some(Description::Text { blank: true }),
                _ => None,
            })?;
            let parameters = read_field(r, read_parameters)?;
            let execute = read_field(r, |r| match r.byte()? {
                0 => {
                    let joined = r.str()?;
                    Some(Execute::Function { params: Params::from_parts(joined, r.number()?, r.number()?)? })
                }
                1 => Some(Execute::NotFunction),
                2 => Some(Execute::Other),
                _ => None,
            })?;
            let (wrapper, foreign) = read_shape(r)?;
            DefaultExportKind::Object(Box::new(ObjectExport { description, parameters, execute, wrapper, foreign }))
        }
        1 => DefaultExportKind::Factory,
        2 => DefaultExportKind::Literal { text: r.str()?.into() },
        3 => DefaultExportKind::OpencodeTool,
        4 => DefaultExportKind::Unanalyzable { why: r.str()?.into() },
        5 => DefaultExportKind::ExportsDefault,
        6 => DefaultExportKind::Function,
        _ => return None,
    };
    Some(DefaultExport { statement, kind })
}

fn field<T>(w: &mut Writer, field: &Field<T>, value: impl FnOnce(&mut Writer, &T)) {
    match field {
        Field::Missing => w.byte(0),
        Field::Found { span, value: found } => {
            w.byte(1);
            w.span(*span);
            value(w, found);
        }
        Field::Unanalyzable { span, why } => {
            w.byte(2);
            w.span(*span);
            w.str(why);
        }
    }
}

#[inline(always)]
fn read_field<'a, T>(r: &mut Reader<'a>, value: impl FnOnce(&mut Reader<'a>) -> Option<T>) -> Option<Field<T>> {
    match r.byte()? {
        0 => Some(Field::Missing),
        1 => Some(Field::Found { span: r.span()?, value: value(r)? }),
        2 => Some(Field::Unanalyzable { span: r.span()?, why: r.str()?.into() }),
        _ => None,
    }
}

// The flags byte of a `parameters` object.
const TYPE_VALUE: u8 = 1;
const HAS_TYPE: u8 = 2;
const OBJECT_LITERAL: u8 = 4;
const PROPERTIES: u8 = 8;
const PROPERTIES_SPAN: u8 = 16;
const ZOD: u8 = 32;

fn parameters(w: &mut Writer, parameters: &Parameters) {
    let flags = [
        (parameters.type_value.is_some(), TYPE_VALUE),
        (parameters.has_type, HAS_TYPE),
        (parameters.is_object_literal, OBJECT_LITERAL),
        (parameters.properties.is_some(), PROPERTIES),
        (parameters.properties_span.is_some(), PROPERTIES_SPAN),
        (parameters.zod.is_some(), ZOD),
    ];
    w.byte(flags.iter().filter(|(set, _)| *set).map(|(_, bit)| bit).sum());
    if let Some(type_value) = &parameters.type_value {
        w.str(type_value);
    }
    // As the facts keep them: one string, decoded in one copy.
    if let Some(properties) = &parameters.properties {
        let (joined, count, separator) = properties.parts();
        w.str(joined);
        w.number(count);
        w.number(separator as usize);
    }
    if let Some(span) = parameters.properties_span {
        w.span(span);
    }
    w.list(&parameters.required_undefined, |w, (name, span)| {
        w.str(name);
        w.span(*span);
    });
    if let Some(zod) = &parameters.zod {
        w.str(zod);
    }
}

#[inline(always)]
fn read_parameters(r: &mut Reader) -> Option<Parameters> {
    let flags = r.byte()?;
    if flags >= ZOD << 1 {
        return None;
    }
    let type_value = if flags & TYPE_VALUE != 0 { Some(InlineStr::new(r.str()?)) } else { None };
    let properties = match flags & PROPERTIES != 0 {
        true => {
            let (joined, count) = (r.str()?, r.number()?);
            let separator = char::from_u32(u32::try_from(r.number()?).ok()?)?;
            Some(Properties::from_parts(joined, count, separator)?)
        }
        false => None,
    };
    let properties_span = if flags & PROPERTIES_SPAN != 0 { Some(r.span()?) } else { None };
    let required_undefined = r.list(STR + SPAN, |r| Some((InlineStr::new(r.str()?), r.span()?)))?.into_boxed_slice();
    let zod = if flags & ZOD != 0 { Some(r.str()?.into()) } else { None };
    Some(Parameters {
        type_value,
        has_type: flags & HAS_TYPE != 0,
        is_object_literal: flags & OBJECT_LITERAL != 0,
        properties,
        properties_span,
        required_undefined,
        zod,
    })
}
