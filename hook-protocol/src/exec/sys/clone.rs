//! Starting a process on Linux with `clone(CLONE_VM | CLONE_VFORK)` and child code of our own,
//! the technique `posix_spawn` uses, so that the child can do what `posix_spawn` cannot: join
//! the hook's cgroups and close every inherited descriptor before it executes the hook.
//!
//! The child shares the harness's memory and runs on a stack of its own while the calling
//! thread is suspended (`CLONE_VFORK`) until the child has called `execve` or exited. It runs
//! only system calls (no allocation, no lock, no unwinding), with every signal blocked until
//! its dispositions are safe: a handler of the harness must never run in the child, since it
//! would run on the harness's memory. Its steps, in order:
//!
//! 1. write `0` (itself) into each `cgroup.procs` it was given: from then on it and everything
//!    it starts belong to the hook's cgroup; nothing of the hook has run yet, so nothing of it
//!    can have forked outside (a failed write is reported, and the hook runs uncontained);
//! 2. reset every handled signal to its default, and [`DEFAULT_SIGNALS`] even when ignored;
//! 3. lead a new process group (or a new session, for the supervisor);
//! 4. `dup2` its stdin, stdout and stderr into place;
//! 5. change to the working directory;
//! 6. close every descriptor above 2 (`close_range`, or one by one where the kernel lacks it);
//! 7. unblock every signal, and `execve` the program.
//!
//! A failure in steps 3 to 7 is reported through the shared memory and ends the child with
//! status 127 before any code of the hook has run.

#![expect(
    unsafe_code,
    reason = "clone(2) with a child function of ours, and the system calls that child makes"
)]

use std::ffi::{c_char, c_int, c_void};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicI32, Ordering};

use super::{DEFAULT_SIGNALS, MAX_JOIN, SpawnRequest, Spawned};

/// The child's stack, in 16-byte units: 64 KiB, far more than the child's few frames need.
const STACK_UNITS: usize = 4096;

/// The highest signal number plus one (glibc's and musl's `_NSIG` on Linux).
const NSIG: c_int = 65;

/// What the child reads and writes, shared with the parent (`CLONE_VM`).
struct Ctx {
    path: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
    cwd: *const c_char,
    stdio: [c_int; 3],
    join: [c_int; MAX_JOIN],
    joins: usize,
    session: bool,
    defaults: libc::sigset_t,
    empty: libc::sigset_t,
    /// The descriptor count to close one by one where `close_range` is missing.
    max_fd: c_int,
    /// Set by the child when it fails before `execve`: the errno.
    error: AtomicI32,
    /// Set by the child for each `cgroup.procs` write that failed: the errno.
    join_errors: [AtomicI32; MAX_JOIN],
}

/// Starts the process `req` describes and returns its pid and which cgroup joins failed.
///
/// # Errors
///
/// The error the child met before `execve` (`ENOENT` for a missing program or working
/// directory, `EACCES`, `ENOEXEC`, ...), or the failure of `clone` itself.
pub(in super::super) fn spawn(req: &SpawnRequest<'_>) -> io::Result<Spawned> {
    if req.join.len() > MAX_JOIN {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    }
    // The child applies the dup2 calls in order, so a descriptor below 3 could be overwritten
    // by an earlier one: such descriptors are first copied above 2 (close-on-exec, as the
    // originals are).
    let mut copies: [Option<OwnedFd>; 3] = [None, None, None];
    let mut stdio: [c_int; 3] = [0; 3];
    for ((fd, copy), raw) in req.stdio.iter().zip(&mut copies).zip(&mut stdio) {
        *raw = if fd.as_raw_fd() < 3 {
            copy.insert(fd.try_clone_to_owned()?).as_raw_fd()
        } else {
            fd.as_raw_fd()
        };
    }
    let mut join = [-1; MAX_JOIN];
    for (slot, fd) in join.iter_mut().zip(req.join) {
        *slot = fd.as_raw_fd();
    }
    let argv = req.argv.pointers();
    let envp = req.envp.pointers();
    let mut defaults = sigset_empty()?;
    for signal in DEFAULT_SIGNALS {
        // SAFETY: `defaults` was initialised by sigemptyset; `signal` is a valid signal number.
        if unsafe { libc::sigaddset(&raw mut defaults, signal) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    let ctx = Ctx {
        path: req.path.as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        cwd: req.cwd.as_ptr(),
        stdio,
        join,
        joins: req.join.len(),
        session: req.session,
        defaults,
        empty: sigset_empty()?,
        max_fd: max_fd(),
        error: AtomicI32::new(0),
        join_errors: [const { AtomicI32::new(0) }; MAX_JOIN],
    };

    thread_local! {
        /// The child's stack, one per spawning thread: the thread is suspended for as long as
        /// its child uses it.
        static STACK: std::cell::RefCell<Vec<u128>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let pid = STACK.with_borrow_mut(|stack| {
        if stack.is_empty() {
            stack.resize(STACK_UNITS, 0);
        }
        let top = stack.as_mut_ptr_range().end.cast::<c_void>();
        let _blocked = BlockAll::new()?;
        #[expect(
            clippy::disallowed_methods,
            reason = "this module is the one place that starts processes"
        )]
        // SAFETY: `child` only makes system calls and touches nothing but `ctx` and its own
        // stack; `top` is the end of a writable, 16-byte aligned buffer of 64 KiB that nothing
        // else uses while the child runs (this thread is suspended until the child has called
        // `execve` or exited, `CLONE_VFORK`); `ctx` and everything its pointers reach (the
        // program, the argument and environment lists, the working directory) outlive the
        // call; every signal is blocked, so no handler of ours runs on the child's stack before
        // the child has reset the dispositions.
        let pid = unsafe {
            libc::clone(
                child,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (&raw const ctx).cast_mut().cast::<c_void>(),
            )
        };
        if pid < 0 { Err(io::Error::last_os_error()) } else { Ok(pid) }
    })?;
    drop(copies);
    let error = ctx.error.load(Ordering::Acquire);
    if error != 0 {
        // The child exited with 127 before `execve`: reap it now, nobody else will.
        let _ = super::wait_blocking(pid);
        return Err(io::Error::from_raw_os_error(error));
    }
    let mut join_errors = [0; MAX_JOIN];
    for (out, e) in join_errors.iter_mut().zip(&ctx.join_errors) {
        *out = e.load(Ordering::Acquire);
    }
    Ok(Spawned { pid, join_errors })
}

/// The child: see the module documentation for its steps.
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the `Ctx` the parent passed, alive until this child has called
    // `execve` or exited (the parent is suspended meanwhile).
    let ctx = unsafe { &*arg.cast_const().cast::<Ctx>() };
    for (fd, error) in ctx.join.iter().zip(&ctx.join_errors).take(ctx.joins) {
        // SAFETY: writing one byte from a static buffer to a descriptor of the parent's.
        if unsafe { libc::write(*fd, b"0".as_ptr().cast::<c_void>(), 1) } != 1 {
            error.store(errno(), Ordering::Release);
        }
    }
    reset_signals(ctx);
    // SAFETY: setsid and setpgid take integers only.
    let grouped = unsafe { if ctx.session { libc::setsid() } else { libc::setpgid(0, 0) } };
    if grouped < 0 {
        return fail(ctx);
    }
    for (target, fd) in (0..).zip(ctx.stdio) {
        // SAFETY: integers only.
        if unsafe { libc::dup2(fd, target) } < 0 {
            return fail(ctx);
        }
    }
    // SAFETY: `cwd` is a valid C string the parent keeps alive.
    if unsafe { libc::chdir(ctx.cwd) } < 0 {
        return fail(ctx);
    }
    close_above_stdio(ctx.max_fd);
    // SAFETY: `empty` is an initialised signal set.
    unsafe { libc::sigprocmask(libc::SIG_SETMASK, &raw const ctx.empty, std::ptr::null_mut()) };
    // SAFETY: `path` is a valid C string; `argv` and `envp` are null-terminated arrays of
    // pointers to valid C strings, all kept alive by the parent.
    unsafe { libc::execve(ctx.path, ctx.argv, ctx.envp) };
    fail(ctx)
}

/// Records errno for the parent and ends the child.
fn fail(ctx: &Ctx) -> c_int {
    ctx.error.store(errno().max(1), Ordering::Release);
    // SAFETY: `_exit` ends the process at once, running no handler of the parent's.
    unsafe { libc::_exit(127) }
}

/// Every signal with a handler goes back to its default disposition (a handler would run on the
/// harness's memory, and `execve` resets handlers anyway); those of `defaults` too, even when
/// ignored. Signals ignored by the harness and not in `defaults` stay ignored, as across
/// `execve`.
fn reset_signals(ctx: &Ctx) {
    for signal in 1..NSIG {
        if signal == libc::SIGKILL || signal == libc::SIGSTOP {
            continue;
        }
        // SAFETY: `defaults` is an initialised signal set; `signal` is in range.
        let forced = unsafe { libc::sigismember(&raw const ctx.defaults, signal) } == 1;
        if !forced {
            let mut old = MaybeUninit::<libc::sigaction>::zeroed();
            // SAFETY: a null new action only reads the current one into `old`.
            if unsafe { libc::sigaction(signal, std::ptr::null(), old.as_mut_ptr()) } != 0 {
                continue;
            }
            // SAFETY: sigaction succeeded and filled `old`.
            let handler = unsafe { old.assume_init() }.sa_sigaction;
            if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
                continue;
            }
        }
        // SAFETY: an all-zero sigaction is a valid value: SIG_DFL (0), an empty mask, no flags.
        let action: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: `action` is a valid sigaction that outlives the call.
        unsafe { libc::sigaction(signal, &raw const action, std::ptr::null_mut()) };
    }
}

/// Closes every descriptor above 2: one `close_range` call, or one `close` per descriptor up to
/// `max_fd` where the kernel is older than 5.9.
fn close_above_stdio(max_fd: c_int) {
    // SAFETY: close_range takes integers only.
    let ret = unsafe { libc::syscall(libc::SYS_close_range, 3_u32, u32::MAX, 0_u32) };
    if ret == 0 {
        return;
    }
    for fd in 3..max_fd {
        // SAFETY: closing a descriptor number; EBADF for those not open.
        unsafe { libc::close(fd) };
    }
}

/// The child's errno, read through libc's per-thread slot (the parent thread's, since the
/// child shares its thread pointer; that thread is suspended meanwhile).
fn errno() -> c_int {
    // SAFETY: __errno_location returns the calling thread's errno slot, always valid.
    unsafe { *libc::__errno_location() }
}

/// The soft limit on descriptors, for the fallback of [`close_above_stdio`]; at most 65536.
fn max_fd() -> c_int {
    // SAFETY: sysconf takes an integer.
    let n = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) };
    c_int::try_from(n.clamp(3, 65_536)).unwrap_or(65_536)
}

/// An empty signal set.
fn sigset_empty() -> io::Result<libc::sigset_t> {
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: sigemptyset initialises the set it is given.
    if unsafe { libc::sigemptyset(set.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: initialised just above.
    Ok(unsafe { set.assume_init() })
}

/// Every signal blocked on this thread until drop, which restores the previous mask.
struct BlockAll(libc::sigset_t);

impl BlockAll {
    fn new() -> io::Result<Self> {
        let mut all = MaybeUninit::<libc::sigset_t>::uninit();
        // SAFETY: sigfillset initialises the set it is given.
        if unsafe { libc::sigfillset(all.as_mut_ptr()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut old = MaybeUninit::<libc::sigset_t>::uninit();
        // SAFETY: `all` was initialised; `old` is writable and filled on success.
        let ret =
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, all.as_ptr(), old.as_mut_ptr()) };
        if ret != 0 {
            return Err(io::Error::from_raw_os_error(ret));
        }
        // SAFETY: pthread_sigmask succeeded and filled `old`.
        Ok(Self(unsafe { old.assume_init() }))
    }
}

impl Drop for BlockAll {
    fn drop(&mut self) {
        // SAFETY: restores the mask saved in `new`, a valid signal set.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &raw const self.0, std::ptr::null_mut())
        };
    }
}
