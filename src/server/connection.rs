//! Connection hygiene: a deadline for reading a request's headers, so a client trickling
//! bytes cannot hold a connection (poem sets no timer for hyper's own), and a bound on
//! request bodies that holds for chunked bodies too (poem's `SizeLimit` reads only
//! `Content-Length`).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use poem::http::StatusCode;
use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Body, Endpoint, IntoResponse, Request, Response};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

use super::problem::Problem;

/// From a request's first byte (or the connection's accept) to the end of its headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest request body any route reads.
pub const MAX_BODY_BYTES: u64 = 16 * 1024 * 1024;

/// Wraps every accepted connection in a `HeaderDeadline`.
pub struct GuardedAcceptor<A> {
    pub inner: A,
    pub header_timeout: Duration,
}

impl<A: Acceptor> Acceptor for GuardedAcceptor<A> {
    type Io = HeaderDeadline<A::Io>;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.inner.local_addr()
    }

    async fn accept(
        &mut self,
    ) -> io::Result<(Self::Io, LocalAddr, RemoteAddr, poem::http::uri::Scheme)> {
        let (io, local, remote, scheme) = self.inner.accept().await?;
        Ok((
            HeaderDeadline::new(io, self.header_timeout),
            local,
            remote,
            scheme,
        ))
    }
}

/// Fails reads with `TimedOut` when a request's headers take longer than the limit.
/// The clock starts at accept, and again at the first byte after each response.
pub struct HeaderDeadline<T> {
    inner: T,
    limit: Duration,
    deadline: Option<Pin<Box<Sleep>>>,
    /// How much of `\r\n\r\n` the bytes read so far end with.
    matched: usize,
    /// A response went out: the next byte starts a new request.
    between_requests: bool,
}

impl<T> HeaderDeadline<T> {
    fn new(inner: T, limit: Duration) -> Self {
        HeaderDeadline {
            inner,
            limit,
            deadline: Some(Box::pin(tokio::time::sleep(limit))),
            matched: 0,
            between_requests: false,
        }
    }

    fn saw(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if self.between_requests {
            self.between_requests = false;
            self.matched = 0;
            self.deadline = Some(Box::pin(tokio::time::sleep(self.limit)));
        }
        if self.deadline.is_none() {
            return;
        }
        const END: &[u8; 4] = b"\r\n\r\n";
        for &b in bytes {
            self.matched = if b == END[self.matched] {
                self.matched + 1
            } else if b == END[0] {
                1
            } else {
                0
            };
            if self.matched == END.len() {
                self.deadline = None;
                return;
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for HeaderDeadline<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let fresh = buf.filled()[before..].to_vec();
                self.saw(&fresh);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let expired = match self.deadline.as_mut() {
                    Some(d) => d.as_mut().poll(cx).is_ready(),
                    None => false,
                };
                if expired {
                    Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "request headers took too long",
                    )))
                } else {
                    Poll::Pending
                }
            }
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for HeaderDeadline<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.between_requests = true;
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.between_requests = true;
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The error a bounded body yields once it passes the limit; readers answer 413 for it.
#[derive(Debug, thiserror::Error)]
#[error("the request body is larger than {0} bytes")]
pub struct BodyTooLarge(pub u64);

fn too_large(limit: u64) -> Problem {
    Problem::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the request body is larger than {limit} bytes"),
    )
}

/// Refuses a declared length over the limit at once, and cuts a chunked body off where it
/// passes the limit.
pub async fn bound_body<E: Endpoint>(next: E, mut req: Request) -> poem::Result<Response> {
    let limit = MAX_BODY_BYTES;
    let declared = req
        .headers()
        .get(poem::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Ok(too_large(limit).into_response());
    }
    let body = req.take_body();
    if body.is_empty() {
        // No body at all (a plain GET): nothing to bound.
        req.set_body(body);
        return Ok(next.call(req).await?.into_response());
    }
    let mut seen = 0u64;
    let bounded = body.into_bytes_stream().map(move |chunk| {
        let chunk: Bytes = chunk?;
        seen += chunk.len() as u64;
        if seen > limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                BodyTooLarge(limit),
            ));
        }
        Ok(chunk)
    });
    req.set_body(Body::from_bytes_stream(bounded));
    Ok(next.call(req).await?.into_response())
}
