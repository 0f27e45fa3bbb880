#!/bin/sh
# UserPromptSubmit: block prompts that carry credentials, before they reach the model.
. "$(dirname "$0")/lib.sh"
input=$(cat)
prompt=$(json_string prompt)

if printf '%s' "$prompt" | grep -Eq 'AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----|(password|passwd|secret)[[:space:]]*[=:][[:space:]]*[^[:space:]]+'; then
  printf '{"decision":"block","reason":"The prompt appears to contain a credential; remove it and try again."}\n'
  exit 0
fi
exit 0
