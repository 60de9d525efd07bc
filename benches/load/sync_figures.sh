#!/usr/bin/env bash
# Rows/s of syncTecdoc beside a plain import of the same rows, in one run on one machine:
#   1. a generated catalogue imported into the upstream's store (the plain import, full);
#   2. a full refresh of an empty downstream from the served upstream (`partscat sync
#      --refresh`: the feed of every data set fetched, then imported);
#   3. 1 % of the articles, prices and links changed on the upstream (descriptions and amounts
#      changed, links withdrawn with `remove` rows), then an incremental sync;
#   4. the same change files imported by hand into a copy of the downstream as it was before
#      step 3 (the plain import, incremental).
# Both downstreams end with the upstream's checksum.
#
#   bash benches/load/sync_figures.sh BINARY [ARTICLES]   (default 1000000)
set -euo pipefail
bin=$(realpath "$1")
articles=${2:-1000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-sync.XXXXXX)
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

now() { date +%s.%N; }
rows_in() { # files…: data rows (header lines not counted)
  local n=0
  for f in "$@"; do n=$((n + $(wc -l <"$f") - 1)); done
  echo "$n"
}
report() { # label rows seconds
  printf '%-44s %10d rows %8.2f s %10.0f rows/s\n' "$1" "$2" "$3" "$(echo "$2 / $3" | bc -l)"
}
checksum() { "$bin" check --data "$1" | awk '/^checksum/ {print $2}'; }

"$bin" gen --articles "$articles" --out "$work/csv" >/dev/null
full_rows=$(rows_in "$work"/csv/*.csv)
t=$(now)
"$bin" import --data "$work/up" "$work/csv" >/dev/null 2>&1
plain_full=$(echo "$(now) - $t" | bc -l)

start_server "$work/up" 0
upstream="http://127.0.0.1:$port"
up_pid=${servers[-1]}
follow=(env "PARTSCAT_SYNC_UPSTREAM=$upstream" PARTSCAT_SYNC_PROVIDER=demo
  "PARTSCAT_SYNC_API_KEY=$key" PARTSCAT_ADMIN_SOCKET= PARTSCAT_LOG=warn)

t=$(now)
"${follow[@]}" "$bin" sync --data "$work/down" --refresh >/dev/null 2>&1
refresh=$(echo "$(now) - $t" | bc -l)
"$bin" backup --data "$work/down" --out "$work/down.backup" >/dev/null

# 1 % of the rows of three data sets: every hundredth row.
mkdir "$work/change"
python3 - "$work/csv" "$work/change" <<'EOF'
import csv, sys
src, out = sys.argv[1], sys.argv[2]
def every_hundredth(name, change):
    with open(f"{src}/{name}.csv", newline="") as f, open(f"{out}/{name}.csv", "w", newline="") as o:
        r, w = csv.reader(f), csv.writer(o, lineterminator="\n")
        header = next(r)
        w.writerow(header + ["change"])
        for i, row in enumerate(r):
            if i % 100 == 0:
                w.writerow(change(header, row))
def described(h, row):
    row[h.index("description")] += " (rev 2)"
    return row + ["upsert"]
def priced(h, row):
    row[h.index("amount")] = "%.2f" % (float(row[h.index("amount")]) + 1)
    return row + ["upsert"]
every_hundredth("articles", described)
every_hundredth("prices", priced)
every_hundredth("links", lambda h, row: row + ["remove"])
EOF
change_rows=$(rows_in "$work"/change/*.csv)

# The upstream takes the change while stopped (the store is the server's while it runs).
kill "$up_pid" && wait "$up_pid" 2>/dev/null || true
"$bin" import --data "$work/up" "$work/change" >/dev/null 2>&1
start_server "$work/up" 0
follow[1]="PARTSCAT_SYNC_UPSTREAM=http://127.0.0.1:$port"

t=$(now)
"${follow[@]}" "$bin" sync --data "$work/down" >/dev/null 2>&1
incremental=$(echo "$(now) - $t" | bc -l)

"$bin" restore --data "$work/by-hand" "$work/down.backup" >/dev/null
t=$(now)
"$bin" import --data "$work/by-hand" "$work/change" >/dev/null 2>&1
plain_change=$(echo "$(now) - $t" | bc -l)

for s in "${servers[@]}"; do kill "$s" 2>/dev/null && wait "$s" 2>/dev/null || true; done
servers=()
up_sum=$(checksum "$work/up")
[ "$up_sum" = "$(checksum "$work/down")" ] || { echo "the downstream differs from the upstream" >&2; exit 1; }
[ "$up_sum" = "$(checksum "$work/by-hand")" ] || { echo "the hand import differs from the upstream" >&2; exit 1; }

echo "articles: $articles; the three stores end with checksum $up_sum"
report "plain import, full catalogue" "$full_rows" "$plain_full"
report "syncTecdoc refresh=true (fetch and import)" "$full_rows" "$refresh"
report "plain import, the 1 % change" "$change_rows" "$plain_change"
report "syncTecdoc incremental (fetch and import)" "$change_rows" "$incremental"
printf 'refresh / plain: %.2f   incremental / plain: %.2f (time ratios)\n' \
  "$(echo "$refresh / $plain_full" | bc -l)" "$(echo "$incremental / $plain_change" | bc -l)"
