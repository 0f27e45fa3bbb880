//! A plugin's hooks ([Plugins](crate::compatibility#plugins)): its `hooks/hooks.json`, and what the
//! `hooks` field of its manifest, `.claude-plugin/plugin.json`, adds: more hook files (a `./` path
//! or a list of them, inside the plugin) or hooks written inline (an object of events, as under a
//! settings file's `hooks`).

use std::path::{Component, Path, PathBuf};

use jsonc_parser::ast::Value as Ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, parse_to_ast};

use super::Loader;
use hook_protocol::text_file::{Cap, read_text};
use hook_protocol::{Diagnostic, Level, LineIndex, Position};

use crate::config::settings::{Origin, Plugin, SourceFile};

/// The manifest's path under a plugin root.
const MANIFEST: &str = ".claude-plugin/plugin.json";
/// The standard hooks file under a plugin root.
const HOOKS_FILE: &str = "hooks/hooks.json";

/// What a plugin's manifest says about it.
#[derive(Debug)]
struct Manifest {
    path: PathBuf,
    text: String,
    /// `name`.
    name: Option<String>,
    /// `hooks`.
    hooks: Option<Hooks>,
}

/// The manifest's `hooks` field.
#[derive(Debug)]
enum Hooks {
    /// Paths of more hook files, each with the position of its value.
    Files(Vec<(String, Position)>),
    /// An object of events, read from the manifest itself.
    Inline,
}

impl Loader {
    /// Reads a plugin directory: `DIR/hooks/hooks.json` and the hooks its manifest
    /// (`DIR/.claude-plugin/plugin.json`) adds, with the plugin root `DIR` and the name from
    /// the manifest (else the directory's name). A relative `DIR` is taken from the current
    /// directory: `${CLAUDE_PLUGIN_ROOT}` is always absolute, as hooks run elsewhere.
    pub fn plugin_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        let dir: PathBuf = dir.into();
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        let manifest = self.manifest(&dir);
        let name = manifest.as_ref().and_then(|m| m.name.clone()).unwrap_or_else(|| {
            dir.file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
        });
        self.plugin_with(Plugin::new(name, dir), manifest)
    }

    /// Reads a plugin's hooks: its `hooks/hooks.json` and the hooks its manifest adds.
    pub fn plugin(&mut self, plugin: Plugin) -> &mut Self {
        let manifest = self.manifest(&plugin.root);
        self.plugin_with(plugin, manifest)
    }

    fn plugin_with(&mut self, plugin: Plugin, manifest: Option<Manifest>) -> &mut Self {
        let standard = plugin.root.join(HOOKS_FILE);
        let declared = manifest.as_ref().is_some_and(|m| m.hooks.is_some());
        match read_text(&standard, Cap::CONFIG) {
            Ok(text) => {
                let source =
                    SourceFile { path: standard.clone(), origin: Origin::Plugin(plugin.clone()) };
                self.load_text(source, &text);
            }
            // The manifest's hooks may be the plugin's only ones.
            Err(e) if e.is_missing() && declared => {}
            Err(e) => {
                self.unreadable(&e);
            }
        }
        let Some(manifest) = manifest else { return self };
        match manifest.hooks {
            None => {}
            Some(Hooks::Inline) => {
                let source = SourceFile { path: manifest.path, origin: Origin::Plugin(plugin) };
                self.load_text(source, &manifest.text);
            }
            Some(Hooks::Files(files)) => {
                for (file, at) in files {
                    self.manifest_file(&plugin, &manifest.path, &file, at, &standard);
                }
            }
        }
        self
    }

    /// Loads one hook file the manifest names, after checking it is a `./` path inside the
    /// plugin and not the standard file again.
    fn manifest_file(
        &mut self,
        plugin: &Plugin,
        manifest: &Path,
        file: &str,
        at: Position,
        standard: &Path,
    ) {
        let mut problem = |severity, message: hook_protocol::Problem| {
            self.config.diagnostics.push(Diagnostic::new(manifest, at, severity, message));
        };
        let Some(relative) = file.strip_prefix("./") else {
            problem(
                Level::Error,
                hook_protocol::skipping(
                    format!("hook file `{file}` must be a path starting with `./`"),
                    hook_protocol::Skipped::File,
                    "it is not loaded",
                ),
            );
            return;
        };
        let relative = Path::new(relative);
        if relative.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
            problem(
                Level::Error,
                hook_protocol::skipping(
                    format!("hook file `{file}` must stay inside the plugin"),
                    hook_protocol::Skipped::File,
                    "it is not loaded",
                ),
            );
            return;
        }
        let path = plugin.root.join(relative);
        if path.components().eq(standard.components()) {
            problem(
                Level::Warning,
                format!("`{file}` is the plugin's standard hooks file, loaded once already").into(),
            );
            return;
        }
        match read_text(&path, Cap::CONFIG) {
            Ok(text) => {
                let source = SourceFile { path, origin: Origin::Plugin(plugin.clone()) };
                self.load_text(source, &text);
            }
            Err(e) => problem(
                Level::Error,
                hook_protocol::skipping(
                    format!("hook file `{file}` cannot be read: {e}"),
                    hook_protocol::Skipped::File,
                    "no hook from it registers",
                ),
            ),
        }
    }

    /// Reads `DIR/.claude-plugin/plugin.json`: `None` when there is none; a manifest that
    /// cannot be read or parsed is reported and gives neither a name nor hooks.
    fn manifest(&mut self, root: &Path) -> Option<Manifest> {
        let path = root.join(MANIFEST);
        let text = match read_text(&path, Cap::CONFIG) {
            Ok(text) => text,
            Err(e) if e.is_missing() => return None,
            Err(e) => {
                self.unreadable(&e);
                return None;
            }
        };
        let idx = LineIndex::new(&text);
        let mut problem = |at: Position, message: hook_protocol::Problem| {
            self.config.diagnostics.push(Diagnostic::new(&path, at, Level::Error, message));
        };
        let root_value =
            match parse_to_ast(&text, &CollectOptions::default(), &hook_kit::json::strict()) {
                Ok(parsed) => parsed.value,
                Err(e) => {
                    let at = idx.position(e.range().start);
                    problem(
                        at,
                        hook_protocol::skipping(
                            format!("invalid JSON: {}", e.kind()),
                            hook_protocol::Skipped::File,
                            "the manifest is ignored",
                        ),
                    );
                    return None;
                }
            };
        let Some(Ast::Object(object)) = root_value else {
            problem(
                Position::new(1, 1),
                hook_protocol::skipping(
                    "the manifest must be a JSON object",
                    hook_protocol::Skipped::Value,
                    "it is ignored",
                ),
            );
            return None;
        };
        let name = match object.get("name").map(|p| &p.value) {
            Some(Ast::StringLit(s)) => Some(s.value.to_string()),
            _ => None,
        };
        let hooks = match object.get("hooks").map(|p| &p.value) {
            None => None,
            Some(Ast::StringLit(s)) => {
                Some(Hooks::Files(vec![(s.value.to_string(), idx.position(s.range().start))]))
            }
            Some(Ast::Array(a)) => {
                let mut files = Vec::new();
                for e in &a.elements {
                    match e {
                        Ast::StringLit(s) => {
                            files.push((s.value.to_string(), idx.position(s.range().start)));
                        }
                        v => problem(
                            idx.position(v.range().start),
                            hook_protocol::skipping(
                                "every element of `hooks` must be a path",
                                hook_protocol::Skipped::Value,
                                "this one is ignored",
                            ),
                        ),
                    }
                }
                Some(Hooks::Files(files))
            }
            Some(Ast::Object(_)) => Some(Hooks::Inline),
            Some(v) => {
                problem(
                    idx.position(v.range().start),
                    hook_protocol::skipping(
                        "`hooks` must be a path, a list of paths or an object of events",
                        hook_protocol::Skipped::Value,
                        "it is ignored",
                    ),
                );
                None
            }
        };
        Some(Manifest { path, text, name, hooks })
    }
}
