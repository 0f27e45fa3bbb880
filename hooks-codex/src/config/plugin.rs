//! A Codex plugin's hooks: its manifest's `hooks` (a path, paths, an inline hooks file or
//! several), else its `hooks/hooks.json`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::{Diagnostic, LineIndex, Position};

use super::node::{self, Node, Shape};
use super::{Loader, Scope, SourceFile, read};

/// A plugin whose hooks a configuration holds: what its hooks are told of it, and how Codex
/// keys their reviews.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Plugin {
    /// Its id, `<name>@<marketplace>` (`@local` for a plugin outside Codex's plugin cache).
    pub id: String,
    /// Its folder (`PLUGIN_ROOT`, `CLAUDE_PLUGIN_ROOT`).
    pub root: PathBuf,
    /// Its data folder (`PLUGIN_DATA`, `CLAUDE_PLUGIN_DATA`):
    /// `<codex home>/plugins/data/<marketplace>/<name>`.
    pub data: PathBuf,
    /// Where in the plugin these hooks are written (`hooks/hooks.json`,
    /// `plugin.json#hooks[0]`): with the id, the start of their review keys.
    pub relative: String,
}

/// The manifest, relative to the plugin's folder.
const MANIFEST: &str = ".codex-plugin/plugin.json";
/// The hooks file of a plugin whose manifest names none.
const DEFAULT_HOOKS: &str = "hooks/hooks.json";

/// The plugin's name and marketplace: the manifest's `name`, else the folder's; the
/// marketplace from Codex's cache layout (`plugins/cache/<marketplace>/<name>/<version>`), else
/// `local`.
fn identity(root: &Path, manifest_name: Option<&str>) -> (String, String) {
    let folder = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut parts = root.ancestors().skip(1);
    let (name_dir, market_dir, cache) = (parts.next(), parts.next(), parts.next());
    let cached = cache.and_then(folder).as_deref() == Some("cache");
    let name = manifest_name
        .map(str::to_owned)
        .or_else(|| if cached { name_dir.and_then(folder) } else { folder(root) })
        .unwrap_or_else(|| "plugin".to_owned());
    let market = if cached { market_dir.and_then(folder) } else { None };
    (name, market.unwrap_or_else(|| "local".to_owned()))
}

impl Loader {
    /// Reads the hooks of the plugin in `dir`, as Codex does for an installed plugin: the
    /// manifest's (`.codex-plugin/plugin.json`) `hooks` when it has them, else
    /// `hooks/hooks.json`. Its hooks get `PLUGIN_ROOT` and `PLUGIN_DATA` (and their
    /// `CLAUDE_` twins); their reviews are keyed by the plugin's id. `codex_home` holds the
    /// plugin's data folder (without one, the plugin's own `data` folder). A manifest that cannot be read is an error naming it; a plugin
    /// without hooks, a warning.
    pub fn plugin(&mut self, dir: impl Into<PathBuf>, codex_home: Option<&Path>) {
        let root = std::path::absolute(dir.into()).unwrap_or_default();
        let manifest_path = root.join(MANIFEST);
        let manifest = if manifest_path.is_file() {
            match read::file_text(&manifest_path)
                .map_err(|message| (Position::default(), message))
                .and_then(|text| parse(&text))
            {
                Ok(node) => Some(node),
                Err((at, message)) => {
                    self.config.diagnostics.push(Diagnostic::error(
                        &manifest_path,
                        at,
                        format!("{message}; no hook of this plugin runs"),
                    ));
                    return;
                }
            }
        } else {
            None
        };
        let field = |name: &str| match manifest.as_ref().map(|m| &m.value) {
            Some(Shape::Table(keys)) => keys.iter().find(|(k, _, _)| k == name).map(|(_, _, v)| v),
            _ => None,
        };
        let manifest_name = field("name").and_then(|n| match &n.value {
            Shape::Text(t) if !t.trim().is_empty() => Some(t.clone()),
            _ => None,
        });
        let (name, market) = identity(&root, manifest_name.as_deref());
        let data = match codex_home {
            Some(home) => home.join("plugins/data").join(&market).join(&name),
            None => root.join("data"),
        };
        let plugin = |relative: String| Plugin {
            id: format!("{name}@{market}"),
            root: root.clone(),
            data: data.clone(),
            relative,
        };
        let files: Vec<PathBuf> = match field("hooks").map(|h| &h.value) {
            None => {
                let default = root.join(DEFAULT_HOOKS);
                if !default.is_file() {
                    self.config.diagnostics.push(Diagnostic::warning(
                        &root,
                        Position::default(),
                        format!("plugin `{name}` has no hooks ({MANIFEST} names none, and there is no {DEFAULT_HOOKS})"),
                    ));
                    return;
                }
                vec![default]
            }
            Some(Shape::Text(path)) => vec![root.join(path)],
            Some(Shape::List(items)) if items.iter().all(|i| matches!(i.value, Shape::Text(_))) => {
                items
                    .iter()
                    .filter_map(|i| match &i.value {
                        Shape::Text(path) => Some(root.join(path)),
                        _ => None,
                    })
                    .collect()
            }
            Some(Shape::Table(_)) => {
                if let Some(hooks) = field("hooks") {
                    self.inline(&manifest_path, hooks, plugin("plugin.json#hooks[0]".to_owned()));
                }
                return;
            }
            Some(Shape::List(items))
                if items.iter().all(|i| matches!(i.value, Shape::Table(_))) =>
            {
                for (index, item) in items.iter().enumerate() {
                    self.inline(
                        &manifest_path,
                        item,
                        plugin(format!("plugin.json#hooks[{index}]")),
                    );
                }
                return;
            }
            Some(_) => {
                let at = field("hooks").map_or(Position::default(), |h| h.at);
                self.config.diagnostics.push(Diagnostic::error(
                    &manifest_path,
                    at,
                    format!(
                        "`hooks` must be a path, a list of paths, a hooks object or a list of \
                         hooks objects, found {}; no hook of this plugin runs",
                        field("hooks").map_or("nothing", Node::kind)
                    ),
                ));
                return;
            }
        };
        for file in files {
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .to_string_lossy()
                .trim_start_matches("./")
                .to_owned();
            let text = match read::file_text(&file) {
                Ok(text) => text,
                Err(message) => {
                    self.config.diagnostics.push(Diagnostic::error(
                        &file,
                        Position::default(),
                        format!("{message}; no hook from it runs"),
                    ));
                    continue;
                }
            };
            match parse(&text) {
                Ok(node) => {
                    let source = Arc::new(SourceFile {
                        path: std::path::absolute(&file).unwrap_or(file),
                        scope: Scope::Plugin,
                        plugin: Some(plugin(relative)),
                    });
                    let hooks =
                        read::file_hooks(&source, &node, false, &mut self.config.diagnostics);
                    self.add(&source, hooks);
                }
                Err((at, message)) => self.error(&file, at, &message),
            }
        }
    }

    /// An inline hooks object of a plugin's manifest.
    fn inline(&mut self, manifest: &Path, node: &Node, plugin: Plugin) {
        let source = Arc::new(SourceFile {
            path: manifest.to_path_buf(),
            scope: Scope::Plugin,
            plugin: Some(plugin),
        });
        let hooks = read::file_hooks(&source, node, false, &mut self.config.diagnostics);
        self.add(&source, hooks);
    }
}

/// A JSON document as Codex's parser takes it, or where and why it is not one.
fn parse(text: &str) -> Result<Node, (Position, String)> {
    let idx = LineIndex::new(text);
    match jsonc_parser::parse_to_ast(
        text,
        &jsonc_parser::CollectOptions::default(),
        &hook_kit::json::strict(),
    ) {
        Ok(parsed) => match parsed.value {
            Some(ast) => Ok(node::from_json(&ast, &idx)),
            None => Err((Position::new(1, 1), "the file is empty".to_owned())),
        },
        Err(e) => Err((idx.position(e.range().start), format!("invalid JSON: {}", e.kind()))),
    }
}
