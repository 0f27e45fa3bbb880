//! The configuration model: where hooks come from and what each configured handler says.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hook_protocol::{Diagnostic, Matcher, Position};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::{EventName, HandlerType, PermissionRule};

/// Which settings level a file is
/// ([Configuration files](crate::compatibility#configuration-files)); later variants take
/// precedence for scalar settings such as `disableAllHooks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// `~/.claude/settings.json`.
    User,
    /// `<project>/.claude/settings.json`.
    Project,
    /// `<project>/.claude/settings.local.json`.
    Local,
    /// A file given explicitly (a bare `hooks.json`, `--settings`).
    Explicit,
    /// Managed policy (`/etc/claude-code/managed-settings.json`).
    Managed,
}

impl Scope {
    /// The scope's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::Explicit => "explicit",
            Scope::Managed => "managed",
        }
    }
}

/// A plugin whose `hooks/hooks.json` was loaded.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Plugin {
    /// The plugin's name (from `.claude-plugin/plugin.json`, else the directory's name).
    pub name: String,
    /// The marketplace it was installed from, when known: with the name it makes the plugin's
    /// identity `name@marketplace`, which managed `enabledPlugins` names.
    pub marketplace: Option<String>,
    /// The plugin's root (`${CLAUDE_PLUGIN_ROOT}`).
    pub root: PathBuf,
    /// The plugin's data directory (`${CLAUDE_PLUGIN_DATA}`), when known.
    pub data: Option<PathBuf>,
    /// The plugin's user options, exported as `CLAUDE_PLUGIN_OPTION_<KEY>` and substituted
    /// for `${user_config.KEY}` in exec form.
    pub options: Vec<(String, String)>,
}

impl Plugin {
    /// A plugin with a name and a root, no marketplace, no data directory and no options. A
    /// relative root is taken from the current directory: `${CLAUDE_PLUGIN_ROOT}` is always
    /// absolute, as hooks run elsewhere.
    pub fn new(name: impl Into<String>, root: impl Into<PathBuf>) -> Self {
        let root: PathBuf = root.into();
        Self {
            name: name.into(),
            marketplace: None,
            root: std::path::absolute(&root).unwrap_or(root),
            data: None,
            options: Vec::new(),
        }
    }

    /// The plugin's identity: `name@marketplace`, or the name alone without a marketplace.
    pub fn id(&self) -> String {
        match &self.marketplace {
            Some(m) => format!("{}@{m}", self.name),
            None => self.name.clone(),
        }
    }
}

/// Where a configuration file comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Origin {
    /// A settings file (or a bare hooks file) at a settings level.
    Settings {
        /// The level.
        scope: Scope,
    },
    /// A plugin's `hooks/hooks.json`, or its manifest's hooks.
    Plugin(Plugin),
    /// The frontmatter of a skill (`SKILL.md`): its hooks live from the skill's invocation to
    /// the end of the session.
    Skill {
        /// The skill's name.
        name: String,
    },
    /// The frontmatter of a sub-agent definition: its hooks run on that sub-agent's events.
    Agent {
        /// The sub-agent's name (its type).
        name: String,
    },
}

/// One configuration file that was loaded.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct SourceFile {
    /// Its path.
    pub path: PathBuf,
    /// Where it comes from.
    pub origin: Origin,
}

impl SourceFile {
    /// The plugin, when the file is a plugin's.
    pub fn plugin(&self) -> Option<&Plugin> {
        match &self.origin {
            Origin::Plugin(p) => Some(p),
            _ => None,
        }
    }

    /// The settings level (managed for nothing but managed files; plugins, skills and
    /// sub-agents have none).
    pub fn scope(&self) -> Option<Scope> {
        match &self.origin {
            Origin::Settings { scope } => Some(*scope),
            _ => None,
        }
    }

    /// The label a hook from this file carries (`plugin:NAME`, `skill:NAME`, `agent:NAME`, or
    /// the file's path).
    pub fn label(&self) -> String {
        match &self.origin {
            Origin::Plugin(p) => format!("plugin:{}", p.name),
            Origin::Skill { name } => format!("skill:{name}"),
            Origin::Agent { name } => format!("agent:{name}"),
            Origin::Settings { .. } => self.path.display().to_string(),
        }
    }

    /// What keeps this file's copy of a handler apart from an identical one elsewhere: a
    /// plugin's, a skill's or a sub-agent's copy stays separate
    /// ([Configuration files](crate::compatibility#configuration-files)); settings files share.
    pub(crate) fn dedup_scope(&self) -> Option<String> {
        match &self.origin {
            Origin::Plugin(p) => Some(format!("plugin\u{0}{}\u{0}{}", p.name, p.root.display())),
            Origin::Skill { name } => Some(format!("skill\u{0}{name}")),
            Origin::Agent { name } => Some(format!("agent\u{0}{name}")),
            Origin::Settings { .. } => None,
        }
    }
}

/// What to do when a hook fails ([Failing closed](crate::compatibility#failing-closed)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OnFailure {
    /// The failure is a non-blocking error (the default).
    #[default]
    Continue,
    /// The failure does what exit 2 does on the event.
    Block,
}

/// Positions of a handler's values, for diagnostics found after loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct HandlerPositions {
    /// The handler object.
    pub handler: Position,
    /// Its `command`.
    pub command: Position,
    /// Its group's `matcher`.
    pub matcher: Position,
}

/// What an `http` handler posts to ([HTTP hooks](crate::compatibility#http-hooks)).
#[derive(Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HttpSpec {
    /// `url`: an absolute `http` or `https` URL.
    pub url: String,
    /// `headers`, in the order written; values may hold `$VAR` / `${VAR}`. Values are never
    /// printed: `Debug` and serialization show the names only.
    #[serde(serialize_with = "header_names")]
    pub headers: Vec<(String, String)>,
    /// `allowedEnvVars`: the only variables a header value may interpolate.
    pub allowed_env_vars: Vec<String>,
}

impl fmt::Debug for HttpSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpSpec")
            .field("url", &self.url)
            .field("headers", &self.headers.iter().map(|(k, _)| k).collect::<Vec<_>>())
            .field("allowed_env_vars", &self.allowed_env_vars)
            .finish()
    }
}

fn header_names<S: serde::Serializer>(
    headers: &[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(headers.iter().map(|(k, _)| k))
}

/// What a `prompt` or `agent` handler asks the model
/// ([Prompt and agent hooks](crate::compatibility#prompt-and-agent-hooks)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PromptSpec {
    /// `prompt`, with `$ARGUMENTS` where the event's JSON goes.
    pub prompt: String,
    /// `model`, when not the harness's default.
    pub model: Option<String>,
    /// `continueOnBlock` (prompt hooks; agent hooks always continue).
    pub continue_on_block: bool,
}

/// What an `mcp_tool` handler calls ([MCP tool hooks](crate::compatibility#mcp-tool-hooks)).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct McpToolSpec {
    /// `server` (plugin servers: `plugin:<plugin>:<server>`).
    pub server: String,
    /// `tool`.
    pub tool: String,
    /// `input`: the tool's arguments; string values may hold `${path}` into the event's JSON.
    pub input: Map<String, Value>,
}

/// What a handler does, by type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum HandlerSpec {
    /// A command: `command`, `args` and `shell` are on the [`Handler`].
    Command,
    /// An HTTP POST.
    Http(HttpSpec),
    /// A question to the harness's model.
    Prompt(PromptSpec),
    /// A task for the harness's agent.
    Agent(PromptSpec),
    /// A call of an MCP tool through the harness.
    McpTool(McpToolSpec),
}

/// One configured handler, as written (after validation).
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Handler {
    /// Its type.
    pub kind: HandlerType,
    /// `command`: the shell line, or the program in exec form.
    pub command: Option<String>,
    /// `args`: present means exec form (no shell).
    pub args: Option<Vec<String>>,
    /// `shell`: `bash` (the default) or `powershell`.
    pub shell: Option<String>,
    /// `timeout`, written in seconds; a value that is not a positive number of seconds is a
    /// load error, and the handler does not register.
    pub timeout: Option<Duration>,
    /// `if`, as written.
    pub if_rule: Option<String>,
    /// `statusMessage`.
    pub status_message: Option<String>,
    /// `once` (honoured only in skill frontmatter, so ignored here).
    pub once: bool,
    /// `async`.
    pub is_async: bool,
    /// `asyncRewake` (implies async).
    pub async_rewake: bool,
    /// `onFailure`.
    pub on_failure: OnFailure,
    /// What it does, by type.
    pub spec: HandlerSpec,
    /// The whole handler object as written, except that `headers` values are replaced by
    /// `<redacted>` (they may hold secrets).
    pub raw: Map<String, Value>,
    /// Where its values are.
    pub positions: HandlerPositions,
    #[serde(skip)]
    pub(crate) rule: Option<PermissionRule>,
}

impl Handler {
    /// The parsed `if` rule.
    pub fn rule(&self) -> Option<&PermissionRule> {
        self.rule.as_ref()
    }

    /// Whether it runs in the background.
    pub fn runs_async(&self) -> bool {
        self.is_async || self.async_rewake
    }
}

/// One handler registered for one event, with its group's matcher and its source.
#[derive(Clone, Serialize)]
#[non_exhaustive]
pub struct Entry {
    /// The event.
    pub event: EventName,
    /// The group's `matcher`, as written.
    pub matcher_raw: Option<String>,
    /// The compiled matcher.
    #[serde(skip)]
    pub matcher: Matcher,
    /// The handler.
    pub handler: Handler,
    /// The file it comes from.
    pub source: Arc<SourceFile>,
    /// Whether the settings turned it off: `disableAllHooks`, or managed
    /// `allowManagedHooksOnly` / `strictPluginOnlyCustomization` (see [`Config::policy`]).
    pub disabled: bool,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("event", &self.event)
            .field("matcher", &self.matcher_raw)
            .field("command", &self.handler.command)
            .field("source", &self.source.path)
            .finish()
    }
}

/// Everything loaded from every configuration file, in the order the files were given.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Config {
    /// Every handler, in configuration order (files in the order given, then as written).
    pub entries: Vec<Entry>,
    /// Every file that was read and parsed.
    pub sources: Vec<Arc<SourceFile>>,
    /// Every problem found while loading.
    pub diagnostics: Vec<Diagnostic>,
    /// The settings `env` blocks, merged by precedence.
    pub env: Vec<(String, String)>,
    /// The effective `disableAllHooks`, with the level that set it.
    pub disable_all: Option<(bool, Scope)>,
    /// What managed settings restrict.
    pub policy: ManagedPolicy,
    /// `allowedHttpHookUrls` of every settings file that sets it, merged; `None` when no
    /// file sets it (HTTP hooks are then not restricted by URL).
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// `httpHookAllowedEnvVars` of every settings file that sets it, merged; `None` when no
    /// file sets it.
    pub http_hook_allowed_env_vars: Option<Vec<String>>,
}

/// The hook restrictions only managed settings can set
/// ([Turning hooks off](crate::compatibility#turning-hooks-off)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ManagedPolicy {
    /// `allowManagedHooksOnly`: only managed hooks and hooks of plugins that managed settings
    /// force-enable run.
    pub managed_hooks_only: bool,
    /// `strictPluginOnlyCustomization` covering hooks (`true`, or a list naming `"hooks"`):
    /// hooks of user, project, local and explicit settings files do not run; plugin and
    /// managed hooks do.
    pub plugin_only_hooks: bool,
    /// The plugins managed `enabledPlugins` force-enables (`name@marketplace`).
    pub forced_plugins: Vec<String>,
}

impl ManagedPolicy {
    /// Whether an entry from `source` may run under these restrictions and under
    /// `disableAllHooks` set (or not) at `disable_all`.
    pub fn allows(&self, source: &SourceFile, disable_all: Option<Scope>) -> bool {
        let managed = source.scope() == Some(Scope::Managed);
        let forced = source.plugin().is_some_and(|p| self.forced_plugins.contains(&p.id()));
        match disable_all {
            Some(Scope::Managed) => return false,
            Some(_) if !(managed || forced) => return false,
            _ => {}
        }
        if self.managed_hooks_only && !(managed || forced) {
            return false;
        }
        !(self.plugin_only_hooks && source.plugin().is_none() && !managed)
    }
}

impl Config {
    /// The handlers that will run (not turned off by `disableAllHooks` or a managed policy).
    pub fn active(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| !e.disabled)
    }

    /// Whether any error was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The settings files Claude Code reads for a project, lowest precedence first, that exist:
/// `~/.claude/settings.json`, `<project>/.claude/settings.json`,
/// `<project>/.claude/settings.local.json`, then `/etc/claude-code/managed-settings.json` and
/// `/etc/claude-code/managed-settings.d/*.json` (alphabetically).
pub fn discover(home: Option<&Path>, project: &Path) -> Vec<(PathBuf, Scope)> {
    discover_in(home, project, Path::new("/etc/claude-code"))
}

/// [`discover`] with another managed-settings directory.
pub fn discover_in(home: Option<&Path>, project: &Path, managed: &Path) -> Vec<(PathBuf, Scope)> {
    let mut out = Vec::new();
    if let Some(home) = home {
        out.push((home.join(".claude/settings.json"), Scope::User));
    }
    out.push((project.join(".claude/settings.json"), Scope::Project));
    out.push((project.join(".claude/settings.local.json"), Scope::Local));
    out.push((managed.join("managed-settings.json"), Scope::Managed));
    let mut dropins: Vec<PathBuf> = std::fs::read_dir(managed.join("managed-settings.d"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    dropins.sort();
    out.extend(dropins.into_iter().map(|p| (p, Scope::Managed)));
    out.retain(|(p, _)| p.is_file());
    out
}
