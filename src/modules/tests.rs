//! How a module's bytes become its held text and facts.

use super::*;

/// A held text (a module the run keeps, or every module of the language server's runs) keeps no more capacity
/// than its length, whatever buffer its bytes were read into (a thread's spare one is up to `SPARE_MAX`).
#[test]
fn a_held_text_keeps_its_length_only() {
    let mut bytes = Vec::with_capacity(SPARE_MAX);
    bytes.extend_from_slice(b"export default { description: 'd' }\n");
    let read = Read::Done { bytes: Ok(bytes), id: None };
    let (body, facts, _) = analyse_bytes("tools/a.ts", read, None, None, false, &mut Counted::default());
    let Body::Held(text) = body else { panic!("a text not let go is held") };
    assert_eq!((text.as_str(), text.capacity()), ("export default { description: 'd' }\n", text.len()));
    assert!(facts.is_whole());
}
