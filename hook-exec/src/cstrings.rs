//! Argument and environment lists for `posix_spawn`, each packed in one buffer.
//!
//! A list is built once per run, in one allocation (two with the offsets), instead of one C
//! string per entry; the pointer array the system call wants is made from it at the last
//! moment.

use std::ffi::c_char;

/// Why an entry cannot be passed to a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unpassable {
    /// It holds a NUL byte, which would end the C string early.
    Nul,
    /// A variable's name is empty or holds `=`.
    Name,
}

/// A list of C strings in one buffer: every entry is its bytes followed by one NUL, and no
/// entry holds another NUL (the invariant [`super::sys::spawn`] relies on).
#[derive(Debug, Default)]
pub(super) struct CStrings {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

impl CStrings {
    /// An empty list with room for `entries` entries of `bytes` bytes in all.
    pub(super) fn with_capacity(entries: usize, bytes: usize) -> Self {
        Self { bytes: Vec::with_capacity(bytes), starts: Vec::with_capacity(entries) }
    }

    /// Empties the list, keeping its buffers.
    pub(super) fn clear(&mut self) {
        self.bytes.clear();
        self.starts.clear();
    }

    /// Appends `entry`.
    pub(super) fn push(&mut self, entry: &[u8]) -> Result<(), Unpassable> {
        if entry.contains(&0) {
            return Err(Unpassable::Nul);
        }
        self.starts.push(self.bytes.len());
        self.bytes.extend_from_slice(entry);
        self.bytes.push(0);
        Ok(())
    }

    /// Appends `name=value` from the harness's own environment, unchecked: std read it from C
    /// strings, so it holds no NUL, and the entry is passed on as it was (a NUL could only end
    /// the entry early, never reach past the buffer).
    pub(super) fn push_inherited(&mut self, name: &[u8], value: &[u8]) {
        self.starts.push(self.bytes.len());
        self.bytes.reserve(name.len() + value.len() + 2);
        self.bytes.extend_from_slice(name);
        self.bytes.push(b'=');
        self.bytes.extend_from_slice(value);
        self.bytes.push(0);
    }

    /// Appends every entry of `other`.
    pub(super) fn extend_from(&mut self, other: &CStrings) {
        let base = self.bytes.len();
        self.starts.extend(other.starts.iter().map(|&start| base + start));
        self.bytes.extend_from_slice(&other.bytes);
    }

    /// Appends the variable `name=value`.
    pub(super) fn push_var(&mut self, name: &[u8], value: &[u8]) -> Result<(), Unpassable> {
        if name.is_empty() || name.contains(&b'=') {
            return Err(Unpassable::Name);
        }
        if name.contains(&0) || value.contains(&0) {
            return Err(Unpassable::Nul);
        }
        self.push_inherited(name, value);
        Ok(())
    }

    /// The entries as `argv`/`envp` want them: their addresses, then a null pointer. The
    /// pointers are valid for as long as `self` is neither changed nor dropped.
    pub(super) fn pointers(&self) -> Vec<*const c_char> {
        let base = self.bytes.as_ptr();
        let mut out = Vec::with_capacity(self.starts.len() + 1);
        out.extend(self.starts.iter().map(|&start| base.wrapping_add(start).cast::<c_char>()));
        out.push(std::ptr::null());
        out
    }

    /// The entries, without their NULs.
    #[cfg_attr(
        all(
            not(test),
            any(
                all(target_os = "linux", any(target_env = "gnu", target_env = "musl")),
                target_vendor = "apple"
            )
        ),
        expect(dead_code, reason = "used by tests, and by the std fallback on other targets")
    )]
    pub(super) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let ends =
            self.starts.iter().skip(1).map(|&s| s - 1).chain([self.bytes.len().saturating_sub(1)]);
        self.starts.iter().zip(ends).map(|(&s, e)| &self.bytes[s..e])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_packed_with_one_nul_each() {
        let mut list = CStrings::default();
        list.push(b"/bin/sh").unwrap();
        list.push(b"").unwrap();
        list.push_var(b"A", b"b=c").unwrap();
        assert_eq!(list.iter().count(), 3);
        assert_eq!(list.iter().collect::<Vec<_>>(), [&b"/bin/sh"[..], b"", b"A=b=c"]);
        assert_eq!(list.bytes, b"/bin/sh\0\0A=b=c\0");
        let pointers = list.pointers();
        assert_eq!(pointers.len(), 4);
        assert!(pointers[3].is_null());
        assert_eq!(pointers[2], list.bytes[9..].as_ptr().cast());
    }

    #[test]
    fn nul_bytes_and_bad_names_are_refused_and_leave_the_list_unchanged() {
        let mut list = CStrings::default();
        assert_eq!(list.push(b"a\0b"), Err(Unpassable::Nul));
        assert_eq!(list.push_var(b"", b"x"), Err(Unpassable::Name));
        assert_eq!(list.push_var(b"A=B", b"x"), Err(Unpassable::Name));
        assert_eq!(list.push_var(b"A\0", b"x"), Err(Unpassable::Nul));
        assert_eq!(list.push_var(b"A", b"x\0"), Err(Unpassable::Nul));
        assert_eq!(list.iter().count(), 0);
        assert!(list.bytes.is_empty());
    }
}
