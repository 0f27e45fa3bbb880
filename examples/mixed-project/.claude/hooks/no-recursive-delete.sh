#!/bin/sh
# Claude Code: a recursive delete is refused.
if grep -q 'rm -rf'; then
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "recursive deletes are not allowed here"}}'
fi
