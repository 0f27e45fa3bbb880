//! The positioned JSON reader: a hook file parsed strictly, as the agents parse theirs, into a
//! syntax tree whose every value knows its line and column, and the [`Sink`] its problems go to.

use std::path::Path;

use hook_protocol::{Diagnostic, LineIndex, Position, Skipped, skipping};

use crate::EventTable;
use jsonc_parser::ast::Value as Ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, ParseResult, parse_to_ast};

/// Where one file's problems go, and where its values are.
#[derive(Debug)]
pub struct Sink<'a> {
    file: &'a Path,
    idx: Option<LineIndex<'a>>,
    out: &'a mut Vec<Diagnostic>,
}

impl<'a> Sink<'a> {
    /// The sink of `file`, whose text is `text`, pushing to `out`.
    pub fn new(file: &'a Path, text: &'a str, out: &'a mut Vec<Diagnostic>) -> Self {
        Self { file, idx: Some(LineIndex::new(text)), out }
    }

    /// The sink of `file` for a reader whose values carry their own positions (a tree read
    /// earlier): [`Sink::at`] and [`Sink::position`] give an unknown position.
    pub fn without_text(file: &'a Path, out: &'a mut Vec<Diagnostic>) -> Self {
        Self { file, idx: None, out }
    }

    /// The file.
    pub fn file(&self) -> &Path {
        self.file
    }

    /// Where a node of the text starts.
    pub fn at(&self, node: &impl Ranged) -> Position {
        self.position(node.range().start)
    }

    /// Where byte `offset` of the text is.
    pub fn position(&self, offset: usize) -> Position {
        self.idx.as_ref().map_or_else(Position::default, |idx| idx.position(offset))
    }

    /// An error at `at`: something did not register.
    pub fn error(&mut self, at: Position, message: impl Into<hook_protocol::Problem>) {
        self.out.push(Diagnostic::error(self.file, at, message));
    }

    /// A warning at `at`: worth knowing, and everything still works.
    pub fn warning(&mut self, at: Position, message: impl Into<hook_protocol::Problem>) {
        self.out.push(Diagnostic::warning(self.file, at, message));
    }

    /// A warning at `at` that made the reader skip `skipped`, said in the dialect's `words`
    /// ("its hooks are skipped").
    pub fn skip(&mut self, at: Position, message: String, skipped: Skipped, words: &str) {
        self.warning(at, skipping(message, skipped, words));
    }
}

/// What a JSON value is, for messages: `a string`, `a number`, `a boolean`, `a list`,
/// `an object`, `null`.
pub fn kind(value: &Ast<'_>) -> &'static str {
    match value {
        Ast::StringLit(_) => "a string",
        Ast::NumberLit(_) => "a number",
        Ast::BooleanLit(_) => "a boolean",
        Ast::Array(_) => "a list",
        Ast::Object(_) => "an object",
        Ast::NullKeyword(_) => "null",
    }
}

/// The JSON text of a small value, for messages: a string's contents, a number or boolean as
/// written, else its [`kind`].
pub fn text_of(value: &Ast<'_>) -> String {
    match value {
        Ast::StringLit(s) => s.value.to_string(),
        Ast::NumberLit(n) => n.value.to_owned(),
        Ast::BooleanLit(b) => b.value.to_string(),
        other => kind(other).to_owned(),
    }
}

/// JSON as the agents' parsers take it: no comments, no trailing commas, nothing JSON5 adds.
pub fn strict() -> ParseOptions {
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A hook file's text as strict JSON, its syntax tree with positions; `None` after an error in
/// `sink` (`invalid JSON: …; no hook from this file runs`, at the line and column the strict
/// parser stopped at) when it is not JSON.
pub fn parse<'t>(text: &'t str, sink: &mut Sink<'_>) -> Option<ParseResult<'t>> {
    if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        sink.error(
            Position::new(e.line(), e.column()),
            format!("invalid JSON: {message}; no hook from this file runs"),
        );
        return None;
    }
    match parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default()) {
        Ok(parsed) => Some(parsed),
        Err(e) => {
            let at = sink.position(e.range().start);
            sink.error(at, format!("invalid JSON: {}; no hook from this file runs", e.kind()));
            None
        }
    }
}

/// Each hook of a flat `{"event": [hook, …]}` object, in order, given to `each` with its event
/// and its index in the event's list. An event the agent does not have is a warning (`unknown
/// {WHAT} `name``, with a hint when it nearly spells one; its hooks skipped); a value that is not
/// a list is an error.
pub fn each_hook<'t, E: EventTable>(
    sink: &mut Sink<'_>,
    events: &jsonc_parser::ast::Object<'t>,
    mut each: impl FnMut(&mut Sink<'_>, E, usize, &Ast<'t>),
) {
    for prop in &events.properties {
        let name = prop.name.as_str();
        let Some(event) = E::all().iter().copied().find(|e| e.as_str() == name) else {
            let hint = match E::near(name) {
                Some(e) => format!(" (did you mean `{e}`? {})", E::SPELLING),
                None if E::SPELLING_ALWAYS => format!(" ({})", E::SPELLING),
                None => String::new(),
            };
            let at = sink.at(&prop.name);
            let what = E::WHAT;
            let problem = format!("unknown {what} `{name}`{hint}");
            sink.warning(at, skipping(problem, Skipped::Event, "its hooks are skipped"));
            continue;
        };
        let Ast::Array(list) = &prop.value else {
            let at = sink.at(&prop.value);
            let found = kind(&prop.value);
            sink.error(at, format!("`{name}` must be a list of hooks, found {found}"));
            continue;
        };
        for (index, node) in list.elements.iter().enumerate() {
            each(sink, event, index, node);
        }
    }
}

/// The top-level object of a parsed file; `None` after an error in `sink` when it is another
/// value.
pub fn root<'p, 't>(
    parsed: &'p ParseResult<'t>,
    sink: &mut Sink<'_>,
) -> Option<&'p jsonc_parser::ast::Object<'t>> {
    if let Some(Ast::Object(root)) = &parsed.value {
        return Some(root);
    }
    sink.error(
        Position::new(1, 1),
        "expected a JSON object at the top level; no hook from this file runs",
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (bool, Vec<String>) {
        let mut out = Vec::new();
        let path = Path::new("/p/hooks.json");
        let mut sink = Sink::new(path, text, &mut out);
        let ok = parse(text, &mut sink).is_some_and(|p| root(&p, &mut sink).is_some());
        (ok, out.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn strict_json_is_read_and_anything_else_is_an_error_at_its_place() {
        assert_eq!(read("{\"hooks\": {}}"), (true, vec![]));
        let (ok, problems) = read("{\n  \"hooks\": {},\n}");
        assert!(!ok);
        assert_eq!(
            problems,
            ["/p/hooks.json:3:1: error: invalid JSON: trailing comma; no hook from this file runs"]
        );
        let (ok, problems) = read("[1]");
        assert!(!ok);
        assert_eq!(
            problems,
            [
                "/p/hooks.json:1:1: error: expected a JSON object at the top level; no hook from this file runs"
            ]
        );
    }

    #[test]
    fn values_know_their_kind_and_text() {
        let text = "{\"a\": [1, \"x\", true, null, {}]}";
        let parsed =
            parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default()).unwrap();
        let Some(Ast::Object(root)) = &parsed.value else { panic!("an object") };
        let Some(Ast::Array(list)) = root.get("a").map(|p| &p.value) else { panic!("a list") };
        let kinds: Vec<_> = list.elements.iter().map(kind).collect();
        assert_eq!(kinds, ["a number", "a string", "a boolean", "null", "an object"]);
        let texts: Vec<_> = list.elements.iter().map(text_of).collect();
        assert_eq!(texts, ["1", "x", "true", "null", "an object"]);
    }
}
