#!/usr/bin/env bash
# fleet-hooks installer, uninstaller, packager and test runner. See README.md and doc/install.md.
#   ./install.sh [--prefix DIR] [--project DIR [--agent NAME]... [--trust]]
#                                                 build the four executables, install them,
#                                                 wire and check a project
#   ./install.sh --uninstall [--prefix DIR] [--project DIR]
#   ./install.sh --package DIR                    write every package (.deb, tarball, npm, plugin)
#   ./install.sh --test                           build and run the whole test suite
set -euo pipefail

# Paths on the command line mean what they mean where the user typed them: resolve them
# against this directory before moving to the source tree.
user_cwd="$PWD"
source_dir="$(cd "$(dirname "$0")" && pwd -P)"

prefix="${HOME:-/root}/.local"
mode=install
project=""
package_dir=""
agents=()   # --agent: the CLIs to wire in --project (none given: Claude Code)
trust=""    # --trust: with a CLI whose trust install writes, trust that CLI's wiring
binaries=(resume-guard provenance-writer launch-wrapper fleet-hooks)

usage() {
  echo "Usage: $0 [--prefix DIR] [--project DIR [--agent NAME]... [--trust]]"
  echo "       $0 --uninstall [--prefix DIR] [--project DIR]"
  echo "       $0 --package DIR"
  echo "       $0 --test"
  cat <<'USAGE'

  (no option)    Build the four static executables (resume-guard, provenance-writer,
                 launch-wrapper, fleet-hooks) and install them into DIR/bin
                 (default DIR: $HOME/.local). Missing build dependencies are installed
                 with apt-get when run as root; otherwise the command to run is printed.
  --prefix DIR   Where to install (binaries in DIR/bin, data in DIR/share).
  --project DIR  After installing, wire the hooks into DIR (fleet-hooks install) and check
                 the wiring (fleet-hooks check). DIR must exist; it is checked before
                 anything is built.
USAGE
  # The names --agent takes, from the CLIs' homes (known_agents).
  echo "  --agent NAME   With --project: the agent CLI to wire, repeatable; one of"
  printf '                 %s\n' "$(known_agents ', ')"
  cat <<'USAGE'
                 (default: claude, which wires DIR/.claude/settings.json; one folder
                 each in common/agents/; `fleet-hooks agents` lists them with their files).
USAGE
  # The CLIs whose trust install writes, from their rows (known_agents).
  printf '  --trust        With --agent %s: trust the suite'"'"'s wiring where\n' \
    "$(known_agents ' or --agent ' "$trust_writer_line")"
  cat <<'USAGE'
                 that CLI keeps its trust, which it needs before it runs the hooks
                 (Gemini CLI needs the folder trusted: the check says how).
  --uninstall    Remove exactly what an install into --prefix put there (the list is kept in
                 DIR/share/fleet-hooks/), and the wiring of every CLI in every project it
                 wired (and in --project).
  --package DIR  Build the release executables for linux-x86_64 and linux-aarch64 (cross-
                 built) and write into DIR, for each: with CPack the Debian package
                 fleet-hooks_<version>_<amd64|arm64>.deb and the tarball
                 fleet-hooks-<version>-linux-<x86_64|aarch64>.tar.gz; for macOS the
                 tarballs fleet-hooks-<version>-darwin-<arm64|x64>.tar.gz (used as they
                 are when DIR holds them, else cross-built with Zig from npm); with npm
                 pack the npm packages fleet-hooks-<linux|darwin>-<x64|arm64>-<version>.tgz
                 and the main package fleet-hooks-<version>.tgz; the Claude Code plugin
                 with the binaries of all four, fleet-hooks-claude-plugin-<version>.tar.gz
                 (a local marketplace); and SHA256SUMS.
  --test         Build and run the whole test suite: unit, integration, install, end-to-end
                 and reliability tests on the release build, the unit and integration
                 tests of the aarch64 build under qemu-aarch64-static, then again under
                 AddressSanitizer + UndefinedBehaviorSanitizer, then each libFuzzer target
                 for a short time; first it cross-builds the four programs for macOS
                 (arm64, x86-64) with Zig and checks them (GitHub's macOS runners test them).
  -h, --help     Show this help.

Relative paths are taken from the directory you run install.sh from.

Exit status: 0 done (with --project: wired, and the check passed); 3 installed and wired, but
an agent CLI skips the hooks until you trust them (it says which, and the step that trusts
each; the next steps are printed too); 1 a failure (a build, a dependency, a check that fails
for another reason, an uninstall that cannot unwire a project); 2 a usage error.
USAGE
}

# The names --agent takes, joined by $1: one home per agent CLI in the source tree,
# common/agents/<name>/ (the built fleet-hooks lists the same with `fleet-hooks agents`).
# With $2, only the CLIs whose table row, <name>/<name>_cli.cpp, has a line matching that
# extended regular expression.
known_agents() {
  local home names=""
  for home in "$source_dir"/common/agents/*/; do
    home="${home%/}"
    [ -z "${2:-}" ] || grep -Eq -- "$2" "$home/${home##*/}_cli.cpp" 2>/dev/null || continue
    names+="${names:+$1}${home##*/}"
  done
  printf '%s\n' "$names"
}

# The line of a CLI's table row that gives its HookTrust a writer: the CLIs whose trust
# `fleet-hooks install --trust` writes (Codex: `.write = &trust_codex_hooks,`).
trust_writer_line='^[[:space:]]*\.write = &'

die_usage() {
  echo "install.sh: $1" >&2
  echo "Run $0 --help for the options." >&2
  exit 2
}

set_mode() {
  [ "$mode" = install ] || [ "$mode" = "$1" ] || die_usage "--$mode and --$1 cannot be combined"
  mode="$1"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] || die_usage "--prefix needs a directory"
      prefix="$2"
      shift 2
      ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --project)
      [ $# -ge 2 ] || die_usage "--project needs a directory"
      project="$2"
      shift 2
      ;;
    --project=*) project="${1#--project=}"; shift ;;
    --agent)
      [ $# -ge 2 ] || die_usage "--agent needs the name of an agent CLI: $(known_agents ', ')"
      agents+=("$2")
      shift 2
      ;;
    --agent=*) agents+=("${1#--agent=}"); shift ;;
    --trust) trust=--trust; shift ;;
    --package)
      [ $# -ge 2 ] || die_usage "--package needs the directory to write the packages into"
      set_mode package
      package_dir="$2"
      shift 2
      ;;
    --package=*) set_mode package; package_dir="${1#--package=}"; shift ;;
    --uninstall) set_mode uninstall; shift ;;
    --test) set_mode test; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die_usage "unknown option '$1'" ;;
  esac
done

absolute() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$user_cwd/$1" ;;
  esac
}

for agent in ${agents[@]+"${agents[@]}"}; do
  case "$agent" in
    *,*) die_usage "--agent $agent: one agent CLI per --agent; repeat it (--agent codex --agent gemini)" ;;
  esac
  known_agents $'\n' | grep -Fxq -- "$agent" ||
    die_usage "--agent $agent: not an agent CLI; use one of $(known_agents ', ')"
done
if [ ${#agents[@]} -gt 0 ] || [ -n "$trust" ]; then
  [ "$mode" = install ] && [ -n "$project" ] ||
    die_usage "--agent and --trust go with --project DIR (the project to wire), in an install"
fi
if [ -n "$trust" ]; then
  writers="$(known_agents ' ' "$trust_writer_line")"
  if ! printf '%s\n' ${agents[@]+"${agents[@]}"} | grep -Fxq -f <(printf '%s\n' $writers); then
    options=""
    for agent in $writers; do options+="${options:+ or }--agent $agent"; done
    die_usage "--trust trusts the wiring of a CLI whose trust the suite writes: pass $options with it"
  fi
fi
[ ${#agents[@]} -gt 0 ] || agents=(claude)

[ -n "$prefix" ] || die_usage "--prefix needs a directory"
prefix="$(realpath -m -- "$(absolute "$prefix")")"
case "$prefix" in
  *$'\n'* | *$'\t'*) die_usage "the prefix must not contain a tab or a newline" ;;
esac
if [ -n "$project" ]; then
  [ "$mode" = install ] || [ "$mode" = uninstall ] ||
    die_usage "--project goes with an install or --uninstall, not with --$mode"
  project_arg="$project"
  project="$(absolute "$project")"
  if [ ! -d "$project" ]; then
    echo "install.sh: the project directory $project_arg does not exist (looked for $project)." >&2
    echo "Pass the directory of the orchestrator project whose .claude/settings.json should" >&2
    echo "run the hooks, e.g. --project ~/orch; nothing was built or installed." >&2
    exit 2
  fi
  project="$(cd -- "$project" && pwd -P)"
  case "$project" in
    *$'\n'* | *$'\t'*) die_usage "the project path must not contain a tab or a newline" ;;
  esac
fi
if [ "$mode" = package ]; then
  [ -n "$package_dir" ] || die_usage "--package needs the directory to write the packages into"
  package_dir="$(realpath -m -- "$(absolute "$package_dir")")"
fi

cd "$source_dir"

record_dir="$prefix/share/fleet-hooks"
manifest="$record_dir/install_manifest.txt"        # files install put there (from CMake)
created_dirs="$record_dir/installed_directories.txt"  # directories that did not exist before
wired_projects="$record_dir/wired_projects.txt"    # project<TAB>files the wiring created

# ---------------------------------------------------------------------------- uninstall --

# Removes the suite's hooks from a project's files of every agent CLI, then what the wiring
# created there (listed in the record) if it holds nothing else: settings.json reduced to {},
# the .bak install kept of each CLI's file, an empty .claude/.
unwire_project() {
  local dir="$1" created="$2" settings
  settings="$dir/.claude/settings.json"
  if [ ! -d "$dir" ]; then
    echo "install.sh: project $dir no longer exists; nothing to unwire there"
    return 0
  fi
  local tool removed=()
  tool="$(fleet_hooks_executable)"
  if [ -z "$tool" ]; then
    echo "install.sh: no fleet-hooks executable to unwire $dir with" >&2
    return 1
  fi
  # fleet-hooks uninstall keeps the wired file in a new <file>.bak.N; that backup is this
  # step's own and goes too, so the project ends as it was before the install.
  local backups_before=""
  local files=() file
  while IFS=$'\t' read -r _ file _; do files+=("$dir/$file"); done < <("$tool" agents 2>/dev/null)
  # A fleet-hooks older than `fleet-hooks agents` knew these three.
  [ ${#files[@]} -gt 0 ] || files=("$settings" "$dir/.codex/hooks.json" "$dir/.gemini/settings.json")
  for file in "${files[@]}"; do backups_before+="$(compgen -G "$file.bak.*" || true)"$'\n'; done
  "$tool" uninstall --project "$dir" || return 1
  local backup backups=()
  for file in "${files[@]}"; do
    while IFS= read -r backup; do
      [ -n "$backup" ] || continue
      grep -Fxq -- "$backup" <<<"$backups_before" && continue
      rm -f -- "$backup" && removed+=("${backup#"$dir/"} (the backup this unwiring made)")
    done < <(compgen -G "$file.bak.*" || true)
  done
  case ",$created," in
    *",.claude/settings.json,"*)
      if [ -f "$settings" ] && [ "$(tr -d ' \t\r\n' <"$settings")" = "{}" ]; then
        rm -f -- "$settings" && removed+=(".claude/settings.json (left as {})")
      fi
      ;;
  esac
  IFS=, read -r -a backups <<<"$created"
  for backup in ${backups[@]+"${backups[@]}"}; do
    case "$backup" in
      *.bak) [ ! -e "$dir/$backup" ] || { rm -f -- "$dir/$backup" && removed+=("$backup"); } ;;
    esac
  done
  case ",$created," in
    *",.claude,"*) ! rmdir -- "$dir/.claude" 2>/dev/null || removed+=(".claude/ (empty)") ;;
  esac
  if [ ${#removed[@]} -gt 0 ]; then
    echo "install.sh: in $dir, also removed what the install and this unwiring had created:"
    printf '  %s\n' "${removed[@]}"
  fi
}

# A fleet-hooks executable to unwire projects with: the installed one, one on PATH, or the one
# this source tree built; "" when there is none.
fleet_hooks_executable() {
  if [ -x "$prefix/bin/fleet-hooks" ]; then
    printf '%s\n' "$prefix/bin/fleet-hooks"
  elif command -v fleet-hooks >/dev/null; then
    command -v fleet-hooks
  elif [ -x "$source_dir/build/install/hooks/fleet-hooks/fleet-hooks" ]; then
    printf '%s\n' "$source_dir/build/install/hooks/fleet-hooks/fleet-hooks"
  fi
}

if [ "$mode" = uninstall ]; then
  if [ ! -f "$manifest" ]; then
    echo "install.sh: found no fleet-hooks install in $prefix (no $manifest)." >&2
    echo "Pass the --prefix you installed with (--uninstall knows only installs made by" >&2
    echo "install.sh; remove a .deb with apt remove fleet-hooks, an unpacked tarball by hand)." >&2
    tool="$(fleet_hooks_executable)"
    if [ -n "$tool" ]; then
      echo "To unwire a project by hand, run" >&2
      echo "  $tool uninstall --project DIR" >&2
    else
      echo "To unwire a project by hand, delete the hook entries that run resume-guard and" >&2
      echo "provenance-writer from each agent CLI's project file (DIR/.claude/settings.json," >&2
      echo "DIR/.codex/hooks.json, DIR/.gemini/settings.json, …: doc/agents.md lists them; no" >&2
      echo "fleet-hooks executable is left on this machine to do it)." >&2
    fi
    exit 1
  fi
  # Unwire first: a project whose settings still ran the removed binaries would run its
  # dispatches unguarded (a hook command that is not found does not block the tool).
  unwire_failed() {
    echo "install.sh: could not unwire $1 (see above); fix that and run --uninstall again." >&2
    echo "Nothing was removed from $prefix." >&2
    exit 1
  }
  if [ -f "$wired_projects" ]; then
    while IFS=$'\t' read -r dir created; do
      [ -n "$dir" ] || continue
      [ "$dir" = "$project" ] && project=""
      unwire_project "$dir" "$created" || unwire_failed "$dir"
    done <"$wired_projects"
  fi
  [ -z "$project" ] || unwire_project "$project" "" || unwire_failed "$project"
  removed=0
  while IFS= read -r file; do
    [ -n "$file" ] || continue
    if [ -e "$file" ] || [ -L "$file" ]; then
      rm -f -- "$file"
      removed=$((removed + 1))
    fi
  done <"$manifest"
  rm -f -- "$manifest" "$wired_projects"
  if [ -f "$created_dirs" ]; then
    dirs="$(sort -r "$created_dirs")"  # deepest first
    rm -f -- "$created_dirs"
    while IFS= read -r dir; do
      [ -n "$dir" ] || continue
      rmdir -- "$dir" 2>/dev/null ||
        { [ ! -d "$dir" ] || echo "install.sh: kept $dir: it holds files fleet-hooks did not install"; }
    done <<<"$dirs"
  fi
  echo "install.sh: removed $removed installed files from $prefix"
  exit 0
fi

# ------------------------------------------------------------------------- dependencies --

# Debian packages each mode needs: installing and packaging need only a compiler, CMake and
# the two header libraries; the test suite adds doctest, clang with its runtime for the
# fuzz targets, pre-commit (the repository's .pre-commit-hooks.yaml is tried with it) and
# ccache (the presets that compile the same sources alike share their objects; node and npm,
# for the end-to-end tests, are used when present and never installed here).
packages=(g++ cmake make rapidjson-dev libcli11-dev)
# --package and --test build for linux-aarch64 too, with Debian's cross compiler; the tests of
# that build run under qemu-user.
[ "$mode" = package ] && packages+=(g++-aarch64-linux-gnu)
[ "$mode" = test ] && packages+=(doctest-dev clang libclang-rt-14-dev g++-aarch64-linux-gnu qemu-user-static pre-commit ccache)

# How long apt-get waits for another apt or dpkg to release the dpkg lock, in seconds.
apt_lock_wait=300

# apt-get "$@" (its stdout discarded), waiting up to apt_lock_wait seconds while another apt
# or dpkg holds a lock it needs, and saying so. apt-get waits for the dpkg lock itself
# (DPkg::Lock::Timeout, apt 1.9.11 and later), but `update` fails at once on the lock of the
# package lists (exit 100, "Could not get lock /var/lib/apt/lists/lock"): such a failure is
# retried every 2 s. apt-get's messages go to stderr when it gives up or warns.
apt_get_waiting() {
  local messages waited=0
  messages="$(mktemp)"
  while ! apt-get -o DPkg::Lock::Timeout="$apt_lock_wait" "$@" >/dev/null 2>"$messages"; do
    if ! grep -q "Could not get lock" "$messages" || [ "$waited" -ge "$apt_lock_wait" ]; then
      cat "$messages" >&2
      rm -f "$messages"
      return 1
    fi
    if [ "$waited" -eq 0 ]; then
      echo "install.sh: another apt or dpkg holds its lock ($(grep -m 1 "Could not get lock" "$messages" | sed 's/^E: //'));"
      echo "  waiting for it to finish, up to ${apt_lock_wait} s (see ps -C apt,apt-get,dpkg,unattended-upgr)"
    elif [ $((waited % 30)) -eq 0 ]; then
      echo "install.sh: still waiting for the apt lock (${waited} s of ${apt_lock_wait} s)"
    fi
    sleep 2
    waited=$((waited + 2))
  done
  cat "$messages" >&2
  rm -f "$messages"
}
if command -v dpkg-query >/dev/null; then
  missing=()
  for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
      echo "install.sh: installing the build dependencies ${missing[*]} (apt-get; waiting up to"
      echo "  ${apt_lock_wait} s for another apt or dpkg to finish)"
      export DEBIAN_FRONTEND=noninteractive
      if ! apt_get_waiting update -qq || ! apt_get_waiting install -y -qq "${missing[@]}"; then
        echo "install.sh: apt-get could not install the build dependencies (its messages are above)." >&2
        echo "If another apt or dpkg still holds its lock after ${apt_lock_wait} s (unattended-upgrades after" >&2
        echo "boot, an apt in another shell: see ps -C apt,apt-get,dpkg,unattended-upgr), wait until it" >&2
        echo "ends and run install.sh again, or install them yourself: apt-get install -y ${missing[*]}" >&2
        echo "Nothing was built or installed." >&2
        exit 1
      fi
    else
      echo "install.sh: missing build dependencies: ${missing[*]}" >&2
      echo "Install them with:" >&2
      echo "  sudo apt-get install -y ${missing[*]}" >&2
      echo "then run ./install.sh again (or use a release tarball, which needs nothing)." >&2
      exit 1
    fi
  fi
else
  echo "install.sh: no dpkg here, so build dependencies are not checked: the build needs a"
  echo "C++20 compiler, CMake 3.25 or later, make, RapidJSON and CLI11."
fi

jobs="$(nproc 2>/dev/null || echo 2)"

# What a first build costs, as bench/build_cpu.sh measured it and wrote it into doc/install.md
# (between the build-cpu markers): its CPU time in seconds, "" when the page does not say.
first_build_cpu_seconds() {
  sed -n '/<!-- build-cpu:begin -->/,/<!-- build-cpu:end -->/s/.* needs \([0-9][0-9]*\) s of CPU time.*/\1/p' \
    doc/install.md 2>/dev/null | head -n 1
}

# The objects a build of `preset` has left to compile, from the build tool's dry run (-k: a
# dry run cannot link, so it goes on past the programs); 0 when it cannot say (its failure
# is the build's to report).
build_objects() {
  local objects
  objects="$(cmake --build --preset "$1" -- -n -k 2>/dev/null |
    grep -oE 'Building CXX object [^"]*' | sort -u | wc -l)" || true
  printf '%s\n' "${objects:-0}"
}

# While a build writes its log, says how far it is: the elapsed time, how many of its `total`
# objects it has begun to compile (a count that only grows) and the step begun last (the
# object compiled — a folder of common/ or a program's sources, all as one unit — or the
# program linked). Every 10 s when that changed, else every 60 s.
build_progress() {
  local log="$1" started="$2" total="$3" compiled last said="" said_at=0 line
  while sleep 10; do
    compiled="$(grep -c 'Building CXX object' "$log" 2>/dev/null || true)"
    last="$(grep -aE 'Building CXX object|Linking CXX' "$log" 2>/dev/null | tail -n 1 |
      sed -E 's/^\[ *[0-9]+%\] //; s/^Building CXX object (.*)\.o$/compiling \1/;
              s/^Linking CXX (executable|static library) /linking /; s#CMakeFiles/[^/]*\.dir/##
              s#/Unity/unity_0_cxx\.cxx$#/ (all its files as one unit)#
              s#/Unity/unity_([a-z_]+)_cxx\.cxx$#/\1/ (all its files as one unit)#')"
    # A count past the dry run's (an object it could not foresee) is shown without a total.
    if [ -n "$total" ] && [ "${compiled:-0}" -le "$total" ]; then
      line="${compiled:-0} of $total objects: ${last:-configuring}"
    elif [ "${compiled:-0}" = 1 ]; then
      line="1 object: ${last:-configuring}"
    else
      line="${compiled:-0} objects: ${last:-configuring}"
    fi
    if [ "$line" != "$said" ] || [ $((SECONDS - said_at)) -ge 60 ]; then
      echo "install.sh:   $((SECONDS - started)) s: $line"
      said="$line"
      said_at=$SECONDS
    fi
  done
}

# Configures and builds the preset with its output in a log, printing progress as it goes;
# on failure the log is printed (without the progress lines) and the script exits.
quiet_build() {
  local preset="$1" log="build/$1.log" started=$SECONDS ticker status=0 total=""
  mkdir -p build
  : >"$log"
  if cmake --preset "$preset" >"$log" 2>&1; then
    total="$(build_objects "$preset")"
    [ "${total:-0}" -gt 0 ] || total=""
    build_progress "$log" "$started" "$total" &
    ticker=$!
    cmake --build --preset "$preset" --parallel "$jobs" >>"$log" 2>&1 || status=$?
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
  else
    status=1
  fi
  if [ "$status" -ne 0 ]; then
    grep -v '^\[ *[0-9]*%\]' "$log" >&2 || true
    echo "install.sh: the build failed (its messages are above; the full log is $source_dir/$log)." >&2
    exit 1
  fi
  echo "install.sh: built in $((SECONDS - started)) s"
}

announce_build() {
  local preset="${1:-install}" cpu
  cpu="$(first_build_cpu_seconds)"
  local cores="$jobs cores"
  [ "$jobs" != 1 ] || cores="1 core"
  echo "install.sh: building the four static executables${2:+ $2} with $cores (build/$preset;"
  if [ -n "$cpu" ]; then
    echo "  a first build needs about $cpu s of CPU time: about $(( (cpu + jobs - 1) / jobs )) s on $cores"
    echo "  when nothing else runs, longer on a busy machine (doc/install.md); a rebuild a few seconds;"
  else
    echo "  a first build takes minutes, a rebuild a few seconds;"
  fi
  echo "  progress as it goes, the full log in build/$preset.log)"
}

# ------------------------------------------------------------------------------ package --

# The macOS tarball fleet-hooks-<version>-darwin-<cpu>.tar.gz (cpu: arm64, x64) for
# --package: taken from the package directory when it is there (the release workflow puts its
# native macOS builds there first), else cross-built with Zig (the macos-<cpu> preset; Zig from
# npm) and packed with cpack. Its files are unpacked into $2, for the npm packages and the
# plugin. Returns 1 (saying why) when there is neither a tarball nor npm to fetch Zig with.
macos_tarball() {
  local cpu="$1" into="$2" tarball
  tarball="fleet-hooks-$version-darwin-$cpu.tar.gz"
  if [ ! -f "$package_dir/$tarball" ]; then
    if ! command -v npm >/dev/null; then
      echo "install.sh: npm is not installed, so the macOS builds (Zig from npm) are left out: no $tarball" >&2
      return 1
    fi
    cmake/toolchains/macos-setup.sh
    echo "install.sh: cross-building the four programs for macOS ($cpu) with Zig (build/macos-$cpu;"
    echo "  a first build needs some 550 s of CPU time (doc/platforms.md), a rebuild a few seconds)"
    quiet_build "macos-$cpu"
    if ! cpack --config "build/macos-$cpu/CPackConfig.cmake" -B "$staging/cpack-darwin" >"build/cpack.log" 2>&1; then
      cat build/cpack.log >&2
      echo "install.sh: cpack failed for darwin-$cpu (log above, also in $source_dir/build/cpack.log)" >&2
      exit 1
    fi
    mv -f -- "$staging/cpack-darwin/$tarball" "$package_dir/"
  fi
  macos_tarballs+=("$tarball")
  mkdir -p "$into"
  tar -xzf "$package_dir/$tarball" -C "$into" --strip-components=1
}

if [ "$mode" = package ]; then
  echo "install.sh: writing the packages for linux-x86_64, linux-aarch64, darwin-arm64 and"
  echo "  darwin-x64 into $package_dir: the Debian packages (Linux), the tarballs, the npm"
  echo "  packages and the Claude Code plugin, with SHA256SUMS"
  mkdir -p "$package_dir"
  staging="$(mktemp -d)"
  trap 'rm -rf "$staging"' EXIT
  version="$(sed -n 's/^project(fleet-hooks VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
  for arch in x86_64 aarch64; do
    preset=install
    [ "$arch" = x86_64 ] || preset="install-$arch"
    announce_build "$preset" "for linux-$arch"
    quiet_build "$preset"
    if ! cpack --config "build/$preset/CPackConfig.cmake" -B "$staging/cpack" >"build/cpack.log" 2>&1; then
      cat build/cpack.log >&2
      echo "install.sh: cpack failed for linux-$arch (log above, also in $source_dir/build/cpack.log)" >&2
      exit 1
    fi
    cmake --install "build/$preset" --prefix "$staging/prefix-$arch" --strip >/dev/null
  done
  # macOS: the tarballs (in the package directory already, or cross-built), unpacked for the
  # npm packages and the plugin.
  macos_tarballs=()
  trees="$staging/prefix-x86_64/share/fleet-hooks;$staging/prefix-aarch64/share/fleet-hooks"
  npm_bins=(-DBIN_x64="$staging/prefix-x86_64/bin" -DBIN_arm64="$staging/prefix-aarch64/bin")
  npm_packages=(linux-x64 linux-arm64)
  for cpu in arm64 x64; do
    macos_tarball "$cpu" "$staging/prefix-darwin-$cpu" || continue
    trees+=";$staging/prefix-darwin-$cpu/share/fleet-hooks"
    npm_bins+=(-DBIN_darwin_$cpu="$staging/prefix-darwin-$cpu/bin")
    npm_packages+=("darwin-$cpu")
  done
  # The Claude Code plugin with the binaries of every architecture, as one archive.
  cmake -DVERSION="$version" -DOUT_DIR="$staging/cpack" -DTREES="$trees" -P cmake/ClaudePlugin.cmake
  written=("$staging"/cpack/*.deb "$staging"/cpack/*.tar.gz)
  if command -v npm >/dev/null; then
    cmake -DSOURCE_DIR="$source_dir" -DVERSION="$version" -DOUT_DIR="$staging/npm" \
      "${npm_bins[@]}" -P cmake/NpmPackages.cmake
    for npm_package in "${npm_packages[@]}" fleet-hooks; do
      (cd "$staging/npm/$npm_package" && npm pack --silent --pack-destination "$staging/cpack" >/dev/null)
    done
    written+=("$staging"/cpack/*.tgz)
  else
    echo "install.sh: npm is not installed, so the npm packages are not written (install node and npm)" >&2
  fi
  for file in "${written[@]}"; do
    mv -f -- "$file" "$package_dir/"
    echo "  $package_dir/$(basename "$file") ($(du -h "$package_dir/$(basename "$file")" | cut -f1))"
  done
  for file in ${macos_tarballs[@]+"${macos_tarballs[@]}"}; do
    echo "  $package_dir/$file ($(du -h "$package_dir/$file" | cut -f1))"
  done
  (cd "$package_dir" && { for file in "${written[@]}"; do basename "$file"; done
    printf '%s\n' ${macos_tarballs[@]+"${macos_tarballs[@]}"}; } | sort | xargs sha256sum >SHA256SUMS)
  echo "  $package_dir/SHA256SUMS (check with: cd $package_dir && sha256sum -c SHA256SUMS)"
  exit 0
fi

# --------------------------------------------------------------------------------- test --

# The aarch64 tests run aarch64 executables that start one another (the tests start the
# suite's binaries, fleet-hooks check starts resume-guard), so the kernel must hand every
# aarch64 executable to qemu: a binfmt_misc entry, which qemu-user-static describes in
# /usr/lib/binfmt.d and which root registers.
aarch64_emulation() {
  local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64 rule=/usr/lib/binfmt.d/qemu-aarch64.conf
  [ -e "$entry" ] && return 0
  if [ "$(id -u)" -ne 0 ] || [ ! -f "$rule" ]; then
    echo "install.sh: aarch64 executables cannot run here: no binfmt_misc entry for qemu-aarch64." >&2
    echo "Register it as root (qemu-user-static installed):" >&2
    echo "  sudo sh -c 'cat $rule > /proc/sys/fs/binfmt_misc/register'" >&2
    exit 1
  fi
  [ -e /proc/sys/fs/binfmt_misc/register ] ||
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  cat "$rule" >/proc/sys/fs/binfmt_misc/register
  echo "install.sh: registered qemu-aarch64-static for aarch64 executables (binfmt_misc)"
}


if [ "$mode" = test ]; then
  # The end-to-end tests drive the real agent CLIs of tests/e2e/agent_clis.tsv from the npm
  # registry; without one its tests report themselves skipped, with the reason (failed where
  # CI is set, as .ci/run sets it).
  tests/e2e/setup.sh
  # Before the release tests too: one of them runs the plugin's aarch64 guard.
  aarch64_emulation
  # Every build goes through ccache (the caller's own settings win), into build/ccache: the
  # install tests build the `install` presets, which compile what `release` and
  # `release-aarch64` compiled with the same flags, so both are built before any test runs.
  export CMAKE_C_COMPILER_LAUNCHER="${CMAKE_C_COMPILER_LAUNCHER:-ccache}"
  export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
  export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}" CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
  echo "install.sh: building the release preset"
  cmake --preset release >/dev/null
  cmake --build --preset release --parallel "$jobs"
  echo "install.sh: cross-building the release preset for linux-aarch64"
  cmake --preset release-aarch64 >/dev/null
  cmake --build --preset release-aarch64 --parallel "$jobs"
  # macOS cannot run here: its four programs are cross-built with Zig (from npm, into
  # build/macos-toolchain) and checked to be Mach-O executables of the right architecture
  # that load only macOS's own libraries; the checker itself must refuse the other one.
  # Without npm they are skipped, saying so (failed where CI is set, as the e2e tests are).
  # Before the release tests: the install tests' `install.sh --package` packs these builds.
  if ! command -v npm >/dev/null 2>&1 && [ -z "${CI:-}" ]; then
    echo "install.sh: npm is not installed: the macOS cross-builds are skipped (doc/platforms.md)"
  else
    echo "install.sh: cross-building the four programs for macOS (arm64, x86-64) with Zig"
    cmake/toolchains/macos-setup.sh
    for preset in macos-arm64 macos-x64; do
      cmake --preset "$preset" >/dev/null
      cmake --build --preset "$preset" --parallel "$jobs"
    done
    for arch in arm64:macos-arm64 x86_64:macos-x64; do
      tests/platform/check-macho.py --arch "${arch%%:*}" "build/${arch#*:}"/hooks/{resume-guard/resume-guard,provenance-writer/provenance-writer,launch-wrapper/launch-wrapper,fleet-hooks/fleet-hooks}
    done
    if tests/platform/check-macho.py --arch x86_64 build/macos-arm64/hooks/resume-guard/resume-guard 2>/dev/null; then
      echo "install.sh: check-macho.py took an arm64 executable for x86_64" >&2
      exit 1
    fi
  fi
  echo "install.sh: running the test suite on the release build"
  ctest --preset release
  echo "install.sh: testing the linux-aarch64 build under qemu-aarch64-static"
  ctest --preset release-aarch64
  echo "install.sh: building and testing under AddressSanitizer + UBSan"
  cmake --preset asan >/dev/null
  cmake --build --preset asan --parallel "$jobs"
  ctest --preset asan
  echo "install.sh: building the libFuzzer targets (clang) and running each for a short time"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz --parallel "$jobs"
  ctest --preset fuzz
  echo "install.sh: all tests passed (release, aarch64 under qemu, asan, fuzz; macOS built and checked)"
  exit 0
fi

# ------------------------------------------------------------------------------ install --

# True when the resume-guard that /bin/sh finds on the user's PATH is the one installed here.
guard_on_path_is_ours() {
  local found
  found="$(command -v resume-guard || true)"
  [ -n "$found" ] && [ "$(realpath -- "$found")" = "$(realpath -- "$prefix/bin/resume-guard")" ]
}
# The resume-guard a committed wiring runs here, found as its command finds it: on PATH, else
# in the directories where the install routes put it (kInstallDirectories, hook_command.h).
hooks_guard() {
  local found dir
  found="$(command -v resume-guard || true)"
  if [ -z "$found" ]; then
    for dir in /opt/homebrew/bin /usr/local/bin "$HOME/.local/bin"; do
      if [ -f "$dir/resume-guard" ] && [ -x "$dir/resume-guard" ]; then
        found="$dir/resume-guard"
        break
      fi
    done
  fi
  printf '%s' "$found"
}
path_line="export PATH=\"$prefix/bin:\$PATH\""
echo "install.sh: installing fleet-hooks into $prefix/bin${project:+, then wiring and checking $project}"
announce_build
quiet_build install

# Which directories the install creates: stage it first, then note those missing in the
# prefix, so that --uninstall removes them and only them.
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
DESTDIR="$staging" cmake --install build/install --prefix "$prefix" >/dev/null
new_dirs=()
for dir in "$prefix" "$prefix/share" "$record_dir"; do
  [ -e "$dir" ] || new_dirs+=("$dir")
done
while IFS= read -r -d '' staged; do
  dir="$prefix${staged#"$staging$prefix"}"
  [ -e "$dir" ] || new_dirs+=("$dir")
done < <(find "$staging$prefix" -mindepth 1 -type d -print0)

previous_files=""
[ -f "$manifest" ] && previous_files="$(cat "$manifest")"
cmake --install build/install --prefix "$prefix" --strip >/dev/null
mkdir -p "$record_dir"
cp build/install/install_manifest.txt "$manifest.new"
echo >>"$manifest.new"
# Files an earlier install put there that this version no longer installs.
while IFS= read -r file; do
  [ -n "$file" ] || continue
  grep -Fxq -- "$file" "$manifest.new" || rm -f -- "$file"
done <<<"$previous_files"
grep -v '^$' "$manifest.new" >"$manifest"
rm -f -- "$manifest.new"
{
  [ ! -f "$created_dirs" ] || cat "$created_dirs"
  [ ${#new_dirs[@]} -eq 0 ] || printf '%s\n' "${new_dirs[@]}"
} | sort -u >"$created_dirs.new"
mv -f -- "$created_dirs.new" "$created_dirs"

echo "install.sh: installed into $prefix:"
for binary in "${binaries[@]}"; do
  echo "  $prefix/bin/$binary ($("$prefix/bin/$binary" --version))"
done

if [ -n "$project" ]; then
  # What the wiring creates in the project, so that --uninstall can take it away again: the
  # backup install keeps of each CLI's file that holds settings of the user's.
  created=()
  [ -e "$project/.claude" ] || created+=(.claude)
  [ -e "$project/.claude/settings.json" ] || created+=(.claude/settings.json)
  while IFS=$'\t' read -r _ file _; do
    [ -e "$project/$file.bak" ] || created+=("$file.bak")
  done < <("$prefix/bin/fleet-hooks" agents)
  if [ -f "$wired_projects" ] && grep -Fxq -- "$project" <(cut -f1 "$wired_projects"); then
    :  # wired before: the first record knows what the project looked like
  else
    (IFS=,; printf '%s\t%s\n' "$project" "${created[*]}") >>"$wired_projects"
  fi
  agent_args=()
  for agent in "${agents[@]}"; do agent_args+=(--agent "$agent"); done
  "$prefix/bin/fleet-hooks" install --project "$project" "${agent_args[@]}" $trust
  # Checked as it will be once $prefix/bin is on PATH; when it is not yet, say so before the ok.
  hooks_run="$(hooks_guard)"
  if [ -z "$hooks_run" ] ||
    [ "$(realpath -- "$hooks_run")" != "$(realpath -- "$prefix/bin/resume-guard")" ]; then
    echo
    echo "install.sh: WARNING: the check below runs with $prefix/bin on PATH; until your PATH"
    if [ -n "$hooks_run" ]; then
      echo "  includes it, the hooks run $hooks_run, not the resume-guard just installed."
    else
      echo "  includes it, every dispatch is BLOCKED on this machine (the hooks find no resume-guard)."
    fi
    echo "  Add this line to ~/.profile or ~/.bashrc, open a new shell, and start the agent CLI again:"
    echo "    $path_line"
  fi
  check_status=0
  PATH="$prefix/bin:$PATH" "$prefix/bin/fleet-hooks" check --project "$project" "${agent_args[@]}" ||
    check_status=$?
  if [ "$check_status" -eq 3 ]; then
    # Wired right, but some CLI skips the hooks until they are trusted: name those CLIs (a
    # check of each says 3) before the next steps, and exit 3 after them.
    declare -A display_name=()  # --agent name -> the CLI's name
    while IFS=$'\t' read -r name _ display _; do display_name[$name]="$display"; done \
      < <("$prefix/bin/fleet-hooks" agents)
    untrusted=()
    for agent in "${agents[@]}"; do
      status=0
      PATH="$prefix/bin:$PATH" "$prefix/bin/fleet-hooks" check --project "$project" --agent "$agent" \
        >/dev/null 2>&1 || status=$?
      [ "$status" -ne 3 ] || untrusted+=("${display_name[$agent]}")
    done
    skip="${untrusted[0]} skips"
    if [ ${#untrusted[@]} -gt 1 ]; then
      skip="$(IFS=,; echo "${untrusted[*]:0:${#untrusted[@]}-1}" | sed 's/,/, /g') and ${untrusted[-1]} skip"
    fi
    echo
    echo "install.sh: installed and wired, not yet trusted: $skip the hooks until you"
    echo "  trust them; the notes of fleet-hooks install above give the one step for each (the"
    echo "  check says why). install.sh exits 3 for this (installed, not yet trusted)."
  elif [ "$check_status" -ne 0 ]; then
    echo "install.sh: the wiring in $project does not pass fleet-hooks check (findings above)." >&2
    echo "Fix them and run: fleet-hooks check --project $project ${agent_args[*]}" >&2
    exit 1
  fi
fi

# ------------------------------------------------------------------------- next steps --

self="$source_dir/install.sh"
echo
echo "Next steps"
step=1
if ! guard_on_path_is_ours; then
  echo "  $step. Put the executables on PATH (the agent CLIs run the hooks by name); add this"
  echo "     line to ~/.profile or ~/.bashrc and open a new shell:"
  echo "       $path_line"
  step=$((step + 1))
fi
if [ -n "$project" ]; then
  declare -A project_file=()  # --agent name -> the project file install wires
  while IFS=$'\t' read -r name file _; do project_file[$name]="$file"; done \
    < <("$prefix/bin/fleet-hooks" agents)
  wired_files=()
  for agent in "${agents[@]}"; do wired_files+=("${project_file[$agent]}"); done
  echo "  $step. If $project is a git repository, commit ${wired_files[*]} there (every"
  echo "     clone and CI runner then runs the guard); not their .bak backups (the state"
  echo "     directory, .autoskillit/temp/, keeps itself out of git):"
  ignored=""
  for file in "${wired_files[@]}"; do ignored+=" '$file.bak*'"; done
  echo "       printf '%s\\n'$ignored >> .gitignore"
else
  echo "  $step. Wire an orchestrator project for each agent CLI it uses, and check it:"
  echo "       fleet-hooks install --project DIR [--agent NAME]...   (fleet-hooks agents lists them)"
  echo "       fleet-hooks check --project DIR"
  echo "     then commit the file each install names (.claude/settings.json,"
  echo "     .codex/hooks.json, ...), not its .bak backups."
fi
step=$((step + 1))
echo "  $step. Have the dispatcher record every session at launch, before the agent runs"
echo "     (the caller is the session whose dispatch the guard let through, else the one its"
echo "     CLI names to the MCP server, as \$CLAUDE_CODE_SESSION_ID does):"
echo "       launch-wrapper --member NAME --record-provenance --assign-session-id \\"
echo "         --recipe-name RECIPE --step-name STEP -- claude -p \"...\""
echo "     (a worker of another CLI: --agent NAME and its own command, as in"
echo "     --agent codex -- codex exec --json \"...\" or --agent gemini -- gemini -p \"...\";"
echo "     doc/agents.md has each CLI's)"
echo "     or, for a launcher you cannot wrap: provenance-writer record --session-id ID \\"
echo "         --recipe-name RECIPE --step-name STEP"
step=$((step + 1))
echo "  $step. In CI: fleet-hooks check --project .   (doc/recipes.md, \"In CI\")"
step=$((step + 1))
echo "  $step. To remove everything this install put in place:"
echo "       $self --uninstall --prefix $prefix"
# Installed and wired, but a CLI skips the hooks until they are trusted (said above).
[ "${check_status:-0}" -ne 3 ] || exit 3
