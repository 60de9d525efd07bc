//! Open client connections against their cap, for the acceptor that admits them
//! (`connection_cap`) and the connections whose time-outs shrink near it (`connection`).

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::net::SocketAddr;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

/// Idle and header time-outs near the cap, and at it.
const PRESSED_IDLE_LIMIT: Duration = Duration::from_secs(2);
const AT_CAP_IDLE_LIMIT: Duration = Duration::from_millis(250);
/// Open client connections against the cap, and each one's socket by its peer address, so
/// a handler can tell whether its client is still there.
#[derive(Debug)]
pub struct ConnectionGauge {
    open: AtomicUsize,
    cap: AtomicUsize,
    refused: AtomicU64,
    /// Refused connections waiting for their request (see `CappedAcceptor::refuse`).
    refusals: Mutex<WaitingRefusals>,
    sockets: Mutex<HashMap<SocketAddr, Socket>>,
    /// Requests held waiting (long polls), bounded apart from the cap: see `hold`.
    held: AtomicUsize,
}

/// An open connection's socket, and how many of its requests are being handled (HTTP/2
/// multiplexes many on one connection; its deadlines apply only while none is).
#[derive(Debug)]
struct Socket {
    fd: RawFd,
    activity: Arc<AtomicUsize>,
}

/// A request counted in on its connection until dropped.
pub struct InFlight(Option<Arc<AtomicUsize>>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(activity) = &self.0 {
            activity.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// A held request (a long poll) counted until dropped.
pub struct Held(Arc<ConnectionGauge>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.held.fetch_sub(1, Ordering::Relaxed);
    }
}

impl ConnectionGauge {
    pub fn new(cap: usize) -> Arc<ConnectionGauge> {
        Arc::new(ConnectionGauge {
            open: AtomicUsize::new(0),
            cap: AtomicUsize::new(cap.max(1)),
            refused: AtomicU64::new(0),
            refusals: Mutex::new(WaitingRefusals::default()),
            sockets: Mutex::new(HashMap::new()),
            held: AtomicUsize::new(0),
        })
    }

    /// The cap, once the open-file limit is known.
    pub fn set_cap(&self, cap: usize) {
        self.cap.store(cap.max(1), Ordering::Relaxed);
    }

    pub fn cap(&self) -> usize {
        self.cap.load(Ordering::Relaxed)
    }

    /// Whether the client at `peer` has closed its connection (or reset it). Hyper reads
    /// nothing while a handler runs, so the socket is asked directly, without taking data.
    pub fn client_gone(&self, peer: SocketAddr) -> bool {
        let fd = match self.sockets.lock() {
            Ok(sockets) => sockets.get(&peer).map(|s| s.fd),
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
    /// shorter from three quarters of the cap on, a moment at the cap for one that has not
    /// yet been answered (a connection that has had answers is a client that talks).
    pub fn idle_limit(&self, normal: Duration, answered: bool) -> Duration {
        let open = self.open.load(Ordering::Relaxed);
        let cap = self.cap();
        if open >= cap && !answered {
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
    pub fn ceiling(&self) -> usize {
        self.cap() + self.margin()
    }

    /// Connections over the cap: accepted while idle ones make room, or being refused.
    fn margin(&self) -> usize {
        (self.cap() / 8).max(16)
    }

    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Counts a newcomer in, with its socket, if there is room under the ceiling: the count
    /// of its requests in flight (`request_started`).
    pub fn opened(&self, peer: SocketAddr, fd: RawFd) -> Option<Arc<AtomicUsize>> {
        if self.open.fetch_add(1, Ordering::Relaxed) >= self.ceiling() {
            self.open.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let activity = Arc::new(AtomicUsize::new(0));
        if let Ok(mut sockets) = self.sockets.lock() {
            sockets.insert(
                peer,
                Socket {
                    fd,
                    activity: activity.clone(),
                },
            );
        }
        Some(activity)
    }

    /// Counts a request in on the connection from `peer` while the result lives.
    pub fn request_started(&self, peer: Option<SocketAddr>) -> InFlight {
        let activity = peer.and_then(|peer| {
            let sockets = self.sockets.lock().ok()?;
            let activity = sockets.get(&peer)?.activity.clone();
            activity.fetch_add(1, Ordering::Relaxed);
            Some(activity)
        });
        InFlight(activity)
    }

    /// Requests that wait for something to happen (long polls) may hold at most half the
    /// cap, so that probes and lookups always find a connection (over HTTP/1.1 each held
    /// request holds one) and held streams cannot grow without bound over HTTP/2. `None`
    /// when that many are held.
    pub fn hold(self: &Arc<Self>) -> Option<Held> {
        let most = self.most_held();
        if self.held.fetch_add(1, Ordering::Relaxed) >= most {
            self.held.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        Some(Held(self.clone()))
    }

    /// How many requests may be held at once.
    pub fn most_held(&self) -> usize {
        (self.cap() / 2).max(1)
    }

    /// Notes a newcomer refused, to wait for its request until `evict` says to give up (the
    /// oldest waiting is evicted past the margin): its number, and how many were refused
    /// before it.
    pub fn refusing(&self, evict: oneshot::Sender<()>) -> (u64, u64) {
        let refused = self.refused.fetch_add(1, Ordering::Relaxed);
        let id = match self.refusals.lock() {
            Ok(mut refusals) => refusals.wait(evict, self.margin()),
            Err(_) => u64::MAX,
        };
        (id, refused)
    }

    /// A refused connection has sent its request (or is gone): it no longer waits.
    pub fn heard_refused(&self, id: u64) {
        if let Ok(mut refusals) = self.refusals.lock() {
            refusals.waiting.remove(&id);
        }
    }

    pub(super) fn closed(&self, peer: SocketAddr) {
        self.open.fetch_sub(1, Ordering::Relaxed);
        if let Ok(mut sockets) = self.sockets.lock() {
            sockets.remove(&peer);
        }
    }
}

/// Refused connections that have not sent their request yet, oldest first. They hold
/// descriptors, so past a bound the oldest silent one is closed to make room: a flood of
/// silent connections cannot keep a talking client from its 503.
#[derive(Debug, Default)]
struct WaitingRefusals {
    next: u64,
    waiting: BTreeMap<u64, oneshot::Sender<()>>,
}

impl WaitingRefusals {
    /// Takes a newcomer in, evicting the oldest when `bound` are waiting; its number.
    fn wait(&mut self, evict: oneshot::Sender<()>, bound: usize) -> u64 {
        if self.waiting.len() >= bound
            && let Some((_, oldest)) = self.waiting.pop_first()
        {
            let _ = oldest.send(());
        }
        let id = self.next;
        self.next += 1;
        self.waiting.insert(id, evict);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_limits_shrink_towards_the_cap() {
        let gauge = ConnectionGauge::new(100);
        let normal = Duration::from_secs(60);
        assert_eq!(gauge.idle_limit(normal, false), normal);
        gauge.open.store(75, Ordering::Relaxed);
        assert_eq!(gauge.idle_limit(normal, false), PRESSED_IDLE_LIMIT);
        gauge.open.store(100, Ordering::Relaxed);
        assert_eq!(gauge.idle_limit(normal, false), AT_CAP_IDLE_LIMIT);
        assert_eq!(gauge.idle_limit(normal, true), PRESSED_IDLE_LIMIT);
        gauge.set_cap(200);
        assert_eq!(gauge.idle_limit(normal, false), normal);
        gauge.set_cap(100);
        assert_eq!(gauge.ceiling(), 116);
    }

    #[test]
    fn held_waits_take_half_the_cap_and_give_their_place_back() {
        let gauge = ConnectionGauge::new(8);
        let held: Vec<Held> = (0..4).map(|_| gauge.hold().unwrap()).collect();
        assert!(gauge.hold().is_none());
        drop(held);
        assert!(gauge.hold().is_some());
        assert!(ConnectionGauge::new(1).hold().is_some(), "at least one");
    }

    #[test]
    fn the_oldest_silent_refusal_makes_room() {
        let mut refusals = WaitingRefusals::default();
        let (first, mut first_evicted) = oneshot::channel();
        let (second, mut second_evicted) = oneshot::channel();
        let (third, _third_evicted) = oneshot::channel();
        assert_eq!(refusals.wait(first, 2), 0);
        assert_eq!(refusals.wait(second, 2), 1);
        assert_eq!(refusals.wait(third, 2), 2);
        assert_eq!(first_evicted.try_recv(), Ok(()));
        assert!(second_evicted.try_recv().is_err());
        assert_eq!(refusals.waiting.len(), 2);
    }
}
