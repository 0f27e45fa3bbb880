//! The `hooks` command: run, check, list and replay agent hooks without an agent.
//!
//! `hooks run` sends one event through the hooks of a dialect (Claude Code settings files and
//! plugins, a TNSAI hook list, ...) and prints the merged decision; `hooks check` validates configurations; `hooks list` shows
//! which hooks an event would run; `hooks replay` runs a recorded session. `docs/cli.md` gives
//! the options, output formats and exit statuses.

mod cases;
mod check;
mod cli;
mod contain;
mod dialects;
mod document;
mod error;
mod input;
mod known;
mod output;
mod replay;
mod testing;
mod verbose;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use hook_protocol::DialectError;

use crate::cli::{Cli, Command, Format, ListArgs, RunArgs};
use crate::document::{AsyncLine, RunDocument};
use crate::error::{CliError, cli_error};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage_error = e.use_stderr();
            let _ = e.print();
            // clap exits 2 on usage errors; 2 means "blocked" here, so usage errors exit 1.
            return if usage_error { ExitCode::from(1) } else { ExitCode::SUCCESS };
        }
    };
    if cli.verbose {
        verbose::install();
    }
    match execute(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            output::errln!("hooks: {e}");
            ExitCode::from(1)
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| cli_error!("cannot start the runtime: {e}"))
}

fn execute(cli: Cli) -> Result<u8, CliError> {
    match cli.command {
        Command::Run(args) => run(args, cli.verbose),
        Command::Check(args) => check::run(&args),
        Command::List(args) => list(&args, cli.verbose),
        Command::Replay(args) => replay::run(&args, cli.verbose, &runtime()?),
        Command::Test(args) => testing::run(&args, cli.verbose, &runtime()?),
    }
}

fn run(args: RunArgs, verbose: bool) -> Result<u8, CliError> {
    let hooks = dialects::load(&args.sources, verbose)?;
    let input = input::read_object(args.input.as_deref())?;
    contain::setup(&args.contain, verbose);
    let runtime = runtime()?;
    let mut signals = contain::Signals::new(&runtime)?;
    let wait = Duration::try_from_secs_f64(args.async_wait.max(0.0)).unwrap_or(Duration::MAX);
    let work = async {
        let run = hooks.run(&args.event, input).await?;
        Ok::<_, DialectError>((run, hooks.settle(wait).await))
    };
    let (run, settled) = match signals.run(&runtime, work) {
        Ok(done) => done.map_err(|e| dialects::say(&e))?,
        Err(interrupted) => return Ok(interrupted.status()),
    };
    for command in &settled.ended {
        output::errln!(
            "hooks: warning: background hook `{command}` still ran after --async-wait {}s; it \
             was ended and its result is not reported",
            args.async_wait
        );
    }
    let mut doc = RunDocument::of(run, args.sources.dialect == "all");
    doc.async_results = AsyncLine::all(settled.late);
    match args.format {
        Format::Text => output::out!("{}", doc.to_text()),
        Format::Json => output::outln!("{}", doc.to_json()),
    }
    Ok(doc.exit_status())
}

fn list(args: &ListArgs, verbose: bool) -> Result<u8, CliError> {
    let hooks = dialects::load(&args.sources, verbose)?;
    let listed = hooks.list(&args.event, args.subject.as_deref()).map_err(|e| dialects::say(&e))?;
    let mut any = false;
    for h in &listed {
        match &h.not_run {
            None => {
                output::outln!("{}  ({})", h.command, h.source);
                any = true;
            }
            Some(why) if verbose => {
                output::errln!("hooks: not run: {} ({}): {why}", h.command, h.source)
            }
            Some(_) => {}
        }
    }
    if !any {
        output::outln!("no hook would run for {}", args.event);
    }
    Ok(0)
}
