//! What git tracks of the files the project names, looked up once as the model is built: the rules read it here
//! and never the checkout (so they run on a model built in memory as well).

use super::Project;
use crate::manifest::tools::ToolDecl;
use crate::modules::resolve::Resolution;
use crate::repo::checkout::{Checkout, Untracked};
use crate::repo::fs::Refusal;
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Default)]
pub struct Tracking {
    /// The project is in a git repository. Outside git nothing is looked up, and no rule reports tracking.
    pub in_git: bool,
    /// Of the files the project names (its manifest files, declared modules, xcsh tools, the files modules import
    /// relatively, and, linting the index, the files only the work tree has), those git does not track, by
    /// project-relative path, with how git sees each.
    untracked: FxHashMap<Box<str>, Untracked>,
    /// The packages modules import (each by its entry file, or its folder when it has none) of which git tracks
    /// nothing.
    untracked_packages: FxHashSet<String>,
}

impl Tracking {
    /// How git sees `path` when it does not track it (`None`: tracked, or never named by the project).
    pub fn untracked(&self, path: &str) -> Option<&Untracked> {
        self.untracked.get(path)
    }

    /// Does git track the package at `entry_or_folder` (its entry file, or its folder when it has none)?
    pub fn tracks_package(&self, entry_or_folder: &str) -> bool {
        !self.untracked_packages.contains(entry_or_folder)
    }

    /// Looks up every file and package `project` names in `checkout`'s git.
    pub(super) fn of(checkout: &Checkout, project: &Project) -> Tracking {
        let mut tracking = Tracking { in_git: checkout.in_git(), ..Tracking::default() };
        if !tracking.in_git {
            return tracking;
        }
        let untracked = &mut tracking.untracked;
        let named = project.graph.files.iter().map(|manifest| project.file(manifest.file).path.as_str());
        let xcsh = project.xcsh.modules.iter().filter(|m| !m.declared).map(|module| module.path.as_str());
        for path in named.chain(project.tools.iter().filter_map(existing_module)).chain(xcsh) {
            look_up(untracked, checkout, path);
        }
        // Modules import the same few helpers and packages: each is looked up in the index once. The resolver hands
        // out one resolution per specifier and folder, so one is known again by its address (hashing its path cost
        // more).
        let mut seen: FxHashSet<usize> = FxHashSet::default();
        let resolutions = project.modules.iter().flat_map(|module| module.resolutions().flatten());
        for resolution in resolutions.filter(|resolution| seen.insert(std::ptr::from_ref(*resolution) as usize)) {
            match resolution {
                Resolution::File(path) => look_up(&mut tracking.untracked, checkout, path),
                Resolution::Unstaged(path) => unstaged(&mut tracking.untracked, checkout, path),
                Resolution::Package { folder, entry, .. } => {
                    let tracked = match entry {
                        Some(file) => checkout.is_tracked(file),
                        None => checkout.tracks_under(folder),
                    };
                    if !tracked {
                        tracking.untracked_packages.insert(entry.as_ref().unwrap_or(folder).clone());
                    }
                }
                _ => {}
            }
        }
        for (index, instead) in project.missing_modules() {
            if let (true, Some(path)) = (instead.unstaged, project.tools[index].module_path()) {
                unstaged(&mut tracking.untracked, checkout, path);
            }
        }
        tracking
    }
}

/// The path of `decl`'s module when it exists (a module too large to read exists all the same, and a release
/// needs it tracked like any other).
fn existing_module(decl: &ToolDecl) -> Option<&str> {
    match &decl.module {
        Some(Ok(_) | Err(Refusal::TooLarge(_))) => decl.module_path(),
        _ => None,
    }
}

/// Records `path` when git does not track it.
fn look_up(untracked: &mut FxHashMap<Box<str>, Untracked>, checkout: &Checkout, path: &str) {
    if !untracked.contains_key(path)
        && let Some(found) = checkout.untracked(path)
    {
        untracked.insert(path.into(), found);
    }
}

/// Records `path`, a file only the work tree has while the index is linted.
fn unstaged(untracked: &mut FxHashMap<Box<str>, Untracked>, checkout: &Checkout, path: &str) {
    if !untracked.contains_key(path) {
        untracked.insert(path.into(), checkout.unstaged(path));
    }
}

#[cfg(test)]
mod tests;
