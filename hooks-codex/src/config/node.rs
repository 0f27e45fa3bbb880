//! A configuration document as a tree of values that know where they are: `hooks.json` and a
//! `config.toml`'s `[hooks]` tables become the same tree, so that one reader checks both and
//! every problem is reported at its line and column.

use hook_protocol::{LineIndex, Position};
use jsonc_parser::ast::Value as Ast;
use jsonc_parser::common::Ranged;
use serde_json::Value;

/// One value of a document, with its position.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) at: Position,
    pub(crate) value: Shape,
}

/// What a value is.
#[derive(Debug, Clone)]
pub(crate) enum Shape {
    /// A string.
    Text(String),
    /// A number, as JSON holds it.
    Number(Value),
    /// `true` or `false`.
    Bool(bool),
    /// A list.
    List(Vec<Node>),
    /// A table or object: each key with its position, then its value.
    Table(Vec<(String, Position, Node)>),
    /// `null`, or a TOML date.
    Other,
}

impl Node {
    /// What the value is, for messages (`a string`, `a number`, ...).
    pub(crate) fn kind(&self) -> &'static str {
        match &self.value {
            Shape::Text(_) => "a string",
            Shape::Number(_) => "a number",
            Shape::Bool(_) => "a boolean",
            Shape::List(_) => "a list",
            Shape::Table(_) => "a table",
            Shape::Other => "null",
        }
    }
}

/// The tree of a JSON document's AST.
pub(crate) fn from_json(ast: &Ast<'_>, idx: &LineIndex<'_>) -> Node {
    let at = idx.position(ast.range().start);
    let value = match ast {
        Ast::StringLit(s) => Shape::Text(s.value.to_string()),
        Ast::NumberLit(n) => {
            Shape::Number(serde_json::from_str(n.value).unwrap_or(Value::String(n.value.into())))
        }
        Ast::BooleanLit(b) => Shape::Bool(b.value),
        Ast::Array(a) => Shape::List(a.elements.iter().map(|e| from_json(e, idx)).collect()),
        Ast::Object(o) => Shape::Table(
            o.properties
                .iter()
                .map(|p| {
                    let key_at = idx.position(p.name.range().start);
                    (p.name.as_str().to_owned(), key_at, from_json(&p.value, idx))
                })
                .collect(),
        ),
        Ast::NullKeyword(_) => Shape::Other,
    };
    Node { at, value }
}

/// The tree of a TOML document (parsed with spans).
pub(crate) fn from_toml(value: &toml::de::DeValue<'_>, start: usize, idx: &LineIndex<'_>) -> Node {
    use toml::de::DeValue;
    let at = idx.position(start);
    let value = match value {
        DeValue::String(s) => Shape::Text(s.to_string()),
        DeValue::Integer(i) => Shape::Number(
            i64::from_str_radix(&i.as_str().replace('_', ""), i.radix())
                .map_or_else(|_| Value::String(i.as_str().to_owned()), Value::from),
        ),
        DeValue::Float(f) => Shape::Number(
            f.as_str()
                .replace('_', "")
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or(Value::Null, Value::Number),
        ),
        DeValue::Boolean(b) => Shape::Bool(*b),
        DeValue::Array(items) => {
            Shape::List(items.iter().map(|v| from_toml(v.get_ref(), v.span().start, idx)).collect())
        }
        DeValue::Table(table) => Shape::Table(
            table
                .iter()
                .map(|(k, v)| {
                    let key_at = idx.position(k.span().start);
                    (k.get_ref().to_string(), key_at, from_toml(v.get_ref(), v.span().start, idx))
                })
                .collect(),
        ),
        DeValue::Datetime(_) => Shape::Other,
    };
    Node { at, value }
}
