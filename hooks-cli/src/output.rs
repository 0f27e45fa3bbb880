//! Printing that survives a closed stdout or stderr (a pager quit, `| head`): the first write
//! that fails marks the stream closed, and later writes to it are dropped. The command goes on to
//! its own exit status (a decision already made is not lost); long commands ask [`closed`] to end
//! early. Nothing here panics, where `output::out!` would.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout, unless it is closed.
pub(crate) fn stdout(args: fmt::Arguments<'_>) {
    write(&STDOUT_CLOSED, &mut io::stdout().lock(), args);
}

/// Writes to stderr, unless it is closed.
pub(crate) fn stderr(args: fmt::Arguments<'_>) {
    write(&STDERR_CLOSED, &mut io::stderr().lock(), args);
}

/// Whether stdout was found closed: nobody reads what the command prints any more.
pub(crate) fn closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

fn write(closed: &AtomicBool, stream: &mut impl Write, args: fmt::Arguments<'_>) {
    if closed.load(Ordering::Relaxed) {
        return;
    }
    if stream.write_fmt(args).and_then(|()| stream.flush()).is_err() {
        closed.store(true, Ordering::Relaxed);
    }
}

/// `output::out!` that never panics.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::stdout(format_args!($($arg)*)) };
}

/// `output::outln!` that never panics.
macro_rules! outln {
    () => { $crate::output::stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `output::err!` that never panics.
macro_rules! err {
    ($($arg:tt)*) => { $crate::output::stderr(format_args!($($arg)*)) };
}

/// `output::errln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => { $crate::output::stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {err, errln, out, outln};
