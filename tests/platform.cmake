# The tests and the system they are built for: the one place that says which tests need Linux
# (common/platform/README.md has the platform seam; doc/platforms.md what macOS lacks yet).
# Included by tests/CMakeLists.txt; FLEET_TEST_SYSTEM is the home of the system built for,
# linux or macos (as common/platform/).
#
# fleet_linux_only_tests: the test sources that need what only Linux has, compiled only there:
# launch-wrapper's tests as they were written against its Linux mechanisms (signalfd and the
# child subreaper, pidfd, cgroup v2, inotify, /proc), and clone3. A macOS build (the `macos`
# preset on a Mac, .github/workflows/macos.yml) builds and runs every other unit and
# integration test, tests/unit/platform_launch_test.cpp among them (the contract of the
# engine's mechanisms, common/platform/README.md).
if(CMAKE_SYSTEM_NAME STREQUAL "Darwin")
  set(FLEET_TEST_SYSTEM macos)
else()
  set(FLEET_TEST_SYSTEM linux)
endif()
set(fleet_linux_only_tests
  # launch-wrapper's engine, unit by unit
  unit/agent_control_test.cpp          # launch/agent_control.cpp (pidfd)
  unit/cgroup_v2_test.cpp              # cgroup v2
  unit/cgroup_v2_paths_test.cpp
  unit/containment_test.cpp            # launch/containment.cpp (cgroup v2, the subreaper)
  unit/registry_test.cpp               # launch/registry.cpp records containment.cpp's cgroup
  unit/signal_router_test.cpp          # signalfd
  unit/spawn_test.cpp                  # clone3, CLONE_INTO_CGROUP, PR_SET_PDEATHSIG
  unit/stdout_spool_test.cpp           # O_TMPFILE
  unit/transcript_watch_test.cpp       # inotify
  unit/session_files_test.cpp          # inotify, through the transcript watch
  # launch-wrapper run as a user runs it: launches, stops, status, containment
  integration/caller_handover_test.cpp  # the guard hands the caller to launch-wrapper
  integration/example_dispatcher_test.cpp  # the example dispatcher launches through it
  integration/launch_agents_test.cpp
  integration/launch_backoff_test.cpp
  integration/launch_cgroup_layouts_test.cpp
  integration/launch_cgroup_sweep_test.cpp
  integration/launch_containment_test.cpp
  integration/launch_copilot_test.cpp
  integration/launch_exec_transcript_test.cpp
  integration/launch_final_stdout_test.cpp
  integration/launch_lifecycle_test.cpp
  integration/launch_output_closed_test.cpp
  integration/launch_wrapper_test.cpp)

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
