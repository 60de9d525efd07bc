# Sourced by the load scripts after benches/binary.sh, with `work` set to a fresh directory:
# a generated catalogue imported into a store, and `serve` on copies of it with the demo key.
# The servers are stopped and `work` removed when the script exits.
#
#   catalogue ARTICLES [SHAPE]        → $work/csv and $work/store (SHAPE: benches/shapes.sh)
#   start_server STORE [CACHE_MB]     → sets `port` (not in a subshell: the server must be
#                                       known to the clean-up)
#   lookup_paths                      → $work/<route>.paths: the request paths of each lookup
#                                       route over the catalogue's references and Ktypes
key=pc_bench_key
servers=()
stop_servers() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap stop_servers EXIT

# shellcheck source=benches/shapes.sh
source "$(dirname "${BASH_SOURCE[0]}")/../shapes.sh"

catalogue() {
  shape_flags "${2:-gen}"
  "$bin" gen --articles "$1" "${shape[@]}" --out "$work/csv" >/dev/null
  "$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
}

start_server() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local cache=()
  [ -n "${2:-}" ] && cache=(env "PARTSCAT_ANSWER_CACHE_MB=$2")
  PARTSCAT_LOG=warn "${cache[@]}" "$bin" serve --data "$1" --demo --demo-key "$key" \
    --listen "127.0.0.1:$port" >/dev/null 2>>"$work/server.log" &
  servers+=($!)
  until curl -fs "http://127.0.0.1:$port/ready" >/dev/null 2>&1; do sleep 0.2; done
}

# References of the catalogue as written (so the normaliser runs), `count` of them, shuffled
# the same way each run.
references() {
  tail -n +2 "$work/csv/articles.csv" | python3 -c 'import csv, sys; [print(r[1]) for r in csv.reader(sys.stdin)]' \
    | shuf --random-source=<(yes) -n "$1"
}

# OE and competitor numbers of the catalogue's cross-references, `count` of them, shuffled
# the same way each run: a reverse lookup finds the maker's articles that carry one.
other_numbers() {
  tail -n +2 "$work/csv/crossrefs.csv" \
    | python3 -c 'import csv, sys; [print(r[4]) for r in csv.reader(sys.stdin) if r[2] in ("oe", "competitor")]' \
    | sort -u | shuf --random-source=<(yes) -n "$1"
}

urlencode() { python3 -c 'import sys, urllib.parse; [print(urllib.parse.quote(l.rstrip("\n"), safe="")) for l in sys.stdin]'; }

# The request paths of each route, one per reference (as written, so the normaliser runs) or
# per Ktype of the catalogue, with the demo key: `mainref`, `crossrefs`, `reverse` (`crossrefs`
# of an OE or competitor number), `ktype` (the whole
# list), `ktypepage` (one page of 25, what a screen of results shows), `prices` (a page of
# 25), `exhaust`, and `health`.
lookup_paths() {
  local auth="provider=demo&api_key=$key"
  references 50000 | urlencode >"$work/refs"
  tail -n +2 "$work/csv/vehicles.csv" | cut -d, -f1 | urlencode >"$work/ktypes"
  awk -v a="$auth" '{print "/svc/getCrossRefsOrArticle/" $0 "?mainref&" a}' "$work/refs" >"$work/mainref.paths"
  awk -v a="$auth" '{print "/svc/getCrossRefsOrArticle/" $0 "?crossrefs&" a}' "$work/refs" >"$work/crossrefs.paths"
  other_numbers 50000 | urlencode \
    | awk -v a="$auth" '{print "/svc/getCrossRefsOrArticle/" $0 "?crossrefs&" a}' >"$work/reverse.paths"
  awk -v a="$auth" '{print "/svc/getArticlesByKtype/" $0 "?" a}' "$work/ktypes" >"$work/ktype.paths"
  awk -v a="$auth" '{print "/svc/getArticlesByKtype/" $0 "?limit=25&" a}' "$work/ktypes" >"$work/ktypepage.paths"
  awk -v a="$auth" '{print "/svc/getPricesByKtype/" $0 "?limit=25&" a}' "$work/ktypes" >"$work/prices.paths"
  awk -v a="$auth" '{print "/svc/e/k/" $0 "?" a}' "$work/ktypes" >"$work/exhaust.paths"
  echo "/health" >"$work/health.paths"
}

# `getArticles` by each reference of the file $1 (one as written a line), as request bodies
# of the JSON and the SOAP endpoint: $work/json.bodies, $work/soap.bodies.
operation_bodies() {
  python3 - "$1" "$work" <<'PY'
import json, sys
refs = [l.rstrip("\n") for l in open(sys.argv[1])]
work = sys.argv[2]
with open(f"{work}/json.bodies", "w") as f:
    for r in refs:
        f.write(json.dumps({"getArticles": {"provider": "demo", "searchQuery": r, "searchType": 0}}) + "\n")
with open(f"{work}/soap.bodies", "w") as f:
    for r in refs:
        r = r.replace("&", "&amp;").replace("<", "&lt;")
        f.write('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>'
                '<p:getArticles xmlns:p="urn:partscat:ws:3.0:PartsToCatDLB"><p:provider>demo</p:provider>'
                f'<p:searchQuery>{r}</p:searchQuery><p:searchType>0</p:searchType></p:getArticles></s:Body></s:Envelope>\n')
PY
}

# Requests/s of wrk -t2 -c64 for `seconds` over a route's paths on a port; any answer not
# 2xx ends the script.
rate() { # route, port
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
