//! Who is asking through the admin API (the channel, and the operator the audit names), and
//! the shape of its JSON answers: what the admin routes share.

use poem::http::StatusCode;
use poem::{IntoResponse, Request, Response};

use super::AppState;
use super::problem::Problem;
use crate::service::admin::Operator;
use crate::service::context::Context;

/// How a request reached the admin API, which says who acts.
#[derive(Debug, Clone, Copy)]
pub enum AdminChannel {
    /// The Unix socket; the operator names themself in `X-Partscat-Operator`.
    Socket,
    /// `/admin` on an HTTP listener, as an authenticated provider with the `admin` scope.
    Loopback,
}

/// The header `partscat admin` sends to name the person at the terminal, for the audit.
pub const OPERATOR_HEADER: &str = "x-partscat-operator";

/// Who acts in an admin request, for the audit.
pub(super) fn operator(req: &Request) -> Result<Operator, Problem> {
    match req.data::<AdminChannel>() {
        Some(AdminChannel::Socket) => {
            let named = req
                .headers()
                .get(OPERATOR_HEADER)
                .and_then(|v| v.to_str().ok())
                .map(|v| v.chars().filter(|c| !c.is_control()).take(100).collect())
                .unwrap_or_else(|| "unnamed".to_owned());
            Ok(Operator(format!("admin socket ({named})")))
        }
        Some(AdminChannel::Loopback) => {
            let context = req
                .extensions()
                .get::<Context>()
                .ok_or_else(|| Problem::internal("admin request without a context"))?;
            let from = req
                .remote_addr()
                .as_socket_addr()
                .map(|a| a.ip().to_canonical().to_string())
                .unwrap_or_default();
            Ok(Operator(format!(
                "provider {} from {from}",
                context.caller().provider.id
            )))
        }
        None => Err(Problem::internal("admin request without a channel")),
    }
}

/// 202 with a job just started, as it is polled (`GET /admin/jobs/:id`).
pub(super) fn job_started(state: &AppState, job: &crate::service::jobs::Job) -> Response {
    json_answer(
        StatusCode::ACCEPTED,
        &super::svc::job_status(job, &state.settings.route_prefix),
    )
}

/// A JSON answer. Answers carry keys once; no cache may keep them.
pub(super) fn json_answer(status: StatusCode, body: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => Response::builder()
            .status(status)
            .content_type("application/json")
            .header(poem::http::header::CACHE_CONTROL, "no-store")
            .body(bytes),
        Err(e) => Problem::internal(e).into_response(),
    }
}
