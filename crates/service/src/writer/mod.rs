//! The single writer: every throw and every stop goes through one task that
//! plays the requests that arrive together, for any games, in one
//! `BEGIN IMMEDIATE` transaction and commits them together (group commit),
//! answering each request only once that commit is durable. The commit
//! itself does not wait for the disk: the batch goes to the deliverer
//! (`commit::deliver`), which syncs the log once for every batch committed
//! meanwhile and then answers, while the writer plays and writes the next
//! batch.
//!
//! A deletion, a purge and a seat's new token are exclusive: each is
//! committed alone, in arrival order with the requests around it; the
//! games a removal removes leave the memory with it, and a seat's new
//! token hash replaces the old one in the memory once committed.
//!
//! Since it is the only writer, it keeps the games it wrote last in memory
//! (at most [`HOT_GAMES`], least recently used out first): the state, the
//! seat hashes and the previous move's narration, so that a throw for a
//! game it holds costs no read. A batch is then a handful of statements
//! whatever its size: `BEGIN IMMEDIATE`, one `UPDATE` of every
//! game it changed (a compare-and-set on each game's version), one
//! `INSERT` of every move, the idempotency answers, `COMMIT`.
//!
//! Each batch first locks the rows of all its games at once, in one order
//! (by id; nothing to do on SQLite, whose write transaction holds the
//! whole file). On PostgreSQL, where several instances share the database
//! by design, that lock also reads each game's version: a game held in
//! memory at that version is played from memory, the others (never held,
//! or written or deleted by another instance since) are read again, all
//! in two statements. Another instance's batch on the same games waits
//! for this one's commit, then finds the versions moved on; two instances'
//! batches on the same games wait for each other rather than deadlock.
//! Should a compare-and-set still miss (a process that wrote without
//! locking), the batch is rolled back, the memory is dropped and the batch
//! played again from the database. Should the commit fail, the requests
//! of the batch get an error, nothing of the batch is written and the
//! games it touched are read again next time.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use lru::LruCache;
use tokio::sync::mpsc;

use super::feed::Hub;
use super::{Answer, ServiceError, StopCommand, ThrowCommand};
use crate::domain::RulesStated;
use crate::domain::{
    Game, GameId, IdempotencyKey, MoveRecord, Seats, Subject, ThrowOrigin, Timestamp, Turn,
    Version, play_move,
};
use crate::narration::{self, Narration};
use crate::rules;
use crate::store::{GameToPlay, Store, StoreError, WriteTx};
use crate::throws::ServerThrows;

mod commit;
mod job;
mod reissue;
mod removal;
mod roles;

use crate::idempotency::{replay, stop_request_hash, throw_request_hash};
use commit::{Outbox, deliver, finish, flush};
pub(super) use job::{Job, Thrown};
use removal::write_alone;
use roles::{Role, check_host, role};

type Result<T> = std::result::Result<T, ServiceError>;

/// Most requests committed together, by default.
pub const MAX_BATCH: usize = 64;

/// Most games the writer keeps in memory between batches.
pub const HOT_GAMES: usize = 1024;

/// A game as the writer holds it.
#[derive(Clone, Debug)]
struct Hot {
    /// Shared with the answers and the live feed of its last move; a move
    /// copies it only while one of those still holds it
    /// ([`Arc::make_mut`]).
    game: Arc<Game>,
    /// The hashes of the tokens, for a seated game.
    seats: Option<Seats>,
    /// The last move's narration (its rules are not repeated word for word
    /// by the next move, and its memory of the rules stated carries on).
    previous: Option<Previous>,
}

/// The last move's narration: of a move this writer played (shared with
/// that move's answer), or as read from the store.
#[derive(Clone, Debug)]
enum Previous {
    Played(Arc<MoveRecord>),
    Read(Narration),
}

impl Previous {
    fn narration(&self) -> &Narration {
        match self {
            Previous::Played(record) => &record.narration,
            Previous::Read(narration) => narration,
        }
    }
}

impl From<GameToPlay> for Hot {
    fn from(read: GameToPlay) -> Self {
        Self {
            game: Arc::new(read.game),
            seats: read.seats,
            previous: read.previous.map(Previous::Read),
        }
    }
}

/// A game touched by the batch: as it was read (its version then, for the
/// compare-and-set) and as the batch left it.
struct Touched {
    read_version: Version,
    changed: bool,
    hot: Hot,
}

/// What a request of the batch did, before the batch is written.
enum Played {
    /// A throw was played: the game after it and its move.
    Throw {
        game: Arc<Game>,
        record: Arc<MoveRecord>,
        /// The idempotency key and request hash to keep the answer under.
        keep: Option<(IdempotencyKey, Vec<u8>)>,
    },
    /// An earlier answer under the same idempotency key.
    Replay(Answer),
    /// The game was stopped.
    Stop {
        game: Arc<Game>,
        narration: Narration,
        /// The idempotency key and request hash to keep the answer under.
        keep: Option<(IdempotencyKey, Vec<u8>)>,
    },
}

/// The writer task, taking at most `max_batch` requests at a time: runs
/// until every sender is gone.
pub(super) async fn run(
    store: Store,
    mut jobs: mpsc::Receiver<Job>,
    max_batch: usize,
    commits: Arc<AtomicU64>,
    replays: Arc<AtomicU64>,
    hub: Arc<Hub>,
    throws: Arc<dyn ServerThrows>,
) {
    let mut hot = LruCache::new(NonZeroUsize::new(HOT_GAMES).unwrap_or(NonZeroUsize::MIN));
    let mut batch = Vec::with_capacity(max_batch);
    let (out, deliveries) = mpsc::unbounded_channel();
    let deliverer = tokio::spawn(deliver(store.clone(), Arc::clone(&hub), deliveries));
    while jobs.recv_many(&mut batch, max_batch).await > 0 {
        let mut group = Vec::with_capacity(batch.len());
        for job in batch.drain(..) {
            if job.is_exclusive() {
                if !group.is_empty() {
                    write_batch(
                        &store,
                        &mut hot,
                        std::mem::take(&mut group),
                        [&commits, &replays],
                        &out,
                        throws.as_ref(),
                    )
                    .await;
                }
                // The removal's feed items after every earlier batch's.
                flush(&out).await;
                write_alone(&store, &mut hot, job, &commits, &hub).await;
            } else {
                group.push(job);
            }
        }
        if !group.is_empty() {
            write_batch(
                &store,
                &mut hot,
                group,
                [&commits, &replays],
                &out,
                throws.as_ref(),
            )
            .await;
            if max_batch == 1 {
                // One commit, so one fsync, per throw: no batch written
                // while the last one is synced.
                flush(&out).await;
            }
        }
        // Between two batches: let a long log wrap (the checkpoint that
        // allows it syncs the log and then the database, so a batch still
        // waiting for its sync is on the disk before the log is overwritten).
        if let Err(e) = store.wrap_wal().await {
            tracing::warn!(error = %e, "cannot let the write-ahead log wrap");
        }
    }
    // Every batch committed is delivered before the writer ends.
    drop(out);
    let _ = deliverer.await;
}

/// The error a request gets when its batch cannot be written.
fn batch_error(e: &StoreError) -> ServiceError {
    match e {
        StoreError::Busy => StoreError::Busy.into(),
        StoreError::Unreachable(cause) => StoreError::Unreachable(cause.clone()).into(),
        _ => StoreError::Unavailable.into(),
    }
}

async fn write_batch(
    store: &Store,
    cache: &mut LruCache<GameId, Hot>,
    jobs: Vec<Job>,
    [commits, replays]: [&AtomicU64; 2],
    out: &Outbox,
    throws: &dyn ServerThrows,
) {
    // Played once from memory; played again from the database only if the
    // compare-and-set shows that another process wrote one of the games.
    for attempt in 0..2 {
        let mut tx = match store.begin().await {
            Ok(tx) => tx,
            Err(e) => {
                tracing::warn!(error = %e, "cannot start a write transaction");
                return jobs.into_iter().for_each(|job| job.fail(batch_error(&e)));
            }
        };
        // Every game of the batch locked at once, in one order: another
        // instance's batch on some of the same games waits for this one
        // (or this one for it) instead of the two deadlocking.
        let ids: Vec<GameId> = jobs.iter().filter_map(Job::game).collect();
        if let Err(e) = hold(&mut tx, cache, &ids).await {
            tracing::warn!(error = %e, "cannot lock and read the batch's games");
            let _ = tx.rollback().await;
            return jobs.into_iter().for_each(|job| job.fail(batch_error(&e)));
        }
        let at = time::OffsetDateTime::now_utc();
        let now = Timestamp::at(at);
        let mut touched: HashMap<GameId, Touched> = HashMap::new();
        let mut played = Vec::with_capacity(jobs.len());
        for job in &jobs {
            played.push(play(&mut tx, cache, &mut touched, job, (&now, at), throws).await);
        }
        match save(&mut tx, &touched, &played, &now).await {
            Ok(true) => {}
            Ok(false) if attempt == 0 => {
                tracing::warn!("a game was changed by another writer; playing the batch again");
                replays.fetch_add(1, Ordering::Relaxed);
                let _ = tx.rollback().await;
                cache.clear();
                continue;
            }
            Ok(false) => {
                let _ = tx.rollback().await;
                cache.clear();
                return jobs
                    .into_iter()
                    .for_each(|job| job.fail(StoreError::Unavailable.into()));
            }
            Err(e) => {
                tracing::warn!(error = %e, "a batch could not be written");
                let _ = tx.rollback().await;
                return jobs.into_iter().for_each(|job| job.fail(batch_error(&e)));
            }
        }
        finish(tx, cache, touched, jobs, played, commits, out).await;
        return;
    }
}

/// Lock the batch's games and have each in memory as the database has
/// it: a game held at the version its locked row has is kept; the others
/// (never held, or written or deleted by another instance since) are read
/// again, all in one go.
async fn hold(
    tx: &mut WriteTx,
    cache: &mut LruCache<GameId, Hot>,
    ids: &[GameId],
) -> std::result::Result<(), StoreError> {
    let locked = tx.lock_games(ids).await?;
    let mut missing = Vec::new();
    for &id in ids {
        let current = cache
            .get(&id)
            .is_some_and(|hot| locked.is_current(id, hot.game.version));
        if !current && !missing.contains(&id) {
            cache.pop(&id);
            missing.push(id);
        }
    }
    for read in tx.games_to_play(&missing).await? {
        cache.put(read.game.id, read.into());
    }
    Ok(())
}

/// Play one request against the batch's games (read from memory or the
/// transaction), checking seat, version and idempotency key, at `now`
/// (`at`, as the clock read it, says which kept answers have expired).
async fn play(
    tx: &mut WriteTx,
    cache: &mut LruCache<GameId, Hot>,
    touched: &mut HashMap<GameId, Touched>,
    job: &Job,
    (now, at): (&Timestamp, time::OffsetDateTime),
    throws: &dyn ServerThrows,
) -> Result<Played> {
    let (id, key, request_hash) = match job {
        Job::Throw { id, cmd, .. } => (
            *id,
            cmd.idempotency.as_ref().map(|(key, _)| key),
            throw_request_hash(cmd),
        ),
        Job::Stop { id, cmd, .. } => (*id, cmd.idempotency.as_ref(), stop_request_hash(cmd)),
        Job::Delete { .. } | Job::Purge { .. } | Job::Reissue { .. } => {
            return Err(StoreError::Unavailable.into());
        }
    };
    // The game first (on PostgreSQL its row is locked until the commit, so
    // that another instance's request for it waits), then the key: a key
    // answered meanwhile by another instance is seen.
    let entry = match touched.entry(id) {
        Entry::Occupied(e) => e.into_mut(),
        Entry::Vacant(e) => {
            let hot = match cache.pop(&id) {
                Some(hot) => hot,
                None => load(tx, id).await?,
            };
            e.insert(Touched {
                read_version: hot.game.version,
                changed: false,
                hot,
            })
        }
    };
    if let (Some(key), Some(hash)) = (key, &request_hash)
        && let Some(stored) = tx.idempotent_answer(id, key, at).await?
    {
        return replay(stored, hash).map(Played::Replay);
    }
    let keep = key
        .zip(request_hash)
        .map(|(key, hash)| (key.clone(), hash.to_vec()));
    match job {
        Job::Throw { cmd, .. } => {
            let record = throw(tx, &mut entry.hot, cmd, now, throws).await?;
            entry.changed = true;
            Ok(Played::Throw {
                game: Arc::clone(&entry.hot.game),
                record,
                keep,
            })
        }
        Job::Stop { cmd, .. } => {
            let narration = stop(tx, &mut entry.hot, cmd, now).await?;
            entry.changed = true;
            Ok(Played::Stop {
                game: Arc::clone(&entry.hot.game),
                narration,
                keep,
            })
        }
        Job::Delete { .. } | Job::Purge { .. } | Job::Reissue { .. } => {
            Err(StoreError::Unavailable.into())
        }
    }
}

/// Read a game, its seats and its last move's narration.
async fn load(tx: &mut WriteTx, id: GameId) -> Result<Hot> {
    let read = tx.games_to_play(&[id]).await?.pop();
    read.map(Hot::from).ok_or(ServiceError::GameNotFound(id))
}

/// Play one throw on a game, in place: the move. Nothing changes when it
/// fails.
async fn throw(
    tx: &mut WriteTx,
    hot: &mut Hot,
    cmd: &ThrowCommand,
    now: &Timestamp,
    throws: &dyn ServerThrows,
) -> Result<Arc<MoveRecord>> {
    let game = &hot.game;
    let table = game.setup.table()?;
    let seat = game.state.to_throw(&table);
    match role(tx, hot, cmd.token.as_ref()).await? {
        Role::Anyone | Role::Host => {}
        Role::Side(side) if side != seat.side => return Err(ServiceError::Forbidden),
        Role::Side(_) if cmd.reported.is_some() && !hot.game.sides_report_throws => {
            return Err(ServiceError::HostOnly(
                "report a physical throw in this game (it was created without `sides_report_throws`)",
            ));
        }
        Role::Side(_) => {}
    }
    let game = &hot.game;
    if let Some(expected) = cmd.expected_version
        && expected != game.version
    {
        return Err(ServiceError::Conflict {
            current: game.version,
        });
    }
    if game.state.is_finished() {
        return Err(ServiceError::GameOver);
    }
    let version = game.version.next();
    let n = version.get();
    let (throw, origin) = match cmd.reported {
        Some(t) => (t, ThrowOrigin::Reported),
        None => (
            throws.throw(game.seed.as_str(), table.options().throw_table, n),
            ThrowOrigin::Server,
        ),
    };
    let cast = game.setup.cast();
    let audience = game.setup.audience;
    let previous = hot.previous.as_ref().map(Previous::narration);
    let game = Arc::make_mut(&mut hot.game);
    let turn = Turn {
        table: &table,
        cast: &cast,
        audience,
        state: &game.state,
        previous,
    };
    let record = Arc::new(play_move(&turn, n, throw, origin, &mut game.told_facts)?);
    game.state = record.state.clone();
    game.version = version;
    now.clone_into(&mut game.updated_at);
    hot.previous = Some(Previous::Played(Arc::clone(&record)));
    Ok(record)
}

/// Stop a game, in place: the stop's narration. A seated game needs the
/// host's token. Nothing changes when it fails.
async fn stop(
    tx: &mut WriteTx,
    hot: &mut Hot,
    cmd: &StopCommand,
    now: &Timestamp,
) -> Result<Narration> {
    check_host(tx, hot, cmd.token.as_ref(), "stop this game").await?;
    if let Some(expected) = cmd.expected_version
        && expected != hot.game.version
    {
        return Err(ServiceError::Conflict {
            current: hot.game.version,
        });
    }
    let (state, event) = rules::stop(&hot.game.state)?;
    let game = Arc::make_mut(&mut hot.game);
    let narration = narration::narrate_stop(
        &game.setup.options,
        &game.setup.cast(),
        game.setup.audience,
        state.counters,
        &event,
    );
    game.state = state;
    game.version = game.version.next();
    now.clone_into(&mut game.updated_at);
    Ok(narration)
}

/// Write every game the batch changed (compare-and-set on the version each
/// had when read) and every move. `Ok(false)` when a game's version moved
/// on meanwhile (another writer): nothing may be committed then.
async fn save(
    tx: &mut WriteTx,
    touched: &HashMap<GameId, Touched>,
    played: &[Result<Played>],
    now: &Timestamp,
) -> std::result::Result<bool, StoreError> {
    let games: Vec<(&Game, Version, Option<&RulesStated>)> = touched
        .values()
        .filter(|t| t.changed)
        .map(|t| {
            let memory = t.hot.previous.as_ref().map(|p| &p.narration().rules_stated);
            (&*t.hot.game, t.read_version, memory)
        })
        .collect();
    let moves: Vec<(GameId, &MoveRecord)> = played
        .iter()
        .filter_map(|p| match p {
            Ok(Played::Throw { game, record, .. }) => Some((game.id, record.as_ref())),
            _ => None,
        })
        .collect();
    tx.save_batch(now, &games, &moves).await
}

/// The answer to a throw: the move it played, with the body `render`
/// makes of the game after it and the move.
pub(crate) fn thrown_answer(game: &Game, record: &MoveRecord, render: job::Render) -> Answer {
    Answer {
        subject: Subject::Move {
            id: game.id,
            version: game.version,
            n: record.n,
        },
        body: render(game, record),
        replayed: false,
    }
}

/// The answer to a stop: the stopped game, with the body `render` makes of
/// it and the stop's narration.
pub(crate) fn stopped_answer(
    game: &Game,
    narration: &Narration,
    render: job::StopRender,
) -> Answer {
    Answer {
        subject: Subject::Game {
            id: game.id,
            version: game.version,
        },
        body: render(game, narration),
        replayed: false,
    }
}
