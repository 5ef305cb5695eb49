#!/usr/bin/env bash
# Fails when a source file includes a higher layer. Layers, lowest first:
# protocol → tools → engine → server; a file may include its own layer and
# the ones below it, never one above. Inside tools/ only builtin/ includes
# builtin/ (the families register themselves). Inside engine/ the folders are
# layers too, lowest first: model → scheduler → config → extensions →
# session (the turn core) → commands → context → hooks → persistence →
# rewind → subagents → agent (where sessions are assembled).
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

ENGINE_ORDER=(model scheduler config extensions session commands context hooks persistence rewind subagents agent)

# Inside tools/ the built-in list sits on top: each family registers its own
# tools, and none includes tools/builtin/.
check_tools_builtin() {
  local root="$1" hits
  [[ -d "$root/tools" ]] || return 0
  hits=$(grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' --exclude-dir=builtin \
           "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]tools/builtin/" "$root/tools" || true)
  if [[ -n "$hits" ]]; then
    echo "layer violation: only tools/builtin/ may include tools/builtin/ (families register themselves):" >&2
    echo "$hits" | sed "s|^$root/|  |" >&2
    return 1
  fi
}

# Lists includes from $1/$2 of any of the folders named after it ("prefix/folder").
includes_of() {
  local from="$1" higher
  shift
  for higher in "$@"; do
    grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' \
      "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]$higher/" "$from" || true
  done
}

check_engine_order() {
  local root="$1" bad=0 i hits
  for ((i = 0; i < ${#ENGINE_ORDER[@]}; i++)); do
    local folder="${ENGINE_ORDER[$i]}" higher=()
    [[ -d "$root/engine/$folder" ]] || continue
    local j
    for ((j = i + 1; j < ${#ENGINE_ORDER[@]}; j++)); do higher+=("engine/${ENGINE_ORDER[$j]}"); done
    hits=$(includes_of "$root/engine/$folder" "${higher[@]}")
    if [[ -n "$hits" ]]; then
      echo "layer violation: engine/$folder/ must not include a folder above it (${ENGINE_ORDER[*]:$((i + 1))}):" >&2
      echo "$hits" | sed "s|^$root/|  |" >&2
      bad=1
    fi
  done
  # A folder that is not in the order would escape the check.
  local dir
  for dir in "$root"/engine/*/; do
    [[ -d "$dir" ]] || continue
    local name
    name=$(basename "$dir")
    if [[ " ${ENGINE_ORDER[*]} " != *" $name "* ]]; then
      echo "layer violation: engine/$name/ has no place in the engine's order; add it to ENGINE_ORDER" >&2
      bad=1
    fi
  done
  return $bad
}

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
  check_engine_order "$root" || bad=1
  check_tools_builtin "$root" || bad=1
  return $bad
}

self_test() {
  local dir status=0
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  mkdir -p "$dir"/{protocol,tools,engine,server} "$dir"/engine/{model,session,agent} "$dir"/tools/{builtin,files}
  echo '#include "protocol/base/json.h"' > "$dir/tools/ok.cpp"
  echo '#include "tools/files/file_tools.h"' > "$dir/tools/builtin/ok.cpp"
  echo '#include "tools/core/tool.h"' > "$dir/engine/ok.h"
  echo '#include "engine/session/session.h"' > "$dir/engine/agent/ok.cpp"
  echo '#include "engine/model/content.h"' > "$dir/engine/session/ok.cpp"
  echo '#include "engine/session/session.h"' > "$dir/server/ok.cpp"
  check "$dir" 2>/dev/null || { echo "self-test: a clean tree was refused" >&2; return 1; }
  local breach
  for breach in "protocol/a.h:tools/core/tool.h" "protocol/b.cpp:engine/x.h" "protocol/c.cpp:server/x.h" \
                "tools/d.cpp:engine/session/session.h" "tools/e.h:server/cli.h" "engine/f.cpp:server/acp_agent.h" \
                "engine/session/g.cpp:engine/agent/session_table.h" "engine/model/h.h:engine/session/history.h" \
                "tools/files/i.cpp:tools/builtin/builtin_tools.h"; do
    local file="${breach%%:*}" include="${breach#*:}"
    echo "#  include <$include>" > "$dir/$file"
    if check "$dir" 2>/dev/null; then
      echo "self-test: $file including $include was not caught" >&2
      status=1
    fi
    rm "$dir/$file"
  done
  mkdir "$dir/engine/unplaced"
  if check "$dir" 2>/dev/null; then
    echo "self-test: an engine folder outside the order was not caught" >&2
    status=1
  fi
  return $status
}

if [[ "${1:-}" == "--self-test" ]]; then
  self_test && echo "layer check self-test passed"
else
  check "${1:?usage: check_layers.sh SOURCE_DIR | --self-test}" && echo "no file includes a higher layer"
fi
