//! Use cases: create a game, throw, stop, delete, read, purge. Each owns its
//! transaction.
//!
//! Roles. A seated game has three tokens, each shown once at creation and
//! stored only as its SHA-256 hash: one per side and one for the host (the
//! teacher, the app). A server throw needs the mover's token or the
//! host's; a reported physical throw needs the host's, or the mover's when
//! the game was created with `sides_report_throws`; stopping and deleting
//! need the host's. A game seated before hosts existed has no host token:
//! there either side's token stops and deletes, and sides report their own
//! throws, as they could when it was created. A game without seats takes
//! every request from anyone. A game made in a class (`class.rs`) also
//! takes the class host's token wherever it takes its own host's.

// The crates below this one, by the names the modules use.
use zohn_ahl_domain as domain;
use zohn_ahl_narration as narration;
use zohn_ahl_rules as rules;
use zohn_ahl_store as store;

mod chance_chart;
mod chances;
mod class;
mod class_archive;
mod command;
mod error;
mod feed;
pub mod idempotency;
mod join;
mod new_game;
mod odds;
mod recap;
mod refusal;
mod verify;
mod writer;

pub mod archive;
pub mod fairness;
pub mod metrics;
pub mod throws;

pub use chance_chart::{ChartDrawing, KnownChances};
pub use chances::{ChanceTable, ChancesUnknown, move_chances, set_move_chances, states_before};
pub use class::{ClassRequest, CreatedClass, MAX_CLASS_GAMES, NewClass};
pub use class_archive::{CLASS_FORMAT, ClassArchive, ImportedClass};
pub use command::{
    Answer, Created, NewGame, PURGE_EVERY, Purged, Reissued, StopCommand, ThrowCommand, Tokens,
};
pub use error::ServiceError;
pub use join::Joined;

/// The version of the API the surfaces serve, defined here once: the
/// OpenAPI document's `info.version` and the MCP server's
/// `serverInfo.version`. Raised with each release of the API and recorded
/// in CHANGELOG.md (not the crates' versions, which stay 0.1.0).
pub const API_VERSION: &str = "0.7.0";
/// The most throws one request plays: a chatbot's run of throws (its
/// `count`, or how far a run `until` an event may go), and what such a run
/// counts against an address's limit of throws.
pub const MAX_RUN_THROWS: u32 = 500;

pub use new_game::{GameRequest, MAX_NAME_CHARS, MAX_PLAYERS, MAX_SEED_CHARS, SideRequest};
pub use odds::{GameChances, GameOdds, solution};
pub use recap::{Recap, recap, recap_facts};
pub use refusal::{FEED_RETRY_AFTER, Fault, MAX_ECHO_CHARS, Refusal, RefusalKind, echo};

pub use feed::{
    CHANNEL_BUFFER, Deletion, FEED_PER_GAME, FEED_TOTAL, FeedFull, FeedItem, FeedLimits, FeedMove,
    Hub, Subscription, Watch, WatchEvent,
};
pub use writer::{HOT_GAMES, MAX_BATCH};

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, oneshot};

use crate::domain::{Game, GameId, IdempotencyKey, MoveRecord, SeatToken, Subject, Timestamp};
use crate::rules::GameState;
use crate::store::{IDEMPOTENCY_LIFETIME, Store, StoreError};
use crate::throws::{FromSeed, ServerThrows};
use idempotency::{InFlight, InFlightSet, kept, replay};
use writer::{Job, Thrown};

type Result<T> = std::result::Result<T, ServiceError>;

/// The service: the rules, the narration and the store together.
#[derive(Clone, Debug)]
pub struct Service {
    store: Store,
    in_flight: InFlightSet,
    writer: mpsc::Sender<Job>,
    commits: Arc<AtomicU64>,
    replays: Arc<AtomicU64>,
    hub: Arc<Hub>,
    throws: Arc<dyn ServerThrows>,
}

impl Service {
    /// A service over an open store, committing up to [`MAX_BATCH`] throws
    /// together. Starts the single writer task, so it must be called inside
    /// a Tokio runtime.
    #[must_use]
    pub fn new(store: Store) -> Self {
        Self::with_max_batch(store, MAX_BATCH)
    }

    /// A service whose writer commits at most `max_batch` requests together
    /// (at least 1; 1 is one commit per throw). Must be called inside a
    /// Tokio runtime.
    #[must_use]
    pub fn with_max_batch(store: Store, max_batch: usize) -> Self {
        Self::with_limits(store, max_batch, FeedLimits::default())
    }

    /// A service whose writer commits at most `max_batch` requests together
    /// and whose live feed takes at most `feed` subscribers. Must be called
    /// inside a Tokio runtime.
    #[must_use]
    pub fn with_limits(store: Store, max_batch: usize, feed: FeedLimits) -> Self {
        Self::with_throws(store, max_batch, feed, Arc::new(FromSeed))
    }

    /// A service whose writer commits at most `max_batch` requests together,
    /// whose live feed takes at most `feed` subscribers, and whose server
    /// throws come from `throws` ([`FromSeed`] for a server; a scripted
    /// source for a test). Must be called inside a Tokio runtime.
    #[must_use]
    pub fn with_throws(
        store: Store,
        max_batch: usize,
        feed: FeedLimits,
        throws: Arc<dyn ServerThrows>,
    ) -> Self {
        let max_batch = max_batch.max(1);
        let (writer, jobs) = mpsc::channel(4 * max_batch);
        let commits = Arc::new(AtomicU64::new(0));
        let replays = Arc::new(AtomicU64::new(0));
        let hub = Hub::new(feed);
        tokio::spawn(writer::run(
            store.clone(),
            jobs,
            max_batch,
            Arc::clone(&commits),
            Arc::clone(&replays),
            Arc::clone(&hub),
            Arc::clone(&throws),
        ));
        if store.is_postgres() {
            tokio::spawn(feed::relay_other_writers(store.clone(), Arc::clone(&hub)));
        }
        Self {
            store,
            in_flight: Arc::default(),
            writer,
            commits,
            replays,
            hub,
            throws,
        }
    }

    /// Where this service's server throws come from: an imported archive's
    /// server throws are checked against it.
    #[must_use]
    pub fn server_throws(&self) -> Arc<dyn ServerThrows> {
        Arc::clone(&self.throws)
    }

    /// The live feed's hub (its bounds and subscriber counts).
    #[must_use]
    pub fn hub(&self) -> &Hub {
        &self.hub
    }

    /// The live feed's hub, shared (to end the feeds when the server stops).
    #[must_use]
    pub fn hub_handle(&self) -> Arc<Hub> {
        Arc::clone(&self.hub)
    }

    /// Watch a game: its snapshot (or, with `resume`, the moves after move
    /// `resume`), then each move as it is committed, then its end. The
    /// subscription is taken before the store is read, so that no move is
    /// missed and none told twice. Without `follow` the watch ends once
    /// what the store holds is told. [`WatchEvent::Idle`] comes after each
    /// `keep_alive` without news.
    ///
    /// # Errors
    /// [`ServiceError::FeedFull`] beyond the subscriber bounds;
    /// [`ServiceError::GameNotFound`]; storage errors.
    pub async fn watch(
        &self,
        id: GameId,
        resume: Option<u32>,
        follow: bool,
        keep_alive: std::time::Duration,
    ) -> Result<Watch> {
        let subscription = self.hub.subscribe(id)?;
        Watch::begin(
            subscription,
            self.store.clone(),
            id,
            resume,
            follow,
            keep_alive,
        )
        .await
    }

    /// Transactions the writer has committed so far (each may hold many
    /// throws).
    #[must_use]
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Batches the writer played twice so far: rolled back because a
    /// game's compare-and-set missed (another process wrote it without the
    /// batch's lock seeing it), then played again from the database.
    #[must_use]
    pub fn replays(&self) -> u64 {
        self.replays.load(Ordering::Relaxed)
    }

    /// The store (for readiness checks).
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The load benchmark's baseline: one tiny durable insert.
    ///
    /// # Errors
    /// A storage failure.
    #[cfg(feature = "bench-baseline")]
    pub async fn baseline_write(&self) -> Result<i64> {
        Ok(self.store.baseline_write().await?)
    }

    /// Whether the store answers and every migration is applied.
    pub async fn ready(&self) -> bool {
        self.store.ready().await.unwrap_or(false)
    }

    /// Create and store a game, answering with what `render` makes of it.
    /// With an idempotency key (and the SHA-256 of the request's body), the
    /// answer is kept with the game, in the same transaction, and a retry
    /// with the same key and body within 24 hours gets it again, byte for
    /// byte, tokens included, and makes no second game. The kept answer is
    /// deleted when the key expires (see [`Service::purge`]) or with the
    /// game.
    ///
    /// # Errors
    /// [`ServiceError::Setup`], [`ServiceError::KeyInFlight`],
    /// [`ServiceError::KeyReused`]; storage errors.
    pub async fn create(
        &self,
        new: NewGame,
        idempotency: Option<(IdempotencyKey, [u8; 32])>,
        render: fn(&Created) -> Vec<u8>,
    ) -> Result<Answer> {
        let _guard = idempotency
            .as_ref()
            .map(|(key, _)| InFlight::claim(&self.in_flight, None, key))
            .transpose()?;
        let (mut created, seats) = new_game::new_game(new)?;
        let at = time::OffsetDateTime::now_utc();
        let mut tx = self.store.begin().await?;
        if let Some((key, hash)) = &idempotency
            && let Some(stored) = tx.create_answer(key, at).await?
        {
            tx.rollback().await?;
            return replay(stored, hash);
        }
        tx.insert_game(&created.game, seats.as_ref()).await?;
        join::give_codes(&mut tx, &mut created).await?;
        let answer = Answer {
            subject: Subject::Game {
                id: created.game.id,
                version: created.game.version,
            },
            body: render(&created),
            replayed: false,
        };
        if let Some((key, hash)) = &idempotency {
            tx.keep_create_answer(key, created.game.id, &kept(&answer, hash), at)
                .await?;
        }
        tx.commit().await?;
        crate::metrics::game_created();
        Ok(answer)
    }

    /// The game with this id.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`]; storage errors.
    pub async fn game(&self, id: GameId) -> Result<Game> {
        self.store
            .game(id)
            .await?
            .ok_or(ServiceError::GameNotFound(id))
    }

    /// Play one throw for the side to move. The throw is handed to the
    /// single writer (its group commit is explained once, in the `writer`
    /// module): it takes the game (from
    /// memory when it wrote it recently), checks the seat token and the
    /// expected version, plays, narrates, writes the move and the new state
    /// and, with an idempotency key, keeps the answer that `render` makes
    /// from the new game and the move (without a key, `render` runs on the
    /// caller's thread, after the commit). A throw that fails writes nothing
    /// and does not hold back the others of its batch. The
    /// call returns only once the batch's commit is durable. A retry with
    /// the same key and request within 24 hours gets that answer again,
    /// byte for byte.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::GameOver`],
    /// [`ServiceError::Conflict`], [`ServiceError::ThrowMismatch`],
    /// [`ServiceError::Unauthorized`], [`ServiceError::Forbidden`],
    /// [`ServiceError::KeyInFlight`], [`ServiceError::KeyReused`]; storage errors.
    pub async fn throw(
        &self,
        id: GameId,
        cmd: ThrowCommand,
        render: fn(&Game, &MoveRecord) -> Vec<u8>,
    ) -> Result<Answer> {
        let _guard = cmd
            .idempotency
            .as_ref()
            .map(|(key, _)| InFlight::claim(&self.in_flight, Some(id), key))
            .transpose()?;
        let (reply, answer) = oneshot::channel();
        let job = Job::Throw {
            id,
            cmd,
            render,
            reply,
        };
        self.send(job).await?;
        match answer
            .await
            .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))?
        {
            Thrown::Played(game, record) => Ok(writer::thrown_answer(&game, &record, render)),
            Thrown::Answer(answer) => Ok(answer),
        }
    }

    /// Stop a game: more counters wins, equal counts are a draw. Stored as
    /// a new version without a move, through the single writer like a
    /// throw, and answered with what `render` makes of the stopped game and
    /// the stop's narration. A seated game needs the host's token (or, for
    /// a game seated before hosts existed, either side's). `If-Match` and
    /// an idempotency key work as for a throw: a stale version is
    /// [`ServiceError::Conflict`], a retry with the same key and request
    /// within 24 hours gets the first answer again, byte for byte.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::GameOver`],
    /// [`ServiceError::Conflict`], [`ServiceError::Unauthorized`],
    /// [`ServiceError::Forbidden`], [`ServiceError::HostOnly`],
    /// [`ServiceError::KeyInFlight`], [`ServiceError::KeyReused`]; storage errors.
    pub async fn stop(
        &self,
        id: GameId,
        cmd: StopCommand,
        render: fn(&Game, &narration::Narration) -> Vec<u8>,
    ) -> Result<Answer> {
        let _guard = cmd
            .idempotency
            .as_ref()
            .map(|key| InFlight::claim(&self.in_flight, Some(id), key))
            .transpose()?;
        let (reply, answer) = oneshot::channel();
        let job = Job::Stop {
            id,
            cmd,
            render,
            reply,
        };
        self.send(job).await?;
        answer
            .await
            .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))
    }

    /// Delete a game with its moves, seats and idempotency keys, through
    /// the single writer; its live-feed watchers are told, and their
    /// streams end. A seated game needs the host's token (or, for a
    /// game seated before hosts existed, either side's); a game without
    /// seats may be deleted by anyone, as anyone may play it.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::Unauthorized`],
    /// [`ServiceError::Forbidden`], [`ServiceError::HostOnly`]; storage errors.
    pub async fn delete(&self, id: GameId, token: Option<SeatToken>) -> Result<()> {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Delete { id, token, reply }).await?;
        answer
            .await
            .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))
    }

    /// Give `side`'s seat of a seated game a new token, through the single
    /// writer: the old token is refused from the commit on. The host's
    /// token, as for a stop (or, for a game seated before hosts existed,
    /// either side's).
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::Unauthorized`],
    /// [`ServiceError::Forbidden`], [`ServiceError::HostOnly`],
    /// [`ServiceError::NotSeated`]; storage errors.
    pub async fn reissue(
        &self,
        id: GameId,
        side: rules::Side,
        token: Option<SeatToken>,
    ) -> Result<Reissued> {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Reissue {
            id,
            side,
            token,
            reply,
        })
        .await?;
        answer
            .await
            .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))
    }

    /// Purge as of `at`: delete every idempotency answer older than 24
    /// hours (an answer to a creation holds the game's tokens) and, with a
    /// `retention`, with its moves, seats and keys, every game finished
    /// (won or stopped) longer ago than that, and every game left
    /// unfinished with no move for longer than that (see
    /// [`Store::games_untouched_since`](crate::store::Store::games_untouched_since)),
    /// and every class made longer ago than that with no game left.
    /// The candidates are found on a reader connection; the single writer
    /// deletes them, keeping any game played meanwhile.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn purge(
        &self,
        at: time::OffsetDateTime,
        retention: Option<time::Duration>,
    ) -> Result<Purged> {
        const CHUNK: u32 = 512;
        let mut purged = Purged::default();
        let games_before = retention.map(|r| Timestamp::at(at - r));
        loop {
            let ids = match &games_before {
                Some(before) => self.store.games_untouched_since(before, CHUNK).await?,
                None => Vec::new(),
            };
            let full = ids.len() == CHUNK as usize;
            let (reply, answer) = oneshot::channel();
            self.send(Job::Purge {
                games: ids,
                games_before: games_before.clone(),
                keys_before: Timestamp::at(at - IDEMPOTENCY_LIFETIME),
                reply,
            })
            .await?;
            let (games, keys) = answer
                .await
                .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))?;
            purged.games += games;
            purged.keys += keys;
            if !full || games == 0 {
                return Ok(purged);
            }
        }
    }

    /// The housekeeping task: [`Service::purge`] now, then every `every`,
    /// for ever (with `retention`, games finished or left unfinished for
    /// longer are deleted).
    /// Failures are logged and tried again next time.
    pub async fn keep_house(self, retention: Option<time::Duration>, every: std::time::Duration) {
        loop {
            match self.purge(time::OffsetDateTime::now_utc(), retention).await {
                Ok(p) if p.games > 0 || p.keys > 0 => {
                    tracing::info!(games = p.games, keys = p.keys, "purged");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "the purge failed; trying again later"),
            }
            tokio::time::sleep(every).await;
        }
    }

    /// Hand a job to the single writer.
    async fn send(&self, job: Job) -> Result<()> {
        self.writer
            .send(job)
            .await
            .map_err(|_| ServiceError::Store(StoreError::Busy))
    }

    /// The game and its moves after move `after` (0: from the start), at
    /// most `limit`, oldest first.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`]; storage errors.
    pub async fn moves(
        &self,
        id: GameId,
        after: u32,
        limit: u32,
    ) -> Result<(Game, Vec<MoveRecord>)> {
        let game = self.game(id).await?;
        let moves = self.store.moves(id, after, limit).await?;
        Ok((game, moves))
    }

    /// The game and its board (the state) as move `n` left it; `None`:
    /// as it stands now.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::MoveNotFound`]; storage errors.
    pub async fn board_after(&self, id: GameId, n: Option<u32>) -> Result<(Game, GameState)> {
        let state = match n {
            Some(n) => Some(self.move_record(id, n).await?.state),
            None => None,
        };
        let game = self.game(id).await?;
        let state = state.unwrap_or_else(|| game.state.clone());
        Ok((game, state))
    }

    /// Move number `n`.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::MoveNotFound`]; storage errors.
    pub async fn move_record(&self, id: GameId, n: u32) -> Result<MoveRecord> {
        match self.store.move_record(id, n).await? {
            Some(m) => Ok(m),
            None => {
                self.game(id).await?;
                Err(ServiceError::MoveNotFound(id, n))
            }
        }
    }
}
