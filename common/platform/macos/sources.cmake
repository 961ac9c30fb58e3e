# The macOS home of the platform seam (../README.md).
set(fleet_platform_sources
  platform/macos/anonymous_file.cpp
  platform/macos/cgroup_v2.cpp
  platform/macos/file_sync.cpp
  platform/macos/file_times.cpp
  platform/macos/file_watch.cpp
  platform/macos/file_writers.cpp
  platform/macos/process_table.cpp
  platform/macos/signal_router.cpp
  platform/macos/spawn.cpp
  platform/macos/system_facts.cpp
  platform/macos/verified_signal.cpp)
