//! A developer reads the OpenAPI document and the UI: every route with the spec's parameters
//! and constraints, the security schemes, the errors. The document is a golden file: a change
//! to what clients see shows up in review (`PARTSCAT_UPDATE_GOLDEN=1` rewrites it).

mod common;

use common::server::{Served, client};
use serde_json::Value;

/// A route, its path parameters, and its query parameters (name, required) besides `provider`.
type Route = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, bool)],
);

const ROUTES: [Route; 22] = [
    (
        "/svc/exportGolda",
        &[],
        &[
            ("brand_id", true),
            ("is_csv_export", false),
            ("bom", false),
            ("spreadsheet", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/exportCatalogue",
        &[],
        &[
            ("brand_id", true),
            ("is_csv_export", false),
            ("is_flat_export", false),
            ("bom", false),
            ("spreadsheet", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/exportRefConcurrente",
        &[],
        &[
            ("manufacturer_id", true),
            ("bom", false),
            ("spreadsheet", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/exportRefConcurrenteInterne",
        &[],
        &[
            ("manufacturer_id", true),
            ("brand_id", true),
            ("bom", false),
            ("spreadsheet", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/getCrossRefsOrArticle/{reference}",
        &["reference"],
        &[("mainref", false), ("crossrefs", false), ("lang", false)],
    ),
    (
        "/svc/suggestNumbers/{number}",
        &["number"],
        &[("limit", false), ("lang", false)],
    ),
    (
        "/svc/mediaFile/{articleId}",
        &["articleId"],
        &[("uri", true)],
    ),
    (
        "/svc/getArticlesByKtype/{ktype}",
        &["ktype"],
        &[
            ("genart", false),
            ("brand_id", false),
            ("assembly_group", false),
            ("limit", false),
            ("after", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/getVehicleMakes",
        &[],
        &[("linkage_target_type", false), ("lang", false)],
    ),
    (
        "/svc/getModelSeries/{mfr_id}",
        &["mfr_id"],
        &[("linkage_target_type", false), ("lang", false)],
    ),
    (
        "/svc/getVehicleTypes/{model_series_id}",
        &["model_series_id"],
        &[
            ("linkage_target_type", false),
            ("page", false),
            ("per_page", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/getAssemblyGroups/{ktype}",
        &["ktype"],
        &[("linked", false), ("lang", false)],
    ),
    (
        "/svc/DMM",
        &[],
        &[
            ("brand_id", true),
            ("bom", false),
            ("spreadsheet", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/importArticles",
        &[],
        &[
            ("fileId", true),
            ("importType", true),
            ("mode", false),
            ("dryRun", false),
        ],
    ),
    (
        "/svc/syncTecdoc",
        &[],
        &[("importType", true), ("refresh", true)],
    ),
    (
        "/svc/changes",
        &[],
        &[("importType", true), ("since", false), ("wait", false)],
    ),
    (
        "/svc/exportAtc",
        &[],
        &[
            ("brand_id", true),
            ("is_csv_export", false),
            ("bom", false),
            ("spreadsheet", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/apiDMM",
        &[],
        &[
            ("brand_id", true),
            ("publish", false),
            ("download360", false),
        ],
    ),
    (
        "/svc/getPricesByKtype/{ktype}",
        &["ktype"],
        &[
            ("genart", false),
            ("brand_id", false),
            ("limit", false),
            ("after", false),
            ("lang", false),
        ],
    ),
    (
        "/svc/price/{genart}/{is_kit}/{ktype}",
        &["genart", "is_kit", "ktype"],
        &[("lang", false)],
    ),
    ("/svc/e/k/{ktype}", &["ktype"], &[("lang", false)]),
    ("/svc/jobs/{id}", &["id"], &[]),
];

fn parameter<'a>(op: &'a Value, name: &str) -> &'a Value {
    op["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("parameter {name} missing: {op}"))
}

/// A schema, or the one its `$ref` (also inside an `allOf` that adds an example) names.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")],
        None if schema["allOf"][0].is_object() => resolve(doc, &schema["allOf"][0]),
        None => schema,
    }
}

#[test]
fn the_document_describes_every_route_as_the_spec_does() {
    let s = Served::demo(&[]);
    let c = client();
    let doc: Value = s.fetch(c.get(format!("{}/openapi.json", s.base))).json();
    assert_eq!(doc["paths"].as_object().unwrap().len(), ROUTES.len());
    for (route, path_params, query_params) in ROUTES {
        let op = &doc["paths"][route]["get"];
        assert!(op.is_object(), "{route} missing");
        let params = op["parameters"].as_array().unwrap();
        // Header parameters (a conditional request's `If-None-Match`) are HTTP's, not the spec's.
        let params: Vec<&Value> = params.iter().filter(|p| p["in"] != "header").collect();
        assert_eq!(
            params.len(),
            path_params.len() + query_params.len() + 1,
            "{route}: {params:?}"
        );
        for p in path_params {
            let param = parameter(op, p);
            assert_eq!(param["in"], "path");
            assert_eq!(param["required"], true);
        }
        for (q, required) in query_params {
            let param = parameter(op, q);
            assert_eq!(param["in"], "query", "{route} {q}");
            assert_eq!(param["required"], *required, "{route} {q}");
        }
        let provider = parameter(op, "provider");
        assert_eq!(provider["required"], true);
        assert!(
            !op["description"]
                .as_str()
                .unwrap_or(op["summary"].as_str().unwrap_or(""))
                .is_empty(),
            "{route}"
        );
        for status in ["400", "401"] {
            let problem = &op["responses"][status]["content"]["application/problem+json"];
            assert!(problem.is_object(), "{route} documents {status}");
        }
        assert!(op["responses"]["200"].is_object(), "{route}");
        let security = op["security"].as_array().unwrap();
        assert_eq!(
            security.len(),
            4,
            "{route}: three key places, or an admitted address"
        );
    }
    // Constraints said in the schema.
    let golda = &doc["paths"]["/svc/exportGolda"]["get"];
    assert_eq!(parameter(golda, "brand_id")["schema"]["minimum"], 1.0);
    assert_eq!(
        parameter(golda, "is_csv_export")["schema"]["type"],
        "boolean"
    );
    assert_eq!(
        parameter(golda, "is_csv_export")["schema"]["default"],
        false
    );
    let price = &doc["paths"]["/svc/price/{genart}/{is_kit}/{ktype}"]["get"];
    assert_eq!(
        parameter(price, "is_kit")["schema"]["enum"],
        serde_json::json!([0, 1])
    );
    assert_eq!(parameter(price, "genart")["schema"]["minimum"], 1.0);
    assert_eq!(parameter(price, "ktype")["schema"]["minLength"], 1);
    let lookup = &doc["paths"]["/svc/getCrossRefsOrArticle/{reference}"]["get"];
    assert_eq!(parameter(lookup, "reference")["schema"]["minLength"], 1);
    let import = &doc["paths"]["/svc/importArticles"]["get"];
    let import_type = resolve(&doc, &parameter(import, "importType")["schema"]);
    assert_eq!(import_type["enum"].as_array().unwrap().len(), 21);
    assert!(import["responses"]["409"].is_object());
    let headers = import["responses"]["202"]["headers"].as_object().unwrap();
    assert!(headers.keys().any(|h| h.eq_ignore_ascii_case("location")));

    // Exports answer JSON or CSV, with a named row schema and a file name.
    let golda_ok = &golda["responses"]["200"];
    assert!(golda_ok["content"]["text/csv"].is_object());
    let items = &golda_ok["content"]["application/json"]["schema"]["items"];
    assert_eq!(items["$ref"], "#/components/schemas/GoldaRow");
    assert!(golda_ok["headers"]["Content-Disposition"].is_object());

    // Each error of each route has an example of its own, as the server words it.
    let example = |route: &str, status: &str| {
        doc["paths"][route]["get"]["responses"][status]["content"]["application/problem+json"]
            ["example"]["detail"]
            .as_str()
            .unwrap_or_else(|| panic!("{route} {status} has no example"))
            .to_owned()
    };
    assert!(example("/svc/jobs/{id}", "404").contains("no job"));
    assert!(example("/svc/getArticlesByKtype/{ktype}", "404").contains("Ktype"));
    assert!(example("/svc/exportGolda", "403").contains("`export` scope"));
    assert!(example("/svc/importArticles", "403").contains("`admin` scope"));
    assert!(example("/svc/importArticles", "409").contains("already running"));
    assert!(example("/svc/exportGolda", "400").contains("`brand_id`"));
    assert!(example("/svc/jobs/{id}", "400").contains("`id`"));
    assert!(example("/svc/getCrossRefsOrArticle/{reference}", "503").contains("loading"));
    // The lookup's two answers are a choice in the UI, the article first.
    let choice = |name: &str| parameter(lookup, name)["examples"].clone();
    assert_eq!(choice("mainref")["article"]["value"], "true");
    assert_eq!(choice("crossrefs")["crossReferences"]["value"], "true");
    assert_eq!(choice("crossrefs")["none"]["value"], "");

    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["ApiKeyQuery"]["in"], "query");
    assert_eq!(schemes["ApiKeyQuery"]["name"], "api_key");
    assert_eq!(schemes["ApiKeyHeader"]["in"], "header");
    assert_eq!(schemes["ApiKeyHeader"]["name"], "X-Api-Key");
    assert_eq!(schemes["KeyAsBasicUser"]["scheme"], "basic");
    for schema in [
        "Article",
        "CrossReference",
        "Price",
        "KitPrice",
        "GoldaRow",
        "Problem",
    ] {
        let s = &doc["components"]["schemas"][schema];
        assert!(s.is_object(), "{schema}");
    }
    for schema in [
        "Article",
        "Price",
        "GoldaRow",
        "FlatCatalogueRow",
        "Problem",
        "Vehicle",
    ] {
        assert!(
            doc["components"]["schemas"][schema]["example"].is_object(),
            "{schema} has an example"
        );
    }

    common::assert_golden(
        "openapi.json",
        &(serde_json::to_string_pretty(&doc).unwrap() + "\n"),
    );

    let yaml = s.fetch(c.get(format!("{}/openapi.yaml", s.base)));
    assert_eq!(yaml.status, 200);
    assert!(
        yaml.text().starts_with("openapi: 3."),
        "{}",
        &yaml.text()[..40]
    );
}

#[test]
fn the_ui_is_served_from_the_binary_alone() {
    let s = Served::demo(&[]);
    let page = s.fetch(client().get(format!("{}/docs", s.base)));
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").starts_with("text/html"));
    let html = page.text();
    assert!(
        html.contains("SwaggerUIBundle"),
        "the UI's script is inline"
    );
    assert!(html.contains("/svc/exportGolda"), "the document is inline");
    for external in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(!html.contains(external), "the page loads {external}…");
    }
    // Never framed by another site (clickjacking), and only its own inline scripts run:
    // each allowed by its hash, which is the hash of the script the page holds.
    assert_eq!(page.header("x-frame-options"), "DENY");
    assert_eq!(page.header("x-content-type-options"), "nosniff");
    let policy = page.header("content-security-policy");
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(policy.contains("default-src 'none'"), "{policy}");
    assert!(!policy.contains("script-src 'unsafe-inline'"), "{policy}");
    let last = html.rfind("<script>").unwrap() + "<script>".len();
    let end = last + html[last..].find("</script>").unwrap();
    use base64::Engine;
    use sha2::Digest;
    let hash = base64::engine::general_purpose::STANDARD
        .encode(sha2::Sha256::digest(&html.as_bytes()[last..end]));
    assert!(policy.contains(&format!("'sha256-{hash}'")), "{policy}");
    assert_eq!(policy.matches("'sha256-").count(), 2, "{policy}");
    let slash = s.fetch(client().get(format!("{}/docs/", s.base)));
    assert_eq!(slash.header("content-security-policy"), policy);
}
