#!/usr/bin/env bash
# Checks against the live demo appliance, as its clients meet it:
#   - schemathesis on /openapi.json, every operation, with the demo provider's key;
#   - headless Chromium renders /docs and lists every route of the document;
#   - in headless Chromium, "Try it out" → "Execute" on every operation with the values the
#     UI pre-fills, after authorising in its dialog (tests/live/try_it_out.mjs);
#   - a Python client generated from the document calls every route
#     (tests/live/generated_client.py);
#   - Spectral's OpenAPI rules find no warning in the document (tests/live/spectral.yaml);
#   - the catalogue browser, as a counter clerk uses it, and axe-core's accessibility rules
#     (tests/live/catalogue_browser.mjs; screenshots in target/catalogue-screenshots);
#   - a shop's page of another origin calling the JSON endpoint from the end user's browser,
#     allowed for the origin cors_origins names, refused for another
#     (tests/live/browser_client.mjs).
# Needs: target/release/partscat, $VENV with schemathesis and openapi-python-client,
# chromium, and playwright-core, axe-core and spectral in $UI_NODE_MODULES.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${VENV:-target/ci-venv}
BIN=target/release/partscat
KEY=pc_live_check_key
WORK=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
BASE=http://127.0.0.1:$PORT
# The shop's origin the appliance lets call from a browser, and one it does not.
SHOP_PORT=$(free_port)
OTHER_PORT=$(free_port)
export PARTSCAT_CORS_ORIGINS=http://127.0.0.1:$SHOP_PORT

# A file in the inbox, so importArticles gets past "no such file" (the demo's own prices:
# importing them changes nothing).
mkdir -p "$WORK/inbox"
cp assets/demo/prices.csv "$WORK/inbox/prices.csv"

# A fresh demo appliance on its own store: schemathesis starts more jobs than the server keeps
# (the last 100), so the UI and the generated client, which poll job 1 as the document's
# example names it, get an appliance of their own.
SERVER=
start() {
    "$BIN" serve --demo --demo-key "$KEY" --data "$WORK/data-$1" --inbox "$WORK/inbox" \
        --listen "127.0.0.1:$PORT" >"$WORK/stdout" 2>"$WORK/server-$1.log" &
    SERVER=$!
    for _ in $(seq 1 600); do
        curl -fs "$BASE/ready" >/dev/null 2>&1 && break
        sleep 0.1
    done
    curl -fs "$BASE/ready" >/dev/null
}
stop_server() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
}
stop() {
    stop_server
    rm -rf "$WORK"
}
trap stop EXIT
start fuzzed

echo "== schemathesis against $BASE/openapi.json"
PARTSCAT_DEMO_KEY=$KEY "$VENV/bin/schemathesis" \
    --config-file tests/schemathesis/schemathesis.toml \
    run "$BASE/openapi.json" --max-examples 100 --seed 2026

stop_server
start fresh

echo "== /docs in headless Chromium"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$WORK/chromium" --virtual-time-budget=15000 \
    --dump-dom "$BASE/docs" 2>/dev/null >"$WORK/docs.html"
missing=0
routes=$(curl -fs "$BASE/openapi.json" | python3 -c 'import json,sys; print("\n".join(json.load(sys.stdin)["paths"]))')
for route in $routes; do
    if ! grep -qF "data-path=\"$route\"" "$WORK/docs.html"; then
        echo "/docs does not list $route"
        missing=$((missing + 1))
    fi
done
count=$(echo "$routes" | wc -l)
echo "/docs lists $((count - missing)) of $count routes"
[ "$missing" -eq 0 ]
echo "$((count - missing)) passed, $missing failed"

echo "== Try it out in /docs, every operation"
NODE_PATH=$(realpath "${UI_NODE_MODULES:-target/ui-node/node_modules}") node tests/live/try_it_out.mjs "$BASE" "$KEY"

echo "== the catalogue browser in headless Chromium (tests/live/catalogue_browser.mjs)"
# A provider that sees brand 2 only, and a counter PC's provider admitted by its address.
BRAND2_KEY=$("$BIN" admin --data "$WORK/data-fresh" --json provider create brand2 --brands 2 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
"$BIN" admin --data "$WORK/data-fresh" provider create counter --whitelist 127.0.0.1 --no-key >/dev/null
NODE_PATH=$(realpath "${UI_NODE_MODULES:-target/ui-node/node_modules}") node tests/live/catalogue_browser.mjs \
    "$BASE" "$KEY" "$BRAND2_KEY" "${CATALOGUE_SHOTS:-target/catalogue-screenshots}"

echo "== a shop's page of another origin in headless Chromium (tests/live/browser_client.mjs)"
NODE_PATH=$(realpath "${UI_NODE_MODULES:-target/ui-node/node_modules}") node tests/live/browser_client.mjs \
    "$BASE" "$KEY" "$SHOP_PORT" "$OTHER_PORT"

echo "== a client generated from /openapi.json calls every route"
"$VENV/bin/python" tests/live/generated_client.py "$BASE" "$KEY"

echo "== Spectral's OpenAPI rules"
curl -fs "$BASE/openapi.json" >"$WORK/openapi.json"
"$(realpath "${UI_NODE_MODULES:-target/ui-node/node_modules}")/.bin/spectral" lint \
    --fail-severity warn --ruleset tests/live/spectral.yaml "$WORK/openapi.json"
