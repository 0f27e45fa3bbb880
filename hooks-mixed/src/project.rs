//! What a harness asks for: a project, the dialects it runs, and the one call that loads
//! them all ([`Project::load`]).

use std::path::PathBuf;
use std::sync::Arc;

use hook_protocol::{Diagnostic, Dialect, DialectError, FileKind, Hook, LoadRequest, Position};

use crate::mixed::{Mixed, Part};
use crate::native::NativeHooks;

/// Which dialect runs the files two agents read: the project's `.claude/settings.json` and
/// `.claude/settings.local.json`, which Claude Code reads and Copilot reads too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ClaudeFiles {
    /// Claude Code's dialect runs them, as Claude Code does (the default); Copilot's leaves
    /// them out.
    #[default]
    ClaudeCode,
    /// Copilot's dialect runs them, as Copilot does; Claude Code's leaves them out (it still
    /// reads the user's and the managed settings).
    Copilot,
}

/// The dialects whose files a project may hold, in [`ORDER`](crate::ORDER).
pub fn file_dialects() -> [&'static dyn Dialect; 5] {
    [
        hooks_claude::dialect(),
        hooks_codex::dialect(),
        hooks_copilot::dialect(),
        hooks_cursor::dialect(),
        hooks_gemini::dialect(),
    ]
}

/// Every agent's hooks for a project, as a harness asks for them: where the project and the
/// user's home are, which dialects run, and the harness's own hooks.
///
/// ```no_run
/// # async fn demo() -> Result<(), hook_protocol::DialectError> {
/// use hook_protocol::{Common, Event, Payload, ToolCall};
/// use serde_json::json;
///
/// let hooks = hooks_mixed::Project::new("/work/app").home("/home/me").load();
/// for problem in hooks.diagnostics() {
///     eprintln!("{problem}");
/// }
/// let call = ToolCall::new("Bash", json!({"command": "rm -rf build"}));
/// let event = Event::new(Common::new("session-1", "/work/app"), Payload::PreTool(call));
/// let run = hooks.run(&event).await?;
/// println!("{}: {:?}", run.run.decision, run.run.reason);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Project {
    request: LoadRequest,
    off: Vec<String>,
    claude_files: ClaudeFiles,
    tnsai: Option<PathBuf>,
    native: Vec<Arc<dyn Hook>>,
    plugins: Vec<(String, PathBuf)>,
}

impl Project {
    /// Every dialect's hooks for the project at `project_dir` (absolute), discovered as each
    /// agent discovers them.
    pub fn new(project_dir: impl Into<PathBuf>) -> Self {
        Self::with_request(LoadRequest::new(project_dir))
    }

    /// The project and settings of `request` (its home, credentials kept from the hooks,
    /// leniency, trust, surface), for every dialect. Files it names go to the dialect that
    /// claims each most surely.
    pub fn with_request(request: LoadRequest) -> Self {
        Self {
            request,
            off: Vec::new(),
            claude_files: ClaudeFiles::default(),
            tnsai: None,
            native: Vec::new(),
            plugins: Vec::new(),
        }
    }

    /// A plugin of one agent (`claude`, `codex`, `copilot`, `cursor`), run by that agent's
    /// dialect. A plugin named in the request goes to the agent whose manifest it holds
    /// (`.claude-plugin/`, `.codex-plugin/`); Copilot's and Cursor's plugins have none of their
    /// own, so they are named here.
    pub fn plugin(mut self, dialect: &str, dir: impl Into<PathBuf>) -> Self {
        self.plugins.push((dialect.to_owned(), dir.into()));
        self
    }

    /// The user's home folder, where user-level files are found.
    pub fn home(mut self, home: impl Into<PathBuf>) -> Self {
        self.request.home = Some(home.into());
        self
    }

    /// Turns a dialect off (`claude`, `codex`, `copilot`, `cursor`): its files are not read.
    pub fn without(mut self, dialect: &str) -> Self {
        self.off.push(dialect.to_owned());
        self
    }

    /// Runs only these dialects' files.
    pub fn only(mut self, dialects: &[&str]) -> Self {
        self.off = file_dialects()
            .iter()
            .map(|d| d.name())
            .filter(|n| !dialects.contains(n))
            .map(str::to_owned)
            .collect();
        self
    }

    /// Which dialect runs the project's Claude Code settings, which Copilot reads too.
    pub fn claude_files(mut self, by: ClaudeFiles) -> Self {
        self.claude_files = by;
        self
    }

    /// A TNSAI hook list, run beside the agents' hooks.
    pub fn tnsai_list(mut self, path: impl Into<PathBuf>) -> Self {
        self.tnsai = Some(path.into());
        self
    }

    /// The harness's own hooks (native Rust hooks, any [`Hook`]), run beside the agents'.
    pub fn native_hooks(mut self, hooks: impl IntoIterator<Item = Arc<dyn Hook>>) -> Self {
        self.native.extend(hooks);
        self
    }

    /// Whether a dialect is on.
    fn on(&self, name: &str) -> bool {
        !self.off.iter().any(|o| o == name)
    }

    /// The project's Claude Code settings, which Claude Code and Copilot both read.
    fn shared_files(&self) -> Vec<PathBuf> {
        let claude = self.request.project_dir.join(".claude");
        vec![claude.join("settings.json"), claude.join("settings.local.json")]
    }

    /// The dialect each named file goes to, in the request's order, each file read once: a
    /// configuration file to the dialect that claims it most surely, a plugin to the agent
    /// whose manifest it holds; skills and sub-agents are Claude Code's (`None` here).
    fn owners(&self) -> Vec<Option<&'static str>> {
        let owner_of = |(kind, path): &(FileKind, PathBuf)| match kind {
            FileKind::Plugin => plugin_owner(path),
            FileKind::Config => owner(path),
            _ => None,
        };
        self.request.files.iter().map(owner_of).collect()
    }

    /// The request one dialect gets, `owners` being [`Project::owners`].
    fn request_for(&self, dialect: &dyn Dialect, owners: &[Option<&'static str>]) -> LoadRequest {
        let mut request = self.request.clone();
        request.files = self
            .request
            .files
            .iter()
            .zip(owners)
            .filter(|((kind, _), owner)| match kind {
                FileKind::Plugin | FileKind::Config => **owner == Some(dialect.name()),
                // Skills and sub-agents with hooks are Claude Code's.
                _ => dialect.reads(*kind),
            })
            .map(|(file, _)| file.clone())
            .collect();
        for (name, dir) in &self.plugins {
            if name == dialect.name() {
                request.files.push((FileKind::Plugin, dir.clone()));
            }
        }
        if !dialect.surfaces().contains(&request.surface) {
            request.surface = hook_protocol::Surface::Local;
        }
        let shared_by = match self.claude_files {
            ClaudeFiles::ClaudeCode if self.on("claude") => Some("copilot"),
            ClaudeFiles::Copilot if self.on("copilot") => Some("claude"),
            _ => None,
        };
        if shared_by == Some(dialect.name()) {
            request.read_elsewhere.extend(self.shared_files());
        }
        request
    }

    /// Loads every dialect's hooks for the project. It does not fail: a dialect that finds
    /// none of its files is left out (with a note), and every problem of every file, a file
    /// that cannot be read or parsed included, is a diagnostic naming its dialect; one broken
    /// file never keeps the others from loading.
    pub fn load(&self) -> Mixed {
        let mut parts = Vec::new();
        let mut diagnostics = Vec::new();
        let mut notes = Vec::new();
        let owners = self.owners();
        let unowned = self.request.files.iter().zip(&owners).filter_map(|((kind, dir), owner)| {
            (*kind == FileKind::Plugin && owner.is_none()).then_some(dir)
        });
        for dir in unowned {
            diagnostics.push(Diagnostic::error(
                dir,
                Position::default(),
                "a plugin of no agent this run can tell (no .claude-plugin/ or .codex-plugin/ \
                 manifest): name its agent (`Project::plugin`, or --dialect copilot, cursor or gemini); \
                 its hooks do not run",
            ));
        }
        let unknown: Vec<&str> = self
            .plugins
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|n| !file_dialects().iter().any(|d| d.name() == *n))
            .collect();
        for name in unknown {
            diagnostics.push(Diagnostic::error(
                &self.request.project_dir,
                Position::default(),
                format!(
                    "a plugin of `{name}`, which is none of claude, codex, copilot, cursor, gemini"
                ),
            ));
        }
        // What sits where an agent's file goes but is no file (a FIFO, a folder) is no agent's
        // file to read, and the agents pass it by; here it is said.
        for (name, path) in places(&self.request.project_dir) {
            let odd = std::fs::symlink_metadata(&path).is_ok() && !path.is_file();
            if let (true, Err(e)) = (odd && self.on(name), read_config(&path)) {
                let title = file_dialects().iter().find(|d| d.name() == name).map(|d| d.title());
                diagnostics.push(Diagnostic::error(
                    &path,
                    e.line().map_or_else(Position::default, |l| Position::new(l, 1)),
                    format!("{}: {}; not read", title.unwrap_or(name), e.reason()),
                ));
            }
        }
        for dialect in file_dialects() {
            if !self.on(dialect.name()) {
                notes.push(format!("{}: turned off", dialect.title()));
                continue;
            }
            let request = self.request_for(dialect, &owners);
            if !request.read_elsewhere.is_empty() {
                notes.push(format!(
                    "{}: the project's .claude/settings.json and settings.local.json are run by \
                     the other dialect that reads them",
                    dialect.title()
                ));
            }
            load_one(dialect, &request, &mut parts, &mut diagnostics, &mut notes);
        }
        if let Some(list) = &self.tnsai {
            let mut request = self.request.clone();
            request.files = vec![(FileKind::Config, list.clone())];
            load_one(hooks_tnsai::dialect(), &request, &mut parts, &mut diagnostics, &mut notes);
        }
        if !self.native.is_empty() {
            match NativeHooks::new(self.native.clone()) {
                Ok(native) => parts.push(Part::new("native", "native hooks", Box::new(native))),
                Err(e) => diagnostics.push(Diagnostic::error(
                    &self.request.project_dir,
                    Position::default(),
                    format!("native hooks: cannot compile the matchers: {e}"),
                )),
            }
        }
        Mixed::new(parts, diagnostics, notes, self.request.clone())
    }
}

/// The hook files of every agent that a project folder holds (not the home folder's), each
/// with its dialect, in [`ORDER`](crate::ORDER): `.claude/settings.json` and `settings.local.json`,
/// `.codex/hooks.json` and `config.toml`, `.github/hooks/*.json` (in name order) and
/// `.github/copilot/settings.json`, `.cursor/hooks.json`, `.gemini/settings.json`. Only files
/// that exist.
pub fn project_files(project_dir: &std::path::Path) -> Vec<(&'static str, PathBuf)> {
    let mut found = places(project_dir);
    found.retain(|(_, p)| p.is_file());
    found
}

/// Where each agent's hook files are in a project folder, whatever is there.
fn places(project_dir: &std::path::Path) -> Vec<(&'static str, PathBuf)> {
    let mut found: Vec<(&'static str, PathBuf)> = [
        ("claude", ".claude/settings.json"),
        ("claude", ".claude/settings.local.json"),
        ("codex", ".codex/hooks.json"),
        ("codex", ".codex/config.toml"),
    ]
    .into_iter()
    .map(|(d, f)| (d, project_dir.join(f)))
    .collect();
    let mut copilot: Vec<PathBuf> = std::fs::read_dir(project_dir.join(".github/hooks"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    copilot.sort();
    found.extend(copilot.into_iter().map(|p| ("copilot", p)));
    found.push(("copilot", project_dir.join(".github/copilot/settings.json")));
    found.push(("cursor", project_dir.join(".cursor/hooks.json")));
    found.push(("gemini", project_dir.join(".gemini/settings.json")));
    found
}

/// A configuration file's text, within its cap.
fn read_config(path: &std::path::Path) -> Result<String, hook_protocol::text_file::ReadError> {
    hook_protocol::text_file::read_text(path, hook_protocol::text_file::Cap::CONFIG)
}

/// The agent whose plugin `dir` is, by its manifest folder.
fn plugin_owner(dir: &std::path::Path) -> Option<&'static str> {
    if dir.join(".claude-plugin/plugin.json").is_file() {
        Some("claude")
    } else if dir.join(".codex-plugin/plugin.json").is_file() {
        Some("codex")
    } else {
        None
    }
}

/// The dialect whose file `path` is, by its place and shape, when one claims it.
pub(crate) fn owner(path: &std::path::Path) -> Option<&'static str> {
    let text = hook_protocol::text_file::read_text(path, hook_protocol::text_file::Cap::CONFIG)
        .unwrap_or_default();
    let mut best: Option<(&'static str, hook_protocol::Claim)> = None;
    let all = file_dialects().into_iter().chain([hooks_tnsai::dialect()]);
    for dialect in all {
        let claim = dialect.claims(path, &text);
        if claim > hook_protocol::Claim::No && best.is_none_or(|(_, b)| claim > b) {
            best = Some((dialect.name(), claim));
        }
    }
    best.map(|(name, _)| name)
}

/// Loads one dialect into the parts, its problems into the diagnostics.
fn load_one(
    dialect: &'static dyn Dialect,
    request: &LoadRequest,
    parts: &mut Vec<Part>,
    diagnostics: &mut Vec<Diagnostic>,
    notes: &mut Vec<String>,
) {
    match dialect.load(request) {
        Ok(loaded) => {
            diagnostics.extend(loaded.diagnostics().iter().map(|d| named(dialect.title(), d)));
            notes.extend(loaded.notes().iter().map(|n| format!("{}: {n}", dialect.title())));
            parts.push(Part::new(dialect.name(), dialect.title(), loaded));
        }
        Err(e @ DialectError::NotFound { .. }) => {
            notes.push(format!("{}: {e}", dialect.title()));
        }
        Err(e) => diagnostics.push(Diagnostic::error(
            &request.project_dir,
            Position::default(),
            format!("{}: {e}; its hooks do not run", dialect.title()),
        )),
    }
}

/// A diagnostic with its dialect named first.
fn named(title: &str, diagnostic: &Diagnostic) -> Diagnostic {
    let mut out = diagnostic.clone();
    out.message = format!("{title}: {}", out.message);
    out
}
