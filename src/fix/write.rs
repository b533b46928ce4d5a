//! Writing a plan: each changed file atomically (a temporary file in its own folder, renamed over it, with its
//! permissions), never through a symlink that leaves the repository and never outside it; and `--diff`.

use super::Change;
use crate::repo::fs::{self, Refusal};
use crate::source::escape::escape;
use std::io::Write;
use std::path::Path;

/// Writes every change under `root` (the project root). Stops at the first file that cannot be written.
pub fn write(root: &Path, changes: &[Change]) -> Result<(), String> {
    for change in changes {
        match &change.after {
            Some(bytes) => replace(root, &change.path, bytes),
            None => delete(root, &change.path),
        }
        .map_err(|why| format!("cannot fix {}: {why}", change.shown))?;
    }
    Ok(())
}

/// Where a project-relative path really is: inside the root, through symlinks that stay inside.
fn real_path(root: &Path, rel: &str) -> Result<std::path::PathBuf, String> {
    fs::resolve(root, rel).map_err(|refusal| match refusal {
        Refusal::OutsideRepository => "it resolves through a symlink to outside the repository".to_string(),
        other => format!("it {}", other.describe()),
    })
}

/// Replaces an existing file (its real path, inside the root) with `bytes`, keeping its permissions.
pub(super) fn replace(root: &Path, rel: &str, bytes: &[u8]) -> Result<(), String> {
    let real = real_path(root, rel)?;
    let permissions = std::fs::metadata(&real).map_err(|e| e.to_string())?.permissions();
    rename_into(&real, bytes, Some(permissions))
}

/// Writes `bytes` at `rel`: over the file when it exists, else as a new file, creating its folders (each one
/// checked to stay inside the root).
pub(super) fn create(root: &Path, rel: &str, bytes: &[u8]) -> Result<(), String> {
    if real_path(root, rel).is_ok() {
        return replace(root, rel, bytes);
    }
    let mut folder = root.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts[..parts.len() - 1] {
        folder.push(part);
        if !folder.exists() {
            std::fs::create_dir(&folder).map_err(|e| e.to_string())?;
        }
        folder = std::fs::canonicalize(&folder).map_err(|e| e.to_string())?;
        if !folder.starts_with(root) {
            return Err("its folder resolves through a symlink to outside the repository".into());
        }
    }
    let target = folder.join(parts[parts.len() - 1]);
    if std::fs::symlink_metadata(&target).is_ok() {
        return Err("it exists but is not a regular file inside the repository".into());
    }
    rename_into(&target, bytes, None)
}

/// Writes a temporary file beside `target` and renames it over `target`.
fn rename_into(target: &Path, bytes: &[u8], permissions: Option<std::fs::Permissions>) -> Result<(), String> {
    let folder = target.parent().ok_or("it has no folder")?;
    let mut temp = tempfile_in(folder)?;
    let result = temp
        .1
        .write_all(bytes)
        .and_then(|()| temp.1.sync_all())
        .and_then(|()| permissions.map_or(Ok(()), |p| std::fs::set_permissions(&temp.0, p)))
        .and_then(|()| std::fs::rename(&temp.0, target));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&temp.0);
        return Err(e.to_string());
    }
    Ok(())
}

/// A new file beside the target, named so no other file is taken.
fn tempfile_in(folder: &Path) -> Result<(std::path::PathBuf, std::fs::File), String> {
    for attempt in 0..100u32 {
        let path = folder.join(format!(".beeuni-lint-fix.{}.{attempt}.tmp", std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create a temporary file in {}: {e}", folder.display())),
        }
    }
    Err(format!("cannot create a temporary file in {}", folder.display()))
}

/// Deletes the file itself (a symlink is removed, its target kept), once its folder is known to be inside.
fn delete(root: &Path, rel: &str) -> Result<(), String> {
    real_path(root, rel)?;
    let path = root.join(rel);
    let folder = path.parent().and_then(|f| std::fs::canonicalize(f).ok()).ok_or("its folder cannot be read")?;
    if !folder.starts_with(root) {
        return Err("its folder is outside the repository".into());
    }
    std::fs::remove_file(folder.join(path.file_name().ok_or("it has no name")?)).map_err(|e| e.to_string())
}

/// The plan as a unified diff (`a/` and `b/` paths, three lines of context); line breaks (LF, CRLF) are kept as
/// they are. The paths and lines are the repository's: any other character that acts (a lone CR, ESC) is escaped
/// ([`escape`]), so a diff of such a file shows it and no longer applies as a patch.
pub fn diff(changes: &[Change]) -> String {
    let mut out = String::new();
    for change in changes {
        let before = String::from_utf8_lossy(&change.before);
        let after = change.after.as_deref().map(String::from_utf8_lossy).unwrap_or_default();
        let shown = escape(&change.shown);
        let old = format!("a/{shown}");
        let new = if change.after.is_some() { format!("b/{shown}") } else { "/dev/null".to_string() };
        let text = similar::TextDiff::from_lines(before.as_ref(), after.as_ref());
        let unified = text.unified_diff().context_radius(3).header(&old, &new).missing_newline_hint(true).to_string();
        for line in unified.split_inclusive('\n') {
            let body = line.strip_suffix('\n').map_or(line, |body| body.strip_suffix('\r').unwrap_or(body));
            out.push_str(&escape(body));
            out.push_str(&line[body.len()..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_keeps_line_breaks_and_escapes_the_rest() {
        let change = Change {
            path: "a.yaml".into(),
            shown: "d\u{1b}/a.yaml".into(),
            before: b"x: 1\r\ny: \x1b[2J\rz\nw: bsh\n".to_vec(),
            after: Some(b"x: 1\r\ny: \x1b[2J\rz\nw: bash\n".to_vec()),
        };
        assert_eq!(
            diff(&[change]),
            // similar breaks lines at a lone CR too: its context line ` z` follows the escaped CR.
            "--- a/d\\u{1b}/a.yaml\n+++ b/d\\u{1b}/a.yaml\n@@ -1,4 +1,4 @@\n x: 1\r\n y: \\u{1b}[2J\\r z\n-w: bsh\n+w: bash\n"
        );
    }
}
