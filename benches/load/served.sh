# Sourced by the load scripts after benches/binary.sh, with `work` set to a fresh directory:
# a generated catalogue imported into a store, and `serve` on copies of it with the demo key.
# The servers are stopped and `work` removed when the script exits.
#
#   catalogue ARTICLES                → $work/csv and $work/store
#   start_server STORE [CACHE_MB]     → sets `port` (not in a subshell: the server must be
#                                       known to the clean-up)
key=pc_bench_key
servers=()
stop_servers() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap stop_servers EXIT

catalogue() {
  "$bin" gen --articles "$1" --out "$work/csv" >/dev/null
  "$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
}

start_server() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local cache=()
  [ -n "${2:-}" ] && cache=(env "PARTSCAT_ANSWER_CACHE_MB=$2")
  PARTSCAT_LOG=warn "${cache[@]}" "$bin" serve --data "$1" --demo --demo-key "$key" \
    --listen "127.0.0.1:$port" >/dev/null 2>>"$work/server.log" &
  servers+=($!)
  until curl -fs "http://127.0.0.1:$port/ready" >/dev/null 2>&1; do sleep 0.2; done
}

# References of the catalogue as written (so the normaliser runs), `count` of them, shuffled
# the same way each run.
references() {
  tail -n +2 "$work/csv/articles.csv" | python3 -c 'import csv, sys; [print(r[1]) for r in csv.reader(sys.stdin)]' \
    | shuf --random-source=<(yes) -n "$1"
}
