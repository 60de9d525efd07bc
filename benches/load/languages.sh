#!/usr/bin/env bash
# What languages cost, side by side in one run on a generated catalogue:
#   - the import of the catalogue with its texts in German, French and (in part) Bulgarian
#     (`gen --translated`) against the same catalogue in English alone, and the store's size
#     after each, beside the size of the added texts compressed (gzip -9);
#   - lookups by reference (`getCrossRefsOrArticle?mainref`, wrk -t2 -c64 over many keys) in
#     the default language, in German, and in Bulgarian (its descriptions and criteria fall
#     back to English), with the answer cache on and off, ROUNDS rounds; each language's cost
#     is the server's processor time per answer over the default language's within one
#     round (the three asked in turn, each round starting with another), and the default
#     language's requests/s over its own; the median of the rounds.
#
#   bash benches/load/languages.sh [ARTICLES] [SECONDS] [ROUNDS]   (defaults 100000, 3, 9)
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#
# Needs wrk.
set -euo pipefail
articles=${1:-100000}
seconds=${2:-3}
rounds=${3:-9}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-languages.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

"$bin" gen --articles "$articles" --out "$work/csv" >/dev/null
"$bin" gen --articles "$articles" --translated --out "$work/csv-translated" >/dev/null
# Seconds of an import of DIR into an empty STORE.
import_seconds() {
  local started
  started=$(date +%s.%N)
  "$bin" import --data "$2" "$1" >/dev/null 2>&1
  echo "$(date +%s.%N) - $started" | bc -l
}
one=$(import_seconds "$work/csv" "$work/store")
four=$(import_seconds "$work/csv-translated" "$work/store-translated")
size() { du -sb "$1" | cut -f1; }
texts=$(cat "$work/csv-translated/texts.csv" "$work/csv-translated/article_texts.csv" | gzip -9 | wc -c)
rows=$(($(wc -l <"$work/csv-translated/article_texts.csv") + $(wc -l <"$work/csv-translated/texts.csv") - 2))
printf 'catalogue: %s articles; %s rows of texts in other languages (%s bytes gzip -9)\n' \
  "$articles" "$rows" "$texts"
printf '%-44s %10s %14s\n' "" "import s" "store bytes"
printf '%-44s %10.2f %14s\n' "English alone" "$one" "$(size "$work/store")"
printf '%-44s %10.2f %14s\n' "English, German, French, Bulgarian in part" "$four" "$(size "$work/store-translated")"
printf 'import ratio %.2fx; the store grew %s bytes for %s bytes of compressed texts\n' \
  "$(echo "$four / $one" | bc -l)" "$(($(size "$work/store-translated") - $(size "$work/store")))" "$texts"

# Lookups: the translated store served twice (answer cache on and off), in its four languages.
mv "$work/csv" "$work/csv-plain" && mv "$work/csv-translated" "$work/csv"
cp -r "$work/store-translated" "$work/store-uncached"
start_server "$work/store-translated" 1024
cached=$port
declare -A pid_of
pid_of[$port]=${servers[-1]}
start_server "$work/store-uncached" 0
uncached=$port
pid_of[$port]=${servers[-1]}
lookup_paths
for lang in en de bg; do
  sed "s/\$/\&lang=$lang/" "$work/mainref.paths" >"$work/mainref-$lang.paths"
done
for lang in en de bg; do rate "mainref-$lang" "$cached" >/dev/null; rate "mainref-$lang" "$uncached" >/dev/null; done
# One wrk run: the server's processor time (user and system) per answer in microseconds (the
# cost itself, which the share of the two cores wrk takes does not move), and requests/s.
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
cost_and_rate() { # route, port
  local before after out
  before=$(ticks "${pid_of[$2]}")
  out=$(PATHS="$work/$1.paths" wrk -t2 -c64 -d"${seconds}s" -s "$root/benches/load/pick_path.lua" \
    "http://127.0.0.1:$2" 2>&1)
  after=$(ticks "${pid_of[$2]}")
  if echo "$out" | grep -q "Non-2xx"; then
    echo "$1: some answers were not 2xx:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "$(echo "($after - $before) * 1000000 / $hz / $(echo "$out" | awk '/requests in/ {print $1}')" | bc -l)" \
    "$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
}
# Each round asks the three languages one after the other on each server, starting with a
# different one each round (en de bg, de bg en, bg en de), so that no language always runs
# first or last on a machine whose pace drifts; a language's cost is its processor time per
# answer over English's within the same round (and, as before, English's rate over its own),
# and the median of the rounds is printed.
declare -A costs rate_costs
langs=(en de bg)
for r in $(seq "$rounds"); do
  for cache in on off; do
    server=$cached
    [ "$cache" = off ] && server=$uncached
    declare -A cpu=() rates=()
    for i in 0 1 2; do
      lang=${langs[$(((r + i) % 3))]}
      measured=$(cost_and_rate "mainref-$lang" "$server")
      read -r "cpu[$lang]" "rates[$lang]" <<<"$measured"
    done
    for lang in de bg; do
      costs[$lang,$cache]+="$(echo "${cpu[$lang]} / ${cpu[en]}" | bc -l) "
      rate_costs[$lang,$cache]+="$(echo "${rates[en]} / ${rates[$lang]}" | bc -l) "
    done
  done
done
spread() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {printf "%5.2fx (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
printf '%-44s %-22s %-22s\n' "cost beside English, $rounds rounds" "answer cache on" "answer cache off"
for measure in "processor time per answer:costs" "English's requests/s over its own:rate_costs"; do
  echo "${measure%%:*}"
  declare -n table=${measure##*:}
  printf '%-44s %-22s %-22s\n' "  lookup in German" "$(echo "${table[de,on]}" | spread)" "$(echo "${table[de,off]}" | spread)"
  printf '%-44s %-22s %-22s\n' "  lookup in Bulgarian (falling back)" "$(echo "${table[bg,on]}" | spread)" "$(echo "${table[bg,off]}" | spread)"
done
