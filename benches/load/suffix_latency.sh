#!/usr/bin/env bash
# Latency of number searches by the end of a number (getArticles, searchMatchType suffix and
# prefix_or_suffix, any number type) on a large generated catalogue, with the answer cache
# off so every search reads the store. wrk -t1 -c4: few calls in flight, so the figures are
# the service's own time rather than queueing.
#
#   bash benches/load/suffix_latency.sh [ARTICLES] [SECONDS]   (defaults 1000000, 20)
#   BIN=target/release/partscat bash …                         (a binary already built)
#
# Needs wrk (Debian: apt-get install wrk). Prints p50, p90, p99 and requests/s of each.
set -euo pipefail
articles=${1:-1000000}
seconds=${2:-20}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-suffix.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
catalogue "$articles"
start_server "$work/store" 0

# The last five characters of references as written, so the normaliser runs: each search
# finds a handful of articles among the catalogue's numbers.
references 20000 >"$work/refs"
python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
refs = [l.rstrip("\n") for l in open(f"{work}/refs")]
for how in ("suffix", "prefix_or_suffix"):
    with open(f"{work}/{how}.bodies", "w") as f:
        for r in refs:
            tail = re.sub(r"[^A-Za-z0-9]", "", r)[-5:]
            f.write(json.dumps({"getArticles": {"provider": "demo", "searchQuery": tail,
                "searchType": 10, "searchMatchType": how, "perPage": 25}}) + "\n")
PY
path="/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key=$key"
# A first pass reads each table's block index and warms the block cache, as a server that has
# been answering for a while has.
BODIES="$work/suffix.bodies" PATH_TO="$path" CONTENT_TYPE=application/json \
  wrk -t1 -c4 -d5s -s "$root/benches/load/post_body.lua" "http://127.0.0.1:$port" >/dev/null 2>&1
echo "catalogue: $articles articles; 20,000 five-character number ends; wrk -t1 -c4, ${seconds}s each"
for how in suffix prefix_or_suffix; do
  out=$(BODIES="$work/$how.bodies" PATH_TO="$path" CONTENT_TYPE=application/json \
    wrk -t1 -c4 -d"${seconds}s" --latency -s "$root/benches/load/post_body.lua" \
    "http://127.0.0.1:$port" 2>&1)
  if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; exit 1; fi
  echo "$out" | awk -v how="$how" '
    /^ +50%/ {p50=$2} /^ +90%/ {p90=$2} /^ +99%/ {p99=$2} /Requests\/sec/ {rps=$2}
    END {printf "%-18s p50 %8s  p90 %8s  p99 %8s  %9.0f req/s\n", how, p50, p90, p99, rps}'
done
