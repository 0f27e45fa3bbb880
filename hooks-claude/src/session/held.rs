//! A tool call's `PreToolUse` context, held for the call's `PostToolUse`.
//!
//! Claude Code puts the context of both events after the tool result, and the two come in one
//! system message (`PreToolUse:Bash hook additional context: …\n\nPostToolUse:Bash hook
//! additional context: …`). A session renders each event when it fires, so it keeps the
//! `PreToolUse` message of a call that runs until that call's `PostToolUse` or
//! `PostToolUseFailure`, and joins it there. A call refused at its permission prompt gets the
//! message right after the refusal's tool result (a `PermissionRequest` input has no
//! `tool_use_id`: the call is the latest held one with the same tool and input, else with the
//! same tool); one that ends otherwise (`PermissionDenied`, a turn that goes on without its
//! result) gets it, alone, at the start of the next step that is not about another tool call.

use serde_json::{Map, Value};

use crate::{EventName, ModelText, Placement, Shown};

/// The paragraph break between the two events' texts in the one system message.
const JOIN: &str = "\n\n";

/// A running call's held message.
#[derive(Debug)]
struct Call {
    id: String,
    tool: Option<Value>,
    input: Option<Value>,
    text: ModelText,
}

/// `PreToolUse` system messages of calls whose `PostToolUse` has not come yet, in the order
/// the calls were made.
#[derive(Debug, Default)]
pub(super) struct Held {
    calls: Vec<Call>,
}

impl Held {
    /// Applies the rule to the texts of a step that just fired: holds a running call's
    /// `PreToolUse` message, joins it into its `PostToolUse` message, or gives back what a
    /// call that ended otherwise left.
    pub(super) fn apply(
        &mut self,
        event: Option<EventName>,
        input: &Map<String, Value>,
        shown: &mut Shown,
    ) {
        let id = input.get("tool_use_id").and_then(Value::as_str).filter(|id| !id.is_empty());
        match (event, id) {
            (Some(EventName::PreToolUse), Some(id)) => {
                // A refused call has no result to wait for: its texts stay where they are.
                if shown.tool_result().is_some() {
                    return;
                }
                if let Some(at) = first_system(shown) {
                    let text = shown.model.remove(at);
                    self.calls.retain(|call| call.id != id);
                    self.calls.push(Call {
                        id: id.to_owned(),
                        tool: input.get("tool_name").cloned(),
                        input: input.get("tool_input").cloned(),
                        text,
                    });
                }
            }
            (Some(EventName::PermissionRequest), id) => {
                let Some(at) =
                    shown.model.iter().position(|m| m.placement == Placement::ToolResult)
                else {
                    return;
                };
                let (tool, tool_input) = (input.get("tool_name"), input.get("tool_input"));
                let found = match id {
                    Some(id) => self.calls.iter().rposition(|call| call.id == id),
                    // The same tool and input; else (the hooks rewrote the input) the tool.
                    None => self
                        .calls
                        .iter()
                        .rposition(|call| {
                            call.tool.as_ref() == tool && call.input.as_ref() == tool_input
                        })
                        .or_else(|| self.calls.iter().rposition(|call| call.tool.as_ref() == tool)),
                };
                if let Some(found) = found {
                    shown.model.insert(at + 1, self.calls.remove(found).text);
                }
            }
            (Some(EventName::PostToolUse | EventName::PostToolUseFailure), Some(id)) => {
                let Some(pre) = self.take(id) else { return };
                match first_system(shown) {
                    Some(at) => {
                        if let Some(post) = shown.model.get_mut(at) {
                            post.text = format!("{}{JOIN}{}", pre.text, post.text);
                        }
                    }
                    None => shown.model.insert(0, pre),
                }
            }
            (Some(EventName::PermissionDenied), Some(id)) => {
                if let Some(pre) = self.take(id) {
                    shown.model.insert(0, pre);
                }
            }
            (
                Some(
                    EventName::PreToolUse | EventName::PostToolUse | EventName::PostToolUseFailure,
                ),
                None,
            ) => {}
            _ => {
                let held = std::mem::take(&mut self.calls);
                shown.model.splice(0..0, held.into_iter().map(|call| call.text));
            }
        }
    }

    /// Drops a call's held message: the call was refused at the harness's prompt, and Claude
    /// Code sends no system message for it.
    pub(super) fn drop_call(&mut self, id: &str) {
        let _ = self.take(id);
    }

    fn take(&mut self, id: &str) -> Option<ModelText> {
        let at = self.calls.iter().position(|call| call.id == id)?;
        Some(self.calls.remove(at).text)
    }
}

fn first_system(shown: &Shown) -> Option<usize> {
    shown.model.iter().position(|m| m.placement == Placement::System)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn input(id: &str) -> Map<String, Value> {
        let Value::Object(map) =
            json!({"tool_use_id": id, "tool_name": "Bash", "tool_input": {"command": id}})
        else {
            return Map::new();
        };
        map
    }

    /// A permission prompt's input: no `tool_use_id`, the call's tool and input.
    fn prompt(id: &str) -> Map<String, Value> {
        let mut map = input(id);
        map.remove("tool_use_id");
        map
    }

    fn shown(texts: &[(Placement, &str)]) -> Shown {
        Shown::new(
            texts.iter().map(|(p, t)| ModelText::new(*p, *t, false)).collect(),
            Vec::new(),
            Vec::new(),
        )
    }

    fn texts(shown: &Shown) -> Vec<(Placement, &str)> {
        shown.model.iter().map(|m| (m.placement, m.text.as_str())).collect()
    }

    const PRE: &str = "PreToolUse:Bash hook additional context: a";
    const POST: &str = "PostToolUse:Bash hook additional context: b";

    #[test]
    fn a_running_calls_pre_context_joins_its_post_context_in_one_message() {
        let mut held = Held::default();
        let mut pre = shown(&[(Placement::System, PRE)]);
        held.apply(Some(EventName::PreToolUse), &input("t1"), &mut pre);
        assert!(pre.model.is_empty());
        let mut ask = shown(&[]);
        held.apply(Some(EventName::PermissionRequest), &prompt("t1"), &mut ask);
        assert!(ask.model.is_empty(), "an allowed prompt keeps it held");
        let mut post = shown(&[(Placement::System, POST)]);
        held.apply(Some(EventName::PostToolUse), &input("t1"), &mut post);
        assert_eq!(texts(&post), [(Placement::System, &*format!("{PRE}\n\n{POST}"))]);
    }

    #[test]
    fn a_post_without_context_gets_the_pre_message_alone() {
        let mut held = Held::default();
        held.apply(
            Some(EventName::PreToolUse),
            &input("t1"),
            &mut shown(&[(Placement::System, PRE)]),
        );
        let mut post = shown(&[]);
        held.apply(Some(EventName::PostToolUseFailure), &input("t1"), &mut post);
        assert_eq!(texts(&post), [(Placement::System, PRE)]);
    }

    #[test]
    fn a_refused_call_keeps_its_texts() {
        let mut held = Held::default();
        let mut pre = shown(&[
            (Placement::ToolResult, "PreToolUse:Bash hook error: no"),
            (Placement::System, PRE),
        ]);
        held.apply(Some(EventName::PreToolUse), &input("t1"), &mut pre);
        assert_eq!(pre.model.len(), 2);
        let mut post = shown(&[(Placement::System, POST)]);
        held.apply(Some(EventName::PostToolUse), &input("t1"), &mut post);
        assert_eq!(texts(&post), [(Placement::System, POST)]);
    }

    #[test]
    fn calls_are_matched_by_id_and_a_call_without_a_result_is_given_back_on_the_next_step() {
        let mut held = Held::default();
        held.apply(
            Some(EventName::PreToolUse),
            &input("a"),
            &mut shown(&[(Placement::System, "A")]),
        );
        held.apply(
            Some(EventName::PreToolUse),
            &input("b"),
            &mut shown(&[(Placement::System, "B")]),
        );
        held.apply(
            Some(EventName::PreToolUse),
            &input("c"),
            &mut shown(&[(Placement::System, "C")]),
        );
        let mut post_b = shown(&[(Placement::System, "b")]);
        held.apply(Some(EventName::PostToolUse), &input("b"), &mut post_b);
        assert_eq!(texts(&post_b), [(Placement::System, "B\n\nb")]);
        let mut denied = shown(&[]);
        held.apply(Some(EventName::PermissionDenied), &input("c"), &mut denied);
        assert_eq!(texts(&denied), [(Placement::System, "C")]);
        let mut stop = shown(&[(Placement::User, "feedback")]);
        held.apply(Some(EventName::Stop), &Map::new(), &mut stop);
        assert_eq!(texts(&stop), [(Placement::System, "A"), (Placement::User, "feedback")]);
        let mut next = shown(&[]);
        held.apply(Some(EventName::Stop), &Map::new(), &mut next);
        assert!(next.model.is_empty());
    }

    #[test]
    fn a_call_refused_at_its_permission_prompt_gets_it_after_the_refusal() {
        let mut held = Held::default();
        held.apply(
            Some(EventName::PreToolUse),
            &input("t1"),
            &mut shown(&[(Placement::System, PRE)]),
        );
        held.apply(
            Some(EventName::PreToolUse),
            &input("t2"),
            &mut shown(&[(Placement::System, "B")]),
        );
        let mut denied = shown(&[(Placement::ToolResult, "not now")]);
        held.apply(Some(EventName::PermissionRequest), &prompt("t1"), &mut denied);
        assert_eq!(texts(&denied), [(Placement::ToolResult, "not now"), (Placement::System, PRE)]);
        let mut stop = shown(&[]);
        held.apply(Some(EventName::Stop), &Map::new(), &mut stop);
        assert_eq!(texts(&stop), [(Placement::System, "B")], "t1's given once, t2's still held");
    }
}
