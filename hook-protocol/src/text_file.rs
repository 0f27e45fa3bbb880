//! Reading the program's own inputs (configuration files, event inputs, recordings) as a careful
//! Unix tool does: only a regular file is opened, never more than a cap is read, and every
//! refusal names the file and says what is wrong with it.
//!
//! A directory, a named pipe, a device or a socket is refused before it is opened, so that
//! reading never waits on a pipe nor runs through an endless device. A file larger than its cap
//! is refused after reading at most the cap and one byte, so memory stays within the cap.
//! Text that is not UTF-8 is refused with the line of its first bad byte.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::os_error_text;

/// One mebibyte.
const MIB: u64 = 1024 * 1024;

/// The cap of a configuration file (a settings file, a plugin's `hooks.json` or manifest, a
/// skill's or sub-agent's frontmatter file, a hook list, an agent's config): 16 MiB, hundreds
/// of times any real one.
pub const CONFIG_CAP: u64 = 16 * MIB;

/// The cap of one event's input (a file or standard input): 64 MiB.
pub const INPUT_CAP: u64 = 64 * MIB;

/// The cap of a recording or a test file (many events): 256 MiB.
pub const RECORDING_CAP: u64 = 256 * MIB;

/// The cap of an environment file a hook writes for the agent's shell: 1 MiB, thousands of
/// `export` lines.
pub const ENV_FILE_CAP: u64 = MIB;

/// Why a file or a stream could not be read as text.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Nothing is at the path (or it vanished before it could be opened).
    #[error("`{}` does not exist", path.display())]
    Missing {
        /// The path.
        path: PathBuf,
    },
    /// Something is at the path, but not a regular file.
    #[error("`{}` is {what}, not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is (`a directory`, `a named pipe (FIFO)`, `a character device`, ...).
        what: &'static str,
    },
    /// The file or stream holds more than its cap.
    #[error("`{}` is larger than {} (the cap for {kind}); it was not read", path.display(), Size(*cap))]
    TooLarge {
        /// The path (`<stdin>` for standard input).
        path: PathBuf,
        /// The cap, in bytes.
        cap: u64,
        /// What kind of input the cap is for (`a configuration file`, ...).
        kind: &'static str,
    },
    /// The file may not be read by this user.
    #[error("`{}` cannot be read: permission denied", path.display())]
    Denied {
        /// The path.
        path: PathBuf,
    },
    /// The text is not UTF-8.
    #[error("`{}`:{line}: not UTF-8 text (the first bad byte is on this line)", path.display())]
    NotUtf8 {
        /// The path (`<stdin>` for standard input).
        path: PathBuf,
        /// The line of the first bad byte, from 1.
        line: usize,
    },
    /// Any other failure of the operating system.
    #[error("cannot read `{}`: {message}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The system's reason, in lower case.
        message: String,
    },
}

impl ReadError {
    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Self::Missing { path }
            | Self::NotAFile { path, .. }
            | Self::TooLarge { path, .. }
            | Self::Denied { path }
            | Self::NotUtf8 { path, .. }
            | Self::Io { path, .. } => path,
        }
    }

    /// What is wrong, without the path: for a message already placed at the file
    /// (`settings.json: error: is a directory, not a regular file`).
    pub fn reason(&self) -> String {
        let full = self.to_string();
        let quoted = format!("`{}`", self.path().display());
        match self {
            Self::NotUtf8 { .. } => {
                "not UTF-8 text (the first bad byte is on this line)".to_owned()
            }
            Self::Io { message, .. } => format!("cannot be read: {message}"),
            _ => full.strip_prefix(&quoted).map_or(full.clone(), |r| r.trim_start().to_owned()),
        }
    }

    /// The error as a diagnostic placed at its file (and line, for text that is not UTF-8),
    /// its reason followed by what it means for the reader (`no hook from it runs`).
    pub fn diagnostic(&self, consequence: &str) -> crate::Diagnostic {
        let at =
            self.line().map_or_else(crate::Position::default, |line| crate::Position::new(line, 1));
        crate::Diagnostic::error(self.path(), at, format!("{}; {consequence}", self.reason()))
    }

    /// As [`ReadError::diagnostic`], the file skipped: what it says after the reason is
    /// [`Skipped::File`](crate::Skipped::File) in `words`.
    pub fn skipping_file(&self, words: &str) -> crate::Diagnostic {
        let at =
            self.line().map_or_else(crate::Position::default, |line| crate::Position::new(line, 1));
        let problem = crate::skipping(self.reason(), crate::Skipped::File, words);
        crate::Diagnostic::error(self.path(), at, problem)
    }

    /// The line a problem is on, when it is about one (text that is not UTF-8).
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::NotUtf8 { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// Whether nothing is at the path.
    pub fn is_missing(&self) -> bool {
        matches!(self, Self::Missing { .. })
    }

    fn of(path: &Path, e: &io::Error) -> Self {
        let path = path.to_owned();
        match e.kind() {
            io::ErrorKind::NotFound => Self::Missing { path },
            io::ErrorKind::PermissionDenied => Self::Denied { path },
            _ => Self::Io { path, message: os_error_text(e) },
        }
    }
}

/// What a cap is for, as errors say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// The most bytes read.
    pub bytes: u64,
    /// What kind of input it is for (`a configuration file`).
    pub kind: &'static str,
}

impl Cap {
    /// [`CONFIG_CAP`], for configuration files.
    pub const CONFIG: Cap = Cap { bytes: CONFIG_CAP, kind: "a configuration file" };
    /// [`INPUT_CAP`], for one event's input.
    pub const INPUT: Cap = Cap { bytes: INPUT_CAP, kind: "an event's input" };
    /// [`RECORDING_CAP`], for recordings and test files.
    pub const RECORDING: Cap = Cap { bytes: RECORDING_CAP, kind: "a recording or test file" };
    /// [`ENV_FILE_CAP`], for the environment files hooks write.
    pub const ENV_FILE: Cap = Cap { bytes: ENV_FILE_CAP, kind: "an environment file" };
}

/// A size in bytes as a person reads it (`16 MiB`, `512 bytes`).
struct Size(u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= MIB && self.0.is_multiple_of(MIB) {
            write!(f, "{} MiB", self.0 / MIB)
        } else {
            write!(f, "{} bytes", self.0)
        }
    }
}

/// Checks that `path` is a regular file (following symbolic links), without opening it.
///
/// # Errors
///
/// [`ReadError::Missing`], [`ReadError::NotAFile`] with what it is, [`ReadError::Denied`] or
/// [`ReadError::Io`] (a symbolic link loop, say).
pub fn regular_file(path: &Path) -> Result<u64, ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| ReadError::of(path, &e))?;
    match what(&meta.file_type()) {
        None => Ok(meta.len()),
        Some(what) => Err(ReadError::NotAFile { path: path.to_owned(), what }),
    }
}

/// Reads the regular file at `path` as UTF-8 text, at most `cap.bytes` of it.
///
/// # Errors
///
/// [`ReadError`]: not a regular file, larger than the cap, unreadable, not UTF-8.
pub fn read_text(path: &Path, cap: Cap) -> Result<String, ReadError> {
    let len = regular_file(path)?;
    if len > cap.bytes {
        return Err(ReadError::TooLarge { path: path.to_owned(), cap: cap.bytes, kind: cap.kind });
    }
    let file = std::fs::File::open(path).map_err(|e| ReadError::of(path, &e))?;
    // What was opened may not be what was checked (a file swapped for a pipe in between).
    let meta = file.metadata().map_err(|e| ReadError::of(path, &e))?;
    if let Some(what) = what(&meta.file_type()) {
        return Err(ReadError::NotAFile { path: path.to_owned(), what });
    }
    read_stream(file, path, cap)
}

/// Reads a stream (standard input) as UTF-8 text, at most `cap.bytes` of it; `name` stands for
/// it in errors (`<stdin>`).
///
/// # Errors
///
/// [`ReadError::TooLarge`], [`ReadError::NotUtf8`], [`ReadError::Io`].
pub fn read_stream(stream: impl Read, name: &Path, cap: Cap) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    stream
        .take(cap.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::of(name, &e))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > cap.bytes {
        return Err(ReadError::TooLarge { path: name.to_owned(), cap: cap.bytes, kind: cap.kind });
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        ReadError::NotUtf8 { path: name.to_owned(), line }
    })
}

/// What a file type is when it is not a regular file.
fn what(file_type: &std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt as _;
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        if file_type.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

#[cfg(test)]
mod tests;
