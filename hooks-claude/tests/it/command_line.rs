//! The command line of a hook: `CLAUDE_CODE_SHELL_PREFIX` and plugin `${user_config.*}`.

use hook_protocol::HookStatus;
use hooks_claude::input::{Base, UserPromptSubmit};
use hooks_claude::{Engine, HostEnv, Loader, Plugin, Scope};
use serde_json::json;

use crate::support::*;

fn prompt(dir: &std::path::Path) -> UserPromptSubmit {
    UserPromptSubmit {
        base: Base::new("s-1", "/t.jsonl", dir.display().to_string()),
        prompt: "hi".into(),
        ..UserPromptSubmit::default()
    }
}

#[tokio::test]
async fn the_shell_prefix_wraps_shell_form_hooks_only() {
    let dir = temp_dir("prefix");
    let wrapper = dir.join("wrap.sh");
    let log = dir.join("wrapped.log");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\nexec /bin/sh -c \"$1\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    let shell_line =
        format!("echo \"it's $CLAUDE_PROJECT_DIR\" > '{}'", dir.join("shell.out").display());
    let text = settings(json!({"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": shell_line},
        {"type": "command", "command": "/bin/sh", "args": ["-c", format!("echo exec > '{}'", dir.join("exec.out").display())]},
    ]}]}));
    let mut host = HostEnv::new(&dir);
    host.shell_prefix = Some(wrapper.display().to_string());
    let engine = Engine::builder(load(&dir, &text)).host(host).build().unwrap();
    let fired = engine.user_prompt_submit(&prompt(&dir)).await;
    for r in fired.records() {
        assert_eq!(r.status, HookStatus::Success, "{r:?}");
    }
    // The wrapper got the shell-form command as one argument, quote included, and ran it.
    assert_eq!(std::fs::read_to_string(&log).unwrap(), format!("{shell_line}\n"));
    let shell_out = std::fs::read_to_string(dir.join("shell.out")).unwrap();
    assert_eq!(shell_out, format!("it's {}\n", dir.display()));
    // The exec-form hook ran without the wrapper.
    assert_eq!(std::fs::read_to_string(dir.join("exec.out")).unwrap(), "exec\n");
}

#[tokio::test]
async fn user_config_is_substituted_in_exec_form_and_refused_in_shell_form() {
    let dir = temp_dir("user-config");
    let out = dir.join("arg.out");
    let mut plugin = Plugin::new("fmt", &dir);
    plugin.options = vec![("level".into(), "strict".into())];
    let hooks = |handler: serde_json::Value| {
        serde_json::to_string(&json!({"hooks": {"UserPromptSubmit": [{"hooks": [handler]}]}}))
            .unwrap()
    };
    let run = |handler: serde_json::Value| {
        let config = Loader::new()
            .plugin_text(dir.join("hooks/hooks.json"), &hooks(handler), plugin.clone())
            .finish()
            .unwrap();
        let engine = Engine::builder(config).host(HostEnv::new(&dir)).build().unwrap();
        let input = prompt(&dir);
        async move { engine.user_prompt_submit(&input).await.records()[0].clone() }
    };

    let exec = json!({"type": "command", "command": "/bin/sh",
        "args": ["-c", format!("printf '%s|%s' \"$1\" \"$CLAUDE_PLUGIN_OPTION_LEVEL\" > '{}'", out.display()), "sh", "${user_config.level}"]});
    let r = run(exec).await;
    assert_eq!(r.status, HookStatus::Success, "{r:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "strict|strict");

    let unknown =
        json!({"type": "command", "command": "/bin/echo", "args": ["${user_config.nope}"]});
    let r = run(unknown).await;
    assert_eq!(r.status, HookStatus::Failed, "{r:?}");
    let message = r.message.unwrap_or_default();
    assert!(message.contains("`${user_config.nope}` names no option of plugin `fmt`"), "{message}");

    let shell = json!({"type": "command", "command": "echo ${user_config.level}"});
    let r = run(shell).await;
    assert_eq!(r.status, HookStatus::Failed, "{r:?}");
    let message = r.message.unwrap_or_default();
    assert!(message.contains("works only in exec form"), "{message}");
    assert!(message.contains("$CLAUDE_PLUGIN_OPTION_<KEY>"), "{message}");
}

#[tokio::test]
async fn a_settings_hook_keeps_user_config_text_as_written() {
    // `${user_config.*}` belongs to plugins; elsewhere it is text like any other.
    let dir = temp_dir("user-config-settings");
    let out = dir.join("out");
    let line = format!("printf '%s' '${{user_config.level}}' > '{}'", out.display());
    let text =
        settings(json!({"UserPromptSubmit": [{"hooks": [{"type": "command", "command": line}]}]}));
    let config =
        Loader::new().settings_text(dir.join("s.json"), &text, Scope::Project).finish().unwrap();
    assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
    let engine = Engine::builder(config).host(HostEnv::new(&dir)).build().unwrap();
    let fired = engine.user_prompt_submit(&prompt(&dir)).await;
    assert_eq!(fired.records()[0].status, HookStatus::Success, "{:?}", fired.records());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "${user_config.level}");
}
