//! `cargo xtask bench [NAME...]`: benchmarks that print ratios measured side by side in one run.
//!
//! Each benchmark is a `harness = false` bench target of the crate it measures; this task only
//! builds and runs it in release mode. `peers` (`peers.rs`), run only when named, puts the
//! Claude engine side by side with other agents' hook runners, installed from npm.

mod peers;

use crate::util::{Result, cargo, run as run_cmd};

/// (name, package, bench target, what it measures)
const BENCHES: &[(&str, &str, &str, &str)] = &[
    ("exec", "hook-exec", "exec", "hook_exec::run versus a raw spawn"),
    ("native", "hooks-native", "native", "native around chains versus the bare body"),
    ("engine", "hooks-claude", "engine", "the Claude engine versus raw spawns, and its scale"),
    ("session", "hooks-claude", "session", "a Session step versus Engine::fire and its shown"),
    ("dialects", "hooks-cli", "dialects", "a Codex event versus a Claude Code event"),
];

/// `cargo xtask bench` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let peers = args.iter().any(|a| a == "peers");
    let named: Vec<&String> = args.iter().filter(|a| *a != "peers").collect();
    let selected: Vec<&(&str, &str, &str, &str)> = if args.is_empty() {
        BENCHES.iter().collect()
    } else {
        named
            .iter()
            .map(|a| {
                BENCHES.iter().find(|b| b.0 == a.as_str()).ok_or_else(|| {
                    let names: Vec<&str> = BENCHES.iter().map(|b| b.0).collect();
                    format!("unknown benchmark `{a}`; known: {}, peers", names.join(", "))
                })
            })
            .collect::<std::result::Result<_, _>>()?
    };
    for (name, package, target, what) in selected {
        run_cmd(
            &format!("bench {name}: {what}"),
            cargo().args(["bench", "--locked", "-p", package, "--bench", target]),
        )?;
    }
    if peers {
        peers::run()?;
    }
    Ok(())
}
