#!/usr/bin/env bash
# Requests/s of the lookups under wrk -t2 -c64 over many different keys, beside the same
# server's /health in the same run, on a generated catalogue: once with the answer cache
# large enough for every key (the steady state of a busy appliance), once with it off (every
# lookup read from the store), each on its own copy of the store.
#
#   bash benches/load/lookups_vs_health.sh [ARTICLES] [SECONDS]   (defaults 100000, 15)
#
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#
# Needs wrk (Debian: apt-get install wrk). Prints requests/s of each and the ratio to /health.
set -euo pipefail
articles=${1:-100000}
seconds=${2:-15}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-load.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
catalogue "$articles"
cp -r "$work/store" "$work/store-uncached"
start_server "$work/store" 1024
cached=$port
start_server "$work/store-uncached" 0
uncached=$port

lookup_paths
echo "catalogue: $articles articles; $(wc -l <"$work/refs") references, $(wc -l <"$work/ktypes") Ktypes"

# Warm both stores' caches (and fill the answer cache) with one pass over each lookup, then
# measure; /health first and last.
for p in mainref crossrefs ktype ktypepage; do rate "$p" "$cached" >/dev/null; rate "$p" "$uncached" >/dev/null; done
health1=$(rate health "$cached")
declare -A measured
for p in mainref crossrefs ktype ktypepage; do
  measured[$p,cached]=$(rate "$p" "$cached")
  measured[$p,uncached]=$(rate "$p" "$uncached")
done
health2=$(rate health "$cached")
health=$(echo "($health1 + $health2) / 2" | bc -l)
printf '%-34s %10.0f req/s\n' "/health (mean of before and after)" "$health"
printf '%-34s %22s %22s\n' "" "answer cache on" "answer cache off"
for pair in "getCrossRefsOrArticle?mainref:mainref" "getCrossRefsOrArticle?crossrefs:crossrefs" "getArticlesByKtype (whole list):ktype" \
  "getArticlesByKtype?limit=25:ktypepage"; do
  name=${pair%:*} p=${pair##*:}
  on=${measured[$p,cached]} off=${measured[$p,uncached]}
  printf '%-34s %8.0f req/s %5.2fx  %8.0f req/s %5.2fx\n' "$name" "$on" "$(echo "$on / $health" | bc -l)" \
    "$off" "$(echo "$off / $health" | bc -l)"
done
