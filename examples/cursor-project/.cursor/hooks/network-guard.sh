#!/bin/sh
# Refuses downloads piped into a shell; asks about any other network command.
input=$(cat)
case "$input" in
  *'| sh'*|*'| bash'*)
    echo '{"permission": "deny", "user_message": "Piping a download into a shell is not allowed here.", "agent_message": "Download the file, then show it to the user before running it."}' ;;
  *)
    echo '{"permission": "ask", "user_message": "This command reaches the network."}' ;;
esac
