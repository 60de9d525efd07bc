#!/usr/bin/env bash
# The lookups of a part number beside PostgreSQL holding the same rows, in one run on a
# catalogue of any shape: an article by its reference (`getCrossRefsOrArticle?mainref`: the
# article, its brand and generic article's names, its cross numbers with their makers'
# names, prices, criteria and media), its cross-references (`?crossrefs` of a reference: its
# own cross numbers, and the articles that carry it as a cross number) and the articles of
# a cross number (`?crossrefs` of an OE or competitor number). PostgreSQL answers each with
# one prepared statement over the same rows, keys and indexes (pgbench -M prepared, one
# script per key, -c 32 -j 2), twice: the whole answer (the names joined, the article's
# rows gathered), and the rows alone (the lookup's index and table, nothing joined: the
# least a database does for it). partscat with wrk -t2 -c64 over the same keys, its answer
# cache off and on, beside its own /health (the two taken in turns); and the
# processor time each server and each client spends an answer (from /proc), since the two
# servers share the machine with clients of unlike cost. ROUNDS rounds; the median and the
# range.
#
# Both servers are reached over TCP on loopback, as a shop's server reaches either across
# the LAN. PostgreSQL's rows alone are also asked over its Unix socket, which skips TCP (on
# loopback about half of each side's processor time an answer): printed beside, not the
# comparison, since partscat's clients cannot take that path.
#
#   bash benches/load/lookups_vs_postgres.sh [ARTICLES] [SHAPE] [SECONDS] [ROUNDS]
#   (defaults 200000, crossref-heavy, 5, 3; SHAPE as in benches/shapes.sh)
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#
# Needs wrk, pgbench and PostgreSQL's server binaries (/usr/lib/postgresql/*/bin).
set -euo pipefail
articles=${1:-200000}
shape_name=${2:-crossref-heavy}
seconds=${3:-5}
rounds=${4:-3}
keys=100
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-lookups-pg.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
# shellcheck source=benches/scale/postgres.sh
source "$root/benches/scale/postgres.sh"
trap 'stop_postgres; stop_servers' EXIT

catalogue "$articles" "$shape_name"
cp -r "$work/store" "$work/store-cached"
start_server "$work/store" 0
uncached=$port
uncached_pid=${servers[-1]}
start_server "$work/store-cached" 1024
cached=$port

# The rows PostgreSQL loads, with the normalised numbers partscat derives itself, competitor
# numbers among the cross numbers as partscat keeps them; and the keys both are asked for:
# KEYS references and KEYS OE or competitor numbers, as written.
mkdir -p "$work/pgcsv"
python3 - "$work/csv" "$work/pgcsv" "$keys" <<'PY'
import csv, os, random, re, sys
src, out, keys = sys.argv[1], sys.argv[2], int(sys.argv[3])
norm = lambda s: re.sub(r"[^A-Z0-9]", "", s.upper())
def rows(name):
    path = os.path.join(src, name + ".csv")
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        r = csv.reader(f)
        next(r)
        return list(r)
def write(name, rows):
    with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
        csv.writer(f).writerows(rows)
articles = rows("articles")
write("articles", [r + [norm(r[1])] for r in articles])
cross = [r + [norm(r[4])] for r in rows("crossrefs")]
cross += [[b, ref, "competitor", m, n, norm(n)] for b, ref, m, n in rows("competitor_refs")]
write("crossrefs", cross)
for name in ("brands", "genarts", "manufacturers", "prices", "criteria", "media"):
    write(name, rows(name))
pick = random.Random(2026)
with open(os.path.join(out, "refs"), "w") as f:
    for r in pick.sample(articles, keys):
        print(r[1], file=f)
numbers = sorted({r[4] for r in cross if r[2] in ("oe", "competitor")})
with open(os.path.join(out, "numbers"), "w") as f:
    for n in pick.sample(numbers, min(keys, len(numbers))):
        print(n, file=f)
PY

start_postgres 55438 127.0.0.1 || { echo "PostgreSQL is missing"; exit 1; }
chmod -R a+rX "$work/pgcsv"
"${psql[@]}" <<SQL
CREATE TABLE brands (brand_id int, name text);
CREATE TABLE genarts (genart_id int, name text);
CREATE TABLE manufacturers (manufacturer_id int, name text, kind text);
CREATE TABLE articles (brand_id int, reference text, genart_id int, description text,
  status text, eans text, packaging_unit int, replaced_by text, reference_norm text);
CREATE TABLE crossrefs (brand_id int, reference text, kind text, manufacturer_id int,
  number text, number_norm text);
CREATE TABLE prices (brand_id int, reference text, price_type text, currency text,
  amount numeric, valid_from text, valid_to text);
CREATE TABLE criteria (brand_id int, reference text, name text, value text, unit text);
CREATE TABLE media (brand_id int, reference text, kind text, "set" text, position int,
  uri text, description text);
\copy brands FROM '$work/pgcsv/brands.csv' CSV
\copy genarts FROM '$work/pgcsv/genarts.csv' CSV
\copy manufacturers FROM '$work/pgcsv/manufacturers.csv' CSV
\copy articles FROM '$work/pgcsv/articles.csv' CSV
\copy crossrefs FROM '$work/pgcsv/crossrefs.csv' CSV
\copy prices FROM '$work/pgcsv/prices.csv' CSV
\copy criteria FROM '$work/pgcsv/criteria.csv' CSV
\copy media FROM '$work/pgcsv/media.csv' CSV
CREATE UNIQUE INDEX ON brands (brand_id);
CREATE UNIQUE INDEX ON genarts (genart_id);
CREATE UNIQUE INDEX ON manufacturers (manufacturer_id);
CREATE UNIQUE INDEX ON articles (brand_id, reference);
CREATE INDEX ON articles (reference_norm);
CREATE INDEX ON crossrefs (brand_id, reference);
CREATE INDEX ON crossrefs (number_norm);
CREATE INDEX ON prices (brand_id, reference);
CREATE INDEX ON criteria (brand_id, reference);
CREATE INDEX ON media (brand_id, reference);
ANALYZE;
SQL

# One pgbench script per key and lookup, with the key's normalised form as a literal.
sql_norm() { python3 -c 'import re, sys; print(re.sub(r"[^A-Z0-9]", "", sys.argv[1].upper()))' "$1"; }
crossrefs_sql() { # normalised number
  cat <<SQL
SELECT 'from_article', a.brand_id, b.name, a.reference, a.genart_id, g.name, c.kind, c.number,
  c.manufacturer_id, m.name
FROM articles a JOIN brands b USING (brand_id) JOIN genarts g USING (genart_id)
  JOIN crossrefs c USING (brand_id, reference)
  LEFT JOIN manufacturers m ON m.manufacturer_id = c.manufacturer_id
WHERE a.reference_norm = '$1'
UNION ALL
SELECT 'to_article', a.brand_id, b.name, a.reference, a.genart_id, g.name, c.kind, c.number,
  c.manufacturer_id, m.name
FROM crossrefs c JOIN articles a USING (brand_id, reference) JOIN brands b USING (brand_id)
  JOIN genarts g USING (genart_id) LEFT JOIN manufacturers m ON m.manufacturer_id = c.manufacturer_id
WHERE c.number_norm = '$1';
SQL
}
mainref_sql() { # normalised reference
  cat <<SQL
SELECT a.brand_id, b.name, a.reference, a.genart_id, g.name, a.description, a.status, a.eans,
  a.packaging_unit, a.replaced_by,
  (SELECT json_agg(json_build_array(c.kind, c.number, c.manufacturer_id, m.name))
     FROM crossrefs c LEFT JOIN manufacturers m ON m.manufacturer_id = c.manufacturer_id
     WHERE c.brand_id = a.brand_id AND c.reference = a.reference),
  (SELECT json_agg(json_build_array(p.price_type, p.currency, p.amount, p.valid_from, p.valid_to))
     FROM prices p WHERE p.brand_id = a.brand_id AND p.reference = a.reference),
  (SELECT json_agg(json_build_array(k.name, k.value, k.unit))
     FROM criteria k WHERE k.brand_id = a.brand_id AND k.reference = a.reference),
  (SELECT json_agg(json_build_array(d.kind, d."set", d.position, d.uri, d.description))
     FROM media d WHERE d.brand_id = a.brand_id AND d.reference = a.reference)
FROM articles a JOIN brands b USING (brand_id) JOIN genarts g USING (genart_id)
WHERE a.reference_norm = '$1';
SQL
}
# The rows alone: the article by its normalised reference; its cross numbers; the articles
# carrying a number.
plain_sql() { # lookup, normalised key
  case "$1" in
    mainref) echo "SELECT * FROM articles WHERE reference_norm = '$2';" ;;
    crossrefs) echo "SELECT c.* FROM articles a JOIN crossrefs c USING (brand_id, reference) WHERE a.reference_norm = '$2';" ;;
    reverse) echo "SELECT a.*, c.kind FROM crossrefs c JOIN articles a USING (brand_id, reference) WHERE c.number_norm = '$2';" ;;
  esac
}
auth="provider=demo&api_key=$key"
for route in mainref crossrefs reverse; do
  mkdir -p "$work/sql-$route" "$work/sql-plain-$route"
  : >"$work/$route.paths"
done
i=0
while read -r ref; do
  n=$(sql_norm "$ref")
  mainref_sql "$n" >"$work/sql-mainref/$i.sql"
  crossrefs_sql "$n" >"$work/sql-crossrefs/$i.sql"
  plain_sql mainref "$n" >"$work/sql-plain-mainref/$i.sql"
  plain_sql crossrefs "$n" >"$work/sql-plain-crossrefs/$i.sql"
  encoded=$(echo "$ref" | urlencode)
  echo "/svc/getCrossRefsOrArticle/$encoded?mainref&$auth" >>"$work/mainref.paths"
  echo "/svc/getCrossRefsOrArticle/$encoded?crossrefs&$auth" >>"$work/crossrefs.paths"
  i=$((i + 1))
done <"$work/pgcsv/refs"
i=0
while read -r number; do
  crossrefs_sql "$(sql_norm "$number")" >"$work/sql-reverse/$i.sql"
  plain_sql reverse "$(sql_norm "$number")" >"$work/sql-plain-reverse/$i.sql"
  echo "/svc/getCrossRefsOrArticle/$(echo "$number" | urlencode)?crossrefs&$auth" >>"$work/reverse.paths"
  i=$((i + 1))
done <"$work/pgcsv/numbers"
echo "/health" >"$work/health.paths"
chmod -R a+rX "$work"

# Transactions/s of pgbench over a lookup's scripts, one chosen at random per transaction,
# over TCP (or at HOST: the socket's directory for the Unix socket).
tps() { # lookup [host]
  local scripts=()
  for f in "$work/sql-$1"/*.sql; do scripts+=(-f "$f"); done
  "${runas[@]}" "$pg_bin/pgbench" -h "${2:-127.0.0.1}" -p 55438 -U postgres -n -M prepared -c 32 -j 2 \
    -T "$seconds" "${scripts[@]}" | awk '/^tps/ {print $3}'
}

echo "catalogue: $articles articles, shape $shape_name; $keys keys a lookup"
for p in mainref crossrefs reverse; do
  rate "$p" "$uncached" >/dev/null
  rate "$p" "$cached" >/dev/null
  tps "$p" >/dev/null
  tps "plain-$p" >/dev/null
done
declare -A ratios
# The processor time each side spends on an answer, from /proc (clock ticks): the server
# process; PostgreSQL's backends (reaped by the postmaster when pgbench disconnects); the
# clients wrk and pgbench (reaped by this shell). Rates share two cores with the client, and
# wrk costs more a request than pgbench a query: this says what each server does itself.
tick_us=$((1000000 / $(getconf CLK_TCK)))
own() { awk '{print $14 + $15}' "/proc/$1/stat"; }
reaped() { awk '{print $16 + $17}' "/proc/$1/stat"; }
postmaster=$(head -n 1 "$pgdata/postmaster.pid")
per_answer() { # ticks before, after, answers/s
  echo "($2 - $1) * $tick_us / ($3 * $seconds)" | bc -l
}
# The cache on beside /health, taken in turns of one second, SECONDS turns each (the mean
# rates): the machine's speed drifts by up to half within a minute, and two measurements
# of five seconds one after the other saw different machines.
in_turns() { # lookup port → its rate and /health's
  local on=0 health=0
  for _ in $(seq "$seconds"); do
    health=$(echo "$health + $(seconds=1 rate health "$2")" | bc -l)
    on=$(echo "$on + $(seconds=1 rate "$1" "$2")" | bc -l)
  done
  echo "$(echo "$on / $seconds" | bc -l) $(echo "$health / $seconds" | bc -l)"
}
for _ in $(seq "$rounds"); do
  for p in mainref crossrefs reverse; do
    server0=$(own "$uncached_pid") client0=$(reaped $$)
    off=$(rate "$p" "$uncached")
    server1=$(own "$uncached_pid") client1=$(reaped $$)
    read -r on health <<<"$(in_turns "$p" "$cached")"
    pg=$(tps "$p")
    backends0=$(reaped "$postmaster") client2=$(reaped $$)
    plain=$(tps "plain-$p")
    sleep 0.5 # the backends reaped
    backends1=$(reaped "$postmaster") client3=$(reaped $$)
    unix=$(tps "plain-$p" "$pgdata")
    ours=$(per_answer "$server0" "$server1" "$off")
    theirs=$(per_answer "$backends0" "$backends1" "$plain")
    ratios[$p,work]+="$(echo "$theirs / $ours" | bc -l) "
    ratios[$p,us]+="$(printf '%.1f/%.1f/%.1f/%.1f' "$ours" \
      "$(per_answer "$client0" "$client1" "$off")" "$theirs" \
      "$(per_answer "$client2" "$client3" "$plain")") "
    ratios[$p,pg]+="$(echo "$off / $pg" | bc -l) "
    ratios[$p,plain]+="$(echo "$off / $plain" | bc -l) "
    ratios[$p,unix]+="$(echo "$off / $unix" | bc -l) "
    ratios[$p,health]+="$(echo "$on / $health" | bc -l) "
    ratios[$p,rates]+="$(printf '%.0f/%.0f/%.0f/%.0f/%.0f/%.0f' "$off" "$pg" "$plain" "$on" "$health" "$unix") "
  done
done
spread() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {printf "%5.2fx (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
printf '%-34s %-22s %-22s %-22s %-22s\n' "lookup, $rounds rounds" "cache off ÷ PG answer" \
  "cache off ÷ PG rows" "cache on ÷ /health" "PG rows' work ÷ ours"
for pair in "article by reference (mainref):mainref" "its cross-references:crossrefs" \
  "articles by a cross number:reverse"; do
  name=${pair%:*} p=${pair##*:}
  printf '%-34s %-22s %-22s %-22s %-22s\n' "$name" "$(echo "${ratios[$p,pg]}" | spread)" \
    "$(echo "${ratios[$p,plain]}" | spread)" "$(echo "${ratios[$p,health]}" | spread)" \
    "$(echo "${ratios[$p,work]}" | spread)"
done
echo
echo "beside: cache off ÷ PG rows over its Unix socket"
for p in mainref crossrefs reverse; do echo "  $p: $(echo "${ratios[$p,unix]}" | spread)"; done
echo
echo "each round: partscat cache off / PG answer tps / PG rows tps / partscat cache on / /health / PG rows tps over the Unix socket"
for p in mainref crossrefs reverse; do echo "  $p: ${ratios[$p,rates]}"; done
echo "processor time an answer, µs: partscat (cache off) / wrk / PG backends (rows alone) / pgbench"
for p in mainref crossrefs reverse; do echo "  $p: ${ratios[$p,us]}"; done
