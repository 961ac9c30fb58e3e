# The macOS home of the platform seam (../README.md). launch-wrapper's engine has no macOS
# home yet (its containment, signal routing, transcript watch and output spool are Linux's):
# launch_unavailable.cpp stands in for its entry points and refuses, saying so.
set(fleet_platform_sources
  platform/macos/file_sync.cpp
  platform/macos/file_times.cpp
  platform/macos/file_writers.cpp
  platform/macos/launch_unavailable.cpp
  platform/macos/process_table.cpp
  platform/macos/spawn.cpp
  platform/macos/system_facts.cpp)
