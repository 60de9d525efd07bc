//! Outgoing HTTP: to an upstream's change feed, a media server and an HTTP publish target.
//! One client shape for all three: a redirect is followed only within the origin asked
//! (twice at most), so a key or a password never reaches another server; an error's body is
//! read only up to `ERROR_BODY` bytes; and a transfer ends by name when it passes its
//! deadline or falls below the minimum rate (`[limits]`). Over HTTPS the certificate is
//! checked as `Trust` says, and a refused one is named with why.

use std::time::Duration;

use super::tls::{self, Trust};
use crate::limits::{Limits, RateFloor};

/// Redirects followed within the same origin, at most.
const SAME_ORIGIN_REDIRECTS: usize = 2;
/// How much of an error answer is read, for its message.
pub const ERROR_BODY: usize = 4096;

/// A client that follows redirects only within the origin first asked, and trusts
/// certificates as `trust` says (`section` names its settings in errors).
pub fn client(
    connect: Duration,
    silence: Duration,
    trust: &Trust,
    section: &str,
) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .tls_backend_preconfigured(trust.client_config(section)?)
        .connect_timeout(connect)
        .read_timeout(silence)
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            let first = attempt.previous().first().map(|u| u.origin());
            if first.as_ref() != Some(&attempt.url().origin()) {
                // The 3xx itself is answered to the caller, which names it.
                attempt.stop()
            } else if attempt.previous().len() > SAME_ORIGIN_REDIRECTS {
                attempt.error(format!("more than {SAME_ORIGIN_REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        }))
        .build()
        .map_err(|e| with_causes(&e))
}

/// Why a redirect answer was not followed, if `response` is one.
pub fn unfollowed_redirect(response: &reqwest::Response) -> Option<String> {
    if !response.status().is_redirection() {
        return None;
    }
    let to = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("nowhere");
    Some(format!(
        "it answered {} with a redirect to {}, another origin, which is not followed",
        response.status().as_u16(),
        to.chars().take(200).collect::<String>()
    ))
}

/// The start of an error answer's body as text, read no further than `ERROR_BODY` bytes.
pub async fn error_text(mut response: reqwest::Response) -> String {
    let mut body = Vec::new();
    let read = async {
        while body.len() < ERROR_BODY {
            match response.chunk().await {
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                _ => break,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), read).await;
    body.truncate(ERROR_BODY);
    String::from_utf8_lossy(&body).into_owned()
}

/// Why a transfer ended early.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    #[error("it took longer than the deadline of {0} s (limits.transfer_deadline_s)")]
    Deadline(u64),
    #[error("it was {0}")]
    TooSlow(String),
    #[error("{0}")]
    Broken(String),
    /// The server's certificate was refused (or this side's by the server): trying again
    /// changes nothing.
    #[error("{0}")]
    Refused(String),
}

/// The clock of one transfer: its deadline, and the minimum rate over each window.
pub struct Pace {
    deadline: tokio::time::Instant,
    deadline_s: u64,
    floor: RateFloor,
}

impl Pace {
    pub fn start(limits: &Limits) -> Pace {
        let now = tokio::time::Instant::now();
        Pace {
            deadline: now + limits.transfer_deadline(),
            deadline_s: limits.transfer_deadline_s,
            floor: RateFloor::new(limits, now.into_std()),
        }
    }

    /// Sends `request`, within the deadline.
    pub async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, TransferError> {
        tokio::time::timeout_at(self.deadline, request.send())
            .await
            .map_err(|_| TransferError::Deadline(self.deadline_s))?
            .map_err(|e| match tls::refusal(&e) {
                Some(why) => TransferError::Refused(why),
                None => TransferError::Broken(with_causes(&e)),
            })
    }

    /// The next piece of `response`'s body (`None` at its end), within the deadline and
    /// above the minimum rate.
    pub async fn chunk(
        &mut self,
        response: &mut reqwest::Response,
    ) -> Result<Option<bytes::Bytes>, TransferError> {
        loop {
            let wake = self.deadline.min(self.floor.window_end().into());
            match tokio::time::timeout_at(wake, response.chunk()).await {
                Ok(chunk) => {
                    let chunk = chunk.map_err(|e| TransferError::Broken(failure(&e)))?;
                    let len = chunk.as_ref().map_or(0, |c| c.len() as u64);
                    if chunk.is_some() {
                        self.check(len)?;
                    }
                    return Ok(chunk);
                }
                Err(_) => self.check(0)?,
            }
        }
    }

    fn check(&mut self, arrived: u64) -> Result<(), TransferError> {
        let now = tokio::time::Instant::now();
        if now >= self.deadline {
            return Err(TransferError::Deadline(self.deadline_s));
        }
        self.floor
            .arrived(arrived, now.into_std())
            .map_err(TransferError::TooSlow)
    }
}

/// Why a request failed: a refused certificate in words, else the error and its causes.
pub fn failure(e: &reqwest::Error) -> String {
    tls::refusal(e).unwrap_or_else(|| with_causes(e))
}

/// An error with what caused it ("error sending request: connection refused").
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
