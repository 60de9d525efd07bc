#!/usr/bin/env bash
# Import throughput and store size at scale, side by side with PostgreSQL's COPY into indexed
# tables of the same rows, in one run on one machine.
#
#   bash benches/scale/import_vs_copy.sh [ARTICLES]    (default 1000000)
#   ONLY=copy bash benches/scale/import_vs_copy.sh …  (the PostgreSQL half alone)
#   BIN=target/release/partscat bash …               (a binary already built, not `dist`)
#
# Needs PostgreSQL (Debian: apt-get install postgresql); skips that half if it is missing.
# Prints rows/s and sizes for both, and the ratios.
set -euo pipefail
articles=${1:-1000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"

"$bin" gen --articles "$articles" --out "$work/csv" >/dev/null
rows=0
for f in "$work"/csv/*.csv; do rows=$((rows + $(wc -l <"$f") - 1)); done
csv_bytes=$(du -sb "$work/csv" | cut -f1)
echo "catalogue: $articles articles, $rows rows, $((csv_bytes / 1048576)) MiB of CSV"

if [ "${ONLY:-}" = copy ]; then
  pc_rate=0 store_bytes=0
else
start=$(date +%s.%N)
/usr/bin/time -f %M -o "$work/rss" "$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
end=$(date +%s.%N)
pc_secs=$(echo "$end - $start" | bc -l)
pc_rate=$(echo "$rows / $pc_secs" | bc -l)
store_bytes=$(du -sb "$work/store" | cut -f1)
printf 'partscat import: %.1f s, %.0f rows/s, peak RSS %d MiB, store %d MiB (%.2fx the CSV)\n' \
  "$pc_secs" "$pc_rate" $(($(cat "$work/rss") / 1024)) $((store_bytes / 1048576)) \
  "$(echo "$store_bytes / $csv_bytes" | bc -l)"
start=$(date +%s.%N)
"$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
end=$(date +%s.%N)
again_secs=$(echo "$end - $start" | bc -l)
printf 'partscat re-import of the same files: %.2f s (%.1f %% of the first), store %d MiB\n' \
  "$again_secs" "$(echo "100 * $again_secs / $pc_secs" | bc -l)" $(($(du -sb "$work/store" | cut -f1) / 1048576))
"$bin" check --data "$work/store" | tail -n 1
fi

# shellcheck source=benches/scale/postgres.sh
source "$root/benches/scale/postgres.sh"
trap 'stop_postgres; rm -rf "$work"' EXIT
if ! start_postgres 55432; then
  echo "PostgreSQL is not installed: no side-by-side figure"
  exit 0
fi

"${psql[@]}" <<'SQL'
CREATE FUNCTION norm(text) RETURNS text IMMUTABLE LANGUAGE sql AS $$ SELECT regexp_replace(upper($1), '[^A-Z0-9]', '', 'g') $$;
CREATE TABLE brands (brand_id int PRIMARY KEY, name text);
CREATE TABLE manufacturers (manufacturer_id int PRIMARY KEY, name text, kind text);
CREATE TABLE genarts (genart_id int PRIMARY KEY, name text);
CREATE TABLE vehicles (ktype text PRIMARY KEY, make text, model text, type text, engine text, fuel text, kw int, hp int, ccm int, year_from text, year_to text);
CREATE TABLE articles (brand_id int, reference text, genart_id int, description text, status text, eans text, packaging_unit int, replaced_by text, PRIMARY KEY (brand_id, reference));
CREATE INDEX ON articles (norm(reference));
CREATE TABLE criteria (brand_id int, reference text, name text, value text, unit text, PRIMARY KEY (brand_id, reference, name));
CREATE TABLE crossrefs (brand_id int, reference text, kind text, manufacturer_id int, number text);
CREATE INDEX ON crossrefs (brand_id, reference);
CREATE INDEX ON crossrefs (norm(number));
CREATE TABLE competitor_refs (brand_id int, reference text, manufacturer_id int, competitor_reference text);
CREATE INDEX ON competitor_refs (norm(competitor_reference));
CREATE INDEX ON competitor_refs (manufacturer_id, norm(competitor_reference));
CREATE TABLE links (brand_id int, reference text, ktype text, position text, quantity int, notes text, PRIMARY KEY (brand_id, reference, ktype));
CREATE INDEX ON links (ktype);
CREATE TABLE prices (brand_id int, reference text, price_type text, currency text, amount numeric, valid_from date, valid_to date);
CREATE INDEX ON prices (brand_id, reference);
CREATE TABLE kits (kit_brand_id int, kit_reference text, ktype text, component_brand_id int, component_reference text, quantity int);
CREATE INDEX ON kits (ktype);
CREATE TABLE media (brand_id int, reference text, kind text, set text, position int, uri text, description text);
CREATE INDEX ON media (brand_id, reference);
SQL

chmod -R a+r "$work/csv"
start=$(date +%s.%N)
{
  echo "BEGIN;"
  for t in brands manufacturers genarts vehicles articles criteria crossrefs competitor_refs links prices kits media; do
    echo "\\copy $t FROM '$work/csv/$t.csv' WITH (FORMAT csv, HEADER true)"
  done
  echo "COMMIT;"
} | "${psql[@]}"
end=$(date +%s.%N)
pg_secs=$(echo "$end - $start" | bc -l)
pg_rate=$(echo "$rows / $pg_secs" | bc -l)
pg_bytes=$("${psql[@]}" -At -c "SELECT pg_database_size('postgres')")
printf 'PostgreSQL COPY: %.1f s, %.0f rows/s, database %d MiB (%.2fx the CSV)\n' \
  "$pg_secs" "$pg_rate" $((pg_bytes / 1048576)) "$(echo "$pg_bytes / $csv_bytes" | bc -l)"
printf 'ratio: partscat imports at %.2fx the rows/s of COPY; its store is %.2fx the size of the database\n' \
  "$(echo "$pc_rate / $pg_rate" | bc -l)" "$(echo "$store_bytes / $pg_bytes" | bc -l)"
