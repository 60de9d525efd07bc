#!/usr/bin/env bash
# Lookup latency while the catalogue takes a small change every 2 seconds, beside the same
# server idle, in one run: wrk -t2 -c16 --latency over getCrossRefsOrArticle (mainref, or the
# route ROUTE) for SECONDS a window. The answer cache is first warmed until it answers 99 % of
# the lookups; then an idle window and a busy one (a loop imports a change of 1,000 price rows,
# amounts moved, a different stretch of rows each time, through `importArticles` every 2
# seconds) are taken in turn, twice. Prints p50/p99 of each window, the busy windows' mean p99
# over the idle windows', and the commits' durations as the jobs report them.
#
#   bash benches/load/lookups_while_committing.sh BINARY [ARTICLES] [SECONDS]
#   (defaults 1000000, 30). Needs wrk. ANSWER_CACHE_MB=0 turns the answer cache off (every
#   lookup then reads the store). RATE=N holds the load near N requests/s (each of the 16
#   connections pauses between requests) instead of as many as the server answers.
#   DRY_RUN=true imports each change as a dry run: the same reading, checking and sealing,
#   nothing committed; the difference to a real run is what publishing a commit costs the
#   lookups. Prints the store's size before and after the busy runs too. ROUTE=crossrefs (or
#   ktypepage, any route of served.sh's lookup_paths) measures that route instead of mainref:
#   the committed prices are part of a mainref answer, not of a cross-reference answer.
#   PAIRS=N takes N idle and busy windows in turn (default 2): on a shared machine the p99 of
#   two idle windows a minute apart differs by a third, so short windows, many times, say more.
set -euo pipefail
bin=$(realpath "$1")
articles=${2:-1000000}
seconds=${3:-30}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-committing.XXXXXX)
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

catalogue "$articles"
start_server "$work/store" "${ANSWER_CACHE_MB:-}"
lookup_paths
base="http://127.0.0.1:$port"

route=${ROUTE:-mainref}
latency() { # label: wrk's p50 and p99 over the route's paths
  local out
  out=$(PATHS="$work/$route.paths" CONNECTIONS=16 wrk -t2 -c16 -d"${seconds}s" --latency \
    -s "$root/benches/load/pick_path.lua" "$base" 2>&1)
  if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; exit 1; fi
  echo "$out" | awk -v l="$1" '$1 == "50%" {p50 = $2} $1 == "99%" {p99 = $2}
    /Requests\/sec/ {rps = $2} END {printf "%-28s p50 %8s  p99 %8s  %9s req/s\n", l, p50, p99, rps}'
}

to_ms() { # wrk's "1.23ms" / "456.00us" / "1.2s" in milliseconds
  echo "$1" | awk '/us$/ {sub("us", ""); print $1 / 1000; next} /ms$/ {sub("ms", ""); print $1; next}
    /s$/ {sub("s", ""); print $1 * 1000}'
}

# change ROUND: 1,000 price rows of the catalogue, amounts moved, into the inbox.
change() {
  python3 - "$work/csv/prices.csv" "$work/store-inbox/prices-$1.csv" "$1" <<'EOF'
import csv, itertools, sys
src, out, round_ = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, newline="") as f:
    total = sum(1 for _ in f) - 1
with open(src, newline="") as f, open(out, "w", newline="") as o:
    r, w = csv.reader(f), csv.writer(o, lineterminator="\n")
    h = next(r)
    a = h.index("amount")
    w.writerow(h)
    start = round_ * 7919 % max(1, total - 1000 * 13)
    for p in itertools.islice(itertools.islice(r, start, None), 0, 1000 * 13, 13):
        p[a] = "%.2f" % (float(p[a]) + 0.01 * (round_ + 1))
        w.writerow(p)
EOF
}

# Every change file is written before anything is measured: the script's own work must not
# share the cores with the server while the lookups are timed.
mkdir -p "$work/store-inbox"
for round in $(seq 0 $(((seconds / 2 + 4) * ${PAIRS:-2}))); do change "$round"; done
# The answer cache's counters (hit, stale, missing) as "hit stale missing".
outcomes() {
  curl -fs "$base/metrics" | awk '/^partscat_answer_cache_lookups_total/ {
    split($1, l, "\""); n[l[2]] = $2 } END {printf "%d %d %d\n", n["hit"], n["stale"], n["missing"]}'
}
# What share of a window's lookups the cache answered, between two readings of `outcomes`.
hit_share() {
  echo "$1 $2" | awk '{h = $4 - $1; s = $5 - $2; m = $6 - $3; t = h + s + m
    printf "answer cache: %.1f %% hits, %d stale, %d missing\n", t ? 100 * h / t : 0, s, m}'
}
# Warm until the answer cache answers 99 % of a 5-second run (at most 12 runs): both kinds of
# window then start from the same cache, and the idle one is not measured filling it.
for _ in $(seq 12); do
  before=$(outcomes)
  PATHS="$work/$route.paths" wrk -t2 -c16 -d5s -s "$root/benches/load/pick_path.lua" "$base" >/dev/null
  share=$(hit_share "$before" "$(outcomes)" | awk '{print $3}')
  awk -v s="$share" 'BEGIN {exit !(s >= 99)}' && break
done

# The loop that commits: the change files in turn, one import every 2 seconds, until the file
# `stop` appears; it never stops mid-import.
committing() {
  local job round
  round=$(cat "$work/round" 2>/dev/null || echo 0)
  while [ -f "$work/store-inbox/prices-$round.csv" ] && [ ! -f "$work/stop" ]; do
    job=$(curl -fs "$base/svc/importArticles?fileId=prices-$round.csv&importType=prices&dryRun=${DRY_RUN:-false}&provider=demo&api_key=$key" \
      | sed -n 's/.*"statusUrl":"\([^"]*\)".*/\1/p')
    while [ -n "$job" ]; do
      state=$(curl -fs "$base$job?provider=demo&api_key=$key")
      if echo "$state" | grep -q '"state":"\(succeeded\|failed\)"'; then
        echo "$state" >>"$work/jobs.jsonl"
        break
      fi
      sleep 0.1
    done
    round=$((round + 1))
    echo "$round" >"$work/round"
    sleep 2
  done
}
# The loop stands for a client on another machine: its own processes (curl, sed) run at the
# lowest priority, so that what the lookups feel is the server's commits.
committing_remotely() { renice -n 19 -p $BASHPID >/dev/null; committing; }

size_before=$(du -sb "$work/store" | awk '{print $1}')
# Idle and busy windows taken in turn, PAIRS times: a drift of the machine during the run
# falls on both kinds alike.
pairs=${PAIRS:-2}
windows=()
for pass in $(seq "$pairs"); do
  before=$(outcomes)
  windows+=("$(latency "idle ($pass)")")
  windows+=("  $(hit_share "$before" "$(outcomes)")")
  rm -f "$work/stop"
  committing_remotely &
  loop=$!
  sleep 2
  before=$(outcomes)
  windows+=("$(latency "a commit every 2 s ($pass)")")
  windows+=("  $(hit_share "$before" "$(outcomes)")")
  touch "$work/stop"
  wait "$loop"
done
size_after=$(du -sb "$work/store" | awk '{print $1}')

echo "articles: $articles; $route; $seconds s each${RATE:+; at $RATE requests/s}${DRY_RUN:+; dryRun=$DRY_RUN}"
printf 'store: %.1f MB before the busy runs, %.1f MB after them\n' \
  "$(echo "$size_before / 1000000" | bc -l)" "$(echo "$size_after / 1000000" | bc -l)"
printf '%s\n' "${windows[@]}"
# The busy windows' mean p99 over the idle windows', and the median of each pair's ratio.
idle=() busy=()
for w in "${windows[@]}"; do
  case "$w" in
    idle*) idle+=("$(to_ms "$(echo "$w" | awk '{print $(NF-2)}')")") ;;
    "a commit"*) busy+=("$(to_ms "$(echo "$w" | awk '{print $(NF-2)}')")") ;;
  esac
done
python3 - "${idle[*]}" "${busy[*]}" <<'EOF'
import statistics, sys
idle, busy = ([float(x) for x in a.split()] for a in sys.argv[1:3])
pairs = [b / i for i, b in zip(idle, busy)]
print(f"p99 while committing / idle: {statistics.mean(busy) / statistics.mean(idle):.2f} "
      f"(means of {len(idle)} windows each); median of the pairs' ratios "
      f"{statistics.median(pairs):.2f} ({', '.join(f'{r:.2f}' for r in pairs)})")
EOF
python3 - "$work/jobs.jsonl" <<'EOF'
import json, os, sys
jobs = [json.loads(l) for l in open(sys.argv[1])] if os.path.exists(sys.argv[1]) else []
verdicts = [j.get("report", {}).get("verdict") for j in jobs]
took = sorted(j["finishedAt"] - j["startedAt"] for j in jobs)
print(f"commits during the busy runs: {len(jobs)} ({verdicts.count('committed')} committed, "
      f"{verdicts.count('dry_run')} dry runs); longest job {took[-1] if took else 0} s (whole seconds)")
EOF
