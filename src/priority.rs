//! Background work yields to the answers: a job's threads, a compaction and the reclaiming
//! of freed pages run at the lowest scheduling priority.

/// The nice value of background threads: the lowest. A lookup that wakes finds its core at
/// once; background work still gets a share of a busy machine (1.5 % of a core against one
/// busy thread), so it finishes under any load, and all the cores the answers leave idle.
const BACKGROUND_NICE: libc::c_int = 19;

/// Lowers the calling thread's scheduling priority (`BACKGROUND_NICE`), and that of the
/// threads it starts: its work runs when the answers leave a core idle.
pub fn yield_to_answers() {
    // SAFETY: PRIO_PROCESS with id 0 names the calling thread on Linux; no memory is passed.
    let lowered = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, BACKGROUND_NICE) };
    if lowered != 0 {
        tracing::debug!(
            "a background thread keeps its priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_background_thread_and_the_threads_it_starts_run_at_the_lowest_priority() {
        let (own, started) = std::thread::spawn(|| {
            yield_to_answers();
            // SAFETY: as in `yield_to_answers`; no memory is passed.
            let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            (nice(), std::thread::spawn(nice).join().unwrap())
        })
        .join()
        .unwrap();
        assert_eq!((own, started), (BACKGROUND_NICE, BACKGROUND_NICE));
    }
}
