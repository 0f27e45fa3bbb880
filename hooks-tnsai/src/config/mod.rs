//! The declarative hook list: TNSAI hooks from a YAML (or JSON) file.
//!
//! ```yaml
//! trusted_roots: [./hooks]          # required; relative paths resolve against the file's directory
//! tnsai_version: "0.5.0"            # optional, default "0.5.0"
//! hooks:                            # required
//!   - id: guard                     # required, unique
//!     name: Shell guard             # optional
//!     event_type: PreToolUse        # required; a TNSAI event type, or "*" for every event
//!     matcher: "Bash|Write"         # optional; matched against the event's subject
//!     priority: -10                 # optional, default 0; lower runs first
//!     executable: ./hooks/guard.py  # required; relative to the file's directory
//!     timeout_ms: 5000              # optional, default 60000
//!     on_failure: block             # optional: allow (fail open, the default) | block (fail closed)
//!     env: {MODE: strict}           # optional; names to strings
//! scrub_credentials: true           # optional: hooks do not inherit the harness's credentials
//! ```
//!
//! `scrub_credentials` is `true` (drop inherited variables whose names end in `_API_KEY`,
//! `_TOKEN`, `_SECRET` or `_PASSWORD`), a sequence of extra names (those too, plus these: exact
//! names, or `*SUFFIX`; see [`Scrub`]), or `false` / absent (hooks inherit everything, the
//! default). A harness can also ask for it when loading ([`LoadOptions`]); a hook's own `env`
//! always reaches it.
//!
//! Optional keys may be `null`. Every problem is reported, not only the first: an unknown key,
//! a missing required key, a value of the wrong type or out of range, a duplicate id, a matcher
//! that does not compile, a trusted root that is not a directory, an executable that is not
//! trusted ([`TrustRoots::check`](crate::TrustRoots::check)). Each [`ListError`] names the
//! file, the hook (by id, or `hooks[INDEX]` when it has none) and the key, at the line and
//! column of the offending key or value.
//!
//! The hooks of a list run as a pipeline ([`HookList::MODE`]): one after another in priority
//! order, each seeing the tool input as rewritten by the hooks before it, and a hook that
//! answers `continue_chain: false` stops the rest from starting. That is the Java dispatcher's
//! priority-ordered chain. On a harness's own dispatcher (or a Claude Code `Engine`, which
//! runs its hooks in parallel), [`HookList::as_hook`] keeps it: the list is one hook there,
//! running its pipeline inside. [`HookList::shared_hooks`] gives the hooks one by one instead,
//! to run in the dispatcher's mode.

mod error;
mod list_hook;
mod node;
mod read;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hook_protocol::text_file::{Cap, read_text};
use hook_protocol::{Dispatcher, Event, Hook, Mode, Position, Report, Scrub};
use serde_saphyr::{DefaultMessageFormatter, MessageFormatter, Spanned};

pub use error::{HookRef, ListError, ListErrorKind, LoadErrors};
pub use list_hook::ListHook;

use crate::envelope::{DEFAULT_TNSAI_VERSION, Stamp};
use crate::{ScriptHook, TrustRoots};
use node::Node;
use read::Reader;

/// What the harness asks of a hook list beyond what the file says.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Scrub credentials from every hook's environment, whatever the file says (its own
    /// `scrub_credentials` names are added).
    pub scrub: Option<Scrub>,
}

impl LoadOptions {
    /// Scrubs credentials with `scrub`.
    pub fn scrub_credentials(mut self, scrub: Scrub) -> Self {
        self.scrub = Some(scrub);
        self
    }
}

/// TNSAI hooks loaded from a hook list, ready to run.
#[derive(Debug)]
pub struct HookList {
    file: PathBuf,
    trusted_roots: TrustRoots,
    tnsai_version: String,
    hooks: Vec<Arc<ScriptHook>>,
    dispatcher: Arc<Dispatcher>,
}

impl HookList {
    /// How a hook list's hooks run: a pipeline, as the Java dispatcher's chain.
    pub const MODE: Mode = Mode::Pipeline;

    /// Reads and checks a hook list file.
    ///
    /// # Errors
    ///
    /// [`LoadErrors`] with every problem found, each naming the file, hook, key and position.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadErrors> {
        Self::load_with(path, &LoadOptions::default())
    }

    /// Reads and checks a hook list file, with the harness's options.
    ///
    /// # Errors
    ///
    /// [`LoadErrors`] with every problem found, each naming the file, hook, key and position.
    pub fn load_with(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Self, LoadErrors> {
        let path = path.as_ref();
        let source = read_text(path, Cap::CONFIG).map_err(|e| {
            LoadErrors::new(vec![ListError::new(
                path,
                None,
                ListErrorKind::Read { message: e.to_string() },
            )])
        })?;
        Self::parse_with(&source, path, options)
    }

    /// Checks a hook list given as text; `file` names it in errors and its directory is where
    /// relative paths resolve.
    ///
    /// # Errors
    ///
    /// [`LoadErrors`] with every problem found.
    pub fn parse(source: &str, file: &Path) -> Result<Self, LoadErrors> {
        Self::parse_with(source, file, &LoadOptions::default())
    }

    /// Checks a hook list given as text, with the harness's options.
    ///
    /// # Errors
    ///
    /// [`LoadErrors`] with every problem found.
    pub fn parse_with(
        source: &str,
        file: &Path,
        options: &LoadOptions,
    ) -> Result<Self, LoadErrors> {
        let base = match file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
            _ => PathBuf::from("."),
        };
        let root: Spanned<Node> = serde_saphyr::from_str(source).map_err(|e| {
            let position = e.location().filter(|l| l.line() > 0).map(|l| {
                let at = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
                Position::new(at(l.line()), at(l.column()))
            });
            let message = sanitize(&DefaultMessageFormatter.format_message(&e));
            LoadErrors::new(vec![ListError::new(file, position, ListErrorKind::Syntax { message })])
        })?;
        let mut reader = Reader::new(file, &base, options.scrub.clone());
        let doc = reader.document(&root);
        let trusted_roots = TrustRoots::new(&doc.roots).unwrap_or_default();
        let hooks: Vec<Arc<ScriptHook>> = doc.hooks.into_iter().map(Arc::new).collect();
        let mut errors = reader.errors;
        let dispatcher = Dispatcher::builder()
            .mode(Self::MODE)
            .hooks(hooks.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>))
            .build()
            .map_err(|e| {
                errors.push(ListError::new(file, None, ListErrorKind::Matcher(e)));
            });
        match dispatcher {
            Ok(dispatcher) if errors.is_empty() => Ok(Self {
                file: file.to_owned(),
                trusted_roots,
                tnsai_version: doc
                    .tnsai_version
                    .unwrap_or_else(|| DEFAULT_TNSAI_VERSION.to_owned()),
                hooks,
                dispatcher: Arc::new(dispatcher),
            }),
            _ => Err(LoadErrors::new(errors)),
        }
    }

    /// The file the list was read from.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The resolved trusted roots.
    pub fn trusted_roots(&self) -> &TrustRoots {
        &self.trusted_roots
    }

    /// The `tnsai_version` the hooks send.
    pub fn tnsai_version(&self) -> &str {
        &self.tnsai_version
    }

    /// The hooks, in file order.
    pub fn hooks(&self) -> &[Arc<ScriptHook>] {
        &self.hooks
    }

    /// The hooks as the core's shared hooks, in file order, to register one by one on a
    /// [`Dispatcher`]: there they run in that dispatcher's mode, not as this list's pipeline
    /// (see [`HookList::as_hook`] to keep it).
    pub fn shared_hooks(&self) -> Vec<Arc<dyn Hook>> {
        self.hooks.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>).collect()
    }

    /// The whole list as one hook that runs the list's pipeline ([`ListHook`]), for a
    /// dispatcher or an `Engine` of any mode: the list keeps its order, its rewrites chained
    /// from hook to hook and its `continue_chain: false`.
    pub fn as_hook(&self) -> Arc<dyn Hook> {
        Arc::new(ListHook::new(&self.file, Arc::clone(&self.dispatcher)))
    }

    /// The dispatcher running the hooks (in priority order, [`HookList::MODE`]).
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// Runs the hooks that match `event`, as a pipeline, and folds their verdicts.
    ///
    /// The event gets a [`Stamp`] first if it has none, so every hook sees the same
    /// `event_id` and `timestamp`.
    pub async fn run(&self, event: &Event) -> Report {
        if event.extensions.get::<Stamp>().is_some() {
            return self.dispatcher.dispatch(event).await;
        }
        let mut stamped = event.clone();
        Stamp::attach(&mut stamped);
        self.dispatcher.dispatch(&stamped).await
    }
}

/// The parser's message on one line, without control characters.
fn sanitize(message: &str) -> String {
    message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}
