#!/bin/sh
# Refuses recursive deletes: exit 2 with the reason on stderr.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*) echo "recursive deletes are not allowed here" >&2; exit 2 ;;
esac
exit 0
