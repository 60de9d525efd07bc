#!/usr/bin/env bash
# The vehicle path at a maker's size, beside PostgreSQL holding the same rows with indexes, in
# one run: the assembly-group facets of the vehicle with the most linked articles, the first
# page of one of its categories, and the model-series counts of the biggest make (by `/svc`
# and by `getLinkageTargets`' facets). For each,
# p99 with one client (wrk -t1 -c1) and requests/s with 64 connections (wrk -t2 -c64), and
# PostgreSQL's the same way (pgbench -M prepared, 1 client, then -c 32 -j 2). Both are reached
# over TCP on loopback, as a shop's server reaches either.
#
#   bash benches/load/vehicle_path_vs_postgres.sh [ARTICLES] [SECONDS]   (defaults 1000000, 10)
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#
# partscat's answer cache is off: every request reads the store. Needs wrk, pgbench and
# PostgreSQL's server binaries (/usr/lib/postgresql/*/bin).
set -euo pipefail
articles=${1:-1000000}
seconds=${2:-10}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-vehicle-path.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
# shellcheck source=benches/scale/postgres.sh
source "$root/benches/scale/postgres.sh"
trap 'stop_postgres; stop_servers' EXIT

"$bin" gen --articles "$articles" --links-per-article 8 --out "$work/csv" >/dev/null
"$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
start_server "$work/store" 0

start_postgres 55437 127.0.0.1 || { echo "PostgreSQL is missing"; exit 1; }
chmod -R a+rX "$work/csv"
"${psql[@]}" <<SQL
CREATE TABLE articles(brand_id int, reference text, genart_id int, description text,
  status text, eans text, packaging_unit int, replaced_by text);
CREATE TABLE links(brand_id int, reference text, ktype text, position text, quantity int,
  notes text);
CREATE TABLE vehicles(ktype text, make text, model text, type text, engine text, fuel text,
  kw int, hp int, ccm int, year_from text, year_to text, model_series_id int,
  target_type text, body_style text, construction_type text, engine_kind text, kw_to int,
  hp_to int);
CREATE TABLE model_series(model_series_id int, manufacturer_id int, name text,
  year_from text, year_to text);
CREATE TABLE genart_groups(genart_id int, node_id int);
\copy articles FROM '$work/csv/articles.csv' CSV HEADER
\copy links FROM '$work/csv/links.csv' CSV HEADER
\copy vehicles FROM '$work/csv/vehicles.csv' CSV HEADER
\copy model_series FROM '$work/csv/model_series.csv' CSV HEADER
\copy genart_groups FROM '$work/csv/genart_groups.csv' CSV HEADER
ALTER TABLE articles ADD PRIMARY KEY (brand_id, reference);
CREATE INDEX ON links (ktype, brand_id, reference);
CREATE INDEX ON vehicles (model_series_id);
CREATE INDEX ON model_series (manufacturer_id);
CREATE INDEX ON genart_groups (genart_id);
ANALYZE;
SQL
q() { "${psql[@]}" -At -c "$1"; }
ktype=$(q "SELECT ktype FROM links GROUP BY ktype ORDER BY count(*) DESC LIMIT 1")
maker=$(q "SELECT ms.manufacturer_id FROM vehicles v JOIN model_series ms USING (model_series_id)
  GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
node=$(q "SELECT g.node_id FROM links l JOIN articles a USING (brand_id, reference)
  JOIN genart_groups g USING (genart_id) WHERE l.ktype = '$ktype'
  GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
echo "catalogue: $articles articles, 8 links each; vehicle $ktype ($(q "SELECT count(*) FROM links WHERE ktype = '$ktype'") links), category $node, make $maker"

cat >"$work/facets.sql" <<SQL
SELECT g.node_id, count(*) FROM links l JOIN articles a USING (brand_id, reference)
  JOIN genart_groups g USING (genart_id) WHERE l.ktype = '$ktype' GROUP BY g.node_id;
SQL
cat >"$work/page.sql" <<SQL
SELECT a.brand_id, a.reference, a.genart_id, a.description, a.status FROM links l
  JOIN articles a USING (brand_id, reference) JOIN genart_groups g USING (genart_id)
  WHERE l.ktype = '$ktype' AND g.node_id = $node ORDER BY a.brand_id, a.reference LIMIT 25;
SQL
cat >"$work/series.sql" <<SQL
SELECT v.model_series_id, ms.name, count(*) FROM vehicles v JOIN model_series ms
  USING (model_series_id) WHERE ms.manufacturer_id = $maker GROUP BY 1, 2;
SQL
auth="provider=demo&api_key=$key"
declare -A paths=(
  [facets]="/svc/getAssemblyGroups/$ktype?$auth"
  [page]="/svc/getArticlesByKtype/$ktype?assembly_group=$node&limit=25&$auth"
  [series]="/svc/getModelSeries/$maker?$auth"
  [linkage]="/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key=$key"
)
# getLinkageTargets' model-series facets of the make, as a shop's model list asks for them.
echo "{\"getLinkageTargets\": {\"provider\": \"demo\", \"mfrIds\": [$maker], \"perPage\": 0, \"includeVehicleModelSeriesFacets\": true}}" >"$work/linkage.body"
cp "$work/series.sql" "$work/linkage.sql"

# p99 in ms with one client, and requests/s with 64 connections.
partscat_figures() {
  local url="http://127.0.0.1:$port${paths[$1]}" one many script=()
  if [ "$1" = linkage ]; then
    export BODIES="$work/linkage.body" PATH_TO="${paths[$1]}" CONTENT_TYPE=application/json
    script=(-s "$root/benches/load/post_body.lua")
  else
    curl -fs "$url" >/dev/null
  fi
  one=$(wrk -t1 -c1 -d"${seconds}s" --latency "${script[@]}" "$url" | awk '$1 == "99%" {print $2}')
  many=$(wrk -t2 -c64 -d"${seconds}s" "${script[@]}" "$url" | awk '/Requests\/sec/ {print $2}')
  echo "$one $many"
}
# The same from pgbench; its per-transaction log (microseconds, third column) gives the p99.
postgres_figures() {
  local bench=("${runas[@]}" "$pg_bin/pgbench" -h 127.0.0.1 -p 55437 -U postgres -n -M prepared)
  local logs="$work/pglog-$1" one many
  mkdir -p "$logs" && chmod 777 "$logs" && chmod a+r "$work/$1.sql"
  (cd "$logs" && "${bench[@]}" -c 1 -T "$seconds" -f "$work/$1.sql" --log --log-prefix="$logs/tx" >/dev/null 2>&1)
  one=$(cat "$logs"/tx.* | awk '{print $3 / 1000}' | sort -g \
    | awk '{v[NR]=$1} END {printf "%.2fms", v[int(NR*0.99)]}')
  many=$("${bench[@]}" -c 32 -j 2 -T "$seconds" -f "$work/$1.sql" | awk '/^tps/ {print $3}')
  echo "$one $many"
}

printf '%-44s %-12s %-12s %-12s %-12s %s\n' "question" "p99 partscat" "p99 postgres" \
  "req/s pc" "tps pg" "ratio"
for question in facets page series linkage; do
  read -r pc_one pc_many <<<"$(partscat_figures "$question")"
  read -r pg_one pg_many <<<"$(postgres_figures "$question")"
  printf '%-44s %-12s %-12s %-12.0f %-12.0f %.2fx\n' "$question" "$pc_one" "$pg_one" \
    "$pc_many" "$pg_many" "$(echo "$pc_many / $pg_many" | bc -l)"
done
