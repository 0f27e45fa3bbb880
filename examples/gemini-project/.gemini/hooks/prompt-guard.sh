#!/bin/sh
# Gemini CLI: a prompt that holds a password does not reach the model.
if grep -qi 'password'; then
  echo '{"decision": "deny", "reason": "that prompt holds a password"}'
fi
