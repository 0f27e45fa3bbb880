//! The Claude hooks of a configuration, and the dispatcher they run on beside the harness's
//! own: what building an engine and adding a skill's hooks to it share.

use std::collections::HashMap;
use std::sync::Arc;

use hook_protocol::{Aliases, Dispatcher, Hook, MatcherError, Mode, Observer, ReasonRule};

use crate::EventName;
use crate::hooks::active::Activation;
use crate::hooks::hook::{DedupKey, HandlerHook, Twin};
use crate::hooks::timeout::SessionEndBudget;
use crate::run::runner::Shared;

/// The dispatcher of an engine's hooks.
pub(crate) fn dispatcher(
    claude: &[Arc<HandlerHook>],
    extra: &[Arc<dyn Hook>],
    mode: Option<Mode>,
    observer: Option<&Arc<dyn Observer>>,
    aliases: &Aliases,
) -> Result<Dispatcher, MatcherError> {
    // Claude Code shows one reason, whatever form each hook's answer took.
    let mut builder = Dispatcher::builder()
        .hooks(claude.iter().map(|h| Arc::clone(h) as Arc<dyn Hook>))
        .hooks(extra.iter().cloned())
        .reason_rule(ReasonRule::One);
    if !aliases.is_empty() {
        builder = builder.aliases(aliases.clone());
    }
    if let Some(mode) = mode {
        builder = builder.mode(mode);
    }
    if let Some(observer) = observer {
        builder = builder.observer(Arc::clone(observer));
    }
    builder.build()
}

/// Turns the active entries of a configuration into hooks, with their duplicate twins.
/// `first` is the index of the first entry in the engine's configuration (its hooks' ids
/// count from it).
pub(crate) fn claude_hooks(
    entries: &[crate::Entry],
    first: usize,
    shared: &Arc<Shared>,
    activation: &Arc<Activation>,
    session_end: SessionEndBudget,
) -> Vec<Arc<HandlerHook>> {
    let mut hooks: Vec<HandlerHook> = Vec::with_capacity(entries.len());
    let mut seen: HashMap<(EventName, DedupKey), Vec<Twin>> = HashMap::new();
    // The entries of one file come together: its origin is written once.
    let mut origin: Option<(&Arc<crate::SourceFile>, String)> = None;
    let mut digits = itoa::Buffer::new();
    for (i, entry) in entries.iter().enumerate() {
        if entry.disabled {
            continue;
        }
        let event = entry.event.as_str();
        let index = digits.format(first + i);
        let mut id = String::with_capacity("claude::".len() + event.len() + index.len());
        id.push_str("claude:");
        id.push_str(event);
        id.push(':');
        id.push_str(index);
        let from = match &origin {
            Some((source, text)) if Arc::ptr_eq(source, &entry.source) => text.clone(),
            _ => {
                let text = HandlerHook::origin(entry);
                origin = Some((&entry.source, text.clone()));
                text
            }
        };
        let mut hook = HandlerHook::new(
            id,
            from,
            entry.clone(),
            Arc::clone(shared),
            Arc::clone(activation),
            session_end,
        );
        if let Some(key) = hook.dedup_key() {
            let twins = seen.entry((entry.event, key)).or_default();
            hook.twins = twins.clone();
            twins.push(Twin {
                id: hook.info().id.clone(),
                matcher: entry.matcher.clone(),
                rule: entry.handler.rule().cloned(),
            });
        }
        hooks.push(hook);
    }
    hooks.into_iter().map(Arc::new).collect()
}
