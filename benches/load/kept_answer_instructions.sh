#!/usr/bin/env bash
# The instructions a request costs the server in user space, counted by callgrind: exact and
# the same run after run, where requests/s on a shared machine drift by half within a
# minute. Counted for `/health`, for `/health` asked with a lookup's request line (its query
# and the reference as a parameter: the cost of the longer line alone), and for the kept
# answers of the three lookups by a part number (the answer cache on, every key asked before
# the count). What a kept answer costs beyond the second is the gate, the parameters' check
# and the cache's probe; the kernel's part (half of a request's time on loopback) is not
# counted, and is the same for each.
#
# Under valgrind SHA-256 runs without the processor's SHA instructions: a keyed request's
# hash counts about 3,400 instructions here that natively cost a few hundred.
#
#   bash benches/load/kept_answer_instructions.sh [ARTICLES] [SHAPE] [SECONDS]
#   (defaults 20000, crossref-heavy, 4; SHAPE as in benches/shapes.sh)
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#   CACHE_MB=0 ROUTES="mainref ktypepage prices"   (the answer cache off: every answer built;
#   the routes of benches/load/served.sh's lookup_paths, default: the five above)
#
# Needs valgrind (callgrind_control) and wrk.
set -euo pipefail
articles=${1:-20000}
shape_name=${2:-crossref-heavy}
seconds=${3:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-instructions.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

catalogue "$articles" "$shape_name"
lookup_paths
for p in mainref crossrefs reverse; do
  head -n 100 "$work/$p.paths" >"$work/$p.kept"
  cp "$work/$p.kept" "$work/$p.paths"
done
# The first reference's request line, asked of /health.
first=$(head -n 1 "$work/mainref.paths")
echo "/health?x=${first#/svc/}" | sed 's/?mainref/\&mainref/' >"$work/long-health.paths"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PARTSCAT_LOG=warn PARTSCAT_ANSWER_CACHE_MB=${CACHE_MB:-1024} valgrind --tool=callgrind \
  --callgrind-out-file="$work/callgrind.%p" "$bin" serve --data "$work/store" --demo \
  --demo-key "$key" --listen "127.0.0.1:$port" >/dev/null 2>>"$work/server.log" &
servers+=($!)
pid=$!
until curl -fs "http://127.0.0.1:$port/ready" >/dev/null 2>&1; do sleep 1; done

asked() { # route seconds → requests answered, each 2xx
  local out
  out=$(PATHS="$work/$1.paths" wrk -t1 -c4 -d"$2s" -s "$root/benches/load/pick_path.lua" \
    "http://127.0.0.1:$port" 2>&1)
  if echo "$out" | grep -q "Non-2xx"; then
    echo "$1: some answers were not 2xx" >&2
    exit 1
  fi
  echo "$out" | awk '/requests in/ {print $1}'
}
read -r -a routes <<<"${ROUTES:-health long-health mainref crossrefs reverse}"
for p in "${routes[@]}"; do asked "$p" "$seconds" >/dev/null; done
echo "catalogue: $articles articles, shape $shape_name, answer cache ${CACHE_MB:-1024} MiB; instructions a request in user space"
for p in "${routes[@]}"; do
  callgrind_control --zero "$pid" >/dev/null 2>&1
  requests=$(asked "$p" "$seconds")
  callgrind_control --dump="$p" "$pid" >/dev/null 2>&1
  counted=$(ls -t "$work"/callgrind."$pid".* | head -n 1)
  total=$(awk '/^(summary|totals):/ {print $2; exit}' "$counted")
  printf '  %-12s %8d requests %8d instructions\n' "$p" "$requests" "$((total / requests))"
done
