//! Liveness and readiness: `/health` answers while the process serves at all; `/ready` only
//! once the catalogue is open and loaded, so a load balancer waits for the demo load.

use std::sync::Arc;

use crate::import::ImportType;

use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{IntoResponse, Response, handler};
use serde_json::json;

use super::AppState;

#[handler]
pub async fn health() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

#[handler]
pub async fn ready(Data(state): Data<&Arc<AppState>>) -> Response {
    if !state.is_ready() {
        let body = json!({
            "type": "about:blank",
            "title": "Service Unavailable",
            "status": 503,
            "detail": format!("the catalogue is still loading: {}", state.loading()),
        });
        return Json(body)
            .with_status(StatusCode::SERVICE_UNAVAILABLE)
            .with_content_type("application/problem+json")
            .into_response();
    }
    let catalogue = state.store.catalogue();
    let mut body = json!({
        "status": "ready",
        "data_version": catalogue.data_version(),
        "updated_at": catalogue.updated_at(),
    });
    // How far a follower has come: the lowest data version its data sets reached upstream.
    let mark = catalogue.sync_mark();
    let reached = mark
        .reached
        .iter()
        .filter_map(|(_, position)| position.parse::<u64>().ok())
        .min();
    if let Some(reached) = reached.filter(|_| mark.reached.len() == ImportType::ALL.len()) {
        body["following"] = json!({ "upstream": mark.upstream, "data_version": reached });
    }
    Json(body).into_response()
}
