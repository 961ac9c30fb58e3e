# The tests and the system they are built for: the one place that says which tests need Linux
# (common/platform/README.md has the platform seam; doc/platforms.md what differs on macOS).
# Included by tests/CMakeLists.txt; FLEET_TEST_SYSTEM is the home of the system built for,
# linux or macos (as common/platform/).
#
# fleet_linux_only_tests: the test sources that need what only Linux has, compiled only there:
# cgroup v2, clone3, the child subreaper, inotify and /proc, which launch-wrapper's Linux home
# uses (common/platform/linux/). A macOS build (the `macos` preset on a Mac,
# .github/workflows/macos.yml) builds and runs every other unit and integration test:
# launch-wrapper's among them (its shared logic over the macOS home), and
# tests/unit/platform_launch_test.cpp, the contract of the engine's mechanisms
# (common/platform/README.md).
if(CMAKE_SYSTEM_NAME STREQUAL "Darwin")
  set(FLEET_TEST_SYSTEM macos)
else()
  set(FLEET_TEST_SYSTEM linux)
endif()
set(fleet_linux_only_tests
  # launch-wrapper's Linux mechanisms, and tests that look through them
  unit/cgroup_v2_test.cpp              # cgroup v2
  unit/cgroup_v2_paths_test.cpp
  unit/containment_test.cpp            # cgroup v2, /proc/<pid>/exe
  unit/spawn_test.cpp                  # clone3, CLONE_INTO_CGROUP, PR_SET_PDEATHSIG
  unit/session_files_test.cpp          # counts a lookup's opens with inotify IN_OPEN
  # launch-wrapper's containment as Linux gives it: cgroups, the subreaper, /proc
  integration/launch_cgroup_layouts_test.cpp
  integration/launch_cgroup_sweep_test.cpp
  integration/launch_containment_test.cpp
  # a tool macOS does not have
  integration/caller_handover_test.cpp)  # /usr/bin/timeout (GNU coreutils) as a caller's parent

# fleet_platform_tests(<variable> <kind>): removes from the list <variable> (the sources of the
# <kind> tests: unit, integration) those this system cannot build or run.
function(fleet_platform_tests variable kind)
  set(sources ${${variable}})
  if(NOT FLEET_TEST_SYSTEM STREQUAL "linux")
    foreach(path IN LISTS fleet_linux_only_tests)
      if(path MATCHES "^${kind}/(.*)$")
        list(REMOVE_ITEM sources ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  set(${variable} ${sources} PARENT_SCOPE)
endfunction()
