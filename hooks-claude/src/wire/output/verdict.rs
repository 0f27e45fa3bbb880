//! From a validated output to the neutral verdict the core folds.

use hook_protocol::{Decision, Halt, Verdict};
use serde_json::Value;

use super::{
    ElicitationAction, HookOutput, PermissionBehavior, PermissionDecisionValue, Specific,
    TopDecision,
};
use crate::EventName;

fn permission(value: PermissionDecisionValue) -> Decision {
    match value {
        PermissionDecisionValue::Allow => Decision::Allow,
        PermissionDecisionValue::Ask => Decision::Ask,
        PermissionDecisionValue::Defer => Decision::Defer,
        PermissionDecisionValue::Deny => Decision::Deny,
    }
}

/// The neutral verdict of an output the event's discard rules were applied to.
pub(crate) fn to_verdict(event: Option<EventName>, out: &HookOutput) -> Verdict {
    let mut v = Verdict::no_opinion();
    if out.continue_ == Some(false) {
        v.halt = Some(Halt::new(out.stop_reason.clone()));
    }
    if let Some(msg) = &out.system_message {
        v.messages.push(msg.clone());
    }
    if let Some(ctx) = out.specific.as_ref().and_then(Specific::additional_context) {
        v.context.push(ctx.to_owned());
    }
    let block = out.decision == Some(TopDecision::Block);
    let Some(event) = event else {
        if block {
            v.decision = Some(Decision::Deny);
            v.reason = out.reason.clone();
        }
        return v;
    };
    use EventName::*;
    match (event, &out.specific) {
        (PreToolUse, specific) => {
            let mut decision = match out.decision {
                Some(TopDecision::Approve) => Some(Decision::Allow),
                Some(TopDecision::Block) => Some(Decision::Deny),
                None => None,
            };
            let mut reason = out.reason.clone();
            if let Some(Specific::PreToolUse(s)) = specific {
                let hso = s.permission_decision.map(permission);
                if hso > decision {
                    decision = hso;
                    reason = s.permission_decision_reason.clone();
                }
                if decision != Some(Decision::Defer) {
                    v.updated_input = s.updated_input.clone().map(Value::Object);
                }
            }
            // A deny without a reason keeps none: Claude Code's `Blocked by hook` is
            // presentation.
            v.decision = decision;
            v.reason = reason;
        }
        (PermissionRequest, Some(Specific::PermissionRequest(s))) => match s.behavior {
            Some(PermissionBehavior::Allow) => {
                v.decision = Some(Decision::Allow);
                v.updated_input = s.updated_input.clone().map(Value::Object);
            }
            Some(PermissionBehavior::Deny) => {
                v.decision = Some(Decision::Deny);
                v.reason = s.message.clone();
            }
            None => {}
        },
        (PreModelSwitch, specific) => {
            if let Some(Specific::ModelSwitch(s)) = specific {
                v.decision = s.permission_decision.map(permission);
                v.reason = s.permission_decision_reason.clone();
            }
            if block {
                v.decision = Some(Decision::Deny);
                v.reason = out.reason.clone();
            }
        }
        (Elicitation | ElicitationResult, specific) => {
            if let Some(Specific::Elicitation(s)) = specific {
                v.decision = s.action.map(|a| match a {
                    ElicitationAction::Accept => Decision::Allow,
                    ElicitationAction::Cancel => Decision::Defer,
                    ElicitationAction::Decline => Decision::Deny,
                });
            }
            if block {
                v.decision = Some(Decision::Deny);
            }
        }
        (event, _) if block && event.honours_top_level_block() => {
            v.decision = Some(Decision::Deny);
            v.reason = out.reason.clone();
        }
        _ => {}
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn verdict(event: EventName, v: Value) -> Verdict {
        let Value::Object(map) = v else { unreachable!() };
        let out =
            HookOutput::parse(Some(event), &map, event.as_str()).unwrap().discard_for(Some(event));
        to_verdict(Some(event), &out)
    }

    use test_support::object as obj;

    #[test]
    fn pre_tool_use_permission_and_legacy() {
        let v = verdict(
            EventName::PreToolUse,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}),
        );
        assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), None));
        let v = verdict(EventName::PreToolUse, json!({"decision": "approve"}));
        assert_eq!(v.decision, Some(Decision::Allow));
        let v = verdict(
            EventName::PreToolUse,
            json!({"decision": "block", "reason": "no", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
        );
        assert_eq!(
            (v.decision, v.reason.as_deref()),
            (Some(Decision::Deny), Some("no")),
            "legacy block beats allow"
        );
        let v = verdict(
            EventName::PreToolUse,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer", "updatedInput": {"a": 1}}}),
        );
        assert_eq!(
            (v.decision, v.updated_input),
            (Some(Decision::Defer), None),
            "no rewrite with defer"
        );
    }

    #[test]
    fn strict_rejections_name_the_field() {
        let parse =
            |v: Value| HookOutput::parse(Some(EventName::PreToolUse), &obj(v), "PreToolUse");
        let e = parse(json!({"continue": "no"})).unwrap_err();
        assert!(e.message.starts_with("`continue`: invalid type"), "{e}");
        let e = parse(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "Deny"}})).unwrap_err();
        assert!(e.message.contains("permissionDecision"), "{e}");
        assert!(parse(json!({"hookSpecificOutput": {"permissionDecision": "deny"}})).is_err());
        assert!(parse(json!({"hookSpecificOutput": {"hookEventName": "PostToolUse"}})).is_err());
        assert!(
            parse(
                json!({"extra": 1, "hookSpecificOutput": {"hookEventName": "PreToolUse", "x": 2}})
            )
            .is_ok()
        );
    }

    #[test]
    fn discard_rules() {
        let v = verdict(
            EventName::Notification,
            json!({"continue": false, "systemMessage": "m", "terminalSequence": "\u{7}"}),
        );
        assert!(v.is_empty());
        let v = verdict(
            EventName::TaskCreated,
            json!({"continue": false, "decision": "block", "reason": "r"}),
        );
        assert_eq!(
            (v.halt, v.decision),
            (None, Some(Decision::Deny)),
            "TaskCreated ignores continue:false"
        );
        for event in [
            EventName::SessionStart,
            EventName::SubagentStart,
            EventName::Notification,
            EventName::MessageDisplay,
            EventName::CwdChanged,
            EventName::PostCompact,
        ] {
            let v = verdict(event, json!({"continue": false, "stopReason": "halt"}));
            assert_eq!(v.halt, None, "continue: false has no effect on {event}");
        }
        let v = verdict(EventName::SessionEnd, json!({"decision": "block"}));
        assert!(v.is_empty());
        let v = verdict(EventName::Stop, json!({"decision": "block", "reason": "tests fail"}));
        assert_eq!(v.reason.as_deref(), Some("tests fail"));
        let v = verdict(
            EventName::SessionStart,
            json!({"decision": "block", "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "c"}}),
        );
        assert_eq!((v.decision, v.context.len()), (None, 1), "SessionStart cannot block");
    }

    #[test]
    fn elicitation_and_permission_request() {
        let v = verdict(
            EventName::Elicitation,
            json!({"decision": "block", "hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept"}}),
        );
        assert_eq!(v.decision, Some(Decision::Deny), "block overrides the action");
        let v = verdict(
            EventName::PermissionRequest,
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow", "updatedInput": {"command": "ls"}}}}),
        );
        assert_eq!(v.updated_input, Some(json!({"command": "ls"})));
        let v = verdict(
            EventName::PermissionRequest,
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "m", "interrupt": true}}}),
        );
        assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("m")));
    }
}
