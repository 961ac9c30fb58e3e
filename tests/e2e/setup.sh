#!/usr/bin/env bash
# Installs the agent CLIs the end-to-end tests drive into tests/e2e/.cache with one npm install,
# reusing each when the wanted version is already there. By default each CLI at the version
# the suite's facts were checked with (the table below):
#   Claude Code  @anthropic-ai/claude-code@2.1.328 (a native binary through an optional dependency)
#   Codex CLI    @openai/codex@0.169.0 (a Node launcher that execs a per-platform static binary)
#   Gemini CLI   @google/gemini-cli@0.61.0 (pure JavaScript, node >= 20)
#   Copilot CLI  @github/copilot@1.0.102 (a Node loader that runs a per-platform native binary)
#   Qwen Code    @qwen-code/qwen-code@0.24.4 (bundled JavaScript; asks for node >= 22, runs on 20)
#   OpenCode     opencode-ai@1.18.33 (a Bun-compiled binary through an optional dependency)
# FLEET_HOOKS_E2E_<NAME>_VERSION (NAME in capitals: CLAUDE, CODEX, GEMINI, COPILOT, QWEN,
# OPENCODE) asks for another version of that CLI, `latest` for the newest the npm registry
# serves (npm's own settings, such as npm_config_registry, apply).
# For each CLI NAME (claude, codex, gemini, copilot, qwen, opencode) writes .cache/NAME-path and
# .cache/NAME-version on success, or .cache/NAME-unavailable with the reason: the e2e tests of
# that CLI then report themselves skipped with it — or fail, where the environment variable CI
# is set (a CI runner must run them all). Prints one line per CLI naming its version. Always
# exits 0.
set -u
cd "$(dirname "$0")"
cache=.cache
mkdir -p "$cache"
cache_abs=$(cd "$cache" && pwd)
names=(claude codex gemini copilot qwen opencode)
declare -A package=([claude]=@anthropic-ai/claude-code [codex]=@openai/codex [gemini]=@google/gemini-cli
  [copilot]=@github/copilot [qwen]=@qwen-code/qwen-code [opencode]=opencode-ai)
declare -A pinned=([claude]=2.1.328 [codex]=0.169.0 [gemini]=0.61.0 [copilot]=1.0.102 [qwen]=0.24.4
  [opencode]=1.18.33)

# Prints the command that runs CLI $1 at the wanted version, or fails (Codex, Gemini, Copilot,
# Qwen Code and OpenCode: the names npm puts on PATH; launch-wrapper --agent recognises their
# programs).
find_cli() {
  local candidate=
  case "$1" in
    claude)
      for candidate in "$cache_abs"/node_modules/@anthropic-ai/claude-code-linux-*/claude; do
        [ -x "$candidate" ] && break
      done ;;
    codex) candidate="$cache_abs/node_modules/.bin/codex" ;;
    gemini) candidate="$cache_abs/node_modules/.bin/gemini" ;;
    copilot) candidate="$cache_abs/node_modules/.bin/copilot" ;;
    qwen) candidate="$cache_abs/node_modules/.bin/qwen" ;;
    opencode) candidate="$cache_abs/node_modules/.bin/opencode" ;;
  esac
  [ -x "$candidate" ] || return 1
  "$candidate" --version 2>/dev/null | grep -qwF "${version[$1]}" || return 1
  echo "$candidate"
}

# The version of each CLI to install: its FLEET_HOOKS_E2E_<NAME>_VERSION, `latest` resolved
# through the registry, or the pinned one; a CLI whose version cannot be had is unavailable.
declare -A version
declare -A unavailable
for name in "${names[@]}"; do
  variable="FLEET_HOOKS_E2E_${name^^}_VERSION"
  wanted="${!variable:-${pinned[$name]}}"
  if [ "$wanted" = latest ]; then
    if ! command -v npm >/dev/null 2>&1; then
      unavailable[$name]="$variable=latest: npm is not installed"
    elif ! wanted=$(timeout 120 npm view --no-update-notifier --loglevel=error \
        "${package[$name]}@latest" version 2>"$cache/npm-view.log") ||
        ! [[ "$wanted" =~ ^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$ ]]; then
      unavailable[$name]="$variable=latest: npm view ${package[$name]}@latest version failed: $(tail -n 3 "$cache/npm-view.log" | tr '\n' ' ')"
    fi
  elif ! [[ "$wanted" =~ ^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$ ]]; then
    unavailable[$name]="$variable=$wanted is not a version (x.y.z, or latest)"
  fi
  version[$name]=$wanted
done

missing=()
for name in "${names[@]}"; do
  rm -f "$cache/$name-unavailable" "$cache/unavailable" "$cache/$name-path" "$cache/$name-version"
  if [ -n "${unavailable[$name]:-}" ]; then
    echo "${unavailable[$name]}" > "$cache/$name-unavailable"
    echo "e2e: $name unavailable: ${unavailable[$name]}; its e2e tests will be skipped (failed where CI is set)"
  elif binary=$(find_cli "$name"); then
    echo "$binary" > "$cache/$name-path"
    echo "${version[$name]}" > "$cache/$name-version"
    echo "e2e: $name ${version[$name]} already installed: $binary"
  else
    missing+=("$name")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

specs=()
for name in "${missing[@]}"; do specs+=("${package[$name]}@${version[$name]}"); done
reason=
if ! command -v npm >/dev/null 2>&1; then
  reason="npm is not installed"
elif ! command -v node >/dev/null 2>&1; then
  reason="node is not installed (the CLIs and the test fixtures need it)"
elif ! timeout 600 npm install --no-audit --no-fund --loglevel=error --prefix "$cache" \
    "${specs[@]}" > "$cache/npm.log" 2>&1; then
  reason="npm install ${specs[*]} failed: $(tail -n 3 "$cache/npm.log" | tr '\n' ' ')"
fi
for name in "${missing[@]}"; do
  spec="${package[$name]}@${version[$name]}"
  if [ -z "$reason" ] && binary=$(find_cli "$name"); then
    echo "$binary" > "$cache/$name-path"
    echo "${version[$name]}" > "$cache/$name-version"
    echo "e2e: installed $name ${version[$name]}: $binary"
    continue
  fi
  echo "${reason:-npm installed $spec but it does not run here (no working build for this platform?)}" \
    > "$cache/$name-unavailable"
  echo "e2e: $name unavailable: $(cat "$cache/$name-unavailable"); its e2e tests will be skipped (failed where CI is set)"
done
exit 0
