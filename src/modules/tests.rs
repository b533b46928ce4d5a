//! How a module's bytes become its held text and facts.

use super::*;

/// A held text (a module the run keeps, or every module of the language server's runs) keeps no more capacity
/// than its length, whatever buffer its bytes were read into (a thread's spare one is up to `SPARE_MAX`).
#[test]
fn a_held_text_keeps_its_length_only() {
    let mut bytes = Vec::with_capacity(SPARE_MAX);
    bytes.extend_from_slice(b"export default { description: 'd' }\n");
    let read = Read::Done { bytes: Ok(bytes), id: None };
    let (body, facts, _) =
        analyse_bytes("tools/a.ts", read, None, (None, MODULE_BYTES), false, &mut Counted::default());
    let Body::Held(text) = body else { panic!("a text not let go is held") };
    assert_eq!((text.as_str(), text.capacity()), ("export default { description: 'd' }\n", text.len()));
    assert!(facts.is_whole());
}

/// Bytes held already (an editor buffer, pending fixes) past the limit are not parsed: the module is not analysed,
/// and says why; at the limit it is.
#[test]
fn bytes_past_the_limit_are_not_parsed() {
    let module = b"export default { description: 'd' }\n";
    let limit = module.len() as u64;
    for (len, whole) in [(module.len(), true), (module.len() + 1, false)] {
        let mut bytes = module.to_vec();
        bytes.resize(len, b' ');
        let read = Read::Done { bytes: Ok(bytes), id: None };
        let (_, facts, _) = analyse_bytes("tools/a.ts", read, None, (None, limit), false, &mut Counted::default());
        assert_eq!(facts.is_whole(), whole, "{len} bytes");
        if !whole {
            let why = "is 37 bytes, more than the 36 bytes of a module beeuni-lint analyses (`module-bytes` of `[limits]` in beeuni-lint.toml)";
            assert_eq!(facts.not_analysed().map(|n| n.why.as_str()), Some(why));
        }
    }
}
