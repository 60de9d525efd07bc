"""Suggestion round trips as a clerk types: for each reference, every prefix from two
letters or digits on, the catalogue page's one call (`/svc/suggestNumbers`, 15 suggestions),
over one keep-alive connection. Prints p50, p95 and p99 of the round trip, for all and by
how much was typed.

    python3 suggestions.py BASE_URL KEY TYPED_FILE LABEL
"""
import http.client
import json
import sys
import time
import urllib.parse

base, key, typed, label = sys.argv[1:5]
parts = urllib.parse.urlsplit(base)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)

times, shown = [], 0
by_length = {}
for reference in open(typed).read().split("\n"):
    for end in range(2, len(reference) + 1):
        text = reference[:end]
        squeezed = sum(c.isalnum() for c in text)
        if squeezed < 2 or not text[-1].isalnum():
            continue
        path = (f"/svc/suggestNumbers/{urllib.parse.quote(text, safe='')}"
                f"?provider=demo&limit=15")
        started = time.perf_counter()
        connection.request("GET", path, headers={"X-Api-Key": key})
        response = connection.getresponse()
        body = response.read()
        took = time.perf_counter() - started
        if response.status != 200:
            raise SystemExit(f"{text!r}: {response.status} {body[:200]!r}")
        shown += len(json.loads(body)["suggestions"])
        times.append(took)
        by_length.setdefault(min(squeezed, 6), []).append(took)


def at(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


print(f"suggestions, {label}: {len(times)} round trips, p50 {at(times, 0.5):.2f} ms, "
      f"p95 {at(times, 0.95):.2f} ms, p99 {at(times, 0.99):.2f} ms, "
      f"max {max(times) * 1000:.2f} ms; {shown / len(times):.1f} suggestions each")
for length, values in sorted(by_length.items()):
    print(f"  {length}{'+' if length == 6 else ''} letters and digits typed: {len(values)}, "
          f"p50 {at(values, 0.5):.2f} ms, p99 {at(values, 0.99):.2f} ms")
