//! [`Scratch`], a temporary folder removed when the test ends.

use std::path::{Path, PathBuf};

/// A fresh temporary folder, removed with everything in it when the value is dropped. Its path
/// is canonical (no symbolic link in it), so that it compares equal to what a process running
/// in it sees.
#[derive(Debug)]
pub struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Scratch {
    /// A folder whose name starts with `name`, under the system's temporary folder.
    ///
    /// # Panics
    ///
    /// When the folder cannot be made: a test cannot go on without it.
    #[expect(clippy::expect_used, reason = "test support: a test stops where it cannot go on")]
    pub fn new(name: &str) -> Self {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{name}-"))
            .tempdir()
            .expect("a temporary folder can be made");
        let path = std::fs::canonicalize(dir.path()).expect("a new folder has a canonical path");
        Self { _dir: dir, path }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its path (as `PathBuf::as_path` names it).
    pub fn as_path(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}
