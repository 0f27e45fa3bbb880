#!/bin/sh
# The first time the turn wants to end, asks for the tests; after that, lets it end.
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
printf '%s\n' '{"decision": "block", "reason": "Run make test and fix what fails before you finish."}'
