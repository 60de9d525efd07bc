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

auth="provider=demo&api_key=$key"
urlencode() { python3 -c 'import sys, urllib.parse; [print(urllib.parse.quote(l.rstrip("\n"), safe="")) for l in sys.stdin]'; }
# Every reference (as written, so the normaliser runs) and every Ktype of the catalogue; a
# Ktype answered whole and as one page of 25 (what a screen of results shows).
references 50000 | urlencode >"$work/refs"
tail -n +2 "$work/csv/vehicles.csv" | cut -d, -f1 | urlencode >"$work/ktypes"
awk -v a="$auth" '{print "/svc/getCrossRefsOrArticle/" $0 "?mainref&" a}' "$work/refs" >"$work/article.paths"
awk -v a="$auth" '{print "/svc/getCrossRefsOrArticle/" $0 "?crossrefs&" a}' "$work/refs" >"$work/crossrefs.paths"
awk -v a="$auth" '{print "/svc/getArticlesByKtype/" $0 "?" a}' "$work/ktypes" >"$work/ktype.paths"
awk -v a="$auth" '{print "/svc/getArticlesByKtype/" $0 "?limit=25&" a}' "$work/ktypes" >"$work/ktypepage.paths"
echo "/health" >"$work/health.paths"
echo "catalogue: $articles articles; $(wc -l <"$work/refs") references, $(wc -l <"$work/ktypes") Ktypes"

run() { # name, port → requests/s
  local out
  out=$(PATHS="$work/$1.paths" wrk -t2 -c64 -d"${seconds}s" -s "$root/benches/load/pick_path.lua" \
    "http://127.0.0.1:$2" 2>&1)
  if echo "$out" | grep -q "Non-2xx"; then
    echo "$1: some answers were not 2xx:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "$out" | awk '/Requests\/sec/ {print $2}'
}

# Warm both stores' caches (and fill the answer cache) with one pass over each lookup, then
# measure; /health first and last.
for p in article crossrefs ktype ktypepage; do run "$p" "$cached" >/dev/null; run "$p" "$uncached" >/dev/null; done
health1=$(run health "$cached")
declare -A rate
for p in article crossrefs ktype ktypepage; do
  rate[$p,cached]=$(run "$p" "$cached")
  rate[$p,uncached]=$(run "$p" "$uncached")
done
health2=$(run health "$cached")
health=$(echo "($health1 + $health2) / 2" | bc -l)
printf '%-34s %10.0f req/s\n' "/health (mean of before and after)" "$health"
printf '%-34s %22s %22s\n' "" "answer cache on" "answer cache off"
for pair in "getCrossRefsOrArticle?mainref:article" "getCrossRefsOrArticle?crossrefs:crossrefs" "getArticlesByKtype (whole list):ktype" \
  "getArticlesByKtype?limit=25:ktypepage"; do
  name=${pair%:*} p=${pair##*:}
  on=${rate[$p,cached]} off=${rate[$p,uncached]}
  printf '%-34s %8.0f req/s %5.2fx  %8.0f req/s %5.2fx\n' "$name" "$on" "$(echo "$on / $health" | bc -l)" \
    "$off" "$(echo "$off / $health" | bc -l)"
done
