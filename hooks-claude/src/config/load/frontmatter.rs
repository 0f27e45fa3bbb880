//! Hooks in the YAML frontmatter of a skill (`SKILL.md`) or a sub-agent definition
//! ([Skills and sub-agents](crate::compatibility#skills-and-sub-agents)): the same structure as a
//! settings file's `hooks`. A skill's hooks live from its invocation to the end of the session
//! ([`crate::Engine::activate_skill`]); a sub-agent's run on that sub-agent's events, and its
//! `Stop` hooks are `SubagentStop` ones.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::Loader;
use crate::config::settings::{Origin, SourceFile};
use hook_protocol::text_file::{Cap, read_text};
use hook_protocol::{Diagnostic, Level, Position};

/// Which kind of definition a frontmatter belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Skill,
    Agent,
}

impl Loader {
    /// Reads the hooks of a skill's `SKILL.md`. The skill's name is its frontmatter's `name`,
    /// else the name of the directory holding the file.
    pub fn skill(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.definition_file(path.into(), Kind::Skill)
    }

    /// Reads the hooks of a skill's `SKILL.md` from text, as if from `path`.
    pub fn skill_text(&mut self, path: impl Into<PathBuf>, text: &str) -> &mut Self {
        self.definition(path.into(), text, Kind::Skill)
    }

    /// Reads the hooks of a sub-agent definition (`agents/NAME.md`). The sub-agent's name (the
    /// `agent_type` of its events) is its frontmatter's `name`, else the file's stem. Claude
    /// Code ignores the hooks of sub-agents that plugins ship; a harness does not load those.
    pub fn agent(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.definition_file(path.into(), Kind::Agent)
    }

    /// Reads the hooks of a sub-agent definition from text, as if from `path`.
    pub fn agent_text(&mut self, path: impl Into<PathBuf>, text: &str) -> &mut Self {
        self.definition(path.into(), text, Kind::Agent)
    }

    fn definition_file(&mut self, path: PathBuf, kind: Kind) -> &mut Self {
        match read_text(&path, Cap::CONFIG) {
            Ok(text) => self.definition(path, &text, kind),
            Err(e) => self.unreadable(&e),
        }
    }

    fn definition(&mut self, path: PathBuf, text: &str, kind: Kind) -> &mut Self {
        let Some((yaml, first_line)) = frontmatter(text) else { return self };
        let problem = |at: Position, message: String| {
            Diagnostic::new(
                &path,
                at,
                Level::Error,
                hook_protocol::skipping(
                    message,
                    hook_protocol::Skipped::File,
                    "no hook from it registers",
                ),
            )
        };
        let fields: Map<String, Value> = match serde_saphyr::from_str::<Option<Value>>(yaml) {
            Ok(Some(Value::Object(fields))) => fields,
            Ok(None) => return self,
            Ok(Some(_)) => {
                let d = problem(
                    Position::new(first_line, 1),
                    "the frontmatter is not a mapping".into(),
                );
                self.config.diagnostics.push(d);
                return self;
            }
            Err(e) => {
                let at = e.location().filter(|l| l.line() > 0).map_or(
                    Position::new(first_line, 1),
                    |l| {
                        let n = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
                        Position::new(first_line.saturating_add(n(l.line())) - 1, n(l.column()))
                    },
                );
                let d = problem(at, format!("invalid YAML frontmatter: {e}"));
                self.config.diagnostics.push(d);
                return self;
            }
        };
        let Some(mut hooks) = fields.get("hooks").cloned() else { return self };
        let name = match fields.get("name").and_then(Value::as_str) {
            Some(name) => name.to_owned(),
            None => default_name(&path, kind),
        };
        if kind == Kind::Agent
            && let Value::Object(events) = &mut hooks
            && let Some(Value::Array(mut stop)) = events.remove("Stop")
        {
            // A sub-agent's Stop is its SubagentStop; written both ways, both run.
            match events.get_mut("SubagentStop") {
                Some(Value::Array(groups)) => groups.append(&mut stop),
                _ => {
                    events.insert("SubagentStop".to_owned(), Value::Array(stop));
                }
            }
        }
        let origin = match kind {
            Kind::Skill => Origin::Skill { name },
            Kind::Agent => Origin::Agent { name },
        };
        // The hooks are checked as JSON; what is wrong is reported at the `hooks:` line.
        let json = serde_json::to_string_pretty(&serde_json::json!({ "hooks": hooks }))
            .unwrap_or_default();
        let at = hooks_line(yaml).map_or(first_line, |l| first_line + l);
        let before = self.config.diagnostics.len();
        self.load_text(SourceFile { path: path.clone(), origin }, &json);
        for d in &mut self.config.diagnostics[before..] {
            d.line = at;
            d.column = 1;
        }
        self
    }
}

/// The YAML between a leading `---` line and the next `---` line, with the file's line
/// number of its first line; `None` without a frontmatter.
fn frontmatter(text: &str) -> Option<(&str, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some((&rest[..offset], 2));
        }
        offset += line.len();
    }
    None
}

/// The 0-based line of the top-level `hooks:` key in the YAML.
fn hooks_line(yaml: &str) -> Option<usize> {
    yaml.lines().position(|l| l.starts_with("hooks:"))
}

/// A skill's directory name, a sub-agent file's stem.
fn default_name(path: &Path, kind: Kind) -> String {
    let name = match kind {
        Kind::Skill => path.parent().and_then(Path::file_name),
        Kind::Agent => path.file_stem(),
    };
    name.map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontmatter_is_between_the_first_two_rulers() {
        assert_eq!(frontmatter("---\nname: x\n---\nbody"), Some(("name: x\n", 2)));
        assert_eq!(frontmatter("---\r\nname: x\r\n---\r\n"), Some(("name: x\r\n", 2)));
        assert_eq!(frontmatter("\u{feff}---\n---\n"), Some(("", 2)));
        assert_eq!(frontmatter("# no frontmatter\n---\n"), None);
        assert_eq!(frontmatter("---\nname: x\n"), None, "never closed");
        assert_eq!(hooks_line("name: x\nhooks:\n  Stop: []\n"), Some(1));
    }
}
