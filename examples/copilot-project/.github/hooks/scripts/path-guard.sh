#!/bin/sh
# Refuses writes to .env files and to .git/.
input=$(cat)
case "$input" in
  *'"path":".env'*|*'/.env"'*|*'.git/'*)
    echo '{"permissionDecision": "deny", "permissionDecisionReason": "secrets and git internals are protected"}' ;;
esac
exit 0
