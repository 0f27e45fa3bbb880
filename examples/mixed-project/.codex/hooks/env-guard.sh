#!/bin/sh
# Codex: a patch that touches a .env file is refused (Codex gives edits as one patch).
if grep -q 'File: [^\\]*\.env'; then
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "patches to .env files are not allowed"}}'
fi
