//! The base's `beeuni-lint.toml`, read from git objects: the policy a change is judged by is the one it did not
//! write. It is found as the head's is, the nearest from the project's folder up to the repository's root.

use crate::config::{Config, FILE_NAME};
use crate::repo::checkout::{Checkout, Side};
use crate::repo::git::EntryKind;

/// A config larger than this is not read (as at the head: a config is a handful of lines).
const MAX_BYTES: usize = 1 << 20;

/// The base's config, `None` when the base has none. `Err`: it is there but cannot be read or parsed (the run
/// cannot be judged: exit 2).
pub(super) fn config(checkout: &Checkout, base: Side) -> Result<Option<Config>, String> {
    let (Side::Git(source), Some(git)) = (base, &checkout.git) else { return Ok(None) };
    let mut folder = checkout.git_prefix.clone();
    loop {
        let shown = if folder.is_empty() { FILE_NAME.to_string() } else { format!("{folder}/{FILE_NAME}") };
        if let Some((id, EntryKind::File | EntryKind::Executable)) = git.entry(source, &shown) {
            if git.blob_len(id).is_none_or(|len| len > MAX_BYTES) {
                return Err(format!("the base's config `{shown}` is larger than 1 MiB: beeuni-lint does not read it"));
            }
            let bytes = git.read_blob(id)?;
            let text =
                String::from_utf8(bytes).map_err(|_| format!("the base's config `{shown}` is not UTF-8 text"))?;
            return Config::parse(&text, &shown).map(Some).map_err(|errors| format!("the base's config: {errors}"));
        }
        if folder.is_empty() {
            return Ok(None);
        }
        folder = folder.rsplit_once('/').map_or(String::new(), |(parent, _)| parent.to_string());
    }
}
