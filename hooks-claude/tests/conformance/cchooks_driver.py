"""A Claude Code hook written with `cchooks`: parses stdin with the SDK, records whether the
SDK accepted the payload, and answers with the SDK's own output builders.

Usage: cchooks_driver.py MODE RECORD, MODE one of accept, deny, ask, block, context.
"""

import sys

from cchooks import create_context

mode, record = sys.argv[1], sys.argv[2]
try:
    ctx = create_context()
except Exception as e:  # the SDK rejected the payload
    with open(record, "w") as f:
        f.write(f"rejected: {type(e).__name__}: {e}")
    print(f"cchooks rejected the input: {e}", file=sys.stderr)
    sys.exit(1)
with open(record, "w") as f:
    f.write("accepted: " + ctx.hook_event_name)

event = ctx.hook_event_name
out = ctx.output
if mode == "accept":
    sys.exit(0)
if event == "PreToolUse":
    if mode == "deny":
        out.deny("cchooks deny")
    elif mode == "ask":
        out.ask("cchooks ask")
elif event in ("Stop", "SubagentStop") and mode == "block":
    out.prevent("cchooks block")
elif event == "UserPromptSubmit":
    if mode == "block":
        out.block("cchooks block")
    elif mode == "context":
        out.add_context("cchooks context")
elif event == "PostToolUse":
    if mode == "block":
        out.challenge("cchooks block")
    elif mode == "context":
        out.add_context("cchooks context")
elif event == "SessionStart" and mode == "context":
    out.add_context("cchooks context")
