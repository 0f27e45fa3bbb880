//! The changes an [`super::Env`] makes to a hook's environment: a part its clones share and
//! each clone's own.
//!
//! An engine builds each hook's environment once and clones it for every run, which then sets
//! a few variables of the event's. A clone shares the template's changes instead of copying
//! them, and keeps its own next to them: the run's copy is a reference count and a map of the
//! few names it set, not a copy of every name and value the configuration gave the hook.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::collections::btree_map;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::iter::Peekable;
use std::sync::Arc;

/// One change: `Some(value)` sets a variable, `None` removes it.
type Map = BTreeMap<OsString, Option<OsString>>;

/// A sorted map of changes, in two parts; a name in both takes its own part's value.
#[derive(Clone, Default)]
pub(super) struct Changes {
    shared: Arc<Map>,
    own: Map,
}

impl Changes {
    /// Sets `key`'s change: in the shared part while nothing else holds it and this one has no
    /// changes of its own yet (a template being built), in its own part after that.
    pub(super) fn insert(&mut self, key: OsString, value: Option<OsString>) {
        if self.own.is_empty()
            && let Some(shared) = Arc::get_mut(&mut self.shared)
        {
            shared.insert(key, value);
            return;
        }
        self.own.insert(key, value);
    }

    /// `key`'s change, when there is one.
    pub(super) fn get(&self, key: &OsStr) -> Option<&Option<OsString>> {
        self.own.get(key).or_else(|| self.shared.get(key))
    }

    /// Whether `key` is set or removed.
    pub(super) fn contains(&self, key: &OsStr) -> bool {
        self.own.contains_key(key) || self.shared.contains_key(key)
    }

    /// Every change, in the order of the names, each name once.
    pub(super) fn iter(&self) -> Iter<'_> {
        Iter { shared: self.shared.iter().peekable(), own: self.own.iter().peekable() }
    }
}

impl PartialEq for Changes {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Changes {}

impl fmt::Debug for Changes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The changes of both parts merged by name, [`Changes::iter`].
pub(super) struct Iter<'a> {
    shared: Peekable<btree_map::Iter<'a, OsString, Option<OsString>>>,
    own: Peekable<btree_map::Iter<'a, OsString, Option<OsString>>>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a OsString, &'a Option<OsString>);

    fn next(&mut self) -> Option<Self::Item> {
        let order = match (self.shared.peek(), self.own.peek()) {
            (Some((shared, _)), Some((own, _))) => shared.cmp(own),
            (Some(_), None) => Ordering::Less,
            (None, _) => Ordering::Greater,
        };
        match order {
            Ordering::Less => self.shared.next(),
            Ordering::Greater => self.own.next(),
            Ordering::Equal => {
                self.shared.next();
                self.own.next()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> OsString {
        OsString::from(s)
    }

    fn listed(changes: &Changes) -> Vec<(String, Option<String>)> {
        changes
            .iter()
            .map(|(k, v)| {
                (k.to_string_lossy().into_owned(), v.as_ref().map(|v| v.to_string_lossy().into()))
            })
            .collect()
    }

    #[test]
    fn a_clone_shares_the_template_and_keeps_its_own_changes() {
        let mut template = Changes::default();
        template.insert(os("B"), Some(os("template")));
        template.insert(os("D"), Some(os("template")));
        template.insert(os("F"), None);
        let mut run = template.clone();
        assert!(Arc::ptr_eq(&template.shared, &run.shared), "the clone copies nothing");
        run.insert(os("A"), Some(os("run")));
        run.insert(os("D"), Some(os("run")));
        run.insert(os("G"), None);
        assert_eq!(run.own.len(), 3, "the run's changes are its own");
        let text = |s: &str| Some(s.to_owned());
        assert_eq!(
            listed(&run),
            [
                ("A".into(), text("run")),
                ("B".into(), text("template")),
                ("D".into(), text("run")),
                ("F".into(), None),
                ("G".into(), None),
            ]
        );
        assert_eq!(listed(&template).len(), 3, "the template is unchanged");
        assert_eq!(run.get(OsStr::new("D")), Some(&Some(os("run"))));
        assert_eq!(run.get(OsStr::new("B")), Some(&Some(os("template"))));
        assert_eq!(run.get(OsStr::new("C")), None);
        assert!(run.contains(OsStr::new("F")) && run.contains(OsStr::new("A")));
        assert!(!run.contains(OsStr::new("C")));
    }

    #[test]
    fn equality_and_debug_see_the_merged_changes() {
        let mut split = Changes::default();
        split.insert(os("X"), Some(os("1")));
        let keep = split.clone();
        split.insert(os("Y"), Some(os("2")));
        split.insert(os("X"), Some(os("3")));
        drop(keep);
        let mut whole = Changes::default();
        whole.insert(os("Y"), Some(os("2")));
        whole.insert(os("X"), Some(os("3")));
        assert_eq!(split, whole);
        assert_eq!(format!("{split:?}"), format!("{whole:?}"));
        assert_eq!(format!("{whole:?}"), r#"{"X": Some("3"), "Y": Some("2")}"#);
        whole.insert(os("Z"), None);
        assert_ne!(split, whole);
    }

    #[test]
    fn merging_matches_one_map_for_every_split() {
        // Every way of sending eight names to the template or the run, some in both.
        for mask in 0u32..(1 << 8) {
            let mut template = Changes::default();
            let mut expected = BTreeMap::new();
            for i in 0..8u32 {
                if mask & (1 << i) != 0 || i % 3 == 0 {
                    let (k, v) = (os(&format!("K{i}")), Some(os(&format!("t{i}"))));
                    expected.insert(k.clone(), v.clone());
                    template.insert(k, v);
                }
            }
            let mut run = template.clone();
            for i in 0..8u32 {
                if mask & (1 << i) == 0 {
                    let (k, v) = (os(&format!("K{i}")), Some(os(&format!("r{i}"))));
                    expected.insert(k.clone(), v.clone());
                    run.insert(k, v);
                }
            }
            let merged: Vec<_> = run.iter().collect();
            let want: Vec<_> = expected.iter().collect();
            assert_eq!(merged, want, "mask {mask:#b}");
        }
    }
}
