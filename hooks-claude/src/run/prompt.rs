//! `prompt` and `agent` hooks ([Handler fields](crate::compatibility#handler-fields),
//! [Prompt and agent hooks](crate::compatibility#prompt-and-agent-hooks)): the prompt with the
//! event's JSON, the model's `{ok, reason}` answer, and what `ok: false` does on each event.

use hook_protocol::{Halt, Verdict};
use serde_json::{Value, json};

use crate::EventName;

/// How many turns an agent hook may take (Claude Code's limit).
pub(crate) const AGENT_MAX_TURNS: u32 = 50;

/// The schema of a prompt hook's answer.
pub(crate) fn answer_schema(with_impossible: bool) -> Value {
    let mut properties = json!({
        "ok": {"type": "boolean"},
        "reason": {"type": "string"},
    });
    if with_impossible && let Some(map) = properties.as_object_mut() {
        map.insert("impossible".to_owned(), json!({"type": "boolean"}));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": ["ok"],
        "additionalProperties": false,
    })
}

/// The prompt sent: each `$ARGUMENTS` replaced by `input`, `\$` written as `$`; when no
/// `$ARGUMENTS` is present, `input` is appended after a blank line.
pub(crate) fn substitute_arguments(prompt: &str, input: &str) -> String {
    const PLACEHOLDER: &str = "$ARGUMENTS";
    let mut out = String::with_capacity(prompt.len() + input.len() + 2);
    let mut found = false;
    let mut rest = prompt;
    while let Some(i) = rest.find(['\\', '$']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("\\$") {
            out.push('$');
            rest = after;
        } else if let Some(after) = tail.strip_prefix(PLACEHOLDER) {
            out.push_str(input);
            found = true;
            rest = after;
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    if !found {
        out.push_str("\n\n");
        out.push_str(input);
    }
    out
}

/// The model's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    pub(crate) ok: bool,
    pub(crate) reason: Option<String>,
    pub(crate) impossible: bool,
}

/// Reads the model's reply: one JSON object (a surrounding Markdown code fence is tolerated)
/// with a boolean `ok`, a string `reason` (required when `ok` is false) and an optional
/// boolean `impossible`.
pub(crate) fn parse_answer(reply: &str) -> Result<Answer, String> {
    let mut text = reply.trim();
    if let Some(inner) = text.strip_prefix("```") {
        let inner = inner.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
        text = inner.strip_suffix("```").unwrap_or(inner).trim();
    }
    let short: String = text.chars().take(120).collect();
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("the answer is not a JSON object ({e}): {short}"))?;
    let Value::Object(map) = value else {
        return Err(format!("the answer is not a JSON object: {short}"));
    };
    let ok = match map.get("ok") {
        Some(Value::Bool(b)) => *b,
        _ => return Err(format!("the answer needs a boolean `ok`: {short}")),
    };
    let reason = match map.get("reason") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(format!("`reason` must be a string: {short}")),
    };
    let impossible = match map.get("impossible") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(format!("`impossible` must be a boolean: {short}")),
    };
    if !ok && reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
        return Err(format!("an answer with `ok: false` needs a `reason`: {short}"));
    }
    Ok(Answer { ok, reason, impossible })
}

/// What an answer does on `event`
/// ([Prompt and agent hooks](crate::compatibility#prompt-and-agent-hooks)). Agent hooks behave like
/// prompt hooks with `continueOnBlock: true` and cannot answer `impossible`.
pub(crate) fn answer_verdict(
    event: EventName,
    agent: bool,
    continue_on_block: bool,
    answer: &Answer,
) -> Verdict {
    use EventName::*;
    if answer.ok {
        return Verdict::no_opinion();
    }
    let reason = answer.reason.clone().unwrap_or_default();
    let continues = agent || continue_on_block;
    match event {
        // The reason becomes the next instruction; `impossible` lets the stop happen.
        Stop | SubagentStop if answer.impossible && !agent => Verdict::no_opinion(),
        // The tool is denied (or its result flagged) and, by default, the turn ends.
        PreToolUse | PostToolUse => {
            let mut v = Verdict::deny(reason.clone());
            if !continues {
                v.halt = Some(Halt::new(Some(reason)));
            }
            v
        }
        // The teammate stops by default; with `continueOnBlock` it keeps working.
        TeammateIdle if !continues => {
            let mut v = Verdict::no_opinion();
            v.halt = Some(Halt::new(Some(reason)));
            v
        }
        // `ok: false` has no effect.
        PermissionRequest | PermissionDenied => Verdict::no_opinion(),
        _ => Verdict::deny(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::Decision;

    #[test]
    fn arguments_are_replaced_escaped_or_appended() {
        assert_eq!(substitute_arguments("Check $ARGUMENTS now", "{}"), "Check {} now");
        assert_eq!(substitute_arguments("$ARGUMENTS|$ARGUMENTS", "J"), "J|J");
        assert_eq!(
            substitute_arguments("cost \\$5 and \\$ARGUMENTS", "J"),
            "cost $5 and $ARGUMENTS\n\nJ"
        );
        assert_eq!(substitute_arguments("Evaluate.", "{\"a\":1}"), "Evaluate.\n\n{\"a\":1}");
        assert_eq!(substitute_arguments("a\\b $HOME $", "J"), "a\\b $HOME $\n\nJ");
    }

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(
            parse_answer(" {\"ok\": true} ").unwrap(),
            Answer { ok: true, reason: None, impossible: false }
        );
        let a = parse_answer("```json\n{\"ok\": false, \"reason\": \"tests fail\"}\n```").unwrap();
        assert_eq!(a.reason.as_deref(), Some("tests fail"));
        assert!(parse_answer("{\"ok\": false}").unwrap_err().contains("needs a `reason`"));
        assert!(parse_answer("{\"ok\": \"yes\"}").unwrap_err().contains("boolean `ok`"));
        assert!(parse_answer("sure!").unwrap_err().contains("not a JSON object"));
        assert!(parse_answer("[true]").is_err());
    }

    fn no(reason: &str, impossible: bool) -> Answer {
        Answer { ok: false, reason: Some(reason.to_owned()), impossible }
    }

    #[test]
    fn ok_false_per_event() {
        let v = answer_verdict(EventName::PreToolUse, false, false, &no("r", false));
        assert_eq!(v.decision, Some(Decision::Deny));
        assert!(v.halt.is_some(), "the turn ends by default");
        let v = answer_verdict(EventName::PreToolUse, false, true, &no("r", false));
        assert_eq!((v.decision, v.halt), (Some(Decision::Deny), None), "continueOnBlock");
        let v = answer_verdict(EventName::PostToolUse, true, false, &no("r", false));
        assert_eq!(v.halt, None, "agent hooks continue");
        let v = answer_verdict(EventName::Stop, false, false, &no("keep going", false));
        assert_eq!(v.reason.as_deref(), Some("keep going"));
        assert!(answer_verdict(EventName::Stop, false, false, &no("x", true)).is_empty());
        let v = answer_verdict(EventName::Stop, true, false, &no("x", true));
        assert_eq!(v.decision, Some(Decision::Deny), "agents have no `impossible`");
        let v = answer_verdict(EventName::TeammateIdle, false, false, &no("x", false));
        assert_eq!((v.decision, v.halt.is_some()), (None, true), "the teammate stops");
        let v = answer_verdict(EventName::TeammateIdle, false, true, &no("x", false));
        assert_eq!((v.decision, v.halt.is_some()), (Some(Decision::Deny), false));
        assert!(
            answer_verdict(EventName::PermissionRequest, false, false, &no("x", false)).is_empty()
        );
        for e in [EventName::UserPromptSubmit, EventName::PostToolBatch, EventName::TaskCreated] {
            assert_eq!(
                answer_verdict(e, false, false, &no("x", false)).decision,
                Some(Decision::Deny)
            );
        }
        let ok = Answer { ok: true, reason: Some("fine".into()), impossible: false };
        assert!(answer_verdict(EventName::PreToolUse, false, false, &ok).is_empty());
    }
}
