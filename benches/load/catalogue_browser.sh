#!/usr/bin/env bash
# The catalogue browser's figures on a generated catalogue (issue 30 point 7), in one run:
# the suggestion round trip as a clerk types (every prefix from 2 letters or digits of 300
# references as written, each the page's one call to `/svc/suggestNumbers`; one client), and
# the page's first load in headless Chromium (the bytes, and the time
# until the first view is drawn, from a fresh browser each time).
#
#   bash benches/load/catalogue_browser.sh BINARY [ARTICLES]   (default 1000000)
#   (NODE_PATH with playwright-core, and chromium, for the first load.)
set -euo pipefail
bin=$(realpath "$1")
articles=${2:-1000000}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-browser.XXXXXX)
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

catalogue "$articles"
start_server "$work/store" 0
served=$port
references 300 >"$work/typed"

# suggestNumbers keeps no answers (each reads a screenful of the indexes): one server.
python3 "$root/benches/load/suggestions.py" "http://127.0.0.1:$served" "$key" "$work/typed" "$articles articles"

if [ -n "${NODE_PATH:-}" ]; then
  node "$root/benches/load/first_load.mjs" "http://127.0.0.1:$served" "$key"
fi
