//! A hook's whole tree, found and signalled only when it is being killed.
//!
//! The tree of a hook whose leader has pid `L` is:
//! - its process group `L` (every hook starts as the leader of a new group);
//! - every process whose parent chain leads to `L` (descendants that left the group with
//!   `setsid` or `setpgid` while their parent lives);
//! - every process of our user that carries the run's mark: descendants whose parent died were
//!   reparented to init or a subreaper, and only the inherited mark still ties them to the
//!   hook.
//!
//! The mark is a resource limit, which every process inherits through `fork` and `exec`, which
//! no variable, descriptor or argument of the hook shows, and which `env -i`, `setsid` and
//! redirections leave as it is: the soft `RLIMIT_RTTIME`, set by the child before `exec` to
//! a number unique to the run, above 2^62 microseconds (it limits only real-time scheduled
//! processes, which no hook is in practice, and none would reach it). A hook sees it as
//! `ulimit -R`; one that changes that limit leaves the mark behind.
//!
//! The group is signalled with one `kill(-L)`, which is safe only while `L` is not reaped (the
//! zombie keeps the number from being reused): callers reap the leader after the last sweep.
//! Everything else is found by scanning `/proc` and signalled through a pidfd after checking
//! that the pid still names the process the scan saw (same start time), so a pid reused in
//! between is never hit.

use super::sys;

/// The lowest mark: 2^62 microseconds, about 146,000 years of real-time CPU.
const MARK_BASE: u64 = 1 << 62;

/// The mark of run `id` of this process: [`MARK_BASE`], the harness's pid (pids fit in 22
/// bits) and the run's counter; 0 (no mark) where the hard limit is lower, which the child
/// could not raise.
pub(crate) fn mark(id: u64) -> u64 {
    let pid = u64::from(std::process::id()) & 0x3f_ffff;
    let mark = MARK_BASE | (pid << 32) | (id & 0xffff_ffff);
    if sys::rttime_hard_limit().is_some_and(|hard| hard < mark) { 0 } else { mark }
}

/// What one sweep reached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Swept {
    /// Whether the leader itself was alive (not yet a zombie).
    pub(super) leader_alive: bool,
    /// How many other live processes of the tree were signalled.
    pub(super) others: usize,
}

impl Swept {
    /// Whether anything of the tree was alive.
    pub(super) fn any(self) -> bool {
        self.leader_alive || self.others > 0
    }
}

/// Sends `signal` to the whole tree of the hook led by `leader` (not yet reaped) and, after
/// SIGTERM, SIGCONT so that stopped members get to act on it.
pub(super) fn sweep(leader: i32, mark: u64, signal: i32) -> Swept {
    // Scan first, so that the counts say who was alive; then the group in one call, which
    // reaches members forked after the scan (ESRCH only means nothing is left in it).
    let members = scan(leader, mark);
    let _ = sys::kill(-leader, signal);
    let mut swept = Swept::default();
    for m in &members {
        if signal_member(m, signal) {
            if m.pid == leader {
                swept.leader_alive = true;
            } else {
                swept.others += 1;
            }
        }
    }
    if signal == libc::SIGTERM {
        let _ = sys::kill(-leader, libc::SIGCONT);
        for m in &members {
            signal_member(m, libc::SIGCONT);
        }
    }
    swept
}

/// Whether any process of the tree is still alive (not a zombie).
pub(super) fn any_alive(leader: i32, mark: u64) -> bool {
    !scan(leader, mark).is_empty()
}

/// One live process of a hook's tree, as a `/proc` scan saw it.
#[derive(Debug, Clone, Copy)]
struct Member {
    pid: i32,
    /// Start time in clock ticks since boot: with the pid, the process's identity.
    start: u64,
}

/// Signals one member if the pid still names it; true when the signal was delivered.
fn signal_member(m: &Member, signal: i32) -> bool {
    match sys::pidfd_open(m.pid) {
        Ok(fd) => {
            // The pidfd pins whichever process holds the pid now; it is ours if it started when
            // the scanned one did.
            if stat(m.pid).is_some_and(|s| s.start == m.start) {
                sys::pidfd_send_signal(std::os::fd::AsFd::as_fd(&fd), signal).is_ok()
            } else {
                false
            }
        }
        Err(e) if e.raw_os_error() == Some(libc::ESRCH) => false,
        // No pidfds (old kernel, seccomp): a plain kill right after the identity check.
        Err(_) => {
            stat(m.pid).is_some_and(|s| s.start == m.start) && sys::kill(m.pid, signal).is_ok()
        }
    }
}

/// The fields of `/proc/PID/stat` we need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stat {
    state: u8,
    ppid: i32,
    pgrp: i32,
    start: u64,
}

impl Stat {
    fn alive(self) -> bool {
        !matches!(self.state, b'Z' | b'X' | b'x')
    }
}

#[cfg(target_os = "linux")]
fn stat(pid: i32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

#[cfg(not(target_os = "linux"))]
fn stat(_pid: i32) -> Option<Stat> {
    None
}

/// Parses `/proc/PID/stat`; the command name (field 2) may hold spaces and parentheses, so
/// fields are counted after its last `)`.
fn parse_stat(text: &str) -> Option<Stat> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = *fields.next()?.as_bytes().first()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    // Fields 6 to 21, then the start time (field 22).
    let start = fields.nth(16)?.parse().ok()?;
    Some(Stat { state, ppid, pgrp, start })
}

/// The live members of the tree of `leader`.
#[cfg(target_os = "linux")]
fn scan(leader: i32, mark: u64) -> Vec<Member> {
    use std::collections::HashSet;
    use std::os::unix::fs::MetadataExt;

    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let me = i32::try_from(std::process::id()).unwrap_or(-1);
    let uid = sys::euid();
    let procs: Vec<(i32, Stat)> = dir
        .filter_map(|entry| {
            let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            if pid == me {
                return None;
            }
            Some((pid, stat(pid)?))
        })
        .collect();
    let mut tree: HashSet<i32> = procs
        .iter()
        .filter(|(pid, s)| *pid == leader || s.pgrp == leader)
        .map(|(pid, _)| *pid)
        .collect();
    tree.insert(leader);
    // Descendants through the parent chain, to a fixed point (the list is in pid order, which
    // is not tree order once pids wrap).
    let mut grew = true;
    while grew {
        grew = false;
        for (pid, s) in &procs {
            if !tree.contains(pid) && tree.contains(&s.ppid) {
                tree.insert(*pid);
                grew = true;
            }
        }
    }
    let carries_mark = |pid: i32| -> bool {
        let path = format!("/proc/{pid}");
        if mark == 0 || std::fs::metadata(&path).map(|m| m.uid()).ok() != Some(uid) {
            return false;
        }
        std::fs::read_to_string(format!("{path}/limits"))
            .is_ok_and(|limits| rttime_soft_limit(&limits) == Some(mark))
    };
    procs
        .iter()
        .filter(|(pid, s)| s.alive() && (tree.contains(pid) || carries_mark(*pid)))
        .map(|(pid, s)| Member { pid: *pid, start: s.start })
        .collect()
}

/// Without `/proc`, the tree is the process group alone.
#[cfg(not(target_os = "linux"))]
fn scan(_leader: i32, _mark: u64) -> Vec<Member> {
    Vec::new()
}

/// The soft limit of `Max realtime timeout` in a `/proc/PID/limits` text, when it is a number.
#[cfg_attr(not(target_os = "linux"), expect(dead_code, reason = "read from /proc only"))]
fn rttime_soft_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max realtime timeout"))?;
    line["Max realtime timeout".len()..].split_ascii_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_odd_names() {
        let line = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 \
                    987654 1000 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0";
        let s = parse_stat(line).unwrap();
        assert_eq!(s, Stat { state: b'S', ppid: 1, pgrp: 4242, start: 987_654 });
        assert!(s.alive());
        assert!(parse_stat("12 (x) Z 1 12").is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn our_own_stat_is_readable() {
        let me = i32::try_from(std::process::id()).unwrap();
        let s = stat(me).unwrap();
        assert!(s.alive());
        assert!(s.start > 0);
    }
}
