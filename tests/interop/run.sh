#!/usr/bin/env bash
# Stock SOAP clients against the live demo appliance: Python zeep and the Node `soap` package
# load both WSDLs, call every operation, compare each answer with its JSON twin, and use a
# dynamic key and a dynamic address grant end to end; PHP's SoapClient calls as TecDoc client
# code does (SOAP_SINGLE_ELEMENT_ARRAYS, `status` read, DLW's `arg0`); the answers of the
# operations shared with TecDoc Pegasus 3.0 are validated against its types
# (tests/interop/pegasus_types.json). PHP and the Pegasus types call an appliance whose
# brand_name is "Tecdoc", as TecDoc client code names the endpoints.
# Needs: target/release/partscat, $VENV/bin/python with zeep and jsonschema_rs, php with its
# soap extension, $NODE_MODULES with soap.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${VENV:-target/ci-venv}
NODE_MODULES=${NODE_MODULES:-target/interop-node/node_modules}
BIN=target/release/partscat
KEY=pc_interop_check_key
WORK=$(mktemp -d)

run_against_fresh_server() {
    local port base server status
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    base=http://127.0.0.1:$port
    rm -rf "$WORK/data"
    PARTSCAT_BRAND_NAME="$BRAND" \
        "$BIN" serve --demo --demo-key "$KEY" --data "$WORK/data" --listen "127.0.0.1:$port" \
        >"$WORK/stdout" 2>"$WORK/server.log" &
    server=$!
    for _ in $(seq 1 600); do
        curl -fs "$base/ready" >/dev/null 2>&1 && break
        sleep 0.1
    done
    status=0
    "$@" "$base" demo "$KEY" || status=$?
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    return $status
}
trap 'rm -rf "$WORK"' EXIT

# The endpoints' brand (brand_name): PartsToCatDLB…, or TecdocToCatDLB… as TecDoc client
# code names them; the checks read it from BRAND too.
export BRAND=Parts
echo "== Python zeep"
run_against_fresh_server "$VENV/bin/python" tests/interop/zeep_check.py
# Pegasus client code, unchanged but for its URL and key: brand_name = "Tecdoc".
export BRAND=Tecdoc
echo "== The Pegasus types"
run_against_fresh_server "$VENV/bin/python" tests/interop/pegasus_check.py
echo "== PHP SoapClient"
run_against_fresh_server php tests/interop/php_check.php
export BRAND=Parts
echo "== Node soap"
NODE_PATH="$PWD/$NODE_MODULES" run_against_fresh_server node tests/interop/node_check.js
