//! The skill a Skill tool call runs, and where Claude Code finds it.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// The name of the tool that runs skills.
pub(crate) const SKILL_TOOL: &str = "Skill";

/// The skill a tool call runs, when it is a Skill call: its `skill` input (`command` in
/// older releases), without a leading `/`.
pub(crate) fn invoked(input: &Map<String, Value>) -> Option<String> {
    if input.get("tool_name").and_then(Value::as_str) != Some(SKILL_TOOL) {
        return None;
    }
    let args = input.get("tool_input")?;
    let name = args.get("skill").or_else(|| args.get("command")).and_then(Value::as_str)?;
    let name = name.trim().trim_start_matches('/');
    (!name.is_empty()).then(|| name.to_owned())
}

/// The `SKILL.md` of skill `name`, where Claude Code looks for it: the project's
/// `.claude/skills/<name>/`, then the user's `<claude home>/skills/<name>/`. A name that is
/// not one path component (a plugin's `plugin:skill`, anything with a `/`) is not looked up.
pub(crate) fn find(project: &Path, claude_home: &Path, name: &str) -> Option<PathBuf> {
    if name.contains(['/', '\\', ':']) || name == "." || name == ".." {
        return None;
    }
    [project.join(".claude/skills"), claude_home.join("skills")]
        .into_iter()
        .map(|dir| dir.join(name).join("SKILL.md"))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(tool: &str, input: Value) -> Map<String, Value> {
        let Value::Object(m) = json!({"tool_name": tool, "tool_input": input}) else {
            unreachable!()
        };
        m
    }

    #[test]
    fn the_skill_of_a_call() {
        assert_eq!(invoked(&call("Skill", json!({"skill": "fmt"}))).as_deref(), Some("fmt"));
        assert_eq!(invoked(&call("Skill", json!({"command": "/fmt"}))).as_deref(), Some("fmt"));
        assert_eq!(invoked(&call("Bash", json!({"skill": "fmt"}))), None);
        assert_eq!(invoked(&call("Skill", json!({"skill": " "}))), None);
    }

    #[test]
    fn names_that_are_not_one_component_are_not_looked_up() {
        let dir = std::env::temp_dir();
        assert_eq!(find(&dir, &dir, "../x"), None);
        assert_eq!(find(&dir, &dir, "plugin:x"), None);
        assert_eq!(find(&dir, &dir, ".."), None);
    }
}
