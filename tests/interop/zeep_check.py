"""Python zeep against the running appliance: both WSDLs load unchanged, every operation is
called on both endpoints, each answer equals its JSON twin's, and dynamic access works end to
end (a key from addDynamicAPIKey opens /svc and SOAP; addDynamicAddress admits 127.0.0.2).

Usage: zeep_check.py BASE_URL PROVIDER KEY
"""

import json
import sys
import urllib.error
import urllib.request

import requests
import zeep
from zeep.helpers import serialize_object
from zeep.transports import Transport

BASE, PROVIDER, KEY = sys.argv[1], sys.argv[2], sys.argv[3]
SERVICES = f"{BASE}/ws/3.0/services"
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL {what[:2000]}")


# Every operation, with arguments that exercise it on the demo catalogue.
CALLS = {
    "getVersionInfo": {},
    "getBrands": {},
    "getAmBrands": {"lang": "en"},
    "getLanguages": {"lang": "en"},
    "getCountries": {},
    "getGenericArticles": {},
    "getManufacturers": {},
    "getArticles": {
        "searchQuery": "0986-478-379",
        "searchType": 10,
        "searchMatchType": "exact",
        "includeAll": True,
        "includeDataSupplierFacets": True,
        "includeGenericArticleFacets": True,
    },
    "getArticleDirectSearchAllNumbersWithState": {
        "articleNumber": "9N0 690 938 B", "numberType": 10, "searchExact": True, "sortType": 1,
    },
    "getVehicleByIds3": {"carIds": {"array": [10219, 999999]}, "motorCodes": True},
    "getVehicleByIds4": {"carIds": {"array": [10219]}},
    "getArticleLinkages": {"dataSupplierId": 1, "articleNumber": "0 986 478 379"},
    # 84: the numeric id the demo's import gives 0 986 478 849.
    "getArticleLinkedAllLinkingTarget4": {
        "articleId": 84, "countryGroupFlag": False, "linkingTargetManuId": 0,
        "withMainArticles": True,
    },
    # The makes of its vehicle types: a fitment list's first step.
    "getArticleLinkedAllLinkingTargetManufacturer2": {"articleId": 84, "linkingTargetType": "P"},
    "getArticleLinkedAllLinkingTargetManufacturer": {"articleId": 84},
    "getPegasusVersionInfo2": {},
    # The demo's criteria, and its key table of shock absorber types.
    "getCriteria2": {"lang": "de"},
    "getKeyValues": {"keyTableId": 1, "lang": "fr"},
    "getShortCuts2": {"linked": True, "linkingTargetId": 10219, "linkingTargetType": "P"},
    "getVehiclesByVIN": {"vin": "WAUKSK2X5MA123456", "country": "DE", "maxVehiclesToReturn": 10},
    "getAmBrandAddress": {"brandNo": 1},
    "getCountryGroups": {"lang": "fr"},
    # The demo's AUDI engine CHZD, and the types carrying it by its number.
    "getMotorIdsByManuIdCriteria2": {"manuId": 2, "motorCode": "CHZD", "searchExactCode": True},
    "getVehicleIdsByMotor2": {"motorId": 6496379095573538, "countryGroupFlag": False, "carType": "P"},
    # The vehicle makers' part numbers of the same VIN's vehicle.
    "getOEArticlesByVIN": {
        "vin": "WAUKSK2X5MA123456", "includeAftermarketMatches": True,
        "includeGenericArticleFacets": True, "sort": [{"field": "articleNumber", "direction": "asc"}],
    },
    "getArticleLinkedAllLinkingTarget3": {"articleId": 84, "withMainArticles": True},
    # Two of its links: 84 × 2^32 + the Ktype.
    "getArticleLinkedAllLinkingTargetsByIds3": {
        "articleId": 84, "immediateAttributs": True, "linkedArticlePairs": {"array": [
            {"articleLinkId": 360777263083, "linkingTargetId": 10219},
            {"articleLinkId": 360777263018, "linkingTargetId": 10154},
        ]},
    },
    # A German key number of the demo's plates file.
    "getVehiclesByKeyNumberPlates": {
        "country": "DE", "keySystemNumber": "0696/SZ7", "keySystemType": 0, "details": True,
    },
    "getLinkageTargets": {
        "linkageTargetIds": [{"type": "P", "id": "10219"}], "mfrIds": [2],
        "includeVehicleModelSeriesFacets": True,
    },
    "getManufacturers2": {"linkingTargetType": "P", "countryGroupFlag": False},
    "getModelSeries": {"manuId": 2, "countryGroupFlag": False},
    "getModelSeries2": {"manuId": 2, "linkingTargetType": "P"},
    "getVehicleIdsByCriteria": {"manuId": 2, "modId": 201, "carType": "P"},
    "getChildNodesAllLinkingTarget2": {
        "linkingTargetId": 10219, "linked": True, "childNodes": False,
    },
    "getArticleIdsWithState": {
        "linkingTargetId": 10219, "linkingTargetType": "P", "assemblyGroupNodeId": 100010, "sort": 1,
    },
    "getDirectArticlesByIds6": {
        "articleId": {"array": [39, 84]}, "attributs": True, "basicData": True, "documents": True,
        "eanNumbers": True, "immediateAttributs": True, "immediateInfo": False, "info": False,
        "mainArticles": True, "normalAustauschPrice": False, "oeNumbers": True, "prices": True,
        "replacedByNumbers": True, "replacedNumbers": True, "thumbnails": True,
        "usageNumbers": True,
    },
    "getDirectArticlesByIds7": {
        "articleId": {"array": [39]}, "attributs": False, "basicData": True, "documents": True,
        "eanNumbers": False, "immediateAttributs": False, "immediateInfo": False, "info": False,
        "mainArticles": False, "normalAustauschPrice": False, "oeNumbers": False, "prices": False,
        "replacedByNumbers": False, "replacedNumbers": False, "thumbnails": True,
        "usageNumbers": False,
    },
    # The demo's kit 0 986 A45 240, for one of its vehicle types.
    "getArticlePartList": {"articleId": 610, "linkingTargetId": 10219},
    "getAutoCompleteSuggestions": {"lang": "en", "searchQuery": "fil"},
    "getPricesByKtype": {"linkageTargetId": "10219"},
    "getKitPrice": {"genericArticleId": 82, "isKit": False, "linkageTargetId": "10219"},
    "getExhaustKitPrice": {"linkageTargetId": "10219"},
    "addDynamicAddress": {"address": "127.0.0.9", "validityHours": 1},
    "addDynamicAPIKey": {"validityHours": 1},
}
# Answers that differ call by call (a new key, a new expiry) are compared by shape.
FRESH = {"addDynamicAPIKey": {"apiKey", "expiresAt"}, "addDynamicAddress": {"expiresAt"}}


def plain(value):
    """An answer's data: absent, empty text and empty list fields dropped (zeep reads an
    empty element of type string as None, where JSON holds "", and an element holding only
    an empty list as None, where JSON holds {"array": []})."""
    if isinstance(value, dict):
        kept = {k: plain(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in (None, "", [], {})}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def json_call(style, operation, fields):
    body = {operation: {"arg0": fields} if style == "DLW" else fields}
    request = urllib.request.Request(
        f"{SERVICES}/PartsToCat{style}.jsonEndpoint?api_key={KEY}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def client(style, session=None):
    transport = Transport(session=session) if session else None
    c = zeep.Client(f"{SERVICES}/PartsToCat{style}.soapEndpoint?wsdl", transport=transport)
    return c


def bound(c, style, port="Soap", key=KEY):
    service = c.bind(f"PartsToCat{style}", f"PartsToCat{style}{port}")
    if key:
        service._binding_options["address"] += f"?api_key={key}"
    return service


def call(service, style, operation, fields):
    method = getattr(service, operation)
    return method(arg0=fields) if style == "DLW" else method(**fields)


for style in ("DLB", "DLW"):
    c = client(style)
    operations = set(c.wsdl.port_types[f"{{urn:partscat:ws:3.0:PartsToCat{style}}}PartsToCat{style}"].operations)
    check(operations == set(CALLS), f"{style}: the WSDL lists every operation ({sorted(operations)})")
    for port in ("Soap", "Soap12"):
        service = bound(c, style, port)
        for operation, args in CALLS.items():
            fields = dict(args, provider=PROVIDER)
            answer = plain(serialize_object(call(service, style, operation, fields)))
            check(answer.get("status") == 200, f"{style}/{port} {operation}: {answer.get('statusText')}")
            if port != "Soap":
                continue
            twin = plain(json_call(style, operation, fields))
            for field in FRESH.get(operation, ()):
                check(bool(answer.pop(field, None)) and bool(twin.pop(field, None)), f"{operation} gives {field}")
            check(answer == twin, f"{style} {operation}: SOAP and JSON answers agree\n  soap {answer}\n  json {twin}")
    print(f"{style}: {len(CALLS)} operations on SOAP 1.1 and 1.2")

# The reference is found from any way of writing it, under every mode that should find it.
service = bound(client("DLB"), "DLB")
for written, mode in [
    ("0986-478-379", "exact"),
    ("0 986 478 379", "exact"),
    ("0986.478", "prefix"),
    ("478-379", "suffix"),
    ("0986-478-379", "prefix_or_suffix"),
]:
    found = service.getArticles(provider=PROVIDER, searchQuery=written, searchMatchType=mode)
    numbers = [a.articleNumber for a in found.articles]
    check("0 986 478 379" in numbers, f"getArticles {written!r} {mode} finds 0 986 478 379 ({numbers[:5]})")

# Bad input is a normal answer naming the field.
bad = service.getArticles(provider=PROVIDER, searchQuery="x", perPage=5000)
check(bad.status == 400 and "perPage" in bad.statusText, f"perPage 5000: {bad.statusText}")
refused = service.addDynamicAPIKey(provider=PROVIDER, validityHours=25)
check(refused.status == 400 and "validityHours" in refused.statusText, f"25 hours: {refused.statusText}")

# A dynamic key opens /svc and SOAP.
dynamic = service.addDynamicAPIKey(provider=PROVIDER, validityHours=1).apiKey
svc = requests.get(f"{BASE}/svc/getArticlesByKtype/10219", params={"provider": PROVIDER, "api_key": dynamic})
check(svc.status_code == 200, f"the dynamic key opens /svc ({svc.status_code})")
with_dynamic = bound(client("DLW"), "DLW", key=dynamic)
answer = with_dynamic.getBrands(arg0={"provider": PROVIDER})
check(answer.status == 200, f"the dynamic key opens SOAP ({answer.statusText})")
# ... but cannot issue grants of its own.
again = with_dynamic.addDynamicAPIKey(arg0={"provider": PROVIDER})
check(again.status == 403, f"a dynamic key cannot issue keys ({again.statusText})")


class FromAddress(requests.adapters.HTTPAdapter):
    """Connections from a chosen loopback address."""

    def __init__(self, address):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(address):
    s = requests.Session()
    s.mount("http://", FromAddress(address))
    s.mount("https://", FromAddress(address))
    return s


# An address grant admits a client bound to 127.0.0.2 without a key, and nobody else.
keyless = bound(client("DLB", session_from("127.0.0.2")), "DLB", key=None)
before = keyless.getBrands(provider=PROVIDER)
check(before.status == 401, f"127.0.0.2 without a grant ({before.status})")
granted = service.addDynamicAddress(provider=PROVIDER, address="127.0.0.2", validityHours=1)
check(granted.status == 200 and granted.address == "127.0.0.2", f"grant: {granted.statusText}")
after = keyless.getBrands(provider=PROVIDER)
check(after.status == 200, f"127.0.0.2 with a grant ({after.statusText})")
svc = session_from("127.0.0.2").get(f"{BASE}/svc/getArticlesByKtype/10219", params={"provider": PROVIDER})
check(svc.status_code == 200, f"the grant opens /svc for 127.0.0.2 ({svc.status_code})")
other = bound(client("DLB", session_from("127.0.0.3")), "DLB", key=None).getBrands(provider=PROVIDER)
check(other.status == 401, f"127.0.0.3 is not admitted ({other.status})")

if failures:
    print(f"zeep: {len(failures)} failed")
    sys.exit(1)
print("zeep: all passed")
