//! One handler object: its type, the fields every type shares and the fields of its type, each
//! problem reported at the offending value.

use std::time::Duration;

use jsonc_parser::ast::{Object, ObjectProp, Value as Ast};
use serde_json::{Map, Number, Value};

use super::Walk;
use crate::config::settings::{HandlerPositions, HttpSpec, McpToolSpec, OnFailure, PromptSpec};
use crate::{EventName, Handler, HandlerSpec, HandlerType, PermissionRule};
use hook_protocol::Position;

/// Timeouts at or above this many seconds look like milliseconds.
const MILLISECONDS_HINT: f64 = 1000.0;

/// Timeouts below this many seconds (10 ms) leave a hook no time to start and answer.
const SHORTEST_LIKELY: f64 = 0.01;

/// What replaces a header value in [`Handler::raw`].
const REDACTED: &str = "<redacted>";

fn prop<'a, 'b>(obj: &'b Object<'a>, name: &str) -> Option<&'b ObjectProp<'a>> {
    obj.get(name)
}

/// Converts a syntax-tree value into a JSON value.
fn to_json(v: &Ast<'_>) -> Value {
    match v {
        Ast::StringLit(s) => Value::String(s.value.to_string()),
        Ast::NumberLit(n) => {
            serde_json::from_str::<Number>(n.value).map_or(Value::Null, Value::Number)
        }
        Ast::BooleanLit(b) => Value::Bool(b.value),
        Ast::NullKeyword(_) => Value::Null,
        Ast::Array(a) => Value::Array(a.elements.iter().map(to_json).collect()),
        Ast::Object(o) => Value::Object(
            o.properties
                .iter()
                .map(|p| (p.name.as_str().to_owned(), to_json(&p.value)))
                .collect::<Map<_, _>>(),
        ),
    }
}

/// Reads the fields of one handler object, recording problems; `ok` turns false on an error
/// that keeps the handler from registering.
struct Fields<'w, 'a, 't> {
    w: &'w mut Walk<'a>,
    obj: &'t Object<'t>,
    ok: bool,
}

impl Fields<'_, '_, '_> {
    fn string(&mut self, name: &str) -> Option<(String, Position)> {
        match prop(self.obj, name).map(|p| &p.value) {
            None => None,
            Some(Ast::StringLit(s)) => Some((s.value.to_string(), self.w.pos(s))),
            Some(v) => {
                self.w.sink.error(self.w.pos(v), format!("`{name}` must be a string"));
                self.ok = false;
                None
            }
        }
    }

    fn boolean(&mut self, name: &str) -> Option<(bool, Position)> {
        match prop(self.obj, name).map(|p| &p.value) {
            None => None,
            Some(Ast::BooleanLit(b)) => Some((b.value, self.w.pos(b))),
            Some(v) => {
                self.w.sink.error(self.w.pos(v), format!("`{name}` must be a boolean"));
                self.ok = false;
                None
            }
        }
    }

    fn strings(&mut self, name: &str) -> Option<Vec<String>> {
        match prop(self.obj, name).map(|p| &p.value) {
            None => None,
            Some(Ast::Array(a)) => {
                let mut out = Vec::new();
                for e in &a.elements {
                    match e {
                        Ast::StringLit(s) => out.push(s.value.to_string()),
                        other => {
                            let at = self.w.pos(other);
                            self.w
                                .sink
                                .error(at, format!("every element of `{name}` must be a string"));
                            self.ok = false;
                        }
                    }
                }
                Some(out)
            }
            Some(v) => {
                self.w.sink.error(self.w.pos(v), format!("`{name}` must be an array of strings"));
                self.ok = false;
                None
            }
        }
    }

    /// A required non-empty string of a handler type.
    fn required(
        &mut self,
        name: &str,
        kind: HandlerType,
        at: Position,
    ) -> Option<(String, Position)> {
        let value = self.string(name);
        if value.as_ref().is_none_or(|(v, _)| v.trim().is_empty()) {
            if self.ok {
                self.w.sink.error(at, format!("a `{kind}` handler needs a non-empty `{name}`"));
            }
            self.ok = false;
            return None;
        }
        value
    }

    /// A field that has no effect on this handler type.
    fn ignored(&mut self, name: &str, why: &str) {
        if let Some(p) = prop(self.obj, name) {
            let at = self.w.pos(&p.value);
            self.w.sink.warning(
                at,
                hook_protocol::skipping(
                    format!("`{name}` {why}"),
                    hook_protocol::Skipped::Value,
                    "it is ignored",
                ),
            );
        }
    }
}

/// Reads one handler object; `None` when it does not register (the problem is reported).
pub(super) fn handler(
    w: &mut Walk<'_>,
    event: EventName,
    node: &Ast<'_>,
    matcher: Position,
) -> Option<Handler> {
    let Ast::Object(obj) = node else {
        w.sink.error(w.pos(node), "a handler must be an object with a `type`");
        return None;
    };
    let at = w.pos(obj);
    let kind = match prop(obj, "type").map(|p| &p.value) {
        Some(Ast::StringLit(s)) => match HandlerType::parse(&s.value) {
            Some(k) => k,
            None => {
                w.sink.error(w.pos(s), format!("unknown handler type `{}`; expected `command`, `http`, `mcp_tool`, `prompt` or `agent`", s.value));
                return None;
            }
        },
        Some(v) => {
            w.sink.error(w.pos(v), "`type` must be a string");
            return None;
        }
        None => {
            w.sink.error(at, "a handler needs a `type`");
            return None;
        }
    };
    let type_pos = prop(obj, "type").map_or(at, |p| w.pos(&p.value));
    if event == EventName::SessionStart && kind == HandlerType::Http {
        // Claude Code loads it and skips it when the event fires; so do we (`NotRun`).
        w.sink.warning(
            type_pos,
            "HTTP hooks are not supported for SessionStart; this handler is skipped when the event fires",
        );
    } else if !event.accepts(kind) {
        let accepted: Vec<String> = HandlerType::ALL
            .iter()
            .filter(|k| event.accepts(**k))
            .map(|k| format!("`{k}`"))
            .collect();
        w.sink.error(
            type_pos,
            hook_protocol::skipping(
                format!(
                    "`{event}` does not accept `{kind}` handlers (it accepts {})",
                    accepted.join(", ")
                ),
                hook_protocol::Skipped::Hook,
                "this handler is skipped",
            ),
        );
        return None;
    }
    let mut f = Fields { w, obj, ok: true };
    let timeout = timeout(&mut f);
    let (if_rule, rule) = if_rule(&mut f, event);
    let on_failure = on_failure(&mut f, kind);
    let status_message = f.string("statusMessage").map(|(s, _)| s);
    let once = f.boolean("once").is_some_and(|(b, _)| b);
    let mut is_async = f.boolean("async").is_some_and(|(b, _)| b);
    let mut async_rewake = f.boolean("asyncRewake").is_some_and(|(b, _)| b);
    let mut command = None;
    let mut command_pos = at;
    let mut args = None;
    let mut shell = None;
    let spec = match kind {
        HandlerType::Command => {
            command = f.required("command", kind, at);
            args = f.strings("args");
            shell = f.string("shell");
            if let Some((s, p)) = &shell
                && s != "bash"
                && s != "powershell"
            {
                f.w.sink.error(
                    *p,
                    hook_protocol::skipping(
                        format!("`shell` must be `bash` or `powershell`, got `{s}`"),
                        hook_protocol::Skipped::Hook,
                        "this handler is skipped",
                    ),
                );
                f.ok = false;
            }
            Some(HandlerSpec::Command)
        }
        other => {
            for name in ["async", "asyncRewake"] {
                f.ignored(
                    name,
                    &format!("runs only `command` handlers in the background, not `{other}`"),
                );
            }
            is_async = false;
            async_rewake = false;
            for name in ["command", "args", "shell"] {
                f.ignored(name, &format!("belongs to `command` handlers, not `{other}`"));
            }
            match other {
                HandlerType::Http => http(&mut f, at),
                HandlerType::Prompt | HandlerType::Agent => prompt(&mut f, other, at),
                _ => mcp_tool(&mut f, at),
            }
        }
    };
    if let Some((_, p)) = &command {
        command_pos = *p;
    } else if let Some(p) = ["url", "prompt", "tool"].iter().find_map(|k| prop(obj, k)) {
        command_pos = f.w.pos(&p.value);
    }
    if !f.ok {
        return None;
    }
    let mut raw = match to_json(node) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if let Some(Value::Object(headers)) = raw.get_mut("headers") {
        for value in headers.values_mut() {
            *value = Value::String(REDACTED.to_owned());
        }
    }
    Some(Handler {
        kind,
        command: command.map(|(c, _)| c),
        args,
        shell: shell.map(|(s, _)| s),
        timeout,
        if_rule,
        status_message,
        once,
        is_async,
        async_rewake,
        on_failure,
        spec: spec.unwrap_or(HandlerSpec::Command),
        raw,
        positions: HandlerPositions { handler: at, command: command_pos, matcher },
        rule,
    })
}

fn timeout(f: &mut Fields<'_, '_, '_>) -> Option<Duration> {
    match prop(f.obj, "timeout").map(|p| &p.value) {
        None => None,
        Some(Ast::NumberLit(n)) => {
            let secs: f64 = n.value.parse().unwrap_or(f64::NAN);
            let Ok(timeout) = hook_exec::timeout_from_secs(secs) else {
                f.w.sink.error(
                    f.w.pos(n),
                    hook_protocol::skipping(
                        format!(
                            "`timeout` must be a positive number of seconds, got `{}`",
                            n.value
                        ),
                        hook_protocol::Skipped::Hook,
                        "this handler is skipped",
                    ),
                );
                f.ok = false;
                return None;
            };
            if secs >= MILLISECONDS_HINT {
                f.w.sink.warning(f.w.pos(n), format!("`timeout` is {} seconds ({:.0} minutes); timeouts are in seconds, not milliseconds", n.value, secs / 60.0));
            } else if secs < SHORTEST_LIKELY {
                f.w.sink.warning(f.w.pos(n), format!("`timeout` is {} seconds ({} ms); timeouts are in seconds, and the hook is likely killed before it can answer", n.value, secs * 1000.0));
            }
            Some(timeout)
        }
        Some(v) => {
            f.w.sink.error(f.w.pos(v), "`timeout` must be a number of seconds");
            f.ok = false;
            None
        }
    }
}

fn if_rule(
    f: &mut Fields<'_, '_, '_>,
    event: EventName,
) -> (Option<String>, Option<PermissionRule>) {
    let Some((text, p)) = f.string("if") else { return (None, None) };
    let mut rule = None;
    match PermissionRule::parse(&text) {
        Ok(r) => rule = Some(r),
        Err(e) => {
            f.w.sink.error(
                p,
                hook_protocol::skipping(
                    format!("{e}"),
                    hook_protocol::Skipped::Hook,
                    "this handler is skipped",
                ),
            );
            f.ok = false;
        }
    }
    if !event.is_tool_event() {
        f.w.sink.warning(
            p,
            format!(
                "`if` is only evaluated on tool events; on `{event}` a handler with `if` never runs"
            ),
        );
    }
    (Some(text), rule)
}

fn on_failure(f: &mut Fields<'_, '_, '_>, kind: HandlerType) -> OnFailure {
    match f.string("onFailure") {
        None => OnFailure::Continue,
        Some((s, _)) if s == "continue" => OnFailure::Continue,
        Some((s, p)) if s == "block" => {
            if !matches!(kind, HandlerType::Command | HandlerType::Http) {
                f.w.sink.warning(
                    p,
                    format!(
                        "`onFailure` applies to `command` and `http` handlers only; on `{kind}` it has no effect"
                    ),
                );
                return OnFailure::Continue;
            }
            OnFailure::Block
        }
        Some((s, p)) => {
            f.w.sink.error(
                p,
                hook_protocol::skipping(
                    format!("`onFailure` must be `continue` or `block`, got `{s}`"),
                    hook_protocol::Skipped::Hook,
                    "this handler is skipped",
                ),
            );
            f.ok = false;
            OnFailure::Continue
        }
    }
}

fn http(f: &mut Fields<'_, '_, '_>, at: Position) -> Option<HandlerSpec> {
    if !crate::config::url::BUILT {
        f.w.sink.warning(at, format!("{}; this hook never runs", crate::config::url::NOT_BUILT));
    }
    let url = f.required("url", HandlerType::Http, at);
    if let Some((u, p)) = &url
        && let Err(e) = crate::config::url::check_url(u)
    {
        f.w.sink.error(
            *p,
            hook_protocol::skipping(
                format!("{e}"),
                hook_protocol::Skipped::Hook,
                "this handler is skipped",
            ),
        );
        f.ok = false;
    }
    let mut headers = Vec::new();
    match prop(f.obj, "headers").map(|p| &p.value) {
        None => {}
        Some(Ast::Object(o)) => {
            for p in &o.properties {
                let name = p.name.as_str();
                if let Err(e) = crate::config::url::check_header_name(name) {
                    let at = f.w.pos(&p.name);
                    f.w.sink.error(
                        at,
                        hook_protocol::skipping(
                            format!("{e}"),
                            hook_protocol::Skipped::Hook,
                            "this handler is skipped",
                        ),
                    );
                    f.ok = false;
                }
                match &p.value {
                    Ast::StringLit(s) => headers.push((name.to_owned(), s.value.to_string())),
                    v => {
                        let at = f.w.pos(v);
                        f.w.sink.error(at, format!("header `{name}` must be a string"));
                        f.ok = false;
                    }
                }
            }
        }
        Some(v) => {
            f.w.sink.error(f.w.pos(v), "`headers` must be an object of strings");
            f.ok = false;
        }
    }
    let allowed_env_vars = f.strings("allowedEnvVars").unwrap_or_default();
    let (url, _) = url?;
    Some(HandlerSpec::Http(HttpSpec { url, headers, allowed_env_vars }))
}

fn prompt(f: &mut Fields<'_, '_, '_>, kind: HandlerType, at: Position) -> Option<HandlerSpec> {
    let prompt = f.required("prompt", kind, at);
    let model = f.string("model").map(|(m, _)| m);
    let continue_on_block = if kind == HandlerType::Agent {
        f.ignored("continueOnBlock", "has no effect on `agent` handlers (they always continue)");
        true
    } else {
        f.boolean("continueOnBlock").is_some_and(|(b, _)| b)
    };
    let (prompt, _) = prompt?;
    let spec = PromptSpec { prompt, model, continue_on_block };
    Some(if kind == HandlerType::Agent {
        HandlerSpec::Agent(spec)
    } else {
        HandlerSpec::Prompt(spec)
    })
}

fn mcp_tool(f: &mut Fields<'_, '_, '_>, at: Position) -> Option<HandlerSpec> {
    let server = f.required("server", HandlerType::McpTool, at);
    let tool = f.required("tool", HandlerType::McpTool, at);
    let input = match prop(f.obj, "input").map(|p| &p.value) {
        None => Map::new(),
        Some(v @ Ast::Object(_)) => match to_json(v) {
            Value::Object(map) => map,
            _ => Map::new(),
        },
        Some(v) => {
            f.w.sink.error(f.w.pos(v), "`input` must be an object");
            f.ok = false;
            Map::new()
        }
    };
    let ((server, _), (tool, _)) = (server?, tool?);
    Some(HandlerSpec::McpTool(McpToolSpec { server, tool, input }))
}
