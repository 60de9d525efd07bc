//! The `partscat` command.

mod cli;

// A commit allocates and frees on its own threads while the lookups answer on theirs: with
// the system allocator they met on its arena locks and its consolidation of freed chunks.
// mimalloc gives each thread its own heap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
