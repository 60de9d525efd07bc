//! The `partscat` command.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
