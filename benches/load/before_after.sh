#!/usr/bin/env bash
# Requests/s of two builds side by side: the same generated catalogue served by each (answer
# cache off, so every lookup runs the whole request path and reads the store), wrk -t2 -c64
# on each route, the two servers taking turns for ROUNDS rounds so that the machine's drift
# falls on both alike. For a restructuring that must not cost throughput.
#
#   bash benches/load/before_after.sh OLD_BINARY NEW_BINARY [ARTICLES] [SECONDS] [ROUNDS]
#                                     (defaults 100000, 5, 3)
#
# OWN_STORES=1: each build imports the catalogue into its own store (a change of the store's
# format, which the old build could not open); otherwise the old serves a copy of the new's.
#
# Needs wrk. Prints each route's mean requests/s under both and new/old.
set -euo pipefail
old=$1 new=$2
articles=${3:-100000}
seconds=${4:-5}
rounds=${5:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-load.XXXXXX)

bin=$new
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
catalogue "$articles"
if [ -n "${OWN_STORES:-}" ]; then
  "$old" import --data "$work/store-old" "$work/csv" >/dev/null 2>&1
else
  cp -r "$work/store" "$work/store-old"
fi
bin=$old
start_server "$work/store-old" 0
old_port=$port
bin=$new
start_server "$work/store" 0
new_port=$port

lookup_paths
routes=(health mainref crossrefs ktypepage prices exhaust)

for r in "${routes[@]}"; do rate "$r" "$old_port" >/dev/null; rate "$r" "$new_port" >/dev/null; done
declare -A sum
for ((i = 1; i <= rounds; i++)); do
  for r in "${routes[@]}"; do
    sum[$r,old]=$(echo "${sum[$r,old]:-0} + $(rate "$r" "$old_port")" | bc -l)
    sum[$r,new]=$(echo "${sum[$r,new]:-0} + $(rate "$r" "$new_port")" | bc -l)
  done
done
echo "catalogue: $articles articles; $rounds rounds of ${seconds} s per route and build, taking turns"
printf '%-12s %14s %14s %8s\n' route "old req/s" "new req/s" new/old
for r in "${routes[@]}"; do
  o=$(echo "${sum[$r,old]} / $rounds" | bc -l) n=$(echo "${sum[$r,new]} / $rounds" | bc -l)
  printf '%-12s %14.0f %14.0f %8.3f\n' "$r" "$o" "$n" "$(echo "$n / $o" | bc -l)"
done
