//! The memory answers hold while they are built and sent, bounded together
//! (`limits.answers_in_flight_mb`). `answer_mb` bounds one answer's text; this bounds what
//! all requests at once hold in records, trees and bytes, which is several times their text.
//!
//! What a request holds is counted, not estimated: the process's allocator
//! ([`CountingAllocator`]) adds every allocation and subtracts every release made on a thread
//! while that thread works for the request (its future being polled, or its call on the
//! blocking pool), into the request's [`Held`]. A streamed answer counts the chunk it holds,
//! not its size ([`Held::add`]). Work checks the bound where it already checks its budget
//! ([`check`]) and before it writes a large answer ([`room_for`]): past the bound, a request
//! that holds little goes on, the oldest large one goes on (so the largest answer the bound
//! allows always gets through), and the others wait a moment for room, then are refused
//! ([`NoRoom`]; a request's work answers it as `Spent::Busy`, 503 and `Retry-After`). What a
//! request held is given back when its answer has been sent.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A request holding less than this is never held back: a lookup's few kilobytes go on
/// whatever the large answers hold.
pub const SMALL_BYTES: i64 = 256 << 10;

/// How long a large answer waits for room before it is refused.
const WAIT: Duration = Duration::from_secs(1);

/// The answers in flight hold what the bound allows, and this one found no room in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoRoom;

/// The bound and what every request holds, together.
struct Pool {
    limit: AtomicI64,
    used: AtomicI64,
    /// The requests holding more than `SMALL_BYTES`, oldest first: the oldest is never held
    /// back, so one large answer always makes progress.
    large: Mutex<BTreeSet<u64>>,
    room: Condvar,
    /// How many wait for `room`: a release takes the lock to wake them only when one does.
    waiting: AtomicUsize,
    next: AtomicU64,
}

static POOL: Pool = Pool {
    limit: AtomicI64::new(512 << 20),
    used: AtomicI64::new(0),
    large: Mutex::new(BTreeSet::new()),
    room: Condvar::new(),
    waiting: AtomicUsize::new(0),
    next: AtomicU64::new(0),
};

/// Sets the bound, in bytes: once at start.
pub fn set_in_flight_bytes(bytes: u64) {
    POOL.limit
        .store(i64::try_from(bytes).unwrap_or(i64::MAX), Ordering::Relaxed);
}

/// What every answer in flight holds together, in bytes.
pub fn used_bytes() -> u64 {
    POOL.used.load(Ordering::Relaxed).max(0) as u64
}

/// What one request holds; clones share it. Given back when the last clone is dropped.
#[derive(Clone)]
pub struct Held(Arc<Holding>);

struct Holding {
    /// The order requests began in: the smallest of the large ones goes on.
    seq: u64,
    /// Allocated less released while working for this request (may go below zero where it
    /// released what others allocated).
    net: AtomicI64,
    /// What this request adds to the pool's `used`: `net`, at least zero.
    counted: AtomicI64,
    /// Whether it is among the pool's `large` ones.
    large: AtomicBool,
}

impl Default for Held {
    fn default() -> Self {
        Held::new()
    }
}

impl Held {
    pub fn new() -> Held {
        Held(Arc::new(Holding {
            seq: POOL.next.fetch_add(1, Ordering::Relaxed),
            net: AtomicI64::new(0),
            counted: AtomicI64::new(0),
            large: AtomicBool::new(false),
        }))
    }

    /// Counts what this thread allocates and releases for this request until the guard is
    /// dropped. `may_wait`: the thread may block for room (the blocking pool), or must not
    /// (a runtime thread, where a large answer over the bound is refused at once).
    pub fn count_here(&self, may_wait: bool) -> Counting<'_> {
        let outer = CURRENT.get();
        flush_thread();
        CURRENT.set(Current {
            holding: Arc::as_ptr(&self.0),
            may_wait,
        });
        Counting { _held: self, outer }
    }

    /// Counts `bytes` more (or fewer) held explicitly: a chunk a stream keeps.
    pub fn add(&self, bytes: i64) {
        self.0.settle(bytes);
    }

    /// What this request holds now, in bytes (what its threads have not yet reported aside).
    pub fn bytes(&self) -> i64 {
        self.0.net.load(Ordering::Relaxed)
    }
}

impl Holding {
    /// Adds `delta` to what this request holds and the pool's total.
    fn settle(&self, delta: i64) {
        if delta == 0 {
            return;
        }
        let net = self.net.fetch_add(delta, Ordering::Relaxed) + delta;
        let counted = net.max(0);
        let before = self.counted.swap(counted, Ordering::Relaxed);
        POOL.used.fetch_add(counted - before, Ordering::SeqCst);
        if net >= SMALL_BYTES && !self.large.swap(true, Ordering::Relaxed) {
            lock_large().insert(self.seq);
        }
        if counted < before && POOL.waiting.load(Ordering::SeqCst) > 0 {
            let _large = lock_large();
            POOL.room.notify_all();
        }
    }

    /// Whether the pool may grow for this request now; `ahead`: what it is about to
    /// allocate. Waits for room where it may.
    fn within(&self, ahead: i64, may_wait: bool) -> Result<(), NoRoom> {
        let mine = self.net.load(Ordering::Relaxed) + ahead;
        if mine < SMALL_BYTES {
            return Ok(());
        }
        let limit = POOL.limit.load(Ordering::Relaxed);
        let mut large = lock_large();
        if !self.large.swap(true, Ordering::Relaxed) {
            large.insert(self.seq);
        }
        let until = Instant::now() + WAIT;
        POOL.waiting.fetch_add(1, Ordering::SeqCst);
        let within = loop {
            let used = POOL.used.load(Ordering::SeqCst) + ahead;
            if used <= limit || large.first() == Some(&self.seq) {
                break Ok(());
            }
            let left = until.saturating_duration_since(Instant::now());
            if !may_wait || left.is_zero() {
                break Err(NoRoom);
            }
            large = POOL
                .room
                .wait_timeout(large, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        };
        POOL.waiting.fetch_sub(1, Ordering::SeqCst);
        within
    }
}

impl Drop for Holding {
    fn drop(&mut self) {
        let counted = *self.counted.get_mut();
        POOL.used.fetch_sub(counted, Ordering::SeqCst);
        if *self.large.get_mut() || (counted > 0 && POOL.waiting.load(Ordering::SeqCst) > 0) {
            let mut large = lock_large();
            large.remove(&self.seq);
            POOL.room.notify_all();
        }
    }
}

fn lock_large() -> std::sync::MutexGuard<'static, BTreeSet<u64>> {
    POOL.large.lock().unwrap_or_else(|e| e.into_inner())
}

/// The request this thread works for, while a [`Counting`] guard lives.
#[derive(Clone, Copy)]
struct Current {
    holding: *const Holding,
    may_wait: bool,
}

const NOBODY: Current = Current {
    holding: std::ptr::null(),
    may_wait: false,
};

thread_local! {
    // Both without destructors, so the allocator may read them on any thread at any time.
    static CURRENT: Cell<Current> = const { Cell::new(NOBODY) };
    /// Allocated less released on this thread since it last reported to `CURRENT`.
    static NET: Cell<i64> = const { Cell::new(0) };
}

/// Reports this thread's count to the request it works for.
fn flush_thread() {
    let current = CURRENT.get();
    let net = NET.replace(0);
    if !current.holding.is_null() {
        // SAFETY: `holding` is set only by a live `Counting`, which borrows the `Held` that
        // keeps the `Holding` alive, and is reset before that guard is gone.
        unsafe { &*current.holding }.settle(net);
    }
}

/// While it lives, the thread's allocations count for a request.
pub struct Counting<'a> {
    _held: &'a Held,
    outer: Current,
}

impl Drop for Counting<'_> {
    fn drop(&mut self) {
        flush_thread();
        CURRENT.set(self.outer);
    }
}

/// Where a request's work checks its bounds: `Err` where the answers in flight hold more
/// than the bound and this request may not go on.
pub fn check() -> Result<(), NoRoom> {
    room_for(0)
}

/// As [`check`], for a request about to allocate `ahead` bytes more (a large answer's tree
/// and text): refused before they are allocated.
pub fn room_for(ahead: u64) -> Result<(), NoRoom> {
    let current = CURRENT.get();
    if current.holding.is_null() {
        return Ok(());
    }
    flush_thread();
    // SAFETY: as in `flush_thread`.
    let holding = unsafe { &*current.holding };
    holding.within(i64::try_from(ahead).unwrap_or(i64::MAX), current.may_wait)
}

/// The request this thread works for, to carry its count to another thread or into its
/// answer's body.
pub fn current() -> Option<Held> {
    let current = CURRENT.get();
    if current.holding.is_null() {
        return None;
    }
    // SAFETY: as in `flush_thread`; the `Arc` is alive, so its count may be raised.
    unsafe {
        Arc::increment_strong_count(current.holding);
        Some(Held(Arc::from_raw(current.holding)))
    }
}

pin_project_lite::pin_project! {
    /// A request's future, its allocations counted for `held` at each poll, on whichever
    /// thread polls it.
    pub struct Counted<F> {
        held: Held,
        #[pin]
        future: F,
    }
}

impl<F> Counted<F> {
    pub fn new(held: Held, future: F) -> Counted<F> {
        Counted { held, future }
    }
}

impl<F: Future> Future for Counted<F> {
    type Output = F::Output;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<F::Output> {
        let this = self.project();
        let _counting = this.held.count_here(false);
        this.future.poll(cx)
    }
}

/// The process's allocator, counting for the request a thread works for. Off a request's
/// work it adds one thread-local read to each allocation.
pub struct CountingAllocator<A>(pub A);

#[inline]
fn counted(delta: i64) {
    if !CURRENT.get().holding.is_null() {
        NET.set(NET.get() + delta);
    }
}

// SAFETY: every call is passed to the inner allocator unchanged; the counting touches only
// thread-locals without destructors and allocates nothing.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            counted(layout.size() as i64);
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            counted(layout.size() as i64);
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { self.0.dealloc(ptr, layout) };
        counted(-(layout.size() as i64));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            counted(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

#[cfg(test)]
mod tests;
