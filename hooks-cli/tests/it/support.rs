//! Running the `hooks` binary and preparing example projects.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run of `hooks` produced.
#[derive(Debug)]
pub(crate) struct Out {
    pub(crate) status: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `hooks ARGS` in `cwd`, feeding `stdin`.
pub(crate) fn hooks(args: &[&str], cwd: &Path, stdin: Option<&str>) -> Out {
    hooks_with_env(args, cwd, stdin, &[])
}

/// [`hooks`] with more environment variables.
pub(crate) fn hooks_with_env(
    args: &[&str],
    cwd: &Path,
    stdin: Option<&str>,
    env: &[(&str, &Path)],
) -> Out {
    #[expect(clippy::disallowed_methods, reason = "the tests drive the hooks binary itself")]
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hooks"));
    // The test's own variables come last: they may set `HOME`.
    cmd.env("HOME", home()).envs(env.iter().copied());
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // A command that stops before reading its input (a usage error) closes the pipe first.
    if let Err(e) = pipe.write_all(stdin.unwrap_or("").as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    Out {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The home directory the tests give `hooks`: empty, so that no user settings are found and
/// long texts are saved under it, never in the real `~/.claude`.
pub(crate) fn home() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hooks-cli-it-home-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// The repository's root.
pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

/// A fresh copy of a directory of the repository, under its own name in a temporary directory
/// (outside any git checkout, so hooks that ask git see no repository).
pub(crate) struct Copy {
    _tmp: tempfile::TempDir,
    path: PathBuf,
}

impl Copy {
    /// The copy.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// Copies `relative` (a directory of the repository).
pub(crate) fn copy_of(relative: &str) -> Copy {
    let tmp = tempfile::tempdir().unwrap();
    let from = repo().join(relative);
    let path = tmp.path().join(from.file_name().unwrap());
    copy_dir(&from, &path);
    Copy { _tmp: tmp, path }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Snapshot settings (insta filters) that replace every duration (`12 ms`,
/// `"duration_ms":12`), so that output can be snapshotted; `paths` are replaced too, each by
/// its name.
pub(crate) fn snapshots(paths: &[(&str, &str)]) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    // The padding before a right-aligned duration depends on its digits: it goes too.
    settings.add_filter(r" *\b\d+ ms\b", " [t] ms");
    settings.add_filter(r#""duration_ms":(\s*)\d+"#, r#""duration_ms":${1}"[t]""#);
    for (path, name) in paths {
        settings.add_filter(&regex::escape(path), *name);
    }
    settings
}

/// The JSON documents of a `--format json` output, one per line.
pub(crate) fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}
