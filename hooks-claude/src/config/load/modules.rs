//! A plugin's function hooks ("mods", the `modules` key of its hook file): in-process
//! JavaScript middleware, which cannot run here. Each entry is a warning that names the plugin
//! and the module, so that nobody takes its absence for a hook that ran; the plugin's command
//! hooks load as usual ([Plugins](crate::compatibility#plugins)).

use jsonc_parser::ast::Value as Ast;

use super::Walk;
use crate::config::settings::Plugin;

/// The keys an object entry may name its module by, in the order they are looked for.
const NAME_KEYS: [&str; 4] = ["path", "module", "src", "name"];

/// Reports every entry of a plugin hook file's `modules` value.
pub(super) fn function_modules(w: &mut Walk<'_>, value: &Ast<'_>, plugin: &Plugin) {
    let plugin = &plugin.name;
    let entries: Vec<&Ast<'_>> = match value {
        Ast::Array(a) => a.elements.iter().collect(),
        Ast::Object(o) => o.properties.iter().map(|p| &p.value).collect(),
        Ast::StringLit(_) => vec![value],
        v => {
            w.sink.warning(
                w.pos(v),
                format!(
                    "plugin `{plugin}`: `modules` must be a list of function-hook modules; \
                     it is ignored (the plugin's command hooks still load)"
                ),
            );
            return;
        }
    };
    for entry in entries {
        let name = match entry {
            Ast::StringLit(s) => Some(s.value.to_string()),
            Ast::Object(o) => NAME_KEYS.iter().find_map(|k| match o.get(k).map(|p| &p.value) {
                Some(Ast::StringLit(s)) => Some(s.value.to_string()),
                _ => None,
            }),
            _ => None,
        };
        let message = match name {
            Some(name) => format!(
                "plugin `{plugin}`: function-hook module `{name}` is not run (in-process \
                 JavaScript runs only inside Claude Code); the plugin's command hooks still run"
            ),
            None => format!(
                "plugin `{plugin}`: a `modules` entry must be a module path or an object with \
                 `path`; it is ignored (the plugin's command hooks still load)"
            ),
        };
        w.sink.warning(w.pos(entry), message);
    }
}
