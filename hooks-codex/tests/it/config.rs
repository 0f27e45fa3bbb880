//! Codex's files and layers, TOML `[hooks]` tables, problems at their positions, and the trust
//! rule.

use hook_protocol::Level;
use hooks_codex::{EventName, Loader, Reviews, Scope, Trust, discover};

use crate::support::*;

#[test]
fn toml_hooks_read_like_hooks_json() {
    let p = Project::new();
    let toml = p.path().join(".codex/config.toml");
    let text = "model = \"gpt-5.5\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout_sec = 30\n\n[hooks.state.\"x\"]\nenabled = true\n";
    std::fs::write(&toml, text).unwrap();
    let mut loader = Loader::new().trust_all(true);
    loader.config_toml(&toml, Scope::Project);
    let config = loader.finish();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert_eq!(config.entries.len(), 1);
    let e = &config.entries[0];
    assert_eq!((e.event, e.command.as_str()), (EventName::PreToolUse, "./guard.sh"));
    assert_eq!(e.timeout.as_secs(), 30);
    assert_eq!(e.matcher_raw.as_deref(), Some("Bash"));
    assert_eq!(e.position.line, 6, "the handler's table");
}

#[test]
fn problems_are_reported_at_their_line_and_column() {
    let p = Project::new();
    let path = p.path().join(".codex/hooks.json");
    let text = r#"{
  "hooks": {
    "preToolUse": [{"hooks": [{"type": "command", "command": "a"}]}],
    "Stop": [{"matcher": "x", "hooks": [{"type": "prompt"}, {"type": "command", "command": "b", "colour": 1}]}],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "c", "timeout": "soon"}]}]
  }
}"#;
    let mut loader = Loader::new();
    loader.hooks_json_text(&path, text, Scope::Project);
    let config = loader.finish();
    let seen: Vec<String> = config
        .diagnostics
        .iter()
        .map(|d| format!("{}:{} {}: {}", d.line, d.column, d.level.as_str(), d.message))
        .collect();
    assert_eq!(
        seen,
        [
            "3:5 warning: unknown Codex event `preToolUse` (did you mean `PreToolUse`? event names are case-sensitive); its hooks are skipped",
            "4:26 warning: `Stop` ignores matchers; this one has no effect",
            "4:41 warning: `prompt` hooks are not supported by Codex yet; skipped",
            "4:97 warning: unknown key `colour` in a hook",
            "5:79 error: `timeout` has the wrong type (a string); this hook is skipped",
        ]
    );
    assert_eq!(config.entries.len(), 1, "only Stop's command hook loads");
}

#[test]
fn an_unknown_top_level_key_makes_codex_refuse_the_file() {
    let mut loader = Loader::new();
    let text =
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "b"}]}]}, "version": 1}"#;
    loader.hooks_json_text("/p/.codex/hooks.json", text, Scope::Project);
    let config = loader.finish();
    assert!(config.entries.is_empty());
    assert_eq!(config.diagnostics[0].level, Level::Error);
    assert!(config.diagnostics[0].message.starts_with("unknown key `version`"));
}

#[test]
fn only_reviewed_hooks_that_did_not_change_run_unless_managed() {
    let p = Project::new();
    let path = p.hooks_json(on("PreToolUse", Some("Bash"), "./guard.sh"));
    let probe = {
        let mut l = Loader::new();
        l.hooks_json(&path, Scope::User);
        l.finish().entries.remove(0)
    };
    assert_eq!(probe.trust, Trust::Untrusted);
    assert!(!probe.trust.runs());
    let reviewed: toml::Table =
        format!("[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n", probe.key, probe.hash)
            .parse()
            .unwrap();
    let trusted = |path: &std::path::Path, layer| {
        let mut l = Loader::new().reviews(Reviews::from_config(&reviewed));
        l.hooks_json(path, layer);
        l.finish().entries.remove(0).trust
    };
    assert_eq!(trusted(&path, Scope::User), Trust::Trusted);
    // The command changes: the review no longer holds.
    std::fs::write(
        &path,
        serde_json::to_string(
            &serde_json::json!({"hooks": on("PreToolUse", Some("Bash"), "./other.sh")}),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(trusted(&path, Scope::User), Trust::Modified);
    assert!(Trust::Modified.why_not().unwrap().contains("changed since it was trusted"));
    assert_eq!(trusted(&path, Scope::Managed), Trust::Managed);
}

#[test]
fn a_project_is_read_only_once_trusted() {
    let p = Project::new();
    p.hooks_json(on("Stop", None, "echo"));
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("hooks.json"), r#"{"hooks": {}}"#).unwrap();
    let none = discover(Some(home.path()), p.path(), &Reviews::default());
    assert_eq!(none, [(home.path().join("hooks.json"), Scope::User)]);
    let trusted: toml::Table =
        format!("[projects.\"{}\"]\ntrust_level = \"trusted\"\n", p.path().display())
            .parse()
            .unwrap();
    let found = discover(Some(home.path()), p.path(), &Reviews::from_config(&trusted));
    assert_eq!(found.last(), Some(&(p.path().join(".codex/hooks.json"), Scope::Project)));
}
