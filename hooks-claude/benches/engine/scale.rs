//! The scale table: many configured hooks none of which matches, 100 matching hooks against
//! 100 raw spawns, loading a settings file of 1,000 hooks, and the memory an event allocates.

use std::sync::Arc;
use std::time::Instant;

use hook_protocol::Dispatcher;
use hooks_claude::{Loader, Scope};
use serde_json::Value;

use crate::measure::{Alloc, median, micros, rss_kib};
use crate::raw::Raw;
use crate::setup::{self, Form};
use crate::{Ctx, enter, fail, fire};

/// A settings text of `n` hooks on PreToolUse, none matching `Bash`: half under exact tool
/// names, half under regexes (MCP tools), one handler per group.
fn unmatched(ctx: &Ctx, n: usize) -> String {
    let groups: Vec<(String, Vec<Value>)> = (0..n)
        .map(|i| {
            let matcher = if i.is_multiple_of(2) {
                format!("Tool{i}")
            } else {
                format!("mcp__server{i}__.*")
            };
            (matcher, vec![setup::handler(&ctx.noop, Form::Direct, i)])
        })
        .collect();
    setup::settings(&groups)
}

/// Runs the scale table; whether every target was met.
pub(crate) fn run(ctx: &Arc<Ctx>) -> bool {
    let rounds = ctx.knobs.rounds;
    let mut met = true;
    println!("{:<52} {:>12} {:>12}  target", "scale", "figure", "raw floor");

    // Events that match nothing: the engine's own cost per event.
    for n in [0, 1000] {
        enter(&format!("scale: {n} non-matching hooks"));
        let engine = Arc::new(setup::engine(&ctx.dir, &unmatched(ctx, n), Form::Direct));
        let c = Arc::clone(ctx);
        let samples = ctx.block(async move {
            const EVENTS: usize = 2000;
            for _ in 0..EVENTS {
                fire(&engine, &c.input, 0).await;
            }
            let mut samples = Vec::with_capacity(rounds);
            for _ in 0..rounds {
                let t = Instant::now();
                for _ in 0..EVENTS {
                    fire(&engine, &c.input, 0).await;
                }
                samples.push(micros(t.elapsed()) / EVENTS as f64);
            }
            samples
        });
        let us = median(&samples);
        let (target, ok) =
            if n == 0 { ("—".to_owned(), true) } else { ok_at_most(us, 20.0, "µs") };
        met &= ok;
        println!(
            "{:<52} {:>9.2} µs {:>12}  {target}",
            format!("{n} configured hooks, none matching: per event"),
            us,
            ""
        );
    }

    // 100 matching hooks, one event at a time, against 100 raw spawns 32 at a time.
    {
        const HOOKS: usize = 100;
        enter("scale: 100 matching hooks");
        let engine = Arc::new(setup::engine_of(&ctx.dir, &ctx.noop, Form::Direct, HOOKS));
        let raw = Arc::new(Raw::new(&ctx.noop, &ctx.stdin, Form::Direct));
        let width = Dispatcher::DEFAULT_PARALLELISM;
        let (c, e, r) = (Arc::clone(ctx), Arc::clone(&engine), Arc::clone(&raw));
        let (raw_us, ours_us, ratios) = ctx.block(async move {
            fire(&e, &c.input, HOOKS).await;
            r.pool(HOOKS, width);
            let (mut raw_us, mut ours_us, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..rounds {
                let ours = async {
                    let t = Instant::now();
                    fire(&e, &c.input, HOOKS).await;
                    micros(t.elapsed())
                };
                let (raw, ours) = if round.is_multiple_of(2) {
                    let raw = r.pool(HOOKS, width);
                    (raw, ours.await)
                } else {
                    let ours = ours.await;
                    (r.pool(HOOKS, width), ours)
                };
                raw_us.push(raw);
                ours_us.push(ours);
                ratios.push(ours / raw);
            }
            (median(&raw_us), median(&ours_us), median(&ratios))
        });
        let (target, ok) = ok_at_most(ratios, 1.1, "×");
        met &= ok;
        println!(
            "{:<52} {:>9.0} µs {:>9.0} µs  ratio {ratios:.3}, {target}",
            format!("{HOOKS} matching hooks, one event ({width} at a time)"),
            ours_us,
            raw_us
        );
    }

    // Loading a settings file of 1,000 hooks, and building the engine over it.
    {
        enter("scale: loading 1,000 hooks");
        let (load, build) = load_and_build(ctx, rounds.max(5));
        // What a harness waits for before its first event is both: the target holds them.
        let (target, ok) = ok_at_most(load + build, 10.0, "ms");
        met &= ok;
        println!("{:<52} {:>9.2} ms {:>12}  —", "loading a settings file of 1,000 hooks", load, "");
        println!("{:<52} {:>9.2} ms {:>12}  —", "building the engine over them", build, "");
        println!(
            "{:<52} {:>9.2} ms {:>12}  {target}",
            "both: from the file to an engine ready to fire",
            load + build,
            ""
        );
    }

    // Memory: what one event with one hook allocates, and whether anything stays.
    {
        enter("scale: memory per event");
        let engine = Arc::new(setup::engine_of(&ctx.dir, &ctx.noop, Form::Direct, 1));
        let c = Arc::clone(ctx);
        let (alloc, events, rss_before, rss_after) = ctx.block(async move {
            const EVENTS: usize = 2000;
            for _ in 0..200 {
                fire(&engine, &c.input, 1).await;
            }
            let before = rss_kib();
            Alloc::start();
            for _ in 0..EVENTS {
                fire(&engine, &c.input, 1).await;
            }
            let alloc = Alloc::stop();
            (alloc, EVENTS as f64, before, rss_kib())
        });
        let live = alloc.live as f64 / events;
        let ok = live < 64.0;
        met &= ok;
        println!(
            "{:<52} {:>9.0} {:>15}  —",
            "allocations per event (1 hook)",
            alloc.count as f64 / events,
            ""
        );
        println!(
            "{:<52} {:>9.1} KB {:>12}  —",
            "bytes allocated per event (1 hook)",
            alloc.bytes as f64 / events / 1024.0,
            ""
        );
        println!(
            "{:<52} {:>9.1} B  {:>12}  < 64 B{}",
            "bytes still allocated per event after 2,000 events",
            live,
            "",
            if ok { "" } else { " MISSED" }
        );
        println!(
            "{:<52} {:>9} KB {:>12}  —",
            "resident memory before / after those events",
            format!("{rss_before}/{rss_after}"),
            ""
        );
    }
    met
}

/// µs per event of `events` events that none of `hooks` configured hooks matches.
pub(crate) fn unmatched_events(ctx: &Arc<Ctx>, hooks: usize, events: usize) -> f64 {
    let engine = Arc::new(setup::engine(&ctx.dir, &unmatched(ctx, hooks), Form::Direct));
    let c = Arc::clone(ctx);
    ctx.block(async move {
        let t = Instant::now();
        for _ in 0..events {
            fire(&engine, &c.input, 0).await;
        }
        micros(t.elapsed()) / events as f64
    })
}

/// Medians over `rounds` of loading a settings file of 1,000 hooks and of building an engine
/// over it, in ms.
pub(crate) fn load_and_build(ctx: &Ctx, rounds: usize) -> (f64, f64) {
    let text = unmatched(ctx, 1000);
    let path = ctx.dir.join(".claude/settings.json");
    let (mut load, mut build) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        let config = Loader::new()
            .settings_text(&path, &text, Scope::Project)
            .finish()
            .unwrap_or_else(|e| fail(&format!("the 1,000-hook settings do not load: {e}")));
        load.push(micros(t.elapsed()) / 1000.0);
        if config.entries.len() != 1000 || !config.diagnostics.is_empty() {
            fail("the 1,000-hook settings did not load as 1,000 hooks");
        }
        let t = Instant::now();
        let engine = hooks_claude::Engine::builder(config).build();
        build.push(micros(t.elapsed()) / 1000.0);
        drop(engine);
    }
    (median(&load), median(&build))
}

/// The target text of a figure that must be at most `limit`, and whether it is.
fn ok_at_most(value: f64, limit: f64, unit: &str) -> (String, bool) {
    let ok = value <= limit;
    (format!("≤ {limit} {unit}{}", if ok { "" } else { " MISSED" }), ok)
}
