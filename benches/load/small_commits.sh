#!/usr/bin/env bash
# What a small change costs beside a full load of the same catalogue, in one run:
#   1. a generated catalogue imported into an empty store (the full load) and its size;
#   2. a mixed change of 1,000 rows imported (250 prices changed, 250 links withdrawn with
#      `remove` rows, 250 articles added, 125 cross-references replaced by 125 others), and
#      the same change's files imported once more (every row unchanged: the fixed cost of
#      opening the store and reading the files);
#   3. COMMITS more such changes (each its own rows), then the store's size, before and after
#      the compaction a server started on it makes by itself, beside a store made by
#      importing the same catalogue (the store's full delivery) afresh.
#
#   bash benches/load/small_commits.sh BINARY [ARTICLES] [COMMITS] [LINKS_PER_ARTICLE]
#   (defaults 1000000, 200, and the generator's own shape). COMMITS 0 stops after step 2;
#   then KEEP=DIR keeps the store and its files in DIR (for benches/load/cold_start.sh).
set -euo pipefail
bin=$(realpath "$1")
articles=${2:-1000000}
commits=${3:-200}
shape=()
[ -n "${4:-}" ] && shape=(--links-per-article "$4")
work=$(mktemp -d /tmp/partscat-commits.XXXXXX)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc -l; }
size() { du -sb "$1" | awk '{print $1}'; }

"$bin" gen --articles "$articles" "${shape[@]}" --out "$work/csv" >/dev/null
t=$(now)
"$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
full=$(since "$t")
loaded=$(size "$work/store")

# change ROUND DIR: 1,000 rows of the mixed change, taken from the catalogue's own rows at
# an offset of ROUND so each round changes other rows.
change() {
  python3 - "$work/csv" "$2" "$1" <<'EOF'
import csv, itertools, os, sys
src, out, round_ = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out, exist_ok=True)
def rows(name):
    f = open(f"{src}/{name}.csv", newline="")
    r = csv.reader(f)
    return next(r), r
def write(name, header, rows):
    with open(f"{out}/{name}.csv", "w", newline="") as o:
        w = csv.writer(o, lineterminator="\n")
        w.writerow(header + ["change"])
        w.writerows(rows)
def sample(name, count, step):
    with open(f"{src}/{name}.csv", newline="") as f:
        total = sum(1 for _ in f) - 1
    h, r = rows(name)
    start = round_ * 7919 % max(1, total - count * step)
    return h, list(itertools.islice(itertools.islice(r, start, None), 0, count * step, step))
h, picked = sample("prices", 250, 97)
a = h.index("amount")
write("prices", h, [p[:a] + ["%.2f" % (float(p[a]) + 1 + round_ / 100)] + p[a + 1:] + ["upsert"] for p in picked])
h, picked = sample("links", 250, 89)
write("links", h, [l + ["remove"] for l in picked])
h, picked = sample("articles", 250, 83)
ref, eans, replaced = h.index("reference"), h.index("eans"), h.index("replaced_by")
new = []
for p in picked:
    p = list(p)
    p[ref] += f" R{round_}"
    p[eans] = ""
    p[replaced] = ""
    new.append(p + ["upsert"])
write("articles", h, new)
h, picked = sample("crossrefs", 125, 71)
n = h.index("number")
write("crossrefs", h, [c + ["remove"] for c in picked]
      + [c[:n] + [c[n] + f"-{round_}"] + c[n + 1:] + ["upsert"] for c in picked])
EOF
}

change 0 "$work/change"
t=$(now)
"$bin" import --data "$work/store" "$work/change" >/dev/null 2>&1
small=$(since "$t")
t=$(now)
"$bin" import --data "$work/store" "$work/change" >/dev/null 2>&1
unchanged=$(since "$t")

if [ "$commits" = 0 ]; then
  # The change alone (a catalogue too large to run 200 of them on): no sizes after them.
  printf 'articles: %s %s\n' "$articles" "${shape[*]:-}"
  printf '%-52s %9.2f s\n' "full load" "$full"
  printf '%-52s %9.3f s  (%.2f %% of the full load)\n' "1,000-row mixed change, import" "$small" \
    "$(echo "100 * $small / $full" | bc -l)"
  printf '%-52s %9.3f s\n' "the same files again (all unchanged)" "$unchanged"
  printf '%-52s %9.1f MB\n' "store after the full load" "$(echo "$loaded / 1000000" | bc -l)"
  if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP" && mv "$work/store" "$work/csv" "$KEEP/"
  fi
  exit 0
fi

total=0
for round in $(seq 1 "$commits"); do
  change "$round" "$work/round"
  t=$(now)
  "$bin" import --data "$work/store" "$work/round" >/dev/null 2>&1
  total=$(echo "$total + $(since "$t")" | bc -l)
  rm -rf "$work/round"
done
after=$(size "$work/store")
"$bin" check --data "$work/store" | tail -3

# The running server compacts a store that grew past what it was at its first pause in
# commits (a minute after its start here): wait for it, up to 10 minutes.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PARTSCAT_LOG=info "$bin" serve --data "$work/store" --listen "127.0.0.1:$port" \
  >/dev/null 2>"$work/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
t=$(now)
until grep -q "compacted the store" "$work/serve.log"; do
  if (($(echo "$(since "$t") > 600" | bc -l))); then
    echo "the server did not compact the store within 10 minutes" >&2
    exit 1
  fi
  sleep 1
done
waited=$(since "$t")
kill "$server"
wait "$server" || true
compacted=$(size "$work/store")

"$bin" deliveries --data "$work/store" --out "$work/delivered" >/dev/null
fresh_from=$(find "$work/delivered" -maxdepth 1 -type d -name 'full-*' | head -1)
"$bin" import --data "$work/fresh" "$fresh_from" >/dev/null 2>&1
fresh=$(size "$work/fresh")

printf 'articles: %s %s\n' "$articles" "${shape[*]:-}"
printf '%-52s %9.2f s\n' "full load" "$full"
printf '%-52s %9.3f s  (%.2f %% of the full load)\n' "1,000-row mixed change, import" "$small" \
  "$(echo "100 * $small / $full" | bc -l)"
printf '%-52s %9.3f s\n' "the same files again (all unchanged)" "$unchanged"
printf '%-52s %9.3f s\n' "mean of $commits more changes" "$(echo "$total / $commits" | bc -l)"
printf '%-52s %9.1f MB\n' "store after the full load" "$(echo "$loaded / 1000000" | bc -l)"
printf '%-52s %9.1f MB\n' "store after $((commits + 1)) changes" "$(echo "$after / 1000000" | bc -l)"
printf '%-52s %9.1f MB  (%.0f s after its start)\n' "the same store, compacted by the running server" \
  "$(echo "$compacted / 1000000" | bc -l)" "$waited"
printf '%-52s %9.1f MB   (after / fresh: %.2f; compacted / fresh: %.2f)\n' \
  "the same catalogue imported afresh" "$(echo "$fresh / 1000000" | bc -l)" \
  "$(echo "$after / $fresh" | bc -l)" "$(echo "$compacted / $fresh" | bc -l)"
