#!/bin/sh
# Sends the agent back once to run the tests (loop_limit 1 stops it after that).
cat >/dev/null
echo '{"followup_message": "Run make test and report the result."}'
