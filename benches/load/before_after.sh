#!/usr/bin/env bash
# Requests/s of two builds side by side: the same generated catalogue served by each (answer
# cache off, so every lookup runs the whole request path and reads the store), wrk -t2 -c64
# on each route, the two servers taking turns for ROUNDS rounds so that the machine's drift
# falls on both alike. For a restructuring that must not cost throughput. The routes: the
# /svc lookups and prices, and getArticles by reference through the JSON and SOAP endpoints.
#
# CACHE_MB=128: the answer cache on instead, so that the lookups measure kept answers.
# ROUTES="crossrefs json": only those routes (more rounds in the same time, for one figure).
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
start_server "$work/store-old" "${CACHE_MB:-0}"
old_port=$port
bin=$new
start_server "$work/store" "${CACHE_MB:-0}"
new_port=$port

lookup_paths
# getArticles by each reference as written, through the JSON and the SOAP endpoint.
references 50000 >"$work/refs.raw"
operation_bodies "$work/refs.raw"
post_rate() { # json|soap, port
  local path type out
  case $1 in
    json) path="/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key=$key" type=application/json ;;
    soap) path="/ws/3.0/services/PartsToCatDLB.soapEndpoint?api_key=$key" type="text/xml; charset=utf-8" ;;
  esac
  out=$(BODIES="$work/$1.bodies" PATH_TO="$path" CONTENT_TYPE="$type" wrk -t2 -c64 -d"${seconds}s" \
    -s "$root/benches/load/post_body.lua" "http://127.0.0.1:$2" 2>&1)
  if echo "$out" | grep -q "Non-2xx"; then echo "$1: some answers were not 2xx:" >&2; echo "$out" >&2; exit 1; fi
  echo "$out" | awk '/Requests\/sec/ {print $2}'
}
read -ra routes <<<"${ROUTES:-health mainref crossrefs ktypepage prices exhaust json soap}"
rate_of() { # route, port
  case $1 in json | soap) post_rate "$1" "$2" ;; *) rate "$1" "$2" ;; esac
}

for r in "${routes[@]}"; do rate_of "$r" "$old_port" >/dev/null; rate_of "$r" "$new_port" >/dev/null; done
declare -A sum
for ((i = 1; i <= rounds; i++)); do
  for r in "${routes[@]}"; do
    # Each takes the first turn every other round, so that neither always meets a machine
    # just woken by the other.
    for b in $( ((i % 2)) && echo old new || echo new old); do
      p=$old_port && [ "$b" = new ] && p=$new_port
      sum[$r,$b]=$(echo "${sum[$r,$b]:-0} + $(rate_of "$r" "$p")" | bc -l)
    done
  done
done
echo "catalogue: $articles articles; answer cache ${CACHE_MB:-0} MiB; $rounds rounds of ${seconds} s per route and build, taking turns"
printf '%-12s %14s %14s %8s\n' route "old req/s" "new req/s" new/old
for r in "${routes[@]}"; do
  o=$(echo "${sum[$r,old]} / $rounds" | bc -l) n=$(echo "${sum[$r,new]} / $rounds" | bc -l)
  printf '%-12s %14.0f %14.0f %8.3f\n' "$r" "$o" "$n" "$(echo "$n / $o" | bc -l)"
done
