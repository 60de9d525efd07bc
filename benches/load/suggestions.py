"""Suggestion round trips as a clerk types: for each reference, every prefix from two
letters or digits on, the catalogue page's calls at once (exact matches, 10; from four
letters or digits, prefix matches too, 20), over one keep-alive connection each. Prints p50,
p95 and p99 of the round trip's time, for all and by what was typed.

    python3 suggestions.py ENDPOINT_URL KEY TYPED_FILE LABEL
"""
import http.client
import json
import sys
import threading
import time
import urllib.parse

url, key, typed, label = sys.argv[1:5]
parts = urllib.parse.urlsplit(url)


class Caller:
    def __init__(self):
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)

    def ask(self, text, how, per_page):
        body = json.dumps({"getArticles": {
            "provider": "demo", "searchQuery": text, "searchType": 10,
            "searchMatchType": how, "perPage": per_page,
            "includeMisc": True, "includeGenericArticles": True}})
        self.connection.request("POST", parts.path, body,
                                {"Content-Type": "application/json", "X-Api-Key": key})
        answer = json.loads(self.connection.getresponse().read())
        if answer.get("status") != 200:
            raise SystemExit(f"{text!r}: {answer}")
        return answer


# As the page does (catalogue.js, PREFIX_FROM): a prefix of fewer letters and digits matches
# too many numbers to suggest any.
PREFIX_FROM = 4
exact, prefix = Caller(), Caller()
times, found, asked = [], 0, 0
by_length = {}
for reference in open(typed).read().split("\n"):
    for end in range(2, len(reference) + 1):
        text = reference[:end]
        squeezed = sum(c.isalnum() for c in text)
        if squeezed < 2 or not text[-1].isalnum():
            continue
        answers = {}
        started = time.perf_counter()
        side = None
        if squeezed >= PREFIX_FROM:
            side = threading.Thread(target=lambda: answers.update(p=prefix.ask(text, "prefix", 20)))
            side.start()
        answers["e"] = exact.ask(text, "exact", 10)
        if side:
            side.join()
            asked += 1
            found += len(answers["p"].get("articles", []))
        took = time.perf_counter() - started
        times.append(took)
        by_length.setdefault(min(squeezed, 6), []).append(took)
times.sort()


def at(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


print(f"suggestions, {label}: {len(times)} round trips, p50 {at(times, 0.5):.2f} ms, "
      f"p95 {at(times, 0.95):.2f} ms, p99 {at(times, 0.99):.2f} ms, max {times[-1] * 1000:.2f} ms; "
      f"{found / max(1, asked):.1f} prefix matches shown per prefix asked")
for length, values in sorted(by_length.items()):
    print(f"  {length}{'+' if length == 6 else ''} letters and digits typed: {len(values)}, "
          f"p50 {at(values, 0.5):.2f} ms, p99 {at(values, 0.99):.2f} ms")
