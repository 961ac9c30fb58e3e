# Stages the npm packages, the way native CLIs ship on npm: one package per platform, selected
# by npm through its "os" and "cpu" fields, holding the executables, and a main package
# "fleet-hooks" that depends on them as optional dependencies and links the four commands.
# Run in script mode by `./install.sh --package` (which then runs `npm pack` in each):
#   cmake -DSOURCE_DIR=<tree> -DVERSION=<x.y.z> -DOUT_DIR=<dir>
#         -DBIN_x64=<dir with the four Linux x86-64 executables> -DBIN_arm64=<… aarch64 …>
#         -DBIN_darwin_x64=<… macOS x86-64 …> -DBIN_darwin_arm64=<… macOS arm64 …>
#         -P cmake/NpmPackages.cmake
# writes OUT_DIR/fleet-hooks/ and OUT_DIR/<os>-<cpu>/ (linux-x64, …, darwin-arm64) for each
# BIN_ given.
set(names resume-guard provenance-writer launch-wrapper fleet-hooks)
# What a launcher script exits with when it cannot run the binary: the guard blocks the call
# (2, as a PreToolUse hook), the writer reports an error (1), the others as a shell does (127).
set(exit_resume-guard 2)
set(exit_provenance-writer 1)
set(exit_launch-wrapper 127)
set(exit_fleet-hooks 127)
set(arch_x64 x86-64)
set(arch_arm64 aarch64)
# The npm scope of the platform packages (an @ of its own: configure_file would read
# "@fleet-hooks/…@" as a variable reference).
set(SCOPE "@fleet-hooks")
# The launchers' process-free machine test, shared with the plugin's selectors.
file(READ ${SOURCE_DIR}/cmake/kernel_machine.sh KERNEL_MACHINE)
string(STRIP "${KERNEL_MACHINE}" KERNEL_MACHINE)

set(main ${OUT_DIR}/fleet-hooks)
file(REMOVE_RECURSE ${main})
configure_file(${SOURCE_DIR}/npm/fleet-hooks/package.json.in ${main}/package.json @ONLY)
file(COPY ${SOURCE_DIR}/npm/fleet-hooks/install.js ${SOURCE_DIR}/README.md ${SOURCE_DIR}/LICENSE
     DESTINATION ${main})
file(COPY ${SOURCE_DIR}/doc DESTINATION ${main} FILES_MATCHING PATTERN "*.md")
foreach(NAME IN LISTS names)
  set(EXIT_IF_MISSING ${exit_${NAME}})
  configure_file(${SOURCE_DIR}/npm/fleet-hooks/launcher.sh.in ${main}/bin/${NAME} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                  GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()

# The platform packages: BIN_<cpu> (Linux) or BIN_darwin_<cpu> (macOS) names the executables.
foreach(platform_key x64 arm64 darwin_x64 darwin_arm64)
  if(NOT DEFINED BIN_${platform_key})
    continue()
  endif()
  if(platform_key MATCHES "^darwin_(.*)$")
    set(NPM_OS darwin)
    set(NPM_CPU ${CMAKE_MATCH_1})
    set(SYSTEM macOS)
  else()
    set(NPM_OS linux)
    set(NPM_CPU ${platform_key})
    set(SYSTEM Linux)
  endif()
  set(ARCH ${arch_${NPM_CPU}})
  if(NPM_OS STREQUAL "darwin" AND NPM_CPU STREQUAL "arm64")
    set(ARCH arm64)  # Apple's name for it
  endif()
  set(platform ${OUT_DIR}/${NPM_OS}-${NPM_CPU})
  file(REMOVE_RECURSE ${platform})
  configure_file(${SOURCE_DIR}/npm/platform/package.json.in ${platform}/package.json @ONLY)
  foreach(NAME IN LISTS names)
    if(NOT EXISTS ${BIN_${platform_key}}/${NAME})
      message(FATAL_ERROR "NpmPackages: ${BIN_${platform_key}}/${NAME} does not exist")
    endif()
    file(COPY ${BIN_${platform_key}}/${NAME} DESTINATION ${platform}/bin
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
  endforeach()
endforeach()
