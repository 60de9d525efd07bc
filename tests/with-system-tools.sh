#!/usr/bin/env bash
# The tests that need more than a Rust toolchain: nginx (a static server of deliveries and
# media), curl and openssl (stock HTTPS clients checking what the appliance presents), and
# root (a small tmpfs for the full-disk tests). `cargo test` lists them as ignored, with the
# reason; this installs what they need (Debian's packages) and runs them, as root.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
    echo "run as root (sudo bash tests/with-system-tools.sh): the full-disk tests mount a tmpfs" >&2
    exit 2
fi
if ! command -v curl >/dev/null || ! command -v openssl >/dev/null ||
    { [ ! -x /usr/sbin/nginx ] && [ ! -x /usr/bin/nginx ]; }; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl openssl nginx-light >/dev/null ||
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl openssl nginx >/dev/null
fi
cargo test --release --no-fail-fast -- --ignored
