#!/usr/bin/env bash
# Every CTest entry must run exactly the doctest case it names. doctest_discover_tests turns a
# case name into a CMake list, so a ';' in a name registers a truncated entry whose filter
# matches no case: doctest then runs nothing and exits 0 — a test that cannot fail.
# Usage: check_test_names.sh BUILD_DIR
set -euo pipefail
build="$1"
cd "$build"
registered=$(ctest -N | sed -n 's/^ *Test *#[0-9]*: //p' |
  sed -E 's#^(unit|integration|e2e|reliability|install)/##' | grep -v '^meta: ' | sort)
defined=$(for binary in tests/*/*_tests; do
  [ -x "$binary" ] || continue
  "$binary" --list-test-cases --no-version | grep -v '^\[doctest\]\|^=\+$\|^$' || true
done | sort)
mismatch=$(comm -3 <(printf '%s\n' "$registered") <(printf '%s\n' "$defined"))
if [ -n "$mismatch" ]; then
  echo "check_test_names: CTest entries (left) and doctest cases (right) differ:" >&2
  printf '%s\n' "$mismatch" >&2
  echo "Rename the case (no ';' in a TEST_CASE name) or rebuild the test binaries." >&2
  exit 1
fi
echo "check_test_names: $(printf '%s\n' "$registered" | wc -l) entries, each a doctest case"
