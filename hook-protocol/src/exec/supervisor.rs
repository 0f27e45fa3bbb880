//! The supervisor: a small `/bin/sh` process that outlives the harness just long enough to kill
//! the hooks that were running when the harness died without killing them (SIGKILL, a crash),
//! and to remove the harness's cgroups once they are empty.
//!
//! It reads end-of-file on its stdin, a socket whose other end only the harness holds
//! (close-on-exec, and hooks get exactly stdin, stdout and stderr), exactly when the harness is
//! gone, however it died. It then writes `1` to the `cgroup.kill` of every cgroup in the
//! harness's directory (its first argument) except those the harness said hold what a hook
//! left running after a normal exit (`=cNAME`: such daemons are allowed to outlive the
//! harness, as in Claude Code), SIGKILLs the process groups of runs with the tree walk still
//! running (`+gPGID` when one starts, `-gPGID` when it is over), and removes the cgroups as
//! they empty, polling with a backoff up to a minute, for as long as daemons keep theirs alive;
//! then it exits. `dPATH` adds a per-harness directory (of a cgroup v1 hierarchy) to remove.
//! A run in a cgroup costs it no message.
//!
//! It starts in a session of its own (a terminal's signals to the harness's group never reach
//! it) and ignores the signals a terminal sends. A parent-death signal is no substitute: the
//! kernel sends it when the *thread* that started the child exits, which on a multi-thread
//! runtime is any worker retiring, and it would reach the hook's leader only, never its
//! descendants.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;

use super::cstrings::CStrings;
use super::sys;

/// The supervisor's program, run as `sh -c 'eval "$HOOKS_SUPERVISOR"' hooks-supervisor DIR...`
/// with the script in that variable (so that `ps` shows a short command line).
const SCRIPT: &str = r#"trap '' INT HUP QUIT TSTP TTIN TTOU PIPE
run=' '
left=' '
while IFS= read -r m; do
  id=${m#?}
  case $m in
    =*) left="$left${id#c} " ;;
    +*) run="$run$id " ;;
    -*) case $run in *" $id "*) run="${run%%" $id "*} ${run#*" $id "}" ;; esac ;;
    d*) set -- "$@" "$id" ;;
  esac
done
if [ $# -gt 0 ]; then
  for cg in "$1"/*/; do
    name=${cg%/}
    name=${name##*/}
    case $left in *" $name "*) ;; *) echo 1 > "$cg/cgroup.kill" ;; esac
  done 2>/dev/null
fi
for id in $run; do kill -KILL "-${id#g}"; done 2>/dev/null
pause=1
while [ $# -gt 0 ]; do
  for dir in "$@"; do
    for cg in "$dir"/*/; do rmdir "$cg"; done
    rmdir "$dir"
  done 2>/dev/null
  for dir in "$@"; do shift; if [ -d "$dir" ]; then set -- "$@" "$dir"; fi; done
  [ $# -gt 0 ] || exit 0
  sleep $pause
  if [ $pause -lt 60 ]; then pause=$((pause * 2)); fi
done
"#;

/// The harness's side of the supervisor.
#[derive(Debug)]
pub(super) struct Supervisor {
    pid: i32,
    socket: OwnedFd,
}

impl Supervisor {
    /// Starts the supervisor; `dirs` are the per-harness directories it removes at the end.
    pub(super) fn start(dirs: &[PathBuf]) -> io::Result<Self> {
        let (ours, theirs) = UnixStream::pair()?;
        ours.set_nonblocking(true)?;
        let mut argv = CStrings::with_capacity(4 + dirs.len(), SCRIPT.len() + 64);
        let invalid = |_| io::Error::from(io::ErrorKind::InvalidInput);
        argv.push(b"/bin/sh").map_err(invalid)?;
        argv.push(b"-c").map_err(invalid)?;
        argv.push(br#"eval "$HOOKS_SUPERVISOR""#).map_err(invalid)?;
        argv.push(b"hooks-supervisor").map_err(invalid)?;
        for dir in dirs {
            argv.push(dir.as_os_str().as_bytes()).map_err(invalid)?;
        }
        let mut envp = CStrings::with_capacity(2, SCRIPT.len() + 64);
        envp.push(b"PATH=/usr/bin:/bin").map_err(invalid)?;
        envp.push_var(b"HOOKS_SUPERVISOR", SCRIPT.as_bytes()).map_err(invalid)?;
        let null = File::options().read(true).write(true).open("/dev/null")?;
        let theirs = OwnedFd::from(theirs);
        let request = sys::SpawnRequest {
            path: c"/bin/sh",
            argv: &argv,
            envp: &envp,
            cwd: c"/",
            stdio: [theirs.as_fd(), null.as_fd(), null.as_fd()],
            cgroup: None,
            join: &[],
            session: true,
        };
        let spawned = sys::spawn(&request)?;
        Ok(Self { pid: spawned.pid, socket: OwnedFd::from(ours) })
    }

    /// The supervisor's pid.
    pub(super) fn pid(&self) -> u32 {
        self.pid.unsigned_abs()
    }

    /// Sends one message (a line). False when the supervisor is gone: it is then killed, in
    /// case it is not quite gone yet (its socket closes before it has exited), and reaped, so
    /// that no zombie of it stays for the harness's life. A message that does not fit a full
    /// socket buffer is dropped.
    pub(super) fn send(&mut self, message: &str) -> bool {
        let mut line = Vec::with_capacity(message.len() + 1);
        line.extend_from_slice(message.as_bytes());
        line.push(b'\n');
        match sys::send_nosignal(self.socket.as_fd(), &line) {
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => true,
            Err(_) => {
                // Still our unreaped child, so the pid is its own.
                let _ = sys::kill(self.pid, libc::SIGKILL);
                let _ = sys::wait_blocking(self.pid);
                false
            }
        }
    }
}

/// A message path, for `dPATH`.
pub(super) fn dir_message(dir: &std::path::Path) -> Option<String> {
    let text = dir.to_str()?;
    (!text.contains('\n')).then(|| format!("d{text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_parses() {
        #[expect(clippy::disallowed_methods, reason = "checks the supervisor's script with sh -n")]
        let status =
            std::process::Command::new("/bin/sh").args(["-n", "-c", SCRIPT]).status().unwrap();
        assert!(status.success());
        assert!(!SCRIPT.contains('\0'));
        assert_eq!(dir_message(std::path::Path::new("/a b")).as_deref(), Some("d/a b"));
        assert_eq!(dir_message(std::path::Path::new("/a\nb")), None);
    }
}
