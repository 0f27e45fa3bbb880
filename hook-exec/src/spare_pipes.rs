//! Pipes made ahead of need: each spawning thread keeps a few, made right after a spawn while
//! its child starts, so that the next spawn takes them instead of making them before its child
//! can start.
//!
//! A spawn on a thread with none makes its own, as it would without this. A spare pipe is an
//! ordinary close-on-exec pipe that nothing has used: a child gets only the ends it is given
//! (every other descriptor is closed before `execve`), and the spares go with their thread.
//! The whole process keeps at most [`MOST`] of them, however many threads spawn, so that they
//! never take a noticeable share of the descriptor limit.

use std::cell::RefCell;
use std::io::{self, PipeReader, PipeWriter};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most pipes a thread keeps: what one spawn uses.
const KEPT: usize = 3;
/// The most spare pipes in the process (two descriptors each).
const MOST: usize = 12;

/// The spare pipes of every thread.
static IN_PROCESS: AtomicUsize = AtomicUsize::new(0);

/// One thread's spares; counted in [`IN_PROCESS`] until taken or dropped with the thread.
#[derive(Default)]
struct Spares(Vec<(PipeReader, PipeWriter)>);

impl Drop for Spares {
    fn drop(&mut self) {
        IN_PROCESS.fetch_sub(self.0.len(), Ordering::Relaxed);
    }
}

thread_local! {
    static SPARE: RefCell<Spares> = RefCell::default();
}

/// A pipe: one of this thread's spares, or a new one.
///
/// # Errors
///
/// When a new pipe cannot be made (the descriptor limit).
pub(super) fn take() -> io::Result<(PipeReader, PipeWriter)> {
    match SPARE.with_borrow_mut(|spare| spare.0.pop()) {
        Some(pipe) => {
            IN_PROCESS.fetch_sub(1, Ordering::Relaxed);
            Ok(pipe)
        }
        None => io::pipe(),
    }
}

/// Makes this thread's spares up to [`KEPT`], within the process's [`MOST`]; stops quietly at
/// the first pipe that cannot be made (the next spawn then reports it when it makes its own).
pub(super) fn refill() {
    SPARE.with_borrow_mut(|spare| {
        while spare.0.len() < KEPT {
            if IN_PROCESS.fetch_add(1, Ordering::Relaxed) >= MOST {
                IN_PROCESS.fetch_sub(1, Ordering::Relaxed);
                break;
            }
            match io::pipe() {
                Ok(pipe) => spare.0.push(pipe),
                Err(_) => {
                    IN_PROCESS.fetch_sub(1, Ordering::Relaxed);
                    break;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::fd::AsRawFd;

    use super::*;

    /// The spares are counted process-wide: one test at a time.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn spares_are_taken_before_new_pipes_and_work_as_pipes() {
        let _one = SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        refill();
        let spare: Vec<i32> =
            SPARE.with_borrow(|s| s.0.iter().map(|(r, _)| r.as_raw_fd()).collect());
        assert_eq!(spare.len(), KEPT);
        let mut taken = Vec::new();
        for _ in 0..KEPT {
            let (mut reader, mut writer) = take().unwrap();
            taken.push(reader.as_raw_fd());
            writer.write_all(b"through").unwrap();
            drop(writer);
            let mut got = String::new();
            reader.read_to_string(&mut got).unwrap();
            assert_eq!(got, "through");
        }
        taken.sort_unstable();
        let mut spare = spare;
        spare.sort_unstable();
        assert_eq!(taken, spare, "the spares went first");
        assert!(SPARE.with_borrow(|s| s.0.is_empty()));
        // None left: a new one.
        let (reader, _writer) = take().unwrap();
        assert!(reader.as_raw_fd() >= 0);
    }

    #[test]
    fn spares_are_close_on_exec() {
        let _one = SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        refill();
        SPARE.with_borrow(|spare| {
            assert_eq!(spare.0.len(), KEPT, "nothing to check");
            for (r, w) in &spare.0 {
                for fd in [r.as_raw_fd(), w.as_raw_fd()] {
                    // SAFETY: F_GETFD on a descriptor this thread owns.
                    #[expect(unsafe_code, reason = "fcntl(2) reads the descriptor's flags")]
                    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
                    assert_eq!(flags & libc::FD_CLOEXEC, libc::FD_CLOEXEC, "fd {fd}");
                }
            }
        });
    }

    #[test]
    fn the_process_keeps_at_most_its_share_however_many_threads_spawn() {
        let _one = SERIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let threads: Vec<_> = (0..2 * MOST)
            .map(|_| {
                let (go, wait) = std::sync::mpsc::channel::<()>();
                let (kept, count) = std::sync::mpsc::channel();
                let handle = std::thread::spawn(move || {
                    refill();
                    kept.send(SPARE.with_borrow(|s| s.0.len())).unwrap();
                    wait.recv().unwrap();
                });
                (go, count.recv().unwrap(), handle)
            })
            .collect();
        let kept: usize = threads.iter().map(|(_, n, _)| n).sum();
        assert!(kept <= MOST, "{kept} spare pipes");
        assert_eq!(
            kept, MOST,
            "the first threads keep their three until the process has its share"
        );
        assert!(IN_PROCESS.load(Ordering::Relaxed) <= MOST);
        for (go, _, handle) in threads {
            go.send(()).unwrap();
            handle.join().unwrap();
        }
        // The threads' spares went with them.
        assert!(IN_PROCESS.load(Ordering::Relaxed) <= KEPT, "only this thread's may be left");
    }
}
