#!/usr/bin/env bash
# Checks the Homebrew formula (Formula/fleet-hooks.rb) as far as a machine without Homebrew
# can: cmake/HomebrewFormula.cmake writes a release into a copy of it (the url of the release's
# source archive on GitHub, the archive's sha256, homepage and head), changing nothing else,
# and refuses an archive of another version; the result is valid Ruby (ruby -c, when ruby is
# installed: apt-get install ruby). Only a Mac with Homebrew builds and tests it (its CI job).
#   check-formula.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-formula.sh: $*" >&2; exit 1; }

mkdir -p "$work/fleet-hooks-9.8.7"
echo "a source tree" >"$work/fleet-hooks-9.8.7/README.md"
(cd "$work" && cmake -E tar czf fleet-hooks-9.8.7-source.tar.gz fleet-hooks-9.8.7)
archive=$work/fleet-hooks-9.8.7-source.tar.gz
sum=$(cmake -E sha256sum "$archive" | cut -d' ' -f1)
cp "$source_dir/Formula/fleet-hooks.rb" "$work/formula.rb"
cmake -DFORMULA="$work/formula.rb" -DREPOSITORY=acme/fleet-hooks -DVERSION=9.8.7 \
  -DARCHIVE="$archive" -P "$source_dir/cmake/HomebrewFormula.cmake" >/dev/null
expected="  homepage \"https://github.com/acme/fleet-hooks\"
  url \"https://github.com/acme/fleet-hooks/releases/download/v9.8.7/fleet-hooks-9.8.7-source.tar.gz\"
  sha256 \"$sum\"
  head \"https://github.com/acme/fleet-hooks.git\", branch: \"main\""
got=$(grep -E '^  (homepage|url|sha256|head) ' "$work/formula.rb")
[ "$got" = "$expected" ] || fail "the written fields are
$got
expected
$expected"
# Nothing else changed.
diff <(grep -vE '^  (homepage|url|sha256|head) ' "$source_dir/Formula/fleet-hooks.rb") \
  <(grep -vE '^  (homepage|url|sha256|head) ' "$work/formula.rb") >/dev/null ||
  fail "HomebrewFormula.cmake changed more than the four fields"
# An archive that is not the version's is refused, the formula left as it was.
cp "$archive" "$work/fleet-hooks-1.0.0-source.tar.gz"
cp "$work/formula.rb" "$work/before.rb"
if cmake -DFORMULA="$work/formula.rb" -DREPOSITORY=acme/fleet-hooks -DVERSION=9.8.7 \
    -DARCHIVE="$work/fleet-hooks-1.0.0-source.tar.gz" -P "$source_dir/cmake/HomebrewFormula.cmake" \
    >/dev/null 2>&1; then
  fail "HomebrewFormula.cmake took the archive of 1.0.0 for 9.8.7"
fi
cmp -s "$work/formula.rb" "$work/before.rb" || fail "a refused run changed the formula"
# The formula declares Homebrew's names of the build dependencies and tests the programs.
for line in 'depends_on "cmake" => :build' 'depends_on "cli11" => :build' \
  'depends_on "rapidjson" => :build' 'test do'; do
  grep -qF -- "$line" "$work/formula.rb" || fail "the formula has no line '$line'"
done
if command -v ruby >/dev/null; then
  ruby -c "$work/formula.rb" >/dev/null || fail "the formula is not valid Ruby (ruby -c above)"
  echo "check-formula.sh: the formula is written right and is valid Ruby"
else
  echo "check-formula.sh: the formula is written right (ruby is not installed: its syntax is not checked)"
fi
