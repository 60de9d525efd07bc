#!/usr/bin/env bash
# Export throughput and memory at scale: the flat catalogue export (one row per article ×
# vehicle) of the largest brand, streamed by `partscat serve`, side by side with PostgreSQL's
# `COPY (…) TO STDOUT` of the same rows, in one run on one machine.
#
#   bash benches/scale/export_vs_copy.sh [ARTICLES]    (default 1000000)
#
# Needs curl; PostgreSQL for the side-by-side half (Debian: apt-get install postgresql).
# Prints MB/s for both, the ratio, and the server's resident memory before, during and after.
set -euo pipefail
articles=${1:-1000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-export.XXXXXX)
server=
# shellcheck source=benches/scale/postgres.sh
source "$root/benches/scale/postgres.sh"
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  stop_postgres
  rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
"$bin" gen --articles "$articles" --out "$work/csv" >/dev/null
"$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
brand=$(tail -n +2 "$work/csv/articles.csv" | cut -d, -f1 | sort | uniq -c | sort -rn | head -n 1 | awk '{print $2}')
echo "catalogue: $articles articles; largest brand: $brand"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
key=pc_bench_key
"$bin" serve --data "$work/store" --demo --demo-key "$key" --listen "127.0.0.1:$port" >/dev/null 2>"$work/server.log" &
server=$!
until curl -fs "http://127.0.0.1:$port/ready" >/dev/null 2>&1; do sleep 0.2; done
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }

export_once() { # format → "bytes seconds peak_rss_kib"
  local url="http://127.0.0.1:$port/svc/exportCatalogue?brand_id=$brand&is_flat_export=true&provider=demo&api_key=$key$1"
  local peak=0 out
  curl -fs -o /dev/null -w '%{size_download} %{time_total}\n' "$url" >"$work/curl.out" &
  local client=$!
  while kill -0 "$client" 2>/dev/null; do
    r=$(rss); [ "$r" -gt "$peak" ] && peak=$r
    sleep 0.05
  done
  wait "$client"
  out=$(cat "$work/curl.out")
  echo "$out $peak"
}

# A first pass brings the brand into the store's cache, as PostgreSQL's tables are after their load.
export_once "" >/dev/null
before=$(rss)
read -r csv_bytes csv_secs csv_peak < <(export_once "&is_csv_export=true")
read -r json_bytes json_secs json_peak < <(export_once "")
after=$(rss)
csv_rate=$(echo "$csv_bytes / $csv_secs / 1000000" | bc -l)
json_rate=$(echo "$json_bytes / $json_secs / 1000000" | bc -l)
csv_rows=$(( $(curl -fs "http://127.0.0.1:$port/svc/exportCatalogue?brand_id=$brand&is_flat_export=true&is_csv_export=true&provider=demo&api_key=$key" | wc -l) - 1 ))
printf 'partscat flat CSV export: %d rows, %d MB in %.2f s = %.1f MB/s\n' "$csv_rows" $((csv_bytes / 1000000)) "$csv_secs" "$csv_rate"
printf 'partscat flat JSON export: %d MB in %.2f s = %.1f MB/s\n' $((json_bytes / 1000000)) "$json_secs" "$json_rate"
printf 'server RSS: %d MiB before, peak %d MiB during CSV, %d MiB during JSON, %d MiB after\n' \
  $((before / 1024)) $((csv_peak / 1024)) $((json_peak / 1024)) $((after / 1024))

if ! start_postgres 55433; then
  echo "PostgreSQL is not installed: no side-by-side figure"
  exit 0
fi
"${psql[@]}" <<'SQL'
CREATE TABLE brands (brand_id int PRIMARY KEY, name text);
CREATE TABLE genarts (genart_id int PRIMARY KEY, name text);
CREATE TABLE vehicles (ktype text PRIMARY KEY, make text, model text, type text, engine text, fuel text, kw int, hp int, ccm int, year_from text, year_to text);
CREATE TABLE articles (brand_id int, reference text, genart_id int, description text, status text, eans text, packaging_unit int, replaced_by text, PRIMARY KEY (brand_id, reference));
CREATE TABLE links (brand_id int, reference text, ktype text, position text, quantity int, notes text, PRIMARY KEY (brand_id, reference, ktype));
SQL
chmod -R a+r "$work/csv"
for t in brands genarts vehicles articles links; do
  echo "\\copy $t FROM '$work/csv/$t.csv' WITH (FORMAT csv, HEADER true)"
done | "${psql[@]}"
"${psql[@]}" -c "VACUUM ANALYZE"
query="COPY (SELECT a.brand_id, b.name, a.reference, a.genart_id, g.name, a.description, a.status,
  split_part(a.eans, '|', 1), l.ktype, v.make, v.model, v.type, v.engine, v.fuel, v.kw, v.hp, v.ccm,
  v.year_from, v.year_to, l.position, l.quantity
  FROM articles a JOIN brands b USING (brand_id) JOIN genarts g USING (genart_id)
  LEFT JOIN links l ON l.brand_id = a.brand_id AND l.reference = a.reference
  LEFT JOIN vehicles v ON v.ktype = l.ktype
  WHERE a.brand_id = $brand ORDER BY a.brand_id, a.reference) TO STDOUT WITH (FORMAT csv, HEADER true)"
start=$(date +%s.%N)
pg_bytes=$("${psql[@]}" -c "$query" | wc -c)
end=$(date +%s.%N)
pg_secs=$(echo "$end - $start" | bc -l)
pg_rate=$(echo "$pg_bytes / $pg_secs / 1000000" | bc -l)
printf 'PostgreSQL COPY TO STDOUT of the same rows: %d MB in %.2f s = %.1f MB/s\n' $((pg_bytes / 1000000)) "$pg_secs" "$pg_rate"
printf 'ratio: the partscat CSV export streams at %.2fx the MB/s of COPY\n' "$(echo "$csv_rate / $pg_rate" | bc -l)"
