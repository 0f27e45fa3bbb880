//! `hooks replay`: a recorded session through the hooks, as a table and a summary.
//!
//! The events run through the dialect's session, in order, every line checked first. With the
//! Claude Code dialect, the session fills `stop_hook_active`, runs the Stop loop guard,
//! activates a skill's hooks after its Skill call, delivers background hooks' results on the
//! next row, and reports what the `CLAUDE_ENV_FILE`s export. A TNSAI hook list has no session:
//! each line runs alone.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use hook_protocol::{DecisionWord, GuardState, HookStatus, Session, SessionStep};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::cli::{Format, ReplayArgs};
use crate::document::{AsyncLine, RunDocument};
use crate::error::{CliError, cli_error};
use crate::input::{Recorded, read_session};
use crate::output;

/// One row: the event's `run` document, and what the session did around it.
#[derive(Debug, Serialize)]
pub(crate) struct Row {
    #[serde(flatten)]
    pub(crate) doc: RunDocument,
    /// What the shell tool gets from the `CLAUDE_ENV_FILE`s from now on.
    pub(crate) env_file_exports: BTreeMap<String, String>,
    /// The Stop loop guard, on Stop and SubagentStop rows.
    pub(crate) guard: Option<GuardState>,
    /// On the first row of a log that begins mid-session: the session was taken as one that
    /// had already started, and no SessionStart hooks ran.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) resumed: bool,
}

impl Row {
    fn new(step: SessionStep, mixed: bool) -> Self {
        let mut doc = RunDocument::of(step.run, mixed);
        doc.async_results = AsyncLine::all(step.late);
        Self { doc, env_file_exports: step.exports, guard: step.guard, resumed: step.resumed }
    }
}

/// The note of a log that begins mid-session.
const RESUMED: &str = "note: the log begins mid-session (no SessionStart): it ran as a session \
                       that had already started, and no SessionStart hooks ran";

/// Runs `hooks replay`: exit status 0 when every event ran (the table is the result, whatever
/// the hooks decided), 1 on a bad file or configuration (before any event runs), 128 + the
/// signal when interrupted.
pub(crate) fn run(
    args: &ReplayArgs,
    verbose: bool,
    runtime: &tokio::runtime::Runtime,
) -> Result<u8, CliError> {
    let events = read_session(&args.file)?;
    let hooks = crate::dialects::load(&args.sources, verbose)?;
    let at = |recorded: &Recorded| format!("{}:{}", args.file.display(), recorded.line);
    let mut session = hooks.into_session();
    check(session.as_ref(), &events, &at)?;
    crate::contain::setup(&args.contain, verbose);
    let mut signals = crate::contain::Signals::new(runtime)?;
    let progress = std::io::stderr().is_terminal() && args.format == Format::Text && !verbose;
    let started = Instant::now();
    let mut rows = Vec::with_capacity(events.len());
    let async_wait = Duration::try_from_secs_f64(args.async_wait.max(0.0)).unwrap_or(Duration::MAX);
    for (i, recorded) in events.iter().enumerate() {
        if progress {
            output::err!("\r\x1b[2K[{}/{}] {}", i + 1, events.len(), recorded.event);
        }
        let event_started = Instant::now();
        let work = async {
            if i > 0 {
                session.settle(async_wait).await;
            }
            session.step(&recorded.event, recorded.input.clone()).await
        };
        let row = match signals.run(runtime, work) {
            Ok(row) => row,
            Err(interrupted) => {
                if progress {
                    output::err!("\r\x1b[2K");
                }
                return Ok(interrupted.status());
            }
        };
        let mut row = Row::new(
            row.map_err(|e| cli_error!("{}: {}", at(recorded), crate::dialects::say(&e)))?,
            args.sources.dialect == "all",
        );
        row.doc.elapsed_ms = u64::try_from(event_started.elapsed().as_millis()).unwrap_or(u64::MAX);
        if args.format == Format::Json {
            output::outln!(
                "{}",
                serde_json::to_string(&row).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
            );
        }
        rows.push(row);
        if output::closed() {
            // Nobody reads the lines any more (`| head`): the rest would run for no one.
            break;
        }
    }
    if progress {
        output::err!("\r\x1b[2K");
    }
    if args.format == Format::Text {
        if rows.first().is_some_and(|r| r.resumed) {
            output::outln!("{RESUMED}");
        }
        output::out!("{}", table(&rows));
        output::outln!("{}", summary(&rows, started.elapsed().as_millis()));
    }
    Ok(0)
}

/// Every line checked before any runs: a known event, the fields it requires (those the
/// session fills count as present), and an order the session can take.
fn check(
    session: &dyn Session,
    events: &[Recorded],
    at: &impl Fn(&Recorded) -> String,
) -> Result<(), CliError> {
    let lines: Vec<(&str, &Map<String, Value>)> =
        events.iter().map(|r| (r.event.as_str(), &r.input)).collect();
    session
        .check(&lines)
        .map_err(|(i, e)| cli_error!("{}: {}", at(&events[i]), crate::dialects::say(&e)))
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

/// The table: one row per event; `async` counts the background results a row delivers.
pub(crate) fn table(rows: &[Row]) -> String {
    let header = ["#", "event", "subject", "decision", "reason", "async", "slowest hook", "time"];
    let mut cells: Vec<[String; 8]> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let doc = &row.doc;
        let reason = doc
            .reason
            .clone()
            .or_else(|| doc.additional_context.first().map(|c| format!("(context) {c}")))
            .unwrap_or_else(|| "-".to_owned());
        let slowest = doc.slowest().map_or_else(|| "-".to_owned(), |h| file_name(&h.command));
        let time = format!("{} ms", doc.elapsed_ms);
        let delivered = match row.doc.async_results.len() {
            0 => "-".to_owned(),
            n => format!("+{n}"),
        };
        cells.push([
            (i + 1).to_string(),
            doc.event.clone(),
            doc.subject.clone().unwrap_or_else(|| "-".to_owned()),
            decision_cell(row),
            one_line(&reason, 60),
            delivered,
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

fn decision_cell(row: &Row) -> String {
    let doc = &row.doc;
    let mut cell = doc.decision.as_str().to_owned();
    if row.guard.is_some_and(|g| g.overridden) {
        cell.push_str(" (overridden: the turn ends)");
    }
    if !doc.continue_ {
        cell.push_str(" (halt)");
    }
    cell
}

/// The summary line under the table. A Stop block that the loop guard overrode did not keep
/// the turn going: it is counted apart from the blocks.
pub(crate) fn summary(rows: &[Row], total_ms: u128) -> String {
    let overridden = |r: &Row| r.guard.is_some_and(|g| g.overridden);
    let count =
        |w: DecisionWord| rows.iter().filter(|r| r.doc.decision == w && !overridden(r)).count();
    let blocked = count(DecisionWord::Deny) + count(DecisionWord::Block);
    let overrides = rows.iter().filter(|r| overridden(r)).count();
    let asked = count(DecisionWord::Ask) + count(DecisionWord::Defer);
    let allowed = count(DecisionWord::Allow);
    let none = count(DecisionWord::NoOpinion);
    let hooks: usize = rows.iter().map(|r| r.doc.hooks.len()).sum();
    let runs = || rows.iter().flat_map(|r| &r.doc.hooks);
    let blocking = runs().filter(|h| h.status == HookStatus::Blocked).count();
    let failed = runs()
        .filter(|h| {
            use HookStatus::*;
            matches!(h.status, Failed | TimedOut | SpawnFailed | Cancelled)
        })
        .count();
    let overrides = match overrides {
        0 => String::new(),
        n => format!(", {} by the loop guard", counted(n, "block overridden", "blocks overridden")),
    };
    format!(
        "{}, {}: {blocked} blocked or denied{overrides}, {asked} {} a person, {allowed} allowed, \
         {none} without a decision; {} (exit 2), {} (the action went on); {total_ms} ms",
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
