//! The process groups of the runs with the tree walk, kept where the supervisor reads them
//! only once the harness is gone: an unnamed file, the supervisor's stdout, one fixed-width
//! line per slot. A run writes its group into a free slot when it starts and blanks the slot
//! when it is over, each with one positioned write that wakes no one; a message on the
//! supervisor's socket would wake it twice per run, and on two cores its turn costs the
//! hook's start a tenth of an event (measured; see `supervisor.rs`).
//!
//! A write is done before the call returns, and a harness killed outright dies between system
//! calls, so the supervisor, reading after the harness's end, finds every line whole.

use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

/// The width of a slot: an i32's digits, right-aligned, and a newline.
const SLOT: usize = 12;

/// The table of running tree-walk groups.
#[derive(Debug)]
pub(super) struct GroupTable {
    file: File,
    /// The slots of each group listed, never an empty list: more than one in the moment
    /// between a leader's reaping and its run's end, when a new run's leader may get its pid
    /// (the old run's removal may then come second; either slot goes, since both name the same
    /// group).
    slots: HashMap<i32, Vec<u64>>,
    /// Blank slots below `len`, reused first.
    free: Vec<u64>,
    /// Slots ever used.
    len: u64,
}

impl GroupTable {
    /// An empty table in an unnamed file of the temporary directory.
    pub(super) fn new() -> io::Result<Self> {
        Ok(Self { file: tempfile::tempfile()?, slots: HashMap::new(), free: Vec::new(), len: 0 })
    }

    /// The file, which the supervisor gets as its stdout (opened for reading and writing).
    pub(super) fn file(&self) -> &File {
        &self.file
    }

    /// Lists group `pgid`. Errors when the file cannot be written (the disk is full): the
    /// caller then tells the supervisor by a message instead.
    pub(super) fn add(&mut self, pgid: i32) -> io::Result<()> {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => self.len,
        };
        let mut line = [b' '; SLOT];
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(pgid).as_bytes();
        let start = (SLOT - 1).saturating_sub(digits.len());
        if let Some(room) = line.get_mut(start..SLOT - 1) {
            room.copy_from_slice(digits);
        }
        line[SLOT - 1] = b'\n';
        match self.file.write_all_at(&line, slot * SLOT as u64) {
            Ok(()) => {
                if slot == self.len {
                    self.len += 1;
                }
                self.slots.entry(pgid).or_default().push(slot);
                Ok(())
            }
            Err(e) => {
                if slot < self.len {
                    self.free.push(slot);
                }
                Err(e)
            }
        }
    }

    /// Whether group `pgid` is listed here.
    pub(super) fn lists(&self, pgid: i32) -> bool {
        self.slots.contains_key(&pgid)
    }

    /// Blanks group `pgid`'s slot; false when it was not listed here.
    pub(super) fn remove(&mut self, pgid: i32) -> bool {
        let Some(slots) = self.slots.get_mut(&pgid) else { return false };
        let Some(slot) = slots.pop() else { return false };
        if slots.is_empty() {
            self.slots.remove(&pgid);
        }
        let mut line = [b' '; SLOT];
        line[SLOT - 1] = b'\n';
        // A slot that cannot be blanked (an I/O error on a file of a few bytes) is not reused:
        // it keeps naming the group, which the supervisor signals if the harness dies later,
        // as it did with a `-g` message lost to a full socket.
        if self.file.write_all_at(&line, slot * SLOT as u64).is_ok() {
            self.free.push(slot);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Seek};

    use super::*;

    fn lines(table: &GroupTable) -> Vec<String> {
        let mut text = String::new();
        let mut file = table.file().try_clone().unwrap();
        file.rewind().unwrap();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text.len() % SLOT, 0, "{text:?}");
        text.lines().map(|l| l.trim().to_owned()).collect()
    }

    #[test]
    fn groups_take_slots_and_free_them() {
        let mut t = GroupTable::new().unwrap();
        t.add(7).unwrap();
        t.add(2_147_483_647).unwrap();
        t.add(42).unwrap();
        assert_eq!(lines(&t), ["7", "2147483647", "42"]);
        assert!(t.remove(2_147_483_647));
        assert!(!t.remove(2_147_483_647));
        assert!(!t.remove(5));
        assert_eq!(lines(&t), ["7", "", "42"]);
        // A freed slot is reused before the file grows.
        t.add(99).unwrap();
        assert_eq!(lines(&t), ["7", "99", "42"]);
        t.add(100).unwrap();
        assert_eq!(lines(&t), ["7", "99", "42", "100"]);
        // A group listed twice (a new leader with a reaped one's pid) stays listed until both
        // runs are over.
        t.add(7).unwrap();
        assert!(t.remove(7));
        assert!(t.lists(7));
        assert_eq!(lines(&t).iter().filter(|l| *l == "7").count(), 1);
        assert!(t.remove(7));
        assert!(!t.lists(7));
        assert!(!t.remove(7));
    }
}
