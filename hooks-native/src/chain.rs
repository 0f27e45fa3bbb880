//! One pair's hooks: befores that alter the subject, afters that alter the result.

use std::fmt;

/// A before hook: takes the subject, returns it (possibly altered) or fails.
pub type BeforeFn<S, E> = Box<dyn Fn(S) -> Result<S, E> + Send + Sync>;

/// An after hook: takes the result, returns it (possibly altered) or fails.
pub type AfterFn<R, E> = Box<dyn Fn(R) -> Result<R, E> + Send + Sync>;

/// The before and after hooks of one pair, in registration order.
///
/// # Order
///
/// Befores run in registration order: the first registered sees the subject first. Afters run
/// in *reverse* registration order: the first registered sees the result last. Registering a
/// before and an after together therefore nests them around the stage, like layers: the first
/// registration is the outermost.
///
/// Hooks are synchronous and nothing is caught: the first error stops the chain and reaches the
/// caller unchanged. A hook that does not alter returns what it received; whatever a hook
/// returns is what the next one receives (an "empty" value is an alteration like any other).
pub struct Chain<S, R, E> {
    before: Vec<BeforeFn<S, E>>,
    after: Vec<AfterFn<R, E>>,
}

impl<S, R, E> Chain<S, R, E> {
    /// A chain with no hooks.
    pub fn new() -> Self {
        Self { before: Vec::new(), after: Vec::new() }
    }

    /// Registers a before hook after those already registered.
    pub fn before(
        &mut self,
        hook: impl Fn(S) -> Result<S, E> + Send + Sync + 'static,
    ) -> &mut Self {
        self.before.push(Box::new(hook));
        self
    }

    /// Registers an after hook; it runs before those already registered.
    pub fn after(&mut self, hook: impl Fn(R) -> Result<R, E> + Send + Sync + 'static) -> &mut Self {
        self.after.push(Box::new(hook));
        self
    }

    /// Registers a boxed before hook.
    pub fn push_before(&mut self, hook: BeforeFn<S, E>) -> &mut Self {
        self.before.push(hook);
        self
    }

    /// Registers a boxed after hook.
    pub fn push_after(&mut self, hook: AfterFn<R, E>) -> &mut Self {
        self.after.push(hook);
        self
    }

    /// How many before hooks are registered.
    pub fn befores(&self) -> usize {
        self.before.len()
    }

    /// How many after hooks are registered.
    pub fn afters(&self) -> usize {
        self.after.len()
    }

    /// Whether no hook is registered.
    pub fn is_empty(&self) -> bool {
        self.before.is_empty() && self.after.is_empty()
    }

    /// Runs the before hooks in registration order, each on what the previous one returned.
    ///
    /// # Errors
    ///
    /// The first hook error, unchanged; the hooks after it do not run.
    pub fn run_before(&self, subject: S) -> Result<S, E> {
        let mut subject = subject;
        for hook in &self.before {
            subject = hook(subject)?;
        }
        Ok(subject)
    }

    /// Runs the after hooks in reverse registration order, each on what the previous one
    /// returned.
    ///
    /// # Errors
    ///
    /// The first hook error, unchanged; the hooks after it do not run.
    pub fn run_after(&self, result: R) -> Result<R, E> {
        let mut result = result;
        for hook in self.after.iter().rev() {
            result = hook(result)?;
        }
        Ok(result)
    }

    /// Runs the befores, then `body` on the subject they return, then the afters on its result.
    ///
    /// With no hooks registered this is exactly `body(subject)`.
    ///
    /// # Errors
    ///
    /// The first error of a before hook (the body and the afters do not run), of the body (the
    /// afters do not run) or of an after hook, unchanged.
    pub fn around(&self, subject: S, body: impl FnOnce(S) -> Result<R, E>) -> Result<R, E> {
        self.run_after(body(self.run_before(subject)?)?)
    }
}

impl<S, R, E> Default for Chain<S, R, E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S, R, E> fmt::Debug for Chain<S, R, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chain")
            .field("before", &self.before.len())
            .field("after", &self.after.len())
            .finish()
    }
}
