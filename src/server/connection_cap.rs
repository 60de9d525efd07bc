//! How many client connections the server holds, and what happens at the limit: the
//! open-file limit is raised to its hard limit at start and connections are capped below
//! it. Near the cap, idle and slow connections get shorter time-outs (see `connection`); at
//! the cap, connections idle for a moment are closed to make room, so a flood of idle
//! connections cannot keep the slots from clients that talk. Past a margin over the cap,
//! newcomers get a short `503` and are closed at once, and a full file table never makes
//! the accept loop spin.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

use super::connection::GuardedConnection;

/// Idle and header time-outs near the cap, and at it.
const PRESSED_IDLE_LIMIT: Duration = Duration::from_secs(2);
const AT_CAP_IDLE_LIMIT: Duration = Duration::from_millis(250);
/// File descriptors kept for the store, the admin socket, logs and imports.
const RESERVED_FILES: u64 = 256;
/// The default cap never exceeds this, however high the open-file limit.
const DEFAULT_CAP_CEILING: u64 = 16_384;
/// What a refused connection is told before it is closed.
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
    (usable * 3 / 4).min(DEFAULT_CAP_CEILING) as usize
}

/// Open client connections against the cap, and each one's socket by its peer address, so
/// a handler can tell whether its client is still there.
#[derive(Debug)]
pub struct ConnectionGauge {
    open: AtomicUsize,
    cap: AtomicUsize,
    refused: AtomicU64,
    sockets: Mutex<HashMap<SocketAddr, RawFd>>,
}

impl ConnectionGauge {
    pub fn new(cap: usize) -> Arc<ConnectionGauge> {
        Arc::new(ConnectionGauge {
            open: AtomicUsize::new(0),
            cap: AtomicUsize::new(cap.max(1)),
            refused: AtomicU64::new(0),
            sockets: Mutex::new(HashMap::new()),
        })
    }

    /// The cap, once the open-file limit is known.
    pub fn set_cap(&self, cap: usize) {
        self.cap.store(cap.max(1), Ordering::Relaxed);
    }

    fn cap(&self) -> usize {
        self.cap.load(Ordering::Relaxed)
    }

    /// Whether the client at `peer` has closed its connection (or reset it). Hyper reads
    /// nothing while a handler runs, so the socket is asked directly, without taking data.
    pub fn client_gone(&self, peer: SocketAddr) -> bool {
        let fd = match self.sockets.lock() {
            Ok(sockets) => sockets.get(&peer).copied(),
            Err(_) => None,
        };
        let Some(fd) = fd else {
            return false;
        };
        let mut byte = 0u8;
        // SAFETY: the descriptor stays open while its connection's handler runs (the
        // connection owns it and outlives the handler); recv writes at most one byte.
        let n = unsafe {
            libc::recv(
                fd,
                (&raw mut byte).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        match n {
            0 => true,
            n if n > 0 => false,
            _ => !matches!(
                io::Error::last_os_error().raw_os_error(),
                Some(libc::EAGAIN | libc::EINTR)
            ),
        }
    }

    /// How long a connection may wait in an idle phase whose normal limit is `normal`:
    /// shorter from three quarters of the cap on, a moment at the cap.
    pub fn idle_limit(&self, normal: Duration) -> Duration {
        let open = self.open.load(Ordering::Relaxed);
        let cap = self.cap();
        if open >= cap {
            AT_CAP_IDLE_LIMIT
        } else if open * 4 >= cap * 3 {
            PRESSED_IDLE_LIMIT.min(normal)
        } else {
            normal
        }
    }

    /// How often a waiting connection looks again at the limits.
    pub fn recheck(&self) -> Duration {
        if self.open.load(Ordering::Relaxed) * 4 >= self.cap() * 3 {
            AT_CAP_IDLE_LIMIT
        } else {
            Duration::from_secs(1)
        }
    }

    /// Connections accepted at most: the cap and a margin, so a newcomer gets in while idle
    /// ones make room.
    fn ceiling(&self) -> usize {
        let cap = self.cap();
        cap + (cap / 8).max(16)
    }

    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    pub(super) fn closed(&self, peer: SocketAddr) {
        self.open.fetch_sub(1, Ordering::Relaxed);
        if let Ok(mut sockets) = self.sockets.lock() {
            sockets.remove(&peer);
        }
    }
}

/// Accepts on every listening address within the cap, wrapping each connection in its
/// deadlines.
pub struct CappedAcceptor {
    listeners: Vec<TcpListener>,
    local: Vec<LocalAddr>,
    gauge: Arc<ConnectionGauge>,
}

impl CappedAcceptor {
    /// Takes over listeners already bound (so a failing address was named at bind time).
    pub fn new(
        bound: Vec<std::net::TcpListener>,
        gauge: Arc<ConnectionGauge>,
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
    /// does; the first refusal and every thousandth after it are logged.
    fn refuse(&self, mut stream: TcpStream) {
        let refused = self.gauge.refused.fetch_add(1, Ordering::Relaxed);
        if refused.is_multiple_of(1000) {
            tracing::warn!(
                cap = self.gauge.cap(),
                refused = refused + 1,
                "at the connection limit: new connections are answered 503 and closed (max_connections)"
            );
        }
        tokio::spawn(async move {
            let _ = tokio::time::timeout(Duration::from_secs(1), async {
                stream.write_all(AT_CAPACITY).await?;
                stream.shutdown().await
            })
            .await;
        });
    }
}

impl Acceptor for CappedAcceptor {
    type Io = GuardedConnection<TcpStream>;

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
            if self.gauge.open.fetch_add(1, Ordering::Relaxed) >= self.gauge.ceiling() {
                self.gauge.open.fetch_sub(1, Ordering::Relaxed);
                self.refuse(stream);
                continue;
            }
            let _ = stream.set_nodelay(true);
            if let Ok(mut sockets) = self.gauge.sockets.lock() {
                sockets.insert(peer, stream.as_raw_fd());
            }
            return Ok((
                GuardedConnection::new(stream, self.gauge.clone(), peer),
                local,
                RemoteAddr(peer.into()),
                poem::http::uri::Scheme::HTTP,
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
    }

    #[test]
    fn idle_limits_shrink_towards_the_cap() {
        let gauge = ConnectionGauge::new(100);
        let normal = Duration::from_secs(60);
        assert_eq!(gauge.idle_limit(normal), normal);
        gauge.open.store(75, Ordering::Relaxed);
        assert_eq!(gauge.idle_limit(normal), PRESSED_IDLE_LIMIT);
        gauge.open.store(100, Ordering::Relaxed);
        assert_eq!(gauge.idle_limit(normal), AT_CAP_IDLE_LIMIT);
        gauge.set_cap(200);
        assert_eq!(gauge.idle_limit(normal), normal);
        gauge.set_cap(100);
        assert_eq!(gauge.ceiling(), 116);
    }
}
