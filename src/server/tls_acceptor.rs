//! HTTPS on accepted connections: tokio-rustls, as poem's own TLS acceptor uses, with what
//! that one hides: which connections presented a client certificate the `client_ca` signed
//! (`ClientCertificates`), for the `sync` scope to require one. The connection cap wraps
//! each TLS connection in its deadlines (`connection`), which so see the plain HTTP.
//!
//! The handshake runs in the connection's task, on its first read or write, so a slow client
//! never holds up the accept loop (the header deadline bounds it); a renewed configuration
//! applies to the next handshake, while connections in flight keep the one they started with.

use std::collections::HashSet;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, RwLock};
use std::task::{Context, Poll, ready};

use futures_util::{Stream, StreamExt};
use rustls::ServerConfig;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection by its two ends.
type Ends = (SocketAddr, SocketAddr);

/// The open connections whose client presented a certificate the `client_ca` signed.
#[derive(Default)]
pub struct ClientCertificates(Mutex<HashSet<Ends>>);

impl ClientCertificates {
    /// Whether the connection between `local` and `remote` presented one.
    pub fn presented(&self, local: Option<&SocketAddr>, remote: Option<&SocketAddr>) -> bool {
        match (local, remote) {
            (Some(l), Some(r)) => self.lock().contains(&(*l, *r)),
            _ => false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<Ends>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The TLS side of the listeners: the configuration in force (renewals swap it) and the
/// client certificates presented.
#[derive(Clone)]
pub struct TlsLayer {
    current: Arc<RwLock<tokio_rustls::TlsAcceptor>>,
    /// The same pair offering HTTP/1.1 alone: a connection refused at the cap is answered
    /// a plain `503` after its handshake, which an HTTP/2 client could not read.
    refusing: Arc<RwLock<tokio_rustls::TlsAcceptor>>,
    certificates: Arc<ClientCertificates>,
}

/// `config` offering HTTP/1.1 alone.
fn http1_only(config: &Arc<ServerConfig>) -> tokio_rustls::TlsAcceptor {
    let mut only = ServerConfig::clone(config);
    only.alpn_protocols = vec![b"http/1.1".to_vec()];
    Arc::new(only).into()
}

impl TlsLayer {
    /// `first` for the first handshakes, then each configuration `renewals` yields (taken in
    /// a task of its own, on the runtime this is called on).
    pub fn new(
        first: Arc<ServerConfig>,
        renewals: impl Stream<Item = Arc<ServerConfig>> + Send + Unpin + 'static,
        certificates: Arc<ClientCertificates>,
    ) -> TlsLayer {
        let refusing = Arc::new(RwLock::new(http1_only(&first)));
        let current = Arc::new(RwLock::new(tokio_rustls::TlsAcceptor::from(first)));
        let (renewed, renewed_refusing) = (current.clone(), refusing.clone());
        let mut renewals = renewals;
        tokio::spawn(async move {
            while let Some(config) = renewals.next().await {
                *renewed_refusing.write().unwrap_or_else(|e| e.into_inner()) = http1_only(&config);
                *renewed.write().unwrap_or_else(|e| e.into_inner()) = config.into();
            }
        });
        TlsLayer {
            current,
            refusing,
            certificates,
        }
    }

    /// A connection refused at the cap, its handshake to come: HTTP/1.1 only, and its
    /// certificate not recorded.
    pub fn wrap_refused<IO: AsyncRead + AsyncWrite + Unpin>(&self, io: IO) -> TlsConnection<IO> {
        self.handshake(&self.refusing, io, None)
    }

    /// A connection accepted between `local` and `remote`, its handshake to come.
    pub fn wrap<IO: AsyncRead + AsyncWrite + Unpin>(
        &self,
        io: IO,
        local: SocketAddr,
        remote: SocketAddr,
    ) -> TlsConnection<IO> {
        self.handshake(&self.current, io, Some((local, remote)))
    }

    /// `io` to be greeted by the acceptor `with` holds now.
    fn handshake<IO: AsyncRead + AsyncWrite + Unpin>(
        &self,
        with: &RwLock<tokio_rustls::TlsAcceptor>,
        io: IO,
        ends: Option<Ends>,
    ) -> TlsConnection<IO> {
        let acceptor = with.read().unwrap_or_else(|e| e.into_inner()).clone();
        TlsConnection {
            state: State::Handshake(Box::new(acceptor.accept(io))),
            ends,
            registered: false,
            certificates: self.certificates.clone(),
        }
    }
}

enum State<IO> {
    Handshake(Box<tokio_rustls::Accept<IO>>),
    Ready(Box<tokio_rustls::server::TlsStream<IO>>),
    Failed,
}

/// One HTTPS connection: its handshake, then its stream.
pub struct TlsConnection<IO> {
    state: State<IO>,
    ends: Option<Ends>,
    /// Whether it is in `certificates` (and is taken out when it closes).
    registered: bool,
    certificates: Arc<ClientCertificates>,
}

impl<IO: AsyncRead + AsyncWrite + Unpin> TlsConnection<IO> {
    /// Drives the handshake to its end; then the stream.
    fn stream(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<&mut tokio_rustls::server::TlsStream<IO>>> {
        if let State::Handshake(accept) = &mut self.state {
            match ready!(Pin::new(&mut **accept).poll(cx)) {
                Ok(stream) => {
                    // rustls admits a client certificate only if the client_ca signed it.
                    let presented = stream
                        .get_ref()
                        .1
                        .peer_certificates()
                        .is_some_and(|c| !c.is_empty());
                    if let (true, Some(ends)) = (presented, self.ends) {
                        self.certificates.lock().insert(ends);
                        self.registered = true;
                    }
                    self.state = State::Ready(Box::new(stream));
                }
                Err(e) => {
                    self.state = State::Failed;
                    return Poll::Ready(Err(e));
                }
            }
        }
        match &mut self.state {
            State::Ready(stream) => Poll::Ready(Ok(stream)),
            _ => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the TLS handshake failed",
            ))),
        }
    }
}

impl<IO> Drop for TlsConnection<IO> {
    fn drop(&mut self) {
        if let (true, Some(ends)) = (self.registered, self.ends) {
            self.certificates.lock().remove(&ends);
        }
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncRead for TlsConnection<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let stream = ready!(self.get_mut().stream(cx))?;
        Pin::new(stream).poll_read(cx, buf)
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncWrite for TlsConnection<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let stream = ready!(self.get_mut().stream(cx))?;
        Pin::new(stream).poll_write(cx, buf)
    }

    /// Headers and body in one TLS record where they fit, as plain HTTP writes them in one
    /// system call.
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let stream = ready!(self.get_mut().stream(cx))?;
        Pin::new(stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let stream = ready!(self.get_mut().stream(cx))?;
        Pin::new(stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let stream = ready!(self.get_mut().stream(cx))?;
        Pin::new(stream).poll_shutdown(cx)
    }
}
