#!/usr/bin/env bash
# Many clients asking at once for a large answer: a page of a vehicle's articles with their
# linkages (`getArticles` by `linkageTargetId`, `includeAll`), on a catalogue whose every
# article fits 300 vehicle types. Each run serves the same store twice, with the bound
# `limits.answers_in_flight_mb` as given and with it out of reach, and prints for both the
# server's peak resident memory with one such answer and with CLIENTS at once, and what the
# clients were answered (200, or 503 with its Retry-After).
#
#   bash benches/load/answers_in_flight.sh [CLIENTS] [PER_PAGE] [BOUND_MB]   (defaults 12, 100, 512)
#
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
set -euo pipefail
clients=${1:-12}
per_page=${2:-100}
bound=${3:-512}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-load.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"
catalogue 2000 "--links-per-article 300 --vehicles 300"

for limit in "$bound" 1000000; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  PARTSCAT_LOG=warn PARTSCAT_LIMIT_ANSWERS_IN_FLIGHT_MB=$limit "$bin" serve --data "$work/store" \
    --demo --demo-key "$key" --listen "127.0.0.1:$port" >/dev/null 2>>"$work/server.log" &
  pid=$!
  servers+=("$pid")
  until curl -fs "http://127.0.0.1:$port/ready" >/dev/null 2>&1; do sleep 0.2; done
  echo "answers_in_flight_mb = $limit:"
  python3 "$root/benches/load/many_large_answers.py" "$port" "$key" "$pid" "$clients" "$per_page"
  kill "$pid" && wait "$pid" 2>/dev/null || true
done
