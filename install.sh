#!/usr/bin/env bash
# fleet-hooks installer and test runner. See README.md.
#   ./install.sh [--prefix DIR]   install build dependencies, build, install the binaries
#   ./install.sh --project DIR    ... then wire the hooks into DIR and check the wiring
#   ./install.sh --test           install build dependencies, build, run the whole test suite
set -euo pipefail

cd "$(dirname "$0")"

prefix="${HOME:-/root}/.local"
mode=install
project=""

usage() {
  cat <<'USAGE'
Usage: ./install.sh [--prefix DIR] [--project DIR]
       ./install.sh --test

  (no option)    Install missing build dependencies (apt-get), build the static release
                 binaries and install them into DIR/bin (default: $HOME/.local).
  --prefix DIR   Where to install (binaries go to DIR/bin).
  --project DIR  After installing, wire the hooks into DIR/.claude/settings.json
                 (fleet-hooks install) and verify the wiring (fleet-hooks check).
  --test         Install missing build dependencies, build, and run the whole test suite:
                 unit, integration and end-to-end tests on the release build, then again
                 under AddressSanitizer + UndefinedBehaviorSanitizer, then each libFuzzer
                 target for a short time.
  -h, --help     Show this help.
USAGE
}

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }
      prefix="$2"
      shift 2
      ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --project)
      [ $# -ge 2 ] || { echo "install.sh: --project needs a directory" >&2; exit 2; }
      project="$2"
      shift 2
      ;;
    --project=*) project="${1#--project=}"; shift ;;
    --test) mode=test; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

# Debian packages the build needs (clang and its runtime only for the fuzz targets of --test;
# node and npm, for the end-to-end tests, are used when present and never installed here).
packages=(g++ cmake make rapidjson-dev libcli11-dev doctest-dev)
test_packages=(clang libclang-rt-14-dev)

wanted=("${packages[@]}")
[ "$mode" = test ] && wanted+=("${test_packages[@]}")
missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "install.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
  else
    echo "install.sh: missing build dependencies: ${missing[*]}" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    echo "then run ./install.sh again." >&2
    exit 1
  fi
fi

echo "install.sh: building the release preset"
cmake --preset release >/dev/null
cmake --build --preset release

if [ "$mode" = test ]; then
  # The end-to-end tests drive the real Claude Code CLI from the npm registry; without it they
  # report themselves skipped, with the reason.
  tests/e2e/setup.sh
  echo "install.sh: running the test suite on the release build"
  ctest --preset release
  echo "install.sh: building and testing under AddressSanitizer + UBSan"
  cmake --preset asan >/dev/null
  cmake --build --preset asan
  ctest --preset asan
  echo "install.sh: building the libFuzzer targets (clang) and running each for a short time"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
  ctest --preset fuzz
  echo "install.sh: all tests passed (release, asan and fuzz)"
  exit 0
fi

cmake --install build/release --prefix "$prefix" --strip >/dev/null
echo "install.sh: installed into $prefix/bin:"
for binary in resume-guard provenance-writer launch-wrapper fleet-hooks; do
  echo "  $prefix/bin/$binary ($("$prefix/bin/$binary" --version))"
done
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install.sh: note: $prefix/bin is not on your PATH" ;;
esac

if [ -n "$project" ]; then
  [ -d "$project" ] || { echo "install.sh: project directory $project does not exist" >&2; exit 2; }
  "$prefix/bin/fleet-hooks" install --project "$project" --bin-dir "$prefix/bin"
  "$prefix/bin/fleet-hooks" check --project "$project"
fi
