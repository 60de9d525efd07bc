"""One large answer, then CLIENTS of them at once, against a running partscat: the server's
peak resident memory (VmHWM) after each, and what the clients were answered.

    python3 many_large_answers.py PORT KEY SERVER_PID CLIENTS PER_PAGE
"""
import json
import sys
import threading
import urllib.error
import urllib.request
from collections import Counter

port, key, pid, clients, per_page = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
url = f"http://127.0.0.1:{port}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={key}"
body = json.dumps({"getArticles": {
    "provider": "demo", "linkageTargetId": "10000", "linkageTargetType": "P",
    "perPage": per_page, "includeAll": True}}).encode()


def peak_mib():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    raise SystemExit("no VmHWM")


def ask(answers):
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=600) as r:
            answers.append((r.status, None, len(r.read())))
    except urllib.error.HTTPError as e:
        answers.append((e.code, e.headers.get("Retry-After"), len(e.read())))


idle = peak_mib()
alone = []
ask(alone)
one = peak_mib()
size = alone[0][2]
print(f"  one answer ({size / 1e6:.1f} MB): peak {one} MiB, {one - idle} MiB over the server's "
      f"{idle} MiB before it ({(one - idle) * 2**20 / size:.1f}x the answer's bytes)")
answers = []
threads = [threading.Thread(target=ask, args=(answers,)) for _ in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
many = peak_mib()
said = Counter((status, retry) for status, retry, _ in answers)
print(f"  {clients} at once: peak {many} MiB (+{many - one} MiB over one); answered "
      + ", ".join(f"{n}x {status}" + (f" Retry-After {retry}" if retry else "")
                  for (status, retry), n in sorted(said.items())))
