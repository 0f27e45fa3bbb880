//! The `hooks` command: run, check, list and replay hooks without an agent.

use clap::Parser;

mod document;

/// Run, check, list and replay agent hooks without an agent.
#[derive(Debug, Parser)]
#[command(name = "hooks", version)]
struct Cli {}

fn main() {
    let _cli = Cli::parse();
}
