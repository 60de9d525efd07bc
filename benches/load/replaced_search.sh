#!/usr/bin/env bash
# Two builds side by side on one generated catalogue: the import (each build into its own
# store, taking turns for ROUNDS rounds) and the latency of getArticles searchType 5 (the
# articles a number replaces, exact match) with the answer cache off, the two servers asked in
# turns. For a store change that adds an index: what it costs at import, what it gains.
#
#   bash benches/load/replaced_search.sh OLD_BINARY NEW_BINARY [ARTICLES] [ROUNDS] [REQUESTS]
#                                        (defaults 100000, 2, 200)
#
# Prints each build's mean import time and its p50/p90 search latency, and new/old.
set -euo pipefail
old=$1 new=$2
articles=${3:-100000}
rounds=${4:-2}
requests=${5:-200}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-replaced.XXXXXX)

bin=$new
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
"$new" gen --articles "$articles" --out "$work/csv" >/dev/null

seconds_of() { # binary, store
  local started
  started=$(date +%s.%N)
  "$1" import --data "$2" "$work/csv" >/dev/null 2>&1
  echo "$(date +%s.%N) - $started" | bc -l
}
declare -A took
for ((i = 1; i <= rounds; i++)); do
  for build in old new; do
    rm -rf "$work/store-$build"
    took[$build]=$(echo "${took[$build]:-0} + $(seconds_of "${!build}" "$work/store-$build")" | bc -l)
  done
done

bin=$old
start_server "$work/store-old" 0
old_port=$port
bin=$new
start_server "$work/store-new" 0
new_port=$port

# The replaced-by numbers of the catalogue as written, in the same shuffled order each run.
tail -n +2 "$work/csv/articles.csv" |
  python3 -c 'import csv, sys; [print(n) for r in csv.reader(sys.stdin) for n in r[-1].split("|") if n]' |
  shuf --random-source=<(yes) -n "$requests" >"$work/replacing"
python3 - "$old_port" "$new_port" "$key" "$work/replacing" "$articles" "$rounds" \
  "${took[old]}" "${took[new]}" <<'PY'
import http.client, json, statistics, sys, time
old_port, new_port, key, numbers, articles, rounds, old_s, new_s = sys.argv[1:]
numbers = [l.rstrip("\n") for l in open(numbers)]
conns = {b: http.client.HTTPConnection("127.0.0.1", int(p)) for b, p in (("old", old_port), ("new", new_port))}
times = {"old": [], "new": []}
path = f"/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={key}"
for n in numbers:
    body = json.dumps({"getArticles": {"provider": "demo", "searchQuery": n, "searchType": 5, "perPage": 25}})
    found = {}
    for build, conn in conns.items():
        started = time.perf_counter()
        conn.request("POST", path, body, {"Content-Type": "application/json"})
        answer = json.loads(conn.getresponse().read())
        times[build].append((time.perf_counter() - started) * 1000)
        if answer.get("status") != 200:
            sys.exit(f"{build}: {answer}")
        found[build] = answer["totalMatchingArticles"]
    if found["old"] != found["new"]:
        sys.exit(f"{n}: old found {found['old']}, new {found['new']}")
rounds = int(rounds)
old_s, new_s = float(old_s) / rounds, float(new_s) / rounds
print(f"catalogue: {articles} articles; import: mean of {rounds} rounds taking turns; "
      f"search: {len(numbers)} replaced-by numbers, searchType 5 exact, both builds in turns, same answers")
print(f"{'':24} {'old':>10} {'new':>10} {'new/old':>8}")
print(f"{'import (s)':24} {old_s:10.2f} {new_s:10.2f} {new_s / old_s:8.3f}")
for q in (50, 90):
    o = statistics.quantiles(times["old"], n=100)[q - 1]
    n = statistics.quantiles(times["new"], n=100)[q - 1]
    print(f"{f'searchType 5 p{q} (ms)':24} {o:10.2f} {n:10.2f} {n / o:8.3f}")
PY
