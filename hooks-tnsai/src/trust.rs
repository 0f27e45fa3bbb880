//! Trust roots: which executables a TNSAI hook may run.
//!
//! The seed leaves this to the operator; we check it when a hook is built, so that an untrusted
//! executable never becomes a hook. An executable is trusted when:
//!
//! 1. it resolves (every symlink followed) to an existing regular file;
//! 2. the resolved file sits under one of the trusted roots (each resolved the same way), by
//!    path components (`/opt/hooks-evil` is not under `/opt/hooks`);
//! 3. the resolved file is not writable by its group or by others (mode bits `0o022`).
//!
//! The hook then runs the resolved path, so a symlink swapped after the check does not redirect
//! it. What the check cannot see: a file rewritten in place later by its owner, and directories
//! on the way that others may write (only the file itself is checked, as the rule says).

use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why an executable is not trusted; each names the path and the rule it broke.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TrustError {
    /// No trusted root is configured, so nothing can be trusted.
    #[error("executable `{}` is refused: no trusted roots are configured", path.display())]
    NoRoots {
        /// The executable as given.
        path: PathBuf,
    },
    /// A trusted root does not resolve to a directory.
    #[error("trusted root `{}` cannot be resolved: {message}", path.display())]
    Root {
        /// The root as given.
        path: PathBuf,
        /// The system's explanation.
        message: String,
    },
    /// The executable does not resolve.
    #[error("executable `{}` cannot be resolved: {message}", path.display())]
    Unresolvable {
        /// The executable as given.
        path: PathBuf,
        /// The system's explanation.
        message: String,
    },
    /// The executable resolves to something that is not a regular file.
    #[error("executable `{}` resolves to `{}`, which is not a regular file", path.display(), resolved.display())]
    NotAFile {
        /// The executable as given.
        path: PathBuf,
        /// Where it resolves.
        resolved: PathBuf,
    },
    /// The executable resolves outside every trusted root.
    #[error("executable `{}` resolves to `{}`, which is not under any trusted root ({})", path.display(), resolved.display(), RootList(roots))]
    OutsideRoots {
        /// The executable as given.
        path: PathBuf,
        /// Where it resolves.
        resolved: PathBuf,
        /// The trusted roots, resolved.
        roots: Vec<PathBuf>,
    },
    /// The executable is writable by its group or by others.
    #[error("executable `{}` is writable by {who} (mode {mode:04o}); a trusted executable must not be writable by group or others", resolved.display())]
    Writable {
        /// Where it resolves.
        resolved: PathBuf,
        /// Its permission bits.
        mode: u32,
        /// `group`, `others`, or `group and others`.
        who: &'static str,
    },
    /// The resolved path is not valid UTF-8, so it cannot be passed to the runner.
    #[error("executable `{}` is not valid UTF-8", resolved.display())]
    NotUtf8 {
        /// Where it resolves.
        resolved: PathBuf,
    },
}

struct RootList<'a>(&'a [PathBuf]);

impl fmt::Display for RootList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, root) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{}`", root.display())?;
        }
        Ok(())
    }
}

/// The resolved trusted roots.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrustRoots {
    roots: Vec<PathBuf>,
}

impl TrustRoots {
    /// Resolves each root (symlinks followed); each must be a directory.
    ///
    /// # Errors
    ///
    /// [`TrustError::Root`] naming the first root that does not resolve to a directory.
    pub fn new<I, P>(roots: I) -> Result<Self, TrustError>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut resolved = Vec::new();
        for root in roots {
            resolved.push(Self::resolve_root(root.as_ref())?);
        }
        Ok(Self { roots: resolved })
    }

    /// Resolves one root (symlinks followed); it must be a directory.
    ///
    /// # Errors
    ///
    /// [`TrustError::Root`] when it does not resolve to a directory.
    pub fn resolve_root(root: &Path) -> Result<PathBuf, TrustError> {
        let error = |message: String| TrustError::Root { path: root.to_owned(), message };
        let path = root.canonicalize().map_err(|e| error(e.to_string()))?;
        if !path.is_dir() {
            return Err(error("not a directory".to_owned()));
        }
        Ok(path)
    }

    /// The resolved roots.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether no root is configured.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// Checks an executable against the rules of the module docs and returns its resolved path.
    ///
    /// A relative `executable` resolves against the process's working directory.
    ///
    /// # Errors
    ///
    /// [`TrustError`] naming the path and the rule it broke.
    pub fn check(&self, executable: &Path) -> Result<PathBuf, TrustError> {
        if self.roots.is_empty() {
            return Err(TrustError::NoRoots { path: executable.to_owned() });
        }
        let resolved = executable.canonicalize().map_err(|e| TrustError::Unresolvable {
            path: executable.to_owned(),
            message: e.to_string(),
        })?;
        let meta = resolved.metadata().map_err(|e| TrustError::Unresolvable {
            path: executable.to_owned(),
            message: e.to_string(),
        })?;
        if !meta.is_file() {
            return Err(TrustError::NotAFile { path: executable.to_owned(), resolved });
        }
        if !self.roots.iter().any(|root| resolved.starts_with(root)) {
            return Err(TrustError::OutsideRoots {
                path: executable.to_owned(),
                resolved,
                roots: self.roots.clone(),
            });
        }
        let mode = meta.permissions().mode() & 0o7777;
        let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
            (true, true) => Some("group and others"),
            (true, false) => Some("group"),
            (false, true) => Some("others"),
            (false, false) => None,
        };
        if let Some(who) = who {
            return Err(TrustError::Writable { resolved, mode, who });
        }
        if resolved.to_str().is_none() {
            return Err(TrustError::NotUtf8 { resolved });
        }
        Ok(resolved)
    }
}
