//! Native hooks on the core's dispatcher: a typed function answering a seam's typed event.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use async_trait::async_trait;
use hook_protocol::{
    Common, Event, FailurePolicy, Hook, HookInfo, HookOutcome, HookStatus, Matcher, On, Seam,
    Source, Verdict,
};

use crate::IntoAnswer;
use crate::seam::{self, SeamKind};

/// The dialect name on a native hook's [`Source`].
pub const DIALECT: &str = "native";

/// A native hook on one seam: a Rust function from the seam's typed event to its typed
/// [`Answer`](crate::Answer), with an id, a priority, a matcher and a failure policy.
///
/// It implements [`Hook`], so it sits on the same [`hook_protocol::Dispatcher`] as Claude Code
/// and TNSAI hooks and its verdict is folded with theirs. Running it builds no JSON: the
/// function reads the event as the harness raised it and its answer is the verdict.
///
/// Its [`Source`] has dialect `native` and the hook's label as origin (the id unless
/// [`SeamHook::label`] sets one), so the context it injects is labelled as coming from it.
///
/// The function may return an `Answer` or a `Result<Answer, E>` with `E: Display`: an `Err`
/// is a failure (status [`HookStatus::Failed`], the error's text as failure message), and so is
/// a panic; the hook's [`FailurePolicy`] decides what a failure counts as (fail open by
/// default).
///
/// A hook that waits for something (a policy service, a database, a model) is asynchronous:
/// each seam has an `_async` constructor ([`SeamHook::pre_tool_async`], ...) taking a function
/// that receives the typed event and the common facts by value (cloned for it, so that the
/// future it returns owns them and can be `async move`) and returns a `Send` future of the
/// same answers. A panic while the future runs is a failure too, and the dispatcher's
/// cancellation drops the future.
///
/// ```
/// use hook_protocol::{Common, Matcher, ToolCall};
/// use hooks_native::{Answer, SeamHook};
///
/// let guard = SeamHook::pre_tool("no-rm", |call: &ToolCall, _: &Common| {
///     match call.tool_input.get("command").and_then(|c| c.as_str()) {
///         Some(cmd) if cmd.contains("rm -rf") => Answer::deny("`rm -rf` is not allowed"),
///         _ => Answer::no_opinion(),
///     }
/// })
/// .priority(-10)
/// .matcher(Matcher::exact(["Bash"]));
/// # let _ = guard;
/// ```
///
/// An asynchronous one:
///
/// ```
/// use hook_protocol::{Common, ToolCall};
/// use hooks_native::{Answer, SeamHook};
///
/// let audit = SeamHook::pre_tool_async("audit", |call: ToolCall, common: Common| async move {
///     // e.g. ask a policy service about `call`, awaiting its answer.
///     tokio::task::yield_now().await;
///     if call.tool_name == "Bash" && common.cwd.ends_with("prod") {
///         Answer::deny("no shell in the production checkout")
///     } else {
///         Answer::no_opinion()
///     }
/// });
/// # let _ = audit;
/// ```
pub struct SeamHook {
    info: HookInfo,
    body: Body,
}

/// The hook's function, synchronous or not.
enum Body {
    Sync(Box<dyn Run>),
    Async(Box<dyn AsyncRun>),
}

/// The type-erased function: `None` when the event is not the seam's.
trait Run: Send + Sync {
    fn run(&self, event: &Event) -> Option<Result<Verdict, String>>;
}

/// An asynchronous hook's answer, on its way.
type Pending = Pin<Box<dyn Future<Output = Result<Verdict, String>> + Send>>;

/// The type-erased asynchronous function: `None` when the event is not the seam's.
trait AsyncRun: Send + Sync {
    fn start(&self, event: &Event) -> Option<Pending>;
}

struct TypedAsync<K, F, Fut> {
    f: F,
    kind: PhantomData<fn(K) -> Fut>,
}

impl<K, F, Fut> AsyncRun for TypedAsync<K, F, Fut>
where
    K: SeamKind,
    K::Event: Clone,
    F: Fn(K::Event, Common) -> Fut + Send + Sync,
    Fut: Future + Send + 'static,
    Fut::Output: IntoAnswer<K>,
{
    fn start(&self, event: &Event) -> Option<Pending> {
        let typed = K::select(&event.payload)?.clone();
        let answer = (self.f)(typed, event.common.clone());
        Some(Box::pin(async move { answer.await.into_answer().map(crate::Answer::into_verdict) }))
    }
}

struct Typed<K, F, R> {
    f: F,
    kind: PhantomData<fn(K) -> R>,
}

impl<K, F, R> Run for Typed<K, F, R>
where
    K: SeamKind,
    F: Fn(&K::Event, &Common) -> R + Send + Sync,
    R: IntoAnswer<K>,
{
    fn run(&self, event: &Event) -> Option<Result<Verdict, String>> {
        let typed = K::select(&event.payload)?;
        Some((self.f)(typed, &event.common).into_answer().map(crate::Answer::into_verdict))
    }
}

macro_rules! constructors {
    ($($(#[$doc:meta])* $name:ident, $async_name:ident => $kind:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name<F, R>(id: impl Into<String>, f: F) -> Self
        where
            F: Fn(&<seam::$kind as SeamKind>::Event, &Common) -> R + Send + Sync + 'static,
            R: IntoAnswer<seam::$kind> + 'static,
        {
            Self::typed::<seam::$kind, F, R>(id, On::seam(Seam::$kind), f)
        }

        $(#[$doc])*
        ///
        /// Asynchronous: the function gets the event and the common facts by value and returns
        /// a future of its answer.
        pub fn $async_name<F, Fut>(id: impl Into<String>, f: F) -> Self
        where
            F: Fn(<seam::$kind as SeamKind>::Event, Common) -> Fut + Send + Sync + 'static,
            Fut: Future + Send + 'static,
            Fut::Output: IntoAnswer<seam::$kind>,
        {
            Self::typed_async::<seam::$kind, F, Fut>(id, On::seam(Seam::$kind), f)
        }
    )*};
}

impl SeamHook {
    fn typed<K, F, R>(id: impl Into<String>, on: On, f: F) -> Self
    where
        K: SeamKind,
        F: Fn(&K::Event, &Common) -> R + Send + Sync + 'static,
        R: IntoAnswer<K> + 'static,
    {
        Self::with_body(id, on, Body::Sync(Box::new(Typed::<K, F, R> { f, kind: PhantomData })))
    }

    fn typed_async<K, F, Fut>(id: impl Into<String>, on: On, f: F) -> Self
    where
        K: SeamKind,
        K::Event: Clone,
        F: Fn(K::Event, Common) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoAnswer<K>,
    {
        let run = TypedAsync::<K, F, Fut> { f, kind: PhantomData };
        Self::with_body(id, on, Body::Async(Box::new(run)))
    }

    fn with_body(id: impl Into<String>, on: On, body: Body) -> Self {
        let id = id.into();
        let mut info = HookInfo::new(id.clone(), Source::new(DIALECT, Some(id)));
        info.on = on;
        Self { info, body }
    }

    constructors! {
        /// A hook on [`Seam::SessionStart`].
        session_start, session_start_async => SessionStart;
        /// A hook on [`Seam::PromptSubmit`].
        prompt_submit, prompt_submit_async => PromptSubmit;
        /// A hook on [`Seam::PreTool`].
        pre_tool, pre_tool_async => PreTool;
        /// A hook on [`Seam::PermissionRequest`].
        permission_request, permission_request_async => PermissionRequest;
        /// A hook on [`Seam::PostTool`].
        post_tool, post_tool_async => PostTool;
        /// A hook on [`Seam::PostToolFailure`].
        post_tool_failure, post_tool_failure_async => PostToolFailure;
        /// A hook on [`Seam::TurnEnd`].
        turn_end, turn_end_async => TurnEnd;
        /// A hook on [`Seam::SubagentStart`].
        subagent_start, subagent_start_async => SubagentStart;
        /// A hook on [`Seam::SubagentEnd`].
        subagent_end, subagent_end_async => SubagentEnd;
        /// A hook on [`Seam::PreCompact`].
        pre_compact, pre_compact_async => PreCompact;
        /// A hook on [`Seam::Notification`].
        notification, notification_async => Notification;
        /// A hook on [`Seam::SessionEnd`].
        session_end, session_end_async => SessionEnd;
    }

    /// A hook on the custom events named `name` (a dialect's own interception point).
    pub fn custom<F, R>(id: impl Into<String>, name: impl Into<String>, f: F) -> Self
    where
        F: Fn(&hook_protocol::Custom, &Common) -> R + Send + Sync + 'static,
        R: IntoAnswer<seam::Custom> + 'static,
    {
        Self::typed::<seam::Custom, F, R>(id, On::Custom(name.into()), f)
    }

    /// An asynchronous hook on the custom events named `name`.
    pub fn custom_async<F, Fut>(id: impl Into<String>, name: impl Into<String>, f: F) -> Self
    where
        F: Fn(hook_protocol::Custom, Common) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoAnswer<seam::Custom>,
    {
        Self::typed_async::<seam::Custom, F, Fut>(id, On::Custom(name.into()), f)
    }

    /// Whether the hook's function is asynchronous (built with an `_async` constructor).
    pub fn is_async(&self) -> bool {
        matches!(self.body, Body::Async(_))
    }

    /// Sets the priority: lower runs first, negative before zero; ties keep registration order.
    pub fn priority(mut self, priority: i32) -> Self {
        self.info.priority = priority;
        self
    }

    /// Sets the matcher tested against the event's subject (the tool name, ...).
    pub fn matcher(mut self, matcher: Matcher) -> Self {
        self.info.matcher = matcher;
        self
    }

    /// Sets what a failure of the hook counts as.
    pub fn failure_policy(mut self, policy: FailurePolicy) -> Self {
        self.info.failure_policy = policy;
        self
    }

    /// Makes a failure of the hook count as a deny.
    pub fn fail_closed(self) -> Self {
        self.failure_policy(FailurePolicy::CLOSED)
    }

    /// Sets the label for records (e.g. the function's path) and the origin of the hook's
    /// source.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        let label = label.into();
        self.info.source = Source::new(DIALECT, Some(label.clone()));
        self.info.label = label;
        self
    }

    /// The hook behind an `Arc`, as a [`hook_protocol::DispatcherBuilder`] takes shared hooks.
    pub fn shared(self) -> Arc<dyn Hook> {
        Arc::new(self)
    }

    /// Runs the hook on `event` synchronously: what [`Hook::run`] returns, without a future.
    /// An asynchronous hook cannot: its outcome is a failure saying so.
    pub fn run_now(&self, event: &Event) -> HookOutcome {
        if let Some(outcome) = self.not_for(event) {
            return outcome;
        }
        match &self.body {
            Body::Sync(run) => {
                self.outcome(event, catch_unwind(AssertUnwindSafe(|| run.run(event))))
            }
            Body::Async(_) => HookOutcome::failure(
                HookStatus::Failed,
                format!(
                    "native hook `{}` is asynchronous and cannot run synchronously",
                    self.info.id
                ),
            ),
        }
    }

    /// The outcome when the hook is not registered for `event`.
    fn not_for(&self, event: &Event) -> Option<HookOutcome> {
        (!self.info.on.applies_to(event)).then(|| {
            HookOutcome::skipped(format!(
                "native hook `{}` is not registered for `{}` events",
                self.info.id,
                event.seam()
            ))
        })
    }

    /// The outcome of the function's answer (`None`: another seam's payload), or its panic.
    fn outcome(
        &self,
        event: &Event,
        answered: Result<Option<Result<Verdict, String>>, Box<dyn Any + Send>>,
    ) -> HookOutcome {
        match answered {
            Ok(Some(Ok(verdict))) => HookOutcome::success(verdict),
            Ok(Some(Err(message))) => HookOutcome::failure(HookStatus::Failed, message),
            Ok(None) => HookOutcome::skipped(format!(
                "native hook `{}` got a `{}` event with another seam's payload",
                self.info.id,
                event.seam()
            )),
            Err(panic) => HookOutcome::failure(
                HookStatus::Failed,
                format!("panicked: {}", panic_message(panic.as_ref())),
            ),
        }
    }

    /// Runs an asynchronous hook: a panic while starting or polling is caught.
    async fn run_async(&self, run: &dyn AsyncRun, event: &Event) -> HookOutcome {
        let mut pending = match catch_unwind(AssertUnwindSafe(|| run.start(event))) {
            Ok(Some(pending)) => pending,
            Ok(None) => return self.outcome(event, Ok(None)),
            Err(panic) => return self.outcome(event, Err(panic)),
        };
        let answered = std::future::poll_fn(|cx| {
            match catch_unwind(AssertUnwindSafe(|| pending.as_mut().poll(cx))) {
                Ok(Poll::Ready(answer)) => Poll::Ready(Ok(Some(answer))),
                Ok(Poll::Pending) => Poll::Pending,
                Err(panic) => Poll::Ready(Err(panic)),
            }
        })
        .await;
        self.outcome(event, answered)
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "a non-string payload"
    }
}

#[async_trait]
impl Hook for SeamHook {
    fn info(&self) -> &HookInfo {
        &self.info
    }

    async fn run(&self, event: &Event) -> HookOutcome {
        match &self.body {
            Body::Sync(_) => self.run_now(event),
            Body::Async(run) => match self.not_for(event) {
                Some(outcome) => outcome,
                None => self.run_async(run.as_ref(), event).await,
            },
        }
    }
}

impl fmt::Debug for SeamHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeamHook")
            .field("info", &self.info)
            .field("async", &self.is_async())
            .finish_non_exhaustive()
    }
}
