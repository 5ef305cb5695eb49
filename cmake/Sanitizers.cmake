# Sanitizer and fuzzing builds, each in its own build directory configured with
# clang (scripts/test.sh and scripts/fuzz.sh do this):
#   -DLATHE_SANITIZE=address,undefined   every target under ASan + UBSan
#   -DLATHE_SANITIZE=thread              every target under TSan
#   -DLATHE_FUZZ=ON                      libFuzzer targets in fuzz/ (with ASan + UBSan)
# Flags apply to every target (tree-sitter included), so instrumented and
# plain code never mix in one binary.
set(LATHE_SANITIZE "" CACHE STRING "Sanitizers for every target (address,undefined | thread | empty)")
option(LATHE_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)

set(LATHE_CAN_FUZZ OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(LATHE_CAN_FUZZ ON)
endif()

if(LATHE_FUZZ AND LATHE_CAN_FUZZ AND NOT LATHE_SANITIZE)
  set(LATHE_SANITIZE "address,undefined")
endif()

if(LATHE_SANITIZE)
  message(STATUS "lathe: sanitizers ${LATHE_SANITIZE}")
  # Every report is fatal except pointer-overflow, which stays recoverable so
  # scripts/ubsan.supp can silence RapidJSON 1.1.0's null-stack arithmetic.
  add_compile_options(-fsanitize=${LATHE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  if(LATHE_SANITIZE MATCHES "undefined")
    add_compile_options(-fsanitize-recover=pointer-overflow)
  endif()
  add_link_options(-fsanitize=${LATHE_SANITIZE})
  if(LATHE_SANITIZE MATCHES "undefined")
    # Function-type checks trip on C callbacks through void* (tree-sitter), not on Lathe's code.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      add_compile_options(-fno-sanitize=function)
    endif()
  endif()
endif()

if(LATHE_FUZZ AND LATHE_CAN_FUZZ)
  # Coverage feedback for libFuzzer in every library; only fuzz targets link its main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
