# Cross-building for macOS (13 and later) on a Linux x86-64 machine with Zig's `zig c++`
# (clang, macOS's libc headers, libSystem stubs; libc++ built for the target), installed with
# the compiler wrappers and a prefix of the header-only libraries by macos-setup.sh:
#   cmake/toolchains/macos-setup.sh
#   cmake --preset macos-arm64 && cmake --build --preset macos-arm64   (or macos-x64)
# FLEET_MACOS_ARCH (aarch64 or x86_64) is set by the preset's toolchain file.
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_VERSION 22.0)  # macOS 13
get_filename_component(fleet_macos_root "${CMAKE_CURRENT_LIST_DIR}/../../build/macos-toolchain"
                       ABSOLUTE)
if(NOT EXISTS "${fleet_macos_root}/bin/zig-c++-${FLEET_MACOS_ARCH}-macos")
  message(FATAL_ERROR "The macOS toolchain is not installed: run cmake/toolchains/macos-setup.sh")
endif()
set(CMAKE_CXX_COMPILER "${fleet_macos_root}/bin/zig-c++-${FLEET_MACOS_ARCH}-macos")
set(CMAKE_AR "${fleet_macos_root}/bin/zig-ar" CACHE FILEPATH "")
set(CMAKE_RANLIB "${fleet_macos_root}/bin/zig-ranlib" CACHE FILEPATH "")
# No SDK: zig carries macOS's headers and libraries itself; no xcrun to ask.
set(CMAKE_OSX_SYSROOT "" CACHE PATH "")
set(CMAKE_OSX_DEPLOYMENT_TARGET "" CACHE STRING "")
# Only the prefix of header-only libraries is searched for packages and headers: nothing of
# this machine's /usr reaches the build.
set(CMAKE_FIND_ROOT_PATH "${fleet_macos_root}/deps")
set(CMAKE_PREFIX_PATH "/")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Stripping the programs (cpack's tarball, cmake --install --strip) needs LLVM's strip: GNU
# strip cannot read Mach-O.
find_program(CMAKE_STRIP NAMES llvm-strip llvm-strip-19 llvm-strip-18 llvm-strip-17
                               llvm-strip-16 llvm-strip-15 llvm-strip-14)
