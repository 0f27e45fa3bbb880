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
//! running, and removes the cgroups as they empty (with the empty cgroups made in them, as a
//! harness run as a hook makes its own), polling with a backoff up to a minute, for as long as
//! daemons keep theirs alive; then it exits. `dPATH` adds a per-harness directory (of a
//! cgroup v1 hierarchy) to remove.
//!
//! No run costs it a wake-up. A run in a cgroup costs it nothing; a run with the tree walk
//! writes its process group into a table ([`GroupTable`]), an unnamed file that is the
//! supervisor's stdout and that it reads only at the end. A message per run instead (as
//! `+gPGID` when one starts and `-gPGID` when it is over, still understood, and used when the
//! table cannot be made or written) woke the supervisor twice per run: on two cores its turn
//! made a one-hook event with the tree walk 10% slower and cost the harness about 45% more CPU
//! (`ENGINE_BENCH_CONTAIN=off`, `cargo xtask bench engine`'s profile of one hook).
//!
//! It starts in a session of its own (a terminal's signals to the harness's group never reach
//! it, nor, as for every child, one sent while it was being started) and ignores the signals a
//! terminal sends. One that dies all the same (killed by someone, out of memory) is reaped and
//! started again ([`Keeper`]): when a message finds it gone, or at the next run a second or
//! more after the last check, and the new one is told again what the one before knew (the
//! directories, the cgroups to spare, the process groups running). A parent-death signal is
//! no substitute: the kernel sends it when the *thread* that started the child exits, which on
//! a multi-thread runtime is any worker retiring, and it would reach the hook's leader only,
//! never its descendants.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::cstrings::CStrings;
use super::group_table::GroupTable;
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
while read -r id; do
  case $id in ''|*[!0-9]*) ;; *) kill -KILL "-$id" ;; esac
done <&1 2>/dev/null
pause=1
while [ $# -gt 0 ]; do
  for dir in "$@"; do
    for cg in "$dir"/*/; do
      rmdir "$cg" || { grep -qx 'populated 0' "$cg/cgroup.events" &&
        find "$cg" -depth -type d -exec rmdir {} +; }
    done
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
    /// Starts the supervisor; `dirs` are the per-harness directories it removes at the end,
    /// `table` the running tree-walk groups it kills then (its stdout; `/dev/null` without).
    pub(super) fn start(dirs: &[PathBuf], table: Option<&File>) -> io::Result<Self> {
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
        let out = table.unwrap_or(&null);
        let request = sys::SpawnRequest {
            path: c"/bin/sh",
            argv: &argv,
            envp: &envp,
            cwd: c"/",
            stdio: [theirs.as_fd(), out.as_fd(), null.as_fd()],
            cgroup: None,
            join: &[],
            session: true,
            mark: 0,
        };
        let spawned = sys::spawn(&request)?;
        Ok(Self { pid: spawned.pid, socket: OwnedFd::from(ours) })
    }

    /// The supervisor's pid.
    pub(super) fn pid(&self) -> u32 {
        self.pid.unsigned_abs()
    }

    /// Sends one message (a line). False when the supervisor is gone ([`Supervisor::end`] then
    /// reaps it). A message that does not fit a full socket buffer is dropped.
    pub(super) fn send(&mut self, message: &str) -> bool {
        let mut line = Vec::with_capacity(message.len() + 1);
        line.extend_from_slice(message.as_bytes());
        line.push(b'\n');
        match sys::send_nosignal(self.socket.as_fd(), &line) {
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => true,
            Err(_) => false,
        }
    }

    /// Reaps a supervisor found gone, killing it first when it is still our unreaped child (it
    /// may be on its way only: its socket closes before it has exited): its zombie would
    /// otherwise stay for the harness's life. One reaped already (by a check, or by the
    /// harness's own `waitpid`) is not signalled, since its pid may be another process's now.
    fn end(self) {
        if matches!(sys::try_wait(self.pid), Ok(None)) {
            // Still our unreaped child, so the pid is its own.
            let _ = sys::kill(self.pid, libc::SIGKILL);
            let _ = sys::wait_blocking(self.pid);
        }
    }
}

/// How often a run checks that the supervisor still runs, at most.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// The most messages kept for a new supervisor (`dPATH` and `=cNAME`, one per directory and per
/// cgroup that a hook left running); past it, the oldest go.
const KEPT_MAX: usize = 10_000;

/// The supervisor as the containment keeps it: reaped and started again when found gone, and
/// then told again what the one before knew.
#[derive(Debug)]
pub(super) struct Keeper {
    current: Option<Supervisor>,
    /// The directories it was started with.
    dirs: Vec<PathBuf>,
    /// The messages that stay true for the harness's life (`dPATH`, `=cNAME`), in order.
    kept: std::collections::VecDeque<String>,
    /// The running tree-walk groups, which every supervisor started reads at the end; none
    /// when the file could not be made (the groups are then told as messages).
    table: Option<GroupTable>,
    /// When a run checks next that it still runs.
    next_check: Instant,
}

impl Keeper {
    /// Starts the supervisor for `dirs`.
    pub(super) fn start(dirs: Vec<PathBuf>) -> io::Result<Self> {
        let table = match GroupTable::new() {
            Ok(table) => Some(table),
            Err(e) => {
                tracing::debug!(
                    target: "hooks",
                    error = %e,
                    "no file for the supervisor's table of process groups: each run with the \
                     tree walk tells it by a message"
                );
                None
            }
        };
        let current = Supervisor::start(&dirs, table.as_ref().map(GroupTable::file))?;
        Ok(Self {
            current: Some(current),
            dirs,
            kept: std::collections::VecDeque::new(),
            table,
            next_check: Instant::now() + CHECK_EVERY,
        })
    }

    /// Records that the tree-walk run leading process group `pgid` started (`started`) or is
    /// over: in the table, or by a message (`+gPGID`, `-gPGID`) when it has none or cannot be
    /// written.
    pub(super) fn group(&mut self, started: bool, pgid: i32, running: impl FnOnce() -> Vec<i32>) {
        if let Some(table) = self.table.as_mut() {
            let listed = if started { table.add(pgid).is_ok() } else { table.remove(pgid) };
            if listed {
                return;
            }
        }
        self.tell(&group_message(started, pgid), running);
    }

    /// The pid of the supervisor running now, if one does.
    pub(super) fn pid(&self) -> Option<u32> {
        self.current.as_ref().map(Supervisor::pid)
    }

    /// Sends one message; a supervisor found gone is replaced (`running`: the process groups of
    /// the runs with the tree walk running now, told to the new one when they are not in the
    /// table) and the message sent to the new one.
    pub(super) fn tell(&mut self, message: &str, running: impl FnOnce() -> Vec<i32>) {
        if message.starts_with(['d', '=']) {
            if self.kept.len() == KEPT_MAX {
                self.kept.pop_front();
            }
            self.kept.push_back(message.to_owned());
        }
        let Some(current) = self.current.as_mut() else { return };
        if !current.send(message) {
            // The new one hears the kept messages (this one, if it is one of them) and the
            // running groups; a run is listed only once its `+g` is sent, so that one is sent
            // again.
            self.replace(running);
            if message.starts_with("+g")
                && let Some(current) = self.current.as_mut()
            {
                current.send(message);
            }
        }
    }

    /// At most once per [`CHECK_EVERY`]: whether the supervisor still runs; one that does not,
    /// or none (a replacement that could not be started), is replaced.
    pub(super) fn check(&mut self, now: Instant, running: impl FnOnce() -> Vec<i32>) {
        if now < self.next_check {
            return;
        }
        self.next_check = now + CHECK_EVERY;
        let gone = self.current.as_ref().is_none_or(|s| !matches!(sys::try_wait(s.pid), Ok(None)));
        if gone {
            // Reaped by the check (or by someone else): nothing is left to end.
            self.current = None;
            self.replace(running);
        }
    }

    /// Reaps the supervisor that is gone (killing it first, in case it is only on its way) and
    /// starts another, told the kept messages and the running groups.
    fn replace(&mut self, running: impl FnOnce() -> Vec<i32>) {
        if let Some(old) = self.current.take() {
            old.end();
        }
        match Supervisor::start(&self.dirs, self.table.as_ref().map(GroupTable::file)) {
            Ok(mut new) => {
                tracing::warn!(
                    target: "hooks",
                    pid = new.pid(),
                    "the supervisor was gone; another was started"
                );
                let mut told = self.kept.iter().all(|m| new.send(m));
                // The new one reads the same table; only the groups not in it are told.
                let listed = |g: &i32| self.table.as_ref().is_some_and(|t| t.lists(*g));
                for group in running().into_iter().filter(|g| !listed(g)) {
                    told &= new.send(&group_message(true, group));
                }
                if told {
                    self.current = Some(new);
                } else {
                    new.end();
                }
            }
            Err(e) => tracing::warn!(
                target: "hooks",
                error = %e,
                "the supervisor was gone and another could not be started: hooks running when \
                 the harness is killed outright live on"
            ),
        }
    }
}

/// The message that process group `pgid` started (`+gPGID`) or is over (`-gPGID`), for when
/// the table cannot hold it.
fn group_message(started: bool, pgid: i32) -> String {
    format!("{}g{pgid}", if started { '+' } else { '-' })
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

    /// SIGKILLs the supervisor `pid` (as an outsider might) and waits until it is dead, not
    /// yet reaped.
    fn kill_and_wait(pid: u32) {
        sys::kill(pid.cast_signed(), libc::SIGKILL).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !sys::exited_unreaped(pid.cast_signed()).unwrap() {
            assert!(Instant::now() < deadline, "the supervisor did not die");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Whether `child` ends by SIGKILL within 10 s.
    fn killed(child: &mut std::process::Child) -> bool {
        use std::os::unix::process::ExitStatusExt;
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Some(status) = child.try_wait().unwrap() {
                return status.signal() == Some(libc::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// The groups in the table are killed when the harness goes, by a supervisor started
    /// after the one that was running when they were listed (it reads the same table), and a
    /// group that is over is not; no run sent a message.
    #[test]
    fn the_supervisor_kills_the_groups_in_the_table_and_only_them() {
        use std::os::unix::process::CommandExt;
        let sleeper = || {
            #[expect(clippy::disallowed_methods, reason = "process groups for the supervisor")]
            std::process::Command::new("/bin/sleep").arg("30").process_group(0).spawn().unwrap()
        };
        let (mut running, mut over) = (sleeper(), sleeper());
        let group = |c: &std::process::Child| i32::try_from(c.id()).unwrap();
        let mut keeper = Keeper::start(Vec::new()).unwrap();
        assert!(keeper.table.is_some());
        keeper.group(true, group(&over), Vec::new);
        keeper.group(true, group(&running), Vec::new);
        keeper.group(false, group(&over), Vec::new);
        let first = keeper.pid().unwrap();
        kill_and_wait(first);
        // The next check finds it gone and starts another.
        let listed = group(&running);
        keeper.check(Instant::now() + CHECK_EVERY, || vec![listed]);
        let second = keeper.pid().unwrap();
        assert_ne!(second, first);
        drop(keeper);
        assert!(killed(&mut running), "the listed group lives on");
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(over.try_wait().unwrap(), None, "a group that was over was killed");
        over.kill().unwrap();
        over.wait().unwrap();
    }

    /// A supervisor killed outright is replaced at the next message, and the new one is told
    /// the running groups: when the harness goes (here: the keeper is dropped, closing the
    /// socket), it kills the group that started under the one before.
    #[test]
    fn a_replaced_supervisor_kills_the_groups_the_one_before_knew() {
        use std::os::unix::process::CommandExt;
        #[expect(clippy::disallowed_methods, reason = "a process group for the supervisor")]
        let mut sleeper =
            std::process::Command::new("/bin/sleep").arg("30").process_group(0).spawn().unwrap();
        let group = i32::try_from(sleeper.id()).unwrap();
        let mut keeper = Keeper::start(Vec::new()).unwrap();
        keeper.tell(&format!("+g{group}"), Vec::new);
        let first = keeper.pid().unwrap();
        kill_and_wait(first);
        // Its socket is closed now that it is dead: the next message finds it gone.
        keeper.tell("-g1", || vec![group]);
        let second = keeper.pid().unwrap();
        assert_ne!(second, first);
        // The first one is reaped: its pid is no child of ours any more.
        assert!(sys::exited_unreaped(first.cast_signed()).is_err());
        drop(keeper);
        assert!(killed(&mut sleeper), "the new supervisor did not kill the group");
    }
}
