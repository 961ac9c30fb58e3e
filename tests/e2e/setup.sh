#!/usr/bin/env bash
# Installs the Claude Code CLI the end-to-end tests drive (@anthropic-ai/claude-code@2.1.328,
# which ships a native binary through an optional dependency) into tests/e2e/.cache, reusing
# it when present. Writes .cache/claude-path on success, or .cache/unavailable with the reason
# (the e2e tests then report themselves skipped with it). Always exits 0.
set -u
cd "$(dirname "$0")"
cache=.cache
version=2.1.328
mkdir -p "$cache"
rm -f "$cache/unavailable"

find_binary() {
  for candidate in "$cache"/node_modules/@anthropic-ai/claude-code-linux-*/claude; do
    if [ -x "$candidate" ] && "$candidate" --version 2>/dev/null | grep -q "^$version"; then
      echo "$(cd "$(dirname "$candidate")" && pwd)/claude"
      return 0
    fi
  done
  return 1
}

if binary=$(find_binary); then
  echo "$binary" > "$cache/claude-path"
  echo "e2e: Claude Code $version already installed: $binary"
  exit 0
fi
rm -f "$cache/claude-path"
if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed" > "$cache/unavailable"
elif ! command -v node >/dev/null 2>&1; then
  echo "node is not installed (the test fixtures need it)" > "$cache/unavailable"
elif ! timeout 600 npm install --no-audit --no-fund --loglevel=error --prefix "$cache" \
    "@anthropic-ai/claude-code@$version" > "$cache/npm.log" 2>&1; then
  echo "npm install @anthropic-ai/claude-code@$version failed: $(tail -n 3 "$cache/npm.log" | tr '\n' ' ')" \
    > "$cache/unavailable"
elif binary=$(find_binary); then
  echo "$binary" > "$cache/claude-path"
  echo "e2e: installed Claude Code $version: $binary"
  exit 0
else
  echo "npm installed @anthropic-ai/claude-code@$version but no working native binary for this platform" \
    > "$cache/unavailable"
fi
echo "e2e: Claude Code unavailable: $(cat "$cache/unavailable"); the e2e tests will be skipped"
exit 0
