# Third-party libraries, all from Debian packages (see scripts/setup.sh).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# cpp-httplib is a compiled shared library in Debian with no CMake package; its
# pkg-config file carries the OpenSSL/zlib/brotli defines that must match it.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)

# PCRE2 (8-bit, with JIT) for grep_search regexes; only tools/text_search.cpp includes it.
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)

# Gumbo: the HTML5 parser web_fetch reads pages with (libgumbo-dev).
pkg_check_modules(GUMBO REQUIRED IMPORTED_TARGET gumbo)

# libgit2 (libgit2-dev): the shadow repositories rewinds keep files in; only
# tools/snapshots/shadow_repo.cpp includes it.
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)

# yaml-cpp (libyaml-cpp-dev): the frontmatter of skills and agents; only
# protocol/formats/yaml.cpp includes it.
pkg_check_modules(YAMLCPP REQUIRED IMPORTED_TARGET yaml-cpp)

# toml++ (libtomlplusplus-dev), used header-only by protocol/formats/toml.cpp
# alone (its header is large), so nothing links Debian's shared build of it.
find_path(TOMLPLUSPLUS_INCLUDE_DIR toml++/toml.h REQUIRED)
add_library(lathe_tomlplusplus INTERFACE)
target_include_directories(lathe_tomlplusplus SYSTEM INTERFACE ${TOMLPLUSPLUS_INCLUDE_DIR})

# RapidJSON 1.1.0: header-only. std::string support is switched on for everyone.
find_path(RAPIDJSON_INCLUDE_DIR rapidjson/document.h REQUIRED)
add_library(lathe_rapidjson INTERFACE)
target_include_directories(lathe_rapidjson SYSTEM INTERFACE ${RAPIDJSON_INCLUDE_DIR})
target_compile_definitions(lathe_rapidjson INTERFACE RAPIDJSON_HAS_STDSTRING=1)

# Boost.Asio (libboost-dev, header-only) under the executor; only protocol/exec's
# .cpp files include it, so its headers stay out of every other translation unit.
find_package(Boost 1.74 REQUIRED)
add_library(lathe_asio INTERFACE)
target_link_libraries(lathe_asio INTERFACE Boost::headers Threads::Threads)
target_compile_definitions(lathe_asio INTERFACE BOOST_ASIO_NO_DEPRECATED BOOST_ASIO_DISABLE_BOOST_COROUTINE)
