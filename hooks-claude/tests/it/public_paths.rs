//! Every public path a harness could name before `src/` was regrouped by stage still names an
//! item of the same kind: the crate root's re-exports, the public modules and what they hold
//! (the list is rustdoc's, taken before the move). A path that stops resolving fails the build
//! of this test; a type, function or constant that comes to be another item fails its run.

use std::any::{Any, TypeId};
use std::collections::HashMap;

// The public modules and the traits, by `use`, as a harness names them.
#[allow(unused_imports, reason = "that each path resolves is the test")]
use hooks_claude::{
    compatibility as _, delegate as _, input as _, matcher as _, output as _, present as _,
    present::templates as _, samples as _,
};
#[allow(unused_imports, reason = "that each path resolves is the test")]
use hooks_claude::{
    delegate::AgentRunner as _, delegate::McpToolCaller as _, delegate::ModelEvaluator as _,
    input::TypedInput as _,
};

/// Each type by its path, written out, and its identity.
macro_rules! types {
    ($($t:ty),* $(,)?) => { vec![$((stringify!($t), TypeId::of::<$t>())),*] };
}

/// Each function or constant by its path, written out, and its value.
macro_rules! values {
    ($($v:expr),* $(,)?) => { vec![$((stringify!($v), &$v as &'static dyn Any)),*] };
}

/// Every public type.
fn types() -> Vec<(&'static str, TypeId)> {
    types![
        hooks_claude::AsyncResult,
        hooks_claude::BackgroundLimits,
        hooks_claude::CancellationToken,
        hooks_claude::HandlerHook,
        hooks_claude::RunRecord,
        hooks_claude::InputObject,
        hooks_claude::Record,
        hooks_claude::Config,
        hooks_claude::ElicitationDecision,
        hooks_claude::Engine,
        hooks_claude::EngineBuilder,
        hooks_claude::Entry,
        hooks_claude::Fired<()>,
        hooks_claude::GuardOverride,
        hooks_claude::GuardState,
        hooks_claude::Handler,
        hooks_claude::HandlerPositions,
        hooks_claude::HostEnv,
        hooks_claude::HttpPolicy,
        hooks_claude::HttpSpec,
        hooks_claude::Late,
        hooks_claude::Candidate,
        hooks_claude::LoadErrors,
        hooks_claude::Loader,
        hooks_claude::ManagedPolicy,
        hooks_claude::McpToolSpec,
        hooks_claude::MessageDisplayDecision,
        hooks_claude::ModelSwitchDecision,
        hooks_claude::ObserveDecision,
        hooks_claude::PermissionRequestDecision,
        hooks_claude::PermissionRule,
        hooks_claude::Plugin,
        hooks_claude::PromptSpec,
        hooks_claude::RawRun,
        hooks_claude::RetryDecision,
        hooks_claude::RuleContext<'static>,
        hooks_claude::RuleError,
        hooks_claude::Session,
        hooks_claude::SessionStartDecision,
        hooks_claude::SourceFile,
        hooks_claude::Step<()>,
        hooks_claude::StopDecision,
        hooks_claude::StopGuard,
        hooks_claude::ToolCallDecision,
        hooks_claude::ToolResultDecision,
        hooks_claude::UnknownEvent,
        hooks_claude::UserPromptDecision,
        hooks_claude::WatchDecision,
        hooks_claude::WorktreeCreateDecision,
        hooks_claude::WorktreeRemoveDecision,
        hooks_claude::delegate::AgentRequest,
        hooks_claude::delegate::McpToolRequest,
        hooks_claude::delegate::McpToolResult,
        hooks_claude::delegate::PromptRequest,
        hooks_claude::input::BackgroundTask,
        hooks_claude::input::Base,
        hooks_claude::input::BatchCall,
        hooks_claude::input::ConfigChange,
        hooks_claude::input::CwdChanged,
        hooks_claude::input::DirectoryAdded,
        hooks_claude::input::Effort,
        hooks_claude::input::Elicitation,
        hooks_claude::input::ElicitationResult,
        hooks_claude::input::FileChanged,
        hooks_claude::input::InstructionsLoaded,
        hooks_claude::input::InvalidInput,
        hooks_claude::input::McpServer,
        hooks_claude::input::MessageDisplay,
        hooks_claude::input::Notification,
        hooks_claude::input::PermissionDenied,
        hooks_claude::input::PermissionRequest,
        hooks_claude::input::PostCompact,
        hooks_claude::input::PostModelSwitch,
        hooks_claude::input::PostToolBatch,
        hooks_claude::input::PostToolUse,
        hooks_claude::input::PostToolUseFailure,
        hooks_claude::input::PreCompact,
        hooks_claude::input::PreModelSwitch,
        hooks_claude::input::PreToolUse,
        hooks_claude::input::SessionCron,
        hooks_claude::input::SessionEnd,
        hooks_claude::input::SessionStart,
        hooks_claude::input::Setup,
        hooks_claude::input::Stop,
        hooks_claude::input::StopFailure,
        hooks_claude::input::SubagentStart,
        hooks_claude::input::SubagentStop,
        hooks_claude::input::TaskCompleted,
        hooks_claude::input::TaskCreated,
        hooks_claude::input::TeammateIdle,
        hooks_claude::input::UserPromptExpansion,
        hooks_claude::input::UserPromptSubmit,
        hooks_claude::input::WorktreeCreate,
        hooks_claude::input::WorktreeRemove,
        hooks_claude::output::ContextOutput,
        hooks_claude::output::ElicitationOutput,
        hooks_claude::output::HookOutput,
        hooks_claude::output::MessageDisplayOutput,
        hooks_claude::output::ModelSwitchOutput,
        hooks_claude::output::OutputError,
        hooks_claude::output::PermissionDeniedOutput,
        hooks_claude::output::PermissionRequestOutput,
        hooks_claude::output::PostToolUseOutput,
        hooks_claude::output::PreToolUseOutput,
        hooks_claude::output::PromptOutput,
        hooks_claude::output::SessionStartOutput,
        hooks_claude::output::WatchOutput,
        hooks_claude::output::WorktreeCreateOutput,
        hooks_claude::present::ModelText,
        hooks_claude::present::Presenter,
        hooks_claude::present::Shown,
        hooks_claude::EventName,
        hooks_claude::Exit2,
        hooks_claude::ExportsError,
        hooks_claude::HandlerSpec,
        hooks_claude::HandlerType,
        hooks_claude::Keeps,
        hooks_claude::NotRun,
        hooks_claude::OnFailure,
        hooks_claude::Origin,
        hooks_claude::Phase,
        hooks_claude::Refused,
        hooks_claude::Scope,
        hooks_claude::SessionError,
        hooks_claude::WorkspaceTrust,
        hooks_claude::delegate::DelegateError,
        hooks_claude::delegate::McpContent,
        hooks_claude::matcher::MatcherKind,
        hooks_claude::output::ElicitationAction,
        hooks_claude::output::PermissionBehavior,
        hooks_claude::output::PermissionDecisionValue,
        hooks_claude::output::Specific,
        hooks_claude::output::TopDecision,
        hooks_claude::present::Placement,
    ]
}

/// `check_order`, whose `impl IntoIterator` argument takes its type from the call: here, a list.
type CheckOrder = fn(
    Vec<(&'static str, Option<&'static str>)>,
) -> Result<(), (usize, hooks_claude::SessionError)>;
const CHECK_ORDER: CheckOrder = hooks_claude::check_order;

/// Every public function.
fn functions() -> Vec<(&'static str, &'static dyn Any)> {
    values![
        hooks_claude::check,
        CHECK_ORDER,
        hooks_claude::decode_http_outcome,
        hooks_claude::decode_outcome,
        hooks_claude::discover,
        hooks_claude::discover_in,
        hooks_claude::env_file_exports,
        hooks_claude::event_from_payload,
        hooks_claude::payload_for,
        hooks_claude::payload_from_event,
        hooks_claude::session_env_dir,
        hooks_claude::subject_of,
        hooks_claude::input::payload::<hooks_claude::input::Stop>,
        hooks_claude::input::stdin_bytes,
        hooks_claude::input::validate,
        hooks_claude::matcher::canonical_model,
        hooks_claude::matcher::classify,
        hooks_claude::matcher::compile,
        hooks_claude::matcher::file_basename,
        hooks_claude::matcher::mcp_server_warning,
        hooks_claude::present::cwd_slug,
        hooks_claude::present::templates::additional_context,
        hooks_claude::present::templates::blocking_error_from_command,
        hooks_claude::present::templates::blocking_file_name,
        hooks_claude::present::templates::byte_index,
        hooks_claude::present::templates::byte_index_from_end,
        hooks_claude::present::templates::chars,
        hooks_claude::present::templates::compaction_blocked,
        hooks_claude::present::templates::context_file_name,
        hooks_claude::present::templates::context_label,
        hooks_claude::present::templates::cut_blocking,
        hooks_claude::present::templates::exit2_blocking,
        hooks_claude::present::templates::hook_error,
        hooks_claude::present::templates::hook_failed_notice,
        hooks_claude::present::templates::hook_name,
        hooks_claude::present::templates::hook_success,
        hooks_claude::present::templates::on_failure_blocking,
        hooks_claude::present::templates::operation_stopped,
        hooks_claude::present::templates::persisted_output,
        hooks_claude::present::templates::preview,
        hooks_claude::present::templates::prompt_blocked,
        hooks_claude::present::templates::says,
        hooks_claude::present::templates::size_kb,
        hooks_claude::present::templates::stop_blocking_error,
        hooks_claude::present::templates::stop_context,
        hooks_claude::present::templates::stop_feedback,
        hooks_claude::present::templates::stop_guard_override,
        hooks_claude::present::templates::unsaved_output,
        hooks_claude::samples::payload_of,
        // Hidden from the docs: for the fuzz target of the `http` answer path.
        hooks_claude::keep_chunk,
    ]
}

/// Every public constant.
fn constants() -> Vec<(&'static str, &'static dyn Any)> {
    values![
        hooks_claude::present::templates::BLOCKED_BY_HOOK,
        hooks_claude::present::templates::BLOCKING_KEEP,
        hooks_claude::present::templates::BLOCKING_WHOLE_MAX,
        hooks_claude::present::templates::CLAUDE_CODE_VERSION,
        hooks_claude::present::templates::CONTEXT_INLINE_MAX,
        hooks_claude::present::templates::ENVIRONMENT_START_END,
        hooks_claude::present::templates::NO_STDERR,
        hooks_claude::present::templates::PARAGRAPH,
        hooks_claude::present::templates::PERMISSION_RETRY,
        hooks_claude::present::templates::PREVIEW_MAX,
        hooks_claude::present::templates::REMINDER_END,
        hooks_claude::present::templates::SESSION_START_CONTEXT_JOIN,
        hooks_claude::present::templates::STOP_BLOCK_SEPARATOR,
        hooks_claude::present::templates::STOP_WRAPPER,
    ]
}

/// The paths among `items` that name the same item as an earlier one.
fn shared(items: impl IntoIterator<Item = (&'static str, TypeId)>) -> Vec<String> {
    let mut seen: HashMap<TypeId, &str> = HashMap::new();
    let mut shared = Vec::new();
    for (path, id) in items {
        if let Some(first) = seen.insert(id, path) {
            shared.push(format!("`{path}` names what `{first}` names"));
        }
    }
    shared
}

#[test]
fn every_public_type_is_a_type_of_its_own() {
    assert_eq!(shared(types()), Vec::<String>::new());
}

#[test]
fn every_public_function_is_a_function_of_its_own() {
    // Each function item has a type of its own: two paths of one function share it.
    let functions = functions().into_iter().map(|(path, f)| (path, f.type_id()));
    assert_eq!(shared(functions), Vec::<String>::new());
}

#[test]
fn the_root_names_the_same_items_as_the_public_modules() {
    let pairs = [
        (TypeId::of::<hooks_claude::ModelText>(), TypeId::of::<hooks_claude::present::ModelText>()),
        (TypeId::of::<hooks_claude::Placement>(), TypeId::of::<hooks_claude::present::Placement>()),
        (TypeId::of::<hooks_claude::Presenter>(), TypeId::of::<hooks_claude::present::Presenter>()),
        (TypeId::of::<hooks_claude::Shown>(), TypeId::of::<hooks_claude::present::Shown>()),
    ];
    for (root, module) in pairs {
        assert_eq!(root, module);
    }
}

#[test]
fn every_public_constant_keeps_its_type_and_the_moved_one_its_value() {
    for (path, value) in constants() {
        assert!(
            value.is::<&str>() || value.is::<usize>(),
            "`{path}` is no longer a text or a size"
        );
    }
    // Defined with the outcome rules now, listed with the templates as before.
    assert_eq!(hooks_claude::present::templates::NO_STDERR, "No stderr output");
}
