# macOS on aarch64 (see macos.cmake): cmake --preset macos-arm64
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(FLEET_MACOS_ARCH aarch64)
include("${CMAKE_CURRENT_LIST_DIR}/macos.cmake")
