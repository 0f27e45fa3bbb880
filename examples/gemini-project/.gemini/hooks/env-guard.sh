#!/bin/sh
# Gemini CLI: writing a .env file is refused, with a JSON answer.
if grep -q '"file_path":"[^"]*\.env"'; then
  echo '{"decision": "deny", "reason": ".env files hold secrets"}'
fi
