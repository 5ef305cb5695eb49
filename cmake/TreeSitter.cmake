# The tree-sitter runtime and grammars, compiled once as their own target from
# the C sources the pinned npm packages ship (scripts/setup.sh fetches them into
# .deps/node without running any install script).
set(LATHE_NODE_MODULES "${PROJECT_SOURCE_DIR}/.deps/node/node_modules" CACHE PATH "npm packages from scripts/setup.sh")
set(_ts_runtime "${LATHE_NODE_MODULES}/tree-sitter/vendor/tree-sitter/lib")
if(NOT EXISTS "${_ts_runtime}/src/lib.c")
  message(FATAL_ERROR "tree-sitter sources are missing under ${LATHE_NODE_MODULES}: run scripts/setup.sh")
endif()

# name -> source folder (each holds parser.c and maybe scanner.c)
set(_ts_grammars
  bash tree-sitter-bash/src
  c tree-sitter-c/src
  cpp tree-sitter-cpp/src
  go tree-sitter-go/src
  java tree-sitter-java/src
  javascript tree-sitter-javascript/src
  json tree-sitter-json/src
  python tree-sitter-python/src
  rust tree-sitter-rust/src
  tsx tree-sitter-typescript/tsx/src
  typescript tree-sitter-typescript/typescript/src
)

add_library(lathe_tree_sitter STATIC "${_ts_runtime}/src/lib.c")
set_source_files_properties("${_ts_runtime}/src/lib.c" PROPERTIES INCLUDE_DIRECTORIES "${_ts_runtime}/src")
list(LENGTH _ts_grammars _ts_count)
math(EXPR _ts_last "${_ts_count} - 1")
foreach(_i RANGE 0 ${_ts_last} 2)
  math(EXPR _j "${_i} + 1")
  list(GET _ts_grammars ${_j} _dir)
  set(_src "${LATHE_NODE_MODULES}/${_dir}")
  if(NOT EXISTS "${_src}/parser.c")
    message(FATAL_ERROR "missing grammar ${_src}/parser.c: run scripts/setup.sh")
  endif()
  set(_files "${_src}/parser.c")
  if(EXISTS "${_src}/scanner.c")
    list(APPEND _files "${_src}/scanner.c")
  endif()
  target_sources(lathe_tree_sitter PRIVATE ${_files})
  set_source_files_properties(${_files} PROPERTIES INCLUDE_DIRECTORIES "${_src}")
  if(LATHE_SANITIZE OR LATHE_FUZZ)
    # Generated parse tables: not instrumented, which keeps sanitizer builds short.
    set_source_files_properties(${_files} PROPERTIES COMPILE_OPTIONS "-fno-sanitize=all")
  endif()
endforeach()
target_include_directories(lathe_tree_sitter SYSTEM PUBLIC "${_ts_runtime}/include")
set_target_properties(lathe_tree_sitter PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
# Generated third-party code: optimised even in debug builds, and not linted.
target_compile_options(lathe_tree_sitter PRIVATE -O2 -w)
target_compile_definitions(lathe_tree_sitter PRIVATE _DEFAULT_SOURCE)
