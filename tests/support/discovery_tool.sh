#!/usr/bin/env bash
# A project's tool commands for tests of command-based discovery.
#   discovery_tool.sh discover SHAPE [MARKER]  prints declarations in SHAPE
#   discovery_tool.sh call NAME                  runs tool NAME with JSON args on stdin
# With MARKER, discovery first creates that file: proof that it ran.
set -u
mode=$1; shift
if [ "$mode" = discover ]; then
  shape=$1
  if [ $# -ge 2 ]; then : > "$2"; fi
  case "$shape" in
    bare) echo '[{"name":"echo","description":"Echoes its input","parametersJsonSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]' ;;
    grouped) echo '[{"functionDeclarations":[{"name":"echo","description":"Echoes"},{"name":"fail"}]}]' ;;
    snake) echo '[{"function_declarations":[{"name":"echo"}]},{"name":"stderr_ok"}]' ;;
    parameters) echo '[{"name":"echo","parameters":{"type":"OBJECT","properties":{"n":{"type":"INTEGER"}},"required":["n"]}}]' ;;
    odd_name) echo '[{"name":"my tool!"}]' ;;
    env) echo '[{"name":"env"}]' ;;
    empty_list) echo '[]' ;;
    garbage) echo 'this is not json' ;;
    object) echo '{"name":"echo"}' ;;
    nameless) echo '[{"description":"no name"}]' ;;
    fail) echo 'cannot list tools' >&2; exit 4 ;;
    slow) sleep 30 ;;
  esac
  exit 0
fi
if [ "$mode" = call ]; then
  name=$1
  input=$(cat)
  case "$name" in
    echo) printf '{"tool":"%s","got":%s}' "$name" "$input" ;;
    env) printf '{"token":"%s","visible":"%s"}' "${GITHUB_TOKEN:-}" "${LATHE_TEST_VISIBLE:-}" ;;
    "my tool!") printf 'odd name ok' ;;
    fail) echo 'partial output'; echo 'it broke' >&2; exit 3 ;;
    stderr_ok) echo 'just a warning' >&2; echo 'fine' ;;
    slow) : > slow.started; sleep 30 ;;  # the file tells the test it runs
    *) echo "unknown tool $name" >&2; exit 2 ;;
  esac
  exit 0
fi
echo "usage: $0 discover SHAPE | call NAME" >&2
exit 64
