#!/bin/sh
# Refuses force pushes; lets other git commands through with an explicit allow.
input=$(cat)
case "$input" in
  *'push --force'*|*'push -f'*)
    echo '{"permission": "deny", "user_message": "Force pushes rewrite shared history."}' ;;
  *) echo '{"permission": "allow"}' ;;
esac
