//! The handlers that are not processes: `http` (through [`crate::run::http`]), and `prompt`,
//! `agent` and `mcp_tool` (through the harness's implementations, [`crate::delegate`]). Each
//! run is bounded by the hook's timeout on the wall clock and decoded by the rules of
//! [Exit codes and output](crate::compatibility#exit-codes-and-output).

use std::time::Duration;

use serde_json::{Map, Value};

use crate::HandlerType;
#[cfg(feature = "http")]
use crate::config::settings::HttpSpec;
use crate::config::settings::{McpToolSpec, PromptSpec};
use crate::delegate::{AgentRequest, DelegateError, McpToolRequest, PromptRequest};
#[cfg(feature = "http")]
use crate::run::http::{Failure, Post, interpolate};
use crate::run::mcp::substitute_input;
use crate::run::prompt::{
    AGENT_MAX_TURNS, answer_schema, answer_verdict, parse_answer, substitute_arguments,
};
use crate::run::runner::Runner;
use crate::wire::conversion::InputObject;
#[cfg(feature = "http")]
use crate::wire::decode::decode_http;
use crate::wire::decode::{Decoded, decode, decode_failure, decode_timeout, decode_verdict};

impl Runner {
    /// Posts the event's JSON and reads the answer ([HTTP hooks](crate::compatibility#http-hooks)).
    #[cfg(feature = "http")]
    pub(crate) async fn run_http(
        &self,
        spec: &HttpSpec,
        payload: &InputObject,
        timeout: Duration,
    ) -> Decoded {
        let ctx = self.decode_ctx(timeout);
        let policy = &self.shared.http_policy;
        let mut withheld: Vec<&str> = Vec::new();
        let mut headers = Vec::with_capacity(spec.headers.len());
        for (key, value) in &spec.headers {
            let value = interpolate(value, |name| {
                if !spec.allowed_env_vars.iter().any(|n| n == name) {
                    return None;
                }
                if policy.withholds(name) {
                    if let Some(listed) = spec.allowed_env_vars.iter().find(|n| *n == name)
                        && !withheld.contains(&listed.as_str())
                    {
                        withheld.push(listed);
                    }
                    return None;
                }
                policy.env_var_allowed(name).then(|| self.env_value(name)).flatten()
            });
            headers.push((key.clone(), value));
        }
        let mut body = payload.bytes().to_vec();
        if body.last() == Some(&b'\n') {
            body.pop();
        }
        let post = Post {
            url: spec.url.clone(),
            headers,
            body,
            timeout,
            max_body: hook_exec::RunLimits::DEFAULT.stdout_max,
        };
        let mut decoded = match self.shared.http.post(post).await {
            Ok(answer) => decode_http(&ctx, answer.status, &answer.body, answer.truncated),
            Err(Failure::TimedOut) => decode_timeout(&ctx),
            Err(e) => decode_failure(&ctx, format!("HTTP hook {e}")),
        };
        decoded.warnings.splice(
            0..0,
            withheld.iter().map(|name| {
                format!(
                    "`{name}` is a model credential and is never sent to a hook: \
                     the header that names it was sent without it"
                )
            }),
        );
        decoded
    }

    /// A variable's value for header interpolation: the settings `env` blocks and the
    /// harness's extra variables first, then the harness's own environment.
    #[cfg(feature = "http")]
    fn env_value(&self, name: &str) -> Option<String> {
        let host = &self.shared.host;
        self.shared
            .settings_env
            .iter()
            .chain(&host.extra)
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| std::env::var(name).ok())
    }

    /// Asks the harness's model or agent and maps its `{ok, reason}` answer
    /// ([Prompt and agent hooks](crate::compatibility#prompt-and-agent-hooks)).
    pub(crate) async fn run_prompt(
        &self,
        spec: &PromptSpec,
        payload: &InputObject,
        timeout: Duration,
    ) -> Decoded {
        let ctx = self.decode_ctx(timeout);
        let event = self.entry.event;
        let agent = self.entry.handler.kind == HandlerType::Agent;
        let json = String::from_utf8_lossy(payload.bytes()).trim_end().to_owned();
        let prompt = substitute_arguments(&spec.prompt, &json);
        let hook_id = self.info.id.clone();
        let delegates = &self.shared.delegates;
        let asked = async {
            if agent {
                let Some(runner) = &delegates.agent else {
                    return Err(missing(HandlerType::Agent));
                };
                let request = AgentRequest {
                    hook_id,
                    event,
                    prompt,
                    model: spec.model.clone(),
                    timeout,
                    max_turns: AGENT_MAX_TURNS,
                    schema: answer_schema(false),
                };
                runner.run(&request).await
            } else {
                let Some(model) = &delegates.model else {
                    return Err(missing(HandlerType::Prompt));
                };
                let request = PromptRequest {
                    hook_id,
                    event,
                    prompt,
                    model: spec.model.clone(),
                    timeout,
                    schema: answer_schema(true),
                };
                model.evaluate(&request).await
            }
        };
        let reply = match tokio::time::timeout(timeout, asked).await {
            Err(_) => return decode_timeout(&ctx),
            Ok(Err(e)) => {
                return decode_failure(
                    &ctx,
                    format!("{} hook failed: {e}", self.entry.handler.kind),
                );
            }
            Ok(Ok(reply)) => reply,
        };
        match parse_answer(&reply) {
            Ok(answer) => {
                let verdict = answer_verdict(event, agent, spec.continue_on_block, &answer);
                decode_verdict(&ctx, verdict)
            }
            Err(e) => decode_failure(&ctx, format!("{} hook answer: {e}", self.entry.handler.kind)),
        }
    }

    /// Calls the tool through the harness; its text is read like a command's stdout, and
    /// `isError` is a non-blocking error.
    pub(crate) async fn run_mcp(
        &self,
        spec: &McpToolSpec,
        payload: &InputObject,
        timeout: Duration,
    ) -> Decoded {
        let ctx = self.decode_ctx(timeout);
        let Some(caller) = &self.shared.delegates.mcp else {
            return decode_failure(&ctx, missing(HandlerType::McpTool).to_string());
        };
        let input: Map<String, Value> = substitute_input(&spec.input, payload.object());
        let request = McpToolRequest {
            hook_id: self.info.id.clone(),
            event: self.entry.event,
            server: spec.server.clone(),
            tool: spec.tool.clone(),
            input,
            timeout,
        };
        let result = match tokio::time::timeout(timeout, caller.call(&request)).await {
            Err(_) => return decode_timeout(&ctx),
            Ok(Err(e)) => return decode_failure(&ctx, format!("MCP tool hook failed: {e}")),
            Ok(Ok(result)) => result,
        };
        let text = result.joined_text();
        if result.is_error {
            let first: String = text.chars().take(300).collect();
            return decode_failure(
                &ctx,
                format!(
                    "MCP tool `{}` of server `{}` returned an error: {first}",
                    spec.tool, spec.server
                ),
            );
        }
        let raw =
            hook_protocol::RawOutcome::new(hook_protocol::Exit::Code { code: 0 }, text, Vec::new());
        decode(&ctx, &raw)
    }
}

fn missing(kind: HandlerType) -> DelegateError {
    DelegateError::Failed {
        message: format!("no implementation is registered for `{kind}` handlers"),
    }
}
