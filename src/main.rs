//! The `partscat` command.

mod cli;

// A commit allocates and frees on its own threads while the lookups answer on theirs: with
// the system allocator they met on its arena locks and its consolidation of freed chunks.
// mimalloc gives each thread its own heap. What a request's work allocates is counted for it,
// so that the answers in flight stay within their bound (`partscat::limits::in_flight`).
#[global_allocator]
static ALLOCATOR: partscat::limits::in_flight::CountingAllocator<mimalloc::MiMalloc> =
    partscat::limits::in_flight::CountingAllocator(mimalloc::MiMalloc);

fn main() -> std::process::ExitCode {
    without_huge_pages();
    cli::main()
}

/// Asks the kernel for no transparent huge pages in this process. mimalloc advises them for
/// its segments, so the first touch of each thread's segment cleared 2 MiB: a 1,000-row
/// commit spent half its processor time in the kernel clearing pages it never used. Loads up
/// to 1,000,000 articles and lookups measured faster or the same without; a 7,000,000-article
/// load 1.03-1.06x slower (docs/performance.md, "Small commits: no huge pages").
fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours; it
    // fails only on kernels without it, which then keep their own setting.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
