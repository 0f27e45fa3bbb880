#!/bin/sh
# PostToolUse(Write|Edit|MultiEdit): format the file that was just written, when a formatter
# for it is installed, and tell Claude what happened.
. "$(dirname "$0")/lib.sh"
input=$(cat)
path=$(json_string file_path)
[ -f "$path" ] || exit 0

case "$path" in
  *.rs) formatter=rustfmt ;;
  *.py) formatter=black ;;
  *) exit 0 ;;
esac
command -v "$formatter" >/dev/null 2>&1 || exit 0

if "$formatter" "$path" >/dev/null 2>&1; then
  msg=$(printf 'Formatted %s with %s.' "$path" "$formatter" | json_escape)
else
  msg=$(printf '%s could not format %s; it may not parse.' "$formatter" "$path" | json_escape)
fi
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"%s"}}\n' "$msg"
