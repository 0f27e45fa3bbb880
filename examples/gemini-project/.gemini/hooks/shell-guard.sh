#!/bin/sh
# Gemini CLI: a recursive delete is refused; any exit code but 0 and 1 denies, the text the reason.
if grep -q 'rm -rf'; then
  echo "recursive deletes are not allowed here"
  exit 2
fi
