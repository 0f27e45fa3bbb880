//! Native hooks on the core's dispatcher: a typed function answering a seam's typed event.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

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
/// ```
/// use hook_protocol::{Common, Matcher, ToolCall};
/// use hooks_native::{Answer, SeamHook};
///
/// let guard = SeamHook::pre_tool("no-rm", |call: &ToolCall, _: &Common| {
///     match call.tool_input.get("command").and_then(|c| c.as_str()) {
///         Some(cmd) if cmd.contains("rm -rf") => Answer::deny("`rm -rf` is not allowed"),
///         _ => Answer::none(),
///     }
/// })
/// .priority(-10)
/// .matcher(Matcher::exact(["Bash"]));
/// # let _ = guard;
/// ```
pub struct SeamHook {
    info: HookInfo,
    run: Box<dyn Run>,
}

/// The type-erased function: `None` when the event is not the seam's.
trait Run: Send + Sync {
    fn run(&self, event: &Event) -> Option<Result<Verdict, String>>;
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
    ($($(#[$doc:meta])* $name:ident => $kind:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name<F, R>(id: impl Into<String>, f: F) -> Self
        where
            F: Fn(&<seam::$kind as SeamKind>::Event, &Common) -> R + Send + Sync + 'static,
            R: IntoAnswer<seam::$kind> + 'static,
        {
            Self::typed::<seam::$kind, F, R>(id, On::seam(Seam::$kind), f)
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
        let id = id.into();
        let mut info = HookInfo::new(id.clone(), Source::new(DIALECT, Some(id)));
        info.on = on;
        Self { info, run: Box::new(Typed::<K, F, R> { f, kind: PhantomData }) }
    }

    constructors! {
        /// A hook on [`Seam::SessionStart`].
        session_start => SessionStart;
        /// A hook on [`Seam::PromptSubmit`].
        prompt_submit => PromptSubmit;
        /// A hook on [`Seam::PreTool`].
        pre_tool => PreTool;
        /// A hook on [`Seam::PermissionRequest`].
        permission_request => PermissionRequest;
        /// A hook on [`Seam::PostTool`].
        post_tool => PostTool;
        /// A hook on [`Seam::PostToolFailure`].
        post_tool_failure => PostToolFailure;
        /// A hook on [`Seam::TurnEnd`].
        turn_end => TurnEnd;
        /// A hook on [`Seam::SubagentStart`].
        subagent_start => SubagentStart;
        /// A hook on [`Seam::SubagentEnd`].
        subagent_end => SubagentEnd;
        /// A hook on [`Seam::PreCompact`].
        pre_compact => PreCompact;
        /// A hook on [`Seam::Notification`].
        notification => Notification;
        /// A hook on [`Seam::SessionEnd`].
        session_end => SessionEnd;
    }

    /// A hook on the custom events named `name` (a dialect's own interception point).
    pub fn custom<F, R>(id: impl Into<String>, name: impl Into<String>, f: F) -> Self
    where
        F: Fn(&hook_protocol::Custom, &Common) -> R + Send + Sync + 'static,
        R: IntoAnswer<seam::Custom> + 'static,
    {
        Self::typed::<seam::Custom, F, R>(id, On::Custom(name.into()), f)
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
        self.failure_policy(FailurePolicy::FailClosed)
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
    pub fn run_now(&self, event: &Event) -> HookOutcome {
        if !self.info.on.applies_to(event) {
            return HookOutcome::skipped(format!(
                "native hook `{}` is not registered for `{}` events",
                self.info.id,
                event.seam()
            ));
        }
        match catch_unwind(AssertUnwindSafe(|| self.run.run(event))) {
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
        self.run_now(event)
    }
}

impl fmt::Debug for SeamHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeamHook").field("info", &self.info).finish_non_exhaustive()
    }
}
