//! Loading as Copilot loads: its places and order, and every entry it would skip said.

use hooks_copilot::{Command, Loader, Scope};
use serde_json::json;

use crate::support::{Project, problems};

#[test]
fn files_run_in_descending_name_order_user_before_repo() {
    let p = Project::new();
    for name in ["0.json", "a.json", "z.json", "m.json"] {
        let stem = name.trim_end_matches(".json");
        p.hook_file(name, &json!({"preToolUse": [{"bash": format!("echo {stem}")}]}));
    }
    let home = p.root.join("home");
    std::fs::create_dir_all(home.join("hooks")).unwrap();
    let user = json!({"version": 1, "hooks": {"preToolUse": [{"bash": "echo user"}]}});
    std::fs::write(home.join("hooks/u.json"), user.to_string()).unwrap();
    std::fs::create_dir_all(p.root.join(".github/copilot")).unwrap();
    let settings =
        json!({"model": "gpt-4.1", "hooks": {"preToolUse": [{"bash": "echo settings"}]}});
    std::fs::write(p.root.join(".github/copilot/settings.json"), settings.to_string()).unwrap();
    let found = hooks_copilot::discover(Some(&home), &p.root);
    let mut loader = Loader::new();
    for (path, place) in &found {
        loader.file(path, *place);
    }
    let config = loader.finish();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    let order: Vec<String> = config.entries.iter().map(|e| e.command.label()).collect();
    assert_eq!(order, ["echo user", "echo z", "echo m", "echo a", "echo 0", "echo settings"]);
    let places: Vec<Scope> = found.iter().map(|(_, place)| *place).collect();
    assert_eq!(places.first(), Some(&Scope::User));
    assert_eq!(places.last(), Some(&Scope::Settings));
    assert!(
        {
            let source = &config.entries.last().unwrap().source;
            source.scope.hook_dir(&source.path).is_none()
        },
        "no COPILOT_HOOK_DIR"
    );
}

#[test]
fn entries_copilot_skips_are_warnings_and_the_rest_loads() {
    let text = r#"{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"bash": "echo ok", "timeoutSec": 5},
      {"bash": "echo a", "timeoutSec": "5"},
      {"bash": "echo b", "matcher": ""},
      {"bash": "echo c", "matcher": "*"},
      {"powershell": "Write-Output d"},
      {"type": "http", "url": "https://example.com"},
      {"exec": "/bin/echo", "args": ["one arg", "two"], "colour": "blue"}
    ],
    "PreToolUse": [],
    "agentstop": []
  }
}"#;
    let shown = problems(std::path::Path::new("/p/.github/hooks/h.json"), text);
    assert_eq!(
        shown,
        [
            "6:40: warning: preToolUse[1]: `timeoutSec` must be a number, found a string; the hook is skipped, as Copilot skips it",
            "7:37: warning: preToolUse[2]: `matcher` cannot be empty; the hook is skipped, as Copilot skips it",
            "8:37: warning: preToolUse[3]: invalid matcher regex `*`: repetition operator missing expression; the hook is skipped, as Copilot skips it",
            "10:16: warning: preToolUse[5]: `http` hooks are not run by this runner; the hook is skipped",
            "11:57: warning: preToolUse[6]: unknown key `colour`",
            "13:5: warning: unknown Copilot event `PreToolUse` (did you mean `preToolUse`? Copilot's event names are camelCase); its hooks are skipped",
            "14:5: warning: unknown Copilot event `agentstop` (did you mean `agentStop`? Copilot's event names are camelCase); its hooks are skipped",
        ]
    );
    let mut loader = Loader::new();
    loader.text("/p/.github/hooks/h.json", text, Scope::Repo);
    let config = loader.finish();
    let commands: Vec<&Command> = config.entries.iter().map(|e| &e.command).collect();
    assert_eq!(
        commands,
        [
            &Command::Bash("echo ok".into()),
            // Not skipped: Copilot starts PowerShell for it (copilot.md, Process execution).
            &Command::PowerShell("Write-Output d".into()),
            &Command::Exec {
                program: "/bin/echo".into(),
                args: vec!["one arg".into(), "two".into()]
            }
        ]
    );
    assert_eq!(config.entries[0].timeout, std::time::Duration::from_secs(5));
}

#[test]
fn a_claude_code_file_loads_as_copilot_runs_it_and_bad_json_says_where() {
    // A file of Claude Code's shape in Copilot's place: its hooks are Copilot's, of Claude
    // Code's form (copilot.md, Claude Code's files).
    let claude = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}"#;
    assert_eq!(
        problems(std::path::Path::new("/p/.github/hooks/cc.json"), claude),
        Vec::<String>::new()
    );
    let mut loader = Loader::new();
    loader.text("/p/.github/hooks/cc.json", claude, Scope::Repo);
    let config = loader.finish();
    assert_eq!(config.entries.len(), 1);
    assert_eq!(config.entries[0].event, hooks_copilot::EventName::PreToolUse);
    assert_eq!(config.entries[0].form, hooks_copilot::Form::Claude);
    let broken = "{\"version\": 1,\n \"hooks\": {,}}";
    let shown = problems(std::path::Path::new("/p/.github/hooks/b.json"), broken);
    assert_eq!(
        shown,
        ["2:12: error: invalid JSON: key must be a string; no hook from this file runs"]
    );
    let unversioned = r#"{"hooks": {"agentStop": [{"bash": "true"}]}}"#;
    let shown = problems(std::path::Path::new("/p/.github/hooks/u.json"), unversioned);
    assert_eq!(
        shown,
        [
            "1:1: warning: a Copilot hook file starts with `\"version\": 1`; the file is read as version 1"
        ]
    );
}

#[tokio::test]
async fn a_plugins_hooks_run_after_the_others_told_where_the_plugin_is() {
    use hooks_copilot::{Engine, EventName};

    let p = Project::new();
    let seen = p.root.join("seen.txt");
    let record = p.script(
        "record.sh",
        &format!(
            "cat > /dev/null; printf '%s\\n' \"$PLUGIN_ROOT\" \"$CLAUDE_PLUGIN_ROOT\" \"$COPILOT_HOOK_DIR\" >> '{}'",
            seen.display()
        ),
    );
    // One plugin with `hooks.json` at its top, one with `hooks/hooks.json`.
    let (flat, nested) = (p.root.join("flat"), p.root.join("nested"));
    std::fs::create_dir_all(&flat).unwrap();
    std::fs::create_dir_all(nested.join("hooks")).unwrap();
    let file = serde_json::json!({"version": 1, "hooks": {"sessionStart": [{"bash": record}]}});
    std::fs::write(flat.join("hooks.json"), file.to_string()).unwrap();
    std::fs::write(nested.join("hooks/hooks.json"), file.to_string()).unwrap();
    let mut loader = Loader::new();
    loader.plugin(&flat).plugin(&nested).plugin(p.root.join(".github"));
    let config = loader.finish();
    let warnings: Vec<String> = config.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(warnings, ["this plugin has no hooks (no hooks.json, no hooks/hooks.json)"]);
    assert!(config.entries.iter().all(|e| e.source.scope == Scope::Plugin));
    let engine = Engine::new(config, &p.root, None).unwrap();
    engine.run_json(EventName::SessionStart, test_support::object(serde_json::json!({}))).await;
    let lines: Vec<String> =
        std::fs::read_to_string(&seen).unwrap().lines().map(str::to_owned).collect();
    let (f, n) = (flat.display().to_string(), nested.display().to_string());
    let nested_hooks = nested.join("hooks").display().to_string();
    assert_eq!(lines, [f.clone(), f.clone(), f, n.clone(), n, nested_hooks]);
}
