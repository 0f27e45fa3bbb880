//! The layering of `hooks-claude/src`. Each folder under it is a stage of the pipeline, and the
//! stages are ranked bottom first ([`STAGES`]). Two rules keep the ranking true:
//!
//! - a file names only its own stage and the stages below it, so no stage reaches back up;
//! - the files and folders of one stage do not import each other in a circle (a stage's
//!   `mod.rs`, which declares them, is left out).
//!
//! Paths are read from the code: every `crate::` and `super::` path, `use` trees included, a
//! root re-export (`crate::Engine`) placed where `lib.rs` takes it from. Comments are not read,
//! so documentation may still link to what a higher stage offers. Test code (`#[cfg(test)]`
//! modules, inline or in their own files) is not held to the rules, as a crate's
//! dev-dependencies are not: a stage's tests may build their fixtures with a higher stage.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::util::root;

/// The stages of `hooks-claude/src`, bottom first.
const STAGES: &[&str] =
    &["config", "wire", "run", "present", "hooks", "session", "conversation", "dialect"];

/// The crate whose layering is checked, from the workspace root.
const SRC: &str = "hooks-claude/src";

fn rule() -> String {
    format!(
        "a stage names only itself and the stages below it ({}); move what both need down to \
         the lower stage",
        STAGES.join(" < ")
    )
}

/// A source file: where it is, its module path, and its code with comments and literals blanked
/// (newlines and byte offsets kept).
struct Source {
    shown: String,
    module: Vec<String>,
    code: String,
}

/// A path written in the code: its segments as written (from `crate` or `super`), the module
/// it is written in, and the line.
struct Written {
    module: Vec<String>,
    segments: Vec<String>,
    alias: Option<String>,
    line: usize,
    /// Written in test code (a `#[cfg(test)]` module).
    test: bool,
}

impl Written {
    fn text(&self) -> String {
        self.segments.join("::")
    }
}

/// What `lib.rs` and the stages' `mod.rs` files re-export: module path, then name, then the
/// absolute path of what it names.
type Exports = BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>;

/// Where a path lands: a stage and, unless it is the stage's own `mod.rs`, its file or folder.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    stage: usize,
    unit: Option<String>,
}

/// Blanks comments, string and character literals, keeping every newline and byte offset.
fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < bytes.len() {
                if bytes[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if bytes[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if let Some(hashes) = raw_string(bytes, i) {
            let close: Vec<u8> =
                std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let start = i + 2 + hashes;
            let end = bytes[start..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(bytes.len(), |n| start + n + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(bytes.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{..}', a multi-byte character), else a lifetime.
            let end = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&b| b == b'\'').map(|n| i + 2 + n + 1)
            } else {
                let width = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (rest.get(1 + width) == Some(&b'\'')).then_some(i + 2 + width)
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The number of `#` of a raw string literal starting at `i` (`r"`, `r#"`, `br"`), if one does.
fn raw_string(bytes: &[u8], i: usize) -> Option<usize> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let starts_word = |at: usize| at == 0 || !ident(bytes[at - 1]);
    let prefixed = starts_word(i) || (bytes[i - 1] == b'b' && starts_word(i - 1));
    if bytes[i] != b'r' || !prefixed {
        return None;
    }
    let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
    (bytes.get(i + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    Colons,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other(char),
}

fn tokens(code: &str) -> Vec<(Token, usize)> {
    let mut out = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let token = match c {
            c if c.is_alphabetic() || c == '_' => {
                let mut word = String::from(c);
                while let Some(&(_, n)) = chars.peek() {
                    if !(n.is_alphanumeric() || n == '_') {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                Token::Ident(word)
            }
            c if c.is_ascii_digit() => {
                while chars.peek().is_some_and(|&(_, n)| n.is_alphanumeric() || n == '_') {
                    chars.next();
                }
                continue;
            }
            ':' if chars.peek().is_some_and(|&(_, n)| n == ':') => {
                chars.next();
                Token::Colons
            }
            '{' => Token::Open,
            '}' => Token::Close,
            ',' => Token::Comma,
            ';' => Token::Semi,
            '*' => Token::Star,
            c if c.is_whitespace() => continue,
            c => Token::Other(c),
        };
        out.push((token, at));
    }
    out
}

/// Whether the `mod` at `i` is under `#[cfg(test)]` (possibly `pub`).
fn cfg_test(toks: &[(Token, usize)], i: usize) -> bool {
    let mut end = i;
    if end > 0 && toks[end - 1].0 == Token::Ident("pub".to_owned()) {
        end -= 1;
    }
    let attribute = [
        Token::Other('#'),
        Token::Other('['),
        Token::Ident("cfg".to_owned()),
        Token::Other('('),
        Token::Ident("test".to_owned()),
        Token::Other(')'),
        Token::Other(']'),
    ];
    end >= attribute.len()
        && toks[end - attribute.len()..end].iter().map(|t| &t.0).eq(attribute.iter())
}

/// The file modules a source declares under `#[cfg(test)]` (`mod tests;`).
fn test_files(source: &Source) -> Vec<Vec<String>> {
    let toks = tokens(&source.code);
    let mut out = Vec::new();
    for i in 0..toks.len().saturating_sub(2) {
        if let (Token::Ident(kw), Token::Ident(name), Token::Semi) =
            (&toks[i].0, &toks[i + 1].0, &toks[i + 2].0)
            && kw == "mod"
            && cfg_test(&toks, i)
        {
            let mut module = source.module.clone();
            module.push(name.clone());
            out.push(module);
        }
    }
    out
}

/// One leaf of a path or `use` tree: its segments and its `as` alias.
type Leaf = (Vec<String>, Option<String>);

/// Parses a path or `use` tree from `i`: its leaves and where it ends.
fn tree(toks: &[(Token, usize)], mut i: usize) -> (Vec<Leaf>, usize) {
    let mut segments = Vec::new();
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Token::Ident(s)) => {
                segments.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Token::Colons) {
                    i += 1;
                    continue;
                }
                let alias = match (toks.get(i).map(|t| &t.0), toks.get(i + 1).map(|t| &t.0)) {
                    (Some(Token::Ident(a)), Some(Token::Ident(name))) if a == "as" => {
                        i += 2;
                        Some(name.clone())
                    }
                    _ => None,
                };
                return (vec![(segments, alias)], i);
            }
            Some(Token::Star) => {
                segments.push("*".to_owned());
                return (vec![(segments, None)], i + 1);
            }
            Some(Token::Open) => {
                let mut leaves = Vec::new();
                i += 1;
                loop {
                    match toks.get(i).map(|t| &t.0) {
                        None => return (leaves, i),
                        Some(Token::Close) => return (leaves, i + 1),
                        Some(Token::Comma) => i += 1,
                        Some(_) => {
                            let (inner, end) = tree(toks, i);
                            for (mut s, alias) in inner {
                                let mut full = segments.clone();
                                full.append(&mut s);
                                leaves.push((full, alias));
                            }
                            // Skip what the tree did not read (an unusual token) up to the
                            // next item.
                            i = end.max(i + 1);
                        }
                    }
                }
            }
            _ => return (vec![(segments, None)], i),
        }
    }
}

/// Records each leaf of one use tree (or path) written at `line` in `module`.
fn push_leaves(
    out: &mut Vec<Written>,
    leaves: Vec<Leaf>,
    module: &[String],
    line: usize,
    test: bool,
) {
    out.extend(leaves.into_iter().map(|(segments, alias)| Written {
        module: module.to_vec(),
        segments,
        alias,
        line,
        test,
    }));
}

/// Every `crate::` and `super::` path of a file, and (`uses` set) every `use` tree with a
/// relative path, each with the module it is written in.
fn written(source: &Source, relative_uses: bool) -> Vec<Written> {
    let toks = tokens(&source.code);
    let line = |at: usize| source.code[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut depth = 0usize;
    // Inline modules (`mod tests { ... }`): name, the depth of their opening brace, and whether
    // they are test code.
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let module = || {
            let mut m = source.module.clone();
            m.extend(inline.iter().map(|(n, _, _)| n.clone()));
            m
        };
        let test = inline.iter().any(|(_, _, t)| *t);
        match &toks[i].0 {
            Token::Ident(kw) if kw == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Open)) =
                    (toks.get(i + 1).map(|t| &t.0), toks.get(i + 2).map(|t| &t.0))
                {
                    inline.push((name.clone(), depth, cfg_test(&toks, i)));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Token::Open => depth += 1,
            Token::Close => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d, _)| *d == depth) {
                    inline.pop();
                }
            }
            Token::Ident(kw) if kw == "use" && relative_uses => {
                let (leaves, end) = tree(&toks, i + 1);
                push_leaves(&mut out, leaves, &module(), line(toks[i].1), test);
                i = end;
                continue;
            }
            Token::Ident(start) if start == "crate" || start == "super" => {
                let after_path = i > 0 && toks[i - 1].0 == Token::Colons;
                let in_macro = i > 0 && toks[i - 1].0 == Token::Other('$');
                if !after_path && !in_macro && toks.get(i + 1).map(|t| &t.0) == Some(&Token::Colons)
                {
                    let (leaves, end) = tree(&toks, i);
                    push_leaves(&mut out, leaves, &module(), line(toks[i].1), test);
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A written path from the crate root (`None`: it climbs above the root, or is not a path of
/// this crate). Relative paths name a child module of the one they are written in.
fn absolute(w: &Written, children: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut segments = w.segments.iter().peekable();
    let mut base = w.module.clone();
    match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            base.clear();
        }
        Some("super") => {
            while segments.peek().is_some_and(|s| *s == "super") {
                segments.next();
                base.pop()?;
            }
        }
        Some("self") => {
            segments.next();
        }
        Some(first) => {
            let mut child = base.clone();
            child.push(first.to_owned());
            if !children.contains(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(segments.cloned());
    Some(base)
}

fn sources() -> Vec<Source> {
    let src = root().join(SRC);
    let mut files = Vec::new();
    collect(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&src).unwrap_or(&path);
            let mut module: Vec<String> =
                rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
            let file = module.pop().unwrap_or_default();
            let stem = file.trim_end_matches(".rs");
            if stem != "mod" && stem != "lib" {
                module.push(stem.to_owned());
            }
            let text = fs::read_to_string(&path).unwrap_or_default();
            Source { shown: format!("{SRC}/{}", rel.display()), module, code: strip(&text) }
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The names a module's `pub` items take: for a glob re-export.
fn public_items(source: &Source) -> Vec<String> {
    let toks = tokens(&source.code);
    let mut names = Vec::new();
    for w in toks.windows(3) {
        if let (Token::Ident(p), Token::Ident(kind), Token::Ident(name)) =
            (&w[0].0, &w[1].0, &w[2].0)
            && p == "pub"
            && ["struct", "enum", "trait", "fn", "const", "static", "type", "mod"]
                .contains(&kind.as_str())
        {
            names.push(name.clone());
        }
    }
    names
}

struct Crate {
    sources: Vec<Source>,
    modules: BTreeSet<Vec<String>>,
    /// Test code: the file modules declared under `#[cfg(test)]`.
    tests: BTreeSet<Vec<String>>,
    exports: Exports,
}

impl Crate {
    fn read() -> Self {
        Self::new(sources())
    }

    fn new(sources: Vec<Source>) -> Self {
        let mut modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
        for source in &sources {
            // Inline modules (`pub mod compatibility {}`), approximately placed: enough to know
            // the root's own modules.
            for w in tokens(&source.code).windows(3) {
                if let (Token::Ident(kw), Token::Ident(name), Token::Open) =
                    (&w[0].0, &w[1].0, &w[2].0)
                    && kw == "mod"
                {
                    let mut module = source.module.clone();
                    module.push(name.clone());
                    modules.insert(module);
                }
            }
        }
        let mut exports = Exports::new();
        for source in sources.iter().filter(|s| s.module.len() <= 1) {
            let names = exports.entry(source.module.clone()).or_default();
            for w in written(source, true) {
                let Some(target) = absolute(&w, &modules) else { continue };
                match w.alias.clone().or_else(|| target.last().cloned()) {
                    Some(star) if star == "*" => {
                        let module = &target[..target.len() - 1];
                        let items = sources
                            .iter()
                            .find(|s| s.module == module)
                            .map(public_items)
                            .unwrap_or_default();
                        for item in items {
                            let mut path = module.to_vec();
                            path.push(item.clone());
                            names.entry(item).or_insert(path);
                        }
                    }
                    Some(name) => {
                        names.insert(name, target);
                    }
                    None => {}
                }
            }
        }
        let tests = sources.iter().flat_map(test_files).collect();
        Self { sources, modules, tests, exports }
    }

    /// The stage and unit a path from the crate root lands in; `Ok(None)` for what belongs to
    /// no stage (the root's own items, another crate).
    fn place(&self, path: &[String], hops: usize) -> Result<Option<Place>, String> {
        let Some(first) = path.first() else { return Ok(None) };
        if let Some(stage) = STAGES.iter().position(|s| s == first) {
            let unit = match path.get(1) {
                Some(u) if self.modules.contains(&vec![first.clone(), u.clone()]) => {
                    Some(u.clone())
                }
                Some(name) => {
                    let target = self.exports.get(&vec![first.clone()]).and_then(|e| e.get(name));
                    match target {
                        Some(t) if hops < 8 => self
                            .place(t, hops + 1)?
                            .filter(|p| p.stage == stage)
                            .and_then(|p| p.unit),
                        _ => None,
                    }
                }
                None => None,
            };
            return Ok(Some(Place { stage, unit }));
        }
        if self.modules.contains(&vec![first.clone()]) {
            return Ok(None); // a module of the root that is no stage: `compatibility`
        }
        match self.exports.get(&Vec::new()).and_then(|e| e.get(first)) {
            Some(target) if hops < 8 => self.place(target, hops + 1),
            Some(_) => Err(format!("`{first}` is re-exported in a loop")),
            None => Err(format!("`crate::{first}` is neither a stage nor a re-export of lib.rs")),
        }
    }

    /// Every layering problem, one message each.
    fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        // Per stage: edges between its units, with where each is first written.
        let mut edges: BTreeMap<usize, BTreeMap<(String, String), String>> = BTreeMap::new();
        for source in &self.sources {
            let Some(stage) =
                source.module.first().and_then(|m| STAGES.iter().position(|s| s == m))
            else {
                if !source.module.is_empty() {
                    problems.push(format!(
                        "{}: `{}` is not a stage; add it to STAGES in xtask/src/tidy/layers.rs at \
                         its rank, or move the file into a stage",
                        source.shown, source.module[0]
                    ));
                }
                continue;
            };
            let unit = source.module.get(1);
            let test_file =
                (1..=source.module.len()).any(|n| self.tests.contains(&source.module[..n]));
            for w in written(source, false).into_iter().filter(|w| !w.test && !test_file) {
                let at = format!("{}:{}", source.shown, w.line);
                let Some(path) = absolute(&w, &self.modules) else {
                    problems.push(format!("{at}: `{}` climbs above the crate root", w.text()));
                    continue;
                };
                let place = match self.place(&path, 0) {
                    Ok(Some(place)) => place,
                    Ok(None) => continue,
                    Err(why) => {
                        problems.push(format!("{at}: `{}`: {why}", w.text()));
                        continue;
                    }
                };
                if place.stage > stage {
                    problems.push(format!(
                        "{at}: `{}` names `{}`, a stage above `{}`: {}",
                        w.text(),
                        STAGES[place.stage],
                        STAGES[stage],
                        rule()
                    ));
                } else if place.stage == stage
                    && let (Some(from), Some(to)) = (unit, place.unit)
                    && *from != to
                {
                    edges
                        .entry(stage)
                        .or_default()
                        .entry((from.clone(), to))
                        .or_insert(format!("{at} `{}`", w.text()));
                }
            }
        }
        for (stage, edges) in edges {
            for circle in circles(&edges) {
                let steps: Vec<String> = circle
                    .windows(2)
                    .map(|w| edges[&(w[0].clone(), w[1].clone())].clone())
                    .collect();
                problems.push(format!(
                    "{SRC}/{}: an import circle {}: {}; the files of a stage must not import each \
                     other in a circle: move what they share into one of them, or down a stage",
                    STAGES[stage],
                    circle.join(" -> "),
                    steps.join(", ")
                ));
            }
        }
        problems
    }
}

/// The circles of a graph, each once, as a closed walk (`a`, `b`, `a`).
fn circles(edges: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
    fn walk<'a>(
        at: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        stack: &mut Vec<&'a str>,
        found: &mut Vec<Vec<String>>,
        seen: &mut BTreeSet<Vec<String>>,
    ) {
        if let Some(pos) = stack.iter().position(|s| *s == at) {
            let mut circle: Vec<String> = stack[pos..].iter().map(|s| (*s).to_owned()).collect();
            let mut key = circle.clone();
            key.sort();
            if seen.insert(key) {
                circle.push(at.to_owned());
                found.push(circle);
            }
            return;
        }
        stack.push(at);
        for to in next.get(at).into_iter().flatten() {
            walk(to, next, stack, found, seen);
        }
        stack.pop();
    }
    for start in next.keys() {
        walk(start, &next, &mut Vec::new(), &mut found, &mut seen);
    }
    found
}

#[test]
fn hooks_claude_stages_name_only_the_stages_below() {
    let problems = Crate::read().problems();
    assert!(problems.is_empty(), "the layering of {SRC} is broken:\n{}", problems.join("\n"));
}

#[test]
fn every_stage_is_a_folder_whose_mod_rs_says_what_flows_through() {
    let src = root().join(SRC);
    let mut entries: Vec<String> = fs::read_dir(&src)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    for entry in &entries {
        let stage = entry.trim_end_matches(".rs");
        assert!(
            entry == "lib.rs" || STAGES.contains(&stage),
            "{SRC}/{entry}: the crate root holds lib.rs and the stage folders only ({}); put \
             the file in the stage it belongs to",
            STAGES.join(", ")
        );
    }
    for stage in STAGES {
        let path = src.join(stage).join("mod.rs");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{SRC}/{stage}/mod.rs is missing: every stage is a folder"));
        let first: Vec<&str> =
            text.lines().take_while(|l| l.starts_with("//!") && l.trim() != "//!").collect();
        assert!(
            (3..=6).contains(&first.len()),
            "{SRC}/{stage}/mod.rs: its doc opens with a paragraph of three to six lines saying \
             what comes in, what goes out and what the stage may not touch (it has {})",
            first.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(shown: &str, module: &[&str], text: &str) -> Source {
        Source {
            shown: shown.to_owned(),
            module: module.iter().map(|m| (*m).to_owned()).collect(),
            code: strip(text),
        }
    }

    fn fixture(files: &[(&str, &[&str], &str)]) -> Vec<String> {
        let sources = files.iter().map(|(shown, module, text)| source(shown, module, text));
        Crate::new(sources.collect()).problems()
    }

    const LIB: &str = "mod config;\nmod wire;\nmod run;\npub use wire::decision::*;\n\
                       pub use run::env::HostEnv;\n";

    #[test]
    fn a_lower_stage_naming_a_higher_one_is_named_with_the_file_the_import_and_the_rule() {
        let problems = fixture(&[
            ("src/lib.rs", &[], LIB),
            ("src/config/mod.rs", &["config"], "mod settings;"),
            (
                "src/config/settings.rs",
                &["config", "settings"],
                "// crate::run::env\nuse crate::{HostEnv, wire::decode};\nfn f() { let s = \"crate::run\"; }",
            ),
            ("src/wire/mod.rs", &["wire"], "mod decode;\nmod decision;"),
            ("src/wire/decode.rs", &["wire", "decode"], ""),
            ("src/wire/decision.rs", &["wire", "decision"], "pub struct StopDecision;"),
            ("src/run/mod.rs", &["run"], "mod env;"),
            ("src/run/env.rs", &["run", "env"], "use crate::StopDecision;\npub struct HostEnv;"),
        ]);
        assert_eq!(problems.len(), 2, "{problems:#?}");
        assert!(problems[0].starts_with("src/config/settings.rs:2: `crate::HostEnv` names `run`, a stage above `config`: a stage names only itself and the stages below it (config < wire < run < present < hooks < session < conversation < dialect)"), "{}", problems[0]);
        assert!(problems[1].starts_with("src/config/settings.rs:2: `crate::wire::decode` names `wire`, a stage above `config`"), "{}", problems[1]);
    }

    #[test]
    fn a_circle_between_the_files_of_a_stage_is_named_with_each_step() {
        let problems = fixture(&[
            ("src/lib.rs", &[], LIB),
            ("src/run/mod.rs", &["run"], "mod command;\nmod hook;"),
            (
                "src/run/command.rs",
                &["run", "command"],
                "use super::hook::Hook;\nmod tests {\n    use super::*;\n}",
            ),
            ("src/run/hook.rs", &["run", "hook"], "fn f() { crate::run::command::run(); }"),
        ]);
        assert_eq!(
            problems,
            [
                "hooks-claude/src/run: an import circle command -> hook -> command: src/run/command.rs:1 `super::hook::Hook`, src/run/hook.rs:1 `crate::run::command::run`; the files of a stage must not import each other in a circle: move what they share into one of them, or down a stage"
            ]
        );
    }

    #[test]
    fn test_code_may_name_any_stage() {
        let problems = fixture(&[
            ("src/lib.rs", &[], LIB),
            ("src/config/mod.rs", &["config"], "mod settings;"),
            (
                "src/config/settings.rs",
                &["config", "settings"],
                "#[cfg(test)]\nmod tests {\n    use crate::HostEnv;\n}\n#[cfg(test)]\nmod more;",
            ),
            ("src/config/settings/more.rs", &["config", "settings", "more"], "use crate::HostEnv;"),
            ("src/run/mod.rs", &["run"], "mod env;"),
            ("src/run/env.rs", &["run", "env"], "pub struct HostEnv;"),
        ]);
        assert_eq!(problems, Vec::<String>::new());
    }

    #[test]
    fn literals_comments_and_lifetimes_are_not_code() {
        let code = strip("a /* x /* y */ z */ b 'c' '\\n' 'é' r#\"q\"# \"s\\\"\" <'a> // e\nf");
        let words: Vec<&str> = code.split_whitespace().collect();
        assert_eq!(words, ["a", "b", "<'a>", "f"]);
    }
}
