//! The odds service: solved chains are cached, unsolved ones are queued
//! for one background solver, and a caller waits for its chain at most a
//! time budget, so no client is ever held for a long solve.
//!
//! - **Budget.** [`Solver::lookup`] waits at most [`Settings::budget`]
//!   ([`BUDGET`] by default) for a chain that is not solved yet; past it
//!   the answer is [`Lookup::Pending`] (the chain goes on being solved) with
//!   a time to ask again.
//! - **One solver at a time.** One background thread solves the queued
//!   chains in turn, oldest first.
//! - **Bounded memory.** At most [`Settings::max_pending`] chains wait or
//!   are being solved ([`Lookup::QueueFull`] past it); the cache keeps at
//!   most [`Settings::max_cached`] solutions and [`Settings::max_cache_bytes`]
//!   bytes of them besides the presets', dropping the least recently used
//!   first. Chains whose state box exceeds [`super::MAX_STATES`] are refused
//!   at once.
//! - **Presets first.** [`Solver::solve_presets`] queues every preset's
//!   chain as played (its own team sizes, side A first) ahead of any other;
//!   the server calls it once at start. Their solutions are kept for the
//!   life of the process, outside the cache's bound.

use std::collections::{HashMap, VecDeque};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use lru::LruCache;
use tokio::sync::watch;

use super::{MAX_STATES, OddsError, Solution, box_size, solve_until};
use crate::rules::{Options, Preset, Side, Table};

/// How long a request waits for its chain by default.
pub const BUDGET: Duration = Duration::from_secs(2);

/// Most chains queued or being solved at once, by default (the presets
/// queued at start are not counted).
pub const MAX_PENDING: usize = 4;

/// Most solutions the cache keeps by default, the presets' aside.
pub const MAX_CACHED: usize = 8;

/// Most bytes of solutions the cache keeps by default, the presets' aside
/// (the largest chain allowed takes about 100 MB).
pub const MAX_CACHE_BYTES: usize = 160 << 20;

/// What a [`Solver`] may hold and how long callers wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How long [`Solver::lookup`] waits for a chain being solved.
    pub budget: Duration,
    /// Most chains queued or being solved at once.
    pub max_pending: usize,
    /// Most solutions kept in the cache (presets aside).
    pub max_cached: usize,
    /// Most bytes of solutions kept in the cache (presets aside).
    pub max_cache_bytes: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            budget: BUDGET,
            max_pending: MAX_PENDING,
            max_cached: MAX_CACHED,
            max_cache_bytes: MAX_CACHE_BYTES,
        }
    }
}

/// What [`Solver::lookup`] found.
#[derive(Clone, Debug)]
pub enum Lookup {
    /// The chain is solved.
    Solved(Arc<Solution>),
    /// The chain is queued or being solved, not within the budget: ask
    /// again after `retry_after` seconds.
    Pending {
        /// Seconds to wait before asking again (at least 1).
        retry_after: u32,
    },
    /// The queue is full: the chain was not queued; ask again after
    /// `retry_after` seconds.
    QueueFull {
        /// Seconds to wait before asking again (at least 1).
        retry_after: u32,
    },
}

/// Everything a chain depends on.
type Key = (Options, [u8; 2], Side);

fn key(table: &Table) -> Key {
    (
        *table.options(),
        [table.players(Side::A), table.players(Side::B)],
        table.first(),
    )
}

/// A chain's result, once known.
type Outcome = Option<Result<Arc<Solution>, OddsError>>;

struct Job {
    key: Key,
    table: Table,
    pinned: bool,
    done: watch::Sender<Outcome>,
}

struct State {
    /// Solutions kept for the life of the process (the presets').
    pinned: HashMap<Key, Arc<Solution>>,
    /// Other solutions, least recently used first out.
    cache: LruCache<Key, Arc<Solution>>,
    /// Bytes held by `cache`.
    bytes: usize,
    /// Chains that failed (a defect), so they are not solved again and again.
    failed: LruCache<Key, OddsError>,
    /// Chains waiting to be solved, oldest first.
    queue: VecDeque<Job>,
    /// The chain being solved, and where its result goes.
    solving: Option<(Key, watch::Receiver<Outcome>)>,
    /// Whether the background thread runs.
    worker: bool,
}

impl State {
    /// Chains queued or being solved that count against the bound.
    fn pending(&self) -> usize {
        self.queue.iter().filter(|j| !j.pinned).count() + usize::from(self.solving.is_some())
    }

    fn receiver(&self, k: &Key) -> Option<(usize, watch::Receiver<Outcome>)> {
        if let Some((key, rx)) = &self.solving
            && key == k
        {
            return Some((0, rx.clone()));
        }
        self.queue.iter().position(|j| &j.key == k).map(|i| {
            (
                i + usize::from(self.solving.is_some()),
                self.queue[i].done.subscribe(),
            )
        })
    }
}

struct Shared {
    settings: Settings,
    state: Mutex<State>,
    work: Condvar,
    stop: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Stops the background thread when the last [`Solver`] handle goes.
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
        let mut state = self.0.lock();
        state.queue.clear();
        drop(state);
        self.0.work.notify_all();
    }
}

/// The odds service: a cache of solved chains, a bounded queue of chains to
/// solve, and one background thread solving them (see the module docs).
/// Cloning gives another handle to the same service.
#[derive(Clone)]
pub struct Solver(Arc<Owner>);

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("settings", &self.0.0.settings)
            .finish_non_exhaustive()
    }
}

impl Default for Solver {
    fn default() -> Self {
        Self::new(Settings::default())
    }
}

impl Solver {
    /// A service with these settings; its thread starts with the first
    /// chain queued and ends when the last handle is dropped (after the
    /// solve under way gives up).
    #[must_use]
    pub fn new(settings: Settings) -> Self {
        let cached = NonZeroUsize::new(settings.max_cached.max(1)).unwrap_or(NonZeroUsize::MIN);
        let failed = NonZeroUsize::new(16).unwrap_or(NonZeroUsize::MIN);
        Self(Arc::new(Owner(Arc::new(Shared {
            settings,
            state: Mutex::new(State {
                pinned: HashMap::new(),
                cache: LruCache::new(cached),
                bytes: 0,
                failed: LruCache::new(failed),
                queue: VecDeque::new(),
                solving: None,
                worker: false,
            }),
            work: Condvar::new(),
            stop: AtomicBool::new(false),
        }))))
    }

    /// The process's service, with the default settings: what the server
    /// uses.
    #[must_use]
    pub fn shared() -> Self {
        static SHARED: OnceLock<Solver> = OnceLock::new();
        SHARED.get_or_init(Self::default).clone()
    }

    fn shared_state(&self) -> &Arc<Shared> {
        &self.0.0
    }

    /// The settings in force.
    #[must_use]
    pub fn settings(&self) -> Settings {
        self.shared_state().settings
    }

    /// Queue every preset's chain as played (its own team sizes, side A
    /// first), ahead of any other chain and outside the queue's bound, so
    /// they are solved in the background; their solutions are kept for the
    /// life of the process. The server calls this once at start; calling it
    /// again queues only what is neither solved nor queued.
    pub fn solve_presets(&self) {
        let shared = self.shared_state();
        let mut state = shared.lock();
        let mut at = 0;
        for preset in Preset::ALL {
            let players = usize::from(preset.default_players());
            let Ok(table) = Table::new(preset.options(), [players; 2], Side::A) else {
                continue;
            };
            let k = key(&table);
            if state.pinned.contains_key(&k) || state.receiver(&k).is_some() {
                continue;
            }
            // A preset already in the cache moves to the kept ones.
            if let Some(sol) = state.cache.pop(&k) {
                state.bytes -= sol.bytes();
                state.pinned.insert(k, sol);
                continue;
            }
            let (done, _) = watch::channel(None);
            state.queue.insert(
                at,
                Job {
                    key: k,
                    table,
                    pinned: true,
                    done,
                },
            );
            at += 1;
        }
        self.start(&mut state);
    }

    /// The solution of `table` if it is solved and kept, without waiting or
    /// queueing anything.
    #[must_use]
    pub fn cached(&self, table: &Table) -> Option<Arc<Solution>> {
        let k = key(table);
        let mut state = self.shared_state().lock();
        if let Some(sol) = state.pinned.get(&k) {
            return Some(Arc::clone(sol));
        }
        state.cache.get(&k).cloned()
    }

    /// Chains queued or being solved (the presets' included).
    #[must_use]
    pub fn pending(&self) -> usize {
        let state = self.shared_state().lock();
        state.queue.len() + usize::from(state.solving.is_some())
    }

    /// The solution of `table`: at once from the cache; otherwise the chain
    /// is queued (unless it already is, or the queue is full) and this waits
    /// for it at most the budget.
    ///
    /// # Errors
    /// [`OddsError::TooLarge`] at once for a chain over
    /// [`MAX_STATES`]; the error of a failed solve (a defect).
    pub async fn lookup(&self, table: &Table) -> Result<Lookup, OddsError> {
        let states = box_size(table);
        if states > MAX_STATES {
            return Err(OddsError::TooLarge {
                states,
                max: MAX_STATES,
            });
        }
        let k = key(table);
        let (ahead, mut rx) = {
            let shared = self.shared_state();
            let mut state = shared.lock();
            if let Some(sol) = state.pinned.get(&k) {
                return Ok(Lookup::Solved(Arc::clone(sol)));
            }
            if let Some(sol) = state.cache.get(&k) {
                return Ok(Lookup::Solved(Arc::clone(sol)));
            }
            if let Some(e) = state.failed.get(&k) {
                return Err(e.clone());
            }
            match state.receiver(&k) {
                Some(found) => found,
                None => {
                    let pending = state.pending();
                    if pending >= shared.settings.max_pending {
                        return Ok(Lookup::QueueFull {
                            retry_after: retry_after(state.queue.len() + 1),
                        });
                    }
                    let (done, rx) = watch::channel(None);
                    state.queue.push_back(Job {
                        key: k,
                        table: table.clone(),
                        pinned: false,
                        done,
                    });
                    let ahead = state.queue.len() - 1 + usize::from(state.solving.is_some());
                    self.start(&mut state);
                    (ahead, rx)
                }
            }
        };
        let budget = self.shared_state().settings.budget;
        let waited = tokio::time::timeout(budget, rx.wait_for(Option::is_some)).await;
        match waited {
            Ok(Ok(outcome)) => match outcome.as_ref() {
                Some(Ok(sol)) => Ok(Lookup::Solved(Arc::clone(sol))),
                Some(Err(e)) => Err(e.clone()),
                None => Ok(Lookup::Pending {
                    retry_after: retry_after(ahead + 1),
                }),
            },
            // The job was dropped unsolved (the service is stopping).
            Ok(Err(_)) => Err(OddsError::Cancelled),
            Err(_) => Ok(Lookup::Pending {
                retry_after: retry_after(ahead + 1),
            }),
        }
    }

    /// Start the background thread if it is not running, and wake it.
    fn start(&self, state: &mut State) {
        let shared = Arc::clone(self.shared_state());
        if !state.worker {
            let spawned = std::thread::Builder::new()
                .name("odds-solver".to_owned())
                .spawn({
                    let shared = Arc::clone(&shared);
                    move || work(&shared)
                });
            match spawned {
                Ok(_) => state.worker = true,
                Err(e) => tracing::error!(error = %e, "cannot start the odds solver thread"),
            }
        }
        shared.work.notify_one();
    }
}

/// Seconds to ask again after, for a chain with `chains` chains to solve
/// before it is done (itself included): about one second each, the time a
/// preset's chain takes here.
fn retry_after(chains: usize) -> u32 {
    u32::try_from(chains.max(1)).unwrap_or(u32::MAX)
}

/// The background thread: solve the queued chains one at a time.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut state = shared.lock();
            loop {
                if shared.stop.load(Ordering::Relaxed) {
                    state.worker = false;
                    return;
                }
                if let Some(job) = state.queue.pop_front() {
                    state.solving = Some((job.key, job.done.subscribe()));
                    break job;
                }
                state = shared
                    .work
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        let started = std::time::Instant::now();
        let solved = solve_until(&job.table, &|| shared.stop.load(Ordering::Relaxed)).map(Arc::new);
        let mut state = shared.lock();
        state.solving = None;
        match &solved {
            Ok(sol) => {
                tracing::info!(
                    states = sol.states(),
                    sweeps = sol.sweeps,
                    seconds = started.elapsed().as_secs_f64(),
                    preset = job.pinned,
                    "odds solved"
                );
                if job.pinned {
                    state.pinned.insert(job.key, Arc::clone(sol));
                } else {
                    keep(&mut state, &shared.settings, job.key, Arc::clone(sol));
                }
            }
            Err(OddsError::Cancelled) => {}
            Err(e) => {
                tracing::error!(error = %e, "odds solve failed");
                state.failed.put(job.key, e.clone());
            }
        }
        drop(state);
        job.done.send_replace(Some(solved));
    }
}

/// Put a solution in the cache, dropping the least recently used ones past
/// the bounds (the newest is always kept).
fn keep(state: &mut State, settings: &Settings, k: Key, sol: Arc<Solution>) {
    state.bytes += sol.bytes();
    if let Some((_, old)) = state.cache.push(k, sol) {
        state.bytes -= old.bytes();
    }
    while state.cache.len() > 1
        && (state.bytes > settings.max_cache_bytes || state.cache.len() > settings.max_cached)
    {
        match state.cache.pop_lru() {
            Some((_, old)) => state.bytes -= old.bytes(),
            None => break,
        }
    }
}
