//! The Claude Code loader (settings files, managed ones included, a plugin's `hooks.json`,
//! skill and sub-agent frontmatter): any text loads into a configuration plus diagnostics
//! (never a panic), every diagnostic points inside the text, and an engine builds from
//! whatever loaded.
#![no_main]

use hooks_claude::{Engine, HostEnv, Loader, Plugin, Scope};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let mut loader = Loader::new();
    match selector % 5 {
        0 => {
            loader.settings_text("/fuzz/.claude/settings.json", &text, Scope::Project);
        }
        1 => {
            let plugin = Plugin::new("fuzz", "/fuzz/plugin");
            loader.plugin_text("/fuzz/plugin/hooks/hooks.json", &text, plugin);
        }
        2 => {
            loader.settings_text("/etc/claude-code/managed-settings.json", &text, Scope::Managed);
        }
        3 => {
            loader.skill_text("/fuzz/.claude/skills/s/SKILL.md", &text);
        }
        _ => {
            loader.agent_text("/fuzz/.claude/agents/a.md", &text);
        }
    }
    let config = match loader.finish() {
        Ok(config) => {
            assert!(!config.has_errors());
            config
        }
        Err(problems) => {
            assert!(problems.errors().next().is_some());
            assert!(!problems.to_string().is_empty());
            problems.into_config()
        }
    };
    // Line breaks are `\n`, `\r\n` or a lone `\r`: at most this many lines.
    let lines = text.bytes().filter(|&b| b == b'\n' || b == b'\r').count() + 1;
    for diagnostic in &config.diagnostics {
        let rendered = diagnostic.to_string();
        assert!(!rendered.is_empty());
        assert!(diagnostic.line <= lines, "{rendered}");
    }
    let host = HostEnv::new("/fuzz");
    let _ = Engine::builder(config).host(host).build();
});
