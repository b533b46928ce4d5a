//! The driver's `rules`: a reporting descriptor for each rule of the registry, from its declaration.

use serde_json::Value;
use serde_sarif::sarif;

use super::level;
use crate::rules::{Rule, page_url};

/// GitHub code scanning's limit on a description.
pub(super) const MAX_DESCRIPTION: usize = 1_024;

pub(super) fn descriptor(rule: &Rule) -> sarif::ReportingDescriptor {
    let docs = rule.docs();
    let summary = rule.summary();
    let what = section(&docs, "What it checks").unwrap_or_else(|| summary.clone());
    let tags = vec!["beeuni".to_string(), rule.category().as_str().to_string()];
    sarif::ReportingDescriptor::builder()
        .id(rule.id)
        .name(pascal_case(rule.id))
        .short_description(plain(&truncate(&summary)))
        .full_description(plain(&truncate(&what)))
        .help(sarif::MultiformatMessageString::builder().text(docs.clone()).markdown(docs).build())
        .help_uri(page_url(rule))
        .default_configuration(sarif::ReportingConfiguration {
            level: Some(Value::from(level(rule.severity).0)),
            ..Default::default()
        })
        .properties(sarif::PropertyBag::builder().tags(tags).build())
        .build()
}

/// The text under a `## heading` of a rule's docs, its wrapped lines joined into paragraphs.
pub(super) fn section(docs: &str, heading: &str) -> Option<String> {
    let mut lines = docs.lines().skip_while(|line| line.trim() != format!("## {heading}")).skip(1);
    let body: Vec<&str> = lines.by_ref().take_while(|line| !line.starts_with("## ")).map(str::trim).collect();
    let paragraphs: Vec<String> =
        body.split(|line| line.is_empty()).filter(|p| !p.is_empty()).map(|p| p.join(" ")).collect();
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

/// `unknown-excluded-tool` → `UnknownExcludedTool`.
pub(super) fn pascal_case(id: &str) -> String {
    let mut out = String::new();
    for word in id.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        out.extend(chars);
    }
    out
}

pub(super) fn truncate(text: &str) -> String {
    if text.chars().count() <= MAX_DESCRIPTION {
        return text.to_string();
    }
    text.chars().take(MAX_DESCRIPTION - 1).chain(['…']).collect()
}

pub(super) fn plain(text: &str) -> sarif::MultiformatMessageString {
    sarif::MultiformatMessageString::builder().text(text).build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RULES, find};

    fn tags(id: &str) -> Vec<String> {
        descriptor(find(id).unwrap()).properties.unwrap().tags.unwrap()
    }

    #[test]
    fn every_rule_is_tagged_with_its_category() {
        assert_eq!(tags("ui-view-contract"), ["beeuni", "module"]);
        assert_eq!(tags("module-path"), ["beeuni", "tool"]);
        assert_eq!(tags("removed-tool-in-use"), ["beeuni", "change-aware"]);
        let xcsh: Vec<&str> = RULES.iter().map(|rule| rule.id).filter(|id| id.starts_with("xcsh-")).collect();
        assert_eq!(xcsh.len(), 11);
        for id in xcsh {
            assert_eq!(tags(id), ["beeuni", "xcsh"], "{id}");
        }
        let mut categories: Vec<String> = RULES.iter().map(|rule| tags(rule.id)[1].clone()).collect();
        categories.dedup();
        assert_eq!(categories, ["manifest", "tool", "agent", "module", "legacy", "xcsh", "change-aware"]);
    }
}
