#!/bin/sh
# Keeps the agent out of .env files.
input=$(cat)
case "$input" in
  *'.env"'*) echo '{"permission": "deny", "user_message": "The agent does not read .env files."}' ;;
  *) echo '{}' ;;
esac
