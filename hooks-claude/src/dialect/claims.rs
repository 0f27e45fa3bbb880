//! Which files are Claude Code's, by their place and their shape.

use std::path::{Path, PathBuf};

use hook_protocol::Claim;
use serde_json::Value;

/// The plugin a `hooks/hooks.json` or `.claude-plugin/plugin.json` belongs to: its root. A
/// repository's `.github/hooks/hooks.json` is Copilot's place, not a plugin's.
pub(super) fn plugin_root(path: &Path) -> Option<&Path> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let parent = path.parent().and_then(Path::file_name).and_then(|n| n.to_str());
    let root = match (name, parent) {
        ("hooks.json", Some("hooks")) | ("plugin.json", Some(".claude-plugin")) => {
            path.parent().and_then(Path::parent)
        }
        _ => None,
    };
    root.filter(|r| r.file_name().is_none_or(|n| n != ".github"))
}

/// The project a file belongs to: the folder above the nearest `.claude/` folder holding it.
pub(super) fn project_of(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    absolute
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == ".claude"))
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

/// How surely `path`, holding `text`, is a Claude Code file: a settings file, a plugin's
/// `hooks.json` or manifest, a skill or sub-agent file are where Claude Code reads them; any
/// other JSON object whose `hooks` is an object keyed by event has the shape of one, and any
/// other JSON file could be one.
pub(super) fn claims(path: &Path, text: &str) -> Claim {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let in_claude = project_of(path).is_some();
    let markdown = path.extension().is_some_and(|e| e == "md");
    if plugin_root(path).is_some()
        || (in_claude && (name.starts_with("settings") || markdown))
        || name == "SKILL.md"
    {
        return Claim::Place;
    }
    if markdown {
        return Claim::Shape;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => match map.get("hooks") {
            Some(Value::Object(_)) => Claim::Shape,
            // A settings file without hooks is still a settings file.
            None if name.ends_with(".json") => Claim::Possible,
            _ => Claim::No,
        },
        // A file that does not parse: Claude Code's loader says why, at its position.
        Err(_) if name.ends_with(".json") => Claim::Possible,
        _ => Claim::No,
    }
}
