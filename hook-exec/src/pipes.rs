//! The hook's three pipes: stdin written, stdout and stderr drained, all from one task.
//!
//! At first a hook's output does not wake the runner at all: until the run has lasted the
//! runner's watching delay, stdin could not be written at once, or the leader has exited with a
//! pipe still open ([`Pipes::watch_output`]), the pipes are read only once the leader has exited.
//! When the leader's exit wakes the runner by itself (a pidfd), stdout and stderr are not even
//! registered with the reactor until then ("quiet"): a hook that ends sooner, as most do, costs
//! one wake-up, at its exit, and no registration of its pipes. Without a pidfd (the exit is
//! then polled), they wake the runner at their end of file on Linux (the `EPOLLHUP` epoll
//! reports whatever is asked, with no interest in input), and with their output elsewhere
//! (kqueue reports an end of file only with input). A hook that fills a pipe meanwhile waits at
//! most the watching delay to be drained.
//!
//! [`Pipes::pump`] moves whatever bytes can move without blocking on every open pipe and
//! registers for readiness on the rest; the runner calls it on every wake-up. Reads go straight
//! into the kept capture until its cap, then into one scratch buffer whose bytes are only
//! counted, so memory stays bounded however much a hook prints, and a pipe is never left full
//! (which would block the hook).

use std::fs::File;
use std::io::{self, PipeWriter, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

use super::{LineTap, sys};
use hook_protocol::StdinOutcome;

/// The most bytes read or written per call.
const CHUNK: usize = 64 * 1024;
/// The most bytes read into a buffer on the stack when a capture has no room left.
const FIRST_READ: usize = 1024;
/// The first room reserved for a capture past its first read; it doubles as output arrives,
/// up to the cap.
const FIRST_ROOM: usize = 4 * 1024;
/// Reads per output pipe in one pump, after which the task yields so that a flood cannot
/// starve the timer or the runtime.
const READS_PER_PUMP: usize = 32;

/// What one output pipe produced.
#[derive(Debug)]
pub(super) struct Capture {
    /// Bytes kept (its spare capacity is the room the next read fills).
    kept: Vec<u8>,
    max: usize,
    total: u64,
    /// How many bytes the last read asked for: a pipe that gave fewer was empty after it.
    asked: usize,
}

impl Capture {
    fn new(max: usize) -> Self {
        Self { kept: Vec::new(), max, total: 0, asked: 0 }
    }

    /// Reads once from `file` into the capture, or into `scratch` past the cap.
    fn read_from(&mut self, file: &File, scratch: &mut Vec<u8>) -> io::Result<usize> {
        let filled = self.kept.len();
        let room = self.max - filled;
        let n = if room == 0 {
            if scratch.is_empty() {
                scratch.resize(CHUNK, 0);
            }
            self.asked = scratch.len();
            (&*file).read(scratch)?
        } else if self.kept.capacity() == filled {
            // No room left: read into a small buffer on the stack, and make room only for
            // bytes that came. A read that finds nothing (end of file, nothing yet) allocates
            // nothing, so most hooks' empty stderr costs no buffer, and a short first output
            // is kept in a block of its length; past it the room doubles.
            let mut first = [0_u8; FIRST_READ];
            let len = room.min(FIRST_READ);
            self.asked = len;
            let n = (&*file).read(&mut first[..len])?;
            if n > 0 {
                let more = if filled == 0 && n < len {
                    n
                } else {
                    filled.max(FIRST_ROOM).min(room).max(n)
                };
                self.kept.reserve_exact(more);
                self.kept.extend_from_slice(&first[..n]);
            }
            n
        } else {
            self.asked = room.min(CHUNK).min(self.kept.capacity() - filled);
            sys::read_spare(file.as_fd(), &mut self.kept, self.asked)?
        };
        self.total += n as u64;
        Ok(n)
    }

    /// Looks for the first newline in the kept bytes from `from` on: `Ok(end)` when found,
    /// `Err(next_from)` otherwise.
    fn newline_from(&self, from: usize) -> Result<usize, usize> {
        let filled = self.kept.len();
        match self.kept[from.min(filled)..].iter().position(|&b| b == b'\n') {
            Some(i) => Ok(from + i),
            None => Err(filled),
        }
    }

    /// Whether nothing more will be kept.
    fn full(&self) -> bool {
        self.kept.len() == self.max
    }

    /// The kept bytes, the total read and whether the total went past the cap.
    pub(super) fn finish(self) -> (Vec<u8>, u64, bool) {
        let truncated = self.total > self.kept.len() as u64;
        (self.kept, self.total, truncated)
    }
}

/// The write end of the hook's stdin and what is left to write.
#[derive(Debug)]
struct Stdin {
    fd: AsyncFd<File>,
    payload: Arc<[u8]>,
    written: usize,
}

/// Stdout or stderr, open: not registered (read once the leader has exited), registered for
/// its end of file only, or for its output too.
#[derive(Debug)]
enum Out {
    Quiet(File),
    #[cfg_attr(
        not(any(target_os = "linux", target_os = "android")),
        allow(dead_code, reason = "kqueue has no end-only interest: never made there")
    )]
    EndOnly(AsyncFd<File>),
    Output(AsyncFd<File>),
}

impl Out {
    fn file(&self) -> &File {
        match self {
            Out::Quiet(file) => file,
            Out::EndOnly(fd) | Out::Output(fd) => fd.get_ref(),
        }
    }
}

/// The hook's pipes, as seen from the runner.
#[derive(Debug)]
pub(super) struct Pipes {
    stdin: Option<Stdin>,
    stdin_outcome: Option<StdinOutcome>,
    stdin_written: usize,
    stdout: Option<Out>,
    stderr: Option<Out>,
    pub(super) out: Capture,
    pub(super) err: Capture,
    scratch: Vec<u8>,
    /// Told the first line of stdout; dropped once told, or when it cannot come.
    pub(super) tap: Option<LineTap>,
    /// How far stdout was searched for the first newline.
    scanned: usize,
}

impl Pipes {
    /// Takes the pipes of a freshly spawned hook and writes what more of the payload fits at
    /// once, closing stdin when done. `stdin` is None when there is nothing left to write (no
    /// payload, and the hook reads `/dev/null`, or all of it written before the hook started);
    /// otherwise it is non-blocking and holds the payload's first `written` bytes already
    /// ([`prefill`]). `quiet`: the leader's exit wakes the runner by itself, so stdout
    /// and stderr need no registration until they are watched.
    ///
    /// # Errors
    ///
    /// When a pipe cannot be made non-blocking or registered with the reactor.
    #[expect(clippy::too_many_arguments, reason = "the pipes and what each of them carries")]
    pub(super) fn new(
        stdin: Option<OwnedFd>,
        written: usize,
        stdout: OwnedFd,
        stderr: OwnedFd,
        payload: &Arc<[u8]>,
        stdout_max: usize,
        stderr_max: usize,
        quiet: bool,
    ) -> io::Result<Self> {
        let out = |fd: OwnedFd| -> io::Result<Out> {
            if quiet {
                sys::set_nonblocking(fd.as_fd())?;
                Ok(Out::Quiet(File::from(fd)))
            } else {
                end_only(fd)
            }
        };
        let mut pipes = Self {
            stdin: None,
            stdin_outcome: None,
            stdin_written: 0,
            stdout: Some(out(stdout)?),
            stderr: Some(out(stderr)?),
            out: Capture::new(stdout_max),
            err: Capture::new(stderr_max),
            scratch: Vec::new(),
            tap: None,
            scanned: 0,
        };
        let Some(stdin) = stdin.filter(|_| !payload.is_empty()) else {
            pipes.stdin_outcome = Some(StdinOutcome::Written);
            return Ok(pipes);
        };
        let file = File::from(stdin);
        let mut written = written.min(payload.len());
        loop {
            match (&file).write(&payload[written..payload.len().min(written + CHUNK)]) {
                Ok(n) => {
                    written += n;
                    if written == payload.len() {
                        pipes.stdin_outcome = Some(StdinOutcome::Written);
                        return Ok(pipes);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    pipes.stdin_outcome = Some(StdinOutcome::Unread { written: written as u64 });
                    return Ok(pipes);
                }
            }
        }
        pipes.stdin_written = written;
        // The hook reads its stdin as we write it: drain its output as it comes, as it may
        // wait for room in a pipe before it reads on.
        pipes.watch_output()?;
        pipes.stdin = Some(Stdin {
            fd: sys::register(OwnedFd::from(file), Interest::WRITABLE)?,
            payload: Arc::clone(payload),
            written,
        });
        Ok(pipes)
    }

    /// Moves every byte that can move now, registering for readiness on the pipes that would
    /// block. Returns true when stdout and stderr are both at end of file.
    pub(super) fn pump(&mut self, cx: &mut Context<'_>) -> bool {
        if let Some(stdin) = &mut self.stdin {
            if let Poll::Ready(outcome) = stdin.poll_write(cx) {
                self.stdin_written = stdin.written;
                self.stdin_outcome = Some(outcome);
                self.stdin = None;
            } else {
                self.stdin_written = stdin.written;
            }
        }
        let mut yielded = false;
        let mut closed_now = false;
        for (pipe, capture) in
            [(&mut self.stdout, &mut self.out), (&mut self.stderr, &mut self.err)]
        {
            if let Some(Out::Output(fd) | Out::EndOnly(fd)) = pipe {
                match drain(fd, capture, &mut self.scratch, cx) {
                    Drain::Closed => {
                        *pipe = None;
                        closed_now = true;
                    }
                    Drain::Pending => {}
                    Drain::Budget => yielded = true,
                }
            }
        }
        if closed_now && !yielded {
            self.peek_other();
        }
        if yielded {
            cx.waker().wake_by_ref();
        }
        self.tell_first_line();
        self.outputs_closed()
    }

    /// One pipe just ended: a hook that exits closes both at once, but the other one's end of
    /// file usually arrives a moment later, as a wake-up of its own. Reading it now, without
    /// waiting for its readiness, spares that wake-up; what it reads is kept as any read is,
    /// and a pipe that has nothing yet stays registered (its waker is already set).
    fn peek_other(&mut self) {
        read_now(&mut self.stdout, &mut self.out, &mut self.scratch);
        read_now(&mut self.stderr, &mut self.err, &mut self.scratch);
    }

    /// Tells the tap the first line of stdout once it is complete; gives up when stdout ended
    /// or its capture is full without one.
    fn tell_first_line(&mut self) {
        let Some(tap) = &self.tap else { return };
        match self.out.newline_from(self.scanned) {
            Ok(end) => {
                tap.call(&self.out.kept[..end]);
                self.tap = None;
            }
            Err(next) => {
                self.scanned = next;
                if self.stdout.is_none() || self.out.full() {
                    self.tap = None;
                }
            }
        }
    }

    /// Whether the output of stdout and stderr (those still open) wakes the runner.
    pub(super) fn watches_output(&self) -> bool {
        ![&self.stdout, &self.stderr]
            .iter()
            .any(|out| matches!(out, Some(Out::Quiet(_) | Out::EndOnly(_))))
    }

    /// Registers stdout and stderr for their output, so that it wakes the runner.
    ///
    /// # Errors
    ///
    /// When a pipe cannot be registered.
    pub(super) fn watch_output(&mut self) -> io::Result<()> {
        for pipe in [&mut self.stdout, &mut self.stderr] {
            let file = match pipe.take() {
                Some(Out::Quiet(file)) => file,
                Some(Out::EndOnly(fd)) => fd.into_inner(),
                other => {
                    *pipe = other;
                    continue;
                }
            };
            *pipe = Some(Out::Output(sys::register(OwnedFd::from(file), Interest::READABLE)?));
        }
        Ok(())
    }

    /// Reads what the pipes whose output is not watched hold, without waiting: called once the
    /// leader has exited; a pipe only its descendants still hold stays open (and the runner
    /// then watches its output).
    pub(super) fn read_unwatched(&mut self) {
        for (pipe, capture) in
            [(&mut self.stdout, &mut self.out), (&mut self.stderr, &mut self.err)]
        {
            if matches!(pipe, Some(Out::Quiet(_) | Out::EndOnly(_))) {
                read_now(pipe, capture, &mut self.scratch);
            }
        }
        self.tell_first_line();
    }

    /// Whether stdout and stderr are both at end of file.
    pub(super) fn outputs_closed(&self) -> bool {
        self.stdout.is_none() && self.stderr.is_none()
    }

    /// Stops writing stdin and reports what became of it.
    pub(super) fn stdin_outcome(&mut self) -> StdinOutcome {
        self.stdin = None;
        self.stdin_outcome.unwrap_or(StdinOutcome::Unread { written: self.stdin_written as u64 })
    }
}

/// Makes the stdin pipe non-blocking and writes into it what of the payload fits now, before
/// the hook is started, so that a hook reading its stdin finds it there (and its end of file,
/// once the caller closes its end). Otherwise a hook the kernel starts on another CPU than the
/// harness's, as it often does at `execve`, can reach the end of what is there before the
/// harness has written the rest or closed the pipe, sleep, and be woken from the other CPU.
/// Returns the bytes written (all of a payload up to the pipe's size, 64 KiB on Linux); a write
/// that fails leaves the rest, and the error, to [`Pipes::new`].
///
/// # Errors
///
/// When the pipe cannot be made non-blocking.
pub(super) fn prefill(stdin: &PipeWriter, payload: &[u8]) -> io::Result<usize> {
    sys::set_nonblocking(stdin.as_fd())?;
    let mut pipe = stdin;
    let mut written = 0;
    while written < payload.len() {
        let end = payload.len().min(written + CHUNK);
        match pipe.write(&payload[written..end]) {
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    Ok(written)
}

impl Stdin {
    /// Writes until done (`Written`), the hook stops reading (`Unread`, on EPIPE or any other
    /// error), or the pipe is full (`Pending`).
    fn poll_write(&mut self, cx: &mut Context<'_>) -> Poll<StdinOutcome> {
        loop {
            let mut guard = match self.fd.poll_write_ready(cx) {
                Poll::Ready(Ok(guard)) => guard,
                Poll::Ready(Err(_)) => {
                    return Poll::Ready(StdinOutcome::Unread { written: self.written as u64 });
                }
                Poll::Pending => return Poll::Pending,
            };
            let end = self.payload.len().min(self.written + CHUNK);
            let chunk = &self.payload[self.written..end];
            match guard.try_io(|fd| fd.get_ref().write(chunk)) {
                Ok(Ok(n)) => {
                    self.written += n;
                    if self.written == self.payload.len() {
                        return Poll::Ready(StdinOutcome::Written);
                    }
                }
                Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(Err(_)) => {
                    return Poll::Ready(StdinOutcome::Unread { written: self.written as u64 });
                }
                Err(_would_block) => {}
            }
        }
    }
}

/// Reads `pipe` now, without waiting for its readiness: to its end of file (the pipe is then
/// closed), until it has nothing yet, or for a pump's worth of reads. What it reads is kept as
/// any read is; an error is left to the pipe's next readiness, which reports it again.
fn read_now(pipe: &mut Option<Out>, capture: &mut Capture, scratch: &mut Vec<u8>) {
    let Some(out) = pipe else { return };
    for _ in 0..READS_PER_PUMP {
        match capture.read_from(out.file(), scratch) {
            Ok(0) => {
                *pipe = None;
                return;
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // Nothing yet (WouldBlock), or an error.
            Err(_) => return,
        }
    }
}

enum Drain {
    /// End of file (or a read error, which ends the stream all the same).
    Closed,
    /// Nothing more to read now; the waker is registered.
    Pending,
    /// Still readable after a pump's worth of reads.
    Budget,
}

fn drain(
    fd: &mut AsyncFd<File>,
    capture: &mut Capture,
    scratch: &mut Vec<u8>,
    cx: &mut Context<'_>,
) -> Drain {
    for _ in 0..READS_PER_PUMP {
        let mut guard = match fd.poll_read_ready(cx) {
            Poll::Ready(Ok(guard)) => guard,
            Poll::Ready(Err(_)) => return Drain::Closed,
            Poll::Pending => return Drain::Pending,
        };
        match guard.try_io(|fd| capture.read_from(fd.get_ref(), scratch)) {
            Ok(Ok(0)) => return Drain::Closed,
            // A pipe that gave fewer bytes than asked was empty after the read: its readiness
            // is cleared now instead of by one more read that would fail with EAGAIN, as
            // tokio's own streams do. The next poll registers the waker; a write or end of file
            // after the read is a new readiness, which clearing does not drop.
            Ok(Ok(n)) if n < capture.asked => guard.clear_ready(),
            Ok(Ok(_)) => {}
            Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
            Ok(Err(_)) => return Drain::Closed,
            Err(_would_block) => {}
        }
    }
    Drain::Budget
}

/// An output pipe, non-blocking, registered for its end of file only (Linux).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn end_only(fd: OwnedFd) -> io::Result<Out> {
    sys::set_nonblocking(fd.as_fd())?;
    // Interest in urgent data, which a pipe never has: epoll then reports only its hang-up.
    Ok(Out::EndOnly(sys::register(fd, Interest::PRIORITY)?))
}

/// An output pipe, non-blocking, registered for its output (kqueue has no end-only interest).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn end_only(fd: OwnedFd) -> io::Result<Out> {
    sys::set_nonblocking(fd.as_fd())?;
    Ok(Out::Output(sys::register(fd, Interest::READABLE)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipe_with(bytes: &[u8]) -> File {
        let (reader, mut writer) = io::pipe().unwrap();
        writer.write_all(bytes).unwrap();
        drop(writer);
        File::from(OwnedFd::from(reader))
    }

    fn read_all(capture: &mut Capture, file: &File) {
        let mut scratch = Vec::new();
        while capture.read_from(file, &mut scratch).unwrap() > 0 {}
    }

    #[test]
    fn a_payload_that_fits_is_all_in_the_pipe_before_anyone_reads() {
        let (reader, writer) = io::pipe().unwrap();
        let payload: Vec<u8> = (0..2_000_u32).map(|i| b'a' + (i % 26) as u8).collect();
        assert_eq!(prefill(&writer, &payload).unwrap(), payload.len());
        drop(writer);
        // With our end closed the reader finds the whole payload and then its end of file,
        // without anything else writing.
        let mut read = Vec::new();
        (&reader).read_to_end(&mut read).unwrap();
        assert_eq!(read, payload);
    }

    #[test]
    fn a_payload_larger_than_the_pipe_fills_it_without_blocking() {
        let (reader, writer) = io::pipe().unwrap();
        let payload = vec![b'x'; 4 << 20];
        let written = prefill(&writer, &payload).unwrap();
        assert!(written > 0 && written < payload.len(), "{written} of {} bytes", payload.len());
        // The pipe was left non-blocking: one more write is refused rather than waited on.
        let more = (&writer).write(b"y").map_err(|e| e.kind());
        assert_eq!(more, Err(io::ErrorKind::WouldBlock));
        drop(writer);
        let mut read = Vec::new();
        (&reader).read_to_end(&mut read).unwrap();
        assert_eq!(read.len(), written);
    }

    #[test]
    fn capture_keeps_up_to_the_cap_and_counts_the_rest() {
        let data: Vec<u8> = (0..20_000_u32).map(|i| (i % 251) as u8).collect();
        let mut capture = Capture::new(10_000);
        read_all(&mut capture, &pipe_with(&data));
        let (kept, total, truncated) = capture.finish();
        assert_eq!(kept, &data[..10_000]);
        assert_eq!(total, 20_000);
        assert!(truncated);
    }

    #[test]
    fn capture_under_the_cap_is_whole() {
        let mut capture = Capture::new(1 << 20);
        read_all(&mut capture, &pipe_with(b"{}\n"));
        assert_eq!(capture.finish(), (b"{}\n".to_vec(), 3, false));
    }

    #[test]
    fn the_first_newline_is_found_across_reads() {
        let mut capture = Capture::new(64);
        read_all(&mut capture, &pipe_with(b"abc"));
        assert_eq!(capture.newline_from(0), Err(3));
        read_all(&mut capture, &pipe_with(b"d\nrest\n"));
        assert_eq!(capture.newline_from(3), Ok(4));
    }

    #[test]
    fn an_empty_stream_allocates_nothing_and_a_short_one_its_length() {
        let mut empty = Capture::new(1 << 20);
        read_all(&mut empty, &pipe_with(b""));
        assert_eq!(empty.kept.capacity(), 0);
        let mut short = Capture::new(1 << 20);
        read_all(&mut short, &pipe_with(b"{\"ok\":true}\n"));
        assert_eq!(short.kept.capacity(), 12);
        assert_eq!(short.finish(), (b"{\"ok\":true}\n".to_vec(), 12, false));
    }

    #[test]
    fn output_longer_than_the_first_read_is_whole_across_reads() {
        for len in [FIRST_READ - 1, FIRST_READ, FIRST_READ + 1, 3 * FIRST_READ + 7, 60_000] {
            let data: Vec<u8> = (0..len).map(|i| (i % 253) as u8).collect();
            let mut capture = Capture::new(1 << 20);
            read_all(&mut capture, &pipe_with(&data));
            assert_eq!(capture.finish(), (data, len as u64, false), "{len} bytes");
        }
    }

    #[test]
    fn zero_cap_keeps_nothing() {
        let mut capture = Capture::new(0);
        read_all(&mut capture, &pipe_with(b"abc"));
        assert_eq!(capture.finish(), (Vec::new(), 3, true));
    }
}
