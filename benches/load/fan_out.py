#!/usr/bin/env python3
"""One upstream and N followers on loopback, across HTTPS with a private CA, in one run:
first the followers wait on the upstream's feed (`[sync] follow`), then N fresh followers
read the upstream's deliveries from nginx (`source_url`). For each, a few price changes are
committed upstream one after another; for each change, the time from the commit (the import
answered) to the last follower serving it (its /ready `following.data_version`), and over
the whole window the upstream's CPU time per follower (utime + stime of its process).

    python3 benches/load/fan_out.py [--followers 20] [--changes 5] [--articles 20000]
        [--rows 1] [--window 60] [--bin target/release/partscat]

--rows N changes the amounts of N price rows (of N articles) in each change.

Needs nginx and openssl. Every wait is bounded; the processes are stopped at the end.
"""

import argparse
import csv
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

KEY = "pc_bench_key"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(*args, **kwargs):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)


def certificates(work):
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    run("openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=bench-ca",
        "-keyout", f"{work}/ca.key", "-out", f"{work}/ca.pem",
        "-addext", "basicConstraints=critical,CA:TRUE")
    run("openssl", "req", *ec, "-subj", "/CN=127.0.0.1", "-keyout", f"{work}/key.pem",
        "-out", f"{work}/req.csr")
    with open(f"{work}/san.ext", "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", f"{work}/req.csr", "-CA", f"{work}/ca.pem",
        "-CAkey", f"{work}/ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", f"{work}/san.ext", "-out", f"{work}/cert.pem")
    os.chmod(f"{work}/key.pem", 0o600)


def get_json(url, context=None, timeout=30):
    with urllib.request.urlopen(url, context=context, timeout=timeout) as answer:
        return json.loads(answer.read())


def until(what, ready, bound=300):
    deadline = time.monotonic() + bound
    while not ready():
        if time.monotonic() > deadline:
            sys.exit(f"{what} did not happen within {bound} s")
        time.sleep(0.02)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Appliance:
    def __init__(self, bin, data, env, args=(), https=None, log=None):
        self.port = free_port()
        scheme = "https" if https else "http"
        self.base = f"{scheme}://127.0.0.1:{self.port}"
        tls = ["--tls-cert", https[0], "--tls-key", https[1]] if https else []
        full_env = dict(os.environ, PARTSCAT_LOG="warn", PARTSCAT_ADMIN_SOCKET="", **env)
        full_env.pop("PARTSCAT_DATA", None)
        self.process = subprocess.Popen(
            [bin, "serve", "--data", data, "--listen", f"127.0.0.1:{self.port}", *tls, *args],
            env=full_env, stdout=subprocess.DEVNULL, stderr=open(log or os.devnull, "w"))

    def ready(self, context=None):
        try:
            return get_json(f"{self.base}/ready", context, timeout=5)
        except Exception:
            return None

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def nginx(work, port, root):
    conf = f"""daemon off;
worker_processes auto;
pid {work}/nginx/nginx.pid;
error_log {work}/nginx/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {work}/nginx/tmp; proxy_temp_path {work}/nginx/tmp;
  fastcgi_temp_path {work}/nginx/tmp; uwsgi_temp_path {work}/nginx/tmp; scgi_temp_path {work}/nginx/tmp;
  types {{ application/json json; text/csv csv; }}
  server {{
    listen 127.0.0.1:{port} ssl;
    ssl_certificate {work}/cert.pem;
    ssl_certificate_key {work}/key.pem;
    location /deliveries/ {{ alias {root}/; }}
  }}
}}
"""
    os.makedirs(f"{work}/nginx/tmp", exist_ok=True)
    with open(f"{work}/nginx/nginx.conf", "w") as f:
        f.write(conf)
    return subprocess.Popen(["nginx", "-p", f"{work}/nginx", "-e", f"{work}/nginx/error.log",
                             "-c", f"{work}/nginx/nginx.conf"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(name, up, followers, changes, window, context, price_rows, inbox):
    """Commits `changes` price changes upstream; the seconds from each commit to the last
    follower serving it, and the upstream's CPU seconds per follower over `window`."""
    version = lambda: up.ready(context)["data_version"]
    until(f"{name}: every follower at the upstream's version",
          lambda: all((f.ready() or {}).get("following", {}).get("data_version") == version()
                      for f in followers))
    cpu0, start = cpu_seconds(up.process.pid), time.monotonic()
    latencies = []
    for i in range(changes):
        file = f"bench-price-{name}-{i}.csv"
        with open(os.path.join(inbox, file), "w") as f:
            f.write("brand_id,reference,price_type,currency,amount,valid_from\n")
            for brand, reference in price_rows:
                f.write(f'{brand},"{reference}",list,EUR,{100 + i}.{len(name):02d},2026-01-01\n')
        job = get_json(f"{up.base}/svc/importArticles?fileId={file}&importType=prices&dryRun=false"
                       f"&provider=demo&api_key={KEY}", context, timeout=120)
        committed = time.monotonic()
        if job.get("state") != "succeeded":
            sys.exit(f"the import upstream did not succeed: {job}")
        target = version()
        pending = list(followers)
        while pending:
            pending = [f for f in pending
                       if (f.ready() or {}).get("following", {}).get("data_version") != target]
            if time.monotonic() - committed > 120:
                sys.exit(f"{name}: {len(pending)} followers did not reach {target} in 120 s")
            if pending:
                time.sleep(0.01)
        latencies.append(time.monotonic() - committed)
        time.sleep(2)
    rest = window - (time.monotonic() - start)
    if rest > 0:
        time.sleep(rest)
    spent = cpu_seconds(up.process.pid) - cpu0
    elapsed = time.monotonic() - start
    return latencies, spent / len(followers), elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--followers", type=int, default=20)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--articles", type=int, default=20000)
    parser.add_argument("--rows", type=int, default=1)
    parser.add_argument("--window", type=float, default=60)
    parser.add_argument("--bin", default="target/release/partscat")
    options = parser.parse_args()
    bin = os.path.abspath(options.bin)
    work = tempfile.mkdtemp(prefix="partscat-fanout.")
    processes = []
    try:
        certificates(work)
        context = ssl.create_default_context(cafile=f"{work}/ca.pem")
        run(bin, "gen", "--articles", str(options.articles), "--out", f"{work}/csv")
        run(bin, "import", "--data", f"{work}/up", f"{work}/csv")
        with open(f"{work}/csv/articles.csv") as f:
            rows = csv.DictReader(f)
            price_rows = [(row["brand_id"], row["reference"])
                          for row, _ in zip(rows, range(options.rows))]
        deliveries = f"{work}/deliveries"
        os.makedirs(deliveries)
        # nginx's workers run as nobody: the way to the deliveries open to them.
        os.chmod(work, 0o711)
        os.chmod(deliveries, 0o755)
        up = Appliance(bin, f"{work}/up", {
            "PARTSCAT_DELIVERIES_DIR": deliveries, "PARTSCAT_IMPORT_WAIT_MS": "60000",
            "PARTSCAT_INBOX": f"{work}/inbox"},
            ["--demo", "--demo-key", KEY], https=(f"{work}/cert.pem", f"{work}/key.pem"),
            log=f"{work}/up.log")
        processes.append(up)
        until("the upstream's readiness", lambda: up.ready(context) is not None)
        until("the first delivery", lambda: os.path.exists(f"{deliveries}/index.json"))
        nginx_port = free_port()
        web = nginx(work, nginx_port, deliveries)
        trust = {"PARTSCAT_SYNC_CA_FILE": f"{work}/ca.pem", "PARTSCAT_SYNC_FOLLOW": "true"}
        modes = [
            ("feed", {"PARTSCAT_SYNC_UPSTREAM": up.base, "PARTSCAT_SYNC_PROVIDER": "demo",
                      "PARTSCAT_SYNC_API_KEY": KEY, "PARTSCAT_SYNC_FOLLOW_WAIT_S": "60"}),
            ("nginx", {"PARTSCAT_SYNC_SOURCE_URL": f"https://127.0.0.1:{nginx_port}/deliveries/"}),
        ]
        results = []
        for name, env in modes:
            followers = [Appliance(bin, f"{work}/{name}-{i}", {**trust, **env},
                                   log=f"{work}/{name}-{i}.log")
                         for i in range(options.followers)]
            processes.extend(followers)
            until(f"{name}: followers ready", lambda: all(f.ready() for f in followers))
            results.append((name, *measure(name, up, followers, options.changes, options.window,
                                           context, price_rows, f"{work}/inbox")))
            for f in followers:
                f.stop()
                processes.remove(f)
        web.send_signal(signal.SIGTERM)
        web.wait(30)
        print(f"{options.followers} followers, {options.articles} articles, {options.changes} "
              f"price changes of {options.rows} rows committed upstream, HTTPS with a private CA")
        for name, latencies, cpu, elapsed in results:
            source = "the upstream's feed (follow, wait=60)" if name == "feed" else "nginx serving its deliveries"
            print(f"from {source}:")
            print(f"  commit to the last follower serving it: median {sorted(latencies)[len(latencies) // 2]:.2f} s,"
                  f" max {max(latencies):.2f} s ({', '.join(f'{l:.2f}' for l in latencies)})")
            total = cpu * options.followers
            print(f"  upstream CPU over {elapsed:.0f} s: {total * 1000:.0f} ms in all (its imports and"
                  f" deliveries too), {cpu * 1000:.1f} ms per follower")
    finally:
        for p in processes:
            p.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
