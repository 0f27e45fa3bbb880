//! Repository tasks, run as `cargo xtask <task>`.

fn main() {}
