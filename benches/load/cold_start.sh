#!/usr/bin/env bash
# The first seconds after a start beside the same server warm, in one run: a generated
# catalogue imported, then `serve` started on it; from the moment `/ready` answers 200, wrk
# -t2 -c16 --latency over getCrossRefsOrArticle (mainref) for SECONDS, then again for SECONDS
# (warm). Prints the time from start to ready, p50/p99 of both runs and their ratio. As root,
# a second round drops the operating system's page cache before the start (a machine just
# booted) and measures the same.
#
#   bash benches/load/cold_start.sh BINARY [ARTICLES] [SECONDS]   (defaults 1000000, 10)
#   STORE=DIR reuses a store (with CSV=DIR, the files it was imported from) instead.
set -euo pipefail
bin=$(realpath "$1")
articles=${2:-1000000}
seconds=${3:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-cold.XXXXXX)
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

if [ -n "${STORE:-}" ]; then
  ln -s "$(realpath "$CSV")" "$work/csv"
  store=$STORE
else
  catalogue "$articles"
  store=$work/store
fi
lookup_paths

latency() { # label: wrk's p50 and p99 over the mainref paths
  PATHS="$work/mainref.paths" wrk -t2 -c16 -d"${seconds}s" --latency \
    -s "$root/benches/load/pick_path.lua" "http://127.0.0.1:$port" 2>&1 |
    awk -v l="$1" '$1 == "50%" {p50 = $2} $1 == "99%" {p99 = $2} /Non-2xx/ {bad = $0}
      END {if (bad) {print l ": " bad > "/dev/stderr"; exit 1}
           printf "%-34s p50 %8s  p99 %8s\n", l, p50, p99}'
}

to_ms() { # wrk's "1.23ms" / "456.00us" / "1.2s" in milliseconds
  echo "$1" | awk '/us$/ {sub("us", ""); print $1 / 1000; next} /ms$/ {sub("ms", ""); print $1; next}
    /s$/ {sub("s", ""); print $1 * 1000}'
}

round() { # label
  local t0 ready cold warm
  t0=$(date +%s.%N)
  start_server "$store"
  ready=$(echo "$(date +%s.%N) - $t0" | bc -l)
  cold=$(latency "first ${seconds} s after ready")
  warm=$(latency "the next ${seconds} s")
  kill "${servers[-1]}" && wait "${servers[-1]}" 2>/dev/null || true
  unset 'servers[-1]'
  printf '%s: ready %.2f s after the start\n' "$1" "$ready"
  echo "  $cold"
  echo "  $warm"
  printf '  p99 first / next: %.2f\n' "$(echo "$(to_ms "$(echo "$cold" | awk '{print $NF}')") / $(to_ms "$(echo "$warm" | awk '{print $NF}')")" | bc -l)"
}

echo "articles: $articles; store $(du -sb "$store" | awk '{printf "%.0f MB", $1 / 1e6}')"
round "a restart"
if [ "$(id -u)" = 0 ]; then
  sync
  echo 3 >/proc/sys/vm/drop_caches
  round "a start with the page cache dropped"
fi
