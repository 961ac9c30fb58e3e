#!/usr/bin/env bash
# Install benchmark: a fresh `git clone` to an installed, wired and checked project, as a
# newcomer runs it (./install.sh --prefix P --project DIR), timed end to end. Reports; asserts
# nothing. Target: under 90 s on a 2-core machine with nothing else running.
#
#   bench/install_time.sh [--repo URL_OR_DIR] [--runs N] [--ccache] [--write-doc]
#
# --repo     what to clone (default: this repository; only committed work is cloned)
# --runs N   repeat N times, each from a new clone (default 1); prints each run and the median
# --ccache   let ccache serve the compiles (default: CCACHE_DISABLE=1, a cold build)
# --write-doc  also write the result into doc/install.md between the install-bench markers
set -euo pipefail
cd "$(dirname "$0")/.."

repo="$PWD"
runs=1
ccache=false
write_doc=false
while [ $# -gt 0 ]; do
  case "$1" in
    --repo) repo="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --ccache) ccache=true; shift ;;
    --write-doc) write_doc=true; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "bench/install_time.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
$ccache || export CCACHE_DISABLE=1

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

times=()
for run in $(seq 1 "$runs"); do
  dir="$work/$run"
  mkdir -p "$dir/orch"
  load_before="$(load)"
  started="$(date +%s.%N)"
  git clone --quiet "$repo" "$dir/fleet-hooks"
  cloned="$(date +%s.%N)"
  (cd "$dir" && HOME="$dir" fleet-hooks/install.sh --prefix prefix --project orch >"$dir/log" 2>&1) ||
    { cat "$dir/log" >&2; echo "bench/install_time.sh: the install failed" >&2; exit 1; }
  finished="$(date +%s.%N)"
  total="$(awk -v a="$started" -v b="$finished" 'BEGIN { print b - a }')"
  times+=("$total")
  printf 'run %d: %.1f s (clone %.1f s, %s), load before %s, after %s\n' "$run" "$total" \
    "$(awk -v a="$started" -v b="$cloned" 'BEGIN { print b - a }')" "$(grep -o 'built in [0-9]* s' "$dir/log")" \
    "$load_before" "$(load)"
  grep -q '^ok: ' "$dir/log" || { cat "$dir/log" >&2; echo "no ok from fleet-hooks check" >&2; exit 1; }
  rm -rf "$dir"
done

median="$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
cache="$($ccache && echo "ccache on" || echo "no ccache")"
summary="$(printf 'fresh clone to an installed, wired, checked project: %.0f s (median of %d, %d cores, %s, load before the last run %s)' \
  "$median" "$runs" "$(nproc)" "$cache" "$load_before")"
echo "$summary"

if $write_doc; then
  bench/doc_markers.py doc/install.md install-bench "\`$summary\`"
fi
