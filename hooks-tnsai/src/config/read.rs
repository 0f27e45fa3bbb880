//! Reading a hook list's node tree, key by key, collecting every problem.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use hook_protocol::FailurePolicy;
use hook_protocol::Scrub;
use serde_saphyr::Spanned;

use super::error::{HookRef, ListError, ListErrorKind};
use hook_protocol::Position;

use super::node::{Node, position_of};
use crate::hook::env_name_problem;
use crate::{EventSelector, ScriptHook, ScriptHookBuilder, TrustRoots, compile_matcher};

/// What a hook list's top level holds, read.
pub(crate) struct Document {
    pub(crate) roots: Vec<PathBuf>,
    pub(crate) tnsai_version: Option<String>,
    pub(crate) hooks: Vec<ScriptHook>,
}

/// Collects problems about one file.
pub(crate) struct Reader<'a> {
    file: &'a Path,
    base: &'a Path,
    /// The credential scrub every hook gets: the caller's, plus the file's `scrub_credentials`.
    pub(crate) scrub: Option<Scrub>,
    pub(crate) errors: Vec<ListError>,
}

/// One hook entry's values, each with the position of its value.
#[derive(Default)]
struct Entry {
    id: Option<(String, Position)>,
    name: Option<String>,
    event_type: Option<String>,
    matcher: Option<(String, Position)>,
    priority: Option<i32>,
    executable: Option<(String, Position)>,
    timeout_ms: Option<u64>,
    on_failure: Option<FailurePolicy>,
    env: BTreeMap<String, (String, Position)>,
    /// Whether the entry had no error so far.
    complete: bool,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(file: &'a Path, base: &'a Path, scrub: Option<Scrub>) -> Self {
        Self { file, base, scrub, errors: Vec::new() }
    }

    fn error(
        &mut self,
        at: Position,
        hook: Option<&HookRef>,
        key: Option<String>,
        kind: ListErrorKind,
    ) {
        let mut e = ListError::new(self.file, Some(at), kind);
        e.hook = hook.cloned();
        e.key = key;
        self.errors.push(e);
    }

    fn wrong(
        &mut self,
        node: &Spanned<Node>,
        hook: Option<&HookRef>,
        key: &str,
        expected: &'static str,
    ) {
        let kind = ListErrorKind::WrongType { expected, found: node.value.kind() };
        self.error(position_of(node), hook, Some(key.to_owned()), kind);
    }

    fn invalid(
        &mut self,
        at: Position,
        hook: Option<&HookRef>,
        key: &str,
        message: impl Into<String>,
    ) {
        let kind = ListErrorKind::InvalidValue { message: message.into() };
        self.error(at, hook, Some(key.to_owned()), kind);
    }

    /// A string value; null counts as absent for optional keys.
    fn string(
        &mut self,
        node: &Spanned<Node>,
        hook: Option<&HookRef>,
        key: &str,
    ) -> Option<String> {
        match &node.value {
            Node::Str(s) => Some(s.clone()),
            _ => {
                self.wrong(node, hook, key, "a string");
                None
            }
        }
    }

    /// A string that must not be empty.
    fn non_empty(
        &mut self,
        node: &Spanned<Node>,
        hook: Option<&HookRef>,
        key: &str,
    ) -> Option<String> {
        let s = self.string(node, hook, key)?;
        if s.trim().is_empty() {
            self.invalid(position_of(node), hook, key, "must not be empty");
            return None;
        }
        Some(s)
    }

    pub(crate) fn document(&mut self, root: &Spanned<Node>) -> Document {
        let mut doc = Document { roots: Vec::new(), tnsai_version: None, hooks: Vec::new() };
        let Node::Map(entries) = &root.value else {
            let kind = ListErrorKind::NotAMapping { found: root.value.kind() };
            self.error(position_of(root), None, None, kind);
            return doc;
        };
        let mut hooks_node = None;
        let mut seen_roots = false;
        for (key, value) in entries {
            match key.value.as_str() {
                "trusted_roots" => {
                    seen_roots = true;
                    doc.roots = self.roots(value);
                }
                "hooks" => hooks_node = Some(value),
                "tnsai_version" => {
                    doc.tnsai_version = self.non_empty(value, None, "tnsai_version");
                }
                "scrub_credentials" => self.scrub_key(value),
                other => {
                    self.error(
                        position_of(key),
                        None,
                        Some(other.to_owned()),
                        ListErrorKind::UnknownKey,
                    );
                }
            }
        }
        for (seen, key) in [(seen_roots, "trusted_roots"), (hooks_node.is_some(), "hooks")] {
            if !seen {
                self.error(
                    position_of(root),
                    None,
                    Some(key.to_owned()),
                    ListErrorKind::MissingKey,
                );
            }
        }
        if let Some(node) = hooks_node {
            let roots = TrustRoots::new(&doc.roots).unwrap_or_default();
            doc.hooks = self.hooks(node, &roots, doc.tnsai_version.as_deref());
        }
        doc
    }

    /// `scrub_credentials`: `true`, `false`, null, or a sequence of extra names.
    fn scrub_key(&mut self, node: &Spanned<Node>) {
        const KEY: &str = "scrub_credentials";
        let extra = match &node.value {
            Node::Null | Node::Bool(false) => return,
            Node::Bool(true) => Vec::new(),
            Node::Seq(items) => {
                let mut names = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if let Some(name) = self.non_empty(item, None, &format!("{KEY}[{i}]")) {
                        names.push(name);
                    }
                }
                names
            }
            _ => return self.wrong(node, None, KEY, "true, false or a sequence of variable names"),
        };
        self.scrub = Some(self.scrub.take().unwrap_or_default().names(extra));
    }

    fn roots(&mut self, node: &Spanned<Node>) -> Vec<PathBuf> {
        let Node::Seq(items) = &node.value else {
            self.wrong(node, None, "trusted_roots", "a sequence of directories");
            return Vec::new();
        };
        let mut roots = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let key = format!("trusted_roots[{i}]");
            let Some(path) = self.non_empty(item, None, &key) else { continue };
            match TrustRoots::resolve_root(&normalize(&self.base.join(&path))) {
                Ok(root) => roots.push(root),
                Err(e) => self.error(position_of(item), None, Some(key), ListErrorKind::Trust(e)),
            }
        }
        roots
    }

    fn hooks(
        &mut self,
        node: &Spanned<Node>,
        roots: &TrustRoots,
        version: Option<&str>,
    ) -> Vec<ScriptHook> {
        let Node::Seq(items) = &node.value else {
            self.wrong(node, None, "hooks", "a sequence of hooks");
            return Vec::new();
        };
        let mut ids: HashMap<String, Position> = HashMap::new();
        let mut hooks = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let Some((entry, hook_ref)) = self.entry(index, item) else { continue };
            if let Some((id, at)) = &entry.id {
                if let Some(first) = ids.get(id) {
                    let kind = ListErrorKind::DuplicateId { first: *first };
                    self.error(*at, Some(&hook_ref), Some("id".to_owned()), kind);
                    continue;
                }
                ids.insert(id.clone(), *at);
            }
            if let Some(hook) = self.build(entry, &hook_ref, position_of(item), roots, version) {
                hooks.push(hook);
            }
        }
        hooks
    }

    /// Reads one entry's keys; `None` when it is not a mapping.
    fn entry(&mut self, index: usize, node: &Spanned<Node>) -> Option<(Entry, HookRef)> {
        let Node::Map(pairs) = &node.value else {
            let hook = HookRef { index, id: None };
            let kind = ListErrorKind::NotAMapping { found: node.value.kind() };
            self.error(position_of(node), Some(&hook), None, kind);
            return None;
        };
        let id = pairs.iter().find(|(k, _)| k.value == "id").and_then(|(_, v)| match &v.value {
            Node::Str(s) if !s.trim().is_empty() => Some(s.clone()),
            _ => None,
        });
        let hook = HookRef { index, id };
        let h = Some(&hook);
        let errors_before = self.errors.len();
        let mut e = Entry::default();
        for (key, value) in pairs {
            let at = position_of(value);
            let null = value.value == Node::Null;
            match key.value.as_str() {
                "id" => e.id = self.non_empty(value, h, "id").map(|s| (s, at)),
                "event_type" => e.event_type = self.non_empty(value, h, "event_type"),
                "executable" => {
                    e.executable = self.non_empty(value, h, "executable").map(|s| (s, at))
                }
                "name" if !null => e.name = self.string(value, h, "name"),
                "matcher" if !null => e.matcher = self.matcher(value, h),
                "priority" if !null => e.priority = self.priority(value, h),
                "timeout_ms" if !null => e.timeout_ms = self.timeout(value, h),
                "on_failure" if !null => e.on_failure = self.on_failure(value, h),
                "env" if !null => e.env = self.env(value, h),
                "name" | "matcher" | "priority" | "timeout_ms" | "on_failure" | "env" => {}
                other => {
                    let kind = ListErrorKind::UnknownKey;
                    self.error(position_of(key), h, Some(other.to_owned()), kind);
                }
            }
        }
        for (present, key) in [
            (pairs.iter().any(|(k, _)| k.value == "id"), "id"),
            (pairs.iter().any(|(k, _)| k.value == "event_type"), "event_type"),
            (pairs.iter().any(|(k, _)| k.value == "executable"), "executable"),
        ] {
            if !present {
                self.error(position_of(node), h, Some(key.to_owned()), ListErrorKind::MissingKey);
            }
        }
        e.complete = self.errors.len() == errors_before;
        Some((e, hook))
    }

    fn matcher(
        &mut self,
        node: &Spanned<Node>,
        hook: Option<&HookRef>,
    ) -> Option<(String, Position)> {
        let source = self.string(node, hook, "matcher")?;
        match compile_matcher(Some(&source)) {
            Ok(_) => Some((source, position_of(node))),
            Err(e) => {
                let kind = ListErrorKind::Matcher(e);
                self.error(position_of(node), hook, Some("matcher".to_owned()), kind);
                None
            }
        }
    }

    fn priority(&mut self, node: &Spanned<Node>, hook: Option<&HookRef>) -> Option<i32> {
        let value = match node.value {
            Node::Int(i) => i128::from(i),
            Node::UInt(u) => i128::from(u),
            _ => {
                self.wrong(node, hook, "priority", "an integer");
                return None;
            }
        };
        i32::try_from(value).ok().or_else(|| {
            self.invalid(position_of(node), hook, "priority", format!("{value} is out of range"));
            None
        })
    }

    fn timeout(&mut self, node: &Spanned<Node>, hook: Option<&HookRef>) -> Option<u64> {
        match node.value {
            Node::UInt(u) if u > 0 => Some(u),
            Node::UInt(_) | Node::Int(_) => {
                let message = "must be a positive number of milliseconds";
                self.invalid(position_of(node), hook, "timeout_ms", message);
                None
            }
            _ => {
                self.wrong(node, hook, "timeout_ms", "an integer");
                None
            }
        }
    }

    fn on_failure(
        &mut self,
        node: &Spanned<Node>,
        hook: Option<&HookRef>,
    ) -> Option<FailurePolicy> {
        match self.string(node, hook, "on_failure")?.as_str() {
            "allow" => Some(FailurePolicy::OPEN),
            "block" => Some(FailurePolicy::CLOSED),
            other => {
                let message =
                    format!("is `{other}`; expected `allow` (fail open) or `block` (fail closed)");
                self.invalid(position_of(node), hook, "on_failure", message);
                None
            }
        }
    }

    fn env(
        &mut self,
        node: &Spanned<Node>,
        hook: Option<&HookRef>,
    ) -> BTreeMap<String, (String, Position)> {
        let Node::Map(pairs) = &node.value else {
            self.wrong(node, hook, "env", "a mapping of names to strings");
            return BTreeMap::new();
        };
        let mut env = BTreeMap::new();
        for (key, value) in pairs {
            let name = format!("env.{}", key.value);
            if let Some(why) = env_name_problem(&key.value) {
                self.invalid(position_of(key), hook, &name, why);
                continue;
            }
            if let Some(v) = self.string(value, hook, &name) {
                env.insert(key.value.clone(), (v, position_of(key)));
            }
        }
        env
    }

    /// Checks the executable against the roots and builds the hook of an entry without
    /// errors.
    fn build(
        &mut self,
        entry: Entry,
        hook: &HookRef,
        at: Position,
        roots: &TrustRoots,
        version: Option<&str>,
    ) -> Option<ScriptHook> {
        let (exe, exe_at) = entry.executable?;
        let exe = normalize(&self.base.join(exe));
        if let Err(error) = roots.check(&exe) {
            let kind = ListErrorKind::Trust(error);
            self.error(exe_at, Some(hook), Some("executable".into()), kind);
            return None;
        }
        let (Some((id, _)), Some(event_type), true) = (entry.id, entry.event_type, entry.complete)
        else {
            return None;
        };
        let mut b = ScriptHookBuilder::new(id)
            .event_type(EventSelector::from_name(&event_type))
            .executable(exe)
            .trusted_roots(roots.roots().iter().cloned())
            .origin(self.file.display().to_string());
        if let Some(name) = entry.name {
            b = b.name(name);
        }
        if let Some((m, _)) = entry.matcher {
            b = b.matcher(m);
        }
        if let Some(p) = entry.priority {
            b = b.priority(p);
        }
        if let Some(ms) = entry.timeout_ms {
            b = b.timeout(Duration::from_millis(ms));
        }
        if let Some(policy) = entry.on_failure {
            b = b.on_failure(policy);
        }
        if let Some(v) = version {
            b = b.tnsai_version(v);
        }
        for (k, (v, _)) in entry.env {
            b = b.env(k, v);
        }
        if let Some(scrub) = &self.scrub {
            b = b.scrub_credentials(scrub.clone());
        }
        // Everything the builder checks was checked above; a refusal here is still reported.
        b.build()
            .map_err(|e| self.invalid(at, Some(hook), "id", format!("cannot be built: {e}")))
            .ok()
    }
}

/// `path` without `.` components, so messages show `dir/hooks`, not `dir/./hooks`.
fn normalize(path: &Path) -> PathBuf {
    let clean: PathBuf =
        path.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
    if clean.as_os_str().is_empty() { PathBuf::from(".") } else { clean }
}
