//! How many client connections the server holds, and what happens at the limit: the
//! open-file limit is raised to its hard limit at start and connections are capped below
//! it. Near the cap, idle and slow connections get shorter time-outs (see `connection`); at
//! the cap, connections that have not been answered yet and idle for a moment are closed to
//! make room, so a flood of idle connections cannot keep the slots from clients that talk. Past a margin over the cap,
//! newcomers get a short `503` to their request and are closed (on an HTTPS port after
//! their TLS handshake, offering HTTP/1.1 alone, so that the client reads the status), and
//! a full file table never makes the accept loop spin.

use std::io;
use std::net::SocketAddr;
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use super::connection::GuardedConnection;
use super::connection_gauge::ConnectionGauge;
use super::tls_acceptor::{TlsConnection, TlsLayer};
use tokio_util::either::Either;

/// File descriptors kept for the store, the admin socket, logs and imports.
const RESERVED_FILES: u64 = 256;
/// The default cap never exceeds this, however high the open-file limit.
const DEFAULT_CAP_CEILING: u64 = 16_384;
/// What a refused connection is told before it is closed.
/// How long a refused connection may take to send its request and read the answer.
const REFUSAL_TIME: Duration = Duration::from_secs(1);
const AT_CAPACITY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 52\r\n\r\nthe server is at its connection limit; retry shortly";

/// Raises the soft open-file limit to the hard limit; returns the limit now in force.
pub fn raise_open_file_limit() -> io::Result<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return Err(io::Error::last_os_error());
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Ok(limit.rlim_cur)
}

/// The connection cap for an open-file limit: three quarters of what the reserve leaves.
pub fn default_cap(open_files: u64) -> usize {
    let usable = open_files.saturating_sub(RESERVED_FILES).max(64);
    // An unlimited open-file limit (`RLIM_INFINITY`, u64::MAX) must not overflow.
    (usable.saturating_mul(3) / 4).min(DEFAULT_CAP_CEILING) as usize
}

/// Accepts on every listening address within the cap, wrapping each connection in its
/// deadlines.
pub struct CappedAcceptor {
    listeners: Vec<TcpListener>,
    local: Vec<LocalAddr>,
    gauge: Arc<ConnectionGauge>,
    /// HTTPS, where configured: each connection's TLS beneath its deadlines.
    tls: Option<TlsLayer>,
}

impl CappedAcceptor {
    /// Takes over listeners already bound (so a failing address was named at bind time).
    pub fn new(
        bound: Vec<std::net::TcpListener>,
        gauge: Arc<ConnectionGauge>,
        tls: Option<TlsLayer>,
    ) -> io::Result<CappedAcceptor> {
        let mut listeners = Vec::new();
        let mut local = Vec::new();
        for listener in bound {
            listener.set_nonblocking(true)?;
            local.push(LocalAddr(listener.local_addr()?.into()));
            listeners.push(TcpListener::from_std(listener)?);
        }
        Ok(CappedAcceptor {
            listeners,
            local,
            gauge,
            tls,
        })
    }

    /// The next connection on any listener, and the local address it came in on.
    async fn next(&self) -> (io::Result<(TcpStream, SocketAddr)>, LocalAddr) {
        std::future::poll_fn(|cx| {
            for (listener, local) in self.listeners.iter().zip(&self.local) {
                if let Poll::Ready(accepted) = listener.poll_accept(cx) {
                    return Poll::Ready((accepted, local.clone()));
                }
            }
            Poll::Pending
        })
        .await
    }

    /// Answers 503 and closes, off the accept loop and within a second whatever the peer
    /// does (over TLS where the port serves HTTPS); the first refusal and every thousandth
    /// after it are logged.
    fn refuse(&self, stream: TcpStream, local: Option<SocketAddr>) {
        let (evict, evicted) = oneshot::channel();
        let (id, refused) = self.gauge.refusing(evict);
        if refused.is_multiple_of(1000) {
            tracing::warn!(
                cap = self.gauge.cap(),
                refused = refused + 1,
                "at the connection limit: new connections are answered 503 and closed (max_connections)"
            );
        }
        let gauge = self.gauge.clone();
        let tls = self.tls.clone().filter(|_| local.is_some());
        tokio::spawn(async move {
            let heard = || gauge.heard_refused(id);
            let answered = async {
                match tls {
                    Some(tls) => answer_at_capacity(tls.wrap_refused(stream), evicted, heard).await,
                    None => answer_at_capacity(stream, evicted, heard).await,
                }
            };
            let _ = tokio::time::timeout(REFUSAL_TIME, answered).await;
            gauge.heard_refused(id);
        });
    }
}

/// The 503 goes out once the request's headers are in, never before: an HTTP client that
/// gets an answer before it has sent its request takes it for a broken connection. What the
/// client still sends is read until it closes, so the close is not a reset that discards the
/// answer before the client reads it.
async fn answer_at_capacity<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    evicted: oneshot::Receiver<()>,
    heard: impl FnOnce(),
) -> io::Result<()> {
    tokio::select! {
        head = read_request_head(&mut stream) => head?,
        _ = evicted => return Ok(()),
    }
    heard();
    stream.write_all(AT_CAPACITY).await?;
    stream.shutdown().await?;
    let mut buf = [0u8; 2048];
    while stream.read(&mut buf).await? > 0 {}
    Ok(())
}

/// Reads until the end of a request's headers (an error if the client closes first).
async fn read_request_head<S: AsyncRead + Unpin>(stream: &mut S) -> io::Result<()> {
    let mut buf = [0u8; 2048];
    let mut tail = [0u8; 4];
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let joined: Vec<u8> = tail.iter().chain(&buf[..n]).copied().collect();
        if joined.windows(4).any(|w| w == b"\r\n\r\n") {
            return Ok(());
        }
        tail.copy_from_slice(&joined[joined.len() - 4..]);
    }
}

/// A connection as accepted: plain, or with TLS.
pub type Transport = Either<TcpStream, TlsConnection<TcpStream>>;

impl Acceptor for CappedAcceptor {
    type Io = GuardedConnection<Transport>;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.local.clone()
    }

    async fn accept(
        &mut self,
    ) -> io::Result<(Self::Io, LocalAddr, RemoteAddr, poem::http::uri::Scheme)> {
        loop {
            let (stream, peer, local) = match self.next().await {
                (Ok((stream, peer)), local) => (stream, peer, local),
                // The file table is full: retrying at once would spin. Wait for connections
                // to close instead.
                (Err(e), _) if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) => {
                    tracing::warn!(
                        open = self.gauge.open(),
                        "no file descriptor is left for new connections; waiting for some to close"
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
                // A connection reset before it was accepted, and the like: the next one.
                (Err(_), _) => continue,
            };
            let Some(in_flight) = self.gauge.opened(peer, stream.as_raw_fd()) else {
                self.refuse(stream, local.as_socket_addr().copied());
                continue;
            };
            let _ = stream.set_nodelay(true);
            let (transport, scheme) = match (&self.tls, local.as_socket_addr()) {
                (Some(tls), Some(at)) => (
                    Either::Right(tls.wrap(stream, *at, peer)),
                    poem::http::uri::Scheme::HTTPS,
                ),
                _ => (Either::Left(stream), poem::http::uri::Scheme::HTTP),
            };
            return Ok((
                GuardedConnection::new(transport, self.gauge.clone(), peer, in_flight),
                local,
                RemoteAddr(peer.into()),
                scheme,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_room_for_the_store() {
        assert_eq!(default_cap(1024), 576);
        assert_eq!(default_cap(65_536), 16_384);
        assert!(default_cap(100) >= 48);
        // An unlimited limit (RLIM_INFINITY) is the ceiling, not an overflow.
        assert_eq!(default_cap(u64::MAX), DEFAULT_CAP_CEILING as usize);
    }

    #[tokio::test]
    async fn a_refused_client_gets_its_503_after_its_request() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let (_keep, evicted) = oneshot::channel();
            answer_at_capacity(stream, evicted, || ()).await
        });
        let mut client = TcpStream::connect(address).await.unwrap();
        client
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r")
            .await
            .unwrap();
        let mut buf = [0u8; 512];
        let early = tokio::time::timeout(Duration::from_millis(200), client.read(&mut buf)).await;
        assert!(early.is_err(), "answered before the request was in");
        client.write_all(b"\n\r\n").await.unwrap();
        let mut answer = Vec::new();
        client.read_to_end(&mut answer).await.unwrap();
        assert_eq!(answer, AT_CAPACITY);
        drop(client);
        server.await.unwrap().unwrap();
    }

    /// Refused on an HTTPS port, a client completes its handshake (offered HTTP/2 too, it
    /// gets HTTP/1.1) and reads the 503, instead of a TLS connection closed under it.
    #[tokio::test]
    async fn a_refused_https_client_reads_its_503_after_the_handshake() {
        let dir = tempfile::tempdir().unwrap();
        let listen = ["127.0.0.1:8443".parse().unwrap()];
        crate::server::self_signed::ensure(dir.path(), &listen, None).unwrap();
        let files = crate::server::self_signed::files(dir.path(), None);
        let layer = TlsLayer::new(
            files.load().unwrap(),
            futures_util::stream::pending(),
            Arc::default(),
        );
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let (_keep, evicted) = oneshot::channel();
            answer_at_capacity(layer.wrap_refused(stream), evicted, || ()).await
        });
        let mut roots = rustls::RootCertStore::empty();
        for certificate in crate::outside::tls::read_certificates("tls_cert", &files.cert).unwrap()
        {
            roots.add(certificate).unwrap();
        }
        let mut config =
            rustls::ClientConfig::builder_with_provider(crate::outside::tls::provider())
                .with_protocol_versions(rustls::DEFAULT_VERSIONS)
                .unwrap()
                .with_root_certificates(roots)
                .with_no_client_auth();
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = TcpStream::connect(address).await.unwrap();
        let name =
            rustls::pki_types::ServerName::IpAddress(std::net::IpAddr::from([127, 0, 0, 1]).into());
        let mut client = connector.connect(name, tcp).await.unwrap();
        assert_eq!(client.get_ref().1.alpn_protocol(), Some(&b"http/1.1"[..]));
        client
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        let _ = client.read_to_end(&mut answer).await;
        assert_eq!(answer, AT_CAPACITY);
        drop(client);
        // The server reads until the client goes, which here closes without a TLS goodbye.
        let _ = server.await.unwrap();
    }
}
