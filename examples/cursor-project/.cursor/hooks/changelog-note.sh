#!/bin/sh
# Reminds the agent of the changelog after an edit.
cat >/dev/null
echo '{"additional_context": "Add a line to CHANGELOG.md for user-visible changes."}'
