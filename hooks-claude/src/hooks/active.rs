//! What makes a registered hook active in a session: whether the user trusted the project
//! folder ([Workspace trust](crate::compatibility#workspace-trust)), and which skills were
//! invoked, whose frontmatter hooks run from then on.

use std::collections::HashSet;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// Whether the user trusted the project folder
/// ([Workspace trust](crate::compatibility#workspace-trust)). Claude Code holds hooks back in a
/// folder the user has not trusted yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum WorkspaceTrust {
    /// Trusted without asking, as `-p` and SDK sessions do: every hook runs but a project
    /// sub-agent's frontmatter hooks, which need the folder really trusted.
    #[default]
    Implicit,
    /// The user trusted the folder: every hook runs.
    Trusted,
    /// An interactive session whose folder the user has not trusted (yet): no hook runs.
    Untrusted,
}

/// The session state every hook of an engine reads to know whether it is active.
#[derive(Debug)]
pub(crate) struct Activation {
    /// The skills invoked in this session, whose frontmatter hooks are registered.
    pub(crate) skills: RwLock<HashSet<String>>,
    /// The [`WorkspaceTrust`], as its discriminant.
    pub(crate) trust: AtomicU8,
}

impl Activation {
    pub(crate) fn new(trust: WorkspaceTrust) -> Self {
        Self { skills: RwLock::default(), trust: AtomicU8::new(trust as u8) }
    }

    /// The workspace trust now.
    pub(crate) fn workspace_trust(&self) -> WorkspaceTrust {
        match self.trust.load(Ordering::Acquire) {
            x if x == WorkspaceTrust::Trusted as u8 => WorkspaceTrust::Trusted,
            x if x == WorkspaceTrust::Implicit as u8 => WorkspaceTrust::Implicit,
            _ => WorkspaceTrust::Untrusted,
        }
    }
}
