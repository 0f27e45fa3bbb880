//! The `capture` table: what capturing a hook's output costs std itself. The raw floor sends
//! stdout and stderr to `/dev/null` and reads stdin from a file; a runner cannot, since it must
//! hand the hook its payload and read back what it printed. This table adds a third side, std's
//! `Command` doing that the way std offers (three pipes, the payload written, then
//! `wait_with_output`), and times the three sides event by event in one hook's sequential
//! cells. It has no target: it tells how much of the engine's ratio to the floor any runner
//! that captures pays.

use std::sync::Arc;
use std::time::Instant;

use crate::measure::{median, micros};
use crate::raw::Raw;
use crate::setup::{self, Form};
use crate::{Cell, Ctx, enter, fire};

/// One row's figures: medians over rounds.
struct Figures {
    floor_us: f64,
    piped_us: f64,
    ours_us: f64,
    /// Medians of the per-round ratios.
    piped_to_floor: f64,
    ours_to_floor: f64,
    ours_to_piped: f64,
}

/// Prints the table.
pub(crate) fn run(ctx: &Arc<Ctx>) {
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}",
        "capturing output: std piped vs the floor",
        "floor µs",
        "piped µs",
        "ours µs",
        "piped/fl",
        "ours/fl",
        "ours/pip"
    );
    for form in [Form::Shell, Form::Direct] {
        let cell = Cell { form, hooks: 1, concurrent: false };
        let f = measure(ctx, cell);
        println!(
            "{:<44} {:>9.1} {:>9.1} {:>9.1} {:>8.3} {:>8.3} {:>8.3}",
            cell.name(),
            f.floor_us,
            f.piped_us,
            f.ours_us,
            f.piped_to_floor,
            f.ours_to_floor,
            f.ours_to_piped
        );
    }
}

fn measure(ctx: &Arc<Ctx>, cell: Cell) -> Figures {
    enter(&format!("capture · {}", cell.name()));
    let engine = Arc::new(setup::engine_of(&ctx.dir, &ctx.noop, cell.form, 1));
    let floor = Arc::new(Raw::new(&ctx.noop, &ctx.stdin, cell.form));
    let piped = Arc::new(Raw::piped(&ctx.noop, &ctx.stdin, cell.form));
    let n = cell.events();
    let mut rounds: [Vec<f64>; 3] = Default::default();
    let mut ratios: [Vec<f64>; 3] = Default::default();
    // A warm-up round, then the measured ones.
    for round in 0..=ctx.knobs.rounds {
        let (c, e, fl, pi) =
            (Arc::clone(ctx), Arc::clone(&engine), Arc::clone(&floor), Arc::clone(&piped));
        let us = ctx.block(async move {
            let mut us: [Vec<f64>; 3] = Default::default();
            for k in 0..n {
                // Each side goes first, second and third in turn.
                for side in (0..3).map(|s| (s + k) % 3) {
                    let t = Instant::now();
                    match side {
                        0 => fl.once(0),
                        1 => pi.once(0),
                        _ => fire(&e, &c.input, 1).await,
                    }
                    us[side].push(micros(t.elapsed()));
                }
            }
            us.map(|side| median(&side))
        });
        if round == 0 {
            continue;
        }
        for side in 0..3 {
            rounds[side].push(us[side]);
        }
        ratios[0].push(us[1] / us[0]);
        ratios[1].push(us[2] / us[0]);
        ratios[2].push(us[2] / us[1]);
    }
    Figures {
        floor_us: median(&rounds[0]),
        piped_us: median(&rounds[1]),
        ours_us: median(&rounds[2]),
        piped_to_floor: median(&ratios[0]),
        ours_to_floor: median(&ratios[1]),
        ours_to_piped: median(&ratios[2]),
    }
}
