"""Generates a Python client from the live /openapi.json with openapi-python-client, as an
integrator would, and calls every route with it: the generator must take every schema and
every operation, and each answer must parse into the document's own models.

    python tests/live/generated_client.py BASE_URL KEY   (the venv holds openapi-python-client)

Needs the demo catalogue, and the demo's prices.csv in the inbox (for importArticles).
"""

import pathlib
import subprocess
import sys
import tempfile
import urllib.request

base, key = sys.argv[1:3]
work = pathlib.Path(tempfile.mkdtemp())
document = work / "openapi.json"
document.write_bytes(urllib.request.urlopen(f"{base}/openapi.json").read())
generator = pathlib.Path(sys.executable).parent / "openapi-python-client"
generated = subprocess.run(
    [str(generator), "generate", "--path", str(document), "--meta", "none",
     "--output-path", str(work / "partscat_client")],
    capture_output=True, text=True, check=True,
)
# Schemas or operations the generator could not read are dropped with a warning, not an error.
dropped = [line for line in generated.stdout.splitlines()
           if "Unable to" in line or "will not be generated" in line or "removal of" in line]
if dropped:
    print(generated.stdout)
    sys.exit("the generator dropped parts of the document: " + "; ".join(dropped))

sys.path.insert(0, str(work))
from partscat_client import AuthenticatedClient  # noqa: E402
from partscat_client.api.exports import (  # noqa: E402
    dmm, export_atc, export_catalogue, export_golda, export_ref_concurrente,
    export_ref_concurrente_interne,
)
from partscat_client.api.imports import get_job, import_articles  # noqa: E402
from partscat_client.api.lookups import (  # noqa: E402
    get_articles_by_ktype, get_cross_refs_or_article, media_file, suggest_numbers,
)
from partscat_client.api.prices import exhaust_kit_price, get_prices_by_ktype, price  # noqa: E402
from partscat_client.api.synchronisation import api_dmm, get_changes, sync_tecdoc  # noqa: E402
from partscat_client.api.vehicles import (  # noqa: E402
    get_assembly_groups, get_model_series, get_vehicle_makes, get_vehicle_types,
)
from partscat_client import models  # noqa: E402

client = AuthenticatedClient(base_url=base, token=key, prefix="", auth_header_name="X-Api-Key")
P = {"client": client, "provider": "demo"}
REFERENCE, KTYPE = "0 986 494 958", "10219"

imported = import_articles.sync_detailed(
    file_id="prices.csv", import_type=models.ImportType.PRICES, dry_run=True, **P)
job_id = imported.parsed.id if isinstance(imported.parsed, models.Job) else 1

# Each route: the call, the status, and the model its answer must parse into (for a list,
# the model of its items).
calls = [
    ("exportCatalogue", lambda: export_catalogue.sync_detailed(brand_id=1, **P),
     200, models.CatalogueArticle),
    ("exportGolda", lambda: export_golda.sync_detailed(brand_id=1, **P), 200, models.GoldaRow),
    ("exportAtc", lambda: export_atc.sync_detailed(brand_id=1, **P), 200, models.AtcRow),
    ("exportRefConcurrente", lambda: export_ref_concurrente.sync_detailed(manufacturer_id=102, **P),
     200, models.CompetitorReferenceRow),
    ("exportRefConcurrenteInterne",
     lambda: export_ref_concurrente_interne.sync_detailed(manufacturer_id=102, brand_id=1, **P),
     200, models.CompetitorReferenceRow),
    ("DMM", lambda: dmm.sync_detailed(brand_id=1, **P), 200, models.DmmArticle),
    ("importArticles", lambda: imported, (200, 202), models.Job),
    ("getJob", lambda: get_job.sync_detailed(job_id, **P), 200, models.Job),
    ("getCrossRefsOrArticle?mainref",
     lambda: get_cross_refs_or_article.sync_detailed(REFERENCE, mainref="true", **P),
     200, models.ArticleAnswer),
    ("getCrossRefsOrArticle?crossrefs",
     lambda: get_cross_refs_or_article.sync_detailed(REFERENCE, crossrefs="true", **P),
     200, models.CrossReferenceAnswer),
    ("suggestNumbers", lambda: suggest_numbers.sync_detailed("0986 494", limit=10, **P),
     200, models.NumberSuggestions),
    ("getArticlesByKtype", lambda: get_articles_by_ktype.sync_detailed(KTYPE, limit=10, **P),
     200, models.KtypeArticles),
    ("getVehicleMakes", lambda: get_vehicle_makes.sync_detailed(
        linkage_target_type=models.LinkageTargetType.P, **P),
     200, models.VehicleMakes),
    ("getModelSeries", lambda: get_model_series.sync_detailed(1, **P), 200, models.MakeModelSeries),
    ("getVehicleTypes", lambda: get_vehicle_types.sync_detailed(101, per_page=10, **P),
     200, models.SeriesVehicleTypes),
    ("getAssemblyGroups", lambda: get_assembly_groups.sync_detailed(KTYPE, **P),
     200, models.VehicleAssemblyGroups),
    ("getArticlesByKtype?assembly_group",
     lambda: get_articles_by_ktype.sync_detailed(KTYPE, assembly_group=100010, limit=10, **P),
     200, models.KtypeArticles),
    ("getPricesByKtype", lambda: get_prices_by_ktype.sync_detailed(KTYPE, limit=10, **P),
     200, models.KtypePrices),
    ("price", lambda: price.sync_detailed(82, models.PriceIsKit.VALUE_0, KTYPE, **P),
     200, models.GenartPrices),
    ("exhaustKitPrice", lambda: exhaust_kit_price.sync_detailed(KTYPE, **P), 200, models.ExhaustKit),
    # The demo appliance follows no upstream: syncTecdoc's 409 must parse as a problem.
    ("syncTecdoc", lambda: sync_tecdoc.sync_detailed(
        import_type=models.ImportTypeOrAll.PRICES, refresh=False, **P), 409, models.Problem),
    # Built from the demo's media store (its drawn pictures): a job with the package's counts,
    # finished within the route's wait (200) or still running (202) on a busy machine.
    ("apiDMM", lambda: api_dmm.sync_detailed(brand_id=1, **P), (200, 202), models.Job),
]

failed = 0
for name, call, status, model in calls:
    answer = call()
    parsed = answer.parsed
    items = parsed if isinstance(parsed, list) else [parsed]
    statuses = status if isinstance(status, tuple) else (status,)
    ok = (answer.status_code in statuses and len(items) > 0
          and all(isinstance(item, model) for item in items))
    if not ok:
        failed += 1
        print(f"{name}: {answer.status_code}, parsed as {type(parsed).__name__}, "
              f"not {model.__name__}: {answer.content[:200]!r}")
    else:
        print(f"{name}: {answer.status_code} {model.__name__}"
              + (f" × {len(items)}" if isinstance(parsed, list) else ""))
# The change feed is an import file, not a model: its header row names the data set's columns.
feed = get_changes.sync_detailed(import_type=models.ImportTypeOrAll.PRICES, **P)
if feed.status_code != 200 or not feed.content.startswith(b"brand_id,reference,price_type"):
    failed += 1
    print(f"getChanges: {feed.status_code}: {feed.content[:200]!r}")
else:
    print("getChanges: 200 text/csv")
calls.append(("getChanges", None, 200, None))
# A media file is bytes, not a model: the demo's picture of 0 986 494 958 (article 462).
picture = media_file.sync_detailed(462, uri="media/1/0986494958.jpg", **P)
if picture.status_code != 200 or not picture.content.startswith(b"\x89PNG"):
    failed += 1
    print(f"mediaFile: {picture.status_code}: {picture.content[:200]!r}")
else:
    print("mediaFile: 200 image/png")
calls.append(("mediaFile", None, 200, None))
print(f"{len(calls) - failed} of {len(calls)} calls parsed into the document's models")
sys.exit(1 if failed else 0)
