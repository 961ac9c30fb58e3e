# macOS on x86_64 (see macos.cmake): cmake --preset macos-x64
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(FLEET_MACOS_ARCH x86_64)
include("${CMAKE_CURRENT_LIST_DIR}/macos.cmake")
