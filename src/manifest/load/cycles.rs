//! Import cycles, found by the depth-first walk as it goes: the strongly connected components of the import graph
//! (Tarjan's algorithm, the walk's order of files as their numbers). A component is one finding however many of
//! its imports close a cycle: at the first of them the walk meets (the `- path` item that leads back to a file
//! still being read), naming that one cycle, its list of files bounded. Four thousand files that each import the
//! root are one finding, not four thousand that each name the whole chain.

use super::{Frame, Graph, LoadProblem, ProblemKind};
use crate::diagnostic::Label;
use crate::source::Sources;

/// Files of a cycle named in its message (and related locations); the rest are counted.
const FILES_NAMED: usize = 8;

/// An import from a file being read (`from`) back to one still being read (`to`: it imports `from`, maybe through
/// others): it closes a cycle. Files by their place in the graph.
#[derive(Debug, Clone)]
pub(super) struct BackEdge {
    from: usize,
    to: usize,
    closing: Label,
}

/// What a file of the walk keeps for the search (in its [`Frame`]).
#[derive(Debug)]
pub(super) struct Search {
    /// The earliest file (by place in the graph) it reaches whose component is not complete yet.
    low: usize,
    /// The first import closing a cycle met under it, not yet reported.
    first_closing: Option<BackEdge>,
}

impl Search {
    pub(super) fn new(index: usize) -> Self {
        Search { low: index, first_closing: None }
    }
}

/// The state of the search across the walk, by place in the graph.
#[derive(Default)]
pub(super) struct Components {
    /// On the walk's stack: being read.
    reading: Vec<bool>,
    /// In a component not complete yet.
    open: Vec<bool>,
    /// Those files, in the order opened.
    pending: Vec<usize>,
    /// The file whose import opened each (the walk's tree), `usize::MAX` for the root and files outside the walk.
    opened_by: Vec<usize>,
}

impl Components {
    /// File `index` joins the walk, opened by an import of `by`.
    pub(super) fn opened(&mut self, index: usize, by: Option<usize>) {
        for list in [&mut self.reading, &mut self.open] {
            list.resize(index + 1, false);
        }
        self.opened_by.resize(index + 1, usize::MAX);
        self.reading[index] = true;
        self.open[index] = true;
        self.opened_by[index] = by.unwrap_or(usize::MAX);
        self.pending.push(index);
    }

    /// An import of `frame`'s file, at `item`, names file `to`, already opened.
    pub(super) fn import_of_opened(&self, frame: &mut Frame, to: usize, item: &Label) {
        if self.reading.get(to) == Some(&true) {
            frame.search.low = frame.search.low.min(to);
            if frame.search.first_closing.is_none() {
                frame.search.first_closing = Some(BackEdge { from: frame.index, to, closing: item.clone() });
            }
        } else if self.open.get(to) == Some(&true) {
            frame.search.low = frame.search.low.min(to);
        }
    }

    /// `frame`'s file is read (all its imports walked); `parent` is the file whose import opened it. When it
    /// completes a component that holds a cycle, the finding.
    pub(super) fn finished(
        &mut self,
        frame: Frame,
        parent: Option<&mut Frame>,
        graph: &Graph,
        sources: &Sources,
    ) -> Option<LoadProblem> {
        self.reading[frame.index] = false;
        if frame.search.low < frame.index {
            // Part of a component an earlier file completes: what it found goes up to the file that opened it.
            if let Some(parent) = parent {
                parent.search.low = parent.search.low.min(frame.search.low);
                parent.search.first_closing = parent.search.first_closing.take().or(frame.search.first_closing);
            }
            return None;
        }
        let mut size = 0;
        while let Some(file) = self.pending.pop() {
            self.open[file] = false;
            size += 1;
            if file == frame.index {
                break;
            }
        }
        // Every import closing a cycle under this file is inside its component: one closing a cycle through a
        // file above it would have made that file its `low`.
        frame.search.first_closing.map(|edge| self.cycle(graph, sources, &edge, size))
    }

    fn cycle(&self, graph: &Graph, sources: &Sources, edge: &BackEdge, component: usize) -> LoadProblem {
        // The walk's tree from `edge.to` down to `edge.from`: `to` is still being read, so it opened `from`.
        let mut files = vec![edge.from];
        while let Some(&last) = files.last().filter(|&&last| last != edge.to) {
            files.push(self.opened_by[last]);
        }
        files.reverse();
        let path = |file: usize| sources.get(graph.files[file].file).path.as_str();
        let mut names: Vec<String> = files.iter().take(FILES_NAMED).map(|&file| path(file).to_string()).collect();
        if files.len() > FILES_NAMED {
            names.push(format!("… and {} more", files.len() - FILES_NAMED));
        }
        let mut message = format!("import cycle: {} → {}", names.join(" → "), path(files[0]));
        if component > files.len() {
            message += &format!("; {component} files import one another through cycles like it");
        }
        // The other entries of the cycle: the items that opened each file after the first.
        let related = files[1..]
            .iter()
            .take(FILES_NAMED - 1)
            .filter_map(|&file| graph.files[file].imported_by.clone())
            .map(|mut label| {
                label.message = Some("part of the cycle".into());
                label
            })
            .collect();
        LoadProblem {
            kind: ProblemKind::ImportCycle,
            at: edge.closing.clone(),
            message,
            help: Some("remove one of these imports; each file needs to be imported once".into()),
            related,
        }
    }
}
