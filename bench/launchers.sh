#!/usr/bin/env bash
# Launcher benchmark: what the shell in front of resume-guard costs where one stands there,
# beside the binary alone (same input: a stranger's resume, denied; same store):
#   - the Claude Code plugin's hook command under /bin/sh -c as Claude Code runs it, as shipped
#     (it picks the machine's binary itself and execs it) and through the bin/ selector it runs
#     where it cannot read /proc/sys/kernel/arch (there the selector also runs uname), and that
#     selector run directly;
#   - the npm package installed with `npm install -g` (offline, from this build's packed
#     packages), with install scripts (npm's link leads to the hard-linked binary) and with
#     --ignore-scripts (npm's link leads to the launcher script, which execs the binary).
# Medians of bench-exectime runs, each paired with a run of the exec floor, in rounds that
# alternate the cells; the ratio to the binary alone. Reports; asserts nothing.
#
#   bench/launchers.sh [--runs N] [--build-dir DIR] [--write-doc]
#
# --write-doc also writes the table into doc/performance.md between the launchers-bench markers.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=300
build=build/release
write_doc=false
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --write-doc) write_doc=true; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "bench/launchers.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
table="$work/table.md"
timer="$build/bench/bench-exectime"
# Copies written in one go, as the packages write them (see bench/run).
mkdir "$work/bin"
for program in hooks/resume-guard/resume-guard hooks/provenance-writer/provenance-writer \
    hooks/launch-wrapper/launch-wrapper hooks/fleet-hooks/fleet-hooks bench/bench-noop; do
  cat "$build/$program" >"$work/bin/${program##*/}"
  chmod 755 "$work/bin/${program##*/}"
done
guard="$work/bin/resume-guard"
noop="$work/bin/bench-noop"
state="$work/state"
"$work/bin/provenance-writer" record --session-id worker-1 --caller-session-id owner --recipe-name r --state-dir "$state"
printf '{"session_id":"stranger","hook_event_name":"PreToolUse","tool_name":"mcp__kitchen__dispatch_food_truck","tool_input":{"resume_session_id":"worker-1"}}' >"$work/input.json"
export FLEET_HOOKS_STATE_DIR="$state"

field() { sed -E "s/(.* |^)$1=([0-9]+).*/\2/"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }
median_of() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# cell LABEL COMMAND...: adds a cell; they are timed at the end, in rounds.
labels=()
commands=()
cell() {
  labels+=("$1")
  commands+=("$(printf '%q ' "${@:2}")")
}
cell "the binary alone" "$guard"

# The plugin: hooks.json's command as shipped, and as it runs where it cannot read
# /proc/sys/kernel/arch ($m stays empty: it execs the bin/ selector).
plugin="$work/plugin"
mkdir -p "$plugin/bin/linux-$(uname -m)"
cp "$build/plugin/claude-plugin/bin/resume-guard" "$plugin/bin/"
cp "$guard" "$plugin/bin/linux-$(uname -m)/resume-guard"
shipped=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])' \
  "$build/plugin/claude-plugin/hooks/hooks.json")
no_arch_file=${shipped//\/proc\/sys\/kernel\/arch/\/nonexistent}
export CLAUDE_PLUGIN_ROOT="$plugin"
cell "the plugin's hook command as shipped (sh -c, exec)" /bin/sh -c "$shipped"
cell "the plugin's hook command through its bin/ selector (sh -c, the selector's sh, exec)" /bin/sh -c "$no_arch_file"
cell "the plugin's bin/ selector run directly (its sh, exec)" "$plugin/bin/resume-guard"

# The npm package, packed from this build and installed offline into two prefixes.
missing_npm=false
if command -v npm >/dev/null && command -v node >/dev/null; then
  case $(uname -m) in x86_64) cpu=x64 ;; aarch64) cpu=arm64 ;; esac
  version=$("$guard" --version | awk '{ print $2 }')
  cmake -DSOURCE_DIR="$PWD" -DVERSION="$version" -DOUT_DIR="$work/npm" -DBIN_$cpu="$work/bin" \
    -P cmake/NpmPackages.cmake >/dev/null
  for package in fleet-hooks "linux-$cpu"; do
    (cd "$work/npm/$package" && npm pack --silent --pack-destination "$work/npm" >/dev/null)
  done
  for scripts in with without; do
    flag=""; [ $scripts = without ] && flag=--ignore-scripts
    npm install -g --prefix "$work/npm-$scripts" --offline --no-audit --no-fund $flag \
      "$work/npm/fleet-hooks-$version.tgz" "$work/npm/fleet-hooks-linux-$cpu-$version.tgz" >/dev/null 2>&1
  done
  cell "npm install -g, install scripts run (npm's link to the hard-linked binary)" "$work/npm-with/bin/resume-guard"
  cell "npm install -g --ignore-scripts (npm's link to the launcher: sh, exec)" "$work/npm-without/bin/resume-guard"
else
  missing_npm=true
fi

# Timed in rounds, each cell RUNS/ROUNDS runs a round, one cell after another, so that a machine
# whose load drifts weighs on every cell alike; a cell's figure is the median of its rounds'
# medians (and of their paired floors).
rounds=10
for round in $(seq "$rounds"); do
  for i in "${!labels[@]}"; do
    eval "\"\$timer\" --runs $((runs / rounds)) --floor \"\$noop\" --stdin \"\$work/input.json\" -- ${commands[$i]}" >"$work/timed"
    field median_us <"$work/timed" >>"$work/cell-$i"
    field floor_median_us <"$work/timed" >>"$work/floor-$i"
  done
done
{
  echo "| resume-guard called through | median | × the binary | exec floor |"
  echo "|---|---:|---:|---:|"
} >"$table"
alone=$(median_of <"$work/cell-0")
for i in "${!labels[@]}"; do
  us=$(median_of <"$work/cell-$i")
  echo "| ${labels[$i]} | $(ms "$us") | $(awk -v a="$us" -v b="$alone" 'BEGIN { printf "%.2f×", a / b }') | $(ms "$(median_of <"$work/floor-$i")") |" >>"$table"
done
$missing_npm && echo "| npm install -g (npm or node is not installed here) | – | – | – |" >>"$table"

echo "Machine: $(nproc) cores, $(uname -r), load $(cut -d' ' -f1 /proc/loadavg); $runs runs per cell; median wall time per call."
echo
cat "$table"

if $write_doc; then
  python3 - "$table" <<'PY'
import sys
table = open(sys.argv[1]).read()
text = open("doc/performance.md").read()
begin, end = "<!-- launchers-bench:begin -->\n", "<!-- launchers-bench:end -->"
if begin not in text or end not in text:
    sys.exit("bench/launchers.sh: doc/performance.md has no launchers-bench markers")
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open("doc/performance.md", "w").write(head + begin + table + end + tail)
print("bench/launchers.sh: doc/performance.md updated")
PY
fi
