#!/bin/sh
# Cursor: a prompt that holds a password is not sent.
if grep -qi 'password'; then
  echo '{"continue": false, "user_message": "that prompt holds a password"}'
fi
