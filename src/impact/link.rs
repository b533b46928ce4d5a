//! `impact --link-base URL`: links from each cause and each changed module to its line, as
//! `URL/<path>#L<line>` (URL is `<server>/<owner>/<repo>/blob/<sha>`, given by the caller, never read from the
//! repository). Each segment of the path is percent-escaped but for the unreserved characters, so that no path a
//! repository holds can end the link, add a query or a fragment, or leave the commit's tree.

use super::{Impact, Side};
use std::fmt::Write;

/// A `--link-base` that passed [`LinkBase::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkBase(String);

impl LinkBase {
    /// `Err` with the one line to print when `url` is not an `http`/`https` URL that can stand in a Markdown
    /// link as it is: no white space, control character, `)`, `]`, `<`, `>`, quote or backslash.
    pub fn parse(url: &str) -> Result<LinkBase, String> {
        let refuse = |why: &str| {
            Err(format!(
                "--link-base must be an http or https URL such as https://github.com/OWNER/REPO/blob/SHA: {why}"
            ))
        };
        let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
        let Some(rest) = rest else {
            return refuse("it does not start with https:// or http://");
        };
        if rest.is_empty() || rest.starts_with('/') {
            return refuse("it has no host");
        }
        if let Some(c) = url.chars().find(|c| c.is_whitespace() || c.is_control() || !c.is_ascii()) {
            let shown = if c == ' ' { "a space".to_string() } else { format!("the character U+{:04X}", c as u32) };
            return refuse(&format!("it holds {shown}"));
        }
        if let Some(c) = url.chars().find(|c| matches!(c, ')' | '(' | ']' | '[' | '<' | '>' | '"' | '\'' | '\\' | '`'))
        {
            return refuse(&format!("it holds `{c}`"));
        }
        if url.contains(['?', '#']) {
            return refuse("it holds a query or a fragment");
        }
        Ok(LinkBase(url.trim_end_matches('/').to_string()))
    }

    /// The link to `line` of `path` (from the repository's root).
    pub fn line(&self, path: &str, line: usize) -> String {
        let mut out = self.0.clone();
        for segment in path.split('/') {
            out.push('/');
            // A segment `.` or `..` would climb out of the commit's tree: its dots are escaped too.
            let dots = segment == "." || segment == "..";
            for byte in segment.bytes() {
                match byte {
                    b'.' if !dots => out.push('.'),
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'~' => out.push(byte as char),
                    _ => {
                        let _ = write!(out, "%{byte:02X}");
                    }
                }
            }
        }
        let _ = write!(out, "#L{line}");
        out
    }
}

/// Sets the `url` of every cause on the head side and of every changed module.
pub fn add_links(impact: &mut Impact, base: &LinkBase) {
    for project in &mut impact.projects {
        for module in &mut project.modules_changed {
            module.url = Some(base.line(&module.module, module.line));
        }
        for cause in project.agents.iter_mut().flat_map(|a| &mut a.causes) {
            if let (Some(path), Some(line), Side::Head) = (&cause.path, cause.line, cause.side) {
                cause.url = Some(base.line(path, line));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LinkBase;

    #[test]
    fn each_path_segment_is_escaped() {
        let base = LinkBase::parse("https://github.com/o/r/blob/0123abc").unwrap();
        assert_eq!(base.line("apps/b/beeuni.yaml", 6), "https://github.com/o/r/blob/0123abc/apps/b/beeuni.yaml#L6");
        assert_eq!(
            base.line("a b/#?%)]é/x.ts", 2),
            "https://github.com/o/r/blob/0123abc/a%20b/%23%3F%25%29%5D%C3%A9/x.ts#L2"
        );
        assert_eq!(base.line("../x", 1), "https://github.com/o/r/blob/0123abc/%2E%2E/x#L1");
    }

    #[test]
    fn only_a_plain_http_url_is_taken() {
        assert!(LinkBase::parse("http://127.0.0.1:8080/o/r/blob/1").is_ok());
        for bad in [
            "javascript:alert(1)",
            "ftp://x/y",
            "https://",
            "https:///x",
            "https://x/a b",
            "https://x/a)b",
            "https://x/a]b",
            "https://x/<b>",
            "https://x/a\u{1b}b",
            "https://x/a\nb",
            "https://x/a?b",
            "https://x/é",
        ] {
            let error = LinkBase::parse(bad).unwrap_err();
            assert!(error.starts_with("--link-base must be an http or https URL"), "{bad}: {error}");
            assert!(!error.contains('\n') && !error.contains('\u{1b}'), "{error}");
        }
    }
}
