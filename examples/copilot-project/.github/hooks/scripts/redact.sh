#!/bin/sh
# Hides tokens from what the model reads back from the shell.
input=$(cat)
case "$input" in
  *ghp_*)
    echo '{"modifiedResult": {"resultType": "success", "textResultForLlm": "[output hidden: it held a GitHub token]"}, "additionalContext": "Never print tokens; read them from the environment."}' ;;
esac
exit 0
