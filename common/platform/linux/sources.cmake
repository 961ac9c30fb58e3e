# The Linux home of the platform seam (../README.md), with all of launch-wrapper's engine.
set(fleet_platform_sources
  platform/linux/file_sync.cpp
  platform/linux/file_times.cpp
  platform/linux/file_writers.cpp
  platform/linux/process_table.cpp
  platform/linux/spawn.cpp
  platform/linux/system_facts.cpp
  ${fleet_launch_engine})
