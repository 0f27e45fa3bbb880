//! Codex's trust rule ([Trust](crate::compatibility#trust)): a hook that is not managed runs
//! only once the user reviewed it, and only while its configuration is the one reviewed.
//!
//! Codex keeps the review in the user's `config.toml`, under `[hooks.state."<key>"]`:
//! `trusted_hash` (the hash of the hook's configuration when it was trusted) and `enabled`. A
//! hook's key is `<file>:<event label>:<group index>:<handler index>`; its hash is
//! `sha256:<hex>` of its normalized configuration: the event label, its group's matcher and the
//! one handler (`type`, `command`, `timeout`, defaulting to 600, `async`, and `statusMessage`
//! when set), as JSON with every object's keys sorted and no whitespace. A project's own
//! `.codex/` folder is read only when the user trusts the project
//! (`[projects."<dir>"] trust_level = "trusted"`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::EventName;

/// Whether a hook may run, by the trust rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Trust {
    /// It comes from a managed layer: it always runs.
    Managed,
    /// The user trusted it as it is now.
    Trusted,
    /// The user trusted it, but its configuration changed since: it does not run.
    Modified,
    /// Never reviewed: it does not run.
    Untrusted,
    /// The user turned it off (`enabled = false`).
    Disabled,
}

impl Trust {
    /// Whether the hook runs.
    pub fn runs(self) -> bool {
        matches!(self, Trust::Managed | Trust::Trusted)
    }

    /// Why it does not run, for a person.
    pub fn why_not(self) -> Option<&'static str> {
        match self {
            Trust::Managed | Trust::Trusted => None,
            Trust::Modified => Some(
                "its configuration changed since it was trusted; Codex runs it again once it is \
                 reviewed (`/hooks`)",
            ),
            Trust::Untrusted => {
                Some("it was never trusted; Codex runs it once it is reviewed (`/hooks`)")
            }
            Trust::Disabled => Some("it is turned off (`enabled = false` in its hook state)"),
        }
    }
}

/// A hook's state in the user's configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) enabled: Option<bool>,
    pub(crate) trusted_hash: Option<String>,
}

/// What the user's configuration says about trust: each hook's state, and the trusted projects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reviews {
    states: BTreeMap<String, State>,
    trusted_projects: Vec<String>,
}

impl Reviews {
    /// The reviews of a user configuration (its `[hooks.state]` and `[projects]` tables).
    pub fn from_config(config: &toml::Table) -> Self {
        let mut reviews = Reviews::default();
        let state = config.get("hooks").and_then(|h| h.get("state")).and_then(|s| s.as_table());
        for (key, value) in state.into_iter().flatten() {
            let field = |name: &str| value.get(name);
            reviews.states.insert(
                key.clone(),
                State {
                    enabled: field("enabled").and_then(toml::Value::as_bool),
                    trusted_hash: field("trusted_hash")
                        .and_then(toml::Value::as_str)
                        .map(str::to_owned),
                },
            );
        }
        let projects = config.get("projects").and_then(toml::Value::as_table);
        for (dir, value) in projects.into_iter().flatten() {
            if value.get("trust_level").and_then(toml::Value::as_str) == Some("trusted") {
                reviews.trusted_projects.push(dir.clone());
            }
        }
        reviews
    }

    /// Whether the user trusts the project at `dir`.
    pub fn trusts_project(&self, dir: &Path) -> bool {
        let dir = dir.display().to_string();
        self.trusted_projects.iter().any(|p| p.trim_end_matches('/') == dir.trim_end_matches('/'))
    }

    /// The trust of a hook that is not managed, by its key and its hash.
    pub(crate) fn trust(&self, key: &str, hash: &str) -> Trust {
        let state = self.states.get(key);
        if state.and_then(|s| s.enabled) == Some(false) {
            return Trust::Disabled;
        }
        match state.and_then(|s| s.trusted_hash.as_deref()) {
            Some(trusted) if trusted == hash => Trust::Trusted,
            Some(_) => Trust::Modified,
            None => Trust::Untrusted,
        }
    }
}

/// A hook's key: `<file>:<event label>:<group index>:<handler index>`, where a plugin's hooks
/// have `<plugin id>:<where in the plugin>` for the file.
pub(crate) fn key(source: &str, event: EventName, group: usize, handler: usize) -> String {
    format!("{source}:{}:{group}:{handler}", event.label())
}

/// The handler fields that make a hook's identity, as Codex normalizes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Identity<'a> {
    pub(crate) event: EventName,
    pub(crate) matcher: Option<&'a str>,
    pub(crate) command: &'a str,
    pub(crate) timeout_secs: u64,
    pub(crate) is_async: bool,
    pub(crate) status_message: Option<&'a str>,
}

/// A hook's hash: `sha256:<hex>` of its identity as canonical JSON.
pub(crate) fn hash(identity: &Identity<'_>) -> String {
    let mut handler = Map::new();
    handler.insert("type".into(), Value::from("command"));
    handler.insert("command".into(), Value::from(identity.command));
    handler.insert("timeout".into(), Value::from(identity.timeout_secs.max(1)));
    handler.insert("async".into(), Value::from(identity.is_async));
    if let Some(message) = identity.status_message {
        handler.insert("statusMessage".into(), Value::from(message));
    }
    let mut group = Map::new();
    group.insert("event_name".into(), Value::from(identity.event.label()));
    if let Some(matcher) = identity.matcher {
        group.insert("matcher".into(), Value::from(matcher));
    }
    group.insert("hooks".into(), Value::Array(vec![Value::Object(handler)]));
    let canonical = sorted(&Value::Object(group));
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    let digest = Sha256::digest(&bytes);
    let mut out = String::with_capacity("sha256:".len() + 64);
    out.push_str("sha256:");
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// The value with every object's keys in order (a JSON object keeps insertion order here).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&map[k]))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(command: &str) -> Identity<'_> {
        Identity {
            event: EventName::PreToolUse,
            matcher: Some("Bash"),
            command,
            timeout_secs: 600,
            is_async: false,
            status_message: None,
        }
    }

    #[test]
    fn the_hash_is_of_sorted_compact_json() {
        let expected = {
            let text = r#"{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo hello","timeout":600,"type":"command"}],"matcher":"Bash"}"#;
            let digest = Sha256::digest(text.as_bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            format!("sha256:{hex}")
        };
        assert_eq!(hash(&identity("echo hello")), expected);
        assert_ne!(hash(&identity("echo hello")), hash(&identity("echo other")));
    }

    #[test]
    fn reviews_decide_who_runs() {
        let key = key("/p/.codex/hooks.json", EventName::PreToolUse, 0, 1);
        assert_eq!(key, "/p/.codex/hooks.json:pre_tool_use:0:1");
        let good = hash(&identity("echo hello"));
        let config: toml::Table = format!(
            "[hooks.state.\"{key}\"]\ntrusted_hash = \"{good}\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n"
        )
        .parse()
        .unwrap();
        let reviews = Reviews::from_config(&config);
        assert_eq!(reviews.trust(&key, &good), Trust::Trusted);
        assert_eq!(reviews.trust(&key, &hash(&identity("echo changed"))), Trust::Modified);
        assert_eq!(reviews.trust("other", &good), Trust::Untrusted);
        assert!(reviews.trusts_project(Path::new("/p")));
        assert!(!reviews.trusts_project(Path::new("/q")));
        let off: toml::Table =
            format!("[hooks.state.\"{key}\"]\nenabled = false\n").parse().unwrap();
        assert_eq!(Reviews::from_config(&off).trust(&key, &good), Trust::Disabled);
    }
}
