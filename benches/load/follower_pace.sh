#!/usr/bin/env bash
# A caught-up follower against an upstream that answers its waits with 204 at once (here a
# proxy in between that does not pass `wait=` on): how many feed requests it sends and how
# much CPU it spends a minute. Before the pause on early answers: 14,229 requests in
# 10 s and 6.9 CPU-seconds.
#
#   bash benches/load/follower_pace.sh BINARY [SECONDS]   (default 60)
set -euo pipefail
bin=$(realpath "$1")
seconds=${2:-60}
work=$(mktemp -d /tmp/partscat-pace.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
up=$((20000 + RANDOM % 10000)); proxy=$((up + 1)); down=$((up + 2))

"$bin" serve --demo --demo-key pace-key --data "$work/up" --listen "127.0.0.1:$up" \
    >/dev/null 2>"$work/up.log" &
pids+=($!)
until curl -sf "http://127.0.0.1:$up/ready" >/dev/null; do sleep 0.2; done

python3 - "$up" "$proxy" "$work/requests" <<'PY' &
import http.server, sys, urllib.request, urllib.error, threading
upstream, port, counted = sys.argv[1], int(sys.argv[2]), sys.argv[3]
count = [0]
lock = threading.Lock()
class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        path = "&".join(p for p in self.path.split("&") if not p.startswith("wait="))
        if path.startswith("/svc/changes"):
            with lock:
                count[0] += 1
                open(counted, "w").write(str(count[0]))
        try:
            asked = urllib.request.Request(f"http://127.0.0.1:{upstream}{path}", headers={
                k: v for k, v in self.headers.items() if k.lower() in ("authorization", "x-api-key")})
            r = urllib.request.urlopen(asked)
            status, headers, body = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            status, headers, body = e.code, e.headers, e.read()
        # Nothing newer: a 204 at once, as an upstream that does not hold the wait answers.
        since = next((p[6:] for p in self.path.split("?")[-1].split("&") if p.startswith("since=")), None)
        if status == 200 and "wait=" in self.path and headers.get("X-Data-Version") == since:
            status, body = 204, b""
        self.send_response(status)
        for k, v in headers.items():
            if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(k, v)
        if status != 204:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
http.server.ThreadingHTTPServer(("127.0.0.1", port), Proxy).serve_forever()
PY
pids+=($!)
sleep 1

PARTSCAT_SYNC_UPSTREAM="http://127.0.0.1:$proxy" PARTSCAT_SYNC_PROVIDER=demo \
PARTSCAT_SYNC_API_KEY=pace-key PARTSCAT_SYNC_FOLLOW=true PARTSCAT_LOG=info \
    "$bin" serve --data "$work/down" --listen "127.0.0.1:$down" >/dev/null 2>"$work/down.log" &
follower=$!
pids+=($follower)
# Caught up: the full refresh done (it follows the upstream's version).
until curl -sf "http://127.0.0.1:$down/ready" | grep -q '"following"'; do sleep 0.2; done
sleep 2
cpu() { awk '{print $14 + $15}' "/proc/$follower/stat"; }
ticks=$(getconf CLK_TCK)
before_requests=$(cat "$work/requests")
before_cpu=$(cpu)
sleep "$seconds"
requests=$(( $(cat "$work/requests") - before_requests ))
cpu_s=$(echo "($(cpu) - $before_cpu) / $ticks" | bc -l)
printf 'in %s s caught up behind a proxy answering waits at once: %s feed requests, %.2f CPU-seconds (per minute: %.0f requests, %.2f CPU-s)\n' \
    "$seconds" "$requests" "$cpu_s" "$(echo "$requests * 60 / $seconds" | bc -l)" "$(echo "$cpu_s * 60 / $seconds" | bc -l)"
echo "the follower's log about it:"
grep -E "pausing|again" "$work/down.log" | sed 's/^/  /' | head -5
