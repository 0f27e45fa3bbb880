//! The system calls std does not wrap; the only module of the crate with `unsafe`.
//!
//! Every function here is a thin, safe wrapper: its arguments are integers, borrowed file
//! descriptors or lists whose type upholds what the system call needs, and its results are
//! owned values, so no caller can break memory safety through it. Errors come back as
//! [`io::Error`].

#![expect(
    unsafe_code,
    reason = "thin wrappers over pidfd_open, pidfd_send_signal, kill, waitid, waitpid, ioctl, \
              send, geteuid and read into a vector's spare capacity, which std does not offer, over the reactor registration of a \
              descriptor we own, and over reading `environ` in place"
)]

#[cfg(all(target_os = "linux", any(target_env = "gnu", target_env = "musl")))]
mod clone;
#[cfg(target_vendor = "apple")]
mod posix_spawn;

use std::ffi::{CStr, c_int};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

#[cfg(all(target_os = "linux", any(target_env = "gnu", target_env = "musl")))]
pub(super) use clone::spawn;
#[cfg(target_vendor = "apple")]
pub(super) use posix_spawn::spawn;

use super::cstrings::CStrings;

/// The most `cgroup.procs` files a child joins: the hook's cgroup and, on a host that keeps
/// some controllers on cgroup v1, one per such controller.
pub(super) const MAX_JOIN: usize = 4;

/// The signals a hook starts with at their default disposition. A handler is reset by `exec`
/// anyway, but an ignored signal stays ignored: std ignores SIGPIPE in every Rust program, and
/// a harness may ignore others; a hook that cannot be stopped by SIGTERM, or that dies of an
/// unexpected EPIPE error instead of SIGPIPE, would behave unlike it does in a shell.
pub(super) const DEFAULT_SIGNALS: [c_int; 13] = [
    libc::SIGPIPE,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGTERM,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGCHLD,
    libc::SIGTSTP,
    libc::SIGTTIN,
    libc::SIGTTOU,
    libc::SIGXFSZ,
];

/// What a process is started with.
#[derive(Debug)]
pub(super) struct SpawnRequest<'a> {
    /// The program's path (no `PATH` search happens here).
    pub(super) path: &'a CStr,
    /// The arguments, the program's name first.
    pub(super) argv: &'a CStrings,
    /// The whole environment, as `NAME=value` entries.
    pub(super) envp: &'a CStrings,
    /// The working directory.
    pub(super) cwd: &'a CStr,
    /// What becomes the process's stdin, stdout and stderr.
    pub(super) stdio: [BorrowedFd<'a>; 3],
    /// The cgroup v2 directory the child starts in (Linux).
    pub(super) cgroup: Option<BorrowedFd<'a>>,
    /// `cgroup.procs` files of v1 cgroups the child writes itself into before it runs
    /// anything (Linux; fewer than [`MAX_JOIN`]).
    pub(super) join: &'a [BorrowedFd<'a>],
    /// A new session rather than a new process group (the supervisor's).
    pub(super) session: bool,
    /// The run's mark, set as the child's soft `RLIMIT_RTTIME` (Linux; 0 for none): see
    /// [`crate::tree`].
    #[cfg_attr(
        not(all(target_os = "linux", any(target_env = "gnu", target_env = "musl"))),
        expect(dead_code, reason = "set by the clone path only")
    )]
    pub(super) mark: u64,
}

/// A started process.
#[derive(Debug)]
pub(super) struct Spawned {
    /// Its pid.
    pub(super) pid: i32,
    /// Its pidfd, when the kernel gave one with the process (`clone3`).
    pub(super) pidfd: Option<OwnedFd>,
    /// 0 or the errno of each cgroup placement: the v2 cgroup first, then each v1 `join`.
    pub(super) join_errors: [i32; MAX_JOIN],
}

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

/// Registers a descriptor we own with the Tokio reactor.
///
/// # Panics
///
/// Outside a Tokio runtime with I/O enabled (Tokio's own rule).
pub(super) fn register(fd: OwnedFd, interest: Interest) -> io::Result<AsyncFd<File>> {
    // SAFETY: the `File` owns the descriptor, keeps it open for as long as the `AsyncFd` holds
    // it and always returns it from `as_raw_fd`; this module's callers never replace it through
    // `AsyncFd::get_mut`.
    unsafe { AsyncFd::register_with_interest(File::from(fd), interest) }.map_err(io::Error::from)
}

/// Opens a pidfd on `pid` (Linux 5.3 and later): readable once the process has exited, which
/// lets us notice the exit without reaping it.
#[cfg(target_os = "linux")]
pub(super) fn pidfd_open(pid: i32) -> io::Result<OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: pidfd_open takes two integers and returns a new descriptor or -1; no memory is
    // passed to the kernel.
    let ret = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if ret < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = i32::try_from(ret).map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
    // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// No pidfds outside Linux.
#[cfg(not(target_os = "linux"))]
pub(super) fn pidfd_open(_pid: i32) -> io::Result<OwnedFd> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Sends `signal` to the process a pidfd refers to; it cannot reach a later process that reused
/// the pid.
#[cfg(target_os = "linux")]
pub(super) fn pidfd_send_signal(pidfd: BorrowedFd<'_>, signal: i32) -> io::Result<()> {
    // SAFETY: integers only; a null siginfo is documented to mean "as kill(2) would fill it".
    let ret = unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd.as_raw_fd(),
            signal,
            std::ptr::null::<libc::siginfo_t>(),
            0_u32,
        )
    };
    if ret < 0 { Err(io::Error::last_os_error()) } else { Ok(()) }
}

/// No pidfds outside Linux.
#[cfg(not(target_os = "linux"))]
pub(super) fn pidfd_send_signal(_pidfd: BorrowedFd<'_>, _signal: i32) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// `kill(2)`: a positive `pid` is one process, a negative one the process group `-pid`.
pub(super) fn kill(pid: i32, signal: i32) -> io::Result<()> {
    // SAFETY: kill takes two integers and touches no memory of ours.
    let ret = unsafe { libc::kill(pid, signal) };
    if ret < 0 { Err(io::Error::last_os_error()) } else { Ok(()) }
}

/// Whether our child `pid` has exited, without reaping it (`waitid` with `WNOWAIT`).
pub(super) fn exited_unreaped(pid: i32) -> io::Result<bool> {
    let id = libc::id_t::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: siginfo_t is plain old data, for which all zeroes is a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a valid, writable siginfo_t that outlives the call.
    let ret = unsafe {
        libc::waitid(libc::P_PID, id, &raw mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT)
    };
    if ret < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: waitid either filled `info` for a child state change (where si_pid is the valid
    // member) or, with WNOHANG and nothing to report, left it zeroed.
    Ok(unsafe { info.si_pid() } != 0)
}

/// Reaps our child `pid` if it has exited (`None` while it runs), without blocking.
pub(super) fn try_wait(pid: i32) -> io::Result<Option<ExitStatus>> {
    waitpid(pid, libc::WNOHANG)
}

/// Reaps our child `pid`, blocking until it has exited.
pub(super) fn wait_blocking(pid: i32) -> io::Result<ExitStatus> {
    waitpid(pid, 0)?.ok_or_else(|| io::Error::from(io::ErrorKind::WouldBlock))
}

/// `waitpid(2)`, retried when a signal interrupts it.
fn waitpid(pid: i32, options: libc::c_int) -> io::Result<Option<ExitStatus>> {
    loop {
        let mut status = 0;
        // SAFETY: `status` is a valid, writable int that outlives the call.
        let ret = unsafe { libc::waitpid(pid, &raw mut status, options) };
        if ret > 0 {
            return Ok(Some(ExitStatus::from_raw(status)));
        }
        if ret == 0 {
            return Ok(None);
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Puts a descriptor we own in non-blocking mode (`ioctl(FIONBIO)`, one system call).
pub(super) fn set_nonblocking(fd: BorrowedFd<'_>) -> io::Result<()> {
    let on: libc::c_int = 1;
    // SAFETY: FIONBIO reads one int through the pointer, which is valid for the call.
    let ret = unsafe { libc::ioctl(fd.as_raw_fd(), libc::FIONBIO, &raw const on) };
    if ret < 0 { Err(io::Error::last_os_error()) } else { Ok(()) }
}

/// Reads once from `fd` into the spare capacity of `buf`, at most `max` bytes, and appends what
/// was read (`read(2)`, one system call): the room is not zero-filled first, as a read into a
/// `&mut [u8]` needs it to be. Returns how many bytes were appended; an interrupted or
/// would-block read is an error, as with [`std::io::Read::read`].
pub(super) fn read_spare(fd: BorrowedFd<'_>, buf: &mut Vec<u8>, max: usize) -> io::Result<usize> {
    let spare = buf.spare_capacity_mut();
    let len = max.min(spare.len());
    // SAFETY: `spare` is memory `buf` owns, writable and at least `len` bytes long; read(2)
    // writes at most `len` bytes into it and reads none of it.
    let ret = unsafe { libc::read(fd.as_raw_fd(), spare.as_mut_ptr().cast(), len) };
    let Ok(n) = usize::try_from(ret) else { return Err(io::Error::last_os_error()) };
    // SAFETY: the kernel initialised the first `n <= len` bytes of the spare capacity.
    unsafe { buf.set_len(buf.len() + n) };
    Ok(n)
}

/// Calls `f` with each entry of the process's environment (`NAME=value`, without its NUL), read
/// from libc's `environ` in place: no copy, no allocation per variable, as `getenv` reads it.
///
/// `std::env::set_var` requires of its callers that no other thread reads the environment
/// meanwhile through anything but `std::env` (so, in practice, that the program is
/// single-threaded when it is called); this read relies on that contract, as libc's own
/// readers do.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) fn for_each_env_entry(mut f: impl FnMut(&[u8])) {
    // SAFETY: `environ` is null or a null-terminated array of pointers to NUL-terminated
    // strings, which stay valid and unchanged while nothing modifies the environment (the
    // contract above).
    unsafe {
        let mut entry = libc::environ.cast_const();
        if entry.is_null() {
            return;
        }
        while !(*entry).is_null() {
            f(std::ffi::CStr::from_ptr(*entry).to_bytes());
            entry = entry.add(1);
        }
    }
}

/// Sends `bytes` on a connected socket without raising SIGPIPE when the peer is gone (EPIPE is
/// returned instead, whatever the harness does with SIGPIPE).
pub(super) fn send_nosignal(socket: BorrowedFd<'_>, bytes: &[u8]) -> io::Result<usize> {
    // SAFETY: `bytes` is valid for reads of its length for the duration of the call.
    let ret = unsafe {
        libc::send(socket.as_raw_fd(), bytes.as_ptr().cast(), bytes.len(), libc::MSG_NOSIGNAL)
    };
    usize::try_from(ret).map_err(|_| io::Error::last_os_error())
}

/// Our effective user id (for the `/proc` scan of the tree walk, Linux's alone).
#[cfg(target_os = "linux")]
pub(super) fn euid() -> u32 {
    // SAFETY: geteuid cannot fail and touches no memory of ours.
    unsafe { libc::geteuid() }
}

/// The hard `RLIMIT_RTTIME` of this process, read once; `None` when unlimited (or on a system
/// without the limit).
#[cfg(target_os = "linux")]
pub(super) fn rttime_hard_limit() -> Option<u64> {
    static HARD: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *HARD.get_or_init(|| {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: `limit` is a valid, writable rlimit.
        let ret = unsafe { libc::getrlimit(libc::RLIMIT_RTTIME, &raw mut limit) };
        (ret == 0 && limit.rlim_max != libc::RLIM_INFINITY).then_some(limit.rlim_max)
    })
}

/// No `RLIMIT_RTTIME` outside Linux: no mark (see [`crate::tree::mark`]).
#[cfg(not(target_os = "linux"))]
pub(super) fn rttime_hard_limit() -> Option<u64> {
    Some(0)
}

/// The pids of every process (`proc_listallpids`, macOS); `None` when they cannot be listed.
#[cfg(target_vendor = "apple")]
pub(super) fn all_pids() -> Option<Vec<i32>> {
    // SAFETY: a null buffer asks for the number of processes only.
    let count = unsafe { libc::proc_listallpids(std::ptr::null_mut(), 0) };
    // Room for processes started meanwhile.
    let room = usize::try_from(count).ok()?.saturating_add(64);
    let mut pids = vec![0_i32; room];
    let bytes = i32::try_from(room * std::mem::size_of::<i32>()).ok()?;
    // SAFETY: `pids` holds `bytes` writable bytes.
    let got = unsafe { libc::proc_listallpids(pids.as_mut_ptr().cast(), bytes) };
    pids.truncate(usize::try_from(got).ok()?);
    Some(pids)
}

/// A process's BSD information (`proc_pidinfo` with `PROC_PIDTBSDINFO`, macOS): its parent,
/// group, status and start time; `None` for a process gone or not ours to read.
#[cfg(target_vendor = "apple")]
pub(super) fn bsd_info(pid: i32) -> Option<libc::proc_bsdinfo> {
    let mut info = std::mem::MaybeUninit::<libc::proc_bsdinfo>::zeroed();
    let size = i32::try_from(std::mem::size_of::<libc::proc_bsdinfo>()).ok()?;
    // SAFETY: `info` is a writable `proc_bsdinfo` of `size` bytes.
    let got = unsafe {
        libc::proc_pidinfo(pid, libc::PROC_PIDTBSDINFO, 0, info.as_mut_ptr().cast(), size)
    };
    // SAFETY: the call filled the whole struct when it returned its size.
    (got == size).then(|| unsafe { info.assume_init() })
}
