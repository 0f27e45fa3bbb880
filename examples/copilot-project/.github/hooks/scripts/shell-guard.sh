#!/bin/sh
# Refuses recursive deletes and force pushes; everything else goes through.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    echo '{"permissionDecision": "deny", "permissionDecisionReason": "recursive deletes are not allowed here"}' ;;
  *'push --force'*|*'push -f'*)
    echo '{"permissionDecision": "ask", "permissionDecisionReason": "a force push rewrites shared history"}' ;;
esac
exit 0
