# The Linux home of the platform seam (../README.md).
set(fleet_platform_sources
  platform/linux/anonymous_file.cpp
  platform/linux/cgroup_v2.cpp
  platform/linux/file_sync.cpp
  platform/linux/file_times.cpp
  platform/linux/file_watch.cpp
  platform/linux/file_writers.cpp
  platform/linux/process_table.cpp
  platform/linux/signal_router.cpp
  platform/linux/spawn.cpp
  platform/linux/system_facts.cpp
  platform/linux/verified_signal.cpp)
