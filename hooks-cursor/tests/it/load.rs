//! Loading: every problem at its line and column, the fields' ranges.

use hooks_cursor::{Loader, Scope};

fn problems(text: &str) -> Vec<String> {
    let mut loader = Loader::new();
    loader.text("/p/.cursor/hooks.json", text, Scope::Project);
    loader
        .finish()
        .diagnostics
        .iter()
        .map(|d| {
            let level = if d.is_error() { "error" } else { "warning" };
            format!("{}:{}: {level}: {}", d.line, d.column, d.message)
        })
        .collect()
}

#[test]
fn bad_fields_name_themselves() {
    let text = r#"{
  "version": 1,
  "hooks": {
    "stop": [
      {"command": "a", "loop_limit": -1},
      {"command": "b", "timeout": 0},
      {"command": "c", "loop_limit": null, "colour": "red"},
      {"type": "prompt", "prompt": "is it done?"}
    ],
    "beforeMcpExecution": [{"command": "d"}],
    "afterAgentThought": [{"command": "e"}]
  }
}"#;
    assert_eq!(
        problems(text),
        [
            "5:38: error: stop[0]: `loop_limit` must be a whole number of follow-ups (0 or more) or null, got -1; the hook is skipped",
            "6:35: error: stop[1]: `timeout` must be a number of seconds above 0 and at most 86400, got 0; the hook is skipped",
            "7:44: warning: stop[2]: unknown key `colour`",
            "8:7: warning: stop[3]: `prompt` hooks are evaluated by Cursor's model and do not run here; the hook is skipped",
            "10:5: warning: unknown Cursor event `beforeMcpExecution` (did you mean `beforeMCPExecution`? event names are case-sensitive); its hooks are skipped",
            "11:27: warning: afterAgentThought[0]: `afterAgentThought` is an editor event a harness does not fire; the hook loads and never runs",
        ]
    );
    assert_eq!(
        problems(r#"{"version": 2, "hooks": {}}"#),
        ["1:13: error: `version` must be 1; no hook from this file runs"]
    );
}

#[test]
fn defaults_are_cursors() {
    let mut loader = Loader::new();
    let text = r#"{"version": 1, "hooks": {"stop": [{"command": "a"}, {"command": "b", "loop_limit": null, "timeout": 1.5}]}}"#;
    loader.text("/p/.cursor/hooks.json", text, Scope::Project);
    let config = loader.finish();
    assert_eq!(config.entries[0].loop_limit, Some(hooks_cursor::DEFAULT_MAX_FOLLOW_UPS));
    assert_eq!(config.entries[0].timeout, hooks_cursor::DEFAULT_TIMEOUT);
    assert_eq!(config.entries[1].loop_limit, None);
    assert_eq!(config.entries[1].timeout, std::time::Duration::from_millis(1500), "seconds");
}
