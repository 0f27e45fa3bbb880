#!/bin/sh
# TNSAI hook_protocol_version 1: blocks recursive deletes, turns force pushes into
# --force-with-lease, allows everything else. The envelope arrives on stdin.
envelope=$(cat)
case "$envelope" in
  *'"rm -rf'*)
    echo '{"hook_protocol_version":"1","decision":"block","reason":"recursive deletes are not allowed","severity":"CRITICAL","metadata":{"rule":"no-rm-rf"}}' ;;
  *'"git push --force"'*)
    echo '{"hook_protocol_version":"1","decision":"modify","modified_payload":{"tool_input":{"command":"git push --force-with-lease"}},"reason":"force-with-lease keeps others'"'"' commits"}' ;;
  *)
    echo '{"hook_protocol_version":"1","decision":"allow"}' ;;
esac
