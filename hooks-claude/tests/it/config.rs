use std::os::unix::fs::PermissionsExt;

use hook_protocol::Level;
use hooks_claude::{LoadErrors, Loader, Plugin, Scope};

use crate::support::*;

#[test]
fn a_broken_file_is_contained_and_positioned() {
    let dir = temp_dir("broken");
    let good = settings(
        serde_json::json!({"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}),
    );
    let config = Loader::new()
        .settings_text("/p/bad.json", "{\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}", Scope::User)
        .settings_text(dir.join("good.json"), &good, Scope::Project)
        .finish()
        .expect_err("a broken file is an error the harness cannot miss");
    let shown = config.to_string();
    assert_eq!(
        shown.lines().next(),
        Some("a configuration problem; the rest of the configuration loaded:")
    );
    assert!(
        shown
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("/p/bad.json:3:14: error: invalid JSON")),
        "{shown}"
    );
    assert_eq!(config.errors().count(), 1);
    let config = config.into_config();
    assert_eq!(config.entries.len(), 1, "the good file still registers");
    let d = &config.diagnostics[0];
    assert_eq!((d.line, d.column, d.level), (3, 14, Level::Error), "{d}");
    assert!(d.to_string().starts_with("/p/bad.json:3:14: error: invalid JSON"), "{d}");
}

/// (Its `http` handlers' URL and header checks need the `http` feature.)
#[cfg(feature = "http")]
#[test]
fn every_problem_is_reported_at_its_value() {
    let text = r#"{
  "hooks": {
    "preToolUse": [],
    "PreToolUse": [
      {"matcher": "(?!Bash)", "hooks": [{"type": "command", "command": "true"}]},
      {"matcher": "mcp__memory", "hooks": [
        {"type": "command", "command": "true", "timeout": 5000},
        {"type": "command", "command": "true", "timeout": -1},
        {"type": "command", "command": "true", "onFailure": "maybe"},
        {"type": "http", "url": "http://localhost/hook"},
        {"type": "http", "url": "ftp://localhost/hook"},
        {"type": "http", "url": "http://localhost/", "headers": {"bad name": "x", "X-N": 5}},
        {"type": "http", "async": true, "url": "http://localhost/async"},
        {"type": "prompt", "model": "m"},
        {"type": "agent", "prompt": "check", "continueOnBlock": true, "onFailure": "block"},
        {"type": "mcp_tool", "server": "s", "input": {"a": "${tool_input.x}"}},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": []}
      ]}
    ],
    "SessionStart": [{"hooks": [{"type": "prompt", "prompt": "x"}]}],
    "PermissionRequest": [{"hooks": [{"type": "agent", "prompt": "x"}]}],
    "Stop": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(rm *)"}]}],
    "Notification": [{"hooks": [{"type": "command", "command": "./missing-hook.sh"}]}]
  },
  "unknownKey": true,
  "allowedHttpHookUrls": "http://localhost/*"
}"#;
    let config = Loader::new()
        .settings_text("settings.json", text, Scope::Project)
        .finish()
        .unwrap_err()
        .into_config();
    let all: Vec<String> = hooks_claude::check(
        &config,
        &hooks_claude::CommandLookup::new("/p").search_path("/usr/bin:/bin"),
    )
    .iter()
    .map(ToString::to_string)
    .collect();
    insta::assert_snapshot!(all.join("\n"));
    let commands: Vec<_> =
        config.entries.iter().map(|e| (e.event.as_str(), e.handler.kind.as_str())).collect();
    assert_eq!(
        commands,
        vec![
            ("PreToolUse", "command"),
            ("PreToolUse", "http"),
            ("PreToolUse", "http"),
            ("PreToolUse", "agent"),
            ("Stop", "command"),
            ("Notification", "command")
        ],
        "only what failed is dropped"
    );
    assert!(!config.entries[2].handler.is_async, "`async` applies to commands only");
    assert_eq!(
        config.allowed_http_hook_urls,
        Some(Vec::new()),
        "an unreadable allowlist allows nothing"
    );
}

#[test]
fn disable_all_hooks_follows_precedence() {
    let hooks = settings(
        serde_json::json!({"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}),
    );
    let mut loader = Loader::new();
    loader.settings_text("user.json", r#"{"disableAllHooks": true}"#, Scope::User).settings_text(
        "project.json",
        &hooks,
        Scope::Project,
    );
    assert!(
        loader.finish().unwrap().active().next().is_none(),
        "a user true disables project hooks"
    );
    let config = Loader::new()
        .settings_text("user.json", r#"{"disableAllHooks": true}"#, Scope::User)
        .settings_text("local.json", r#"{"disableAllHooks": false}"#, Scope::Local)
        .settings_text("project.json", &hooks, Scope::Project)
        .finish()
        .unwrap();
    assert_eq!(config.active().count(), 1, "a local false overrides a user true");
    let config = Loader::new()
        .settings_text("managed.json", &hooks, Scope::Managed)
        .settings_text("project.json", r#"{"disableAllHooks": true}"#, Scope::Project)
        .finish()
        .unwrap();
    assert_eq!(config.active().count(), 1, "managed hooks keep running");
}

#[test]
fn plugin_files_take_a_description_and_the_plugin_root() {
    let text = r#"{"description": "Formatting", "hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/fmt.sh"}]}]}}"#;
    let config = Loader::new()
        .plugin_text("/plug/hooks/hooks.json", text, Plugin::new("fmt", "/plug"))
        .finish()
        .unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert_eq!(config.entries[0].source.plugin().map(|p| p.name.as_str()), Some("fmt"));
}

#[test]
fn settings_env_blocks_merge_by_precedence() {
    let config = Loader::new()
        .settings_text("p.json", r#"{"env": {"A": "project", "B": "b"}}"#, Scope::Project)
        .settings_text("u.json", r#"{"env": {"A": "user"}}"#, Scope::User)
        .finish()
        .unwrap();
    let a = config.env.iter().find(|(k, _)| k == "A").map(|(_, v)| v.as_str());
    assert_eq!(a, Some("project"));
}

/// A user, a project, a managed file and two plugins, each with one hook; `managed` is the
/// managed file's extra settings.
fn policy_config(managed: &str) -> hooks_claude::Config {
    let hooks = settings(
        serde_json::json!({"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}),
    );
    let managed = hooks.replacen('{', &format!("{{{managed}"), 1);
    let mut forced = Plugin::new("fmt", "/plugins/fmt");
    forced.marketplace = Some("acme".into());
    let other = Plugin::new("lint", "/plugins/lint");
    let mut loader = Loader::new();
    loader
        .settings_text("user.json", &hooks, Scope::User)
        .settings_text("project.json", &hooks, Scope::Project)
        .settings_text("managed.json", &managed, Scope::Managed)
        .plugin_text("/plugins/fmt/hooks/hooks.json", &hooks, forced)
        .plugin_text("/plugins/lint/hooks/hooks.json", &hooks, other);
    loader.finish().unwrap_or_else(LoadErrors::into_config)
}

/// The labels of the hooks that run.
fn running(config: &hooks_claude::Config) -> Vec<String> {
    config.active().map(|e| e.source.label()).collect()
}

#[test]
fn allow_managed_hooks_only_keeps_managed_and_force_enabled_plugin_hooks() {
    let config = policy_config(
        r#""allowManagedHooksOnly": true, "enabledPlugins": {"fmt@acme": true, "lint@acme": true},"#,
    );
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert_eq!(running(&config), ["managed.json", "plugin:fmt"]);
    assert!(config.policy.managed_hooks_only);
    assert_eq!(config.policy.forced_plugins, ["fmt@acme", "lint@acme"]);

    // Without the policy everything runs; a plugin enabled with `false` is not forced.
    let config = policy_config(r#""enabledPlugins": {"fmt@acme": false},"#);
    assert_eq!(running(&config).len(), 5);
    assert!(config.policy.forced_plugins.is_empty());
}

#[test]
fn strict_plugin_only_customization_stops_settings_hooks_but_not_plugins() {
    for value in ["true", r#"["skills", "hooks"]"#] {
        let config = policy_config(&format!(r#""strictPluginOnlyCustomization": {value},"#));
        assert_eq!(running(&config), ["managed.json", "plugin:fmt", "plugin:lint"], "{value}");
    }
    let config = policy_config(r#""strictPluginOnlyCustomization": ["skills"],"#);
    assert_eq!(running(&config).len(), 5, "a list without hooks leaves hooks alone");
}

#[test]
fn managed_policies_fail_closed_and_are_ignored_outside_managed_settings() {
    let config = policy_config(r#""allowManagedHooksOnly": "yes","#);
    assert_eq!(running(&config), ["managed.json"]);
    let error = &config.diagnostics[0];
    assert_eq!(error.message, "`allowManagedHooksOnly` must be a boolean; it is read as true");
    let config = policy_config(r#""strictPluginOnlyCustomization": 1,"#);
    assert_eq!(running(&config), ["managed.json", "plugin:fmt", "plugin:lint"]);

    let config = Loader::new()
        .settings_text("user.json", r#"{"allowManagedHooksOnly": true}"#, Scope::User)
        .finish()
        .unwrap();
    assert!(!config.policy.managed_hooks_only);
    assert!(config.diagnostics[0].message.contains("honoured in managed settings only"));
}

#[test]
fn disable_all_hooks_spares_plugins_that_managed_settings_force_enable() {
    let config = Loader::new()
        .settings_text("managed.json", r#"{"enabledPlugins": {"fmt@acme": true}}"#, Scope::Managed)
        .settings_text("project.json", r#"{"disableAllHooks": true}"#, Scope::Project)
        .plugin_text("/p/fmt/hooks/hooks.json", &stop_hooks(), {
            let mut p = Plugin::new("fmt", "/p/fmt");
            p.marketplace = Some("acme".into());
            p
        })
        .plugin_text("/p/lint/hooks/hooks.json", &stop_hooks(), Plugin::new("lint", "/p/lint"))
        .finish()
        .unwrap();
    assert_eq!(running(&config), ["plugin:fmt"]);
    // In managed settings, disableAllHooks turns off everything, forced plugins included.
    let config = Loader::new()
        .settings_text(
            "managed.json",
            r#"{"disableAllHooks": true, "enabledPlugins": {"fmt@acme": true}}"#,
            Scope::Managed,
        )
        .plugin_text("/p/fmt/hooks/hooks.json", &stop_hooks(), {
            let mut p = Plugin::new("fmt", "/p/fmt");
            p.marketplace = Some("acme".into());
            p
        })
        .finish()
        .unwrap();
    assert!(running(&config).is_empty());
}

fn stop_hooks() -> String {
    settings(serde_json::json!({"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}))
}

/// Writes `files` (relative path, text) under a fresh plugin directory named `fmt`, in a
/// temporary folder the first value keeps.
fn plugin_dir(name: &str, files: &[(&str, &str)]) -> (Scratch, std::path::PathBuf) {
    let dir = temp_dir(name);
    let root = dir.join("fmt");
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    (dir, root)
}

/// A hooks file (as `hooks/hooks.json` is) with one Stop hook running `command`.
fn hooks_file(command: &str) -> String {
    settings(serde_json::json!({"Stop": [{"hooks": [{"type": "command", "command": command}]}]}))
}

fn commands(config: &hooks_claude::Config) -> Vec<(&str, String)> {
    config
        .active()
        .map(|e| {
            let file = e.source.path.strip_prefix(&e.source.plugin().unwrap().root).unwrap();
            (e.handler.command.as_deref().unwrap(), file.display().to_string())
        })
        .collect()
}

#[test]
fn a_plugin_manifest_adds_hook_files_after_the_standard_one() {
    let (_dir, root) = plugin_dir(
        "manifest-files",
        &[
            ("hooks/hooks.json", &hooks_file("standard")),
            (
                ".claude-plugin/plugin.json",
                r#"{"name": "formatter", "hooks": ["./extra/a.json", "./extra/b.json"]}"#,
            ),
            ("extra/a.json", &hooks_file("a")),
            ("extra/b.json", &hooks_file("b")),
        ],
    );
    let config = Loader::new().plugin_dir(&root).finish().unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert_eq!(
        commands(&config),
        [
            ("standard", "hooks/hooks.json".to_owned()),
            ("a", "extra/a.json".to_owned()),
            ("b", "extra/b.json".to_owned())
        ]
    );
    assert!(config.active().all(|e| e.source.plugin().unwrap().name == "formatter"));

    // One path as a string, and no standard file: the manifest's hooks are the plugin's.
    let (_dir, root) = plugin_dir(
        "manifest-one-file",
        &[
            (".claude-plugin/plugin.json", r#"{"hooks": "./config/hooks.json"}"#),
            ("config/hooks.json", &hooks_file("only")),
        ],
    );
    let config = Loader::new().plugin_dir(&root).finish().unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    assert_eq!(commands(&config), [("only", "config/hooks.json".to_owned())]);
    assert_eq!(config.entries[0].source.plugin().unwrap().name, "fmt", "the directory's name");
}

#[test]
fn a_plugin_manifest_can_hold_hooks_inline() {
    let manifest = r#"{
  "name": "fmt",
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/inline.sh"}]}],
            "Nope": []}
}"#;
    let (_dir, root) = plugin_dir("manifest-inline", &[(".claude-plugin/plugin.json", manifest)]);
    let config = Loader::new().plugin_dir(&root).finish().unwrap();
    assert_eq!(
        commands(&config),
        [("${CLAUDE_PLUGIN_ROOT}/inline.sh", ".claude-plugin/plugin.json".to_owned())]
    );
    // Problems inside inline hooks are reported in the manifest, at their line.
    let d = &config.diagnostics[0];
    assert!(d.file.ends_with(".claude-plugin/plugin.json"));
    assert_eq!((d.line, d.column), (4, 13));
    assert!(d.message.starts_with("unknown hook event `Nope`"), "{}", d.message);
}

#[test]
fn bad_manifest_hook_paths_are_reported_at_their_value_and_skipped() {
    let manifest = r#"{"hooks": [
  "extra/no-dot.json",
  "./../outside.json",
  "./hooks/hooks.json",
  "./missing.json",
  7,
  "./extra/good.json"
]}"#;
    let (_dir, root) = plugin_dir(
        "manifest-bad",
        &[
            ("hooks/hooks.json", &hooks_file("standard")),
            (".claude-plugin/plugin.json", manifest),
            ("extra/good.json", &hooks_file("good")),
        ],
    );
    std::fs::write(root.parent().unwrap().join("outside.json"), hooks_file("outside")).unwrap();
    let config = Loader::new().plugin_dir(&root).finish().unwrap_err().into_config();
    assert_eq!(
        commands(&config),
        [("standard", "hooks/hooks.json".to_owned()), ("good", "extra/good.json".to_owned())]
    );
    let found: Vec<(usize, bool, &str)> =
        config.diagnostics.iter().map(|d| (d.line, d.is_error(), d.message.as_str())).collect();
    assert_eq!(found.len(), 5, "{found:#?}");
    assert_eq!(found[0].0, 6, "the element that is no string is reported while reading");
    assert!(found[0].2.contains("must be a path"), "{found:#?}");
    assert_eq!((found[1].0, found[1].1), (2, true));
    assert!(found[1].2.contains("must be a path starting with `./`"), "{found:#?}");
    assert_eq!((found[2].0, found[2].1), (3, true));
    assert!(found[2].2.contains("must stay inside the plugin"), "{found:#?}");
    assert_eq!((found[3].0, found[3].1), (4, false));
    assert!(found[3].2.contains("standard hooks file, loaded once already"), "{found:#?}");
    assert_eq!((found[4].0, found[4].1), (5, true));
    assert!(found[4].2.starts_with("hook file `./missing.json` cannot be read: `"), "{found:#?}");
    assert!(
        found[4].2.ends_with("missing.json` does not exist; no hook from it registers"),
        "{found:#?}"
    );
}

#[test]
fn a_broken_manifest_is_reported_and_the_standard_hooks_still_load() {
    let (_dir, root) = plugin_dir(
        "manifest-broken",
        &[
            ("hooks/hooks.json", &hooks_file("standard")),
            (".claude-plugin/plugin.json", "{\"name\": }"),
        ],
    );
    let config = Loader::new().plugin_dir(&root).finish().unwrap_err().into_config();
    assert_eq!(commands(&config), [("standard", "hooks/hooks.json".to_owned())]);
    assert_eq!(config.entries[0].source.plugin().unwrap().name, "fmt");
    let d = &config.diagnostics[0];
    assert!(d.message.starts_with("invalid JSON"), "{}", d.message);
    assert_eq!((d.line, d.column), (1, 10));
    // Without a manifest's hooks, a missing standard file is still an error.
    let (_dir, root) =
        plugin_dir("manifest-none", &[(".claude-plugin/plugin.json", r#"{"name": "x"}"#)]);
    let config = Loader::new().plugin_dir(&root).finish().unwrap_err().into_config();
    let missing = &config.diagnostics[0].message;
    assert_eq!(missing, "does not exist; no hook from it registers");
    assert!(config.diagnostics[0].file.ends_with("hooks/hooks.json"));
}

/// Built without the `http` feature (`cargo test -p hooks-claude --no-default-features`): an
/// `http` hook is a warning at its handler, and is skipped when it would run.
#[cfg(not(feature = "http"))]
#[tokio::test]
async fn without_the_http_feature_an_http_hook_is_a_load_warning_and_never_runs() {
    let dir = temp_dir("http-feature-off");
    let text = r#"{"hooks": {"Stop": [{"hooks": [
  {"type": "http", "url": "https://user:pw@hooks.example/stop"},
  {"type": "command", "command": "echo '{\"decision\": \"block\", \"reason\": \"still here\"}'"}
]}]}}"#;
    let config = Loader::new()
        .settings_text(dir.join("settings.json"), text, Scope::Project)
        .finish()
        .expect("a warning is not an error: the rest loads");
    let d = &config.diagnostics[0];
    assert_eq!((d.line, d.column, d.level), (2, 3, Level::Warning), "{d}");
    assert!(
        d.message.starts_with("`http` hooks are not built into this program (the `http` feature of hooks-claude is off)"),
        "{d}"
    );
    let engine = engine(config, &dir);
    let input = hooks_claude::input::Stop {
        base: hooks_claude::input::Base::new("s", "/t", dir.display().to_string()),
        ..Default::default()
    };
    let fired = engine.stop(&input, &mut hooks_claude::StopGuard::default()).await;
    let records = fired.records();
    assert_eq!(records[0].status, hook_protocol::HookStatus::Skipped);
    assert_eq!(records[0].command, "https://***@hooks.example/stop", "no password shown");
    assert!(records[0].message.as_deref().is_some_and(|m| m.contains("feature")));
    assert!(matches!(
        fired.decision.continuation,
        hook_protocol::Continuation::Continue { reason: Some(ref r) } if r == "still here"
    ));
}

#[test]
fn timeouts_that_look_like_a_unit_mistake_are_warned_about() {
    let text = r#"{"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "true", "timeout": 0.005},
        {"type": "command", "command": "true", "timeout": 0.01},
        {"type": "command", "command": "true", "timeout": 1000}
    ]}]}}"#;
    let config = Loader::new().settings_text("s.json", text, Scope::Project).finish().unwrap();
    let all: Vec<String> = config.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        all,
        [
            "s.json:2:59: warning: `timeout` is 0.005 seconds (5 ms); timeouts are in seconds, and \
             the hook is likely killed before it can answer",
            "s.json:4:59: warning: `timeout` is 1000 seconds (17 minutes); timeouts are in \
             seconds, not milliseconds",
        ]
    );
    assert_eq!(config.entries.len(), 3, "a warning keeps the handler");
}

#[test]
fn function_hook_modules_are_warnings_and_the_command_hooks_still_load() {
    let hooks = r#"{
  "modules": [
    "./mods/guard.js",
    {"path": "./mods/audit.mjs", "events": ["tool.call"]},
    42
  ],
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "standard"}]}]}
}"#;
    let (_dir, root) = plugin_dir("modules", &[("hooks/hooks.json", hooks)]);
    let config = Loader::new().plugin_dir(&root).finish().unwrap();
    assert_eq!(commands(&config), [("standard", "hooks/hooks.json".to_owned())]);
    let shown: Vec<String> = config
        .diagnostics
        .iter()
        .map(|d| {
            assert_eq!(d.level, hook_protocol::Level::Warning, "{d}");
            assert!(d.file.ends_with("hooks/hooks.json"), "{d}");
            format!("{}:{}: {}", d.line, d.column, d.message)
        })
        .collect();
    assert_eq!(
        shown,
        [
            "3:5: plugin `fmt`: function-hook module `./mods/guard.js` is not run (in-process JavaScript runs only inside Claude Code); the plugin's command hooks still run",
            "4:5: plugin `fmt`: function-hook module `./mods/audit.mjs` is not run (in-process JavaScript runs only inside Claude Code); the plugin's command hooks still run",
            "5:5: plugin `fmt`: a `modules` entry must be a module path or an object with `path`; it is ignored (the plugin's command hooks still load)",
        ]
    );

    let wrong = r#"{"modules": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
    let (_dir, root) = plugin_dir("modules-wrong", &[("hooks/hooks.json", wrong)]);
    let config = Loader::new().plugin_dir(&root).finish().unwrap();
    assert_eq!(commands(&config).len(), 1);
    assert_eq!(config.diagnostics.len(), 1);
    assert!(
        config.diagnostics[0].message.contains("`modules` must be a list"),
        "{:?}",
        config.diagnostics
    );
    assert_eq!((config.diagnostics[0].line, config.diagnostics[0].column), (1, 13));
}

#[test]
fn a_settings_path_that_is_no_regular_file_is_refused_by_what_it_is() {
    let dir = temp_dir("not-a-file");
    let fifo = dir.join("settings.json");
    #[expect(clippy::disallowed_methods, reason = "a test fixture: `mkfifo` makes the pipe")]
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for (path, what) in [
        (fifo.as_path(), "is a named pipe (FIFO), not a regular file"),
        (std::path::Path::new("/dev/zero"), "is a character device, not a regular file"),
        (dir.as_path(), "is a directory, not a regular file"),
    ] {
        let config =
            Loader::new().settings(path, Scope::Project).finish().unwrap_err().into_config();
        assert_eq!(config.diagnostics.len(), 1);
        let d = &config.diagnostics[0];
        assert_eq!(d.message, format!("{what}; no hook from it registers"));
        assert_eq!(d.file, path);
    }
}

#[test]
fn check_expands_home_as_the_shell_does_and_returns_every_problem_once() {
    let dir = temp_dir("check-home");
    let home = dir.join("home");
    let hooks = home.join(".claude/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let script = hooks.join("guard.sh");
    std::fs::write(&script, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The usual user-level hook, written three ways; one missing; a misspelt event name.
    let text = r#"{"hooks": {
  "PreToolUse": [{"hooks": [
    {"type": "command", "command": "~/.claude/hooks/guard.sh"},
    {"type": "command", "command": "$HOME/.claude/hooks/guard.sh --strict"},
    {"type": "command", "command": "sh ${HOME}/.claude/hooks/guard.sh"},
    {"type": "command", "command": "~/.claude/hooks/gone.sh"}
  ]}],
  "posttooluse": [{"hooks": [{"type": "command", "command": "true"}]}]
}}"#;
    // A file with only warnings loads: the warning is still in the one list.
    let config = Loader::new().settings_text("settings.json", text, Scope::User).finish().unwrap();
    let lookup =
        hooks_claude::CommandLookup::new(&dir).home(Some(home.clone())).search_path("/bin");
    let found: Vec<String> =
        hooks_claude::check(&config, &lookup).iter().map(ToString::to_string).collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("settings.json:8:3: warning: "), "{found:#?}");
    assert!(found[0].contains("posttooluse"), "{found:#?}");
    assert_eq!(
        found[1],
        format!(
            "settings.json:6:36: error: command not found: `{}` (from command \
             `~/.claude/hooks/gone.sh`)",
            hooks.join("gone.sh").display()
        )
    );
    // No home to expand `~` to: those commands are not looked up, rather than reported.
    let homeless = lookup.home(None);
    let found = hooks_claude::check(&config, &homeless);
    assert_eq!(found.len(), 1, "{found:#?}");
    // A problem found twice is reported once.
    let mut twice = config.clone();
    twice.diagnostics.extend(config.diagnostics.iter().cloned());
    assert_eq!(hooks_claude::check(&twice, &homeless).len(), 1);
}

#[test]
fn allowed_env_vars_that_are_not_a_list_of_strings_are_errors_naming_the_field() {
    let text = r#"{"hooks": {"PreToolUse": [{"hooks": [
    {"type": "http", "url": "http://127.0.0.1:9/a", "allowedEnvVars": "TOKEN"},
    {"type": "http", "url": "http://127.0.0.1:9/b", "allowedEnvVars": ["TOKEN", 7]},
    {"type": "http", "url": "http://127.0.0.1:9/c", "allowedEnvVars": ["TOKEN"]}
]}]}}"#;
    let problems =
        Loader::new().settings_text("settings.json", text, Scope::Project).finish().unwrap_err();
    let errors: Vec<String> = problems.errors().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "settings.json:2:71: error: `allowedEnvVars` must be an array of strings",
            "settings.json:3:81: error: every element of `allowedEnvVars` must be a string",
        ]
    );
    let config = problems.into_config();
    assert_eq!(config.entries.len(), 1, "the well-formed hook still loads");
}
