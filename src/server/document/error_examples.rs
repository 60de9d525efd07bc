//! An example of its own for each error status of each operation of the document: a 404 of a
//! lookup names a reference, one of an export a brand; a 403 names the route's scope.

use serde_json::{Value, json};

use crate::accounts::Scope;

pub(super) fn add_error_examples(doc: &mut Value) {
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for operation in operations.values_mut() {
            let id = operation["operationId"].as_str().unwrap_or("").to_owned();
            let parameter = first_parameter(operation);
            let Some(responses) = operation["responses"].as_object_mut() else {
                continue;
            };
            for (status, response) in responses.iter_mut() {
                let Ok(status) = status.parse::<u16>() else {
                    continue;
                };
                // `get_mut`: indexing would add a null media type where there is none.
                let media = response
                    .get_mut("content")
                    .and_then(|c| c.get_mut("application/problem+json"))
                    .and_then(Value::as_object_mut);
                if let Some(media) = media {
                    media.insert(
                        "example".into(),
                        problem(status, &id, path, parameter.as_ref()),
                    );
                }
            }
        }
    }
}

/// The first parameter a caller could get wrong (not `provider`), with its schema type.
fn first_parameter(operation: &Value) -> Option<(String, String)> {
    operation["parameters"]
        .as_array()?
        .iter()
        .find(|p| p["name"] != "provider")
        .map(|p| {
            let kind = p["schema"]["type"].as_str().unwrap_or("string");
            (p["name"].as_str().unwrap_or("").to_owned(), kind.to_owned())
        })
}

/// A problem+json body as the server writes it for this status on this route.
fn problem(status: u16, id: &str, path: &str, parameter: Option<&(String, String)>) -> Value {
    let title = poem::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let mut body = json!({"type": "about:blank", "title": title, "status": status});
    let (detail, names) = match status {
        400 => bad_request(id, parameter),
        401 => ("the provider or its key is not valid".to_owned(), None),
        403 => (forbidden(path), None),
        404 => (not_found(id), None),
        409 => (
            "an import is already running; poll its job and try again when it has finished"
                .to_owned(),
            None,
        ),
        429 => (
            "provider `demo` is over its rate limit; retry after 1 s".to_owned(),
            None,
        ),
        501 => (format!("`{id}` is not implemented in this release"), None),
        503 => ("the catalogue is still loading".to_owned(), None),
        _ => (title.to_owned(), None),
    };
    body["detail"] = Value::String(detail);
    if let Some(name) = names {
        body["parameter"] = Value::String(name);
    }
    body
}

fn bad_request(id: &str, parameter: Option<&(String, String)>) -> (String, Option<String>) {
    if id == "getCrossRefsOrArticle" {
        return (
            "give `mainref` (the article) or `crossrefs` (its cross-references)".into(),
            Some("mainref".into()),
        );
    }
    let Some((name, kind)) = parameter else {
        return ("the request is not valid".into(), None);
    };
    let detail = match kind.as_str() {
        "integer" => format!("parameter `{name}` must be a positive integer (1 or more)"),
        "boolean" => format!("parameter `{name}` must be `true` or `false`"),
        _ => format!("parameter `{name}` is missing or empty"),
    };
    (detail, Some(name.clone()))
}

/// The scope the route needs, as the authorisation layer words its refusal.
fn forbidden(path: &str) -> String {
    let scope = crate::server::registry::route_of(path).map_or(Scope::Read, |route| route.scope);
    format!(
        "Access denied: provider `demo` lacks the `{}` scope this route needs",
        scope.name()
    )
}

fn not_found(id: &str) -> String {
    match id {
        "getCrossRefsOrArticle" => "no article has the reference 'NOSUCHREF'".into(),
        "getArticlesByKtype" | "getPricesByKtype" | "price" | "exhaustKitPrice" => {
            "no vehicle has the Ktype '99999'".into()
        }
        "exportRefConcurrente" | "exportRefConcurrenteInterne" => {
            "no manufacturer has the id 999".into()
        }
        "importArticles" => {
            "the import inbox /var/spool/partscat/inbox has no file 'prices.csv'".into()
        }
        "getJob" => "there is no job 7".into(),
        _ => "no brand has the id 99".into(),
    }
}
