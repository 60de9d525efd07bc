#!/usr/bin/env bash
# HTTPS beside plain HTTP, in one run on one machine:
#   1. lookups (getCrossRefsOrArticle?mainref over many keys) with wrk -t2 -c64 on keep-alive
#      connections, on two servers of the same binary on copies of one store, one plain HTTP
#      and one HTTPS, measured alternately (HTTP, HTTPS, HTTP, HTTPS);
#      with each server's CPU time per lookup over the same runs (utime + stime): wrk shares
#      the machine's cores and spends more on TLS itself, so the throughput ratio understates
#      the server's, which the CPU per lookup shows;
#   2. new TLS connections a second (wrk with `Connection: close`, so each request is a new
#      connection and handshake) against partscat's /health and against nginx terminating TLS
#      with the same certificate and answering a small static file, also alternately.
#
#   bash benches/load/https_vs_http.sh [ARTICLES] [SECONDS]   (defaults 100000, 15)
#   BIN=target/release/partscat bash …   (a binary already built, not `dist`)
#
# Needs wrk, nginx and openssl (Debian: apt-get install wrk nginx-light openssl).
set -euo pipefail
articles=${1:-100000}
seconds=${2:-15}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/partscat-https.XXXXXX)

# shellcheck source=benches/binary.sh
source "$root/benches/binary.sh"
# shellcheck source=benches/load/served.sh
source "$root/benches/load/served.sh"

# A private CA and a certificate for 127.0.0.1 (ECDSA P-256, as the self-signed one is).
ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
openssl req -x509 "${ec[@]}" -days 2 -subj /CN=bench-ca -keyout "$work/ca.key" -out "$work/ca.pem" \
  -addext basicConstraints=critical,CA:TRUE 2>/dev/null
openssl req "${ec[@]}" -subj /CN=127.0.0.1 -keyout "$work/key.pem" -out "$work/req.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >"$work/san.ext"
openssl x509 -req -in "$work/req.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial \
  -days 2 -extfile "$work/san.ext" -out "$work/cert.pem" 2>/dev/null
chmod 600 "$work/key.pem"

catalogue "$articles"
cp -r "$work/store" "$work/store-tls"
start_server "$work/store" 1024
http_port=$port
http_pid=${servers[-1]}
https_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PARTSCAT_LOG=warn "$bin" serve --data "$work/store-tls" --demo --demo-key "$key" \
  --listen "127.0.0.1:$https_port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
  >/dev/null 2>>"$work/server.log" &
servers+=($!)
https_pid=$!
until curl -fs --cacert "$work/ca.pem" "https://127.0.0.1:$https_port/ready" >/dev/null 2>&1; do sleep 0.2; done

# nginx with the same certificate, one worker per core, a 2-byte file.
nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx/tmp" "$work/nginx/www"
printf 'ok' >"$work/nginx/www/health"
# Its workers run as nobody: the way to the file, not the store's files, open to them.
chmod 711 "$work" "$work/nginx"
chmod 755 "$work/nginx/www"
chmod 644 "$work/nginx/www/health"
cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
worker_processes auto;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/nginx/tmp; proxy_temp_path $work/nginx/tmp;
  fastcgi_temp_path $work/nginx/tmp; uwsgi_temp_path $work/nginx/tmp; scgi_temp_path $work/nginx/tmp;
  server {
    listen 127.0.0.1:$nginx_port ssl;
    ssl_certificate $work/cert.pem;
    ssl_certificate_key $work/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    root $work/nginx/www;
  }
}
EOF
nginx -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" &
servers+=($!)
for _ in $(seq 1 100); do
  curl -fs --cacert "$work/ca.pem" "https://127.0.0.1:$nginx_port/health" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fs --cacert "$work/ca.pem" "https://127.0.0.1:$nginx_port/health" >/dev/null

lookup_paths

# Requests/s of wrk over a route's paths at a base URL; extra wrk arguments after.
rate_at() { # route, base, wrk arguments…
  local route=$1 base=$2 out
  shift 2
  out=$(PATHS="$work/$route.paths" wrk -t2 -c64 -d"${seconds}s" "$@" -s "$root/benches/load/pick_path.lua" \
    "$base" 2>&1)
  if echo "$out" | grep -q "Non-2xx\|Socket errors"; then
    echo "$route at $base: errors:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "$out" | awk '/Requests\/sec/ {print $2}'
}

http=http://127.0.0.1:$http_port https=https://127.0.0.1:$https_port nginx=https://127.0.0.1:$nginx_port
# Warm both (the answer cache filled on each), then measure alternately.
rate_at mainref "$http" >/dev/null
rate_at mainref "$https" >/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
h1=$(rate_at mainref "$http"); s1=$(rate_at mainref "$https")
h2=$(rate_at mainref "$http"); s2=$(rate_at mainref "$https")
plain=$(echo "($h1 + $h2) / 2" | bc -l) tls=$(echo "($s1 + $s2) / 2" | bc -l)
# The same again, counting each server's CPU time over its runs.
t0=$(ticks "$http_pid"); h3=$(rate_at mainref "$http"); t1=$(ticks "$http_pid")
u0=$(ticks "$https_pid"); s3=$(rate_at mainref "$https"); u1=$(ticks "$https_pid")
http_us=$(echo "($t1 - $t0) / $hz * 1000000 / ($h3 * $seconds)" | bc -l)
https_us=$(echo "($u1 - $u0) / $hz * 1000000 / ($s3 * $seconds)" | bc -l)

echo "/health" >"$work/health.paths"
close=(-H "Connection: close")
p1=$(rate_at health "$https" "${close[@]}"); n1=$(rate_at health "$nginx" "${close[@]}")
p2=$(rate_at health "$https" "${close[@]}"); n2=$(rate_at health "$nginx" "${close[@]}")
ours=$(echo "($p1 + $p2) / 2" | bc -l) theirs=$(echo "($n1 + $n2) / 2" | bc -l)

echo "catalogue: $articles articles; wrk -t2 -c64, ${seconds} s a run, two runs each, alternating"
printf '%-52s %9.0f req/s\n' "mainref lookups, plain HTTP keep-alive" "$plain"
printf '%-52s %9.0f req/s  %5.2fx of plain HTTP\n' "mainref lookups, HTTPS keep-alive" "$tls" "$(echo "$tls / $plain" | bc -l)"
printf '%-52s %9.1f µs   plain HTTP\n' "server CPU per lookup" "$http_us"
printf '%-52s %9.1f µs   HTTPS: %4.2fx the capacity of plain HTTP\n' "" "$https_us" "$(echo "$http_us / $https_us" | bc -l)"
printf '%-52s %9.0f conn/s\n' "new TLS connections: nginx (static file)" "$theirs"
printf '%-52s %9.0f conn/s  %5.2fx of nginx\n' "new TLS connections: partscat (/health)" "$ours" "$(echo "$ours / $theirs" | bc -l)"
