//! Starting a process on Linux with `clone3(CLONE_VM | CLONE_VFORK)` (or `clone` where there
//! is no `clone3`) and child code of our own, the technique `posix_spawn` uses, so that the
//! child can do what `posix_spawn` cannot: start in the hook's cgroup, and close every
//! inherited descriptor before it executes the hook.
//!
//! The child shares the harness's memory and runs on a stack of its own while the calling
//! thread is suspended (`CLONE_VFORK`) until the child has called `execve` or exited. It runs
//! only system calls (no allocation, no lock, no unwinding), and a handler of the harness never
//! runs in it, since it would run on the harness's memory: every signal is blocked around the
//! call, so the child starts with all of them blocked, and it unblocks them only once every
//! handler is reset (by the kernel with `clone3`'s `CLONE_CLEAR_SIGHAND`, by the child itself
//! with `clone`).
//!
//! **Signals to the harness's process group.** Until it leads a group of its own, the child is
//! in the harness's: a signal sent to that group then (a terminal's Ctrl-C, `kill(0, ...)`, a
//! hang-up) reaches it too, though it was never meant for a hook, which runs in a group of its
//! own precisely so that it does not get them. The child discards what is pending once it has
//! its own group, before it unblocks: a hook started while the harness's group is signalled
//! runs as the others do, instead of dying of a signal that was not its own, and the
//! supervisor (started the same way) is never lost to one.
//!
//! **The descriptors.** With `clone3`, the child starts on the harness's descriptor table
//! (`CLONE_FILES`) and its first act is to take a table of its own holding only the
//! descriptors numbered below its stdin, stdout and stderr (`close_range` with
//! `CLOSE_RANGE_UNSHARE`). A copy at `clone` takes a reference to every descriptor the harness
//! holds, which the child then drops again one by one: a harness holding 300 more descriptors
//! paid about a quarter more per one-hook event for it. So that "below its stdio" is few, each
//! spawning thread keeps three descriptors made at its first spawn (they hold `/dev/null`
//! between spawns): a hook's pipes numbered 64 or above are moved into them for the time of the
//! call (`dup3`) when they are lower. They are low unless the harness already held many
//! descriptors at that first spawn; what they spare is the harness's later growth, its own
//! hooks' pipes, pidfds and cgroups first (about 180 descriptors with 32 hooks at once). Where the kernel refuses a table of its own (before
//! 5.9: `unshare(CLONE_FILES)` then, a whole copy; a seccomp filter refusing both), the child
//! ends at once having changed nothing, and every child from then on is started with the copy.
//! Until its table is its own, the child only reads the harness's.
//!
//! **The cgroup.** With `clone3` (x86-64), the kernel creates the child directly in the hook's
//! cgroup (`CLONE_INTO_CGROUP`): it never exists outside it. Elsewhere, or on a kernel without
//! `CLONE_INTO_CGROUP` (before 5.7), the child's first act is to write `0` (itself) into the
//! cgroup's `cgroup.procs`: still before anything of the hook has run, so nothing of the hook
//! can have forked outside, at the price of a cgroup migration (hundreds of microseconds: the
//! kernel's thread-group lock waits for an RCU grace period). Cgroups of a v1 hierarchy (a
//! hybrid host's limits) are always joined that way, and so is every cgroup once a child the
//! kernel placed was killed before it ran: the kernel SIGKILLs at birth a child placed in a
//! cgroup whose count of `cgroup.kill` writes differs from its parent's cgroup's (seen on Linux
//! 6.18; a harness whose own cgroup was once killed meets it at every spawn), which the child's
//! first act, a flag in the shared memory, tells apart. A failed placement is reported, and the
//! hook runs uncontained.
//!
//! The child's steps, in order:
//!
//! 1. join the cgroups given as `cgroup.procs` descriptors (of the harness's table);
//! 2. take a descriptor table of its own (with `clone3`; see above);
//! 3. lead a new process group (or a new session, for the supervisor);
//! 4. discard the signals pending (sent to the harness's group before step 3);
//! 5. reset every handled signal to its default (done by the kernel with `clone3`'s
//!    `CLONE_CLEAR_SIGHAND`), and [`DEFAULT_SIGNALS`] even when ignored;
//! 6. `dup2` its stdin, stdout and stderr into place;
//! 7. change to the working directory;
//! 8. close every descriptor above 2 (`close_range`, or one by one where the kernel lacks it);
//! 9. set the run's mark, its soft `RLIMIT_RTTIME` (see `tree`);
//! 10. unblock every signal, and `execve` the program.
//!
//! A failure in steps 3 to 9 is reported through the shared memory and ends the child with
//! status 127 before any code of the hook has run.

#![expect(
    unsafe_code,
    reason = "clone3(2) and clone(2) with a child function of ours, and the system calls that \
              child makes"
)]

use std::ffi::{c_char, c_int, c_void};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

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
    /// The kernel already reset the handlers (`CLONE_CLEAR_SIGHAND`).
    cleared: bool,
    /// The child shares the harness's descriptor table (`CLONE_FILES`) until its first act
    /// gives it one of its own holding only the descriptors below `unshare_below`.
    shared_files: bool,
    unshare_below: c_int,
    /// Set by the child when it could not get a table of its own: nothing else was done, and
    /// the parent starts it again without `CLONE_FILES`.
    files_refused: AtomicBool,
    defaults: libc::sigset_t,
    empty: libc::sigset_t,
    /// Set by the child when it fails before `execve`: the errno.
    error: AtomicI32,
    /// Set by the child for each `cgroup.procs` write that failed: the errno.
    join_errors: [AtomicI32; MAX_JOIN],
    /// Set by the child as its first act: a child that never ran was killed at birth.
    ran: AtomicBool,
    /// The run's mark as the soft `RLIMIT_RTTIME` the child sets (its hard limit kept), when
    /// there is one.
    mark: Option<libc::rlimit>,
}

/// `clone3`'s flags we use (`linux/sched.h`).
const CLONE_PIDFD: u64 = 0x1000;
const CLONE_CLEAR_SIGHAND: u64 = 0x1_0000_0000;
const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

/// `struct clone_args` of `clone3(2)`, version 2 (Linux 5.7).
#[repr(C, align(8))]
#[derive(Debug, Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
    set_tid: u64,
    set_tid_size: u64,
    cgroup: u64,
}

/// Whether `clone3` with the flags we use works here; cleared at the first refusal.
static CLONE3: AtomicBool = AtomicBool::new(cfg!(target_arch = "x86_64"));

/// Whether the kernel places the child in its cgroup (`CLONE_INTO_CGROUP`); cleared when a child
/// so placed was killed before it ran (see the module documentation), and every child then joins
/// its cgroup itself, as with `clone`.
static INTO_CGROUP: AtomicBool = AtomicBool::new(true);

/// Whether the `clone3` child starts on the harness's descriptor table (`CLONE_FILES`) and
/// takes a copy of only the few it keeps; cleared when a child could not get one of its own.
static SHARE_FILES: AtomicBool = AtomicBool::new(true);

/// `HOOK_PROTOCOL_SHARE_FILES=refused`: every child acts as if refused (tests of the retry).
static SHARE_FILES_REFUSED_FOR_TESTS: AtomicBool = AtomicBool::new(false);

/// Whether children start on the harness's descriptor table; `HOOK_PROTOCOL_SHARE_FILES=0`
/// turns it off (tests of the copy at `clone`), read once per process.
fn share_files_allowed() -> bool {
    static CHECKED: std::sync::Once = std::sync::Once::new();
    CHECKED.call_once(|| match std::env::var_os("HOOK_PROTOCOL_SHARE_FILES") {
        Some(v) if v == "0" => SHARE_FILES.store(false, Ordering::Relaxed),
        Some(v) if v == "refused" => SHARE_FILES_REFUSED_FOR_TESTS.store(true, Ordering::Relaxed),
        _ => {}
    });
    SHARE_FILES.load(Ordering::Relaxed)
}

/// Turns `clone3` off when the environment asks (`HOOK_PROTOCOL_CLONE3=0`: tests of the
/// `clone` path, which other architectures and older kernels take), once per process.
fn clone3_allowed() -> bool {
    static CHECKED: std::sync::Once = std::sync::Once::new();
    CHECKED.call_once(|| {
        if std::env::var_os("HOOK_PROTOCOL_CLONE3").is_some_and(|v| v == "0") {
            CLONE3.store(false, Ordering::Relaxed);
        }
    });
    CLONE3.load(Ordering::Relaxed)
}

/// Starts the process `req` describes and returns its pid, its pidfd when the kernel gave one,
/// and which cgroup placements failed.
///
/// # Errors
///
/// The error the child met before `execve` (`ENOENT` for a missing program or working
/// directory, `EACCES`, `ENOEXEC`, ...), or the failure of `clone` itself.
pub(in super::super) fn spawn(req: &SpawnRequest<'_>) -> io::Result<Spawned> {
    if req.join.len() + 1 > MAX_JOIN {
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
    let below_stdio = stdio.iter().copied().max().unwrap_or(2) + 1;
    let argv = req.argv.pointers();
    let envp = req.envp.pointers();
    let mut defaults = sigset_empty()?;
    for signal in DEFAULT_SIGNALS {
        // SAFETY: `defaults` was initialised by sigemptyset; `signal` is a valid signal number.
        if unsafe { libc::sigaddset(&raw mut defaults, signal) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    let mut ctx = Ctx {
        path: req.path.as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        cwd: req.cwd.as_ptr(),
        stdio,
        join: [-1; MAX_JOIN],
        joins: 0,
        session: req.session,
        cleared: false,
        shared_files: false,
        unshare_below: below_stdio,
        files_refused: AtomicBool::new(false),
        defaults,
        empty: sigset_empty()?,
        error: AtomicI32::new(0),
        join_errors: [const { AtomicI32::new(0) }; MAX_JOIN],
        ran: AtomicBool::new(false),
        mark: (req.mark != 0).then(|| libc::rlimit {
            rlim_cur: req.mark,
            rlim_max: super::rttime_hard_limit().unwrap_or(libc::RLIM_INFINITY),
        }),
    };
    let mut join_errors = [0; MAX_JOIN];

    thread_local! {
        /// The child's stack, one per spawning thread: the thread is suspended for as long as
        /// its child uses it.
        static STACK: std::cell::RefCell<Vec<u128>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let started = STACK.with_borrow_mut(|stack| -> io::Result<(i32, Option<OwnedFd>)> {
        if stack.is_empty() {
            stack.resize(STACK_UNITS, 0);
        }
        // The child starts with every signal blocked (see the module documentation).
        let _blocked = BlockAll::new()?;
        if clone3_allowed() {
            let mut cgroup = req.cgroup.filter(|_| INTO_CGROUP.load(Ordering::Relaxed));
            // The v2 cgroup, joined by the child itself when the kernel does not place it.
            let mut procs = match (req.cgroup, cgroup) {
                (Some(dir), None) => Some(open_procs(dir)?),
                _ => None,
            };
            loop {
                set_joins(&mut ctx, procs.as_ref().map(AsRawFd::as_raw_fd), req.join);
                ctx.ran.store(false, Ordering::Relaxed);
                ctx.cleared = true;
                ctx.shared_files = share_files_allowed();
                let low = if ctx.shared_files { LowStdio::hold(stdio) } else { None };
                if let Some(low) = &low {
                    ctx.stdio = low.fds;
                    ctx.unshare_below = low.below;
                }
                let result = clone3(stack, &ctx, cgroup);
                drop(low);
                ctx.stdio = stdio;
                ctx.unshare_below = below_stdio;
                match result {
                    Ok((pid, _)) if cgroup.is_some() && !ctx.ran.load(Ordering::Acquire) => {
                        // Killed before it ran (see `INTO_CGROUP`): reaped, and started again
                        // joining its cgroup itself, as every child from now on.
                        let _ = super::wait_blocking(pid);
                        INTO_CGROUP.store(false, Ordering::Relaxed);
                        cgroup = None;
                        procs = req.cgroup.map(open_procs).transpose()?;
                    }
                    Ok((pid, _)) if ctx.files_refused.load(Ordering::Acquire) => {
                        // It ended at once, having done nothing: reaped, and started again
                        // with a copy of the table, as from now on.
                        let _ = super::wait_blocking(pid);
                        SHARE_FILES.store(false, Ordering::Relaxed);
                        ctx.files_refused.store(false, Ordering::Relaxed);
                        ctx.error.store(0, Ordering::Relaxed);
                    }
                    Ok(started) => {
                        // The v1 joins are the child's, after the v2 placement (slot 0), which
                        // is the child's too when it joined itself.
                        let from = usize::from(procs.is_none());
                        collect(&ctx, &mut join_errors[from..]);
                        return Ok(started);
                    }
                    // No clone3, or not with these flags (Linux before 5.7), or refused by a
                    // seccomp filter: `clone` from now on.
                    Err(e)
                        if matches!(
                            e.raw_os_error(),
                            Some(libc::ENOSYS | libc::EINVAL | libc::E2BIG | libc::EPERM)
                        ) =>
                    {
                        CLONE3.store(false, Ordering::Relaxed);
                        break;
                    }
                    // The cgroup refused the child: recorded, and started without it.
                    Err(e) if cgroup.is_some() => {
                        join_errors[0] = e.raw_os_error().unwrap_or(libc::EIO);
                        cgroup = None;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        // `clone`: the child resets the handlers itself (none can run before, every signal is
        // blocked); and it joins the v2 cgroup through its `cgroup.procs`, first.
        let procs = match (req.cgroup, join_errors[0]) {
            (Some(dir), 0) => Some(open_procs(dir)?),
            _ => None,
        };
        set_joins(&mut ctx, procs.as_ref().map(AsRawFd::as_raw_fd), req.join);
        ctx.cleared = false;
        ctx.shared_files = false;
        #[expect(
            clippy::disallowed_methods,
            reason = "this module is the one place that starts processes"
        )]
        // SAFETY: `child` only makes system calls and touches nothing but `ctx` and its own
        // stack; the top of `stack` is the end of a writable, 16-byte aligned buffer of 64 KiB
        // that nothing else uses while the child runs (this thread is suspended until the child
        // has called `execve` or exited, `CLONE_VFORK`); `ctx` and everything its pointers
        // reach (the program, the argument and environment lists, the working directory)
        // outlive the call; every signal is blocked, so no handler of ours runs on the child's
        // stack before the child has reset the dispositions.
        let pid = unsafe {
            libc::clone(
                child,
                stack.as_mut_ptr_range().end.cast::<c_void>(),
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                (&raw const ctx).cast_mut().cast::<c_void>(),
            )
        };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        // The child's slot 0 is the v2 cgroup when it joined it, else the first v1 one.
        let offset = usize::from(procs.is_none());
        for (i, e) in ctx.join_errors.iter().take(ctx.joins).enumerate() {
            if let Some(slot) = join_errors.get_mut(i + offset) {
                *slot = e.load(Ordering::Acquire);
            }
        }
        Ok((pid, None))
    });
    drop(copies);
    let (pid, pidfd) = started?;
    let error = ctx.error.load(Ordering::Acquire);
    if error != 0 {
        // The child exited with 127 before `execve`: reap it now, nobody else will.
        let _ = super::wait_blocking(pid);
        return Err(io::Error::from_raw_os_error(error));
    }
    Ok(Spawned { pid, pidfd, join_errors })
}

/// Points the child at the `cgroup.procs` descriptors to write itself into: `v2` (when the
/// kernel does not place it) then the v1 ones.
fn set_joins(ctx: &mut Ctx, v2: Option<c_int>, v1: &[std::os::fd::BorrowedFd<'_>]) {
    ctx.join = [-1; MAX_JOIN];
    ctx.joins = 0;
    let fds = v2.into_iter().chain(v1.iter().map(AsRawFd::as_raw_fd));
    for (slot, fd) in ctx.join.iter_mut().zip(fds) {
        *slot = fd;
        ctx.joins += 1;
    }
    for e in &ctx.join_errors {
        e.store(0, Ordering::Relaxed);
    }
}

/// Copies the child's join results into `out`, in the order of `ctx.join`.
fn collect(ctx: &Ctx, out: &mut [i32]) {
    for (slot, e) in out.iter_mut().zip(&ctx.join_errors).take(ctx.joins) {
        *slot = e.load(Ordering::Acquire);
    }
}

/// Opens `cgroup.procs` in a cgroup directory, for writing, close-on-exec.
fn open_procs(dir: std::os::fd::BorrowedFd<'_>) -> io::Result<OwnedFd> {
    // SAFETY: a valid directory descriptor and a static C string; the result is checked.
    let fd = unsafe {
        libc::openat(dir.as_raw_fd(), c"cgroup.procs".as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC)
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `clone3` with `CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND | CLONE_PIDFD`, and
/// `CLONE_INTO_CGROUP` when a cgroup is given; the child runs [`child`] on `stack`. Returns the
/// pid and the pidfd.
#[cfg(target_arch = "x86_64")]
fn clone3(
    stack: &mut [u128],
    ctx: &Ctx,
    cgroup: Option<std::os::fd::BorrowedFd<'_>>,
) -> io::Result<(i32, Option<OwnedFd>)> {
    let mut pidfd: c_int = -1;
    let mut args = CloneArgs {
        flags: libc::CLONE_VM as u64 | libc::CLONE_VFORK as u64 | CLONE_CLEAR_SIGHAND | CLONE_PIDFD,
        pidfd: (&raw mut pidfd) as u64,
        exit_signal: libc::SIGCHLD as u64,
        stack: stack.as_mut_ptr() as u64,
        stack_size: std::mem::size_of_val(stack) as u64,
        ..CloneArgs::default()
    };
    if ctx.shared_files {
        args.flags |= libc::CLONE_FILES as u64;
    }
    if let Some(dir) = cgroup {
        args.flags |= CLONE_INTO_CGROUP;
        args.cgroup = u64::try_from(dir.as_raw_fd())
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    }
    let ret: i64;
    // SAFETY: the system call reads `args`, which is valid and outlives it, and writes the
    // pidfd into `pidfd`. The parent returns from `syscall` with the result in rax (rcx and r11
    // clobbered, as for every system call). The child returns from it on the new stack (the
    // top of `stack`, 16-byte aligned: `call` leaves it as the ABI wants), calls `child` with
    // `ctx` and never returns to this function: it ends in `execve` or `_exit`, and the exit
    // system call after the call is a last resort. `child` upholds the rules of a vfork child
    // (see `spawn`), and this thread is suspended until the child has called `execve` or
    // exited, so nothing else touches `stack` meanwhile.
    unsafe {
        std::arch::asm!(
            "syscall",
            "test rax, rax",
            "jnz 2f",
            "xor ebp, ebp",
            "mov rdi, r12",
            "call {child}",
            "mov edi, eax",
            "mov eax, {exit}",
            "syscall",
            "ud2",
            "2:",
            child = sym child,
            exit = const libc::SYS_exit,
            inlateout("rax") libc::SYS_clone3 => ret,
            in("rdi") &raw mut args,
            in("rsi") std::mem::size_of::<CloneArgs>(),
            in("r12") std::ptr::from_ref(ctx),
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    if ret < 0 {
        return Err(io::Error::from_raw_os_error(i32::try_from(-ret).unwrap_or(libc::EIO)));
    }
    let pid = i32::try_from(ret).map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
    // SAFETY: with CLONE_PIDFD the kernel stored a new descriptor, ours alone, in `pidfd`.
    let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
    Ok((pid, pidfd))
}

/// No `clone3` path outside x86-64: [`CLONE3`] is false there.
#[cfg(not(target_arch = "x86_64"))]
fn clone3(
    _stack: &mut [u128],
    _ctx: &Ctx,
    _cgroup: Option<std::os::fd::BorrowedFd<'_>>,
) -> io::Result<(i32, Option<OwnedFd>)> {
    Err(io::Error::from_raw_os_error(libc::ENOSYS))
}

/// The child: see the module documentation for its steps.
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the `Ctx` the parent passed, alive until this child has called
    // `execve` or exited (the parent is suspended meanwhile).
    let ctx = unsafe { &*arg.cast_const().cast::<Ctx>() };
    ctx.ran.store(true, Ordering::Release);
    for (fd, error) in ctx.join.iter().zip(&ctx.join_errors).take(ctx.joins) {
        // SAFETY: writing one byte from a static buffer to a descriptor of the parent's.
        if unsafe { libc::write(*fd, b"0".as_ptr().cast::<c_void>(), 1) } != 1 {
            error.store(errno(), Ordering::Release);
        }
    }
    // The joins above write through descriptors of the harness's table, which the child's own
    // may not hold: they come first.
    if ctx.shared_files && !own_descriptors(ctx) {
        ctx.files_refused.store(true, Ordering::Release);
        // SAFETY: `_exit` ends the process at once, running no handler of the parent's; the
        // table it leaves is the harness's, which it only ever read.
        unsafe { libc::_exit(127) }
    }
    // SAFETY: setsid and setpgid take integers only.
    let grouped = unsafe { if ctx.session { libc::setsid() } else { libc::setpgid(0, 0) } };
    if grouped < 0 {
        return fail(ctx);
    }
    discard_pending();
    reset_signals(ctx);
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
    close_above_stdio();
    if let Some(mark) = &ctx.mark {
        // The run's mark (see `tree`); a refusal only leaves the process unmarked.
        // SAFETY: `mark` is a valid rlimit the parent keeps alive.
        unsafe { libc::setrlimit(libc::RLIMIT_RTTIME, mark) };
    }
    // SAFETY: `empty` is an initialised signal set.
    unsafe { libc::sigprocmask(libc::SIG_SETMASK, &raw const ctx.empty, std::ptr::null_mut()) };
    // SAFETY: `path` is a valid C string; `argv` and `envp` are null-terminated arrays of
    // pointers to valid C strings, all kept alive by the parent.
    unsafe { libc::execve(ctx.path, ctx.argv, ctx.envp) };
    fail(ctx)
}

/// Gives the child, which shares the harness's descriptor table, one of its own holding only
/// the descriptors below `unshare_below` (its stdin, stdout and stderr among them), before it
/// changes anything in it: `close_range` with `CLOSE_RANGE_UNSHARE` copies no descriptor above
/// that (Linux 5.9), where a plain copy at `clone` takes a reference to every descriptor the
/// harness holds and `close_range` drops them all again, a cost that grows with each one.
/// Else `unshare(CLONE_FILES)`, a whole copy. False when neither works (a seccomp filter).
fn own_descriptors(ctx: &Ctx) -> bool {
    if SHARE_FILES_REFUSED_FOR_TESTS.load(Ordering::Relaxed) {
        return false;
    }
    // SAFETY: integers only.
    let own = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            ctx.unshare_below.unsigned_abs(),
            u32::MAX,
            libc::CLOSE_RANGE_UNSHARE,
        )
    };
    // SAFETY: integers only.
    own == 0 || unsafe { libc::unshare(libc::CLONE_FILES) } == 0
}

/// The lowest descriptor number from which a child's table of its own is worth its stdio
/// being moved below: the kernel copies at least a word of the bitmap (64 descriptors).
const LOW_ENOUGH: c_int = 64;

/// A child's stdin, stdout and stderr, held for the time of `clone3` in three descriptors the
/// spawning thread keeps at low numbers, when the pipes' own numbers are higher: the child's
/// table of its own then copies the descriptors below those three only. Between spawns the
/// three hold `/dev/null`.
struct LowStdio {
    fds: [c_int; 3],
    below: c_int,
}

thread_local! {
    /// This thread's three low descriptors, made at its first spawn.
    static LOW_FDS: std::cell::OnceCell<Option<[OwnedFd; 3]>> = const { std::cell::OnceCell::new() };
}

/// `/dev/null`, what the low descriptors hold between spawns.
fn dev_null() -> Option<c_int> {
    static NULL: std::sync::OnceLock<Option<OwnedFd>> = std::sync::OnceLock::new();
    NULL.get_or_init(|| std::fs::File::open("/dev/null").ok().map(OwnedFd::from))
        .as_ref()
        .map(AsRawFd::as_raw_fd)
}

impl LowStdio {
    /// Moves `stdio` into this thread's low descriptors when it is worth it (the highest of
    /// them at [`LOW_ENOUGH`] or above, and the low ones lower); `None` otherwise. The first
    /// call on a thread makes them.
    fn hold(stdio: [c_int; 3]) -> Option<Self> {
        let null = dev_null()?;
        let fds = LOW_FDS.with(|low| {
            let made = low.get_or_init(|| {
                let one = || {
                    // SAFETY: duplicates an open descriptor; the result is checked.
                    let fd = unsafe { libc::fcntl(null, libc::F_DUPFD_CLOEXEC, 3) };
                    // SAFETY: a fresh descriptor of ours alone.
                    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
                };
                Some([one()?, one()?, one()?])
            });
            made.as_ref().map(|fds| fds.each_ref().map(AsRawFd::as_raw_fd))
        })?;
        // Made at the thread's first spawn, when its table is likely small: low numbers.
        let high = stdio.iter().copied().max()?;
        let below = fds.iter().copied().max()? + 1;
        if high < LOW_ENOUGH || below > high {
            return None;
        }
        for (&from, &to) in stdio.iter().zip(&fds) {
            // SAFETY: both are open descriptors; `to` is this thread's, replaced atomically.
            if unsafe { libc::dup3(from, to, libc::O_CLOEXEC) } < 0 {
                Self::release(&fds, null);
                return None;
            }
        }
        Some(Self { fds, below })
    }

    /// Points the low descriptors back at `/dev/null`, letting go of the pipes.
    fn release(fds: &[c_int; 3], null: c_int) {
        for &fd in fds {
            // SAFETY: both are open descriptors; `fd` is this thread's.
            unsafe { libc::dup3(null, fd, libc::O_CLOEXEC) };
        }
    }
}

impl Drop for LowStdio {
    fn drop(&mut self) {
        if let Some(null) = dev_null() {
            Self::release(&self.fds, null);
        }
    }
}

/// Records errno for the parent and ends the child.
fn fail(ctx: &Ctx) -> c_int {
    ctx.error.store(errno().max(1), Ordering::Release);
    // SAFETY: `_exit` ends the process at once, running no handler of the parent's.
    unsafe { libc::_exit(127) }
}

/// Discards the signals pending in the child, all of them sent to the harness's process group
/// while the child was still in it: ignoring a pending signal discards it, and the disposition
/// it had is put back at once. One `sigpending` when nothing is pending, the usual case.
fn discard_pending() {
    let mut pending = MaybeUninit::<libc::sigset_t>::zeroed();
    // SAFETY: sigpending fills the set it is given.
    if unsafe { libc::sigpending(pending.as_mut_ptr()) } != 0 {
        return;
    }
    // SAFETY: filled by sigpending (and all-zero, an empty set, before).
    let pending = unsafe { pending.assume_init() };
    for signal in 1..NSIG {
        if signal == libc::SIGKILL || signal == libc::SIGSTOP {
            continue;
        }
        // SAFETY: `pending` is an initialised signal set; `signal` is in range.
        if unsafe { libc::sigismember(&raw const pending, signal) } != 1 {
            continue;
        }
        // SAFETY: an all-zero sigaction with SIG_IGN as its handler is a valid value: an empty
        // mask, no flags.
        let mut ignore: libc::sigaction = unsafe { std::mem::zeroed() };
        ignore.sa_sigaction = libc::SIG_IGN;
        let mut old = MaybeUninit::<libc::sigaction>::zeroed();
        // SAFETY: `ignore` is valid and `old` writable, both outlive the call.
        if unsafe { libc::sigaction(signal, &raw const ignore, old.as_mut_ptr()) } == 0 {
            // SAFETY: sigaction succeeded and filled `old`, which is put back as it was (a
            // handler among them is reset right after, in `reset_signals`).
            unsafe { libc::sigaction(signal, old.as_ptr(), std::ptr::null_mut()) };
        }
    }
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
        if !forced && ctx.cleared {
            continue;
        }
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

/// Closes every descriptor above 2: one `close_range` call, or, where the kernel is older than
/// 5.9, one `close` per descriptor up to the soft limit (at most 65536), read only then.
fn close_above_stdio() {
    // SAFETY: close_range takes integers only.
    let ret = unsafe { libc::syscall(libc::SYS_close_range, 3_u32, u32::MAX, 0_u32) };
    if ret == 0 {
        return;
    }
    for fd in 3..max_fd() {
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
/// `getrlimit` is a bare system call, safe in the child.
fn max_fd() -> c_int {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `limit` is a valid, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) } != 0 {
        return 65_536;
    }
    c_int::try_from(limit.rlim_cur.clamp(3, 65_536)).unwrap_or(65_536)
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
