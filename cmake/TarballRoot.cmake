# Run by cpack while it stages the tarball (CPACK_INSTALL_SCRIPTS): README.md, doc/ and
# LICENSE at the top of the unpacked directory, beside bin/ and share/.
file(INSTALL "${CPACK_FLEET_SOURCE_DIR}/README.md" "${CPACK_FLEET_SOURCE_DIR}/LICENSE"
     DESTINATION "${CMAKE_INSTALL_PREFIX}")
file(INSTALL "${CPACK_FLEET_SOURCE_DIR}/doc" DESTINATION "${CMAKE_INSTALL_PREFIX}"
     FILES_MATCHING PATTERN "*.md")
