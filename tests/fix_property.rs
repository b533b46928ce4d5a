//! A property test: random manifests (from a small seeded generator: block and flow styles, quoting,
//! comments, blank lines, CRLF, a BOM, and findings of every fixable manifest rule) fixed with
//! `--unsafe-fixes` keep every line outside the edited ranges, parse, lose their fixed findings, and do not
//! change on a second run.

mod fix_support;

use fix_support::common::project;
use fix_support::{fix_and_check, lint};

/// xorshift64*: a few lines, and the same manifests on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const BEEUNI: [&str; 5] = ["web_search", "image_search", "scrape_webpage", "memory", "show"];
/// Names an agent list may hold: real ones, near misses with one nearest tool, and Beeuni tools.
const NAMES: [&str; 12] =
    ["read", "grpe", "bahs", "write", "raed", "glob", "show", "memory", "web_search", "edit", "taks", "bash"];

fn quoted(rng: &mut Rng, text: &str) -> String {
    match rng.below(4) {
        0 => format!("'{text}'"),
        1 => format!("\"{text}\""),
        _ => text.to_string(),
    }
}

fn comment(rng: &mut Rng) -> String {
    if rng.chance(30) { format!("  # note {}", rng.below(100)) } else { String::new() }
}

fn manifest(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.chance(30) {
        out.push_str("# a Beeuni project\n");
    }
    let tools: Vec<&str> = BEEUNI.iter().copied().filter(|_| rng.chance(40)).collect();
    let value = |rng: &mut Rng, name: &str| match rng.below(5) {
        0 => {
            let other = BEEUNI[rng.below(5)];
            quoted(rng, &format!("beeuni:{other}"))
        }
        _ => quoted(rng, &format!("beeuni:{name}")),
    };
    if rng.chance(20) {
        let entries: Vec<String> = tools.iter().map(|t| format!("{t}: {}", value(rng, t))).collect();
        out.push_str(&format!("tools: {{{}}}{}\n", entries.join(", "), comment(rng)));
    } else if !tools.is_empty() || rng.chance(50) {
        out.push_str(&format!("tools:{}\n", comment(rng)));
        for t in &tools {
            if rng.chance(15) {
                out.push('\n');
            }
            out.push_str(&format!("  {t}: {}{}\n", value(rng, t), comment(rng)));
        }
    }
    out.push_str("agents:\n");
    for agent in 0..1 + rng.below(3) {
        out.push_str(&format!("  agent{agent}:{}\n", comment(rng)));
        let names: Vec<String> = (0..1 + rng.below(3)).map(|_| rng.pick(&NAMES).to_string()).collect();
        let mut unique = names.clone();
        unique.dedup();
        match rng.below(6) {
            0 => out.push_str(&format!(
                "    tools: [{}]\n",
                names.iter().map(|n| quoted(rng, n)).collect::<Vec<_>>().join(", ")
            )),
            1 => {
                out.push_str("    tools:\n");
                for n in &names {
                    out.push_str(&format!("      - {}{}\n", quoted(rng, n), comment(rng)));
                }
            }
            2 => out.push_str(&format!("    tools: {{exclude: [{}]}}\n", names.join(", "))),
            3 => {
                out.push_str("    tools:\n      exclude:\n");
                for n in &names {
                    out.push_str(&format!("        - {n}{}\n", comment(rng)));
                }
            }
            4 => {
                let mut seen = std::collections::HashSet::new();
                let keys: Vec<&String> = names.iter().filter(|n| seen.insert(n.as_str())).collect();
                if rng.chance(50) {
                    let entries: Vec<String> = keys.iter().map(|k| format!("{k}: false")).collect();
                    out.push_str(&format!("    tools: {{{}}}\n", entries.join(", ")));
                } else {
                    out.push_str("    tools:\n");
                    for k in keys {
                        out.push_str(&format!("      {k}: false{}\n", comment(rng)));
                    }
                }
            }
            _ => out.push_str(&format!("    tools: {}\n", rng.pick(&["All", "NONE", "all", "'*'"]))),
        }
    }
    if rng.chance(30) {
        out = out.replace('\n', "\r\n");
    }
    if rng.chance(20) {
        out.insert(0, '\u{feff}');
    }
    out
}

#[test]
fn random_manifests_keep_every_byte_outside_the_edits() {
    let mut rng = Rng(0x5eed_beef_cafe_f00d);
    let mut fixed = 0;
    for case in 0..40 {
        let text = manifest(&mut rng);
        let dir = project(&[("beeuni.yaml", &text)]);
        let before = lint(dir.path());
        assert!(
            !before["diagnostics"].as_array().unwrap().iter().any(|d| d["rule"] == "yaml-syntax"),
            "case {case}: the generator wrote invalid YAML:\n{text}"
        );
        let diff = fix_and_check(dir.path());
        fixed += usize::from(!diff.is_empty());
    }
    assert!(fixed >= 30, "only {fixed} of 40 random manifests had something to fix");
}
