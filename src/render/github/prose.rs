//! A finding's message as Markdown prose for the step summary's table: the rule's words as text, each part it
//! quotes in backticks (a name, a path, a value: the repository's text) a code span of its own, its fence chosen
//! for that part ([`code_span`]). Nothing of the repository can become Markdown, HTML, a link, an image or a
//! mention: the text is backslash-escaped, and a part of it that GitHub would link without any Markdown (an
//! address, `@name`, `#12`, a commit id) is a code span too.

use crate::source::escape::code_span;

/// `text` (escaped: one line, see [`crate::source::escape::escape`]) as the content of a table cell. A message
/// quotes each name between single backticks (`` `name` ``); when its backticks do not pair up that way (a name
/// holding backticks), which parts are names cannot be told, and the whole line is one code span, as it is.
pub fn prose(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    // An even count of backticks, each alone: the quoted parts are 1, 3, 5, … and none is empty (a double
    // backtick), nor is a part between two of them (two spans side by side would read as one).
    let last = parts.len().saturating_sub(1);
    let paired = parts.len() % 2 == 1
        && parts.iter().enumerate().all(|(index, part)| !part.is_empty() || index == 0 || index == last);
    if !paired {
        return code_span(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (index, part) in parts.iter().enumerate() {
        if index % 2 == 1 {
            out.push_str(&code_span(part));
        } else {
            words(part, &mut out);
        }
    }
    out
}

/// The rule's words: each character that means something inline (a table cell holds no blocks) backslash-escaped,
/// so that none opens a link, an image, HTML, an entity, emphasis, a strikethrough or math, and `|` cannot end the
/// cell; but when GitHub would link a word of them as it is, the words (spaces around them kept outside) are a
/// code span.
fn words(text: &str, out: &mut String) {
    if links(text) {
        let inner = text.trim_matches(' ');
        let before = text.len() - text.trim_start_matches(' ').len();
        let after = text.len() - text.trim_end_matches(' ').len();
        out.push_str(&" ".repeat(before));
        out.push_str(&code_span(inner));
        out.push_str(&" ".repeat(after));
        return;
    }
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '!' | '|' | '~' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Would GitHub turn some of `text` into a link or a mention with no Markdown at all: an address (`http://`,
/// `www.`), an e-mail address or `@user`, an issue reference (`#12`, `GH-12`), or a commit id (a word of 7 to 64
/// hex digits holding a digit)? The rules' own words never do.
fn links(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if text.contains(['@', '#']) || lower.contains("://") || lower.contains("www.") || lower.contains("gh-") {
        return true;
    }
    text.split(|c: char| !c.is_ascii_alphanumeric()).any(|word| {
        (7..=64).contains(&word.len())
            && word.bytes().all(|b| b.is_ascii_hexdigit())
            && word.bytes().any(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_code_spans_and_the_words_text() {
        assert_eq!(prose("agent `support` lists `raed`"), "agent `support` lists `raed`");
        assert_eq!(prose("unknown tool `a|b` in `exclude`"), "unknown tool `a\\|b` in `exclude`");
        assert_eq!(prose("did you mean `bash`?"), "did you mean `bash`?");
        assert_eq!(
            prose("`x` ![a](b) <img> *c* & d_e | $f$ ~g~ \\"),
            "`x` \\!\\[a\\](b) \\<img\\> \\*c\\* \\& d\\_e \\| \\$f\\$ \\~g\\~ \\\\"
        );
        assert_eq!(prose("`<!-- x -->` and ` padded `"), "`<!-- x -->` and `  padded  `");
    }

    #[test]
    fn backticks_that_do_not_pair_make_the_line_one_code_span() {
        assert_eq!(prose("agent `a`b` lists"), "``agent `a`b` lists``");
        assert_eq!(prose("agent `a``b` lists"), "```agent `a``b` lists```");
        assert_eq!(prose("``"), "``` `` ```");
    }

    #[test]
    fn what_github_would_link_by_itself_is_code() {
        assert_eq!(prose("`a` ask @octocat now"), "`a` `ask @octocat now`");
        assert_eq!(prose("see www.example.com"), "`see www.example.com`");
        assert_eq!(prose("x http://e/x y"), "`x http://e/x y`");
        assert_eq!(prose("fixes #12 "), "`fixes #12` ");
        assert_eq!(prose("commit deadbeef1 left"), "`commit deadbeef1 left`");
        // Words and numbers as rules write them stay text.
        assert_eq!(prose("line 12 of 300, defaced"), "line 12 of 300, defaced");
    }
}
