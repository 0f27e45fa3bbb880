//! The layering of every crate, read with `syn`. Two rules keep each crate's modules a tree that
//! can be read from the bottom up:
//!
//! - the modules that share a parent (the files and folders of one folder) do not name each
//!   other in a circle: what two of them both need moves into one of them, or below them;
//! - in `hooks-claude`, each folder under `src` is a stage of the pipeline, ranked bottom first
//!   ([`STAGES`]), and a stage names only itself and the stages below it.
//!
//! Paths are read from the code: every `use` tree, and every path written from `crate`,
//! `super` or `self` in items, types and expressions; a re-export (`crate::Engine`) is
//! followed to where its module takes it from. Comments and strings are not code, so
//! documentation may still link anywhere. Test code (`#[cfg(test)]` items and the files they
//! declare) is not held to the rules, as a crate's dev-dependencies are not.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::util::root;

/// The stages of `hooks-claude/src`, bottom first.
const STAGES: &[&str] =
    &["config", "wire", "run", "present", "hooks", "session", "conversation", "dialect"];

/// The crate whose stages are ranked.
const STAGED: &str = "hooks-claude";

/// A module path from the crate root (`["hooks", "engine"]`); the root is empty.
type Module = Vec<String>;

/// A path the code names, resolved from the crate root, where it is written.
#[derive(Debug, Clone)]
struct Named {
    /// The module it is written in.
    from: Module,
    /// The path from the crate root, as written (`crate::`, `super::` and `self::` resolved).
    path: Vec<String>,
    /// The file and line, for messages.
    at: String,
    /// As written, for messages.
    text: String,
}

/// One crate's modules: which exist, which are test code, what each re-exports, and every path
/// its code names.
#[derive(Debug, Default)]
struct Crate {
    modules: BTreeSet<Module>,
    tests: BTreeSet<Module>,
    /// Module, then name, then the path from the crate root of what it names.
    exports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    /// Module, then the modules it glob re-exports.
    globs: BTreeMap<Module, Vec<Vec<String>>>,
    named: Vec<Named>,
}

/// Whether attributes hold `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>().is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// `self`, `super` and `crate` resolved against the module `at`; `None` for a path that does
/// not start at one of them (an outside crate, a prelude name) or climbs above the root.
fn resolve(
    at: &[String],
    segments: &[String],
    children: &dyn Fn(&str) -> bool,
) -> Option<Vec<String>> {
    let mut base: Vec<String> = at.to_vec();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        // A child module named without `self::` (`use engine::Engine;` in `lib.rs`).
        Some(first) if children(first) => {}
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The paths of a `use` tree, each with its name in the module (for a re-export).
fn use_paths(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix.clone();
            if name != "self" {
                path.push(name.clone());
            }
            let alias = path.last().cloned();
            out.push((path, alias));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            out.push((path, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), None)),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                use_paths(tree, prefix, out);
            }
        }
    }
}

/// Reads one file's module (and the inline modules in it).
struct Reader<'a> {
    krate: &'a mut Crate,
    shown: String,
    module: Module,
    /// The file modules declared in this file, with whether they are test code.
    declared: Vec<(Module, bool)>,
    /// The paths as written, before resolution: module, path, line, text, in test code.
    written: Vec<(Module, Vec<String>, usize, String, bool)>,
    /// The re-exports (`pub use`): module, name (`*` for a glob), path as written.
    exports: Vec<(Module, String, Vec<String>)>,
    /// Inside test code.
    test: bool,
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let test = self.test || is_test(&item.attrs);
        let mut module = self.module.clone();
        module.push(item.ident.to_string());
        match &item.content {
            None => self.declared.push((module, test)),
            Some((_, items)) => {
                self.krate.modules.insert(module.clone());
                if test {
                    self.krate.tests.insert(module.clone());
                }
                let (outer_module, outer_test) =
                    (std::mem::replace(&mut self.module, module), self.test);
                self.test = test;
                for item in items {
                    self.visit_item(item);
                }
                self.module = outer_module;
                self.test = outer_test;
            }
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_impl(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if is_test(&item.attrs) {
            return;
        }
        let line = item.span().start().line;
        let public = !matches!(item.vis, syn::Visibility::Inherited);
        let mut paths = Vec::new();
        use_paths(&item.tree, &mut Vec::new(), &mut paths);
        for (path, alias) in paths {
            if public {
                let name = alias.unwrap_or_else(|| "*".to_owned());
                self.exports.push((self.module.clone(), name, path.clone()));
            }
            let text = path.join("::");
            self.written.push((self.module.clone(), path, line, text, self.test));
        }
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        if let syn::Meta::List(list) = &attr.meta {
            self.scan(list.tokens.clone());
        } else if let syn::Meta::NameValue(nv) = &attr.meta {
            self.visit_expr(&nv.value);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.scan(mac.tokens.clone());
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.first().is_some_and(|s| matches!(s.as_str(), "crate" | "super" | "self")) {
            let line = path.span().start().line;
            self.written.push((
                self.module.clone(),
                segments.clone(),
                line,
                segments.join("::"),
                self.test,
            ));
        }
        syn::visit::visit_path(self, path);
    }
}

impl Reader<'_> {
    /// The paths from `crate`, `super` or `self` in tokens that are not parsed as code (an
    /// attribute's arguments, a macro's input).
    fn scan(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::TokenTree;
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => self.scan(g.stream()),
                TokenTree::Ident(id)
                    if matches!(id.to_string().as_str(), "crate" | "super" | "self") =>
                {
                    let line = id.span().start().line;
                    let mut segments = vec![id.to_string()];
                    let mut j = i + 1;
                    // `::` is two joint `:` puncts, then an identifier.
                    while let (
                        Some(TokenTree::Punct(a)),
                        Some(TokenTree::Punct(b)),
                        Some(TokenTree::Ident(next)),
                    ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(next.to_string());
                        j += 3;
                    }
                    if segments.len() > 1 {
                        let text = segments.join("::");
                        self.written.push((self.module.clone(), segments, line, text, self.test));
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// The module of a source file, from its path under `src`.
fn module_of(relative: &Path) -> Module {
    let mut parts: Vec<String> =
        relative.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "main" | "mod")) {
        parts.pop();
    }
    parts
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

impl Crate {
    /// Reads `files`: each a name for messages, its path under `src`, and its text.
    fn new(files: &[(String, PathBuf, String)]) -> Result<Self, String> {
        let mut krate = Crate::default();
        let mut written = Vec::new();
        let mut exports = Vec::new();
        let mut declared = Vec::new();
        for (shown, relative, text) in files {
            let ast = syn::parse_file(text).map_err(|e| format!("{shown}: {e}"))?;
            let module = module_of(relative);
            krate.modules.insert(module.clone());
            let mut reader = Reader {
                krate: &mut krate,
                shown: shown.clone(),
                module,
                declared: Vec::new(),
                written: Vec::new(),
                exports: Vec::new(),
                test: false,
            };
            reader.visit_file(&ast);
            let shown = reader.shown.clone();
            declared.extend(reader.declared);
            exports.extend(reader.exports);
            written.extend(reader.written.into_iter().map(|w| (shown.clone(), w)));
        }
        for (module, test) in declared {
            if test {
                krate.tests.insert(module.clone());
            }
            krate.modules.insert(module);
        }
        // Test code is every module below a test module.
        let tests: Vec<Module> = krate.tests.iter().cloned().collect();
        for module in krate.modules.clone() {
            if tests.iter().any(|t| module.starts_with(t)) {
                krate.tests.insert(module);
            }
        }
        for (from, name, path) in exports {
            let Some(target) = krate.resolve_in(&from, &path) else { continue };
            if name == "*" {
                krate.globs.entry(from).or_default().push(target);
            } else {
                krate.exports.entry(from).or_default().insert(name, target);
            }
        }
        for (shown, (module, path, line, text, test)) in written {
            if test || krate.tests.contains(&module) {
                continue;
            }
            let Some(path) = krate.resolve_in(&module, &path) else { continue };
            krate.named.push(Named { from: module, path, at: format!("{shown}:{line}"), text });
        }
        Ok(krate)
    }

    fn resolve_in(&self, at: &[String], segments: &[String]) -> Option<Vec<String>> {
        let children = |name: &str| {
            let mut child = at.to_vec();
            child.push(name.to_owned());
            self.modules.contains(&child)
        };
        resolve(at, segments, &children)
    }

    /// The module a path from the root lands in, re-exports followed.
    fn lands(&self, path: &[String]) -> Module {
        let mut module: Module = Vec::new();
        let mut rest: Vec<String> = path.to_vec();
        let mut hops = 0;
        while let Some(next) = rest.first().cloned() {
            let mut child = module.clone();
            child.push(next.clone());
            if self.modules.contains(&child) {
                module = child;
                rest.remove(0);
                continue;
            }
            hops += 1;
            let exported =
                self.exports.get(&module).and_then(|e| e.get(&next)).cloned().or_else(|| {
                    // A glob re-export: the first globbed module that has the name as a module or
                    // an export of its own.
                    self.globs.get(&module).into_iter().flatten().find_map(|g| {
                        let mut candidate = g.clone();
                        candidate.push(next.clone());
                        let lands = self.modules.contains(&candidate)
                            || self.exports.get(g).is_some_and(|e| e.contains_key(&next));
                        lands.then_some(candidate)
                    })
                });
            match exported {
                Some(target) if hops < 16 => {
                    rest.remove(0);
                    let mut again = target;
                    again.extend(rest);
                    module = Vec::new();
                    rest = again;
                }
                _ => break,
            }
        }
        module
    }

    /// For every module, its children's imports of each other: parent, then (from, to), then
    /// where one such import is written.
    fn sibling_edges(&self) -> BTreeMap<Module, BTreeMap<(String, String), String>> {
        let mut edges: BTreeMap<Module, BTreeMap<(String, String), String>> = BTreeMap::new();
        for named in &self.named {
            let to = self.lands(&named.path);
            let common = named.from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            let (Some(a), Some(b)) = (named.from.get(common), to.get(common)) else { continue };
            edges
                .entry(named.from[..common].to_vec())
                .or_default()
                .entry((a.clone(), b.clone()))
                .or_insert_with(|| format!("{} `{}`", named.at, named.text));
        }
        edges
    }

    /// Every circle between sibling modules.
    fn circles(&self, name: &str) -> Vec<String> {
        let mut problems = Vec::new();
        for (parent, edges) in self.sibling_edges() {
            for circle in circles(&edges) {
                let steps: Vec<String> = circle
                    .windows(2)
                    .map(|w| edges[&(w[0].clone(), w[1].clone())].clone())
                    .collect();
                let place = if parent.is_empty() {
                    String::new()
                } else {
                    format!("::{}", parent.join("::"))
                };
                problems.push(format!(
                    "{name}{place}: an import circle {}: {}; modules that share a parent must \
                     not name each other in a circle: move what they share into one of them, or \
                     below them",
                    circle.join(" -> "),
                    steps.join(", ")
                ));
            }
        }
        problems
    }

    /// Every stage of `hooks-claude` naming one above it.
    fn stages(&self) -> Vec<String> {
        let rank = |m: &Module| m.first().and_then(|s| STAGES.iter().position(|t| t == s));
        let mut problems = Vec::new();
        for named in &self.named {
            let (Some(from), Some(to)) = (rank(&named.from), rank(&self.lands(&named.path))) else {
                continue;
            };
            if to > from {
                problems.push(format!(
                    "{}: `{}` names `{}`, a stage above `{}`: a stage names only itself and the \
                     stages below it ({}); move what both need down to the lower stage",
                    named.at,
                    named.text,
                    STAGES[to],
                    STAGES[from],
                    STAGES.join(" < ")
                ));
            }
        }
        problems
    }

    /// Reads a crate of the workspace (its `src`).
    fn read(name: &str) -> Self {
        let src = root().join(name).join("src");
        let mut paths = Vec::new();
        collect(&src, &mut paths);
        paths.sort();
        let files: Vec<(String, PathBuf, String)> = paths
            .iter()
            .map(|p| {
                let relative = p.strip_prefix(&src).unwrap_or(p).to_path_buf();
                let shown = p.strip_prefix(root()).unwrap_or(p).display().to_string();
                (shown, relative, fs::read_to_string(p).unwrap_or_default())
            })
            .collect();
        Crate::new(&files).unwrap_or_else(|e| panic!("{e}"))
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
fn no_crate_has_an_import_circle() {
    let mut problems = Vec::new();
    let others = ["test-support", "examples/harness-loop"];
    for name in super::crates().chain(others) {
        problems.extend(Crate::read(name).circles(name));
    }
    assert!(problems.is_empty(), "import circles:\n{}", problems.join("\n"));
}

#[test]
fn hooks_claude_stages_name_only_the_stages_below() {
    let problems = Crate::read(STAGED).stages();
    assert!(problems.is_empty(), "the layering of {STAGED} is broken:\n{}", problems.join("\n"));
}

#[test]
fn every_stage_is_a_folder_whose_mod_rs_says_what_flows_through() {
    let src = root().join(STAGED).join("src");
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
            "{STAGED}/src/{entry}: the crate root holds lib.rs and the stage folders only ({}); \
             put the file in the stage it belongs to",
            STAGES.join(", ")
        );
    }
    for stage in STAGES {
        let path = src.join(stage).join("mod.rs");
        let text = fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!("{STAGED}/src/{stage}/mod.rs is missing: every stage is a folder")
        });
        let first: Vec<&str> =
            text.lines().take_while(|l| l.starts_with("//!") && l.trim() != "//!").collect();
        assert!(
            (3..=6).contains(&first.len()),
            "{STAGED}/src/{stage}/mod.rs: its doc opens with a paragraph of three to six lines \
             saying what comes in, what goes out and what the stage may not touch (it has {})",
            first.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(files: &[(&str, &str)]) -> Crate {
        let files: Vec<(String, PathBuf, String)> = files
            .iter()
            .map(|(path, text)| {
                (
                    (*path).to_owned(),
                    Path::new(path).strip_prefix("src").unwrap().to_path_buf(),
                    (*text).to_owned(),
                )
            })
            .collect();
        Crate::new(&files).unwrap()
    }

    const LIB: &str = "mod config;\nmod wire;\nmod run;\npub use wire::decision::*;\n\
                       pub use run::env::HostEnv;\n";

    #[test]
    fn a_lower_stage_naming_a_higher_one_is_named_with_the_file_the_import_and_the_rule() {
        let problems = fixture(&[
            ("src/lib.rs", LIB),
            ("src/config/mod.rs", "mod settings;"),
            (
                "src/config/settings.rs",
                "// crate::run::env\nuse crate::{HostEnv, wire::decode};\nfn f() { let s = \"crate::run\"; }",
            ),
            ("src/wire/mod.rs", "mod decode;\nmod decision;"),
            ("src/wire/decode.rs", ""),
            ("src/wire/decision.rs", "pub struct StopDecision;"),
            ("src/run/mod.rs", "mod env;"),
            ("src/run/env.rs", "use crate::StopDecision;\npub struct HostEnv;"),
        ])
        .stages();
        assert_eq!(problems.len(), 2, "{problems:#?}");
        assert!(problems[0].starts_with("src/config/settings.rs:2: `crate::HostEnv` names `run`, a stage above `config`: a stage names only itself and the stages below it (config < wire < run < present < hooks < session < conversation < dialect)"), "{}", problems[0]);
        assert!(problems[1].starts_with("src/config/settings.rs:2: `crate::wire::decode` names `wire`, a stage above `config`"), "{}", problems[1]);
    }

    #[test]
    fn a_circle_between_siblings_is_named_with_each_step() {
        let problems = fixture(&[
            ("src/lib.rs", LIB),
            ("src/run/mod.rs", "mod command;\nmod hook;"),
            ("src/run/command.rs", "use super::hook::Hook;\nmod tests {\n    use super::*;\n}"),
            ("src/run/hook.rs", "fn f() { crate::run::command::run(); }"),
        ])
        .circles("hooks-claude");
        assert_eq!(
            problems,
            [
                "hooks-claude::run: an import circle command -> hook -> command: src/run/command.rs:1 `super::hook::Hook`, src/run/hook.rs:1 `crate::run::command::run`; modules that share a parent must not name each other in a circle: move what they share into one of them, or below them"
            ]
        );
    }

    #[test]
    fn a_circle_through_a_root_re_export_is_found() {
        let problems = fixture(&[
            ("src/lib.rs", "mod cli;\nmod dialects;\npub use cli::Args;\n"),
            ("src/cli.rs", "use crate::dialects::all;\npub struct Args;"),
            ("src/dialects.rs", "use crate::Args;\npub fn all() {}"),
        ])
        .circles("hooks-cli");
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(
            problems[0].starts_with("hooks-cli: an import circle cli -> dialects -> cli"),
            "{}",
            problems[0]
        );
    }

    #[test]
    fn test_code_may_name_anything() {
        let krate = fixture(&[
            ("src/lib.rs", LIB),
            ("src/config/mod.rs", "mod settings;"),
            (
                "src/config/settings.rs",
                "#[cfg(test)]\nmod tests {\n    use crate::HostEnv;\n}\n#[cfg(test)]\nmod more;",
            ),
            ("src/config/settings/more.rs", "use crate::HostEnv;"),
            ("src/run/mod.rs", "mod env;"),
            ("src/run/env.rs", "pub struct HostEnv;"),
        ]);
        assert_eq!(krate.stages(), Vec::<String>::new());
        assert_eq!(krate.circles("c"), Vec::<String>::new());
    }

    #[test]
    fn outside_crates_and_prelude_names_are_not_modules() {
        let krate = fixture(&[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            ("src/a.rs", "use std::fmt;\nuse serde::Serialize;\nfn f() -> Option<u8> { None }"),
            ("src/b.rs", "use super::a;\n"),
        ]);
        assert_eq!(krate.circles("c"), Vec::<String>::new());
    }
}
