#!/bin/sh
# PreToolUse(Bash): deny commands that destroy data or history; ask before a hard reset.
. "$(dirname "$0")/lib.sh"
input=$(cat)
cmd=$(json_string command)

deny() {
  reason=$(printf '%s' "$1" | json_escape)
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}\n' "$reason"
  exit 0
}

case "$cmd" in
  *"rm -rf /"* | *"rm -rf ~"* | *"rm -fr /"* | *"rm -rf \$HOME"*)
    deny "Refusing a recursive delete of the root or home directory: $cmd" ;;
  *"git push --force"* | *"git push -f "* | *"git push -f")
    deny "Force-pushing rewrites shared history; push a new commit instead." ;;
  *"mkfs"* | *"dd if="*" of=/dev/"*)
    deny "Refusing to overwrite a block device: $cmd" ;;
  *"git reset --hard"*)
    printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"git reset --hard discards uncommitted work"}}\n'
    exit 0 ;;
esac
exit 0
