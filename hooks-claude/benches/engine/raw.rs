//! The raw floor: std's `Command` running the same command lines, stdin from a file holding
//! the payload, stdout and stderr to `/dev/null`, `.status()`. An event with `n` hooks is `n`
//! threads in lockstep, one spawn each; the event ends when all have. The `capture` table's
//! third side is the same with three pipes instead ([`Raw::piped`]).

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Barrier};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::fail;
use crate::measure::micros;
use crate::setup::{Form, line};

/// The raw floor of one cell.
#[derive(Debug)]
pub(crate) struct Raw {
    noop: PathBuf,
    stdin: PathBuf,
    /// Direct (the program with its argument) or through `sh -c` (the line).
    direct: bool,
    /// The payload written through a pipe and the output read back (`wait_with_output`), as a
    /// runner that captures must; None: stdin from the file, the output to `/dev/null`.
    piped: Option<Vec<u8>>,
}

impl Raw {
    /// The raw floor for the engine's `form`: a plain-words command is compared with the
    /// `sh -c` floor it replaces.
    pub(crate) fn new(noop: &Path, stdin: &Path, form: Form) -> Self {
        Self {
            noop: noop.to_owned(),
            stdin: stdin.to_owned(),
            direct: form == Form::Direct,
            piped: None,
        }
    }

    /// The same, capturing as std offers: the payload (read once from the file) written into a
    /// piped stdin, then `wait_with_output` on piped stdout and stderr.
    pub(crate) fn piped(noop: &Path, stdin: &Path, form: Form) -> Self {
        let payload = std::fs::read(stdin)
            .unwrap_or_else(|e| fail(&format!("cannot read `{}`: {e}", stdin.display())));
        Self { piped: Some(payload), ..Self::new(noop, stdin, form) }
    }

    /// One spawn of hook `i`, waited for.
    pub(crate) fn once(&self, i: usize) {
        let mut cmd = if self.direct {
            #[expect(
                clippy::disallowed_methods,
                reason = "the raw floor spawns without the engine"
            )]
            let mut c = Command::new(&self.noop);
            c.arg(i.to_string());
            c
        } else {
            #[expect(
                clippy::disallowed_methods,
                reason = "the raw floor spawns without the engine"
            )]
            let mut c = Command::new("/bin/sh");
            c.arg("-c").arg(line(&self.noop, i));
            c
        };
        if let Some(payload) = &self.piped {
            let mut child = cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| fail(&format!("raw spawn failed: {e}")));
            if let Some(mut stdin) = child.stdin.take() {
                // Dropped at the end of the block: the hook's end of file.
                stdin
                    .write_all(payload)
                    .unwrap_or_else(|e| fail(&format!("cannot write the raw no-op's stdin: {e}")));
            }
            let out =
                child.wait_with_output().unwrap_or_else(|e| fail(&format!("raw wait failed: {e}")));
            if !out.status.success() || out.stdout.is_empty() {
                fail(&format!("the raw no-op exited with {}", out.status));
            }
            return;
        }
        let stdin = File::open(&self.stdin)
            .unwrap_or_else(|e| fail(&format!("cannot open `{}`: {e}", self.stdin.display())));
        let status = cmd
            .stdin(stdin)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| fail(&format!("raw spawn failed: {e}")));
        if !status.success() {
            fail(&format!("the raw no-op exited with {status}"));
        }
    }

    /// Wall µs per event of `groups` groups of `n` threads, each group running `events` events
    /// in lockstep, all groups at once.
    pub(crate) fn concurrent(&self, groups: usize, n: usize, events: usize) -> f64 {
        let t = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..groups {
                let barrier = std::sync::Arc::new(Barrier::new(n));
                for i in 0..n {
                    let barrier = std::sync::Arc::clone(&barrier);
                    s.spawn(move || {
                        for _ in 0..events {
                            self.once(i);
                            barrier.wait();
                        }
                    });
                }
            }
        });
        micros(t.elapsed()) / (groups * events) as f64
    }

    /// Wall µs of `total` spawns by `width` threads taking them from a shared counter.
    pub(crate) fn pool(&self, total: usize, width: usize) -> f64 {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let t = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..width.min(total) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        self.once(i);
                    }
                });
            }
        });
        micros(t.elapsed())
    }
}

/// `n` threads that spawn hook `i` each, once per event, in lockstep with the caller: an event
/// starts when the caller calls [`Lockstep::event`] and ends when every thread has waited for
/// its process. The threads run exactly the number of events they were made for.
#[derive(Debug)]
pub(crate) struct Lockstep {
    raw: Arc<Raw>,
    n: usize,
    go: Arc<Barrier>,
    done: Arc<Barrier>,
    threads: Vec<JoinHandle<()>>,
}

impl Lockstep {
    pub(crate) fn new(raw: &Arc<Raw>, n: usize, events: usize) -> Self {
        let go = Arc::new(Barrier::new(n + 1));
        let done = Arc::new(Barrier::new(n + 1));
        let threads = if n == 1 {
            Vec::new()
        } else {
            (0..n)
                .map(|i| {
                    let (raw, go, done) = (Arc::clone(raw), Arc::clone(&go), Arc::clone(&done));
                    std::thread::spawn(move || {
                        for _ in 0..events {
                            go.wait();
                            raw.once(i);
                            done.wait();
                        }
                    })
                })
                .collect()
        };
        Self { raw: Arc::clone(raw), n, go, done, threads }
    }

    /// One event: every thread's spawn, waited for (one hook: spawned on this thread).
    pub(crate) fn event(&self) {
        if self.n == 1 {
            self.raw.once(0);
        } else {
            self.go.wait();
            self.done.wait();
        }
    }

    /// Waits for the threads, which have run their events.
    pub(crate) fn join(self) {
        for t in self.threads {
            if t.join().is_err() {
                fail("a raw thread panicked");
            }
        }
    }
}
