# Writes version.h from common/version.h.in with the version and the git commit of the
# source tree. Run at every build (cmake -P), it rewrites the header only when its content
# changes, so only the executables' mains recompile after a new commit.
#   -DSOURCE_DIR=<source tree> -DVERSION=<x.y.z> -DINPUT=<version.h.in> -DOUTPUT=<version.h>

set(FLEET_VERSION "${VERSION}")
set(FLEET_COMMIT "")
find_program(FLEET_GIT git)
if(FLEET_GIT)
  # Only the source tree's own repository counts: a tarball unpacked inside another
  # repository must not report that repository's commit.
  execute_process(COMMAND "${FLEET_GIT}" -C "${SOURCE_DIR}" rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND "${FLEET_GIT}" -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE FLEET_COMMIT RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      set(FLEET_COMMIT "")
    endif()
  endif()
endif()

if(FLEET_COMMIT STREQUAL "")
  set(FLEET_COMMIT "unknown")
  set(FLEET_COMMIT_TEXT "unknown commit")
else()
  set(FLEET_COMMIT_TEXT "commit ${FLEET_COMMIT}")
  # Tracked files that differ from the commit: the binary is not exactly that commit.
  execute_process(COMMAND "${FLEET_GIT}" -C "${SOURCE_DIR}" diff --quiet HEAD --
                  RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty EQUAL 1)
    string(APPEND FLEET_COMMIT_TEXT " with local changes")
  endif()
endif()

configure_file("${INPUT}" "${OUTPUT}" @ONLY)
