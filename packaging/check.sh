#!/usr/bin/env bash
# What .ci/run checks of the packaging, as root on a Debian machine, with the release binary
# built (`cargo test --release` builds it):
#   1. the .deb (cargo-deb) installs, its unit passes `systemd-analyze verify`, and the
#      installed binary, run as the `partscat` user with the installed config, answers /ready;
#   2. the container image's account setup (packaging/container-setup.sh, which the
#      Containerfile runs) leaves the store directory empty, and `serve` started as that
#      account on it answers /ready. The image itself is not built here: its base images
#      come from a registry this machine does not reach.
#
#   CARGO_DEB=path/to/cargo-deb bash packaging/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/partscat-packaging.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
    # The machine as it was: without the package and its config, which `serve` would read.
    dpkg --purge partscat >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits for /ready over HTTPS on the port, trusting the self-signed certificate the packaged
# config makes in the store (it names 127.0.0.1); prints the server's log and fails if it
# does not come.
await_ready() { # port, log, store directory
    for _ in $(seq 1 150); do
        if [ -f "$3/tls-self-signed.crt" ] &&
            curl -fs --cacert "$3/tls-self-signed.crt" "https://127.0.0.1:$1/ready" >/dev/null; then
            return 0
        fi
        sleep 0.2
    done
    echo "no /ready on port $1; the server said:" >&2
    cat "$2" >&2
    return 1
}

stop() { # pid: SIGTERM, as systemd and podman stop it; a clean stop exits 0
    kill -TERM "$1"
    wait "$1"
}

echo "== the Debian package"
"${CARGO_DEB:-cargo-deb}" deb --no-build --output "$work/partscat.deb" >/dev/null
# apt, not dpkg: it installs what the package depends on (adduser) on a bare machine.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "$work/partscat.deb" >/dev/null
if command -v systemd-analyze >/dev/null; then
    systemd-analyze verify /usr/lib/systemd/system/partscat.service
    echo "systemd-analyze verify: no findings"
fi
stat -c '%U:%G %a %n' /etc/partscat/partscat.toml
port=$(free_port)
# setpriv execs the server itself (runuser would stand between it and the signal).
PARTSCAT_LISTEN="127.0.0.1:$port" setpriv --reuid=partscat --regid=partscat --init-groups \
    /usr/bin/partscat serve --config /etc/partscat/partscat.toml >"$work/deb.out" 2>"$work/deb.log" &
pid=$!
pids+=("$pid")
await_ready "$port" "$work/deb.log" /var/lib/partscat
echo "installed binary as partscat with /etc/partscat/partscat.toml: /ready answers"
grep -q "import inbox: */var/spool/partscat/inbox" "$work/deb.out"
# The first start made the self-signed pair; partscat tls shows the fingerprint serve printed.
shown=$(/usr/bin/partscat tls --config /etc/partscat/partscat.toml | sed -n 's/^SHA-256 fingerprint: //p')
grep -q "HTTPS certificate:  SHA-256 $shown" "$work/deb.out"
stat -c '%a' /var/lib/partscat/tls-self-signed.key | grep -qx 600
echo "self-signed HTTPS on the first start: fingerprint $shown, key 0600"
stop "$pid"

echo "== the container image's account setup"
root="$work/root"
mkdir -p "$root/etc"
# The scratch root stands for the image's /: the account must reach into it.
chmod 755 "$work" "$root"
# The account database of a Debian system, as the image's base has one.
for f in passwd group shadow gshadow login.defs; do
    cp "/etc/$f" "$root/etc/$f"
done
# The package's account is not the image's: start from a database without it.
for f in passwd group shadow gshadow; do
    sed -i '/^partscat:/d' "$root/etc/$f"
done
bash packaging/container-setup.sh "$root"
store="$root/var/lib/partscat"
if [ -n "$(ls -A "$store")" ]; then
    echo "the container's store directory is not empty:" >&2
    ls -la "$store" >&2
    exit 1
fi
uid=$(awk -F: '$1 == "partscat" {print $3}' "$root/etc/passwd")
gid=$(awk -F: '$1 == "partscat" {print $4}' "$root/etc/passwd")
port=$(free_port)
# The image's command and settings, on the scratch root's directories.
PARTSCAT_LISTEN="127.0.0.1:$port" PARTSCAT_DATA="$store" PARTSCAT_INBOX="$root/var/spool/partscat/inbox" \
    setpriv --reuid="$uid" --regid="$gid" --clear-groups \
    /usr/bin/partscat serve --config packaging/partscat.toml >"$work/container.out" 2>"$work/container.log" &
pid=$!
pids+=("$pid")
await_ready "$port" "$work/container.log" "$store"
echo "container account on its own, empty store directory: /ready answers"
stop "$pid"
