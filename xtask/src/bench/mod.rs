//! `cargo xtask bench [NAME...]`: benchmarks that print ratios measured side by side in one run.
//!
//! Each benchmark is a `harness = false` bench target of the crate it measures; this task only
//! builds and runs it in release mode. `peers` (`peers.rs`), run only when named, puts the
//! Claude engine side by side with other agents' hook runners, installed from npm.

mod peers;

use crate::util::{Result, cargo, run as run_cmd};

/// A benchmark: its name, what it measures, and its bench targets as (package, target).
type Bench = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// Every benchmark `cargo xtask bench` knows.
const BENCHES: &[Bench] = &[
    ("exec", "hook_exec::run versus a raw spawn", &[("hook-exec", "exec")]),
    ("native", "native around chains versus the bare body", &[("hooks-native", "native")]),
    (
        "engine",
        "the Claude engine versus raw spawns, and its scale; then an event of every other dialect \
         versus a Claude Code event; then every agent's hooks on one event versus raw spawns",
        &[("hooks-claude", "engine"), ("hooks-cli", "dialects"), ("hooks-mixed", "mixed")],
    ),
    ("session", "a Session step versus Engine::fire and its shown", &[("hooks-claude", "session")]),
    (
        "mixed",
        "one event through a hook of each of four agents versus four raw spawns at once; loading \
         (also in `engine`)",
        &[("hooks-mixed", "mixed")],
    ),
    (
        "dialects",
        "a Codex, a Copilot, a Cursor and a Gemini CLI event versus a Claude Code event (also in \
         `engine`)",
        &[("hooks-cli", "dialects")],
    ),
];

/// `cargo xtask bench` entry point.
pub(crate) fn run(args: &[String]) -> Result {
    let peers = args.iter().any(|a| a == "peers");
    let named: Vec<&String> = args.iter().filter(|a| *a != "peers").collect();
    let selected: Vec<&Bench> = if args.is_empty() {
        // Every bench once: `engine` already runs the dialects' and the mixed cells.
        BENCHES.iter().filter(|b| !matches!(b.0, "dialects" | "mixed")).collect()
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
    for (name, what, targets) in selected {
        for (package, target) in *targets {
            run_cmd(
                &format!("bench {name} ({package} {target}): {what}"),
                cargo().args(["bench", "--locked", "-p", package, "--bench", target]),
            )?;
        }
    }
    if peers {
        peers::run()?;
    }
    Ok(())
}
