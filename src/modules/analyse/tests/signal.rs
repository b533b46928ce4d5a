//! `fetch` calls inside `execute` without the context's abort signal.

use super::*;

#[test]
fn fetch_signals() {
    let text = r#"
fetch('https://outside.example.com')
export default {
  async execute(args, context) {
    await fetch(url)
    await fetch(url, { method: 'POST' })
    await fetch(url, { signal: context.signal })
    await fetch(url, { signal })
    await fetch(url, options)
    await fetch(url, { ...options })
    await fetch(url, { [key]: value })
    await globalThis.fetch(url, { headers: {} })
    await fetch(...args)
    await fetch(new Request(url, { signal: context.signal }))
    await fetch(new Request(url, init))
    await fetch(new Request(url))
    const nested = () => fetch(url)
  },
}
"#;
    let facts = run("a.ts", text);
    let got: Vec<_> = facts.execute.unwrap().fetch_without_signal.iter().map(|s| slice(text, *s)).collect();
    assert_eq!(
        got,
        [
            "fetch(url)",
            "fetch(url, { method: 'POST' })",
            "globalThis.fetch(url, { headers: {} })",
            "fetch(new Request(url))",
            "fetch(url)"
        ]
    );
    let text = "async function run(args, context) { return fetch(args.url) }\nexport default { execute: run }";
    assert_eq!(run("a.ts", text).execute.unwrap().fetch_without_signal.len(), 1);
}
