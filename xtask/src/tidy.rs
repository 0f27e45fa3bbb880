//! Repository policies, checked as tests (`cargo test -p xtask`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::root;

const CRATES: &[&str] =
    &["hook-protocol", "hooks-claude", "hooks-tnsai", "hooks-native", "hooks-cli", "xtask"];

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == "target" || name.starts_with('.') && name != ".claude" {
            continue;
        }
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn tracked_sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for krate in CRATES {
        files_under(&root().join(krate), &mut out);
    }
    out
}

#[test]
fn every_crate_inherits_the_workspace_settings() {
    for krate in CRATES {
        let manifest = fs::read_to_string(root().join(krate).join("Cargo.toml")).unwrap();
        for line in [
            "[lints]\nworkspace = true",
            "edition.workspace = true",
            "rust-version.workspace = true",
        ] {
            assert!(manifest.contains(line), "{krate}/Cargo.toml lacks `{line}`");
        }
    }
}

#[test]
fn every_library_has_crate_docs() {
    for krate in CRATES {
        for entry in ["src/lib.rs", "src/main.rs"] {
            let path = root().join(krate).join(entry);
            if let Ok(text) = fs::read_to_string(&path) {
                assert!(
                    text.starts_with("//!"),
                    "{} does not start with `//!` crate docs",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn no_pending_snapshots() {
    let pending: Vec<_> = tracked_sources()
        .into_iter()
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".snap.new") || name.ends_with(".pending-snap")
        })
        .collect();
    assert!(pending.is_empty(), "review these snapshots (cargo insta review): {pending:?}");
}

#[test]
fn sources_have_no_trailing_whitespace_and_end_with_a_newline() {
    for path in tracked_sources() {
        let is_text = path.extension().is_some_and(|e| e == "rs" || e == "toml" || e == "md");
        if !is_text {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        if text.is_empty() {
            continue;
        }
        assert!(text.ends_with('\n'), "{} does not end with a newline", path.display());
        for (i, line) in text.lines().enumerate() {
            assert!(
                !line.ends_with(' ') && !line.ends_with('\t'),
                "{}:{}: trailing whitespace",
                path.display(),
                i + 1
            );
        }
    }
}

#[test]
fn architecture_names_every_crate() {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    for krate in CRATES {
        assert!(
            text.contains(&format!("## `{krate}`")),
            "ARCHITECTURE.md has no section for `{krate}`"
        );
    }
}
