//! `hooks replay`: a recorded session through the hooks, as a table and a summary.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Instant;

use crate::backend::Backend;
use crate::cli::{Format, ReplayArgs};
use crate::document::{DecisionWord, HookStatusWord, RunDocument};
use crate::error::{CliError, cli_error};
use crate::input::read_session;

/// Runs `hooks replay`; exit status 0 (the table is the result), 1 on a bad file or config.
pub(crate) fn run(
    args: &ReplayArgs,
    verbose: bool,
    runtime: &tokio::runtime::Runtime,
) -> Result<u8, CliError> {
    let events = read_session(&args.file)?;
    let backend = Backend::load(&args.sources, verbose)?;
    crate::contain::setup(&args.contain, verbose);
    let mut signals = crate::contain::Signals::new(runtime)?;
    let progress = std::io::stderr().is_terminal() && args.format == Format::Text && !verbose;
    let started = Instant::now();
    let mut rows = Vec::with_capacity(events.len());
    for (i, recorded) in events.iter().enumerate() {
        if progress {
            eprint!("\r\x1b[2K[{}/{}] {}", i + 1, events.len(), recorded.event);
        }
        let event_started = Instant::now();
        let doc = match signals.run(runtime, backend.run(&recorded.event, recorded.input.clone())) {
            Ok(doc) => doc,
            Err(interrupted) => {
                if progress {
                    eprint!("\r\x1b[2K");
                }
                return Ok(interrupted.status());
            }
        };
        let mut doc =
            doc.map_err(|e| cli_error!("{}:{}: {e}", args.file.display(), recorded.line))?;
        doc.elapsed_ms = u64::try_from(event_started.elapsed().as_millis()).unwrap_or(u64::MAX);
        if args.format == Format::Json {
            println!("{}", doc.to_json());
        }
        rows.push(doc);
    }
    if progress {
        eprint!("\r\x1b[2K");
    }
    if args.format == Format::Text {
        print!("{}", table(&rows));
        println!("{}", summary(&rows, started.elapsed().as_millis()));
    }
    Ok(0)
}

fn one_line(text: &str, max: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

fn file_name(command: &str) -> String {
    let first = command.split_whitespace().next().unwrap_or(command).trim_matches('"');
    first.rsplit('/').next().unwrap_or(first).to_owned()
}

/// The table: one row per event.
pub(crate) fn table(rows: &[RunDocument]) -> String {
    let header = ["#", "event", "subject", "decision", "reason", "slowest hook", "time"];
    let mut cells: Vec<[String; 7]> = Vec::new();
    for (i, doc) in rows.iter().enumerate() {
        let reason = doc
            .reason
            .clone()
            .or_else(|| doc.additional_context.first().map(|c| format!("(context) {c}")))
            .unwrap_or_else(|| "-".to_owned());
        let slowest = doc.slowest().map_or_else(|| "-".to_owned(), |h| file_name(&h.command));
        let time = format!("{} ms", doc.elapsed_ms);
        cells.push([
            (i + 1).to_string(),
            doc.event.clone(),
            doc.subject.clone().unwrap_or_else(|| "-".to_owned()),
            decision_cell(doc),
            one_line(&reason, 60),
            slowest,
            time,
        ]);
    }
    let mut widths = header.map(|h| h.chars().count());
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cols: &[String]| {
        let mut s = String::new();
        for (i, (c, w)) in cols.iter().zip(widths.iter()).enumerate() {
            if i + 1 == cols.len() {
                s.push_str(c);
            } else {
                let pad = w - c.chars().count();
                s.push_str(c);
                s.push_str(&" ".repeat(pad + 2));
            }
        }
        let _ = writeln!(out, "{}", s.trim_end());
    };
    line(&header.map(str::to_owned));
    for row in &cells {
        line(row);
    }
    out
}

fn decision_cell(doc: &RunDocument) -> String {
    let mut cell = doc.decision.as_str().to_owned();
    if !doc.continue_ {
        cell.push_str(" (halt)");
    }
    cell
}

/// The summary line under the table.
pub(crate) fn summary(rows: &[RunDocument], total_ms: u128) -> String {
    let count = |w: DecisionWord| rows.iter().filter(|d| d.decision == w).count();
    let blocked = count(DecisionWord::Deny) + count(DecisionWord::Block);
    let asked = count(DecisionWord::Ask) + count(DecisionWord::Defer);
    let allowed = count(DecisionWord::Allow);
    let none = count(DecisionWord::None);
    let hooks: usize = rows.iter().map(|d| d.hooks.len()).sum();
    let runs = || rows.iter().flat_map(|d| &d.hooks);
    let blocking = runs().filter(|h| h.status == HookStatusWord::BlockingError).count();
    let failed = runs()
        .filter(|h| {
            matches!(
                h.status,
                HookStatusWord::NonBlockingError
                    | HookStatusWord::TimedOut
                    | HookStatusWord::SpawnFailed
            )
        })
        .count();
    format!(
        "{}, {}: {blocked} blocked or denied, {asked} {} a person, {allowed} allowed, {none} \
         without a decision; {} (exit 2), {} (the action went on); {total_ms} ms",
        counted(rows.len(), "event", "events"),
        counted(hooks, "hook run", "hook runs"),
        if asked == 1 { "needs" } else { "need" },
        counted(blocking, "blocking error", "blocking errors"),
        counted(failed, "non-blocking error", "non-blocking errors"),
    )
}

/// `1 event`, `2 events`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
