//! A plugin's hooks: the manifest's `hooks` in each of its forms, else `hooks/hooks.json`; the
//! plugin's id, data folder and review keys; what its hooks are told; its bad manifests.

use hook_protocol::Level;
use hooks_codex::{Engine, EventName, Loader, Reviews, Scope, Trust};
use serde_json::json;

use crate::support::*;

/// Writes `text` at `path` under `root`, making its folders.
fn write(root: &std::path::Path, path: &str, text: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

fn hooks(event: &str, command: &str) -> String {
    json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}}).to_string()
}

#[tokio::test]
async fn a_plugins_default_hooks_run_told_where_the_plugin_and_its_data_are() {
    let p = Project::new();
    let plugin = p.path().join("guard");
    let seen = p.path().join("seen.txt");
    write(&plugin, ".codex-plugin/plugin.json", r#"{"name": "guard", "version": "1.0.0"}"#);
    write(
        &plugin,
        "hooks/hooks.json",
        &hooks(
            "PreToolUse",
            &format!(
                "cat > /dev/null; printf '%s\\n' \"$PLUGIN_ROOT\" \"$CLAUDE_PLUGIN_ROOT\" \
                 \"$PLUGIN_DATA\" \"$CLAUDE_PLUGIN_DATA\" > '{}'",
                seen.display()
            ),
        ),
    );
    let home = p.path().join("codex-home");
    let mut loader = Loader::new().trust_all(true);
    loader.plugin(&plugin, Some(&home));
    let config = loader.finish();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    let entry = &config.entries[0];
    assert_eq!(entry.source.scope, Scope::Plugin);
    assert_eq!(entry.key, "guard@local:hooks/hooks.json:pre_tool_use:0:0");
    let data = home.join("plugins/data/local/guard");
    assert_eq!(entry.source.plugin.as_ref().unwrap().data, data);

    let engine = Engine::new(config, p.path(), None).unwrap();
    let run = engine.run_json(EventName::PreToolUse, bash("ls")).await;
    assert!(!run.report.records[0].status.is_failure(), "{:?}", run.report.records[0]);
    let lines: Vec<String> =
        std::fs::read_to_string(&seen).unwrap().lines().map(str::to_owned).collect();
    let root = plugin.display().to_string();
    let data = data.display().to_string();
    assert_eq!(lines, [root.clone(), root, data.clone(), data]);
}

#[test]
fn the_manifests_hooks_in_each_form() {
    let p = Project::new();
    let plugin = p.path().join("multi");
    write(&plugin, "hooks/hooks.json", &hooks("Stop", "never-read"));
    write(&plugin, "extra/a.json", &hooks("PreToolUse", "a"));
    write(&plugin, "extra/b.json", &hooks("PostToolUse", "b"));
    let load = |manifest: serde_json::Value| {
        write(&plugin, ".codex-plugin/plugin.json", &manifest.to_string());
        let mut loader = Loader::new().trust_all(true);
        loader.plugin(&plugin, Some(p.path()));
        let config = loader.finish();
        assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
        config.entries.iter().map(|e| (e.command.clone(), e.key.clone())).collect::<Vec<_>>()
    };
    let pair = |c: &str, k: &str| (c.to_owned(), k.to_owned());
    assert_eq!(
        load(json!({"name": "multi", "hooks": "./extra/a.json"})),
        [pair("a", "multi@local:extra/a.json:pre_tool_use:0:0")],
        "a path: the default file is not read"
    );
    assert_eq!(
        load(json!({"name": "multi", "hooks": ["extra/a.json", "extra/b.json"]})),
        [
            pair("a", "multi@local:extra/a.json:pre_tool_use:0:0"),
            pair("b", "multi@local:extra/b.json:post_tool_use:0:0"),
        ]
    );
    let inline = |event: &str, command: &str| -> serde_json::Value {
        serde_json::from_str(&hooks(event, command)).unwrap()
    };
    assert_eq!(
        load(json!({"name": "multi", "hooks": inline("Stop", "s")})),
        [pair("s", "multi@local:plugin.json#hooks[0]:stop:0:0")]
    );
    assert_eq!(
        load(json!({"name": "multi", "hooks": [inline("Stop", "s"), inline("Stop", "t")]})),
        [
            pair("s", "multi@local:plugin.json#hooks[0]:stop:0:0"),
            pair("t", "multi@local:plugin.json#hooks[1]:stop:0:0"),
        ]
    );
    assert_eq!(
        load(json!({"name": "multi"})),
        [pair("never-read", "multi@local:hooks/hooks.json:stop:0:0")],
        "no `hooks`: the default file"
    );
}

#[test]
fn an_installed_plugin_is_named_by_its_marketplace_and_reviewed_by_its_id() {
    let home = Project::new();
    let plugin = home.path().join("plugins/cache/acme/lint/1.2.0");
    write(&plugin, "hooks/hooks.json", &hooks("Stop", "lint"));
    let mut loader = Loader::new();
    loader.plugin(&plugin, Some(home.path()));
    let config = loader.finish();
    let entry = &config.entries[0];
    let p = entry.source.plugin.as_ref().unwrap();
    assert_eq!(p.id, "lint@acme");
    assert_eq!(p.data, home.path().join("plugins/data/acme/lint"));
    assert_eq!(entry.key, "lint@acme:hooks/hooks.json:stop:0:0");
    assert_eq!(entry.trust, Trust::Untrusted, "a plugin's hook runs once reviewed");

    let review = format!(
        "[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\nenabled = true\n",
        entry.key, entry.hash
    );
    let reviews = Reviews::from_config(&review.parse().unwrap());
    let mut loader = Loader::new().reviews(reviews);
    loader.plugin(&plugin, Some(home.path()));
    assert_eq!(loader.finish().entries[0].trust, Trust::Trusted);
}

#[test]
fn bad_manifests_are_reported_where_they_are_wrong() {
    let p = Project::new();
    let plugin = p.path().join("bad");
    let problems = |manifest: Option<&str>| {
        let _ = std::fs::remove_dir_all(&plugin);
        std::fs::create_dir_all(&plugin).unwrap();
        if let Some(text) = manifest {
            write(&plugin, ".codex-plugin/plugin.json", text);
        }
        let mut loader = Loader::new();
        loader.plugin(&plugin, Some(p.path()));
        let config = loader.finish();
        assert!(config.entries.is_empty());
        config
            .diagnostics
            .iter()
            .map(|d| (d.level, d.line, d.column, d.message.clone()))
            .collect::<Vec<_>>()
    };
    let found = problems(Some("{\n  \"name\": \"bad\",\n  \"hooks\": 3\n}"));
    assert_eq!((found[0].0, found[0].1, found[0].2), (Level::Error, 3, 12), "{found:?}");
    assert!(found[0].3.contains("`hooks` must be a path"), "{found:?}");

    let found = problems(Some("{\"name\": \"bad\",}"));
    assert_eq!(found[0].0, Level::Error, "{found:?}");
    assert!(found[0].3.contains("invalid JSON"), "{found:?}");

    let found = problems(Some(r#"{"name": "bad", "hooks": "missing.json"}"#));
    assert_eq!(found[0].0, Level::Error, "{found:?}");
    assert!(found[0].3.contains("missing.json"), "{found:?}");

    let found = problems(None);
    assert_eq!(found[0].0, Level::Warning, "{found:?}");
    assert!(found[0].3.contains("plugin `bad` has no hooks"), "{found:?}");
}
