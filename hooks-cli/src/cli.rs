//! The command line: subcommands and their arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use hook_protocol::Scrub;

/// Run, check, list and replay agent hooks without an agent.
///
/// Claude Code hook configurations (settings.json, plugin hooks.json) and TNSAI hook lists run
/// exactly as an agent would run them, on an event you give as JSON.
#[derive(Debug, Parser)]
#[command(name = "hooks", version, propagate_version = true, max_term_width = 100)]
pub(crate) struct Cli {
    /// Show each hook's invocation and result on stderr as it happens, and what was
    /// deduplicated.
    #[arg(short, long, global = true)]
    pub(crate) verbose: bool,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run one event through the configured hooks and print the merged decision.
    ///
    /// Exit status: 0 when the action may proceed, 2 when it is blocked or denied (or
    /// `continue` is false), 3 when it needs a person (ask, defer), 1 for a usage or
    /// configuration error.
    Run(RunArgs),
    /// Validate configurations and report every problem as FILE:LINE:COL.
    Check(CheckArgs),
    /// Show which hooks would run for an event, after matching and deduplication.
    List(ListArgs),
    /// Run a JSON Lines file of recorded events through the hooks, as one session, and print a
    /// table.
    ///
    /// With Claude Code hooks the events run in order through one session: the Stop loop
    /// guard, skills started by their Skill call, background results on the next row,
    /// CLAUDE_ENV_FILE exports. Every line is checked before any runs. Exit status: 0 when
    /// every event ran (whatever the hooks decided: the table is the result), 1 for a bad line
    /// (named FILE:LINE) or a configuration error, 128 + the signal when interrupted.
    Replay(ReplayArgs),
    /// Run a file of test cases through the hooks: ok or FAIL (with a diff) per case.
    ///
    /// The file (YAML, or JSON with a .json extension) holds `cases:`, each with an `event`, an
    /// `input` (the event's payload) and an `expect` mapping: `decision` (allow, ask, defer,
    /// deny, block, none), `reason` (a text the reason contains), `context` (one text per
    /// context, each contained in the context at its place), `continue`, `updated_input` (the
    /// rewritten tool input, exactly) and `shown` (what Claude Code shows the model and the user,
    /// exactly); what is left out is not checked. The last line says `N passed, N failed`; the
    /// exit status is 1 when a case fails. `--update` writes what the hooks now do into each
    /// case's `expect`, leaving the rest of the file as it is. Without --settings, --plugin or
    /// --project-dir, the project is the directory holding the file.
    Test(TestArgs),
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum Format {
    /// For people.
    #[default]
    Text,
    /// One JSON document (per event, for replay).
    Json,
}

/// Where the hooks come from.
#[derive(Debug, Clone, Args)]
pub(crate) struct Sources {
    /// The hook dialect: the agent whose hook files to read and whose behaviour to follow
    /// (claude: Claude Code; tnsai: a TNSAI hook list; codex: Codex's hooks.json and the hooks
    /// tables of its config.toml; copilot: GitHub Copilot's hooks files; cursor: Cursor's
    /// hooks.json; gemini: Gemini CLI's settings.json; all: every agent's hooks the project
    /// holds, on one event, the event and its input as Claude Code gives them).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "claude",
        value_parser = clap::builder::PossibleValuesParser::new(crate::known::names())
    )]
    pub(crate) dialect: String,

    /// A hook file of the dialect, instead of the files its agent would discover: a Claude Code
    /// settings.json or bare hooks.json, a Codex hooks.json or config.toml, a Copilot or
    /// Cursor hooks file (repeatable; concatenated in order).
    #[arg(long = "settings", value_name = "FILE", value_parser = absolute_path)]
    pub(crate) settings: Vec<PathBuf>,

    /// A plugin directory of the dialect (repeatable): for Claude Code, DIR/hooks/hooks.json and
    /// the hooks its manifest, DIR/.claude-plugin/plugin.json, adds; for Codex, the hooks its
    /// manifest, DIR/.codex-plugin/plugin.json, names, else DIR/hooks/hooks.json; for Copilot,
    /// DIR/hooks.json, else DIR/hooks/hooks.json; for Cursor, DIR/hooks/hooks.json.
    #[arg(long = "plugin", value_name = "DIR", value_parser = absolute_path)]
    pub(crate) plugins: Vec<PathBuf>,

    /// A skill's SKILL.md whose frontmatter hooks run, as after the skill was invoked
    /// (repeatable; in addition to the settings files).
    #[arg(long = "skill", value_name = "FILE", value_parser = absolute_path)]
    pub(crate) skills: Vec<PathBuf>,

    /// A sub-agent definition whose frontmatter hooks run on that sub-agent's events (those
    /// whose input has its name as agent_type; repeatable).
    #[arg(long = "agent", value_name = "FILE", value_parser = absolute_path)]
    pub(crate) agents: Vec<PathBuf>,

    /// The project directory ($CLAUDE_PROJECT_DIR) [default: the current directory]. Without
    /// --settings or --plugin, the hooks are those of the settings files Claude Code reads for
    /// it: ~/.claude/settings.json, DIR/.claude/settings.json, DIR/.claude/settings.local.json
    /// and the managed settings in /etc/claude-code/. As in Claude Code, a parent directory's
    /// .claude/ is not read; when none of these files exists, the command says so and exits 1.
    #[arg(long, value_name = "DIR", value_parser = absolute_path)]
    pub(crate) project_dir: Option<PathBuf>,

    /// Run an input that lacks a field its event requires, or has one of the wrong type (a
    /// partial recording), instead of stopping with an error naming the field.
    #[arg(long)]
    pub(crate) lenient: bool,

    /// Where Claude Code hook texts too long for the conversation are saved, as Claude Code
    /// saves them: DIR/projects/CWD_SLUG/SESSION_ID/tool-results/ [default: ~/.claude].
    #[arg(long, value_name = "DIR", value_parser = absolute_path)]
    pub(crate) claude_home: Option<PathBuf>,

    /// The TNSAI hook list (with --dialect tnsai); for any dialect, the same as --settings.
    #[arg(long, value_name = "FILE", value_parser = absolute_path)]
    pub(crate) config: Vec<PathBuf>,

    /// Do not pass credentials to hooks: variables whose names end in _API_KEY, _TOKEN,
    /// _SECRET or _PASSWORD are removed from the environment hooks inherit.
    #[arg(long)]
    pub(crate) scrub_secrets: bool,

    /// Also remove this variable (repeatable; `*SUFFIX` removes every name ending in SUFFIX);
    /// implies --scrub-secrets.
    #[arg(long = "scrub", value_name = "VAR")]
    pub(crate) scrub: Vec<String>,

    /// Load the hooks as the agent does for a project folder it does not trust: Copilot
    /// without --trust-folder (no repository hooks: .github/hooks, .github/copilot), Codex for
    /// an untrusted project (no .codex/ layer), Claude Code before the folder is trusted (no
    /// hook runs). Files named with --settings or --plugin load as named. Cursor's hooks in an
    /// untrusted folder are not recorded: they load as in a trusted one.
    #[arg(long)]
    pub(crate) untrusted: bool,

    /// Where the agent runs: `local` (its command line or editor) or `cloud` (Copilot's cloud
    /// agent: only .github/hooks/*.json, only `bash` and `command` entries, no
    /// permissionRequest or notification hook, and a preToolUse `ask` is a deny).
    #[arg(long, value_enum, value_name = "SURFACE", default_value_t = SurfaceArg::Local)]
    pub(crate) surface: SurfaceArg,

    /// Run every shell-form Claude Code command through /bin/sh -c. By default a command of
    /// plain words (a program and its arguments, "$CLAUDE_PROJECT_DIR" at most) runs without
    /// the shell, with the same result; HOOKS_ALWAYS_SHELL=1 in the environment does the same
    /// as this flag.
    #[arg(long)]
    pub(crate) always_shell: bool,
}

/// `--surface`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SurfaceArg {
    /// The agent's command line or editor.
    Local,
    /// A hosted job with no one to ask (Copilot's cloud agent).
    Cloud,
}

impl SurfaceArg {
    /// The core's surface.
    pub(crate) fn surface(self) -> hook_protocol::Surface {
        match self {
            SurfaceArg::Local => hook_protocol::Surface::Local,
            SurfaceArg::Cloud => hook_protocol::Surface::Cloud,
        }
    }
}

impl Sources {
    /// Whether every shell-form command runs through `sh -c` (the flag, or
    /// `HOOKS_ALWAYS_SHELL` set to anything but empty or `0`).
    pub(crate) fn always_shell(&self) -> bool {
        self.always_shell
            || std::env::var_os("HOOKS_ALWAYS_SHELL").is_some_and(|v| !v.is_empty() && v != "0")
    }

    /// The credential scrub the flags ask for, if any.
    pub(crate) fn scrub(&self) -> Option<Scrub> {
        (self.scrub_secrets || !self.scrub.is_empty())
            .then(|| Scrub::new().names(self.scrub.iter().cloned()))
    }
}

/// How the hooks' processes are contained.
#[derive(Debug, Clone, Args)]
pub(crate) struct ContainArgs {
    /// Run each hook in a cgroup of its own under DIR, an existing cgroup v2 directory `hooks`
    /// may write to [default: the cgroup `hooks` runs in, when writable].
    #[arg(long, value_name = "DIR", help_heading = "Containment", value_parser = absolute_path)]
    pub(crate) cgroup_parent: Option<PathBuf>,

    /// No cgroups: a hook's tree is its process group, its descendants and the processes that
    /// carry its run's marker (a process that leaves all three escapes).
    #[arg(long, conflicts_with = "cgroup_parent", help_heading = "Containment")]
    pub(crate) no_cgroup: bool,

    /// The most processes and threads each hook may have at once (cgroup pids.max).
    #[arg(long, value_name = "N", help_heading = "Containment")]
    pub(crate) pids_max: Option<u64>,

    /// The most memory each hook may use, in bytes or with a K, M or G suffix (cgroup
    /// memory.max; KiB, MiB, GiB).
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Containment")]
    pub(crate) memory_max: Option<u64>,

    /// Each hook's CPU weight, 1 to 10000 (cgroup cpu.weight; 100 is the default).
    #[arg(long, value_name = "W", help_heading = "Containment")]
    pub(crate) cpu_weight: Option<u64>,
}

/// A size in bytes, with an optional K, M or G suffix (powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, shift) = match text.trim().char_indices().last() {
        Some((at, 'k' | 'K')) => (&text.trim()[..at], 10),
        Some((at, 'm' | 'M')) => (&text.trim()[..at], 20),
        Some((at, 'g' | 'G')) => (&text.trim()[..at], 30),
        _ => (text.trim(), 0),
    };
    let n: u64 = digits.parse().map_err(|_| format!("`{text}` is not a size (e.g. 512M)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// The event name (PreToolUse, Stop, ...).
    #[arg(long, value_name = "NAME")]
    pub(crate) event: String,

    /// The event's input as a JSON object: a file, or - for stdin [default: an empty object].
    #[arg(long, value_name = "FILE|-")]
    pub(crate) input: Option<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,

    /// How long, at most, background (`async`) hooks get to end after the event, so that
    /// their results are reported (`async_results`; they never change the decision). Those
    /// still running then are ended, with a warning.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub(crate) async_wait: f64,

    #[command(flatten)]
    pub(crate) sources: Sources,

    #[command(flatten)]
    pub(crate) contain: ContainArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Configuration files: Claude Code settings or hooks.json, TNSAI hook lists (.yaml, .yml,
    /// or JSON with a `hooks` list), Codex, Copilot or Cursor hook files; a folder is a
    /// project, and every agent's hook files in it are checked.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub(crate) files: Vec<PathBuf>,

    /// The project directory ($CLAUDE_PROJECT_DIR) used to resolve commands [default: for a
    /// file inside a .claude/ folder, the folder above it (the project the file belongs to);
    /// for any other file, the current directory].
    #[arg(long, value_name = "DIR", value_parser = absolute_path)]
    pub(crate) project_dir: Option<PathBuf>,

    /// The dialect of every file [default: each file's own, told by its place and shape].
    #[arg(
        long,
        value_name = "NAME",
        value_parser = clap::builder::PossibleValuesParser::new(crate::known::names())
    )]
    pub(crate) dialect: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// The event name.
    #[arg(long, value_name = "NAME")]
    pub(crate) event: String,

    /// The subject matchers are tested against (tool name, session source, ...); without
    /// it, every hook of the event is listed.
    #[arg(long, value_name = "S")]
    pub(crate) subject: Option<String>,

    #[command(flatten)]
    pub(crate) sources: Sources,
}

#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// The case file (YAML, or JSON with a .json extension).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,

    /// Rewrite each case's `expect` from what the hooks now do, instead of checking it.
    #[arg(long)]
    pub(crate) update: bool,

    #[command(flatten)]
    pub(crate) sources: Sources,

    #[command(flatten)]
    pub(crate) contain: ContainArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// A JSON Lines file: one {"event": NAME, "input": {...}} per line.
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,

    /// Output format (json: one `run` document per line, with `async_results`,
    /// `env_file_exports` and `guard`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,

    /// How long, at most, background (`async`) hooks get to end before the next event runs,
    /// so that their results come on the next row (a result later than that comes on a later
    /// row). Those still running after the last event are killed, as `claude -p` kills them.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub(crate) async_wait: f64,

    #[command(flatten)]
    pub(crate) sources: Sources,

    #[command(flatten)]
    pub(crate) contain: ContainArgs,
}

/// A path option made absolute against the current directory before anything sees it: hooks
/// run elsewhere, and a relative path would name another place there (a skill's directory,
/// a plugin's root, the Claude home). A path with `..` has its directory resolved as the
/// system resolves it (links followed), so that `../x` is named `/work/x`, not
/// `/work/here/../x`; its last component stays as given, and may not exist yet.
fn absolute_path(value: &str) -> Result<PathBuf, String> {
    if value.is_empty() {
        return Err("an empty path names nothing".to_owned());
    }
    let absolute =
        std::path::absolute(value).map_err(|e| format!("cannot make `{value}` absolute: {e}"))?;
    if !absolute.components().any(|c| c == std::path::Component::ParentDir) {
        return Ok(absolute);
    }
    let resolved = match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir).map(|dir| dir.join(name)),
        _ => std::fs::canonicalize(&absolute),
    };
    Ok(resolved.unwrap_or(absolute))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_with_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("99999999999G").is_err());
    }
}
