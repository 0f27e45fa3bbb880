#!/bin/sh
# SessionStart(startup|resume): plain stdout becomes context for Claude.
cd "${CLAUDE_PROJECT_DIR:-.}" || exit 0
branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo "none")
echo "Project: $(basename "$PWD"). Git branch: $branch."
echo "Conventions: run the tests before finishing a task; never commit secrets."
