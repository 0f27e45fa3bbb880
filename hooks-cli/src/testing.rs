//! `hooks test`: a hook author's own cases run through the hooks, `ok` or `FAIL` (with a diff)
//! per case and `N passed, N failed` at the end; `--update` rewrites the expectations from what
//! the hooks now do, as a snapshot test would.

use std::path::Path;

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use crate::cases::{CaseFile, Expect};
use crate::cli::TestArgs;
use crate::dialects;
use crate::document::RunDocument;
use crate::error::{CliError, cli_error};
use crate::output;

/// What the hooks did, as the expectations `--update` writes: the decision, the reason when
/// there is one, every context, `continue` when a hook halted, the rewrite when there is one,
/// and what Claude Code shows (Claude Code hooks only).
fn observed(doc: &RunDocument) -> Expect {
    Expect {
        decision: Some(doc.decision),
        reason: doc.reason.clone(),
        context: Some(doc.additional_context.clone()),
        continue_: (!doc.continue_).then_some(false),
        updated_input: doc.updated_input.clone(),
        shown: doc.shown.as_ref().and_then(|s| serde_json::to_value(s).ok()),
    }
}

/// One expectation that did not hold: its name and the lines that show how.
struct Mismatch {
    what: String,
    lines: Vec<String>,
}

/// `-` lines for what was expected, `+` for what happened, unchanged lines as context.
fn diff(expected: &str, actual: &str) -> Vec<String> {
    let (expected, actual) = (format!("{expected}\n"), format!("{actual}\n"));
    TextDiff::from_lines(&expected, &actual)
        .iter_all_changes()
        .map(|c| {
            let sign = match c.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            format!("{sign} {}", c.value().trim_end_matches('\n'))
        })
        .collect()
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// What Claude Code shows, one text per block: where it goes, then the text.
fn shown_text(v: &Value) -> String {
    let mut out = Vec::new();
    let empty = Vec::new();
    for m in v.get("model").and_then(Value::as_array).unwrap_or(&empty) {
        let placement = m.get("placement").and_then(Value::as_str).unwrap_or("?");
        let error =
            if m.get("is_error").and_then(Value::as_bool) == Some(true) { " (error)" } else { "" };
        out.push(format!("model, {placement}{error}:"));
        for line in m.get("text").and_then(Value::as_str).unwrap_or_default().lines() {
            out.push(format!("  {line}"));
        }
    }
    for u in v.get("user").and_then(Value::as_array).unwrap_or(&empty) {
        out.push("user:".to_owned());
        for line in u.as_str().unwrap_or_default().lines() {
            out.push(format!("  {line}"));
        }
    }
    if out.is_empty() {
        out.push("(nothing)".to_owned());
    }
    out.join("\n")
}

fn check(expect: &Expect, doc: &RunDocument) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if let Some(d) = expect.decision
        && d != doc.decision
    {
        out.push(Mismatch {
            what: "decision".into(),
            lines: diff(d.as_str(), doc.decision.as_str()),
        });
    }
    if let Some(r) = &expect.reason {
        let actual = doc.reason.as_deref();
        if !actual.is_some_and(|a| a.contains(r.as_str())) {
            out.push(Mismatch {
                what: format!(
                    "reason does not contain {}",
                    serde_json::to_string(r).unwrap_or_default()
                ),
                lines: vec![format!(
                    "+ {}",
                    actual.map_or("(no reason)".to_owned(), |a| a.replace('\n', "\\n"))
                )],
            });
        }
    }
    if let Some(context) = &expect.context {
        let actual = &doc.additional_context;
        let holds = context.len() == actual.len()
            && context.iter().zip(actual).all(|(e, a)| a.contains(e.as_str()));
        if !holds {
            out.push(Mismatch {
                what: format!(
                    "context ({} expected, each contained in the context at its place; {} given)",
                    context.len(),
                    actual.len()
                ),
                lines: diff(&context.join("\n"), &actual.join("\n")),
            });
        }
    }
    if let Some(c) = expect.continue_
        && c != doc.continue_
    {
        out.push(Mismatch {
            what: "continue".into(),
            lines: diff(&c.to_string(), &doc.continue_.to_string()),
        });
    }
    if let Some(u) = &expect.updated_input {
        let actual = doc.updated_input.clone().unwrap_or(Value::Null);
        if *u != actual {
            out.push(Mismatch {
                what: "updated_input".into(),
                lines: diff(&pretty(u), &pretty(&actual)),
            });
        }
    }
    if let Some(s) = &expect.shown {
        let actual =
            doc.shown.as_ref().and_then(|s| serde_json::to_value(s).ok()).unwrap_or(Value::Null);
        if *s != actual {
            out.push(Mismatch {
                what: "shown".into(),
                lines: diff(&shown_text(s), &shown_text(&actual)),
            });
        }
    }
    out
}

/// Runs `hooks test`; exit status 0 when every case passes (or after `--update`), 1 otherwise.
pub(crate) fn run(
    args: &TestArgs,
    verbose: bool,
    runtime: &tokio::runtime::Runtime,
) -> Result<u8, CliError> {
    let file = CaseFile::read(&args.file)?;
    let mut sources = args.sources.clone();
    if sources.project_dir.is_none() && sources.settings.is_empty() && sources.plugins.is_empty() {
        // The cases sit in the project they test.
        let dir =
            args.file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        sources.project_dir = Some(dir.to_path_buf());
    }
    let hooks = dialects::load(&sources, verbose)?;
    crate::contain::setup(&args.contain, verbose);
    let mut signals = crate::contain::Signals::new(runtime)?;
    let shown_name = args.file.display().to_string();
    let (mut passed, mut failed) = (0, 0);
    let mut actual = Vec::with_capacity(file.cases.len());
    for case in &file.cases {
        let result = match signals.run(runtime, hooks.run(&case.event, case.input.clone())) {
            Ok(result) => result.map_err(|e| dialects::say(&e)),
            Err(interrupted) => return Ok(interrupted.status()),
        };
        let doc = match result {
            Ok(run) => RunDocument::of(run, sources.dialect == "all"),
            Err(e) => {
                if args.update {
                    return Err(cli_error!("{shown_name}: case `{}`: {e}", case.name));
                }
                output::outln!("FAIL  {}", case.name);
                output::outln!("      {shown_name}:{}: {e}", case.line);
                failed += 1;
                actual.push(Expect::default());
                continue;
            }
        };
        actual.push(observed(&doc));
        if args.update {
            continue;
        }
        let mismatches = check(&case.expect, &doc);
        if mismatches.is_empty() {
            output::outln!("ok    {}", case.name);
            passed += 1;
        } else {
            output::outln!("FAIL  {}", case.name);
            for m in mismatches {
                output::outln!("      {}", m.what);
                for line in m.lines {
                    output::outln!("        {line}");
                }
            }
            failed += 1;
        }
    }
    if args.update {
        let text = file.updated(&actual);
        std::fs::write(&file.path, text).map_err(|e| {
            cli_error!("cannot write `{shown_name}`: {}", hook_protocol::os_error_text(&e))
        })?;
        let n = file.cases.len();
        output::outln!("updated {n} case{} in {shown_name}", if n == 1 { "" } else { "s" });
        return Ok(0);
    }
    output::outln!("{passed} passed, {failed} failed");
    Ok(u8::from(failed > 0))
}
