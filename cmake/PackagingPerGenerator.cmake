# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): only the tarball gets README.md
# and LICENSE at its top level; the Debian package keeps them in /usr/share/doc/fleet-hooks.
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_INSTALL_SCRIPTS "${CPACK_FLEET_SOURCE_DIR}/cmake/TarballRoot.cmake")
endif()
