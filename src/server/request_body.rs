//! A request body's bounds, which poem does not set: how large it may be, checked against a
//! declared `Content-Length` at once and counted as a chunked body arrives (poem's
//! `SizeLimit` reads only `Content-Length`), and how fast it must come. Small and quick for
//! every route but the import files `partscat import` streams to the running server.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use poem::http::StatusCode;
use poem::{Body, Endpoint, IntoResponse, Request, Response};
use tokio::time::Instant;

use super::problem::Problem;
use crate::limits::{Limits, RateFloor};

/// A request body must have arrived whole this long after its handler starts reading it.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest request body any route reads (but the streamed import).
pub const MAX_BODY_BYTES: u64 = 16 * 1024 * 1024;

/// The error a bounded body yields once it passes the limit; readers answer 413 for it.
#[derive(Debug, thiserror::Error)]
#[error("the request body is larger than {bytes} bytes{}", setting.map(|s| format!(" ({s})")).unwrap_or_default())]
pub struct BodyTooLarge {
    pub bytes: u64,
    /// The setting that sets the bound, where one does.
    pub setting: Option<&'static str>,
}

/// How much of a request body a route reads, and how fast it must come.
#[derive(Debug, Clone, Copy)]
struct BodyBound {
    max_bytes: u64,
    setting: Option<&'static str>,
    /// The whole body within this long of its handler's first read.
    deadline: Duration,
    /// Besides, at least this many bytes in each window of `RateFloor::WINDOW`.
    floor: Option<Limits>,
}

impl BodyBound {
    /// The import files `partscat import` streams to a running server may be as large as
    /// `limits.import_mb` and take `limits.transfer_deadline_s`, as long as they keep the
    /// minimum rate; every other body is small and quick.
    fn of(req: &Request) -> BodyBound {
        let limits = req
            .data::<Arc<super::AppState>>()
            .map(|state| state.settings.limits);
        match limits {
            Some(limits) if req.uri().path() == "/admin/import" => BodyBound {
                max_bytes: limits.import_bytes(),
                setting: Some("limits.import_mb"),
                deadline: limits.transfer_deadline(),
                floor: Some(limits),
            },
            _ => BodyBound {
                max_bytes: MAX_BODY_BYTES,
                setting: None,
                deadline: BODY_READ_TIMEOUT,
                floor: None,
            },
        }
    }

    fn too_large(&self) -> BodyTooLarge {
        BodyTooLarge {
            bytes: self.max_bytes,
            setting: self.setting,
        }
    }
}

/// `bound` around an endpoint (the admin socket's).
pub async fn bound_body<E: Endpoint>(next: E, mut req: Request) -> poem::Result<Response> {
    if let Some(refused) = bound(&mut req) {
        return Ok(refused);
    }
    Ok(next.call(req).await?.into_response())
}

/// Refuses a declared length over the route's bound at once (the answer), and cuts a
/// chunked body off where it passes the bound, or where it comes too slowly (none: the
/// request goes on).
pub fn bound(req: &mut Request) -> Option<Response> {
    let bound = BodyBound::of(req);
    let declared = req
        .headers()
        .get(poem::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > bound.max_bytes) {
        let problem = Problem::new(StatusCode::PAYLOAD_TOO_LARGE, bound.too_large().to_string());
        return Some(problem.into_response());
    }
    let body = req.take_body();
    if body.is_empty() {
        // No body at all (a plain GET): nothing to bound.
        req.set_body(body);
        return None;
    }
    let started = Instant::now();
    let deadline = started + bound.deadline;
    let floor = bound
        .floor
        .map(|limits| RateFloor::new(&limits, started.into_std()));
    let chunks = Box::pin(body.into_bytes_stream());
    let bounded = futures_util::stream::unfold(
        (chunks, 0u64, false, floor),
        move |(mut chunks, mut seen, failed, mut floor)| async move {
            if failed {
                return None;
            }
            let next = loop {
                let wake = floor.as_ref().map_or(deadline, |f| {
                    deadline.min(Instant::from_std(f.window_end()))
                });
                let arrived = tokio::time::timeout_at(wake, chunks.next()).await;
                let now = Instant::now();
                if now >= deadline && arrived.is_err() {
                    break Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!(
                            "the request body did not arrive within {} s",
                            bound.deadline.as_secs()
                        ),
                    ));
                }
                let bytes = match &arrived {
                    Ok(Some(Ok(chunk))) => chunk.len() as u64,
                    _ => 0,
                };
                if let Some(floor) = floor.as_mut()
                    && let Err(slow) = floor.arrived(bytes, now.into_std())
                {
                    break Err(io::Error::new(io::ErrorKind::TimedOut, slow));
                }
                match arrived {
                    Err(_) => continue,
                    Ok(None) => return None,
                    Ok(Some(Err(e))) => break Err(e),
                    Ok(Some(Ok(chunk))) => {
                        seen += chunk.len() as u64;
                        if seen > bound.max_bytes {
                            break Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                bound.too_large(),
                            ));
                        }
                        break Ok(chunk);
                    }
                }
            };
            let failed = next.is_err();
            Some((next, (chunks, seen, failed, floor)))
        },
    );
    req.set_body(Body::from_bytes_stream(bounded));
    None
}

/// The status for a body that could not be read: 408 when it came too slowly, 413 when it
/// passed the limit, else 400.
pub fn body_error_status(e: &io::Error) -> StatusCode {
    if e.kind() == io::ErrorKind::TimedOut {
        StatusCode::REQUEST_TIMEOUT
    } else if e
        .get_ref()
        .is_some_and(|inner| inner.downcast_ref::<BodyTooLarge>().is_some())
    {
        StatusCode::PAYLOAD_TOO_LARGE
    } else {
        StatusCode::BAD_REQUEST
    }
}
