"""Answers of the operations partscat shares with TecDoc Pegasus 3.0, validated against the
Pegasus types (tests/interop/pegasus_types.json, our JSON Schema rendering of Pegasus's public
DLB schema), through both JSON endpoints, with requests as a Pegasus client sends them: every
field of the request type, the unset ones null.

    python tests/interop/pegasus_check.py BASE_URL PROVIDER KEY
"""

import json
import os
import pathlib
import sys
import urllib.request

import jsonschema_rs

BASE, _, KEY = sys.argv[1:4]
# A Pegasus client names its provider by an integer (its ProviderId): the demo provider's
# numeric alias.
PROVIDER = int(os.environ.get("PROVIDER_NUMBER", "1"))
SERVICES = f"{BASE}/ws/3.0/services"
# brand_name of the appliance: TecDoc client code calls TecdocToCatDLB…
BRAND = os.environ.get("BRAND", "Parts")
TYPES = json.loads((pathlib.Path(__file__).parent / "pegasus_types.json").read_text())

ARTICLES_REQUEST = [
    "articleCountry", "searchQuery", "searchType", "searchMatchType", "legacyArticleIds",
    "dataSupplierIds", "genericArticleIds", "assemblyGroupNodeIds", "criteriaFilters",
    "linkageTargetId", "linkageTargetType", "linkageTargetCountry", "newArticlesDateFrom",
    "newArticlesDateTo", "newLinkagesDateFrom", "newLinkagesDateTo", "newLinkagesMfrId", "lang",
    "perPage", "page", "linkagesPerPage", "linkagesPage", "sort", "includeAll", "includeMisc",
    "includeGenericArticles", "includeArticleText", "includeGTINs", "includeTradeNumbers",
    "includeOEMNumbers", "includeReplacesArticles", "includeReplacedByArticles",
    "includeArticleCriteria", "includeLinkages", "includePDFs", "includeImages",
    "includeDataSupplierFacets", "includeGenericArticleFacets", "assemblyGroupFacetOptions",
    "includeCriteriaFacets", "includeComparableNumbers", "includeLinks", "includePrices",
]
VEHICLE_REQUEST = [
    "articleCountry", "axles", "cabs", "carIds", "countriesCarSelection", "country",
    "countryGroupFlag", "kbaData", "lang", "motorCodes", "numberplateType", "protoTypes",
    "registrationInfo", "secondaryTypes", "wheelbases",
]


def request(fields, **given):
    """Every field null but those given, with the provider as a Pegasus client names it."""
    body = {name: None for name in fields}
    body.update(given, provider=PROVIDER)
    return body


def call(style, operation, fields):
    body = {operation: {"arg0": fields} if style == "DLW" else fields}
    answer = urllib.request.Request(
        f"{SERVICES}/{BRAND}ToCat{style}.jsonEndpoint?api_key={KEY}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(answer) as answered:
        return json.load(answered)


# The numeric id of an article that fits vehicle types and is part of a kit.
LEGACY_ID = call("DLB", "getArticles", request(
    ARTICLES_REQUEST, searchQuery="0986478849", includeGenericArticles=True,
))["articles"][0]["genericArticles"][0]["legacyArticleId"]
# The demo's kit 0 986 A45 240.
KIT_ID = call("DLB", "getArticles", request(
    ARTICLES_REQUEST, searchQuery="0986A45240", includeGenericArticles=True,
))["articles"][0]["genericArticles"][0]["legacyArticleId"]
# Two of its links, as getArticleLinkedAllLinkingTargetsByIds3 takes them back.
LINK_PAIRS = [
    {"articleLinkId": link["articleLinkId"], "linkingTargetId": link["linkingTargetId"]}
    for link in call("DLB", "getArticleLinkedAllLinkingTarget4", request(
        ["articleId"], articleId=LEGACY_ID,
    ))["data"]["array"][0]["articleLinkages"]["array"][:2]
]

CALLS = [
    ("getArticles", "articlesResponse", request(
        ARTICLES_REQUEST, articleCountry="DE", searchQuery="0986478379", searchType=10,
        includeAll=True, includeDataSupplierFacets=True, includeGenericArticleFacets=True,
        assemblyGroupFacetOptions={"enabled": True})),
    ("getArticles", "articlesResponse", request(
        ARTICLES_REQUEST, searchQuery="0986", searchMatchType="prefix", perPage=50,
        includeAll=True, linkagesPerPage=2, sort=[{"field": "mfrName", "direction": "desc"}])),
    # The demo's shock absorbers (brand 4, genart 854) of one type (criterion 13, key 1),
    # counted per value.
    ("getArticles", "articlesResponse", request(
        ARTICLES_REQUEST, dataSupplierIds=[4], genericArticleIds=[854], includeCriteriaFacets=True,
        includeArticleCriteria=True, criteriaFilters=[{"criteriaId": 13, "rawValue": "1"}])),
    ("getArticleLinkedAllLinkingTargetManufacturer2", "articleLinkedAllLinkingTargetManufacturer2Response", request(
        ["articleCountry", "articleId", "country", "countryGroupFlag", "linkingTargetType"],
        articleId=84, linkingTargetType='P')),
    ("getArticleLinkedAllLinkingTargetManufacturer", "articleLinkedAllLinkingTargetManufacturerResponse", request(
        ["articleCountry", "articleId", "linkingTargetType"],
        articleId=84)),
    ("getManufacturers2", "manufacturers2Response", request(
        ["country", "countryGroupFlag", "favouredList", "lang", "linkingTargetType"],
        linkingTargetType='P', countryGroupFlag=False)),
    ("getModelSeries", "modelSeriesResponse", request(
        ["country", "countryGroupFlag", "favouredList", "lang", "linkingTargetType", "manuId"],
        manuId=2, countryGroupFlag=False)),
    ("getModelSeries2", "modelSeries2Response", request(
        ["country", "countryGroupFlag", "favouredList", "lang", "linkingTargetType", "manuId"],
        manuId=2, linkingTargetType='P')),
    ("getVehicleIdsByCriteria", "vehicleIdsByCriteriaResponse", request(
        ["axisConfigurationId", "carType", "constructionTypeId", "countriesCarSelection", "countryGroupFlag", "cylinderCapacityFrom", "cylinderCapacityTo", "favouredList", "fuelTypeId", "lang", "manuId", "modId", "modelDescription", "powerFrom", "powerHpType", "powerTo", "tonnageFrom", "tonnageTo", "yearOfConstruction"],
        manuId=2, modId=201, carType='P')),
    ("getChildNodesAllLinkingTarget2", "childNodesAllLinkingTarget2Response", request(
        ["articleCountry", "childNodes", "lang", "linked", "linkingTargetId", "linkingTargetType", "parentNodeId", "shortCutId"],
        linkingTargetId=10219, linked=True, childNodes=False)),
    ("getArticleIdsWithState", "articleIdsWithStateResponse", request(
        ["articleCountry", "assemblyGroupNodeId", "brandNo", "genericArticleId", "lang", "linkingTargetId", "linkingTargetType", "sort"],
        linkingTargetId=10219, linkingTargetType='P', assemblyGroupNodeId=100010, sort=1)),
    ("getDirectArticlesByIds6", "articlesByIds6Response", request(
        ["articleCountry", "articleId", "attributs", "basicData", "documents", "eanNumbers", "immediateAttributs", "immediateInfo", "info", "lang", "mainArticles", "normalAustauschPrice", "oeNumbers", "priceDate", "prices", "replacedByNumbers", "replacedNumbers", "thumbnails", "usageNumbers"],
        articleId={'array': [39, 84]}, attributs=True, basicData=True, documents=True, eanNumbers=True, immediateAttributs=True, immediateInfo=False, info=False, mainArticles=True, normalAustauschPrice=False, oeNumbers=True, prices=True, replacedByNumbers=True, replacedNumbers=True, thumbnails=True, usageNumbers=True)),
    ("getDirectArticlesByIds7", "articlesByIds7Response", request(
        ["articleCountry", "articleId", "attributs", "basicData", "documents", "eanNumbers", "immediateAttributs", "immediateInfo", "info", "lang", "mainArticles", "normalAustauschPrice", "oeNumbers", "priceDate", "prices", "replacedByNumbers", "replacedNumbers", "thumbnails", "usageNumbers"],
        articleId={'array': [39]}, attributs=False, basicData=True, documents=True, eanNumbers=False, immediateAttributs=False, immediateInfo=False, info=False, mainArticles=False, normalAustauschPrice=False, oeNumbers=False, prices=False, replacedByNumbers=False, replacedNumbers=False, thumbnails=True, usageNumbers=False)),
    ("getAutoCompleteSuggestions", "autoCompleteSuggestionsResponse", request(
        ["lang", "searchQuery"],
        lang='en', searchQuery='fil')),
    ("getCriteria2", "criteria2Response", request(["lang"], lang="de")),
    ("getKeyValues", "keyValuesResponse", request(["keyTableId", "lang"], keyTableId=1)),
    ("getVehiclesByVIN", "vehiclesByVINResponse", request(
        ["country", "lang", "vin", "manuId", "modelId", "maxVehiclesToReturn"],
        vin="WAUKSK2X5MA123456", country="DE", maxVehiclesToReturn=5)),
    ("getOEArticlesByVIN", "oEArticlesByVINResponse", request(
        ["aftermarketDataSupplierIds", "articleCountry", "assemblyGroupFacetOptions",
         "assemblyGroupNodeIds", "genericArticleIds", "includeAftermarketDataSupplierFacets",
         "includeAftermarketMatches", "includeGenericArticleFacets", "lang", "page", "perPage",
         "sort", "vin"],
        vin="WAUKSK2X5MA123456", articleCountry="DE", includeAftermarketMatches=True,
        includeGenericArticleFacets=True, includeAftermarketDataSupplierFacets=True,
        assemblyGroupFacetOptions={"enabled": True, "assemblyGroupType": "P"})),
    ("getCountryGroups", "countryGroupsResponse", request(["lang"], lang="de")),
    ("getMotorIdsByManuIdCriteria2", "motorIdsByManuIdCriteria2Response", request(
        ["country", "countryGroupFlag", "cylinderCapacityFrom", "cylinderCapacityTo", "fuelTypeId",
         "lang", "manuId", "motorCode", "powerFrom", "powerHpType", "powerTo", "searchExactCode",
         "searchExactTerm", "sellsTerm", "yearOfConstruction"],
        manuId=2, motorCode="CHZD", countryGroupFlag=False)),
    ("getVehicleIdsByMotor2", "vehicleIdsByMotor2Response", request(
        ["carType", "countriesCarSelection", "countryGroupFlag", "lang", "motorId"],
        motorId=6496379095573538, countryGroupFlag=False, carType="P")),
    ("getShortCuts2", "shortCuts2Response", request(
        ["articleCountry", "lang", "linked", "linkingTargetId", "linkingTargetType"],
        linked=True, linkingTargetId=10219, linkingTargetType="P", lang="de")),
    ("getAmBrandAddress", "amBrandAddressResponse", request(
        ["articleCountry", "brandNo", "lang"], brandNo=1)),
    ("getArticleDirectSearchAllNumbersWithState", "articleDirectSearchAllNumbersWithStateResponse",
     request(["articleCountry", "articleNumber", "brandId", "genericArticleId", "lang", "numberType",
              "searchExact", "sortType"],
             articleNumber="9N0 690 938 B", numberType=10, searchExact=True, sortType=1)),
    ("getAmBrands", "amBrandsResponse", request(["articleCountry", "lang"])),
    ("getGenericArticles", "genericArticlesResponse", request(
        ["articleCountry", "lang", "linked", "linkingTargetId", "linkingTargetType",
         "searchTreeNodes"], linked=True, linkingTargetId=10219, searchTreeNodes=False)),
    ("getManufacturers", "manufacturersResponse", request(
        ["country", "countryGroupFlag", "favouredList", "lang", "linkingTargetType"],
        countryGroupFlag=False)),
    ("getLanguages", "languagesResponse", request(["lang"])),
    ("getCountries", "countriesResponse", request(["lang"])),
    ("getVehicleByIds3", "vehicleByIdsResponse", request(
        VEHICLE_REQUEST, carIds={"array": [10219, 10536]}, motorCodes=True)),
    ("getVehicleByIds4", "vehicleByIdsResponse", request(
        VEHICLE_REQUEST, carIds={"array": [10219]})),
    ("getArticleLinkedAllLinkingTarget4", "articleLinkedAllLinkingTarget4Response", request(
        ["articleCountry", "articleId", "country", "countryGroupFlag", "lang", "linkingTargetId",
         "linkingTargetManuId", "linkingTargetType", "withMainArticles"],
        articleId=LEGACY_ID, countryGroupFlag=False, linkingTargetManuId=0, linkingTargetType="P",
        withMainArticles=True)),
    ("getArticleLinkedAllLinkingTargetManufacturer2",
     "articleLinkedAllLinkingTargetManufacturer2Response", request(
         ["articleCountry", "articleId", "country", "countryGroupFlag", "linkingTargetType"],
         articleId=LEGACY_ID, countryGroupFlag=False, linkingTargetType="P")),
    ("getArticleLinkedAllLinkingTargetManufacturer",
     "articleLinkedAllLinkingTargetManufacturerResponse", request(
         ["articleCountry", "articleId", "linkingTargetType"], articleId=LEGACY_ID)),
    ("getPegasusVersionInfo2", "pegasusVersionInfo2Response", request([])),
    ("getArticleLinkedAllLinkingTarget3", "articleLinkedAllLinkingTarget3Response", request(
        ["articleCountry", "articleId", "lang", "linkingTargetId", "linkingTargetManuId",
         "linkingTargetType", "withMainArticles"],
        articleId=LEGACY_ID, linkingTargetManuId=0, withMainArticles=True)),
    ("getArticlePartList", "articlePartListResponse", request(
        ["articleCountry", "articleId", "articleLinkId", "lang", "linkingTargetId",
         "linkingTargetType", "priceDate"], articleId=KIT_ID, linkingTargetId=10219)),
    ("getArticleLinkedAllLinkingTargetsByIds3", "articleLinkedAllLinkingTargetsByIds3Response",
     request(["articleCountry", "articleId", "immediateAttributs", "lang", "linkedArticlePairs",
              "linkingTargetType", "numberplateType"],
             articleId=LEGACY_ID, immediateAttributs=True, linkingTargetType="P",
             linkedArticlePairs={"array": LINK_PAIRS})),
    ("getVehiclesByKeyNumberPlates", "vehiclesByKeyNumberPlatesResponse", request(
        ["companyName", "country", "details", "endCustomerPassword", "endCustomerUsername",
         "idKey", "initials", "keySystemNumber", "keySystemType", "lang", "linkingTargetType",
         "mandatorPassword", "mandatorUsername", "picture", "productId", "serviceName"],
        country="DE", details=True, keySystemNumber="0696/SZ7", keySystemType=0, picture=False)),
    ("addDynamicAddress", "dynamicAddressResponse", request(
        ["address", "validityHours"], address="127.0.0.9", validityHours=1)),
    ("addDynamicAPIKey", "dynamicAPIKeyResponse", request(["validityHours"], validityHours=1)),
]

failed = 0


for style in ("DLB", "DLW"):
    for operation, type_name, fields in CALLS:
        answer = call(style, operation, fields)
        schema = dict(TYPES, **{"$ref": f"#/$defs/{type_name}"})
        errors = [f"{e.instance_path}: {e.message}" for e in jsonschema_rs.validator_for(schema).iter_errors(answer)]
        if answer.get("status") != 200:
            errors.insert(0, f"status {answer.get('status')}: {answer.get('statusText')}")
        if errors:
            failed += 1
            print(f"FAIL {style} {operation} is not a Pegasus {type_name}:")
            for e in errors[:10]:
                print(f"  {e}")
        # The answers hold something to check, not only empty lists.
        if operation == "getArticles" and not answer.get("articles"):
            failed += 1
            print(f"FAIL {style} {operation} found no article")
        # What the TecDoc PHP client reads of an article (found by a query: its matches).
        for article in answer.get("articles", []) if operation == "getArticles" else []:
            queried = fields.get("searchQuery") is not None
            lacking = ["searchQueryMatches"] if queried and not article["searchQueryMatches"] else []
            lacking += [
                f"prices[].{field}" for price in article["prices"]
                for field in ("price", "priceCents", "discountGroup", "isDiscount", "validDateTo")
                if field not in price
            ]
            if lacking:
                failed += 1
                print(f"FAIL {style} {operation}: {article['articleNumber']} lacks {', '.join(sorted(set(lacking)))}")
        if operation == "getArticleLinkedAllLinkingTarget4" and not (
            answer["data"]["array"][0]["articleLinkages"]["array"]
            and answer["data"]["array"][0]["mainArticleLinkages"]["array"]
        ):
            failed += 1
            print(f"FAIL {style} {operation} found no vehicle type or no kit")
        if operation == "getArticleLinkedAllLinkingTargetsByIds3" and not (
            len(answer["data"]["array"]) == len(LINK_PAIRS) == 2
            and all(r["linkedVehicles"]["array"] for r in answer["data"]["array"])
        ):
            failed += 1
            print(f"FAIL {style} {operation} did not answer both links with their vehicle type")
        if operation == "getArticleDirectSearchAllNumbersWithState" and not answer["data"]["array"]:
            failed += 1
            print(f"FAIL {style} {operation} found no article")
        if operation == "getVehiclesByKeyNumberPlates" and not answer["data"]["array"]:
            failed += 1
            print(f"FAIL {style} {operation} found no vehicle type")
    print(f"{style}: {len(CALLS)} calls checked against the Pegasus types")

print("pegasus types: all passed" if failed == 0 else f"pegasus types: {failed} failed")
sys.exit(1 if failed else 0)
