# LATHE_PORTABLE: the lathe binary runs on any x86-64 glibc Linux (Debian 12,
# Ubuntu 22.04/24.04) with none of the -dev packages: libstdc++, libgcc, PCRE2,
# Gumbo, yaml-cpp, Brotli, cpp-httplib and libgit2 (with what it links: mbed
# TLS, http-parser, libssh2, libgcrypt; GSSAPI stubbed) are linked statically (Boost.Asio is header-only:
# nothing to link); glibc, OpenSSL and zlib
# stay system libraries (every system has them, and they get security updates).
# The compile flags of Lathe's own files do not change, so a portable build
# reuses the same objects (and ccache entries) as a plain one.
if(LATHE_SANITIZE OR LATHE_FUZZ)
  set(_portable_default OFF)  # sanitizer runtimes want the shared libstdc++
else()
  set(_portable_default ON)
endif()
option(LATHE_PORTABLE "Link the libraries not found on every Linux system statically" ${_portable_default})
if(NOT LATHE_PORTABLE)
  return()
endif()

# Debian ships cpp-httplib only as a shared library: scripts/setup.sh fetches
# its Debian source (same version, Debian's patches) and splits it the way
# Debian does; the header equals the installed one.
set(LATHE_HTTPLIB_SOURCE "${PROJECT_SOURCE_DIR}/.deps/httplib" CACHE PATH "cpp-httplib split source from scripts/setup.sh")
if(NOT EXISTS "${LATHE_HTTPLIB_SOURCE}/httplib.cc")
  message(FATAL_ERROR "cpp-httplib's source is missing under ${LATHE_HTTPLIB_SOURCE}: run scripts/setup.sh")
endif()

function(lathe_static_library out name)
  find_library(${out} NAMES lib${name}.a REQUIRED)
endfunction()
lathe_static_library(LATHE_PCRE2_A pcre2-8)
lathe_static_library(LATHE_GUMBO_A gumbo)
lathe_static_library(LATHE_YAMLCPP_A yaml-cpp)
lathe_static_library(LATHE_BROTLIENC_A brotlienc)
lathe_static_library(LATHE_BROTLIDEC_A brotlidec)
lathe_static_library(LATHE_BROTLICOMMON_A brotlicommon)
lathe_static_library(LATHE_GIT2_A git2)
lathe_static_library(LATHE_MBEDTLS_A mbedtls)
lathe_static_library(LATHE_MBEDX509_A mbedx509)
lathe_static_library(LATHE_MBEDCRYPTO_A mbedcrypto)
lathe_static_library(LATHE_HTTP_PARSER_A http_parser)
lathe_static_library(LATHE_SSH2_A ssh2)
lathe_static_library(LATHE_GCRYPT_A gcrypt)
lathe_static_library(LATHE_GPG_ERROR_A gpg-error)
find_package(OpenSSL REQUIRED)
find_package(ZLIB REQUIRED)
# Debian's libgit2 wants GSSAPI, which has no static build: cmake/portable/no_gssapi.c says why stubs do.
add_library(lathe_no_gssapi STATIC "${PROJECT_SOURCE_DIR}/cmake/portable/no_gssapi.c")
target_compile_options(lathe_no_gssapi PRIVATE -w)

add_library(lathe_httplib STATIC "${LATHE_HTTPLIB_SOURCE}/httplib.cc")
# The defines from cpp-httplib.pc (OpenSSL, zlib, Brotli), plus poll() as Debian builds it.
target_compile_options(lathe_httplib PRIVATE ${HTTPLIB_CFLAGS_OTHER} -w)
target_compile_definitions(lathe_httplib PRIVATE CPPHTTPLIB_USE_POLL)
set_target_properties(lathe_httplib PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(lathe_httplib PUBLIC OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB
  ${LATHE_BROTLIENC_A} ${LATHE_BROTLIDEC_A} ${LATHE_BROTLICOMMON_A} Threads::Threads)

# Every user of the pkg-config targets links the static archives instead; their
# compile flags (include dirs, defines) stay as they were.
set_target_properties(PkgConfig::HTTPLIB PROPERTIES INTERFACE_LINK_LIBRARIES lathe_httplib INTERFACE_LINK_DIRECTORIES "" INTERFACE_LINK_OPTIONS "")
set_target_properties(PkgConfig::PCRE2 PROPERTIES INTERFACE_LINK_LIBRARIES "${LATHE_PCRE2_A}" INTERFACE_LINK_DIRECTORIES "" INTERFACE_LINK_OPTIONS "")
set_target_properties(PkgConfig::GUMBO PROPERTIES INTERFACE_LINK_LIBRARIES "${LATHE_GUMBO_A}" INTERFACE_LINK_DIRECTORIES "" INTERFACE_LINK_OPTIONS "")
set_target_properties(PkgConfig::LIBGIT2 PROPERTIES INTERFACE_LINK_DIRECTORIES "" INTERFACE_LINK_OPTIONS ""
  INTERFACE_LINK_LIBRARIES "${LATHE_GIT2_A};${LATHE_MBEDTLS_A};${LATHE_MBEDX509_A};${LATHE_MBEDCRYPTO_A};${LATHE_HTTP_PARSER_A};${LATHE_SSH2_A};${LATHE_GCRYPT_A};${LATHE_GPG_ERROR_A};lathe_no_gssapi;OpenSSL::SSL;OpenSSL::Crypto;${LATHE_PCRE2_A};ZLIB::ZLIB;rt;dl")
set_target_properties(PkgConfig::YAMLCPP PROPERTIES INTERFACE_LINK_LIBRARIES "${LATHE_YAMLCPP_A}" INTERFACE_LINK_DIRECTORIES "" INTERFACE_LINK_OPTIONS "")

# For the lathe executable (server/CMakeLists.txt): the C++ and GCC runtimes too.
set(LATHE_PORTABLE_LINK_OPTIONS -static-libstdc++ -static-libgcc)
