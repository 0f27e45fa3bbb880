//! The 10,000-character cap on what a hook adds to the conversation
//! ([Size limits](crate::compatibility#size-limits)): an `additionalContext`, a `systemMessage`, an
//! `initialUserMessage` or plain stdout used as context, each measured on its own, that is longer
//! is written whole to a file, and the conversation gets the file's path and a preview of the first
//! 2,000 characters.
//!
//! The file goes in the directory the harness gives ([`crate::EngineBuilder::session_dir`]),
//! else in `<temp>/hooks-claude/<session id>/` (`<temp>` is [`std::env::temp_dir`]); the
//! directory is created private to the user (mode 0700) and each file readable by the user
//! only (0600).

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most characters of one field delivered as it is.
pub(crate) const CAP: usize = 10_000;
/// How many characters the preview keeps.
pub(crate) const PREVIEW: usize = 2_000;

/// Where texts over the cap go.
#[derive(Debug, Default)]
pub(crate) struct Spill {
    dir: Option<PathBuf>,
    counter: AtomicU64,
}

impl Spill {
    /// Files in `dir` (`None`: under the temporary directory, per session).
    pub(crate) fn new(dir: Option<PathBuf>) -> Self {
        Self { dir, counter: AtomicU64::new(0) }
    }

    /// The text as delivered: itself when within the cap, else the pointer and preview. A
    /// file that cannot be written is a warning, and the preview is delivered alone.
    pub(crate) fn cap(
        &self,
        text: String,
        session_id: &str,
        hook_id: &str,
        warnings: &mut Vec<String>,
    ) -> String {
        let count = text.chars().count();
        if count <= CAP {
            return text;
        }
        let preview: String = text.chars().take(PREVIEW).collect();
        match self.write(&text, session_id, hook_id) {
            Ok(path) => format!(
                "[Hook output of {count} characters is longer than {CAP}; the whole text is in {}. The first {PREVIEW} characters follow.]\n{preview}",
                path.display()
            ),
            Err(e) => {
                warnings.push(format!(
                    "output of {count} characters is over the {CAP}-character cap and could not be saved ({e}); only its first {PREVIEW} characters are delivered"
                ));
                format!(
                    "[Hook output of {count} characters is longer than {CAP}; the first {PREVIEW} characters follow.]\n{preview}"
                )
            }
        }
    }

    fn write(&self, text: &str, session_id: &str, hook_id: &str) -> std::io::Result<PathBuf> {
        let dir = match &self.dir {
            Some(d) => d.clone(),
            None => std::env::temp_dir().join("hooks-claude").join(safe_name(session_id)),
        };
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
        let base = safe_name(hook_id);
        loop {
            let n = self.counter.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!("{base}-{}-{n}.txt", std::process::id()));
            match open_new(&path) {
                Ok(mut file) => {
                    file.write_all(text.as_bytes())?;
                    return Ok(path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
    }
}

fn open_new(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

/// A file-name-safe version of an identifier: anything but letters, digits, `-` and `_`
/// becomes `_`, and an empty result is `session`.
fn safe_name(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if name.is_empty() { "session".to_owned() } else { name }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_untouched_and_long_text_is_saved() {
        let dir = std::env::temp_dir().join(format!("hooks-claude-spill-{}", std::process::id()));
        let spill = Spill::new(Some(dir.clone()));
        let mut warnings = Vec::new();
        let short = "é".repeat(CAP);
        assert_eq!(spill.cap(short.clone(), "s", "h", &mut warnings), short);
        let long: String = (0..CAP + 1).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let out = spill.cap(long.clone(), "s", "claude:Stop:0", &mut warnings);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (head, preview) = out.split_once('\n').unwrap();
        assert_eq!(preview, &long[..PREVIEW]);
        let path = head.split(" is in ").nth(1).unwrap().split(". The first").next().unwrap();
        assert!(
            path.starts_with(dir.to_str().unwrap()) && path.contains("claude_Stop_0"),
            "{path}"
        );
        assert_eq!(std::fs::read_to_string(path).unwrap(), long);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn session_ids_cannot_leave_the_directory() {
        assert_eq!(safe_name("../../etc"), "______etc");
        assert_eq!(safe_name(""), "session");
    }

    #[test]
    fn an_unwritable_directory_delivers_the_preview_with_a_warning() {
        let spill = Spill::new(Some(PathBuf::from("/proc/no-such-dir/x")));
        let mut warnings = Vec::new();
        let out = spill.cap("x".repeat(CAP + 5), "s", "h", &mut warnings);
        assert_eq!(warnings.len(), 1);
        assert!(out.ends_with(&"x".repeat(PREVIEW)) && out.chars().count() < PREVIEW + 200);
    }
}
