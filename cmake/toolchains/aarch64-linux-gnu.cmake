# Cross-building for linux-aarch64 with Debian's cross toolchain (g++-aarch64-linux-gnu) on an
# x86-64 machine; tests run under qemu-aarch64-static (Debian's qemu-user-static).
#   cmake --preset release-aarch64   (CMakePresets.json names this file)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
# Libraries and headers of the target come from the cross sysroot; the header-only libraries
# (RapidJSON, CLI11, doctest) and their CMake package files from the build machine's /usr.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
