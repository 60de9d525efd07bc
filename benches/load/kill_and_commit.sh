#!/usr/bin/env bash
# Looks for the storage engine's hang (issue 27, point 6: an import after a kill once hung
# inside sled, its IO thread pool waiting on a file truncation queued behind writes that wait
# on it). Small commits free pages all over the log, which makes sled truncate the file's
# tail often; a kill between them leaves a log that the next open recovers and truncates.
# ROUNDS times: a 1,000-row change imported and killed after a random delay (0–400 ms), then
# the next change imported to its end within BOUND seconds. A command past its bound is a
# hang: its stack is printed (gdb, if installed) and the script fails. `check` at the end.
#
#   bash benches/load/kill_and_commit.sh BINARY [ARTICLES] [ROUNDS] [BOUND]
#   (defaults 100000, 200, 60)
set -euo pipefail
bin=$(realpath "$1")
articles=${2:-100000}
rounds=${3:-200}
bound=${4:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-kills.XXXXXX)
trap 'rm -rf "$work"' EXIT

"$bin" gen --articles "$articles" --out "$work/csv" >/dev/null
"$bin" import --data "$work/store" "$work/csv" >/dev/null 2>&1
# The change writer of small_commits.sh.
eval "$(sed -n '/^change() {/,/^}/p' "$root/benches/load/small_commits.sh")"

hung=0 killed=0 committed=0
for round in $(seq 1 "$rounds"); do
  change "$((2 * round))" "$work/a"
  change "$((2 * round + 1))" "$work/b"
  "$bin" import --data "$work/store" "$work/a" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 400)))"
  if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
  wait "$pid" 2>/dev/null || true
  "$bin" import --data "$work/store" "$work/b" >/dev/null 2>&1 &
  pid=$!
  waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((bound * 10)) ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    hung=$((hung + 1))
    echo "round $round: the import after a kill is still running after $bound s" >&2
    if command -v gdb >/dev/null; then
      gdb -p "$pid" -batch -ex 'thread apply all bt' 2>/dev/null | grep -E '^#|^Thread' | head -80 >&2
    fi
    kill -9 "$pid"
  else
    wait "$pid" && committed=$((committed + 1))
  fi
  rm -rf "$work/a" "$work/b"
done
"$bin" check --data "$work/store" | tail -1
echo "rounds: $rounds; imports killed: $killed; imports after a kill that finished: $committed; hung: $hung"
[ "$hung" -eq 0 ]
