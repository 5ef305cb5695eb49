# What a release ships (scripts/release.sh): `cmake --install` of the `lathe`
# component lays out bin/lathe, its man page, the README and the licences of
# what the binary carries; the tarball and CPack's .deb are made from it.
include(GNUInstallDirs)

install(TARGETS lathe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT lathe)
install(FILES "${PROJECT_SOURCE_DIR}/docs/lathe.1" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT lathe)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT lathe)

# name -> licence file of each library linked into the binary.
set(_licenses
  cpp-httplib "${LATHE_HTTPLIB_SOURCE}/LICENSE"
  pcre2 /usr/share/doc/libpcre2-8-0/copyright
  gumbo /usr/share/doc/libgumbo1/copyright
  brotli /usr/share/doc/libbrotli1/copyright
  rapidjson /usr/share/doc/rapidjson-dev/copyright
  yaml-cpp /usr/share/doc/libyaml-cpp-dev/copyright
  tomlplusplus /usr/share/doc/libtomlplusplus-dev/copyright
  libstdc++ /usr/share/doc/libstdc++6/copyright
  tree-sitter "${LATHE_NODE_MODULES}/tree-sitter/LICENSE"
)
foreach(_grammar bash c cpp go java javascript json python rust typescript)
  list(APPEND _licenses tree-sitter-${_grammar} "${LATHE_NODE_MODULES}/tree-sitter-${_grammar}/LICENSE")
endforeach()
list(LENGTH _licenses _count)
math(EXPR _last "${_count} - 1")
foreach(_i RANGE 0 ${_last} 2)
  math(EXPR _j "${_i} + 1")
  list(GET _licenses ${_i} _name)
  list(GET _licenses ${_j} _file)
  if(LATHE_PORTABLE OR _name MATCHES "^(rapidjson|tomlplusplus|tree-sitter)")
    install(FILES "${_file}" DESTINATION ${CMAKE_INSTALL_DOCDIR}/licenses RENAME ${_name}.txt COMPONENT lathe)
  endif()
endforeach()

# The .deb (cpack -G DEB in the build tree).
set(CPACK_PACKAGE_NAME lathe)
set(CPACK_PACKAGE_VENDOR "Lathe")
# The Maintainer field: whoever publishes the package (-DLATHE_PACKAGE_CONTACT="Name <mail>").
set(LATHE_PACKAGE_CONTACT "Lathe contributors" CACHE STRING "The .deb's Maintainer field")
set(CPACK_PACKAGE_CONTACT "${LATHE_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Coding agent for editors, speaking the Agent Client Protocol")
set(CPACK_PACKAGE_FILE_NAME "lathe_${PROJECT_VERSION}_amd64")
set(CPACK_COMPONENTS_ALL lathe)
set(CPACK_DEB_COMPONENT_INSTALL OFF)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# glibc, OpenSSL and zlib are the only shared libraries the binary needs.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.35), libssl3 | libssl3t64, zlib1g")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bubblewrap, ripgrep")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Lathe runs Gemini CLI's agent (tools, confirmations, MCP servers,\ncontext files) as an Agent Client Protocol server that editors such as\nVS Code, Neovim and Zed launch over stdio.")
include(CPack)
