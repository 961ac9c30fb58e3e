# Packages with CPack: a Debian package (binaries in /usr/bin, data under /usr/share) and a
# tarball (bin/, share/, README.md, doc/, LICENSE) that runs wherever it is unpacked: the
# executables are static (on macOS: they load only libSystem, libc++ linked in), so neither
# needs anything installed. Every install() rule in the
# project uses a destination relative to the prefix, so both land where they should.
#   cpack --config build/release/CPackConfig.cmake -B DIR    (or ./install.sh --package DIR)

include(${PROJECT_SOURCE_DIR}/cmake/AgentTable.cmake)
fleet_read_agent_table()

set(FLEET_PACKAGE_MAINTAINER "fleet-hooks authors"
    CACHE STRING "Maintainer field of the Debian package")

# Documentation in every install: README, the manual (doc/, beside README.md so that its links
# resolve), license and a Debian-style copyright file.
configure_file(${PROJECT_SOURCE_DIR}/cmake/copyright.in ${CMAKE_BINARY_DIR}/copyright @ONLY)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
              ${CMAKE_BINARY_DIR}/copyright
        DESTINATION share/doc/fleet-hooks)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/doc/ DESTINATION share/doc/fleet-hooks/doc
        FILES_MATCHING PATTERN "*.md")

# FLEET_ARCH (CMakeLists.txt) names the Linux tarball; Debian names the same machines its own
# way, and the macOS tarball as npm does (darwin-arm64, darwin-x64: doc/platforms.md).
set(fleet_tar_system linux-${FLEET_ARCH})
if(CMAKE_SYSTEM_NAME STREQUAL "Darwin" AND FLEET_ARCH STREQUAL "x86_64")
  set(fleet_tar_system darwin-x64)
elseif(CMAKE_SYSTEM_NAME STREQUAL "Darwin" AND FLEET_ARCH STREQUAL "aarch64")
  set(fleet_tar_system darwin-arm64)
endif()
if(FLEET_ARCH STREQUAL "x86_64")
  set(fleet_deb_arch amd64)
elseif(FLEET_ARCH STREQUAL "aarch64")
  set(fleet_deb_arch arm64)
else()
  set(fleet_deb_arch ${FLEET_ARCH})
endif()

# macOS has no Debian package: only the tarball (Homebrew builds from source, Formula/).
if(CMAKE_SYSTEM_NAME STREQUAL "Darwin")
  set(CPACK_GENERATOR TGZ)
else()
  set(CPACK_GENERATOR DEB TGZ)
endif()
set(CPACK_PACKAGE_NAME fleet-hooks)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "fleet-hooks authors")
set(CPACK_PACKAGE_CONTACT "${FLEET_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "static hooks and launcher that make fleets of AI coding agents safe")
set(CPACK_PACKAGE_FILE_NAME fleet-hooks-${PROJECT_VERSION}-${fleet_tar_system})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 0)

# Debian: fleet-hooks_<version>_<arch>.deb, no dependencies (the executables are static).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${fleet_deb_arch})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${FLEET_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
# prerm: removing the package warns that wired projects will block their dispatch tools,
# naming each CLI and the project file it would block through (one line each).
set(fleet_prerm_lines "")
foreach(display_name project_file IN ZIP_LISTS FLEET_AGENT_DISPLAY_NAMES FLEET_AGENT_FILES)
  string(APPEND fleet_prerm_lines "    ${display_name}: DIR/${project_file}\n")
endforeach()
string(REGEX REPLACE "\n$" "" FLEET_PRERM_WIRED_FILES "${fleet_prerm_lines}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/prerm.in ${CMAKE_BINARY_DIR}/debian/prerm
               @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
               GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/debian/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(fleet_wired_files "")
foreach(display_name project_file IN ZIP_LISTS FLEET_AGENT_DISPLAY_NAMES FLEET_AGENT_FILES)
  list(APPEND fleet_wired_files "${project_file} (${display_name})")
endforeach()
fleet_word_list(fleet_agents_text "${FLEET_AGENT_DISPLAY_NAMES}" and)
fleet_word_list(fleet_wired_files_text "${fleet_wired_files}" or)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "For fleets of ${fleet_agents_text} agents:
resume-guard (a pre-tool hook) refuses to resume a session the caller does not own;
provenance-writer records who launched which session; launch-wrapper launches agents
so that none is orphaned, doubled or killed by a reused pid; fleet-hooks wires the hooks
into each CLI's project file, ${fleet_wired_files_text}, and checks the wiring in CI.")

# The tarball also carries README.md and LICENSE at its top (cmake/TarballRoot.cmake).
set(CPACK_FLEET_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/PackagingPerGenerator.cmake)

include(CPack)
