#!/usr/bin/env bash
# First-build cost: the CPU time a newcomer's first ./install.sh spends compiling and linking
# the four executables (the `install` preset) from nothing — a fresh clone, no ccache. CPU
# time, not wall time: it does not depend on how many cores there are or what else runs on
# them (wall time on J idle cores is about CPU time / J). Reports; asserts nothing.
#
#   bench/build_cpu.sh [--repo URL_OR_DIR] [--jobs N] [--write-doc]
#
# --repo     what to clone (default: this repository; only committed work is cloned)
# --jobs N   build with N jobs (default 1: the CPU time is then the least disturbed)
# --write-doc  also write the result into doc/install.md between the build-cpu markers;
#              install.sh reads its estimate of a first build from there
set -euo pipefail
cd "$(dirname "$0")/.."

repo="$PWD"
jobs=1
write_doc=false
while [ $# -gt 0 ]; do
  case "$1" in
    --repo) repo="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --write-doc) write_doc=true; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "bench/build_cpu.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
export CCACHE_DISABLE=1
unset CMAKE_CXX_COMPILER_LAUNCHER CMAKE_C_COMPILER_LAUNCHER

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/fleet-hooks"
cd "$work/fleet-hooks"
cmake --preset install >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
# bash's `time` counts the CPU time of every process the build starts (compilers, linker).
TIMEFORMAT='%R %U %S'
measured="$( { time cmake --build --preset install --parallel "$jobs" >"$work/build.log" 2>&1; } 2>&1 )" ||
  { cat "$work/build.log" >&2; echo "bench/build_cpu.sh: the build failed" >&2; exit 1; }
read -r wall user sys <<<"$measured"
objects="$(grep -c 'Building CXX object' "$work/build.log" || true)"
summary="$(awk -v w="$wall" -v u="$user" -v s="$sys" -v j="$jobs" -v o="$objects" \
  -v c="$(nproc)" -v l="$load_before" -v d="$(date -u +%F)" -v v="$(git rev-parse --short=12 HEAD)" \
  'BEGIN { printf "a first build of the four executables (install preset, %d objects, no ccache) needs %.0f s of CPU time (user %.1f s, sys %.1f s; %.0f s wall at -j%d on %d cores, load before %s; commit %s, %s)", o, u + s, u, s, w, j, c, l, v, d }')"
echo "$summary"

if $write_doc; then
  cd - >/dev/null
  bench/doc_markers.py doc/install.md build-cpu "$summary"
fi
