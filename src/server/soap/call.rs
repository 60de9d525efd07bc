//! What every operation is given (who calls, how they were admitted, the work budget) and
//! how it fails: a normal answer with a status and a text naming the field.

use std::net::IpAddr;

use serde::Serialize;
use serde_json::Value;

use crate::budget::Budget;
use crate::server::AppState;
use crate::server::problem::Problem;
use crate::service::ServiceError;
use crate::service::context::Context;

/// Who calls, and how they were admitted.
pub struct Call<'a> {
    pub state: &'a AppState,
    /// The request's snapshot, caller and language, as the gate built them. Only a caller
    /// admitted by static credentials may issue grants, so an end user cannot extend their
    /// own access.
    pub context: &'a Context,
    /// The client's address, as authentication saw it.
    pub client_ip: Option<IpAddr>,
    /// Scans stop when it is spent or the client has gone.
    pub budget: &'a Budget,
}

/// An operation-level failure: a normal answer with this status and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub status: u16,
    pub text: String,
}

impl Failure {
    pub fn new(status: u16, text: impl Into<String>) -> Failure {
        Failure {
            status,
            text: text.into(),
        }
    }

    pub fn bad(text: impl Into<String>) -> Failure {
        Failure::new(400, text)
    }
}

pub(super) const UNPARSEABLE: &str = "Unable to parse request";

/// A request that could not be read as its type: 400 on the wire too.
pub(super) fn parse_failure(text: String) -> Failure {
    Failure::bad(if text.starts_with(UNPARSEABLE) {
        text
    } else {
        format!("{UNPARSEABLE}: {text}")
    })
}

impl From<Problem> for Failure {
    fn from(p: Problem) -> Failure {
        Failure::new(p.0.status, p.0.detail)
    }
}

impl From<Failure> for Problem {
    fn from(f: Failure) -> Problem {
        let status = poem::http::StatusCode::from_u16(f.status)
            .unwrap_or(poem::http::StatusCode::BAD_REQUEST);
        Problem::new(status, f.text)
    }
}

/// A bad parameter is worded as the operations word their fields' errors: `Field 'x' …`.
impl From<ServiceError> for Failure {
    fn from(e: ServiceError) -> Failure {
        match e {
            ServiceError::BadParameter { parameter, detail } => {
                Failure::bad(format!("Field '{parameter}' {detail}"))
            }
            e => Problem::from(e).into(),
        }
    }
}

/// What an answer's fields and the copies of its text made on its way out (kept, written,
/// compressed) hold at most together, per byte of its text: a 49.5 MB `getArticles` answer
/// raised the server's resident memory by 384 MB past this point (7.8x) while a kept answer
/// was parsed again before it was written; written as kept, the same answer's peak is about
/// one copy of its text lower (`benches/load/answers_in_flight.sh 1 290 100000`, 2026-12-02:
/// 558–562 MiB over the idle server against 604–617 MiB), 6.8x.
const HELD_PER_TEXT_BYTE: u64 = 7;

/// The answer as fields, refused with 413 where its text would pass the answer bound, and
/// with 503 where the answers in flight have no room for it.
pub fn answer(value: &impl Serialize) -> Result<Value, Failure> {
    let mut size = crate::limits::AnswerSize::default();
    if serde_json::to_writer(&mut size, value).is_err() {
        return Err(Failure::new(413, crate::limits::answer_too_large()));
    }
    crate::limits::in_flight::room_for(size.0 * HELD_PER_TEXT_BYTE)
        .map_err(|_| Failure::from(ServiceError::from(crate::budget::Spent::Busy)))?;
    serde_json::to_value(value).map_err(|e| Problem::internal(e).into())
}
