#!/bin/sh
# Stops prompts that carry a GitHub token.
input=$(cat)
case "$input" in
  *ghp_*) echo '{"decision": "block", "reason": "The prompt holds a GitHub token; remove it and send it again."}' ;;
esac
exit 0
