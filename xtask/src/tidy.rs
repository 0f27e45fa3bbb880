//! Repository policies, checked as tests (`cargo test -p xtask`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::root;

mod layers;

/// Every crate the policies hold: the published ones, and this one.
fn crates() -> impl Iterator<Item = &'static str> {
    crate::package::PUBLISHED.iter().copied().chain(["xtask"])
}

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
    for krate in crates() {
        files_under(&root().join(krate), &mut out);
    }
    out
}

#[test]
fn every_crate_inherits_the_workspace_settings() {
    for krate in crates() {
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
    for krate in crates() {
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
    for krate in crates() {
        assert!(
            text.contains(&format!("### `{krate}`")),
            "ARCHITECTURE.md has no section for `{krate}`"
        );
    }
}

/// Every text file of the repository a user reads: the crates, the docs, the examples, the fuzz
/// targets, CI and the top-level documents.
fn repository_texts() -> Vec<PathBuf> {
    let mut out = tracked_sources();
    for dir in ["docs", "examples", "fuzz", ".ci"] {
        files_under(&root().join(dir), &mut out);
    }
    for file in ["README.md", "ARCHITECTURE.md", "CHANGELOG.md", "Cargo.toml"] {
        let path = root().join(file);
        if path.exists() {
            out.push(path);
        }
    }
    // This file names what the checks below look for.
    out.retain(|p| !p.ends_with("xtask/src/tidy.rs") && fs::read_to_string(p).is_ok());
    out
}

/// The anchor GitHub and rustdoc both give a Markdown heading: lower case, spaces as `-`, other
/// punctuation dropped.
fn heading_anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The compatibility references of the dialects that have one: the crate, and its document.
const REFERENCES: &[(&str, &str)] = &[
    ("hooks-claude", "docs/claude-code.md"),
    ("hooks-codex", "docs/codex.md"),
    ("hooks-copilot", "docs/copilot.md"),
    ("hooks-cursor", "docs/cursor.md"),
    ("hooks-gemini", "docs/gemini.md"),
];

/// The reference a file's `compatibility#` links point into: its crate's, else Claude Code's.
fn reference_of(path: &Path) -> &'static str {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    REFERENCES
        .iter()
        .find(|(krate, _)| relative.starts_with(krate))
        .map_or("docs/claude-code.md", |(_, doc)| doc)
}

fn compatibility_anchors(doc: &str) -> Vec<String> {
    let text = fs::read_to_string(root().join(doc)).unwrap();
    let mut in_code = false;
    let mut anchors = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            anchors.push(heading_anchor(line.trim_start_matches('#')));
        }
    }
    anchors
}

#[test]
fn nothing_cites_sections_of_an_outside_reference() {
    for path in repository_texts() {
        let text = fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            for banned in ["§", "../shared", "shared/spec", "the spec "] {
                assert!(
                    !line.contains(banned),
                    "{}:{}: `{banned}` cites a document outside the repository; link a section \
                     of docs/claude-code.md instead",
                    path.display(),
                    i + 1
                );
            }
        }
    }
}

#[test]
fn links_into_the_compatibility_reference_name_its_sections() {
    let mut seen = std::collections::BTreeSet::new();
    for path in repository_texts() {
        let text = fs::read_to_string(&path).unwrap();
        let own_doc = REFERENCES.iter().find(|(_, doc)| path.ends_with(doc)).map(|(_, doc)| *doc);
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(at) = [
                "compatibility#",
                "claude-code.md#",
                "codex.md#",
                "copilot.md#",
                "cursor.md#",
                "gemini.md#",
                "](#",
            ]
            .iter()
            .filter_map(|m| rest.find(m).map(|at| (at, m.len())))
            .min()
            {
                let (at, len) = at;
                let marker = &rest[at..at + len];
                let tail = &rest[at + len..];
                let end = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                    .unwrap_or(tail.len());
                let anchor = &tail[..end];
                let doc = match marker {
                    "](#" => own_doc,
                    "claude-code.md#" => Some("docs/claude-code.md"),
                    "codex.md#" => Some("docs/codex.md"),
                    "copilot.md#" => Some("docs/copilot.md"),
                    "cursor.md#" => Some("docs/cursor.md"),
                    "gemini.md#" => Some("docs/gemini.md"),
                    _ => Some(reference_of(&path)),
                };
                if let Some(doc) = doc {
                    assert!(
                        compatibility_anchors(doc).iter().any(|a| a == anchor),
                        "{}:{}: `#{anchor}` is not a section of {doc}",
                        path.display(),
                        i + 1
                    );
                    seen.insert(anchor.to_owned());
                }
                rest = &tail[end..];
            }
        }
    }
    assert!(!seen.is_empty(), "no link into a compatibility reference was found");
}

#[test]
fn each_crate_includes_its_compatibility_reference_itself() {
    for (krate, doc) in REFERENCES {
        let name = Path::new(doc).file_name().unwrap();
        let crate_copy = root().join(krate).join("docs").join(name);
        let link = fs::read_link(&crate_copy)
            .unwrap_or_else(|_| panic!("{} is a symlink", crate_copy.display()));
        assert_eq!(link, Path::new("../..").join(doc));
        let lib = fs::read_to_string(root().join(krate).join("src/lib.rs")).unwrap();
        let include = format!(r#"include_str!("../docs/{}")"#, name.to_string_lossy());
        assert!(lib.contains(&include), "{krate}/src/lib.rs does not include {doc}");
    }
}

#[test]
fn published_crates_are_ready_for_crates_io() {
    let workspace = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for key in ["repository = ", "readme = ", "keywords = ", "categories = ", "license = "] {
        assert!(workspace.contains(key), "Cargo.toml's [workspace.package] lacks `{key}`");
    }
    for line in workspace.lines().filter(|l| l.contains("{ path = ")) {
        assert!(line.contains("version = "), "a path dependency needs a version: `{line}`");
    }
    for krate in crate::package::PUBLISHED {
        let dir = root().join(krate);
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        for key in ["description = ", "repository", "readme", "keywords", "categories"] {
            assert!(manifest.contains(key), "{krate}/Cargo.toml lacks `{key}`");
        }
        assert!(!manifest.contains("publish = false"), "{krate} must be publishable");
        for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
            assert!(dir.join(licence).is_file(), "{krate}/{licence} is missing");
        }
    }
    let changelog = fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    assert!(changelog.contains("## [Unreleased]"), "CHANGELOG.md follows Keep a Changelog");
}

/// The workspace crates a manifest names in any of its dependency tables (normal, dev and
/// build alike), each with the line it is on.
fn workspace_dependencies(krate: &str) -> Vec<(String, usize)> {
    let manifest = fs::read_to_string(root().join(krate).join("Cargo.toml")).unwrap();
    let mut in_dependencies = false;
    let mut out = Vec::new();
    for (i, line) in manifest.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line.trim_matches(['[', ']']).ends_with("dependencies");
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
        if in_dependencies && (name.starts_with("hook-") || name.starts_with("hooks-")) {
            out.push((name.to_owned(), i + 1));
        }
    }
    out
}

/// The layering of the crates: the model depends on no workspace crate, the process engine only
/// on the model, a dialect on those two and never on another dialect (not even for its tests),
/// so that no circle can form. What uses several dialects is a crate of its own.
#[test]
fn dialects_depend_on_the_core_and_never_on_each_other() {
    let allowed: &[(&str, &[&str])] = &[
        ("hook-protocol", &[]),
        ("hook-exec", &["hook-protocol"]),
        ("hook-kit", &["hook-protocol", "hook-exec"]),
        ("hooks-native", &["hook-protocol"]),
    ];
    for krate in crates().filter(|k| k.starts_with("hook")) {
        let deps = workspace_dependencies(krate);
        let rule = allowed.iter().find(|(k, _)| *k == krate).map(|(_, a)| *a);
        for (dep, line) in deps {
            let ok = match rule {
                Some(allowed) => allowed.contains(&dep.as_str()),
                // Every other `hooks-*` crate but the CLI and the mixed run (every dialect on
                // one seam) is a dialect.
                None if matches!(krate, "hooks-cli" | "hooks-mixed") => true,
                None => matches!(dep.as_str(), "hook-protocol" | "hook-exec" | "hook-kit"),
            };
            assert!(
                ok,
                "{krate}/Cargo.toml:{line}: `{krate}` may not depend on `{dep}` (the core never \
                 names a dialect; a dialect depends on the core and the engine only)"
            );
        }
    }
}
