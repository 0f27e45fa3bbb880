#!/bin/sh
# Stops prompts that carry an API key.
input=$(cat)
case "$input" in
  *sk-*) echo '{"continue": false, "user_message": "The prompt holds an API key; remove it and send it again."}' ;;
  *) echo '{"continue": true}' ;;
esac
