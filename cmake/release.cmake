# Release artifacts (included at the end of the top-level CMakeLists.txt):
#  1. QUEUEFORGE_RELEASE_STATIC: the CLI as one fully static, stripped
#     executable that needs nothing of the system it runs on (no glibc
#     version, no libgit2): libgit2 and its dependencies are linked in from
#     Debian's archives and called directly (QF_LIBGIT2_LINKED, see
#     compiler/integrations/git/library.cpp) instead of being loaded at run time.
#     scripts/release.sh configures and builds it in build-release/.
#  2. `cmake --install` rules: the binary (templates, schemas and policies
#     are compiled into it), the docs and the deploy/ files.
#  3. A Debian package through CPack (`cpack` in the build folder).

if(QUEUEFORGE_RELEASE_STATIC)
  if(NOT QF_STATIC_CLI)
    message(FATAL_ERROR "QUEUEFORGE_RELEASE_STATIC needs libyaml-cpp.a and libre2.a and no sanitizer or fuzz build")
  endif()
  # libgit2's own static dependencies (mbedtls, http_parser, libssh2, pcre2,
  # zlib), then libssh2's (OpenSSL, libgpg-error): pkg-config --static.
  pkg_check_modules(QF_LIBSSH2 REQUIRED libssh2)
  target_compile_definitions(queueforge_core PRIVATE QF_LIBGIT2_LINKED)
  target_link_libraries(queueforge_core PUBLIC ${LIBGIT2_STATIC_LDFLAGS} ${QF_LIBSSH2_STATIC_LDFLAGS})
  # -static: no dynamic section at all (no glibc version requirement);
  # -s: stripped. getpwuid_r and the resolver (reached only through
  # libgit2's home-folder lookup when HOME is unset, and its network
  # transports, which queueforge never uses) fall back to "not found"
  # where glibc's NSS modules cannot be loaded; nothing else needs NSS.
  target_link_options(queueforge PRIVATE -static -s)
  # Debian's libgit2 refers to GSS-API (HTTP Negotiate auth of remotes, which
  # queueforge never contacts) and Debian has no static Kerberos: the
  # executable carries entry points that refuse it (compiler/integrations/git/gssapi_absent.cpp).
  # In the executable, not the library archive, so that libgit2.a, linked
  # after the library, finds them.
  target_sources(queueforge PRIVATE ${CMAKE_SOURCE_DIR}/compiler/integrations/git/gssapi_absent.cpp)
  # (The library's copy of the file, without the definition, is empty.)
  target_compile_definitions(queueforge PRIVATE QF_GSSAPI_ABSENT)
endif()

include(GNUInstallDirs)
if(TARGET queueforge)
  install(TARGETS queueforge RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Editors' schema of the site file (also printed by `queueforge schema`), the
# Argo CD sidecar files and the CI examples.
install(FILES ${CMAKE_SOURCE_DIR}/schemas/site.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/queueforge)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/deploy/ DESTINATION ${CMAKE_INSTALL_DATADIR}/queueforge/deploy)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ci/ DESTINATION ${CMAKE_INSTALL_DATADIR}/queueforge/examples/ci)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME queueforge)
set(CPACK_PACKAGE_VENDOR queueforge)
set(CPACK_PACKAGE_CONTACT "queueforge maintainers <maintainers@queueforge.io>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GitOps compiler, validator and simulator for Kueue queue configurations")
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
       "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}\n"
       "queueforge compiles a site description into Kueue and OpenShift AI manifests,\n"
       "validates manifests offline the way the API server and Kueue's webhooks do,\n"
       "simulates Kueue's admission, and runs as an Argo CD config-management plugin.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE https://github.com/queueforge/queueforge)
if(QUEUEFORGE_RELEASE_STATIC)
  # The static binary depends on nothing installed.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
else()
  # The dynamic CLI: glibc from its dynamic section; libgit2 is loaded only by
  # the git-aware commands (diff, --staged), hence recommended.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgit2-${QF_LIBGIT2_ABI}")
endif()
include(CPack)
