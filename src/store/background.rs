//! Work that follows a reader letting go of an old generation (dropping its replaced trees,
//! deleting the pages its successor freed), done on a thread of its own at the lowest
//! priority. Whoever drops the last handle of a generation (often a lookup, on its way to
//! its answer) only queues the work: it costs that lookup nothing, and no lock any reader
//! waits for is held while it runs. The work runs in the order it was queued.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

type Work = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct State {
    queue: VecDeque<Work>,
    /// A piece of work has been taken and not finished.
    busy: bool,
    /// No more work is queued: what is submitted from now on runs where it is submitted.
    stopped: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.changed.wait(state).unwrap_or_else(|e| e.into_inner())
    }
}

pub struct Background {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Background {
    /// Starts the thread; without one (none could be started) work runs where it is queued.
    pub fn start() -> Background {
        let shared = Arc::new(Shared::default());
        let worker = shared.clone();
        let thread = std::thread::Builder::new()
            .name("reclaim".into())
            .spawn(move || run(&worker))
            .map_err(|e| tracing::warn!(error = %e, "no thread for reclaiming space: readers that let go of a generation reclaim it themselves"))
            .ok();
        if thread.is_none() {
            shared.lock().stopped = true;
        }
        Background {
            shared,
            thread: Mutex::new(thread),
        }
    }

    /// Queues `work`, or runs it now once the thread has stopped.
    pub fn submit(&self, work: impl FnOnce() + Send + 'static) {
        let mut state = self.shared.lock();
        if state.stopped {
            drop(state);
            work();
            return;
        }
        state.queue.push_back(Box::new(work));
        self.shared.changed.notify_all();
    }

    /// Waits until everything queued so far has run.
    pub fn settle(&self) {
        let mut state = self.shared.lock();
        while !state.stopped && (state.busy || !state.queue.is_empty()) {
            state = self.shared.wait(state);
        }
    }

    /// Runs what is queued, then ends the thread; later work runs where it is submitted.
    pub fn stop(&self) {
        self.shared.lock().stopped = true;
        self.shared.changed.notify_all();
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        // The last work may drop what owns this: the thread then ends by itself.
        if let Some(thread) = thread.filter(|t| t.thread().id() != std::thread::current().id()) {
            let _ = thread.join();
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop();
    }
}

fn run(shared: &Shared) {
    crate::priority::yield_to_answers();
    let mut state = shared.lock();
    loop {
        if let Some(work) = state.queue.pop_front() {
            state.busy = true;
            drop(state);
            // A panic in one piece of work must not leave `settle` waiting for ever.
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).is_err() {
                tracing::error!("reclaiming space panicked; the next start reclaims what is left");
            }
            state = shared.lock();
            state.busy = false;
            shared.changed.notify_all();
        } else if state.stopped {
            return;
        } else {
            state = shared.wait(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn work_runs_in_order_settle_waits_for_it_and_after_stop_it_runs_at_once() {
        let background = Background::start();
        let done = Arc::new(Mutex::new(Vec::new()));
        for i in 0..100 {
            let done = done.clone();
            background.submit(move || done.lock().unwrap().push(i));
        }
        background.settle();
        assert_eq!(*done.lock().unwrap(), (0..100).collect::<Vec<_>>());

        let ran = Arc::new(AtomicUsize::new(0));
        let queued = ran.clone();
        background.submit(move || {
            queued.fetch_add(1, Ordering::SeqCst);
        });
        background.stop();
        assert_eq!(ran.load(Ordering::SeqCst), 1, "stop runs what is queued");
        let inline = ran.clone();
        background.submit(move || {
            inline.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(
            ran.load(Ordering::SeqCst),
            2,
            "after stop, work runs at once"
        );
        background.settle();
    }

    #[test]
    fn a_panicking_piece_of_work_leaves_the_rest_running() {
        let background = Background::start();
        background.submit(|| panic!("deliberately"));
        let ran = Arc::new(AtomicUsize::new(0));
        let after = ran.clone();
        background.submit(move || {
            after.fetch_add(1, Ordering::SeqCst);
        });
        background.settle();
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}
