//! The OpenAPI document as it is served (`/openapi.json`, `/openapi.yaml`) and shown (`/docs`):
//! poem-openapi's document, with what its attributes cannot say added. Each error status of
//! each operation gets an example of its own (a 404 of a lookup names a reference, one of an
//! export a brand; a 403 names the route's scope), and `mainref`/`crossrefs` are offered as
//! a choice in the UI. An enum-valued field is a plain `$ref` rather than poem-openapi's `allOf`
//! around it, which generated clients cannot read. Built once, when the server starts.

use bytes::Bytes;
use poem::endpoint::make_sync;
use poem::{Endpoint, Response};
use poem_openapi::{OpenApi, OpenApiService, Webhook};
use serde_json::{Value, json};

mod error_examples;

use error_examples::add_error_examples;

/// The document in the three forms the server answers with.
pub struct Document {
    json: Bytes,
    yaml: Bytes,
    /// The Swagger UI page, with this document inside.
    ui: Bytes,
    /// The page's content security policy: its own inline scripts (by hash) and calls to
    /// this origin only, never framed.
    ui_policy: poem::http::HeaderValue,
}

impl Document {
    /// The document of `api`, its routes under `/{route_prefix}/` (declared under `/svc/`).
    /// `base_url`, where set, is where the page's "Try it out" calls go.
    pub fn new<T: OpenApi, W: Webhook>(
        api: &OpenApiService<T, W>,
        route_prefix: &str,
        base_url: Option<&str>,
        languages: &[String],
    ) -> Document {
        let generated = api.spec();
        let mut doc: Value = serde_json::from_str(&generated).unwrap_or(Value::Null);
        add_error_examples(&mut doc);
        name_languages(&mut doc, languages);
        offer_lookup_choice(&mut doc);
        plain_enum_refs(&mut doc);
        let json = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| generated.clone());
        // Every string that starts with a route's path (the paths, and examples such as a
        // job's statusUrl) names the maker's prefix.
        let json = json.replace("\"/svc/", &format!("\"/{route_prefix}/"));
        let doc: Value = serde_json::from_str(&json).unwrap_or(doc);
        let yaml = serde_yaml::to_string(&doc).unwrap_or_else(|_| api.spec_yaml());
        // The page embeds the document text as generated; it shows this one instead.
        let ui = api.swagger_ui_html().replacen(&generated, &json, 1);
        let ui_policy = poem::http::HeaderValue::from_str(&ui_policy(&ui, base_url))
            .unwrap_or_else(|_| poem::http::HeaderValue::from_static("frame-ancestors 'none'"));
        Document {
            json: json.into(),
            yaml: yaml.into(),
            ui: ui.into(),
            ui_policy,
        }
    }

    /// `/openapi.json`.
    pub fn json(&self) -> impl Endpoint<Output = Response> + use<> {
        answer("application/json; charset=utf-8", self.json.clone())
    }

    /// `/openapi.yaml`.
    pub fn yaml(&self) -> impl Endpoint<Output = Response> + use<> {
        answer("application/yaml; charset=utf-8", self.yaml.clone())
    }

    /// `/docs`: the UI, with its policy; it may not be framed (clickjacking).
    pub fn ui(&self) -> impl Endpoint<Output = Response> + use<> {
        let (body, policy) = (self.ui.clone(), self.ui_policy.clone());
        make_sync(move |_| {
            Response::builder()
                .content_type("text/html; charset=utf-8")
                .header(poem::http::header::CONTENT_SECURITY_POLICY, policy.clone())
                .header(poem::http::header::X_FRAME_OPTIONS, "DENY")
                .header(poem::http::header::X_CONTENT_TYPE_OPTIONS, "nosniff")
                .header(poem::http::header::REFERRER_POLICY, "no-referrer")
                .body(body.clone())
        })
    }
}

/// The UI page's policy: each of its inline scripts allowed by its SHA-256 (nothing else
/// runs), its inline styles and data: icons, calls to this origin (and `base_url`'s).
fn ui_policy(page: &str, base_url: Option<&str>) -> String {
    use base64::Engine;
    use sha2::Digest;
    let mut scripts = String::new();
    let mut rest = page;
    while let Some(open) = rest.find("<script") {
        let Some(start) = rest[open..].find('>').map(|i| open + i + 1) else {
            break;
        };
        let Some(end) = rest[start..].find("</script>").map(|i| start + i) else {
            break;
        };
        let digest = sha2::Sha256::digest(&rest.as_bytes()[start..end]);
        scripts.push_str(&format!(
            " 'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        ));
        rest = &rest[end..];
    }
    let calls = base_url
        .and_then(|url| url.parse::<poem::http::Uri>().ok())
        .and_then(|uri| Some(format!(" {}://{}", uri.scheme_str()?, uri.authority()?)))
        .unwrap_or_default();
    format!(
        "default-src 'none'; script-src{scripts}; style-src 'unsafe-inline'; img-src 'self' data:; \
         font-src 'self' data:; connect-src 'self'{calls}; form-action 'self'; base-uri 'none'; \
         frame-ancestors 'none'"
    )
}

/// An endpoint that answers these bytes (shared, not copied, per request).
fn answer(content_type: &'static str, body: Bytes) -> impl Endpoint<Output = Response> {
    make_sync(move |_| {
        Response::builder()
            .content_type(content_type)
            .body(body.clone())
    })
}

/// Every `application/problem+json` answer of every operation gets its own example.
/// Every `lang` parameter as the languages this catalogue holds (the setting
/// `catalogue.languages`): a client and its generated code see the values that are answered,
/// and no other passes for valid.
fn name_languages(doc: &mut Value, languages: &[String]) {
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    let parameters = paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|operations| operations.values_mut())
        .filter_map(|operation| operation["parameters"].as_array_mut())
        .flatten()
        .filter(|parameter| parameter["name"] == "lang" && parameter["in"] == "query");
    for parameter in parameters {
        parameter["schema"] = serde_json::json!({
            "type": "string",
            "enum": languages,
            "example": languages.first(),
        });
    }
}

/// A field whose type is an enum: poem-openapi writes `{"allOf": [{"$ref": …}, {"description":
/// …}]}` to keep the field's description, and client generators (openapi-python-client) take
/// `allOf` for objects only and drop every schema that holds one. The enum's own schema
/// carries a description, so the field becomes the `$ref` alone.
fn plain_enum_refs(doc: &mut Value) {
    let enums: Vec<String> = doc["components"]["schemas"]
        .as_object()
        .map(|schemas| {
            schemas
                .iter()
                .filter(|(_, schema)| schema.get("enum").is_some())
                .map(|(name, _)| format!("#/components/schemas/{name}"))
                .collect()
        })
        .unwrap_or_default();
    let enum_ref = |schema: &Value| {
        schema
            .pointer("/allOf/0/$ref")
            .and_then(Value::as_str)
            .filter(|r| enums.iter().any(|e| e == r))
            .map(|r| json!({ "$ref": r }))
    };
    if let Some(schemas) = doc["components"]["schemas"].as_object_mut() {
        let properties = schemas
            .values_mut()
            .filter_map(|s| s.get_mut("properties").and_then(Value::as_object_mut))
            .flat_map(|p| p.values_mut());
        for property in properties {
            if let Some(plain) = enum_ref(property) {
                *property = plain;
            }
        }
    }
    // Parameters too (`importType`): the example moves to the parameter, where it may be.
    if let Some(paths) = doc["paths"].as_object_mut() {
        let parameters = paths
            .values_mut()
            .filter_map(Value::as_object_mut)
            .flat_map(|item| item.values_mut())
            .filter_map(|op| op.get_mut("parameters").and_then(Value::as_array_mut))
            .flat_map(|list| list.iter_mut());
        for parameter in parameters {
            let Some(plain) = enum_ref(&parameter["schema"]) else {
                continue;
            };
            if let Some(example) = parameter["schema"].get("example").cloned() {
                parameter["example"] = example;
            }
            parameter["schema"] = plain;
        }
    }
}

/// `mainref` and `crossrefs` as the choice they are: each a dropdown of "send it" and "leave
/// it out", with the article pre-selected, so the UI's first call succeeds and the other
/// answer is one selection away.
fn offer_lookup_choice(doc: &mut Value) {
    let parameters = doc
        .pointer_mut("/paths/~1svc~1getCrossRefsOrArticle~1{reference}/get/parameters")
        .and_then(Value::as_array_mut);
    let Some(parameters) = parameters else {
        return;
    };
    let send = |what: &str| json!({"summary": format!("send it: {what}"), "value": "true"});
    let omit = json!({"summary": "leave it out", "value": ""});
    for parameter in parameters {
        let examples = match parameter["name"].as_str() {
            Some("mainref") => json!({"article": send("the article"), "none": omit}),
            Some("crossrefs") => {
                json!({"none": omit, "crossReferences": send("the cross-references")})
            }
            _ => continue,
        };
        if let Some(fields) = parameter.as_object_mut() {
            fields.remove("example");
            fields.insert("examples".into(), examples);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enum_field_is_a_plain_reference() {
        let mut doc = json!({"components": {"schemas": {
            "Kind": {"type": "string", "enum": ["oe"], "description": "A kind."},
            "Ref": {"type": "object", "properties": {}},
            "Number": {"type": "object", "properties": {
                "kind": {"description": "d", "allOf": [{"$ref": "#/components/schemas/Kind"}, {"description": "d"}]},
                "article": {"description": "d", "allOf": [{"$ref": "#/components/schemas/Ref"}, {"description": "d"}]}
            }}
        }}});
        plain_enum_refs(&mut doc);
        let number = &doc["components"]["schemas"]["Number"]["properties"];
        assert_eq!(number["kind"], json!({"$ref": "#/components/schemas/Kind"}));
        assert!(number["article"]["allOf"].is_array(), "objects keep theirs");
    }

    #[test]
    fn each_error_of_each_route_has_its_own_example() {
        let mut doc = json!({"paths": {
            "/svc/exportGolda": {"get": {
                "operationId": "exportGolda",
                "parameters": [{"name": "brand_id", "schema": {"type": "integer"}}],
                "responses": {
                    "200": {"content": {"text/csv": {}}},
                    "400": {"content": {"application/problem+json": {}}},
                    "403": {"content": {"application/problem+json": {}}},
                    "404": {"content": {"application/problem+json": {}}}
                }
            }},
            "/svc/jobs/{id}": {"get": {
                "operationId": "getJob",
                "parameters": [{"name": "id", "schema": {"type": "integer"}}],
                "responses": {"404": {"content": {"application/problem+json": {}}}}
            }}
        }});
        add_error_examples(&mut doc);
        let golda = &doc["paths"]["/svc/exportGolda"]["get"]["responses"];
        let example =
            |status: &str| &golda[status]["content"]["application/problem+json"]["example"];
        assert_eq!(example("400")["parameter"], "brand_id");
        assert_eq!(example("400")["status"], 400);
        assert!(
            example("403")["detail"]
                .as_str()
                .unwrap()
                .contains("`export`")
        );
        assert_eq!(example("404")["title"], "Not Found");
        assert_eq!(
            golda["200"],
            json!({"content": {"text/csv": {}}}),
            "left as it was"
        );
        let job = &doc["paths"]["/svc/jobs/{id}"]["get"]["responses"]["404"];
        assert_eq!(
            job["content"]["application/problem+json"]["example"]["detail"],
            "there is no job 7"
        );
    }
}
