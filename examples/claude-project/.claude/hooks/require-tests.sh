#!/bin/sh
# Stop: keep Claude working until it has run the tests, once. stop_hook_active is true when
# Claude is already continuing because of this hook: then let it stop, to avoid a loop.
. "$(dirname "$0")/lib.sh"
input=$(cat)
if json_true stop_hook_active; then
  exit 0
fi
marker="${CLAUDE_PROJECT_DIR:-.}/.claude/tests-passed"
if [ ! -f "$marker" ]; then
  printf '{"decision":"block","reason":"Run the test suite and report its result before you stop."}\n'
fi
exit 0
