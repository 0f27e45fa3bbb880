//! The engine over a command dialect: its hooks, on a dispatcher, in one run group; an event
//! run from the agent's input object; and what each hook starts from.

use std::sync::Arc;

use hook_exec::{Env, RunGroup};
use hook_protocol::{
    Aliases, Dispatcher, DispatcherBuilder, Event, FailurePolicy, Hook, HookInfo, MatcherError,
    Report, Scrub, Shown, Source,
};
use serde_json::{Map, Value};

use crate::{EventTable, InputObject};

/// One engine's hooks: on a dispatcher, in one run group.
#[derive(Debug)]
pub struct Core<H> {
    hooks: Vec<Arc<H>>,
    dispatcher: Dispatcher,
    group: RunGroup,
}

impl<H: Hook + 'static> Core<H> {
    /// `hooks`, already in `group`, on a dispatcher that `configure` sets up (its mode, its
    /// aliases).
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when the matchers of one event cannot be compiled together.
    pub fn new(
        hooks: impl IntoIterator<Item = H>,
        group: RunGroup,
        configure: impl FnOnce(DispatcherBuilder) -> DispatcherBuilder,
    ) -> Result<Self, MatcherError> {
        let hooks: Vec<Arc<H>> = hooks.into_iter().map(Arc::new).collect();
        let dispatcher = configure(Dispatcher::builder())
            .hooks(hooks.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>))
            .build()?;
        Ok(Self { hooks, dispatcher, group })
    }

    /// The hooks, as the dialect made them.
    pub fn commands(&self) -> &[Arc<H>] {
        &self.hooks
    }

    /// The hooks, to register on a harness's own dispatcher beside other kinds.
    pub fn hooks(&self) -> Vec<Arc<dyn Hook>> {
        self.hooks.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>).collect()
    }

    /// The dispatcher of the hooks.
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.dispatcher
    }

    /// The run group the hooks run in.
    pub fn group(&self) -> &RunGroup {
        &self.group
    }

    /// Dispatches `event`, which carries the input object of `name`, and presents the report
    /// with `shown` (the dialect's templates, given the report and the object the hooks read).
    pub async fn run<E: EventTable>(
        &self,
        name: E,
        event: &Event,
        shown: impl FnOnce(&Report, &Map<String, Value>) -> Shown,
    ) -> Run<E> {
        let report = self.dispatcher.dispatch(event).await;
        let input = InputObject::<E>::object_of(event);
        let shown = shown(&report, &input);
        Run { event: name, input, report, shown }
    }
}

/// One event run from an agent's input: what the hooks received, the fold, what the agent
/// shows.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Run<E> {
    /// The event.
    pub event: E,
    /// The object the hooks received on stdin.
    pub input: Arc<Map<String, Value>>,
    /// The fold and one record per hook.
    pub report: Report,
    /// What the agent shows the model and the user after it.
    pub shown: Shown,
}

/// A table of tool aliases (a tool, and the names it also answers to) as the core's
/// [`Aliases`].
pub fn aliases(table: &[(&str, &[&str])]) -> Aliases {
    table.iter().fold(Aliases::new(), |a, (tool, names)| a.alias(*tool, names.iter().copied()))
}

/// What a command hook of `dialect` starts from: the id `dialect:event:index`, its file as its
/// source, `label` (its command as a person reads it), its event's seam, failing open.
pub fn hook_info<E: EventTable>(
    dialect: &'static str,
    event: E,
    index: usize,
    file: &std::path::Path,
    label: String,
) -> HookInfo {
    let mut info = HookInfo::new(
        format!("{dialect}:{}:{index}", event.as_str()),
        Source::new(dialect, Some(file.display().to_string())),
    );
    info.label = label;
    info.failure_policy = FailurePolicy::OPEN;
    info.on = event.on();
    info
}

/// The environment a command hook starts from: the harness's own, without the credentials
/// `scrub` names.
pub fn inherited_env(scrub: Option<&Scrub>) -> Env {
    let mut env = Env::inherit();
    if let Some(scrub) = scrub {
        env.scrub_credentials(scrub.clone());
    }
    env
}

/// The methods every command dialect's engine has over its [`Core`] (in the field named) and
/// its configuration: `running`, `kill_running`, `config`, and `dispatcher` and `hooks` with
/// the dialect's own docs.
///
/// ```ignore
/// impl Engine {
///     hook_kit::engine_methods! {
///         core, config: Config;
///         /// The dispatcher of the hooks.
///         dispatcher;
///         /// The hooks, to register on a harness's own dispatcher beside other kinds.
///         hooks;
///     }
/// }
/// ```
#[macro_export]
macro_rules! engine_methods {
    (
        $core:ident, $config:ident: $Config:ty;
        $(#[$dispatcher:meta])* dispatcher;
        $(#[$hooks:meta])* hooks;
    ) => {
        /// How many of this engine's hooks are running now.
        pub fn running(&self) -> usize {
            self.$core.group().running()
        }

        /// Ends this engine's running hooks, and no other engine's: SIGTERM to each one's
        /// process tree (or cgroup), up to `grace` for them to go, then SIGKILL; the events they
        /// ran for end as their hooks were killed. Returns how many were running. It blocks for
        /// at most `grace`: call it from a blocking task or a thread.
        pub fn kill_running(&self, grace: ::std::time::Duration) -> usize {
            self.$core.group().kill_running(grace)
        }

        /// The configuration.
        pub fn config(&self) -> &$Config {
            &self.$config
        }

        $(#[$dispatcher])*
        pub fn dispatcher(&self) -> &::hook_protocol::Dispatcher {
            self.$core.dispatcher()
        }

        $(#[$hooks])*
        pub fn hooks(&self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::hook_protocol::Hook>> {
            self.$core.hooks()
        }
    };
}

/// An engine's two constructors, their contract written once: `new`, with the dialect's docs
/// and arguments, and `new_in`, the same with a [`hook_exec::RunGroup`] its hooks run in, whose
/// body builds the engine. `new` is `new_in` in a group of its own.
///
/// ```ignore
/// impl Engine {
///     hook_kit::engine_new! {
///         /// The hooks of `config`, for a project.
///         new(config: Config, project_dir: impl Into<PathBuf>) in group => {
///             let core = Core::new(hooks_of(&config), group, |d| d)?;
///             Ok(Self { config, core, project_dir: project_dir.into() })
///         }
///     }
/// }
/// ```
#[macro_export]
macro_rules! engine_new {
    (
        $(#[$doc:meta])*
        new($($arg:ident: $ty:ty),* $(,)?) in $group:ident => $body:block
    ) => {
        $(#[$doc])*
        ///
        /// # Errors
        ///
        /// [`MatcherError`](::hook_protocol::MatcherError) when the matchers of one event cannot
        /// be compiled together.
        pub fn new($($arg: $ty),*) -> ::std::result::Result<Self, ::hook_protocol::MatcherError> {
            Self::new_in($($arg,)* ::hook_exec::RunGroup::new())
        }

        /// As [`Engine::new`](Self::new), its hooks run in `group`: with the group's
        /// containment choices (cgroups or not, resource limits), over the process's, and ended
        /// together by [`Engine::kill_running`](Self::kill_running). Engines of one process may
        /// each have their own.
        ///
        /// # Errors
        ///
        /// [`MatcherError`](::hook_protocol::MatcherError) when the matchers of one event cannot
        /// be compiled together.
        pub fn new_in(
            $($arg: $ty,)*
            $group: ::hook_exec::RunGroup,
        ) -> ::std::result::Result<Self, ::hook_protocol::MatcherError> $body
    };
}
