# Shared helpers for the example hooks (POSIX sh, no jq needed).

# json_string FIELD: prints the first string value of "FIELD" in the JSON read from $input,
# with \" and \\ unescaped. Good enough for the flat fields these hooks read.
json_string() {
  printf '%s' "$input" |
    sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\([^\"\\\\]*\(\\\\.[^\"\\\\]*\)*\)\".*/\1/p" |
    sed 's/\\"/"/g; s/\\\\/\\/g' |
    head -n 1
}

# json_true FIELD: succeeds when "FIELD" is true in the JSON read from $input.
json_true() {
  printf '%s' "$input" | grep -q "\"$1\"[[:space:]]*:[[:space:]]*true"
}

# json_escape: escapes stdin for use inside a JSON string.
json_escape() {
  sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n' ' '
}
