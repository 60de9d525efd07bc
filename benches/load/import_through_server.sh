#!/usr/bin/env bash
# A catalogue imported with the server stopped beside the same catalogue imported through
# the running server (`partscat import` streaming its files over the admin socket), in one
# run, each into an empty store, while the running server is asked a lookup every 100 ms:
#   1. stopped: `partscat import --data A CATALOGUE`;
#   2. running: `serve` on an empty B (a provider admitting loopback by its whitelist made
#      through the admin socket), then `partscat import --data B CATALOGUE`, a lookup of the
#      catalogue's last article sampled meanwhile (404 until the import commits, then 200;
#      status and time, from curl);
#   3. both wall times, their ratio, both stores' `check` checksums (they must agree).
#
#   bash benches/load/import_through_server.sh BINARY ARTICLES [CATALOGUE_DIR]
#   (CATALOGUE_DIR: an existing catalogue's files instead of `gen --articles ARTICLES`)
set -euo pipefail
bin=$(realpath "$1")
articles=$2
work=$(mktemp -d /tmp/partscat-through.XXXXXX)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
catalogue=${3:-$work/csv}
[ -n "${3:-}" ] || "$bin" gen --articles "$articles" --out "$catalogue" >/dev/null
echo "catalogue: $(du -sh "$catalogue" | cut -f1) of CSV"
now() { date +%s.%N; }

t=$(now)
"$bin" import --data "$work/stopped" "$catalogue" >/dev/null 2>&1
stopped=$(echo "$(now) - $t" | bc -l)

port=$((20000 + RANDOM % 20000))
"$bin" serve --data "$work/running" --listen "127.0.0.1:$port" >/dev/null 2>"$work/serve.log" &
server=$!
until curl -sf "http://127.0.0.1:$port/ready" >/dev/null; do sleep 0.2; done
"$bin" admin --data "$work/running" provider create bench --no-key --whitelist 127.0.0.1 >/dev/null
reference=$(tail -1 "$catalogue/articles.csv" | cut -d, -f2 | tr -d ' "')
lookup="http://127.0.0.1:$port/svc/getCrossRefsOrArticle/$reference?mainref&provider=bench"
(
    while [ ! -e "$work/done" ]; do
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$lookup" || echo "000 0"
        sleep 0.1
    done
) >"$work/samples" &
sampler=$!
t=$(now)
"$bin" import --data "$work/running" "$catalogue" >/dev/null 2>"$work/import.err"
running=$(echo "$(now) - $t" | bc -l)
touch "$work/done"
wait "$sampler"
kill "$server"
wait "$server" || true
server=""

printf 'stopped: %.2f s   through the running server: %.2f s   ratio %.3f\n' \
    "$stopped" "$running" "$(echo "$running / $stopped" | bc -l)"
python3 - "$work/samples" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
ok = sorted(float(t) * 1000 for s, t in rows if s in ("200", "404"))
bad = [s for s, _ in rows if s not in ("200", "404")]
def q(p): return ok[min(len(ok) - 1, int(p * len(ok)))] if ok else float("nan")
found = sum(1 for s, _ in rows if s == "200")
print(f"lookups meanwhile: {len(rows)} asked, {len(ok)} answered ({found} found, once committed), {len(bad)} not "
      f"({sorted(set(bad))}); p50 {q(0.5):.2f} ms, p99 {q(0.99):.2f} ms, max {max(ok, default=0):.2f} ms")
PY
a=$("$bin" check --json --data "$work/stopped" | python3 -c 'import json,sys; print(json.load(sys.stdin)["checksum"])')
b=$("$bin" check --json --data "$work/running" | python3 -c 'import json,sys; print(json.load(sys.stdin)["checksum"])')
echo "checksums: stopped $a, through the server $b: $([ "$a" = "$b" ] && echo same || echo DIFFERENT)"
