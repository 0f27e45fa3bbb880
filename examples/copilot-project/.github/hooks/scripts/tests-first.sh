#!/bin/sh
# Sends the agent back once to run the tests; lets it stop the second time.
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
echo '{"decision": "block", "reason": "Run make test and report the result before you stop."}'
