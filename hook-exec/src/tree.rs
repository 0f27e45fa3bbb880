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

use std::collections::HashSet;

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
    /// The process table could not be listed: only the process group was signalled.
    pub(super) table_unread: bool,
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
    let scanned = scan(leader, mark);
    let _ = sys::kill(-leader, signal);
    let mut swept = Swept { table_unread: scanned.is_none(), ..Swept::default() };
    let members = scanned.unwrap_or_default();
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

/// Whether any process of the tree is still alive (not a zombie); with no process table, the
/// leader alone (not yet reaped, so not reused) tells.
pub(super) fn any_alive(leader: i32, mark: u64) -> bool {
    match scan(leader, mark) {
        Some(members) => !members.is_empty(),
        None => stat(leader).is_some_and(Proc::alive),
    }
}

/// One live process of a hook's tree, as a scan of the process table saw it.
#[derive(Debug, Clone, Copy)]
struct Member {
    pid: i32,
    /// Its start time (clock ticks since boot on Linux, microseconds since the epoch on
    /// macOS): with the pid, the process's identity.
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

/// What the walk reads of one process of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Proc {
    pid: i32,
    ppid: i32,
    pgrp: i32,
    start: u64,
    /// Not a zombie.
    live: bool,
}

impl Proc {
    fn alive(self) -> bool {
        self.live
    }
}

/// The live members of the tree of `leader` in a process table: its group, every process whose
/// parent chain leads to it (to a fixed point: the table is in pid order, which is not tree
/// order once pids wrap), and every process `marked` says carries the run's mark.
fn members(leader: i32, table: &[Proc], marked: impl Fn(i32) -> bool) -> Vec<Member> {
    let mut tree: HashSet<i32> =
        table.iter().filter(|p| p.pid == leader || p.pgrp == leader).map(|p| p.pid).collect();
    tree.insert(leader);
    let mut grew = true;
    while grew {
        grew = false;
        for p in table {
            if !tree.contains(&p.pid) && tree.contains(&p.ppid) {
                tree.insert(p.pid);
                grew = true;
            }
        }
    }
    table
        .iter()
        .filter(|p| p.alive() && (tree.contains(&p.pid) || marked(p.pid)))
        .map(|p| Member { pid: p.pid, start: p.start })
        .collect()
}

#[cfg(target_os = "linux")]
fn stat(pid: i32) -> Option<Proc> {
    parse_stat(pid, &std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Parses `/proc/PID/stat`; the command name (field 2) may hold spaces and parentheses, so
/// fields are counted after its last `)`.
#[cfg(target_os = "linux")]
fn parse_stat(pid: i32, text: &str) -> Option<Proc> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = *fields.next()?.as_bytes().first()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    // Fields 6 to 21, then the start time (field 22).
    let start = fields.nth(16)?.parse().ok()?;
    Some(Proc { pid, ppid, pgrp, start, live: !matches!(state, b'Z' | b'X' | b'x') })
}

/// The live members of the tree of `leader`, from `/proc`; `None` when `/proc` cannot be
/// listed. A process gone mid-scan is left out.
#[cfg(target_os = "linux")]
fn scan(leader: i32, mark: u64) -> Option<Vec<Member>> {
    use std::os::unix::fs::MetadataExt;

    let dir = std::fs::read_dir("/proc").ok()?;
    let me = i32::try_from(std::process::id()).unwrap_or(-1);
    let uid = sys::euid();
    let table: Vec<Proc> = dir
        .filter_map(|entry| {
            let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            if pid == me {
                return None;
            }
            stat(pid)
        })
        .collect();
    let carries_mark = |pid: i32| -> bool {
        let path = format!("/proc/{pid}");
        if mark == 0 || std::fs::metadata(&path).map(|m| m.uid()).ok() != Some(uid) {
            return false;
        }
        std::fs::read_to_string(format!("{path}/limits"))
            .is_ok_and(|limits| rttime_soft_limit(&limits) == Some(mark))
    };
    Some(members(leader, &table, carries_mark))
}

/// The soft limit of `Max realtime timeout` in a `/proc/PID/limits` text, when it is a number.
#[cfg(target_os = "linux")]
fn rttime_soft_limit(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max realtime timeout"))?;
    line["Max realtime timeout".len()..].split_ascii_whitespace().next()?.parse().ok()
}

/// `proc_bsdinfo`'s `pbi_status` of a zombie (XNU's `SZOMB`).
#[cfg(target_vendor = "apple")]
const ZOMBIE: u32 = 5;

/// One process as `proc_pidinfo` gives it (macOS): its parent, group and start time (in
/// microseconds since the epoch).
#[cfg(target_vendor = "apple")]
fn stat(pid: i32) -> Option<Proc> {
    let info = sys::bsd_info(pid)?;
    Some(Proc {
        pid,
        ppid: i32::try_from(info.pbi_ppid).ok()?,
        pgrp: i32::try_from(info.pbi_pgid).ok()?,
        start: info.pbi_start_tvsec.saturating_mul(1_000_000).saturating_add(info.pbi_start_tvusec),
        live: info.pbi_status != ZOMBIE,
    })
}

/// The live members of the tree of `leader`, from `proc_listallpids` and `proc_pidinfo`
/// (macOS): its group and its descendants by parent links; no mark (macOS has no
/// `RLIMIT_RTTIME`). `None` when the list of processes cannot be read.
#[cfg(target_vendor = "apple")]
fn scan(leader: i32, _mark: u64) -> Option<Vec<Member>> {
    let me = i32::try_from(std::process::id()).unwrap_or(-1);
    let table: Vec<Proc> =
        sys::all_pids()?.into_iter().filter(|pid| *pid != me).filter_map(stat).collect();
    Some(members(leader, &table, |_| false))
}

/// Elsewhere, no process table: the tree is the process group alone.
#[cfg(not(any(target_os = "linux", target_vendor = "apple")))]
fn stat(_pid: i32) -> Option<Proc> {
    None
}

/// Elsewhere, no process table: the tree is the process group alone.
#[cfg(not(any(target_os = "linux", target_vendor = "apple")))]
fn scan(_leader: i32, _mark: u64) -> Option<Vec<Member>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process of a recorded table.
    fn p(pid: i32, ppid: i32, pgrp: i32, live: bool) -> Proc {
        Proc { pid, ppid, pgrp, start: 1000 + u64::try_from(pid).unwrap_or(0), live }
    }

    fn pids(members: &[Member]) -> Vec<i32> {
        let mut pids: Vec<i32> = members.iter().map(|m| m.pid).collect();
        pids.sort_unstable();
        pids
    }

    #[test]
    fn the_tree_is_the_group_the_descendants_and_the_marked_alone() {
        // A hook (100) with a child in its group (101), a child of that which left the group
        // with `setsid` (102) and its own child (103); a zombie child (105); a process
        // reparented to init that carries the mark (104); and a stranger (200).
        let table = [
            p(1, 0, 1, true),
            p(100, 50, 100, true),
            p(101, 100, 100, true),
            p(102, 101, 102, true),
            p(103, 102, 102, true),
            p(104, 1, 104, true),
            p(105, 100, 100, false),
            p(200, 1, 200, true),
        ];
        assert_eq!(pids(&members(100, &table, |pid| pid == 104)), [100, 101, 102, 103, 104]);
        assert_eq!(pids(&members(100, &table, |_| false)), [100, 101, 102, 103]);
        // A member of the group whose parent is gone is still the group's.
        let table = [p(100, 50, 100, false), p(107, 1, 100, true)];
        assert_eq!(pids(&members(100, &table, |_| false)), [107]);
    }

    #[test]
    fn descendants_are_found_whatever_the_order_of_their_pids() {
        // Pids wrapped: the grandchild's pid is lower than its parent's, and its parent's than
        // the hook's.
        let table = [p(7, 90, 7, true), p(90, 100, 90, true), p(100, 1, 100, true)];
        assert_eq!(pids(&members(100, &table, |_| false)), [7, 90, 100]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn parses_stat_with_odd_names() {
        let line = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 \
                    987654 1000 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0";
        let s = parse_stat(4242, line).unwrap();
        assert_eq!(s, Proc { pid: 4242, ppid: 1, pgrp: 4242, start: 987_654, live: true });
        assert!(!parse_stat(12, "12 (x) Z 1 12 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 5").unwrap().live);
        assert!(parse_stat(12, "12 (x) Z 1 12").is_none());
    }

    #[cfg(any(target_os = "linux", target_vendor = "apple"))]
    #[test]
    fn a_pid_is_signalled_only_while_it_names_the_process_the_scan_saw() {
        let me = i32::try_from(std::process::id()).unwrap();
        let now = stat(me).unwrap();
        assert!(now.alive() && now.start > 0);
        // Signal 0 checks without signalling: our own process, as scanned, is reached; the
        // same pid with another start time (a reused pid) is not.
        assert!(signal_member(&Member { pid: me, start: now.start }, 0));
        assert!(!signal_member(&Member { pid: me, start: now.start + 1 }, 0));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_marking_limit_is_read_from_a_limits_text() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max realtime timeout      4611686018427387905  unlimited            us        \n";
        assert_eq!(rttime_soft_limit(limits), Some(4_611_686_018_427_387_905));
        assert_eq!(rttime_soft_limit("Max realtime timeout      unlimited  unlimited  us"), None);
    }
}
