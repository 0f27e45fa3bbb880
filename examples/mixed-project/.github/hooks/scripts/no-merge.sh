#!/bin/sh
# Copilot: the model does not merge pull requests.
cat > /dev/null
echo '{"permissionDecision": "deny", "permissionDecisionReason": "merging is for people"}'
