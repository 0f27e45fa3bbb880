//! Starting a process with `posix_spawn(3)` (macOS; Linux uses the `clone` module), a
//! `vfork`-style spawn rather than a `fork` of the harness.
//!
//! We call it ourselves rather than through `std::process::Command` because std captures and
//! rebuilds the whole environment on every spawn once a single variable is set (as an
//! invocation's `env` changes do), which cost more than the rest of a run's bookkeeping together. Here the
//! caller packs the environment once, in one buffer (`CStrings`). macOS has no
//! `RLIMIT_RTTIME`: its runs carry no mark (`SpawnRequest::mark` is 0 there).

#![expect(
    unsafe_code,
    reason = "posix_spawn and its attribute and file-action objects, which std does not offer \
              on their own"
)]

use std::ffi::{c_char, c_int};
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, OwnedFd};

use super::{DEFAULT_SIGNALS, MAX_JOIN, SpawnRequest, Spawned};

/// Starts the process `req` describes, leading a new process group, with an empty signal mask,
/// [`DEFAULT_SIGNALS`] at their default disposition and no descriptor but stdin, stdout and
/// stderr (`POSIX_SPAWN_CLOEXEC_DEFAULT`), and returns its pid.
///
/// # Errors
///
/// The error `posix_spawn` reports: from the attribute setup, or from the child before `exec`
/// (`ENOENT` for a missing program or working directory, `EACCES`, `ENOEXEC`, ...).
/// `Unsupported` for a request to join cgroups or start a session.
pub(in super::super) fn spawn(req: &SpawnRequest<'_>) -> io::Result<Spawned> {
    if req.cgroup.is_some() || !req.join.is_empty() || req.session {
        return Err(io::Error::from(io::ErrorKind::Unsupported));
    }
    // The child applies the dup2 actions in order, so a descriptor below 3 could be overwritten
    // by an earlier one: such descriptors are first copied above 2 (close-on-exec, as the
    // originals are).
    let mut copies: [Option<OwnedFd>; 3] = [None, None, None];
    let mut fds: [c_int; 3] = [0; 3];
    for ((fd, copy), raw) in req.stdio.iter().zip(&mut copies).zip(&mut fds) {
        *raw = if fd.as_raw_fd() < 3 {
            copy.insert(fd.try_clone_to_owned()?).as_raw_fd()
        } else {
            fd.as_raw_fd()
        };
    }
    let argv = req.argv.pointers();
    let envp = req.envp.pointers();

    let mut actions_slot = MaybeUninit::uninit();
    let mut actions = FileActions::init(&mut actions_slot)?;
    for (target, fd) in (0..).zip(fds) {
        // SAFETY: `actions` was initialised; the call copies the two integers.
        check(unsafe { libc::posix_spawn_file_actions_adddup2(actions.ptr(), fd, target) })?;
    }
    // SAFETY: `actions` was initialised; `cwd` is a valid C string that the call copies.
    check(unsafe { libc::posix_spawn_file_actions_addchdir_np(actions.ptr(), req.cwd.as_ptr()) })?;

    let mut attr_slot = MaybeUninit::uninit();
    let mut attr = Attr::init(&mut attr_slot)?;
    let mut mask = SigSet::empty()?;
    // SAFETY: `attr` was initialised; the set is read and copied during the call.
    check(unsafe { libc::posix_spawnattr_setsigmask(attr.ptr(), mask.ptr()) })?;
    for signal in DEFAULT_SIGNALS {
        // SAFETY: `mask` was initialised by sigemptyset; `signal` is a valid signal number.
        if unsafe { libc::sigaddset(mask.ptr(), signal) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // SAFETY: as above.
    check(unsafe { libc::posix_spawnattr_setsigdefault(attr.ptr(), mask.ptr()) })?;
    // SAFETY: `attr` was initialised; 0 means "a new group led by the child".
    check(unsafe { libc::posix_spawnattr_setpgroup(attr.ptr(), 0) })?;
    let flags = libc::POSIX_SPAWN_SETPGROUP
        | libc::POSIX_SPAWN_SETSIGMASK
        | libc::POSIX_SPAWN_SETSIGDEF
        | libc::POSIX_SPAWN_CLOEXEC_DEFAULT;
    let flags =
        libc::c_short::try_from(flags).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: `attr` was initialised; the flags are integers.
    check(unsafe { libc::posix_spawnattr_setflags(attr.ptr(), flags) })?;

    let mut pid: libc::pid_t = 0;
    #[expect(
        clippy::disallowed_methods,
        reason = "this module is the one place that starts processes"
    )]
    // SAFETY: `path` is a valid C string; `argv` and `envp` are arrays of pointers to valid C
    // strings (the `CStrings` invariant) ended by a null pointer, and the lists they point into
    // outlive the call; `actions` and `attr` were initialised; `pid` is a writable pid_t. The
    // descriptors named in `actions` are open: they are borrowed (or copied) for the call.
    let ret = unsafe {
        libc::posix_spawn(
            &raw mut pid,
            req.path.as_ptr(),
            actions.as_ptr(),
            attr.as_ptr(),
            argv.as_ptr().cast::<*mut c_char>(),
            envp.as_ptr().cast::<*mut c_char>(),
        )
    };
    check(ret)?;
    drop(copies);
    Ok(Spawned { pid, pidfd: None, join_errors: [0; MAX_JOIN] })
}

/// The posix_spawn family reports errors as return values, not through `errno`.
fn check(ret: c_int) -> io::Result<()> {
    if ret == 0 { Ok(()) } else { Err(io::Error::from_raw_os_error(ret)) }
}

/// Initialised file actions, destroyed on drop. They stay in the caller's slot: the object is
/// never moved once initialised.
struct FileActions<'a>(&'a mut MaybeUninit<libc::posix_spawn_file_actions_t>);

impl<'a> FileActions<'a> {
    fn init(slot: &'a mut MaybeUninit<libc::posix_spawn_file_actions_t>) -> io::Result<Self> {
        // SAFETY: the slot is writable memory of the right type for the call to initialise.
        check(unsafe { libc::posix_spawn_file_actions_init(slot.as_mut_ptr()) })?;
        Ok(Self(slot))
    }

    fn ptr(&mut self) -> *mut libc::posix_spawn_file_actions_t {
        self.0.as_mut_ptr()
    }

    fn as_ptr(&self) -> *const libc::posix_spawn_file_actions_t {
        self.0.as_ptr()
    }
}

impl Drop for FileActions<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `init`, destroyed once, here.
        unsafe { libc::posix_spawn_file_actions_destroy(self.0.as_mut_ptr()) };
    }
}

/// Initialised spawn attributes, destroyed on drop; never moved once initialised.
struct Attr<'a>(&'a mut MaybeUninit<libc::posix_spawnattr_t>);

impl<'a> Attr<'a> {
    fn init(slot: &'a mut MaybeUninit<libc::posix_spawnattr_t>) -> io::Result<Self> {
        // SAFETY: the slot is writable memory of the right type for the call to initialise.
        check(unsafe { libc::posix_spawnattr_init(slot.as_mut_ptr()) })?;
        Ok(Self(slot))
    }

    fn ptr(&mut self) -> *mut libc::posix_spawnattr_t {
        self.0.as_mut_ptr()
    }

    fn as_ptr(&self) -> *const libc::posix_spawnattr_t {
        self.0.as_ptr()
    }
}

impl Drop for Attr<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `init`, destroyed once, here.
        unsafe { libc::posix_spawnattr_destroy(self.0.as_mut_ptr()) };
    }
}

/// A signal set, initialised empty.
struct SigSet(libc::sigset_t);

impl SigSet {
    fn empty() -> io::Result<Self> {
        let mut set = MaybeUninit::<libc::sigset_t>::uninit();
        // SAFETY: sigemptyset initialises the set it is given.
        if unsafe { libc::sigemptyset(set.as_mut_ptr()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: initialised just above.
        Ok(Self(unsafe { set.assume_init() }))
    }

    fn ptr(&mut self) -> *mut libc::sigset_t {
        &raw mut self.0
    }
}
