//! Liveness and readiness: `/health` answers while the process serves at all; `/ready` only
//! once the catalogue is open and loaded, so a load balancer waits for the demo load.

use std::sync::Arc;

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
    let status = crate::service::status::of(&state.store);
    let mut body = json!({
        "status": "ready",
        "data_version": status.data_version,
        "updated_at": status.updated_at,
    });
    if let Some(following) = status.following {
        body["following"] = json!({
            "upstream": following.upstream,
            "data_version": following.data_version,
        });
    }
    Json(body).into_response()
}
