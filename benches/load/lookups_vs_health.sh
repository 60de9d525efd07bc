#!/usr/bin/env bash
# Requests/s of the lookups under wrk -t2 -c64 over many different keys, beside the same
# server's /health in the same run, on a generated catalogue: once with the answer cache
# large enough for every key (the steady state of a busy appliance), once with it off (every
# lookup read from the store), each on its own copy of the store.
#
#   bash benches/load/lookups_vs_health.sh [ARTICLES] [SECONDS] [ROUNDS]   (defaults 100000, 5, 5)
#
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#   SHAPE=crossref-heavy bash …           (a catalogue shape of benches/shapes.sh)
#
# Needs wrk (Debian: apt-get install wrk). Prints each lookup's requests/s as a ratio to
# /health's, measured round by round.
set -euo pipefail
articles=${1:-100000}
seconds=${2:-5}
rounds=${3:-5}
routes="mainref crossrefs reverse ktype ktypepage"
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-load.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
catalogue "$articles" "${SHAPE:-gen}"
cp -r "$work/store" "$work/store-uncached"
start_server "$work/store" 1024
cached=$port
start_server "$work/store-uncached" 0
uncached=$port

lookup_paths
echo "catalogue: $articles articles; $(wc -l <"$work/refs") references, $(wc -l <"$work/ktypes") Ktypes"

# Warm both stores' caches (and fill the answer cache) with one pass over each lookup. Then
# ROUNDS rounds, each measuring every lookup between two runs of /health; a lookup's ratio
# is to its round's /health (the mean of the two), and the median round is printed with the
# range, since the machine's speed drifts from minute to minute.
for p in $routes; do rate "$p" "$cached" >/dev/null; rate "$p" "$uncached" >/dev/null; done
declare -A ratios
healths=()
for _ in $(seq "$rounds"); do
  before=$(rate health "$cached")
  declare -A measured=()
  for p in $routes; do
    measured[$p,on]=$(rate "$p" "$cached")
    measured[$p,off]=$(rate "$p" "$uncached")
  done
  health=$(echo "($before + $(rate health "$cached")) / 2" | bc -l)
  healths+=("$health")
  for key in "${!measured[@]}"; do
    ratios[$key]+="$(echo "${measured[$key]} / $health" | bc -l) "
  done
done
# The median and the range of a list of numbers.
spread() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {printf "%5.2fx (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
printf '%-34s %s req/s\n' "/health (median round)" "$(printf '%s\n' "${healths[@]}" | sort -g | awk '{v[NR]=$1} END {printf "%.0f", v[int((NR+1)/2)]}')"
printf '%-34s %-22s %-22s\n' "ratio to /health, $rounds rounds" "answer cache on" "answer cache off"
for pair in "getCrossRefsOrArticle?mainref:mainref" "getCrossRefsOrArticle?crossrefs:crossrefs" \
  "crossrefs of an OE number:reverse" "getArticlesByKtype (whole list):ktype" \
  "getArticlesByKtype?limit=25:ktypepage"; do
  name=${pair%:*} p=${pair##*:}
  printf '%-34s %-22s %-22s\n' "$name" "$(echo "${ratios[$p,on]}" | spread)" "$(echo "${ratios[$p,off]}" | spread)"
done
