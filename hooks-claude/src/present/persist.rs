//! Where long texts go: the files Claude Code writes in the session's `tool-results`
//! directory, `<claude home>/projects/<cwd slug>/<session id>/tool-results/`, and the
//! `<persisted-output>` blocks that point to them.

use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use super::templates as t;

/// The name of Claude Code's project directory for a working directory: every character
/// that is not an ASCII letter or digit becomes `-` (`/home/u/my.app` is
/// `-home-u-my-app`). Claude Code replaces per UTF-16 code unit, so a character outside the
/// Basic Multilingual Plane becomes `--`.
pub fn cwd_slug(cwd: &str) -> String {
    cwd.encode_utf16()
        .map(|u| match u8::try_from(u) {
            Ok(b) if b.is_ascii_alphanumeric() => char::from(b),
            _ => '-',
        })
        .collect()
}

/// A session id as a single path component: letters, digits, `-` and `_` are kept, anything
/// else becomes `_` (a session id never leaves its directory), and an empty one is `session`.
fn session_component(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if name.is_empty() { "session".to_owned() } else { name }
}

/// The `tool-results` directory of a session under a Claude home.
pub(crate) fn tool_results_dir(home: &Path, cwd: &str, session_id: &str) -> PathBuf {
    home.join("projects")
        .join(cwd_slug(cwd))
        .join(session_component(session_id))
        .join("tool-results")
}

/// A fresh identifier for a saved file: 32 hexadecimal digits.
fn fresh_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Saves the long texts of one rendering in one session's directory, whose path is worked
/// out only when a text is long enough to be saved (most renderings save nothing).
pub(crate) struct Saver<'a> {
    /// The Claude home.
    pub(crate) home: &'a Path,
    /// The session's `cwd` and `session_id`, which name its directory.
    pub(crate) cwd: &'a str,
    pub(crate) session_id: &'a str,
    pub(crate) warnings: &'a mut Vec<String>,
}

impl Saver<'_> {
    /// Writes `text` whole to a new file `name` (private to the user) in `dir`.
    fn write(dir: &Path, name: &str, text: &str) -> std::io::Result<PathBuf> {
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
        let path = dir.join(name);
        let mut file =
            std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
        file.write_all(text.as_bytes())?;
        Ok(path)
    }

    /// The block that replaces a long text: saved to `name`, or, when it cannot be, the
    /// preview alone with a warning.
    fn block(&mut self, name: &str, text: &str, chars: usize) -> String {
        let preview = t::preview(text);
        let dir = tool_results_dir(self.home, self.cwd, self.session_id);
        match Self::write(&dir, name, text) {
            Ok(path) => t::persisted_output(chars, &path.display().to_string(), preview),
            Err(e) => {
                self.warnings.push(format!(
                    "a hook text of {chars} characters could not be saved in {} ({e}); only its first {} characters are shown",
                    dir.display(),
                    t::chars(preview)
                ));
                t::unsaved_output(chars, &e.to_string(), preview)
            }
        }
    }

    /// A context text as the model gets it: itself when short enough, else saved and
    /// replaced by its `<persisted-output>` block.
    pub(crate) fn context(&mut self, text: &str) -> String {
        let chars = t::chars(text);
        if chars <= t::CONTEXT_INLINE_MAX {
            return text.to_owned();
        }
        self.block(&t::context_file_name(&fresh_id()), text, chars)
    }

    /// A PreToolUse blocking text as the model gets it: whole when short enough, else its
    /// start and end around the number of characters cut, then the saved text's block.
    pub(crate) fn pre_tool_blocking(&mut self, text: String, tool_use_id: &str) -> String {
        let chars = t::chars(&text);
        if chars <= t::BLOCKING_WHOLE_MAX {
            return text;
        }
        let head = &text[..t::byte_index(&text, t::BLOCKING_KEEP)];
        let tail = &text[t::byte_index_from_end(&text, t::BLOCKING_KEEP)..];
        let removed = chars - t::chars(head) - t::chars(tail);
        let name = t::blocking_file_name(&session_component(tool_use_id), &fresh_id());
        let block = self.block(&name, &text, chars);
        t::cut_blocking(head, removed, tail, &block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_replace_every_character_but_ascii_letters_and_digits() {
        assert_eq!(cwd_slug("/home/u/my.app"), "-home-u-my-app");
        assert_eq!(cwd_slug("/tmp/a_b c/Ü/x"), "-tmp-a-b-c---x");
        assert_eq!(cwd_slug("/t/\u{1F600}"), "-t---", "two UTF-16 units, two dashes");
        assert_eq!(session_component("../../etc"), "______etc");
        assert_eq!(session_component(""), "session");
    }
}
