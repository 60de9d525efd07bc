#!/usr/bin/env bash
# Stock SOAP clients against the live demo appliance: Python zeep and the Node `soap` package
# load both WSDLs, call every operation, compare each answer with its JSON twin, and use a
# dynamic key and a dynamic address grant end to end; PHP's SoapClient calls as TecDoc client
# code does (SOAP_SINGLE_ELEMENT_ARRAYS, `status` read, DLW's `arg0`); the answers of the
# operations shared with TecDoc Pegasus 3.0 are validated against its types
# (tests/interop/pegasus_types.json). PHP and the Pegasus types call an appliance whose
# brand_name is "Tecdoc", as TecDoc client code names the endpoints. zeep and Node soap talk
# HTTPS (a private CA made here, given to them as their platforms' CA settings say); PHP and
# the Pegasus types plain HTTP.
# Needs: target/release/partscat, $VENV/bin/python with zeep and jsonschema_rs, php with its
# soap extension, $NODE_MODULES with soap.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${VENV:-target/ci-venv}
NODE_MODULES=${NODE_MODULES:-target/interop-node/node_modules}
BIN=target/release/partscat
KEY=pc_interop_check_key
WORK=$(mktemp -d)

# A private CA and the appliance's certificate for 127.0.0.1, signed by it.
make_certificates() {
    local ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
    openssl req -x509 "${ec[@]}" -days 2 -subj /CN=interop-ca -keyout "$WORK/ca.key" \
        -out "$WORK/ca.pem" -addext basicConstraints=critical,CA:TRUE 2>/dev/null
    openssl req "${ec[@]}" -subj /CN=127.0.0.1 -keyout "$WORK/key.pem" -out "$WORK/req.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$WORK/san.ext"
    openssl x509 -req -in "$WORK/req.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" \
        -CAcreateserial -days 2 -extfile "$WORK/san.ext" -out "$WORK/cert.pem" 2>/dev/null
    chmod 600 "$WORK/key.pem"
}

# SCHEME=https serves with the certificate above.
run_against_fresh_server() {
    local port base server status tls=()
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    base=${SCHEME:-http}://127.0.0.1:$port
    if [ "${SCHEME:-http}" = https ]; then
        tls=(--tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem")
    fi
    rm -rf "$WORK/data"
    PARTSCAT_BRAND_NAME="$BRAND" \
        "$BIN" serve --demo --demo-key "$KEY" --data "$WORK/data" --listen "127.0.0.1:$port" \
        "${tls[@]}" >"$WORK/stdout" 2>"$WORK/server.log" &
    server=$!
    for _ in $(seq 1 600); do
        curl -fs --cacert "$WORK/ca.pem" "$base/ready" >/dev/null 2>&1 && break
        sleep 0.1
    done
    status=0
    "$@" "$base" demo "$KEY" || status=$?
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    return $status
}
trap 'rm -rf "$WORK"' EXIT
make_certificates

# The endpoints' brand (brand_name): PartsToCatDLB…, or TecdocToCatDLB… as TecDoc client
# code names them; the checks read it from BRAND too.
export BRAND=Parts
echo "== Python zeep, over HTTPS"
SCHEME=https REQUESTS_CA_BUNDLE="$WORK/ca.pem" SSL_CERT_FILE="$WORK/ca.pem" \
    run_against_fresh_server "$VENV/bin/python" tests/interop/zeep_check.py
# Pegasus client code, unchanged but for its URL and key: brand_name = "Tecdoc".
export BRAND=Tecdoc
echo "== The Pegasus types"
run_against_fresh_server "$VENV/bin/python" tests/interop/pegasus_check.py
echo "== PHP SoapClient"
run_against_fresh_server php tests/interop/php_check.php
export BRAND=Parts
echo "== Node soap, over HTTPS"
SCHEME=https NODE_EXTRA_CA_CERTS="$WORK/ca.pem" NODE_PATH="$PWD/$NODE_MODULES" \
    run_against_fresh_server node tests/interop/node_check.js
