//! [`TextSpan`]: a byte range of a module's text, as the facts keep it.

use crate::source::Span;

/// A byte range of a module's text as the facts keep it: in 32 bits (a module is at most 32 MiB: see
/// [`crate::repo::fs`]), 8 bytes where a [`Span`] takes 16, at each of the dozen spans of every module's facts,
/// kept to the end of the run. It converts to a [`Span`] where a finding is placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TextSpan {
    pub start: u32,
    pub end: u32,
}

impl TextSpan {
    pub fn new(start: u32, end: u32) -> Self {
        TextSpan { start, end: end.max(start) }
    }

    pub fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

impl From<TextSpan> for Span {
    fn from(span: TextSpan) -> Span {
        span.span()
    }
}

/// Spans past 4 GiB (none of a module's) are cut to it.
impl From<Span> for TextSpan {
    fn from(span: Span) -> TextSpan {
        let cut = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        TextSpan::new(cut(span.start), cut(span.end))
    }
}

impl PartialEq<Span> for TextSpan {
    fn eq(&self, other: &Span) -> bool {
        self.span() == *other
    }
}

impl PartialEq<TextSpan> for Span {
    fn eq(&self, other: &TextSpan) -> bool {
        *self == other.span()
    }
}

impl From<oxc_span::Span> for TextSpan {
    fn from(span: oxc_span::Span) -> TextSpan {
        TextSpan::new(span.start, span.end)
    }
}
