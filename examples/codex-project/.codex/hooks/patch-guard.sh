#!/bin/sh
# Refuses patches that touch .env files: a JSON deny with its reason.
input=$(cat)
case "$input" in
  *'File: .env'*|*'File: '*'/.env'*)
    printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "secrets stay out of patches"}}'
    ;;
esac
exit 0
