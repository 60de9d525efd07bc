"""Writes assets/tecdoc/elements.json: the element names and order of TecDoc Pegasus 3.0's
answers and requests (from its public DLB schema, TecdocToCatDLB.xsd), for the operations
partscat shares with it. partscat answers a request made in TecDoc's namespace in that order
(src/server/soap/tecdoc_form.rs), and tells a request's fields TecDoc defines from those it
does not (src/server/soap/ignored.rs).

    python tests/interop/tecdoc_elements.py TecdocToCatDLB.xsd assets/tecdoc/elements.json \
        OPERATION…   (partscat's operations, `registry::OPERATIONS`)

For each response element `{operation}Response` and each request element `{operation}`: its
type; for each type reachable from one: its elements in the schema's order, each with its type
where the type is complex.
"""

import json
import sys
import xml.etree.ElementTree as ET

XS = "{http://www.w3.org/2001/XMLSchema}"
OPERATIONS = sys.argv[3:] or None

schema = ET.parse(sys.argv[1]).getroot()
types = {t.get("name"): t for t in schema.findall(f"{XS}complexType")}
tops = {e.get("name"): e.get("type", "").split(":")[-1] for e in schema.findall(f"{XS}element")}


def elements(name):
    """The type's elements in order, its bases' first."""
    t = types[name]
    found = []
    extension = t.find(f"{XS}complexContent/{XS}extension")
    if extension is not None:
        base = extension.get("base").split(":")[-1]
        if base in types:
            found += elements(base)
        holder = extension
    else:
        holder = t
    for sequence in holder.findall(f"{XS}sequence"):
        for e in sequence.findall(f"{XS}element"):
            kind = e.get("type", "").split(":")
            complex_type = kind[-1] if kind[0] == "tns" and kind[-1] in types else None
            found.append([e.get("name"), complex_type])
    return found


responses = {}
requests = {}
reached = {}
pending = []
for element, kind in tops.items():
    answer = element.endswith("Response")
    operation = element[: -len("Response")] if answer else element
    if (OPERATIONS is None or operation in OPERATIONS) and kind in types:
        (responses if answer else requests)[operation] = kind
        pending.append(kind)
while pending:
    name = pending.pop()
    if name in reached:
        continue
    reached[name] = elements(name)
    pending += [t for _, t in reached[name] if t]

json.dump({"responses": dict(sorted(responses.items())), "requests": dict(sorted(requests.items())),
           "types": dict(sorted(reached.items()))},
          open(sys.argv[2], "w"), indent=0, sort_keys=False)
print(f"{len(responses)} responses, {len(requests)} requests, {len(reached)} types")
