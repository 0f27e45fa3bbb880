//! The registry of the four pairs' hooks.

use std::any::{Any, type_name};
use std::fmt;

use crate::chain::{AfterFn, BeforeFn};
use crate::{Agent, Chain, Half, PairName, Prompt, RegisterError, Stages, Task, Tool};

/// The before and after hooks of the four pairs, typed by the harness's [`Stages`].
///
/// Hooks alter the input and output of the one stage they wrap; they do not create their own
/// flow nor skip stages. See [`Chain`] for the order in which they run.
///
/// ```
/// use hooks_native::{Hooks, Stages, Tool};
///
/// struct Harness;
/// impl Stages for Harness {
///     type Error = String;
///     type TaskSubject = ();
///     type TaskResult = ();
///     type PromptSubject = ();
///     type PromptResult = ();
///     type AgentSubject = ();
///     type AgentResult = ();
///     type ToolSubject = String;
///     type ToolResult = usize;
/// }
///
/// let mut hooks = Hooks::<Harness>::new();
/// hooks
///     .before(Tool, |cmd: String| Ok(cmd.trim().to_owned()))
///     .after(Tool, |len: usize| if len > 100 { Err(format!("{len} is too long")) } else { Ok(len) });
/// assert_eq!(hooks.around(Tool, "  ls  ".to_owned(), |cmd| Ok(cmd.len())), Ok(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A hook of the wrong type for its pair does not compile:
///
/// ```compile_fail
/// # use hooks_native::{Hooks, Stages, Tool};
/// # struct Harness;
/// # impl Stages for Harness {
/// #     type Error = String;
/// #     type TaskSubject = (); type TaskResult = ();
/// #     type PromptSubject = (); type PromptResult = ();
/// #     type AgentSubject = (); type AgentResult = ();
/// #     type ToolSubject = String; type ToolResult = usize;
/// # }
/// let mut hooks = Hooks::<Harness>::new();
/// hooks.before(Tool, |n: usize| Ok(n));
/// ```
pub struct Hooks<S: Stages> {
    pub(crate) task: Chain<S::TaskSubject, S::TaskResult, S::Error>,
    pub(crate) prompt: Chain<S::PromptSubject, S::PromptResult, S::Error>,
    pub(crate) agent: Chain<S::AgentSubject, S::AgentResult, S::Error>,
    pub(crate) tool: Chain<S::ToolSubject, S::ToolResult, S::Error>,
}

impl<S: Stages> Hooks<S> {
    /// A registry with no hooks: every `around` is exactly its body.
    pub fn new() -> Self {
        Self { task: Chain::new(), prompt: Chain::new(), agent: Chain::new(), tool: Chain::new() }
    }

    /// The chain of `pair`.
    pub fn chain<P: Pair<S>>(&self, _pair: P) -> &Chain<P::Subject, P::Result, S::Error> {
        P::chain(self)
    }

    /// The chain of `pair`, to register on.
    pub fn chain_mut<P: Pair<S>>(
        &mut self,
        _pair: P,
    ) -> &mut Chain<P::Subject, P::Result, S::Error> {
        P::chain_mut(self)
    }

    /// Registers a before hook on `pair`, after those already registered.
    pub fn before<P: Pair<S>>(
        &mut self,
        pair: P,
        hook: impl Fn(P::Subject) -> Result<P::Subject, S::Error> + Send + Sync + 'static,
    ) -> &mut Self {
        self.chain_mut(pair).before(hook);
        self
    }

    /// Registers an after hook on `pair`; it runs before the afters already registered.
    pub fn after<P: Pair<S>>(
        &mut self,
        pair: P,
        hook: impl Fn(P::Result) -> Result<P::Result, S::Error> + Send + Sync + 'static,
    ) -> &mut Self {
        self.chain_mut(pair).after(hook);
        self
    }

    /// Registers a before and an after hook on `pair` at once: the after runs in the mirror
    /// position of the before, so the two nest around the stage.
    pub fn register<P: Pair<S>>(
        &mut self,
        pair: P,
        before: impl Fn(P::Subject) -> Result<P::Subject, S::Error> + Send + Sync + 'static,
        after: impl Fn(P::Result) -> Result<P::Result, S::Error> + Send + Sync + 'static,
    ) -> &mut Self {
        self.chain_mut(pair).before(before).after(after);
        self
    }

    /// Registers a before hook on the pair named `name`.
    ///
    /// # Errors
    ///
    /// [`RegisterError::UnknownPair`] when `name` is none of `task`, `prompt`, `agent`, `tool`;
    /// [`RegisterError::TypeMismatch`] when `T` is not that pair's subject type. Nothing is
    /// registered then.
    pub fn before_by_name<T: 'static>(
        &mut self,
        name: &str,
        hook: impl Fn(T) -> Result<T, S::Error> + Send + Sync + 'static,
    ) -> Result<&mut Self, RegisterError> {
        let pair: PairName = name.parse()?;
        let hook: BeforeFn<T, S::Error> = Box::new(hook);
        match pair {
            PairName::Task => self.push_before_any(Task, hook),
            PairName::Prompt => self.push_before_any(Prompt, hook),
            PairName::Agent => self.push_before_any(Agent, hook),
            PairName::Tool => self.push_before_any(Tool, hook),
        }?;
        Ok(self)
    }

    /// Registers an after hook on the pair named `name`.
    ///
    /// # Errors
    ///
    /// [`RegisterError::UnknownPair`] when `name` is none of `task`, `prompt`, `agent`, `tool`;
    /// [`RegisterError::TypeMismatch`] when `T` is not that pair's result type. Nothing is
    /// registered then.
    pub fn after_by_name<T: 'static>(
        &mut self,
        name: &str,
        hook: impl Fn(T) -> Result<T, S::Error> + Send + Sync + 'static,
    ) -> Result<&mut Self, RegisterError> {
        let pair: PairName = name.parse()?;
        let hook: AfterFn<T, S::Error> = Box::new(hook);
        match pair {
            PairName::Task => self.push_after_any(Task, hook),
            PairName::Prompt => self.push_after_any(Prompt, hook),
            PairName::Agent => self.push_after_any(Agent, hook),
            PairName::Tool => self.push_after_any(Tool, hook),
        }?;
        Ok(self)
    }

    fn push_before_any<P: Pair<S>, T: 'static>(
        &mut self,
        pair: P,
        hook: BeforeFn<T, S::Error>,
    ) -> Result<(), RegisterError> {
        let hook = cast::<_, BeforeFn<P::Subject, S::Error>>(hook).ok_or_else(|| {
            RegisterError::TypeMismatch {
                pair: P::NAME,
                half: Half::Before,
                expected: type_name::<P::Subject>(),
                found: type_name::<T>(),
            }
        })?;
        self.chain_mut(pair).push_before(hook);
        Ok(())
    }

    fn push_after_any<P: Pair<S>, T: 'static>(
        &mut self,
        pair: P,
        hook: AfterFn<T, S::Error>,
    ) -> Result<(), RegisterError> {
        let hook = cast::<_, AfterFn<P::Result, S::Error>>(hook).ok_or_else(|| {
            RegisterError::TypeMismatch {
                pair: P::NAME,
                half: Half::After,
                expected: type_name::<P::Result>(),
                found: type_name::<T>(),
            }
        })?;
        self.chain_mut(pair).push_after(hook);
        Ok(())
    }

    /// Runs the before hooks of `pair` in registration order.
    ///
    /// The public half of [`Hooks::around`], for stages with no block to wrap (a tool loop
    /// driven by callbacks calls `run_before` in its before-call callback and
    /// [`Hooks::run_after`] in its after-result callback).
    ///
    /// # Errors
    ///
    /// The first hook error, unchanged.
    pub fn run_before<P: Pair<S>>(
        &self,
        pair: P,
        subject: P::Subject,
    ) -> Result<P::Subject, S::Error> {
        self.chain(pair).run_before(subject)
    }

    /// Runs the after hooks of `pair` in reverse registration order.
    ///
    /// # Errors
    ///
    /// The first hook error, unchanged.
    pub fn run_after<P: Pair<S>>(&self, pair: P, result: P::Result) -> Result<P::Result, S::Error> {
        self.chain(pair).run_after(result)
    }

    /// Wraps one stage: the befores of `pair` in registration order, then `body` on the subject
    /// they return, then the afters in reverse registration order on its result.
    ///
    /// With nothing registered on `pair` this is exactly `body(subject)`.
    ///
    /// # Errors
    ///
    /// The first error of a hook or of the body, unchanged (see [`Chain::around`]).
    pub fn around<P: Pair<S>>(
        &self,
        pair: P,
        subject: P::Subject,
        body: impl FnOnce(P::Subject) -> Result<P::Result, S::Error>,
    ) -> Result<P::Result, S::Error> {
        self.chain(pair).around(subject, body)
    }

    /// Whether no hook is registered on any pair.
    pub fn is_empty(&self) -> bool {
        self.task.is_empty()
            && self.prompt.is_empty()
            && self.agent.is_empty()
            && self.tool.is_empty()
    }
}

/// `value` as a `B`, when `A` and `B` are the same type.
fn cast<A: 'static, B: 'static>(value: A) -> Option<B> {
    let mut slot = Some(value);
    (&mut slot as &mut dyn Any).downcast_mut::<Option<B>>().and_then(Option::take)
}

impl<S: Stages> Default for Hooks<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Stages> fmt::Debug for Hooks<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("task", &self.task)
            .field("prompt", &self.prompt)
            .field("agent", &self.agent)
            .field("tool", &self.tool)
            .finish()
    }
}

/// One of the four pairs, named at compile time: its subject and result types, its name, and
/// where its chain lives in a [`Hooks`] registry.
///
/// Sealed: the pairs are [`Task`], [`Prompt`], [`Agent`] and [`Tool`].
pub trait Pair<S: Stages>: Copy + fmt::Debug + crate::pair::sealed::Sealed {
    /// What goes into the stage; before hooks receive it and return it, possibly altered.
    type Subject: 'static;
    /// What comes out of the stage; after hooks receive it and return it, possibly altered.
    type Result: 'static;
    /// The pair's run-time name.
    const NAME: PairName;

    /// This pair's chain in `hooks`.
    fn chain(hooks: &Hooks<S>) -> &Chain<Self::Subject, Self::Result, S::Error>;

    /// This pair's chain in `hooks`, to register on.
    fn chain_mut(hooks: &mut Hooks<S>) -> &mut Chain<Self::Subject, Self::Result, S::Error>;
}

macro_rules! pairs {
    ($($marker:ident => $variant:ident, $field:ident, $subject:ident, $result:ident;)*) => {$(
        impl<S: Stages> Pair<S> for $marker {
            type Subject = S::$subject;
            type Result = S::$result;
            const NAME: PairName = PairName::$variant;

            fn chain(hooks: &Hooks<S>) -> &Chain<Self::Subject, Self::Result, S::Error> {
                &hooks.$field
            }

            fn chain_mut(
                hooks: &mut Hooks<S>,
            ) -> &mut Chain<Self::Subject, Self::Result, S::Error> {
                &mut hooks.$field
            }
        }
    )*};
}

pairs! {
    Task => Task, task, TaskSubject, TaskResult;
    Prompt => Prompt, prompt, PromptSubject, PromptResult;
    Agent => Agent, agent, AgentSubject, AgentResult;
    Tool => Tool, tool, ToolSubject, ToolResult;
}
