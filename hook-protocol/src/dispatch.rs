//! Dispatch: run the hooks that match an event and fold their verdicts.
//!
//! A [`Dispatcher`] holds hooks of every kind, sorted into configuration order (priority, lower
//! first, then registration order). For an event it selects the hooks registered for the event's
//! seam whose matcher accepts the event's subject (one [`MatcherSet`] pass), runs them
//! concurrently up to a bound ([`Mode::Parallel`]) or one after another with each seeing the
//! previous rewrite ([`Mode::Pipeline`]), applies each hook's failure policy, folds the verdicts
//! in configuration order and returns a [`Report`] with one [`HookRecord`] per hook.
//!
//! On a multi-thread Tokio runtime, parallel hooks run as tasks of their own, so that their
//! process spawns (each holds its thread until the child has called `execve`) proceed on several
//! workers at once, and a hook that panics is recorded as failed rather than unwinding into the
//! harness; on a current-thread runtime they run concurrently inside the dispatch itself.
//!
//! # Cancellation
//!
//! [`Dispatcher::dispatch_until`] takes any future as the cancellation (a
//! `CancellationToken::cancelled()`, a oneshot receiver, a Ctrl-C signal, a timer). When it
//! resolves, every hook still running is dropped, which kills its whole process tree (the
//! process engine, `hook-exec`, does so when its run is dropped), hooks not started yet never start, and the report comes back all the
//! same: the hooks that had finished keep their records, the others have the status
//! [`HookStatus::Cancelled`] ([`Report::cancelled`] says whether any has).
//!
//! # Observability
//!
//! A hook yields `hook/started` when it starts (in the order hooks start, so that a UI can show
//! "running X…"), then a `hook/invoked` and a `hook/result` event, emitted as adjacent pairs in
//! configuration order even when hooks run in parallel (a pair is emitted as soon as every hook
//! before it has finished), for logs. They go to `tracing` (target `hooks`) and to the
//! [`Observer`], if one is set.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use serde::Serialize;

use crate::{
    Aliases, Attribution, Decision, Event, FailMode, Fold, Hook, HookInfo, HookOutcome, HookRecord,
    HookStatus, MatcherError, MatcherSet, Merged, On, Payload, ReasonRule, ResourceLimit, Seam,
    Verdict, merge_by,
};

/// How the matching hooks of one event run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// All at once, at most `limit` at a time (a limit of 0 counts as 1).
    Parallel {
        /// How many hooks may run at the same time.
        limit: usize,
    },
    /// One after another in configuration order; a hook sees the input as rewritten by the
    /// hooks before it, and a hook that ends the chain stops the rest from starting.
    Pipeline,
}

impl Default for Mode {
    fn default() -> Self {
        Mode::Parallel { limit: Dispatcher::DEFAULT_PARALLELISM }
    }
}

/// One observability event about one hook.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(tag = "name")]
#[non_exhaustive]
pub enum HookEvent<'a> {
    /// `hook/started`: the hook starts running, now (not in configuration order: in the
    /// order hooks start).
    #[serde(rename = "hook/started")]
    Started {
        /// The seam.
        seam: Seam,
        /// The hook's position in configuration order.
        position: usize,
        /// The hook's identifier.
        id: &'a str,
        /// What it runs.
        label: &'a str,
    },
    /// `hook/invoked`: the hook was run on the event.
    #[serde(rename = "hook/invoked")]
    Invoked {
        /// The seam.
        seam: Seam,
        /// The hook's position in configuration order.
        position: usize,
        /// The hook's identifier.
        id: &'a str,
        /// What it runs.
        label: &'a str,
    },
    /// `hook/result`: how it went.
    #[serde(rename = "hook/result")]
    Result {
        /// The seam.
        seam: Seam,
        /// The hook's record.
        record: &'a HookRecord,
    },
}

/// Receives `hook/started`, `hook/invoked` and `hook/result` events (see the module docs for
/// their order).
pub trait Observer: Send + Sync {
    /// Called once per event, in order; must not block for long.
    fn observe(&self, event: &HookEvent<'_>);
}

impl<F: Fn(&HookEvent<'_>) + Send + Sync> Observer for F {
    fn observe(&self, event: &HookEvent<'_>) {
        self(event);
    }
}

/// A decision type: what a harness must do, read off a dispatch [`Report`]. The core's types
/// read the seam's fold; a dialect's read its hooks' records too (what only its agent has).
pub trait FromReport: Sized {
    /// Reads the decision off a report.
    fn from_report(report: &Report) -> Self;
}

/// The result of dispatching one event.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Report {
    /// The seam of the event.
    pub seam: Seam,
    /// The fold of every hook's verdict.
    pub merged: Merged,
    /// One record per hook that matched, in configuration order.
    pub records: Vec<HookRecord>,
}

impl Report {
    /// The seam's typed decision (e.g. [`crate::PreToolDecision`]).
    pub fn decision<D: FromReport>(&self) -> D {
        D::from_report(self)
    }

    /// Who decided: the record of the hook whose verdict gave the decision (the one whose
    /// words explain it, [`Merged::decider`]), down to the inner hook of one that ran others
    /// as one ([`HookRecord::decided`]). Its label, [`Source`](crate::Source) (dialect, file
    /// or plugin) and verdict say who and what. `None` when no hook decided.
    pub fn decided_by(&self) -> Option<&HookRecord> {
        let decision = self.merged.decision?;
        let decider = self.merged.decider()?;
        let record = self.records.iter().find(|r| r.position == decider.position)?;
        Some(record.decided(decision))
    }

    /// Whether the dispatch was cancelled before every hook finished: the decision is then the
    /// seam's interrupted one ([`Merged::interrupted`]), never a go-ahead.
    pub fn cancelled(&self) -> bool {
        self.merged.interrupted
    }
}

struct Route {
    hooks: Vec<usize>,
    matchers: MatcherSet,
}

/// Runs hooks of every kind on events and folds their verdicts.
pub struct Dispatcher {
    hooks: Vec<Arc<dyn Hook>>,
    aliases: Aliases,
    reason_rule: ReasonRule,
    /// The seams whose fold is not the most restrictive one.
    folds: Vec<(Seam, Fold)>,
    seams: Vec<Route>,
    custom: HashMap<String, Route>,
    custom_fallback: Route,
    mode: Mode,
    observer: Option<Arc<dyn Observer>>,
}

impl fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatcher")
            .field("hooks", &self.hooks.iter().map(|h| &h.info().id).collect::<Vec<_>>())
            .field("mode", &self.mode)
            .field("observer", &self.observer.is_some())
            .finish()
    }
}

/// Builds a [`Dispatcher`].
#[derive(Default)]
pub struct DispatcherBuilder {
    hooks: Vec<Arc<dyn Hook>>,
    aliases: Aliases,
    reason_rule: ReasonRule,
    folds: Vec<(Seam, Fold)>,
    mode: Mode,
    observer: Option<Arc<dyn Observer>>,
}

impl fmt::Debug for DispatcherBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DispatcherBuilder").field("hooks", &self.hooks.len()).finish()
    }
}

impl DispatcherBuilder {
    /// Registers a hook; registration order breaks priority ties.
    pub fn hook(mut self, hook: impl Hook + 'static) -> Self {
        self.hooks.push(Arc::new(hook));
        self
    }

    /// Registers a shared hook.
    pub fn shared(mut self, hook: Arc<dyn Hook>) -> Self {
        self.hooks.push(hook);
        self
    }

    /// Registers several shared hooks, in order.
    pub fn hooks(mut self, hooks: impl IntoIterator<Item = Arc<dyn Hook>>) -> Self {
        self.hooks.extend(hooks);
        self
    }

    /// Sets how hooks run (default: parallel, [`Dispatcher::DEFAULT_PARALLELISM`] at a time).
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Other names the events' subjects go by: a hook whose matcher accepts an alias of the
    /// subject runs as if it accepted the subject.
    pub fn aliases(mut self, aliases: Aliases) -> Self {
        self.aliases = aliases;
        self
    }

    /// Which reason a report's fold gives for its decision (default: every reason).
    pub fn reason_rule(mut self, rule: ReasonRule) -> Self {
        self.reason_rule = rule;
        self
    }

    /// How the decisions of `seam`'s hooks fold (default: [`Fold::MostRestrictive`]).
    pub fn fold(mut self, seam: Seam, fold: Fold) -> Self {
        self.folds.retain(|(s, _)| *s != seam);
        self.folds.push((seam, fold));
        self
    }

    /// Sets the observer of `hook/started`, `hook/invoked` and `hook/result` events.
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Sorts the hooks into configuration order and indexes them by seam.
    ///
    /// # Errors
    ///
    /// [`MatcherError`] when the matchers of one seam cannot be compiled together.
    pub fn build(self) -> Result<Dispatcher, MatcherError> {
        let mut hooks = self.hooks;
        // Stable: equal priorities keep registration order.
        hooks.sort_by_key(|h| h.info().priority);
        let route = |select: &dyn Fn(&HookInfo) -> bool| -> Result<Route, MatcherError> {
            let indices: Vec<usize> = hooks
                .iter()
                .enumerate()
                .filter(|(_, h)| select(h.info()))
                .map(|(i, _)| i)
                .collect();
            let matchers = MatcherSet::new(indices.iter().map(|&i| &hooks[i].info().matcher))?;
            Ok(Route { hooks: indices, matchers })
        };
        let mut seams = Vec::with_capacity(Seam::ALL.len());
        for seam in Seam::ALL {
            seams.push(route(&|info| match &info.on {
                On::Every => true,
                On::Seams(s) => s.contains(&seam),
                On::Custom(_) => false,
            })?);
        }
        let mut custom = HashMap::new();
        for hook in &hooks {
            if let On::Custom(name) = &hook.info().on
                && !custom.contains_key(name)
            {
                let r = route(&|info| match &info.on {
                    On::Every => true,
                    On::Custom(n) => n == name,
                    // The custom seam takes every custom event, as `On::applies` says.
                    On::Seams(s) => s.contains(&Seam::Custom),
                })?;
                custom.insert(name.clone(), r);
            }
        }
        let custom_fallback = route(&|info| match &info.on {
            On::Every => true,
            On::Seams(s) => s.contains(&Seam::Custom),
            On::Custom(_) => false,
        })?;
        Ok(Dispatcher {
            hooks,
            aliases: self.aliases,
            reason_rule: self.reason_rule,
            folds: self.folds,
            seams,
            custom,
            custom_fallback,
            mode: self.mode,
            observer: self.observer,
        })
    }
}

impl Dispatcher {
    /// How many hooks run at the same time by default.
    pub const DEFAULT_PARALLELISM: usize = 32;

    /// A builder with no hooks.
    pub fn builder() -> DispatcherBuilder {
        DispatcherBuilder::default()
    }

    /// Every hook, in configuration order.
    pub fn hooks(&self) -> &[Arc<dyn Hook>] {
        &self.hooks
    }

    /// How hooks run.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    fn route(&self, event: &Event) -> &Route {
        match event.custom_name() {
            Some(name) => self.custom.get(name).unwrap_or(&self.custom_fallback),
            None => &self.seams[event.seam().index()],
        }
    }

    /// The hooks that would run on `event`, in configuration order.
    pub fn matching(&self, event: &Event) -> Vec<&Arc<dyn Hook>> {
        let route = self.route(event);
        let subject = event.subject();
        let aliases = subject.map_or(&[][..], |s| self.aliases.of(s));
        route
            .matchers
            .matching_any(subject, aliases)
            .into_iter()
            .map(|i| &self.hooks[route.hooks[i]])
            .filter(|hook| hook.active(event))
            .collect()
    }

    /// Runs every hook that matches `event` and folds their verdicts.
    ///
    /// # Cancel safety
    ///
    /// Dropping the future drops the hooks' runs, which stop what they started (see
    /// [`Hook::run`]); no verdict is returned. To stop the hooks and still get a report, use
    /// [`Dispatcher::dispatch_until`].
    pub async fn dispatch(&self, event: &Event) -> Report {
        self.dispatch_until(event, std::future::pending::<()>()).await
    }

    /// [`Dispatcher::dispatch`], cancelled when `cancel` resolves: the hooks still running are
    /// dropped (their process trees killed), the ones not started never start, and the report
    /// holds every hook, those that did not finish with the status [`HookStatus::Cancelled`].
    ///
    /// Any future will do, e.g. `token.cancelled()` of a `tokio_util` `CancellationToken`, a
    /// `oneshot::Receiver` mapped to `()`, or `tokio::signal::ctrl_c()` mapped to `()`.
    pub async fn dispatch_until(&self, event: &Event, cancel: impl Future<Output = ()>) -> Report {
        let selected = self.matching(event);
        let seam = event.seam();
        let mut emitter = Emitter::new(seam, self.observer.as_deref(), selected.len());
        let cancel = std::pin::pin!(cancel);
        let outcomes = match self.mode {
            Mode::Parallel { limit } => {
                run_parallel(&selected, event, limit.max(1), &mut emitter, cancel).await
            }
            Mode::Pipeline => run_pipeline(&selected, event, &mut emitter, cancel).await,
        };
        // The records are in configuration order already (they are collected by position).
        let fold = self.folds.iter().find(|(s, _)| *s == seam).map_or_else(Fold::default, |f| f.1);
        let mut merged = merge_by(
            fold,
            outcomes.iter().map(|r| {
                (Attribution::new(r.position, r.id.clone(), r.source.clone()), r.verdict.clone())
            }),
        );
        merged.interrupted = outcomes.iter().any(|r| r.status == HookStatus::Cancelled);
        merged.reason_rule = self.reason_rule;
        let mut records = outcomes;
        if let Some(end) = &merged.chain_ended_by {
            for r in records.iter_mut().filter(|r| r.position > end.position) {
                if r.status != HookStatus::Skipped {
                    r.warnings
                        .push(format!("verdict ignored: hook `{}` ended the chain", end.hook_id));
                }
            }
        }
        if merged.rewrite_conflict() {
            let ids: Vec<&str> = merged.rewriters.iter().map(|a| a.hook_id.as_str()).collect();
            tracing::warn!(target: "hooks", seam = %seam, hooks = ?ids, "several hooks rewrote the input; the last in configuration order wins");
        }
        Report { seam, merged, records }
    }
}

/// Turns an outcome into a record, applying the failure policy.
fn record(position: usize, info: &HookInfo, outcome: HookOutcome, started: Instant) -> HookRecord {
    let HookOutcome { status, mut verdict, failure, warnings, process, metadata, inner } = outcome;
    let closes = info.failure_policy.mode_for(status) == Some(FailMode::Closed);
    if closes && verdict.decision != Some(Decision::Deny) {
        let why = failure.clone().unwrap_or_else(|| format!("hook {status}"));
        let mut closed =
            Verdict::deny(format!("hook `{}` failed and fails closed: {why}", info.id));
        closed.context = verdict.context;
        closed.messages = verdict.messages;
        verdict = closed;
    }
    HookRecord {
        position,
        id: info.id.clone(),
        label: info.label.clone(),
        source: info.source.clone(),
        status,
        process,
        duration: started.elapsed(),
        failure,
        warnings,
        verdict,
        metadata,
        inner,
    }
}

async fn run_one(position: usize, hook: &Arc<dyn Hook>, event: &Event) -> HookRecord {
    let started = Instant::now();
    // The hook itself, not `Arc`'s forwarding impl: one boxed future per run instead of two.
    let mut outcome = (**hook).run(event).await;
    limit_continuations(hook.info(), event, &mut outcome);
    record(position, hook.info(), outcome, started)
}

/// A hook past its continuation limit ([`HookInfo::continuation_limit`]) no longer keeps the
/// turn going: its follow-up and its block are dropped, with a warning.
fn limit_continuations(info: &HookInfo, event: &Event, outcome: &mut HookOutcome) {
    let Some(limit) = info.continuation_limit else { return };
    let count = match &event.payload {
        Payload::TurnEnd(end) => end.continuations,
        Payload::SubagentEnd(end) => end.continuations,
        _ => return,
    };
    let verdict = &mut outcome.verdict;
    let continues = verdict.follow_up.is_some() || verdict.decision == Some(Decision::Deny);
    if count >= limit && continues {
        verdict.follow_up = None;
        if verdict.decision == Some(Decision::Deny) {
            verdict.decision = None;
            verdict.reason = None;
        }
        outcome.warnings.push(format!(
            "continuation limit reached ({count} of {limit}): the hook no longer keeps the turn going"
        ));
    }
}

/// The harness's cancellation, as the dispatch polls it (generic, so that the dispatch stays
/// `Send` when the cancellation is).
type Cancel<'c, C> = Pin<&'c mut C>;

/// Fills the records of the hooks that did not finish with [`HookStatus::Cancelled`]: those
/// that started (`starts`) were dropped while running, the others never started.
fn fill_cancelled(
    selected: &[&Arc<dyn Hook>],
    starts: &[Option<Instant>],
    done: &mut [Option<HookRecord>],
) {
    for (position, slot) in done.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        let (why, started) = match starts[position] {
            Some(at) => ("cancelled while it ran; its process tree was killed", at),
            None => ("cancelled before it started", Instant::now()),
        };
        *slot =
            Some(record(position, selected[position].info(), HookOutcome::cancelled(why), started));
    }
}

async fn run_parallel<C: Future<Output = ()>>(
    selected: &[&Arc<dyn Hook>],
    event: &Event,
    limit: usize,
    emitter: &mut Emitter<'_>,
    mut cancel: Cancel<'_, C>,
) -> Vec<HookRecord> {
    if let [hook] = selected {
        return run_alone(hook, event, emitter, cancel).await;
    }
    if selected.len() > 1 && spreads_over_workers() {
        return run_spread(selected, event, limit, emitter, cancel).await;
    }
    let mut starts: Vec<Option<Instant>> = vec![None; selected.len()];
    let mut pending = selected.iter().enumerate();
    let mut running = FuturesUnordered::new();
    for (position, hook) in pending.by_ref().take(limit) {
        starts[position] = Some(emitter.started(position, hook));
        running.push(run_one(position, hook, event));
    }
    let mut done: Vec<Option<HookRecord>> = (0..selected.len()).map(|_| None).collect();
    let mut cancelled = false;
    loop {
        let rec = tokio::select! {
            biased;
            rec = running.next() => match rec {
                Some(rec) => rec,
                None => break,
            },
            () = &mut cancel => {
                cancelled = true;
                break;
            }
        };
        if let Some((position, hook)) = pending.next() {
            starts[position] = Some(emitter.started(position, hook));
            running.push(run_one(position, hook, event));
        }
        let position = rec.position;
        done[position] = Some(rec);
        emitter.ready(&done);
    }
    if cancelled {
        // Dropping the runs kills what they started.
        drop(running);
        fill_cancelled(selected, &starts, &mut done);
        emitter.ready(&done);
    }
    records_of(done)
}

/// The records of the slots that hold one, in order, collected in the slots' own allocation: a
/// `filter_map` over a vector's iterator is collected in place (a test checks it), where
/// `flatten` allocates a second vector and copies every record into it.
#[expect(clippy::filter_map_identity, reason = "`flatten` is not collected in place")]
fn records_of(done: Vec<Option<HookRecord>>) -> Vec<HookRecord> {
    done.into_iter().filter_map(|r| r).collect()
}

/// [`run_parallel`] of one hook: run in place, without a set of futures to poll.
async fn run_alone<C: Future<Output = ()>>(
    hook: &Arc<dyn Hook>,
    event: &Event,
    emitter: &mut Emitter<'_>,
    mut cancel: Cancel<'_, C>,
) -> Vec<HookRecord> {
    let started = emitter.started(0, hook);
    let mut done = vec![tokio::select! {
        biased;
        rec = run_one(0, hook, event) => Some(rec),
        () = &mut cancel => None,
    }];
    if done[0].is_none() {
        // Dropping the run killed what it started.
        fill_cancelled(&[hook], &[Some(started)], &mut done);
    }
    emitter.ready(&done);
    records_of(done)
}

/// Whether parallel hooks should run as tasks of their own: on a multi-thread runtime, so that
/// their process spawns (each of which holds its thread until the child has called `execve`)
/// and their decoding happen on several workers at once.
fn spreads_over_workers() -> bool {
    tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
}

/// [`run_parallel`] with one task per hook. The tasks are aborted if the dispatch is dropped
/// (which stops what the hooks started), and a hook that panics is recorded as failed instead
/// of unwinding into the harness.
async fn run_spread<C: Future<Output = ()>>(
    selected: &[&Arc<dyn Hook>],
    event: &Event,
    limit: usize,
    emitter: &mut Emitter<'_>,
    mut cancel: Cancel<'_, C>,
) -> Vec<HookRecord> {
    type Tasks = tokio::task::JoinSet<HookRecord>;
    let shared = Arc::new(event.clone());
    let mut tasks = Tasks::new();
    let mut pending = selected.iter().enumerate();
    let mut starts: Vec<Option<Instant>> = vec![None; selected.len()];
    let mut spawn = |tasks: &mut Tasks, emitter: &mut Emitter<'_>, position, hook| {
        starts[position] = Some(emitter.started(position, hook));
        let (hook, event) = (Arc::clone(hook), Arc::clone(&shared));
        let handle = tasks.spawn(async move { run_one(position, &hook, &event).await });
        (handle.id(), position)
    };
    let mut ids = Vec::with_capacity(selected.len());
    for (position, hook) in pending.by_ref().take(limit) {
        ids.push(spawn(&mut tasks, emitter, position, hook));
    }
    let mut done: Vec<Option<HookRecord>> = (0..selected.len()).map(|_| None).collect();
    let joined_record = |joined: Result<(tokio::task::Id, HookRecord), tokio::task::JoinError>,
                         ids: &[(tokio::task::Id, usize)]|
     -> Option<HookRecord> {
        match joined {
            Ok((_, rec)) => Some(rec),
            Err(e) if e.is_cancelled() => None,
            Err(e) => {
                let position = ids.iter().find(|(id, _)| *id == e.id()).map_or(0, |(_, p)| *p);
                let hook = selected[position];
                let outcome =
                    HookOutcome::failure(HookStatus::Failed, format!("hook panicked: {e}"));
                Some(record(position, hook.info(), outcome, Instant::now()))
            }
        }
    };
    let mut cancelled = false;
    loop {
        let joined = tokio::select! {
            biased;
            joined = tasks.join_next_with_id() => match joined {
                Some(joined) => joined,
                None => break,
            },
            () = &mut cancel => {
                cancelled = true;
                break;
            }
        };
        if let Some((position, hook)) = pending.next() {
            ids.push(spawn(&mut tasks, emitter, position, hook));
        }
        if let Some(rec) = joined_record(joined, &ids) {
            let position = rec.position;
            done[position] = Some(rec);
            emitter.ready(&done);
        }
    }
    if cancelled {
        // Aborted tasks drop their runs, which kills what they started; joining waits for
        // that. A hook that finished in the meantime keeps its record.
        tasks.abort_all();
        while let Some(joined) = tasks.join_next_with_id().await {
            if let Some(rec) = joined_record(joined, &ids) {
                let position = rec.position;
                done[position] = Some(rec);
            }
        }
        fill_cancelled(selected, &starts, &mut done);
        emitter.ready(&done);
    }
    records_of(done)
}

async fn run_pipeline<C: Future<Output = ()>>(
    selected: &[&Arc<dyn Hook>],
    event: &Event,
    emitter: &mut Emitter<'_>,
    mut cancel: Cancel<'_, C>,
) -> Vec<HookRecord> {
    let mut current: Option<Event> = None;
    let mut done: Vec<Option<HookRecord>> = (0..selected.len()).map(|_| None).collect();
    let mut ended_by: Option<String> = None;
    let mut cancelled = false;
    for (position, hook) in selected.iter().enumerate() {
        let rec = match &ended_by {
            _ if cancelled => {
                let outcome = HookOutcome::cancelled("cancelled before it started");
                record(position, hook.info(), outcome, Instant::now())
            }
            Some(id) => {
                let started = Instant::now();
                let outcome = HookOutcome::skipped(format!("hook `{id}` ended the chain"));
                record(position, hook.info(), outcome, started)
            }
            None => {
                let started = emitter.started(position, hook);
                tokio::select! {
                    biased;
                    rec = run_one(position, hook, current.as_ref().unwrap_or(event)) => rec,
                    () = &mut cancel => {
                        cancelled = true;
                        let why = "cancelled while it ran; its process tree was killed";
                        record(position, hook.info(), HookOutcome::cancelled(why), started)
                    }
                }
            }
        };
        if ended_by.is_none() {
            if rec.verdict.end_chain {
                ended_by = Some(rec.id.clone());
            }
            if let Some(input) = &rec.verdict.updated_input
                && rec.verdict.decision != Some(crate::Decision::Deny)
            {
                let next = current.get_or_insert_with(|| event.clone());
                if let Some(slot) = next.payload.rewritable_input_mut() {
                    *slot = input.clone();
                    next.extensions.insert(crate::InputRewritten { by: rec.id.clone() });
                }
            }
        }
        done[position] = Some(rec);
        emitter.ready(&done);
    }
    records_of(done)
}

/// Emits `hook/invoked` + `hook/result` pairs in configuration order as the prefix completes.
struct Emitter<'a> {
    seam: Seam,
    observer: Option<&'a dyn Observer>,
    next: usize,
    total: usize,
}

impl<'a> Emitter<'a> {
    fn new(seam: Seam, observer: Option<&'a dyn Observer>, total: usize) -> Self {
        Self { seam, observer, next: 0, total }
    }

    /// Emits `hook/started` for a hook starting now, and returns the instant.
    fn started(&self, position: usize, hook: &Arc<dyn Hook>) -> Instant {
        let info = hook.info();
        tracing::debug!(target: "hooks", name = %"hook/started", seam = %self.seam, position, id = %info.id, label = %info.label);
        if let Some(observer) = self.observer {
            observer.observe(&HookEvent::Started {
                seam: self.seam,
                position,
                id: &info.id,
                label: &info.label,
            });
        }
        Instant::now()
    }

    fn ready(&mut self, done: &[Option<HookRecord>]) {
        while self.next < self.total {
            let Some(rec) = &done[self.next] else { break };
            let invoked = HookEvent::Invoked {
                seam: self.seam,
                position: rec.position,
                id: &rec.id,
                label: &rec.label,
            };
            tracing::debug!(target: "hooks", name = %"hook/invoked", seam = %self.seam, position = rec.position, id = %rec.id, label = %rec.label);
            let result = HookEvent::Result { seam: self.seam, record: rec };
            tracing::debug!(
                target: "hooks",
                name = %"hook/result",
                seam = %self.seam,
                position = rec.position,
                id = %rec.id,
                status = %rec.status,
                duration_ms = rec.duration.as_millis() as u64,
                decision = %rec.verdict.decision.map_or("none", Decision::as_str),
                containment = rec.process.as_ref().map(|p| p.containment.as_str()),
                leftovers = rec.process.as_ref().and_then(|p| p.leftovers),
                limit = rec.process.as_ref().and_then(|p| p.limit.map(ResourceLimit::as_str)),
            );
            if let Some(observer) = self.observer {
                observer.observe(&invoked);
                observer.observe(&result);
            }
            self.next += 1;
        }
    }
}

#[cfg(test)]
mod tests;
