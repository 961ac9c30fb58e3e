#!/usr/bin/env bash
# Installs the agent CLIs the end-to-end tests drive into tests/e2e/.cache with one npm install,
# reusing each when the wanted version is already there. The CLIs, their npm packages, the
# version of each the suite's facts were checked with (installed by default) and the Node.js
# each needs are one list, agent_clis.tsv beside this script (the e2e-latest workflow reads
# the same).
# FLEET_HOOKS_E2E_<NAME>_VERSION (NAME in capitals: CLAUDE, CODEX, ...) asks for another
# version of that CLI, `latest` for the newest the npm registry serves (npm's own settings,
# such as npm_config_registry, apply); FLEET_HOOKS_E2E_LATEST=all (or names, space-separated)
# asks for `latest` of every CLI (of those) whose own variable is not set.
# For each CLI NAME writes .cache/NAME-path and .cache/NAME-version on success, or
# .cache/NAME-unavailable with the reason: the e2e tests of that CLI then report themselves
# skipped with it — or fail, where the environment variable CI is set (a CI runner must run
# them all). A CLI that does not start on the Node.js found on PATH says so, with the Node it
# asks for. Prints one line per CLI naming its version. Exits 0, or 2 when
# FLEET_HOOKS_E2E_LATEST names a CLI that is not in the list (nothing is installed then).
set -u
cd "$(dirname "$0")"
cache=.cache
mkdir -p "$cache"
cache_abs=$(cd "$cache" && pwd)
names=()
declare -A package pinned node_major
while IFS=$'\t' read -r name npm_package version node; do
  case "$name" in '#'* | '') continue ;; esac
  names+=("$name")
  package[$name]=$npm_package
  pinned[$name]=$version
  node_major[$name]=$node
done < agent_clis.tsv

# FLEET_HOOKS_E2E_LATEST: the CLIs to take at `latest`.
declare -A latest
for name in ${FLEET_HOOKS_E2E_LATEST:-}; do
  if [ "$name" = all ]; then
    for each in "${names[@]}"; do latest[$each]=1; done
  elif [ -n "${package[$name]:-}" ]; then
    latest[$name]=1
  else
    echo "e2e: FLEET_HOOKS_E2E_LATEST names '$name', which is not an agent CLI of" >&2
    echo "  tests/e2e/agent_clis.tsv; name all, or some of: ${names[*]}" >&2
    exit 2
  fi
done

# The command npm installed for CLI $1: Claude Code's native binary (its optional dependency
# for this platform), for the others the command npm puts on PATH, named as the CLI
# (launch-wrapper --agent recognises their programs).
cli_command() {
  local candidate
  case "$1" in
    claude)
      for candidate in "$cache_abs"/node_modules/@anthropic-ai/claude-code-linux-*/claude; do
        [ -x "$candidate" ] && break
      done ;;
    *) candidate="$cache_abs/node_modules/.bin/$1" ;;
  esac
  echo "$candidate"
}

# Prints the command that runs CLI $1 at the wanted version, or fails (what it said when asked
# for its version is then in .cache/$1-said.log).
find_cli() {
  local candidate
  candidate=$(cli_command "$1")
  [ -x "$candidate" ] || return 1
  "$candidate" --version > "$cache/$1-said.log" 2>&1
  grep -qwF "${version[$1]}" "$cache/$1-said.log" || return 1
  rm -f "$cache/$1-said.log"
  echo "$candidate"
}

# Why CLI $1, installed but not starting, cannot start here, when the Node.js on PATH is older
# than the one it asks for: the engines field of the installed package.json (for the version
# installed), else the list's column; fails when that is not the reason.
node_too_old() {
  local asked have need
  # A native binary (Claude Code's, OpenCode's) starts without Node.
  [ "$(head -c 2 "$(cli_command "$1")" 2>/dev/null)" = '#!' ] || return 1
  asked=$(node -e 'const e = require(process.argv[1]).engines; process.stdout.write((e && e.node) || "")' \
    "$cache_abs/node_modules/${package[$1]}/package.json" 2>/dev/null)
  if [ -z "$asked" ]; then
    [ "${node_major[$1]}" != - ] || return 1
    asked=">=${node_major[$1]} (tests/e2e/agent_clis.tsv)"
  fi
  need=$(grep -Eo '[0-9]+' <<<"$asked" | head -n 1)  # the first major: >=20, >=22.0.0, ^20.6
  have=$(node --version 2>/dev/null) || return 1    # v18.19.0
  have=${have#v}
  [ -n "$need" ] && [ "${have%%.*}" -lt "$need" ] 2>/dev/null || return 1
  echo "${package[$1]}@${version[$1]} cannot start on Node.js $have (node on PATH: $(command -v node)): it asks for node $asked; put Node.js $need or later first on PATH"
}

# What CLI $1 printed when asked for its --version (its first lines), for a CLI that does not run.
cli_said() {
  [ -s "$cache/$1-said.log" ] || return 0
  printf ': it said: %s' "$(head -n 3 "$cache/$1-said.log" | tr '\n' ' ')"
}

# The version of each CLI to install: its FLEET_HOOKS_E2E_<NAME>_VERSION, `latest` resolved
# through the registry, or the pinned one; a CLI whose version cannot be had is unavailable.
declare -A version
declare -A unavailable
for name in "${names[@]}"; do
  variable="FLEET_HOOKS_E2E_${name^^}_VERSION"
  wanted="${!variable:-${pinned[$name]}}"
  if [ -z "${!variable:-}" ] && [ -n "${latest[$name]:-}" ]; then
    variable=FLEET_HOOKS_E2E_LATEST  # named in the messages below
    wanted=latest
  fi
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
  rm -f "$cache/$name-unavailable" "$cache/unavailable" "$cache/$name-path" "$cache/$name-version" \
    "$cache/$name-said.log"
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
  said="unavailable"
  if [ -n "$reason" ]; then
    why=$reason
  elif why=$(node_too_old "$name"); then
    said="${version[$name]} is installed but cannot start on this Node.js"
  else
    why="npm installed $spec but it does not run here (no working build for this platform?)$(cli_said "$name")"
  fi
  echo "$why" > "$cache/$name-unavailable"
  echo "e2e: $name $said: $why; its e2e tests will be skipped (failed where CI is set)"
done
exit 0
