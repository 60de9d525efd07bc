#!/usr/bin/env bash
# A full import beside the two anchors of issue 27, in one run on one machine: SQLite (journal
# off, one transaction per file, indexes after) and PostgreSQL (COPY into tables created in the
# same transaction, wal_level=minimal, indexes after, ANALYZE). Each is timed until its
# catalogue can be queried; sizes are what each leaves on disk.
#
#   bash benches/scale/anchors.sh [ARTICLES] [SHAPE]   (defaults 200000, link-heavy)
#   SHAPE: a shape of benches/shapes.sh (gen, link-heavy, crossref-heavy, a number of links
#   an article, or gen's own flags); 0 is `gen`'s own shape.
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#   CSV=DIR bash …                      (a catalogue already generated)
#
# The anchors load the same rows plus the normalised numbers partscat derives itself
# (reference, OE/trade number, competitor number: upper case, letters and digits only), made
# beforehand and not timed. Needs python3 and sqlite3; PostgreSQL is skipped when missing.
set -euo pipefail
articles=${1:-200000}
shape_name=${2:-link-heavy}
[ "$shape_name" = 0 ] && shape_name=gen
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-anchors.XXXXXX)
trap 'rm -rf "$work"' EXIT

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/shapes.sh
source "$root/benches/shapes.sh"

csv=${CSV:-$work/csv}
if [ -z "${CSV:-}" ]; then
  shape_flags "$shape_name"
  "$bin" gen --articles "$articles" "${shape[@]}" --out "$csv" >/dev/null
fi
rows=0
for f in "$csv"/*.csv; do rows=$((rows + $(wc -l <"$f") - 1)); done
csv_bytes=$(du -sb "$csv" | cut -f1)
echo "catalogue: $rows rows, $((csv_bytes / 1048576)) MiB of CSV ($(basename "$csv"))"

seconds_since() { echo "$(date +%s.%N) - $1" | bc -l; }

# partscat, with its phases from its debug log: each file staged, the staged rows compared
# and written, the commit (the indexes, built two at a time, and the pages written).
start=$(date +%s.%N)
PARTSCAT_LOG=partscat=debug /usr/bin/time -f %M -o "$work/rss" "$bin" import --data "$work/store" \
  "$csv" >/dev/null 2>"$work/import.log"
pc_secs=$(seconds_since "$start")
pc_bytes=$(du -sb "$work/store" | cut -f1)
printf 'partscat: %.2f s, peak RSS %d MiB, store %.1f MB\n' "$pc_secs" \
  $(($(cat "$work/rss") / 1024)) "$(echo "$pc_bytes / 1000000" | bc -l)"
python3 - "$work/import.log" "$pc_secs" <<'PY'
import re, sys
units = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
def secs(text):
    m = re.match(r"([0-9.]+)(ns|µs|ms|s)$", text)
    return float(m.group(1)) * units[m.group(2)]
steps = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    took = re.search(r" took=(\S+)", line)
    if not took:
        continue
    what = re.search(r'(?:file|index)="([^"]+)"', line)
    label = re.sub(r"\s*(file|index|took)=\S+", "", line.split(": ", 1)[-1]).strip()
    if what:
        label = f"{label} {what.group(1).rsplit('/', 1)[-1]}"
    steps.append((label, secs(took.group(1))))
accounted = sum(t for l, t in steps if l.startswith(("file staged", "staged rows", "committed")))
for label, t in steps:
    if t >= 0.01:
        print(f"  {label:<48} {t:6.2f} s")
print(f"  {'the rest (opening, reading, closing the store)':<48} {float(sys.argv[2]) - accounted:6.2f} s")
PY

# The anchors' files: the same rows with their normalised numbers appended.
mkdir -p "$work/anchor"
python3 - "$csv" "$work/anchor" <<'PY'
import csv, os, re, sys
src, out = sys.argv[1], sys.argv[2]
norm = lambda s: re.sub(r"[^A-Z0-9]", "", s.upper())
extra = {"articles": ["reference"], "crossrefs": ["number"], "competitor_refs": ["competitor_reference"]}
for name in sorted(os.listdir(src)):
    table = name[:-4]
    with open(os.path.join(src, name), newline="") as i, open(os.path.join(out, name), "w", newline="") as o:
        r, w = csv.reader(i), csv.writer(o)
        head = next(r)
        cols = [head.index(c) for c in extra.get(table, [])]
        w.writerow(head + [head[c] + "_norm" for c in cols])
        for row in r:
            w.writerow(row + [norm(row[c]) for c in cols])
PY
anchor_bytes=$(du -sb "$work/anchor" | cut -f1)
echo "anchor files: $((anchor_bytes / 1048576)) MiB of CSV with the normalised numbers"
tables=(brands manufacturers genarts model_series assembly_groups genart_groups vehicles plates articles criteria crossrefs competitor_refs links prices kits media)

create_tables() { # $1: the type of a decimal amount
  cat <<SQL
CREATE TABLE brands (brand_id int, name text);
CREATE TABLE manufacturers (manufacturer_id int, name text, kind text);
CREATE TABLE genarts (genart_id int, name text);
CREATE TABLE model_series (model_series_id int, manufacturer_id int, name text, year_from text, year_to text);
CREATE TABLE assembly_groups (node_id int, parent_id int, target_type text, name text, sort int);
CREATE TABLE genart_groups (genart_id int, node_id int);
CREATE TABLE vehicles (ktype int, make text, model text, type text, engine text, fuel text, kw int, hp int, ccm int, year_from text, year_to text, model_series_id int, target_type text, body_style text, construction_type text, engine_kind text, kw_to int, hp_to int);
CREATE TABLE plates (country text, plate text, ktype int, key_system text);
CREATE TABLE articles (brand_id int, reference text, genart_id int, description text, status text, eans text, packaging_unit int, replaced_by text, reference_norm text);
CREATE TABLE criteria (brand_id int, reference text, name text, value text, unit text);
CREATE TABLE crossrefs (brand_id int, reference text, kind text, manufacturer_id int, number text, number_norm text);
CREATE TABLE competitor_refs (brand_id int, reference text, manufacturer_id int, competitor_reference text, competitor_reference_norm text);
CREATE TABLE links (brand_id int, reference text, ktype int, position text, quantity text, notes text);
CREATE TABLE prices (brand_id int, reference text, price_type text, currency text, amount $1, valid_from text, valid_to text);
CREATE TABLE kits (kit_brand_id int, kit_reference text, ktype text, component_brand_id int, component_reference text, quantity int);
CREATE TABLE media (brand_id int, reference text, kind text, "set" text, position int, uri text, description text);
SQL
}
# The lookups partscat answers, as indexes.
create_indexes() {
  cat <<'SQL'
CREATE UNIQUE INDEX brands_pk ON brands (brand_id);
CREATE UNIQUE INDEX manufacturers_pk ON manufacturers (manufacturer_id);
CREATE UNIQUE INDEX genarts_pk ON genarts (genart_id);
CREATE UNIQUE INDEX vehicles_pk ON vehicles (ktype);
CREATE INDEX plates_plate ON plates (country, plate);
CREATE UNIQUE INDEX articles_pk ON articles (brand_id, reference);
CREATE INDEX articles_norm ON articles (reference_norm);
CREATE INDEX criteria_article ON criteria (brand_id, reference);
CREATE INDEX crossrefs_article ON crossrefs (brand_id, reference);
CREATE INDEX crossrefs_norm ON crossrefs (number_norm);
CREATE INDEX competitor_article ON competitor_refs (brand_id, reference);
CREATE INDEX competitor_norm ON competitor_refs (competitor_reference_norm);
CREATE INDEX links_article ON links (brand_id, reference, ktype);
CREATE INDEX links_ktype ON links (ktype);
CREATE INDEX prices_article ON prices (brand_id, reference);
CREATE INDEX kits_ktype ON kits (ktype);
CREATE INDEX kits_kit ON kits (kit_brand_id, kit_reference);
CREATE INDEX media_article ON media (brand_id, reference);
SQL
}

# SQLite
start=$(date +%s.%N)
{
  echo "PRAGMA journal_mode=OFF;"
  echo "PRAGMA synchronous=OFF;"
  create_tables real
  echo ".mode csv"
  for t in "${tables[@]}"; do
    echo "BEGIN;"
    if [ -f "$work/anchor/$t.csv" ]; then echo ".import --skip 1 $work/anchor/$t.csv $t"; fi
    echo "COMMIT;"
  done
  echo "BEGIN;"
  create_indexes
  echo "COMMIT;"
} | sqlite3 "$work/sqlite.db" >/dev/null
sq_secs=$(seconds_since "$start")
sq_bytes=$(stat -c %s "$work/sqlite.db")
printf 'SQLite %s: %.2f s, file %.1f MB\n' "$(sqlite3 --version | cut -d' ' -f1)" "$sq_secs" \
  "$(echo "$sq_bytes / 1000000" | bc -l)"

# PostgreSQL
pg_secs=""
# shellcheck source=benches/scale/postgres.sh
source "$root/benches/scale/postgres.sh"
trap 'stop_postgres; rm -rf "$work"' EXIT
if PG_OPTIONS="-c wal_level=minimal -c max_wal_senders=0 -c maintenance_work_mem=256MB" \
  start_postgres 55433; then
  chmod -R a+rX "$work/anchor"
  start=$(date +%s.%N)
  {
    echo "\\timing on"
    echo "BEGIN;"
    create_tables numeric
    for t in "${tables[@]}"; do
      [ -f "$work/anchor/$t.csv" ] || continue
      echo "\\echo step copy $t"
      echo "\\copy $t FROM '$work/anchor/$t.csv' WITH (FORMAT csv, HEADER true)"
    done
    create_indexes | sed -E 's/^CREATE (UNIQUE )?INDEX ([a-z_]+) .*/\\echo step index \2\n&/'
    echo "\\echo step commit"
    echo "COMMIT;"
    echo "\\echo step analyze"
    echo "ANALYZE;"
  } | "${psql[@]}" >"$work/pg.log"
  pg_secs=$(seconds_since "$start")
  # PostgreSQL's steps, as its own timing reports them.
  awk 'BEGIN {step = "create tables"} /^step / {sub(/^step /, ""); step = $0} /^Time: / {t[step] += $2} END {
    for (s in t) if (t[s] >= 10) printf "  %-48s %6.2f s\n", s, t[s] / 1000 }' "$work/pg.log" | sort
  pg_bytes=$("${psql[@]}" -At -c "SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace")
  printf 'PostgreSQL %s: %.2f s, tables and indexes %.1f MB\n' \
    "$("${psql[@]}" -At -c 'SHOW server_version' | cut -d' ' -f1)" "$pg_secs" \
    "$(echo "$pg_bytes / 1000000" | bc -l)"
else
  echo "PostgreSQL is not installed: no figure beside it"
fi

printf '\nrows/s: partscat %.0f; %.2fx SQLite' "$(echo "$rows / $pc_secs" | bc -l)" \
  "$(echo "$sq_secs / $pc_secs" | bc -l)"
[ -n "$pg_secs" ] && printf ', %.2fx PostgreSQL' "$(echo "$pg_secs / $pc_secs" | bc -l)"
printf '\nsize: partscat %.2fx SQLite' "$(echo "$pc_bytes / $sq_bytes" | bc -l)"
[ -n "$pg_secs" ] && printf ', %.2fx PostgreSQL' "$(echo "$pc_bytes / $pg_bytes" | bc -l)"
printf '; %.2fx its own CSV\n' "$(echo "$pc_bytes / $csv_bytes" | bc -l)"
