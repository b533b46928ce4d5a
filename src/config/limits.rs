//! What a config may cost. A config is a handful of lines: one of megabytes is refused before it is parsed, and
//! what it holds is bounded (entries of a list, mistakes listed).

/// Bytes of a config (1 MiB).
pub(super) const MAX_BYTES: u64 = 1 << 20;
/// Entries of one list (`harness-tools`, `removed-beeuni-tools`, `xcsh-paths`, `exclude`).
pub(super) const MAX_LIST: usize = 1_000;
/// Bytes of one `exclude` glob: each is compiled to an automaton, whose size grows with the glob's alternatives
/// (1,000 globs of 240 bytes took 89 MiB, of 470 bytes 146 MiB).
pub(super) const MAX_GLOB_BYTES: usize = 256;
/// Entries of `[policy] guard`: each gain of a change is judged against the guards its agent matches.
pub(super) const MAX_GUARDS: usize = 100;
/// Mistakes listed; the rest are counted.
pub(super) const MAX_ERRORS: usize = 100;

/// Why a config past [`MAX_BYTES`] is not read.
pub(super) fn too_large(shown: &str) -> String {
    format!(
        "the config `{shown}` is larger than 1 MiB ({MAX_BYTES} bytes), the most beeuni-lint reads: a config is a handful of lines; shorten it"
    )
}

/// The text of a config read (`shown` names it), when it is at most [`MAX_BYTES`] of UTF-8 (a file that grew
/// past its size as it was read is refused too).
pub(super) fn text(bytes: Vec<u8>, shown: &str) -> Result<String, String> {
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large(shown));
    }
    String::from_utf8(bytes).map_err(|_| format!("cannot read the config `{shown}`: it is not UTF-8 text"))
}
