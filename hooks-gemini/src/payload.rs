//! What a Gemini CLI hook reads on stdin ([Event inputs](crate::compatibility#event-inputs)):
//! one compact JSON object, without a trailing newline.
//!
//! An event run from its Gemini input (the `hooks` command, a recording) carries that object
//! as an [`InputObject`] extension, sent as it is. A harness's neutral event is written as
//! Gemini writes it: `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`
//! (ISO 8601, milliseconds, UTC), and the event's own fields, the tool by Gemini's name.

use std::sync::Arc;
use std::time::SystemTime;

use hook_protocol::{
    DialectError, Event, ModelMessage, ModelRequest, ModelResponse, NeutralTool, Payload, ToolCall,
    ToolInput,
};
use serde_json::{Map, Value, json};

use crate::EventName;
use crate::event::gemini_tool;

/// A Gemini input object that travels with a neutral event and is sent to the hooks as it is.
pub type InputObject = hook_kit::InputObject<EventName>;

fn put(object: &mut Map<String, Value>, key: &str, value: impl Into<Value>) {
    object.insert(key.to_owned(), value.into());
}

/// Now, as Gemini writes its `timestamp`.
fn now() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// A tool's response as Gemini's `tool_response`: `{llmContent, returnDisplay}` (a response
/// that has them as it is; any other: its text in both).
fn tool_response(response: &Value) -> Value {
    if response.get("llmContent").is_some() {
        return response.clone();
    }
    let text = match response {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    json!({"llmContent": text, "returnDisplay": text})
}

/// A model request as Gemini's `llm_request`: `{model, messages: [{role, content}], config}`.
pub(crate) fn llm_request(request: &ModelRequest) -> Value {
    let messages: Vec<Value> =
        request.messages.iter().map(|m| json!({"role": m.role, "content": m.content})).collect();
    json!({"model": request.model, "messages": messages, "config": request.config})
}

/// A model response as Gemini's `llm_response`: `{text, candidates: [{content: {role: "model",
/// parts: [text]}, finishReason, index: 0}], usageMetadata}`.
fn llm_response(response: &ModelResponse) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": [response.text]}, "index": 0});
    if let (Some(reason), Some(c)) = (&response.finish_reason, candidate.as_object_mut()) {
        c.insert("finishReason".into(), Value::from(reason.clone()));
    }
    json!({"text": response.text, "candidates": [candidate], "usageMetadata": {}})
}

/// Gemini's `llm_request` read back as a neutral request (what a model event's input holds).
pub(crate) fn model_request(value: Option<&Value>) -> ModelRequest {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let Some(value) = value else { return ModelRequest::default() };
    let messages = value
        .get("messages")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter().map(|m| ModelMessage::new(text(m, "role"), text(m, "content"))).collect()
        })
        .unwrap_or_default();
    let mut request = ModelRequest::new(text(value, "model"), messages);
    if let Some(config) = value.get("config").and_then(Value::as_object) {
        request.config.clone_from(config);
    }
    request
}

/// The stdin object of a hook on `name` for `event`.
pub(crate) fn stdin_object(name: EventName, event: &Event) -> Arc<Map<String, Value>> {
    // A hook before this one may have rewritten the input (`sequential`): this one sees it.
    if let Some(sent) = InputObject::sent(event, "tool_input") {
        return sent;
    }
    let common = &event.common;
    let mut o = Map::new();
    put(&mut o, "session_id", common.session_id.clone());
    let transcript = common.transcript_path.as_ref().map(|p| p.display().to_string());
    put(&mut o, "transcript_path", transcript.unwrap_or_default());
    put(&mut o, "cwd", common.cwd.display().to_string());
    put(&mut o, "hook_event_name", name.as_str());
    put(&mut o, "timestamp", now());
    match &event.payload {
        Payload::SessionStart(s) => put(&mut o, "source", s.source.clone()),
        Payload::PromptSubmit(p) => put(&mut o, "prompt", p.prompt.clone()),
        Payload::PreTool(call) => {
            put(&mut o, "tool_name", call.tool_name.clone());
            put(&mut o, "tool_input", call.tool_input.clone());
        }
        Payload::PostTool(result) => {
            put(&mut o, "tool_name", result.call.tool_name.clone());
            put(&mut o, "tool_input", result.call.tool_input.clone());
            put(&mut o, "tool_response", tool_response(&result.tool_response));
        }
        // A tool that failed: Gemini's `AfterTool`, its response carrying the `error`.
        Payload::PostToolFailure(failure) => {
            put(&mut o, "tool_name", failure.call.tool_name.clone());
            put(&mut o, "tool_input", failure.call.tool_input.clone());
            let error = failure.error.clone();
            let response = json!({"llmContent": error, "returnDisplay": error, "error": error});
            put(&mut o, "tool_response", response);
        }
        Payload::TurnEnd(end) => {
            put(&mut o, "prompt", "");
            put(&mut o, "prompt_response", end.last_message.clone().unwrap_or_default());
            put(&mut o, "stop_hook_active", end.continuing);
        }
        Payload::PreCompact(c) => put(&mut o, "trigger", c.trigger.clone()),
        Payload::Notification(n) => {
            put(&mut o, "notification_type", n.kind.clone());
            put(&mut o, "message", n.message.clone());
            put(&mut o, "details", json!({}));
        }
        Payload::SessionEnd(e) => put(&mut o, "reason", e.reason.clone()),
        Payload::ModelRequest(r) => put(&mut o, "llm_request", llm_request(r)),
        Payload::ToolSelection(t) => put(&mut o, "llm_request", llm_request(&t.request)),
        Payload::ModelResponse(r) => {
            put(&mut o, "llm_request", llm_request(&r.request));
            put(&mut o, "llm_response", llm_response(r));
        }
        Payload::Custom(c) => {
            for (k, v) in &c.fields {
                o.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        _ => {}
    }
    Arc::new(o)
}

/// A neutral event as Gemini writes it ([Neutral tools](crate::compatibility#neutral-tools)):
/// its event (none where Gemini has none) and its object, the tool by Gemini's name: a shell
/// command is `run_shell_command` `{command}`, a file written whole `write_file`
/// `{file_path, content}`, an edit `replace` `{file_path, old_string, new_string}`; any other
/// tool keeps its input.
///
/// # Errors
///
/// [`DialectError::InvalidInput`] naming the field a tool lacks (unless `lenient`).
pub(crate) fn write(
    event: &Event,
    lenient: bool,
) -> Result<hook_kit::Written<EventName>, DialectError> {
    if let Payload::PostToolFailure(failure) = &event.payload {
        // Gemini fires `AfterTool` for a tool that failed too.
        let mut event = event.clone();
        let call = gemini_call(&failure.call, EventName::AfterTool, lenient)?;
        if let Some(c) = event.payload.tool_call_mut() {
            *c = call;
        }
        let object = (*stdin_object(EventName::AfterTool, &event)).clone();
        return Ok(vec![(EventName::AfterTool, object)]);
    }
    hook_kit::write_one(event, |call, name| gemini_call(call, name, lenient), stdin_object)
}

/// A neutral tool call as Gemini's.
fn gemini_call(call: &ToolCall, name: EventName, lenient: bool) -> Result<ToolCall, DialectError> {
    let input = ToolInput::new(call, name.as_str(), "Gemini CLI", lenient);
    let tool_input = match NeutralTool::of(&call.tool_name) {
        NeutralTool::Shell => json!({"command": input.text("command")?}),
        NeutralTool::Write => {
            json!({"file_path": input.text("file_path")?, "content": input.text("content")?})
        }
        NeutralTool::Edit => json!({
            "file_path": input.text("file_path")?,
            "old_string": input.text("old_string")?,
            "new_string": input.text("new_string")?,
        }),
        _ => call.tool_input.clone(),
    };
    let mut out = ToolCall::new(gemini_tool(&call.tool_name), tool_input);
    out.tool_use_id.clone_from(&call.tool_use_id);
    Ok(out)
}
