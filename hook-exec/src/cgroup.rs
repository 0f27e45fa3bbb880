//! cgroup v2 containment: finding the hierarchy, the harness's directory of hook cgroups, one
//! cgroup per run, its limits, signalling, killing and removing it.
//!
//! Layout: under a parent (the harness's own cgroup by default), the harness makes one
//! directory, `hooks-<pid>-<start>` (its pid and start time, so that no later process with the
//! same pid, nor the supervisor of an earlier one, ever shares it), and in it one cgroup per
//! running hook, named by the counter of the run that made it. Only directories it made itself serve its runs: the
//! kernel SIGKILLs at birth a child placed by `CLONE_INTO_CGROUP` into a cgroup that was ever
//! killed through `cgroup.kill` (seen on Linux 6.18), so a directory left by another process
//! is never reused. A run that ends normally, leaves nothing running and has no limit hands its
//! empty cgroup to the next run (at most 64 wait so): making and removing a cgroup costs more
//! than the rest of a run's containment. Every other cgroup is removed as soon as it is empty,
//! with the empty cgroups a hook made in it (a harness run as a hook makes its own directory
//! there), and what is left at the end is removed by the supervisor once the harness is gone.
//! Nothing else is created, and the harness's own cgroup is left as it is, except that a
//! controller a limit needs is enabled in its `cgroup.subtree_control` when the kernel allows
//! it (when the harness's cgroup is the root, or holds no process: cgroup v2's "no internal
//! processes" rule).
//!
//! Limits go where their controller is: in the run's cgroup when the v2 hierarchy has the
//! controller, else, on a host that keeps it on a cgroup v1 hierarchy (a "hybrid" host), in a
//! cgroup of the same name under the harness's directory of that hierarchy, which the child
//! joins too.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use hook_protocol::ResourceLimit;

use super::ResourceLimits;
use super::sys::{self, MAX_JOIN};

/// A controller a limit needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Controller {
    Pids,
    Memory,
    Cpu,
}

impl Controller {
    const ALL: [Controller; 3] = [Controller::Pids, Controller::Memory, Controller::Cpu];

    fn name(self) -> &'static str {
        match self {
            Controller::Pids => "pids",
            Controller::Memory => "memory",
            Controller::Cpu => "cpu",
        }
    }

    fn of(limit: ResourceLimit) -> Self {
        match limit {
            ResourceLimit::Pids => Controller::Pids,
            ResourceLimit::Memory => Controller::Memory,
            ResourceLimit::CpuWeight => Controller::Cpu,
        }
    }

    fn index(self) -> usize {
        match self {
            Controller::Pids => 0,
            Controller::Memory => 1,
            Controller::Cpu => 2,
        }
    }
}

/// The cgroup file systems this process sees, and its place in each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mounts {
    /// The cgroup2 mount point and this process's cgroup in it (an absolute directory).
    pub(super) v2: Option<(PathBuf, PathBuf)>,
    /// cgroup v1 hierarchies: their controllers and this process's cgroup in each.
    pub(super) v1: Vec<(Vec<String>, PathBuf)>,
}

/// Reads `/proc/self/mountinfo` and `/proc/self/cgroup`.
pub(super) fn mounts() -> io::Result<Mounts> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo")?;
    let cgroup = fs::read_to_string("/proc/self/cgroup")?;
    Ok(parse_mounts(&mountinfo, &cgroup))
}

/// The pure part of [`mounts`].
fn parse_mounts(mountinfo: &str, cgroup: &str) -> Mounts {
    // (hierarchy controllers, path): "0::/a" for v2, "4:memory:/b" or "1:cpu,cpuacct:/c".
    let own: Vec<(&str, &str)> = cgroup
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let _id = parts.next()?;
            Some((parts.next()?, parts.next()?))
        })
        .collect();
    let mut out = Mounts { v2: None, v1: Vec::new() };
    for line in mountinfo.lines() {
        let Some((before, after)) = line.split_once(" - ") else { continue };
        let fields: Vec<&str> = before.split(' ').collect();
        let (Some(root), Some(point)) = (fields.get(3), fields.get(4)) else { continue };
        let mut after = after.split(' ');
        let fstype = after.next().unwrap_or_default();
        let options = after.nth(1).unwrap_or_default();
        let (root, point) = (unescape(root), PathBuf::from(unescape(point)));
        let inside = |path: &str| -> Option<PathBuf> {
            let rest = path.strip_prefix(root.as_str())?;
            if !(rest.is_empty() || rest.starts_with('/') || root == "/") {
                return None;
            }
            Some(point.join(rest.trim_start_matches('/')))
        };
        if fstype == "cgroup2" && out.v2.is_none() {
            if let Some(dir) = own.iter().find(|(c, _)| c.is_empty()).and_then(|(_, p)| inside(p)) {
                out.v2 = Some((point.clone(), dir));
            }
        } else if fstype == "cgroup" {
            let controllers: Vec<String> = options
                .split(',')
                .filter(|o| Controller::ALL.iter().any(|c| c.name() == *o) || *o == "cpuacct")
                .map(str::to_owned)
                .collect();
            if controllers.is_empty() {
                continue;
            }
            let path = own.iter().find(|(list, _)| {
                let list: Vec<&str> = list.split(',').collect();
                controllers.iter().all(|c| list.contains(&c.as_str()))
            });
            if let Some(dir) = path.and_then(|(_, p)| inside(p)) {
                out.v1.push((controllers, dir));
            }
        }
    }
    out
}

/// Undoes mountinfo's octal escapes (`\040` for a space, ...).
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|b| (b'0'..=b'7').contains(b)));
        if let Some(d) = octal {
            let value = d.iter().fold(0_u32, |acc, b| acc * 8 + u32::from(b - b'0'));
            out.push(u8::try_from(value).unwrap_or(b'?'));
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where a controller's limits are written.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// In the run's v2 cgroup.
    V2,
    /// In a v1 cgroup named like the run's, under this per-harness directory.
    V1(PathBuf),
}

/// The harness's directory of hook cgroups, and where each controller's limits go.
#[derive(Debug)]
pub(super) struct Setup {
    /// `<parent>/hooks-<pid>-<start>` in the v2 hierarchy ([`dir_name`]).
    dir: PathBuf,
    /// The parent it was made in.
    parent: PathBuf,
    /// The v2 path of `dir` as `/proc/PID/cgroup` shows it (`0::/a/hooks-1-2`), for membership
    /// checks.
    rel: String,
    /// Per controller (see [`Controller::index`]): resolved on first need.
    places: Mutex<[Option<Result<Place, String>>; 3]>,
    /// This process's cgroups in the v1 hierarchies, by controller list.
    v1: Vec<(Vec<String>, PathBuf)>,
    /// Cgroups whose removal waits for their processes to go.
    deferred: Mutex<VecDeque<Dirs>>,
    /// Empty cgroups of runs that ended normally, without limits, for the next runs.
    idle: Mutex<Vec<Idle>>,
    /// Per-harness v1 directories made since [`Setup::take_new_dirs`] last ran.
    new_dirs: Mutex<Vec<PathBuf>>,
}

/// The most empty cgroups kept for reuse; more are removed.
const IDLE_MAX: usize = 64;

/// An empty cgroup kept for the next run: making and removing a cgroup costs more than the
/// rest of the containment of a run (the kernel serialises both on one lock). It keeps its
/// descriptors, so that a run opens nothing: two per idle cgroup, at most `2 * IDLE_MAX`.
#[derive(Debug)]
struct Idle {
    name: u64,
    dir: PathBuf,
    fds: Option<Fds>,
}

/// A cgroup's open descriptors: its directory (for `CLONE_INTO_CGROUP`) and its
/// `cgroup.procs`, read again from the start whenever the members are wanted.
#[derive(Debug)]
struct Fds {
    dir: OwnedFd,
    procs: File,
}

impl Fds {
    fn open(dir: &Path) -> io::Result<Self> {
        let fd = open_dir(dir)?;
        let procs = File::open(dir.join("cgroup.procs"))?;
        Ok(Self { dir: fd, procs })
    }
}

/// The directories of one run's cgroups (the v2 one first).
#[derive(Debug, Clone)]
struct Dirs(Vec<PathBuf>);

impl Dirs {
    /// Removes every directory, with the empty cgroups made in it; the ones that are still
    /// busy are kept.
    fn remove(&mut self) -> bool {
        self.0.retain(|d| !remove_tree(d));
        self.0.is_empty()
    }
}

/// Why the harness's directory could not be made.
#[derive(Debug)]
pub(super) enum SetupError {
    /// The parent does not exist.
    Missing,
    /// The parent is not a cgroup v2 directory (no `cgroup.procs`, or not on the hierarchy).
    NotACgroup,
    /// The kernel lacks `cgroup.kill` (Linux before 5.14).
    NoKill,
    /// The directory could not be made.
    NotWritable(io::Error),
}

impl Setup {
    /// Makes `<parent>/hooks-<pid>-<start>`, after removing what harnesses that died left there.
    pub(super) fn new(mounts: &Mounts, parent: &Path) -> Result<Self, SetupError> {
        let Some((point, _)) = &mounts.v2 else { return Err(SetupError::NotACgroup) };
        if !parent.is_dir() {
            return Err(SetupError::Missing);
        }
        let rel = match parent.strip_prefix(point) {
            Ok(rel) if parent.join("cgroup.procs").is_file() => rel,
            _ => return Err(SetupError::NotACgroup),
        };
        let name = dir_name();
        let dir = parent.join(&name);
        sweep_stale(parent);
        // A directory of that name is one an earlier process with this pid left (possible only
        // without a start time): removed first, so that every cgroup in it is ours; one still
        // in use is not taken.
        remove_tree(&dir);
        if let Err(e) = fs::create_dir(&dir) {
            return Err(SetupError::NotWritable(e));
        }
        // The root cgroup has no `cgroup.kill`: the check is on the directory just made.
        if !dir.join("cgroup.kill").exists() {
            let _ = fs::remove_dir(&dir);
            return Err(SetupError::NoKill);
        }
        let mut rel_text = String::from("/");
        rel_text.push_str(&rel.join(&name).to_string_lossy());
        Ok(Self {
            dir,
            parent: parent.to_owned(),
            rel: rel_text.replace("//", "/"),
            places: Mutex::new([None, None, None]),
            v1: mounts.v1.clone(),
            deferred: Mutex::new(VecDeque::new()),
            idle: Mutex::new(Vec::new()),
            new_dirs: Mutex::new(Vec::new()),
        })
    }

    /// The harness's directory of hook cgroups.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every per-harness directory, v2 first then the v1 ones made so far (for the supervisor,
    /// which removes them once the harness is gone).
    pub(super) fn dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![self.dir.clone()];
        let places = self.places.lock().unwrap_or_else(PoisonError::into_inner);
        for place in places.iter().flatten() {
            if let Ok(Place::V1(dir)) = place
                && !dirs.contains(dir)
            {
                dirs.push(dir.clone());
            }
        }
        dirs
    }

    /// The per-harness v1 directories made since the last call.
    pub(super) fn take_new_dirs(&self) -> Vec<PathBuf> {
        std::mem::take(&mut *self.new_dirs.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Whether `limit` can be enforced here; the error says why not.
    pub(super) fn check_place(&self, limit: ResourceLimit) -> Result<(), String> {
        self.place(Controller::of(limit)).map(|_| ())
    }

    /// Where `controller`'s limits go, resolved once: the v2 hierarchy when the controller can
    /// be enabled down to the harness's directory, else a v1 hierarchy that has it; an error
    /// naming what is missing otherwise.
    fn place(&self, controller: Controller) -> Result<Place, String> {
        let mut places = self.places.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = &mut places[controller.index()];
        if let Some(place) = slot {
            return place.clone();
        }
        let place = self.resolve(controller);
        *slot = Some(place.clone());
        place
    }

    fn resolve(&self, controller: Controller) -> Result<Place, String> {
        let name = controller.name();
        let v2 = enable(&self.parent, name).and_then(|()| enable(&self.dir, name));
        let v2_error = match v2 {
            Ok(()) => return Ok(Place::V2),
            Err(e) => e,
        };
        let v1 = self.v1.iter().find(|(list, _)| list.iter().any(|c| c == name));
        if let Some((_, own)) = v1 {
            let dir = own.join(self.dir.file_name().unwrap_or_default());
            remove_tree(&dir);
            let made = fs::create_dir(&dir);
            return match made {
                Ok(()) => {
                    self.new_dirs.lock().unwrap_or_else(PoisonError::into_inner).push(dir.clone());
                    Ok(Place::V1(dir))
                }
                Err(e) => Err(format!(
                    "{v2_error}; nor can {} be made in its cgroup v1 hierarchy: {e}",
                    dir.display()
                )),
            };
        }
        Err(v2_error)
    }

    /// Removes the cgroups of earlier runs whose processes have gone since (a few per call).
    fn sweep_deferred(&self) {
        let mut deferred = self.deferred.lock().unwrap_or_else(PoisonError::into_inner);
        for _ in 0..deferred.len().min(4) {
            if let Some(mut dirs) = deferred.pop_front()
                && !dirs.remove()
            {
                deferred.push_back(dirs);
            }
        }
    }

    /// The cgroup of run `id`, with its limits written: an idle one when the run has no limit,
    /// else a new one named `id`. Warnings name what could not be applied; an error means the
    /// run cannot be contained.
    pub(super) fn run_cgroup(
        self: &Arc<Self>,
        id: u64,
        limits: ResourceLimits,
        warnings: &mut Vec<String>,
    ) -> io::Result<RunCgroup> {
        self.sweep_deferred();
        let reused = if limits.is_empty() {
            self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop()
        } else {
            None
        };
        let Idle { name, dir, fds } = match reused {
            Some(idle) => idle,
            None => {
                let dir = self.dir.join(id.to_string());
                // Never one that exists already: it may have been killed (see the module
                // documentation), and the run's id is new, so it is not one of ours.
                fs::create_dir(&dir)?;
                Idle { name: id, dir, fds: None }
            }
        };
        let fds = match fds.map_or_else(|| Fds::open(&dir), Ok) {
            Ok(fds) => fds,
            Err(e) => {
                let _ = fs::remove_dir(&dir);
                return Err(e);
            }
        };
        let mut cg = RunCgroup {
            id: name,
            fds,
            procs: Vec::new(),
            dir: dir.clone(),
            dirs: Dirs(vec![dir]),
            rel: format!("{}/{name}", self.rel),
            memory: None,
            pids: None,
            reusable: limits.is_empty(),
            setup: Arc::clone(self),
        };
        let name = name.to_string();
        for (limit, value) in limits.iter() {
            let place = match self.place(Controller::of(limit)) {
                Ok(place) => place,
                Err(why) => {
                    warnings.push(format!("{limit} = {value} not applied: {why}"));
                    continue;
                }
            };
            if let Err(w) = cg.apply(limit, value, &place, &name) {
                warnings.push(w);
            }
        }
        Ok(cg)
    }
}

/// One run's cgroup (and, on a hybrid host, its v1 companions).
#[derive(Debug)]
pub(super) struct RunCgroup {
    id: u64,
    /// The v2 cgroup's directory, which the child starts in, and its `cgroup.procs`.
    fds: Fds,
    /// `cgroup.procs` of each v1 cgroup the child joins.
    procs: Vec<OwnedFd>,
    /// The v2 cgroup.
    dir: PathBuf,
    /// Every directory of the run, the v2 one first, then the v1 ones in the order of `procs`.
    dirs: Dirs,
    /// The v2 path as `/proc/PID/cgroup` shows it.
    rel: String,
    /// Where the memory limit's events are read, and whether that is v1.
    memory: Option<(PathBuf, bool)>,
    /// Where the pids limit's events are read.
    pids: Option<PathBuf>,
    /// Whether it may serve another run once empty (no limit was written to it).
    reusable: bool,
    setup: Arc<Setup>,
}

impl RunCgroup {
    /// The v2 cgroup's directory.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The v2 cgroup's directory, for `CLONE_INTO_CGROUP`.
    pub(super) fn dir_fd(&self) -> BorrowedFd<'_> {
        self.fds.dir.as_fd()
    }

    /// The `cgroup.procs` files of the v1 cgroups the child writes itself into.
    pub(super) fn join(&self) -> Vec<BorrowedFd<'_>> {
        self.procs.iter().take(MAX_JOIN - 1).map(AsFd::as_fd).collect()
    }

    /// Reads the placement results (an errno for the v2 cgroup, then one per v1
    /// `cgroup.procs`, in [`RunCgroup::join`]'s order): an error when the child is not in the
    /// v2 cgroup, else a warning per v1 cgroup (whose limits then do not apply) it could not
    /// join.
    pub(super) fn joined(&self, errors: &[i32]) -> Result<Vec<String>, String> {
        let why = |e: i32| io::Error::from_raw_os_error(e);
        let mut warnings = Vec::new();
        for (i, (&error, dir)) in
            errors.iter().zip(&self.dirs.0).take(1 + self.procs.len()).enumerate()
        {
            if error == 0 {
                continue;
            }
            if i == 0 {
                return Err(format!(
                    "the hook could not be started in its cgroup {} ({}); the tree walk is used",
                    dir.display(),
                    why(error)
                ));
            }
            warnings.push(format!(
                "the limits in {} do not apply: the hook could not join it ({})",
                dir.display(),
                why(error)
            ));
        }
        Ok(warnings)
    }

    /// Writes one limit; the error is the warning to record.
    fn apply(
        &mut self,
        limit: ResourceLimit,
        value: u64,
        place: &Place,
        name: &str,
    ) -> Result<(), String> {
        let dir = match place {
            Place::V2 => self.dir().to_owned(),
            Place::V1(parent) => {
                let dir = parent.join(name);
                if !self.dirs.0.contains(&dir) {
                    match fs::create_dir(&dir) {
                        Ok(()) => {}
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(e) => {
                            return Err(format!(
                                "{limit} = {value} not applied: cannot make {}: {e}",
                                dir.display()
                            ));
                        }
                    }
                    self.dirs.0.push(dir.clone());
                    let procs = open_write(&dir.join("cgroup.procs")).map_err(|e| {
                        format!("{limit} = {value} not applied: cannot open {}: {e}", dir.display())
                    })?;
                    if self.procs.len() < MAX_JOIN - 1 {
                        self.procs.push(procs);
                    }
                }
                dir
            }
        };
        let v1 = matches!(place, Place::V1(_));
        let (file, text) = match (limit, v1) {
            (ResourceLimit::Pids, _) => ("pids.max", value.to_string()),
            (ResourceLimit::Memory, false) => ("memory.max", value.to_string()),
            (ResourceLimit::Memory, true) => ("memory.limit_in_bytes", value.to_string()),
            (ResourceLimit::CpuWeight, false) => ("cpu.weight", value.to_string()),
            // cpu.shares: 1024 is the default, as 100 is cpu.weight's.
            (ResourceLimit::CpuWeight, true) => {
                ("cpu.shares", (value.saturating_mul(1024) / 100).max(2).to_string())
            }
        };
        let path = dir.join(file);
        write_file(&path, &text).map_err(|e| {
            format!(
                "{limit} = {value} not applied: the kernel refused {text} for {}: {e}",
                path.display()
            )
        })?;
        match limit {
            ResourceLimit::Memory => {
                // No swapping past the limit: the hog is stopped, not slowed down. Best effort:
                // a host without swap accounting has no such file.
                let swap = if v1 { "memory.memsw.limit_in_bytes" } else { "memory.swap.max" };
                let swap_value = if v1 { text.clone() } else { "0".to_owned() };
                let _ = write_file(&dir.join(swap), &swap_value);
                let events = if v1 { "memory.oom_control" } else { "memory.events" };
                self.memory = Some((dir.join(events), v1));
            }
            ResourceLimit::Pids => self.pids = Some(dir.join("pids.events")),
            ResourceLimit::CpuWeight => {}
        }
        Ok(())
    }

    /// The pids of the processes in the cgroup now (zombies are not listed).
    pub(super) fn members(&self) -> Vec<i32> {
        let mut text = Vec::with_capacity(64);
        let mut chunk = [0_u8; 512];
        loop {
            match self.fds.procs.read_at(&mut chunk, text.len() as u64) {
                Ok(0) => break,
                Ok(n) => text.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return Vec::new(),
            }
        }
        text.split(|&b| b == b'\n')
            .filter_map(|l| std::str::from_utf8(l).ok()?.trim().parse().ok())
            .collect()
    }

    /// Whether a live process is in the cgroup.
    pub(super) fn populated(&self) -> bool {
        populated(self.dir())
    }

    /// Sends `signal` to every process in the cgroup, each through a pidfd after checking that
    /// the pid still names a member; returns the pids reached.
    pub(super) fn signal(&self, signal: i32) -> Vec<i32> {
        let mut reached = Vec::new();
        for pid in self.members() {
            let Ok(pidfd) = sys::pidfd_open(pid) else { continue };
            if self.holds(pid) && sys::pidfd_send_signal(pidfd.as_fd(), signal).is_ok() {
                reached.push(pid);
            }
        }
        reached
    }

    /// Whether `pid` is in this cgroup, as `/proc/PID/cgroup` says.
    fn holds(&self, pid: i32) -> bool {
        fs::read_to_string(format!("/proc/{pid}/cgroup"))
            .is_ok_and(|text| text.lines().any(|l| l.strip_prefix("0::") == Some(&self.rel)))
    }

    /// SIGKILLs every process in the cgroup and its descendants at once (`cgroup.kill`).
    pub(super) fn kill(&self) -> io::Result<()> {
        write_file(&self.dir().join("cgroup.kill"), "1")
    }

    /// The limit that stopped the run, if one did: the memory limit when the kernel killed a
    /// process for it, else the pids limit when a fork failed for it.
    pub(super) fn limit_hit(&self) -> Option<ResourceLimit> {
        if let Some((path, _)) = &self.memory
            && counter(path, "oom_kill") > 0
        {
            return Some(ResourceLimit::Memory);
        }
        if let Some(path) = &self.pids
            && counter(path, "max") > 0
        {
            return Some(ResourceLimit::Pids);
        }
        None
    }

    /// Retires the cgroups of a run that is over. One known to be `empty` (a normal exit that
    /// left nothing) without limits is kept for the next run; the others are removed once
    /// empty: now, or later by the harness, or by the supervisor once the harness is gone.
    /// Returns the name of a cgroup left in place because processes are still in it.
    pub(super) fn retire(self, empty: bool) -> Option<u64> {
        let RunCgroup { id, fds, mut dirs, dir, reusable, setup, .. } = self;
        if empty && reusable {
            let mut idle = setup.idle.lock().unwrap_or_else(PoisonError::into_inner);
            if idle.len() < IDLE_MAX {
                idle.push(Idle { name: id, dir, fds: Some(fds) });
                return None;
            }
        }
        drop(fds);
        if dirs.remove() {
            return None;
        }
        setup.deferred.lock().unwrap_or_else(PoisonError::into_inner).push_back(dirs);
        Some(id)
    }
}

/// Enables `controller` in `dir`'s `cgroup.subtree_control` unless it already is.
fn enable(dir: &Path, controller: &str) -> Result<(), String> {
    let listed = |file: &str| {
        fs::read_to_string(dir.join(file))
            .is_ok_and(|text| text.split_whitespace().any(|c| c == controller))
    };
    if listed("cgroup.subtree_control") {
        return Ok(());
    }
    if !listed("cgroup.controllers") {
        let available = fs::read_to_string(dir.join("cgroup.controllers")).unwrap_or_default();
        let available = available.trim();
        let mut why = format!(
            "the {controller} controller is not available in {} (available: ",
            dir.display()
        );
        let _ = write!(why, "{})", if available.is_empty() { "none" } else { available });
        return Err(why);
    }
    let path = dir.join("cgroup.subtree_control");
    write_file(&path, &format!("+{controller}")).map_err(|e| {
        let mut why = format!("cannot enable +{controller} in {}: {e}", path.display());
        if e.raw_os_error() == Some(libc::EBUSY) {
            why.push_str(" (it holds processes: cgroup v2's no-internal-processes rule)");
        }
        why
    })
}

/// The name of this process's directory: `hooks-<pid>-<start>`, the start time in clock ticks
/// after boot as `/proc/<pid>/stat` gives it (`hooks-<pid>` where it cannot be read).
pub(super) fn dir_name() -> String {
    let pid = std::process::id();
    match start_time("self") {
        Some(start) => format!("hooks-{pid}-{start}"),
        None => format!("hooks-{pid}"),
    }
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`, after the parenthesised
/// command, which may hold spaces and parentheses).
fn start_time(pid: &str) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the harness a directory named `name` belongs to is gone: `hooks-<pid>-<start>` of a
/// process that no longer exists or started at another time (its pid was reused since), or
/// `hooks-<pid>` of a process that no longer exists. None for other names.
fn is_stale(name: &str) -> Option<bool> {
    let rest = name.strip_prefix("hooks-")?;
    let (pid, start) = match rest.split_once('-') {
        Some((pid, start)) => (pid, Some(start.parse::<u64>().ok()?)),
        None => (rest, None),
    };
    let number = pid.parse::<i32>().ok().filter(|&p| p > 0)?;
    if sys::kill(number, 0).is_err_and(|e| e.raw_os_error() == Some(libc::ESRCH)) {
        return Some(true);
    }
    Some(start.is_some_and(|start| start_time(pid).is_some_and(|now| now != start)))
}

/// Removes what harnesses that are gone left in `parent`, as far as it is empty.
fn sweep_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_str().and_then(is_stale) == Some(true) {
            remove_tree(&entry.path());
        }
    }
}

/// Removes the cgroup `dir` and the cgroups in it, deepest first, unless a process is in it
/// (then nothing is removed, and whoever runs there keeps its cgroups). True when `dir` is gone.
fn remove_tree(dir: &Path) -> bool {
    match fs::remove_dir(dir) {
        Ok(()) => return true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return true,
        Err(_) => {}
    }
    if populated(dir) {
        return false;
    }
    remove_descendants(dir, 0);
    fs::remove_dir(dir).is_ok()
}

/// Whether a live process is in the cgroup `dir` or below it (`cgroup.events`; a directory
/// without one, as in cgroup v1, counts as empty).
fn populated(dir: &Path) -> bool {
    fs::read_to_string(dir.join("cgroup.events"))
        .is_ok_and(|text| text.lines().any(|l| l == "populated 1"))
}

/// How deep [`remove_tree`] goes: a harness run as a hook nests its directory two levels down
/// (`hooks-<pid>-<start>/<run>`), and such nesting rarely goes past a few harnesses.
const TREE_DEPTH: usize = 16;

fn remove_descendants(dir: &Path, depth: usize) {
    if depth >= TREE_DEPTH {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            let path = entry.path();
            remove_descendants(&path, depth + 1);
            let _ = fs::remove_dir(&path);
        }
    }
}

/// The value of `key` in a flat-keyed file (`memory.events`, `pids.events`, ...); 0 if absent.
fn counter(path: &Path, key: &str) -> u64 {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| {
            text.lines().find_map(|l| {
                let (k, v) = l.split_once(' ')?;
                (k == key).then(|| v.trim().parse().ok()).flatten()
            })
        })
        .unwrap_or(0)
}

/// Opens a cgroup directory, close-on-exec.
fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
        .open(path)
        .map(OwnedFd::from)
}

/// Opens a cgroup file for writing, close-on-exec (std's default).
fn open_write(path: &Path) -> io::Result<OwnedFd> {
    OpenOptions::new().write(true).custom_flags(libc::O_CLOEXEC).open(path).map(OwnedFd::from)
}

/// Writes `text` to a cgroup file in one `write`.
fn write_file(path: &Path, text: &str) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounts_of_a_hybrid_host() {
        let mountinfo = "\
30 22 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
31 30 0:27 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
32 30 0:28 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
33 30 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
34 30 0:30 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
35 30 0:31 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
";
        let cgroup = "9:name=systemd:/\n8:pids:/\n4:memory:/api/x\n1:cpu,cpuacct:/\n0::/\n";
        let m = parse_mounts(mountinfo, cgroup);
        assert_eq!(
            m.v2,
            Some((
                PathBuf::from("/sys/fs/cgroup/unified"),
                PathBuf::from("/sys/fs/cgroup/unified")
            ))
        );
        assert_eq!(
            m.v1,
            vec![
                (vec!["memory".to_owned()], PathBuf::from("/sys/fs/cgroup/memory/api/x")),
                (
                    vec!["cpu".to_owned(), "cpuacct".to_owned()],
                    PathBuf::from("/sys/fs/cgroup/cpu,cpuacct")
                ),
                (vec!["pids".to_owned()], PathBuf::from("/sys/fs/cgroup/pids")),
            ]
        );
    }

    #[test]
    fn mounts_of_a_unified_host_in_a_namespace() {
        let mountinfo = "40 30 0:27 /user.slice /sys/fs/cgroup\\040x rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
        let m = parse_mounts(mountinfo, "0::/user.slice/session-1.scope\n");
        assert_eq!(
            m.v2,
            Some((
                PathBuf::from("/sys/fs/cgroup x"),
                PathBuf::from("/sys/fs/cgroup x/session-1.scope")
            ))
        );
        // A cgroup outside the mount's root is not reachable through it.
        assert_eq!(parse_mounts(mountinfo, "0::/system.slice\n").v2, None);
        assert_eq!(parse_mounts("", "0::/\n"), Mounts { v2: None, v1: Vec::new() });
    }

    #[test]
    fn counters_in_flat_keyed_files() {
        let dir = std::env::temp_dir().join(format!("cgroup-counter-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("memory.events");
        fs::write(&path, "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n").unwrap();
        assert_eq!(counter(&path, "oom_kill"), 1);
        assert_eq!(counter(&path, "max"), 3);
        assert_eq!(counter(&path, "absent"), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_is_stale_once_its_harness_is_gone_or_its_pid_reused() {
        let me = std::process::id();
        let start = start_time(&me.to_string()).unwrap();
        // Ours, and the old form of a live process's name.
        assert_eq!(is_stale(&format!("hooks-{me}-{start}")), Some(false));
        assert_eq!(is_stale(&format!("hooks-{me}")), Some(false));
        assert_eq!(dir_name(), format!("hooks-{me}-{start}"));
        // Our pid, another start: a process that had our pid before us.
        assert_eq!(is_stale(&format!("hooks-{me}-{}", start + 1)), Some(true));
        // A pid above the kernel's largest: no such process.
        assert_eq!(is_stale("hooks-2147483647-5"), Some(true));
        assert_eq!(is_stale("hooks-2147483647"), Some(true));
        for other in ["hooks", "hooks-", "hooks-x", "hooks-1-x", "other-1", "hooks-0"] {
            assert_eq!(is_stale(other), None, "{other}");
        }
    }

    #[test]
    fn the_start_time_is_read_past_a_command_with_spaces_and_parentheses() {
        // Field 22 of this process's own stat, whatever its command is called.
        let stat = fs::read_to_string("/proc/self/stat").unwrap();
        let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
        assert_eq!(start_time("self"), fields[19].parse().ok());
        assert_eq!(start_time("0"), None);
    }

    #[test]
    fn a_tree_of_empty_directories_is_removed_deepest_first_and_a_populated_one_is_kept() {
        let root = std::env::temp_dir().join(format!("cgroup-tree-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        // A harness's directory holding a run in which a nested harness made its own.
        let nested = root.join("hooks-1-2/0/hooks-3-4");
        for run in ["0", "1", "2"] {
            fs::create_dir_all(nested.join(run)).unwrap();
        }
        assert!(remove_tree(&root.join("hooks-1-2")));
        assert!(!root.join("hooks-1-2").exists());
        // One whose `cgroup.events` says a process is in it stays whole.
        let busy = root.join("hooks-5-6");
        fs::create_dir_all(busy.join("0/hooks-7-8/0")).unwrap();
        fs::write(busy.join("cgroup.events"), "populated 1\nfrozen 0\n").unwrap();
        assert!(!remove_tree(&busy));
        assert!(busy.join("0/hooks-7-8/0").is_dir());
        assert!(remove_tree(&root.join("absent")));
        fs::remove_dir_all(&root).unwrap();
    }
}
