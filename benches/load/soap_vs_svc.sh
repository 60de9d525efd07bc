#!/usr/bin/env bash
# The same lookup three ways under wrk -t2 -c64, side by side in one run on a generated
# catalogue: /svc/getCrossRefsOrArticle/{ref}?mainref, the JSON endpoint's getArticles
# (searchType 0, exact) and the SOAP 1.1 endpoint's getArticles, with /health as the
# yardstick. Then getArticles' match modes, timed one request at a time.
#
#   bash benches/load/soap_vs_svc.sh [ARTICLES] [SECONDS]   (defaults 100000, 15)
#
# Needs wrk (Debian: apt-get install wrk).
set -euo pipefail
articles=${1:-100000}
seconds=${2:-15}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-soap.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
catalogue "$articles"
start_server "$work/store"
base="http://127.0.0.1:$port"

# Every reference as written (so the normaliser runs), 50,000 of them.
references 50000 >"$work/refs"
urlencode <"$work/refs" | awk -v k="$key" '{print "/svc/getCrossRefsOrArticle/" $0 "?mainref&provider=demo&api_key=" k}' >"$work/svc.paths"
operation_bodies "$work/refs"
echo "/health" >"$work/health.paths"

check() { # wrk output → requests/s, failing on non-2xx
  if echo "$1" | grep -q "Non-2xx"; then echo "$1" >&2; exit 1; fi
  echo "$1" | awk '/Requests\/sec/ {print $2}'
}
get() { check "$(PATHS="$work/$1.paths" wrk -t2 -c64 -d"${seconds}s" -s "$root/benches/load/pick_path.lua" "$base" 2>&1)"; }
post() { # bodies, path, content type
  check "$(BODIES="$work/$1.bodies" PATH_TO="$2" CONTENT_TYPE="$3" wrk -t2 -c64 -d"${seconds}s" \
    -s "$root/benches/load/post_body.lua" "$base" 2>&1)"
}
json_path="/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key=$key"
soap_path="/ws/3.0/services/PartsToCatDLB.soapEndpoint?api_key=$key"

# Warm the store's cache with one pass of each, then measure; /health first and last.
get svc >/dev/null; post json "$json_path" application/json >/dev/null
health1=$(get health)
svc=$(get svc)
json=$(post json "$json_path" application/json)
soap=$(post soap "$soap_path" "text/xml; charset=utf-8")
health2=$(get health)
health=$(echo "($health1 + $health2) / 2" | bc -l)
echo "catalogue: $articles articles; 50,000 references, wrk -t2 -c64, ${seconds}s each"
printf '%-44s %9.0f req/s\n' "/health (mean of before and after)" "$health"
for pair in "/svc/getCrossRefsOrArticle?mainref:$svc" "JSON getArticles (exact, type 0):$json" "SOAP 1.1 getArticles (exact, type 0):$soap"; do
  name=${pair%%:*} rate=${pair##*:}
  printf '%-44s %9.0f req/s  %5.2fx /health  %5.2fx /svc\n' "$name" "$rate" \
    "$(echo "$rate / $health" | bc -l)" "$(echo "$rate / $svc" | bc -l)"
done

# Match modes: the median of 9 single requests, each for a different reference, so none is
# answered from the answer cache (suffix reads the whole number indexes).
for mode in exact prefix suffix prefix_or_suffix; do
  times=$(sed -n '101,109p' "$work/refs" | while read -r ref; do
    query=$(python3 -c "import re,sys; n=re.sub('[^0-9A-Za-z]','',sys.argv[1]); print({'exact': sys.argv[1], 'prefix': n[:4]}.get(sys.argv[2], n[-6:]))" "$ref" "$mode")
    body=$(python3 -c 'import json,sys; print(json.dumps({"getArticles": {"provider": "demo", "searchQuery": sys.argv[1], "searchMatchType": sys.argv[2], "perPage": 10}}))' "$query" "$mode")
    curl -s -o /dev/null -w '%{time_total}\n' -X POST -H 'content-type: application/json' \
      --data "$body" "$base$json_path"
  done | sort -n | sed -n 5p)
  printf 'getArticles %-18s %8.2f ms (median of 9 references, each asked once)\n' "$mode" "$(echo "$times * 1000" | bc -l)"
done
