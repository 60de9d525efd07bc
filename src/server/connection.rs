//! Connection hygiene: deadlines poem does not set (for a request's headers, for a
//! connection that moves no bytes), tighter when the server is near its connection cap. A
//! request body's bounds are in `request_body`.
//!
//! HTTP/1.1 is read as it goes: a request's headers end at an empty line, and while its
//! handler runs the connection has no deadline. HTTP/2 (its client preface, over TLS by ALPN
//! or in clear) multiplexes requests in frames, where no empty line ends anything: there the
//! deadlines apply only while none of the connection's requests is being handled
//! (`in_flight`), so a long poll or a keep-alive connection lasts as over HTTP/1.1.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use poem::Request;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::connection_gauge::{ConnectionGauge, InFlight};

/// From a request's first byte (or the connection's accept) to the end of its headers.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// A connection that moves no bytes for this long, between requests or while its answer
/// waits for the client to read, is closed. Both limits shrink near the connection cap.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// Where a connection is in its request cycle.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Reading a request's headers (since accept, or since the first byte after an answer).
    Headers { since: Instant, matched: usize },
    /// The headers are in: the handler runs (its work has its own budget).
    Handling,
    /// An answer is going out, or has: idle since the last byte moved.
    Quiet { since: Instant },
}

/// What the client speaks, once its first bytes tell.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Protocol {
    /// This many bytes of the HTTP/2 preface seen so far, and nothing else.
    Undecided(usize),
    Http1,
    Http2,
}

/// How an HTTP/2 client's connection starts (RFC 9113, 3.4); no HTTP/1.1 request does.
const HTTP2_PREFACE: &[u8] = b"PRI * HTTP/2.0";

/// A client connection with its deadlines; counted by the gauge until dropped.
pub struct GuardedConnection<T> {
    inner: T,
    gauge: Arc<ConnectionGauge>,
    peer: std::net::SocketAddr,
    phase: Phase,
    protocol: Protocol,
    /// The connection's requests being handled (`in_flight`).
    in_flight: Arc<AtomicUsize>,
    /// Whether an answer has gone out: such a connection keeps more time at the cap.
    answered: bool,
    timer: Pin<Box<Sleep>>,
}

impl<T> GuardedConnection<T> {
    pub fn new(
        inner: T,
        gauge: Arc<ConnectionGauge>,
        peer: std::net::SocketAddr,
        in_flight: Arc<AtomicUsize>,
    ) -> Self {
        let now = Instant::now();
        GuardedConnection {
            inner,
            gauge,
            peer,
            phase: Phase::Headers {
                since: now,
                matched: 0,
            },
            protocol: Protocol::Undecided(0),
            in_flight,
            answered: false,
            timer: Box::pin(tokio::time::sleep_until(now + HEADER_READ_TIMEOUT)),
        }
    }

    /// Tells HTTP/2 from HTTP/1.1 by the first bytes.
    fn recognise(&mut self, bytes: &[u8]) {
        let Protocol::Undecided(mut seen) = self.protocol else {
            return;
        };
        for &b in bytes {
            if b != HTTP2_PREFACE[seen] {
                self.protocol = Protocol::Http1;
                return;
            }
            seen += 1;
            if seen == HTTP2_PREFACE.len() {
                self.protocol = Protocol::Http2;
                return;
            }
        }
        self.protocol = Protocol::Undecided(seen);
    }

    fn read(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.recognise(bytes);
        if self.protocol == Protocol::Http2 {
            // Frames: any byte is progress; the deadline waits for the connection to be idle.
            self.phase = Phase::Quiet {
                since: Instant::now(),
            };
            return;
        }
        let matched = match self.phase {
            Phase::Handling => return,
            Phase::Quiet { .. } => 0,
            Phase::Headers { matched, .. } => matched,
        };
        let since = match self.phase {
            Phase::Headers { since, .. } => since,
            _ => Instant::now(),
        };
        self.phase = match headers_left(matched, bytes) {
            None => Phase::Handling,
            Some(matched) => Phase::Headers { since, matched },
        };
    }

    fn wrote(&mut self) {
        // An HTTP/2 server writes its settings before any request: answered is what a
        // request in flight says (`expired`).
        if self.protocol != Protocol::Http2 {
            self.answered = true;
        }
        self.phase = Phase::Quiet {
            since: Instant::now(),
        };
    }

    /// Whether the phase's deadline has passed; otherwise arms the timer to wake the task
    /// at the deadline or the next pressure check, whichever is first.
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        let (since, normal) = match (self.protocol, self.phase) {
            (Protocol::Http2, _) if self.in_flight.load(Ordering::Relaxed) > 0 => {
                self.answered = true;
                return false;
            }
            // HTTP/2, idle: since its last byte, a first request within the header
            // deadline, later ones within the idle one.
            (Protocol::Http2, Phase::Headers { since, .. } | Phase::Quiet { since }) => (
                since,
                if self.answered {
                    IDLE_TIMEOUT
                } else {
                    HEADER_READ_TIMEOUT
                },
            ),
            (_, Phase::Handling) => return false,
            (_, Phase::Headers { since, .. }) => (since, HEADER_READ_TIMEOUT),
            (_, Phase::Quiet { since }) => (since, IDLE_TIMEOUT),
        };
        let deadline = since + self.gauge.idle_limit(normal, self.answered);
        loop {
            let now = Instant::now();
            if now >= deadline {
                return true;
            }
            self.timer
                .as_mut()
                .reset(deadline.min(now + self.gauge.recheck()));
            // Pending registers the waker; a timer already due is looked at again.
            if self.timer.as_mut().poll(cx).is_pending() {
                return false;
            }
        }
    }
}

fn timed_out() -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        "the connection moved no bytes in time",
    )
}

impl<T> Drop for GuardedConnection<T> {
    fn drop(&mut self) {
        self.gauge.closed(self.peer);
    }
}

/// The blank line that ends a request's headers.
const HEADERS_END: &[u8; 4] = b"\r\n\r\n";

/// Whether the headers end within `bytes`, read after `matched` bytes of `HEADERS_END`: none
/// if they do, else how much of it the bytes read so far end with. Searched from one `\r` to
/// the next (`memchr`), since every request's line and headers pass through here.
fn headers_left(matched: usize, bytes: &[u8]) -> Option<usize> {
    // Where the end began in the read before and finishes in this one: the carried bytes
    // and this read's first three.
    let mut joint = [0u8; 6];
    let head = &bytes[..bytes.len().min(3)];
    joint[..matched].copy_from_slice(&HEADERS_END[..matched]);
    joint[matched..matched + head.len()].copy_from_slice(head);
    let joint = &joint[..matched + head.len()];
    let found = |text: &[u8]| {
        memchr::memchr_iter(b'\r', text).any(|at| text[at..].starts_with(HEADERS_END))
    };
    if found(joint) || found(bytes) {
        return None;
    }
    // What was read so far ends with: the longest of its last three bytes that begins the end.
    let tail = if bytes.len() >= 3 {
        &bytes[bytes.len() - 3..]
    } else {
        &joint[joint.len().saturating_sub(3)..]
    };
    (1..=tail.len())
        .rev()
        .find(|&n| tail[tail.len() - n..] == HEADERS_END[..n])
        .or(Some(0))
}

impl<T: AsyncRead + Unpin> AsyncRead for GuardedConnection<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                self.read(&buf.filled()[before..]);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for GuardedConnection<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.after_write(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.after_write(cx, polled)
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

impl<T> GuardedConnection<T> {
    /// Bytes out are progress; a client that stops reading its answer runs into the idle
    /// deadline.
    fn after_write(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match polled {
            Poll::Ready(Ok(n)) if n > 0 => {
                self.wrote();
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                if matches!(self.phase, Phase::Handling) {
                    self.wrote();
                }
                if self.expired(cx) {
                    Poll::Ready(Err(timed_out()))
                } else {
                    Poll::Pending
                }
            }
            other => other,
        }
    }
}

/// Counts an HTTP/2 request in on its connection while what this returns is held (while it
/// is handled and its answer built), so that a connection with a request in flight is not
/// idle. HTTP/1.1 needs no count (its connection sees where a request ends), so its requests
/// skip the gauge's lock.
pub fn in_flight(state: &super::AppState, req: &Request) -> Option<InFlight> {
    (req.version() == poem::http::Version::HTTP_2).then(|| {
        state
            .connections
            .request_started(req.remote_addr().as_socket_addr().copied())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end searched for in everything read at once: what `headers_left`, reading piece by
    /// piece, must agree with.
    fn all_at_once(reads: &[&[u8]]) -> Option<usize> {
        let seen: Vec<u8> = reads.concat();
        if seen.windows(4).any(|w| w == HEADERS_END) {
            return None;
        }
        (0..=3.min(seen.len()))
            .rev()
            .find(|&n| seen[seen.len() - n..] == HEADERS_END[..n])
    }

    #[test]
    fn the_headers_end_is_found_however_the_reads_split_it() {
        // Every text of up to eight bytes of `\r`, `\n` and `a`, split into two and three
        // reads at every place.
        let alphabet = [b'\r', b'\n', b'a'];
        for len in 0..=8u32 {
            for code in 0..3usize.pow(len) {
                let text: Vec<u8> = (0..len)
                    .map(|i| alphabet[code / 3usize.pow(i) % 3])
                    .collect();
                for first in 0..=text.len() {
                    for second in first..=text.len() {
                        let reads = [&text[..first], &text[first..second], &text[second..]];
                        let mut state = Some(0);
                        for read in reads {
                            state = state.and_then(|matched| headers_left(matched, read));
                        }
                        assert_eq!(
                            state,
                            all_at_once(&reads),
                            "{text:?} split at {first}, {second}"
                        );
                    }
                }
            }
        }
    }
}
