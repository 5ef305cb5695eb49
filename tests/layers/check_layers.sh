#!/usr/bin/env bash
# Fails when a source file includes a higher layer. Layers, lowest first:
# protocol → tools → engine → server; a file may include its own layer and
# the ones below it, never one above.
#
#   check_layers.sh SOURCE_DIR     check the tree, list every offending include
#   check_layers.sh --self-test    prove the check catches each kind of breach
set -euo pipefail

# layer → the folders it must not include
declare -A FORBIDDEN=(
  [protocol]="tools engine server"
  [tools]="engine server"
  [engine]="server"
)

check() {
  local root="$1" bad=0 layer higher hits
  for layer in "${!FORBIDDEN[@]}"; do
    [[ -d "$root/$layer" ]] || continue
    for higher in ${FORBIDDEN[$layer]}; do
      # #include "higher/..." or <higher/...>, with any spacing after '#'
      hits=$(grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' \
               "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]$higher/" "$root/$layer" || true)
      if [[ -n "$hits" ]]; then
        echo "layer violation: $layer/ must not include $higher/:" >&2
        echo "$hits" | sed "s|^$root/|  |" >&2
        bad=1
      fi
    done
  done
  return $bad
}

self_test() {
  local dir status=0
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  mkdir -p "$dir"/{protocol,tools,engine,server}
  echo '#include "protocol/base/json.h"' > "$dir/tools/ok.cpp"
  echo '#include "tools/core/tool.h"' > "$dir/engine/ok.h"
  echo '#include "engine/session/session.h"' > "$dir/server/ok.cpp"
  check "$dir" 2>/dev/null || { echo "self-test: a clean tree was refused" >&2; return 1; }
  local breach
  for breach in "protocol/a.h:tools/core/tool.h" "protocol/b.cpp:engine/x.h" "protocol/c.cpp:server/x.h" \
                "tools/d.cpp:engine/session/session.h" "tools/e.h:server/cli.h" "engine/f.cpp:server/acp_agent.h"; do
    local file="${breach%%:*}" include="${breach#*:}"
    echo "#  include <$include>" > "$dir/$file"
    if check "$dir" 2>/dev/null; then
      echo "self-test: $file including $include was not caught" >&2
      status=1
    fi
    rm "$dir/$file"
  done
  return $status
}

if [[ "${1:-}" == "--self-test" ]]; then
  self_test && echo "layer check self-test passed"
else
  check "${1:?usage: check_layers.sh SOURCE_DIR | --self-test}" && echo "no file includes a higher layer"
fi
