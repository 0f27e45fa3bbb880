#!/bin/sh
# Cursor: no downloads from the shell.
cat > /dev/null
echo '{"permission": "deny", "user_message": "no downloads from the shell", "agent_message": "Downloads are blocked in this project; use the vendored copy."}'
