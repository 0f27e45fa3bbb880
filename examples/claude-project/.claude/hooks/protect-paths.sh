#!/bin/sh
# PreToolUse(Write|Edit|MultiEdit): never let the agent write secrets or git internals.
# Blocks with exit code 2; stderr is the reason Claude sees.
. "$(dirname "$0")/lib.sh"
input=$(cat)
path=$(json_string file_path)

case "$path" in
  *.env | *.env.* | */.git/* | *id_rsa* | *.pem | */secrets/*)
    echo "Refusing to write $path: it is a protected path (secrets or git internals)." >&2
    exit 2 ;;
esac
exit 0
