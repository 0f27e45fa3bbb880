#!/bin/sh
# A command whose output reports a panic: the model gets this note instead of the output.
input=$(cat)
case "$input" in
  *panicked*) printf '%s\n' '{"decision": "block", "reason": "the command panicked; read the backtrace in the test log, not here"}' ;;
esac
exit 0
