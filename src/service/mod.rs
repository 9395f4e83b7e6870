//! Use cases: create a game, throw, stop, read. Each owns its transaction.

mod feed;
mod writer;

pub use feed::{
    FEED_PER_GAME, FEED_TOTAL, FeedFull, FeedItem, FeedLimits, FeedMove, Hub, Subscription, Watch,
    WatchEvent,
};
pub use writer::{HOT_GAMES, MAX_BATCH};

use crate::narration::{self, Audience};
use crate::rules::{self, Options, Preset, RulesError, SetupError, Side, Throw, ThrowMismatch};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use tokio::sync::{mpsc, oneshot};

use crate::domain::{Game, GameId, MoveRecord, Setup, SideSetup};
use crate::store::{Store, StoreError};
use crate::throws::fresh_seed;
use writer::{Job, Thrown};

/// A use case that cannot be carried out.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// No game with that id.
    #[error("no game has the id {0}")]
    GameNotFound(GameId),
    /// No move with that number in the game.
    #[error("game {0} has no move {1}")]
    MoveNotFound(GameId, u32),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The game moved on while this request was being served.
    #[error("the game changed while the throw was being played; it is now at version {current}")]
    Conflict {
        /// The game's version now.
        current: u32,
    },
    /// The reported throw does not fit the game's throw table.
    #[error(transparent)]
    ThrowMismatch(#[from] ThrowMismatch),
    /// The setup is out of bounds.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A seated game's throw came without a seat token, or with one that is
    /// no seat's.
    #[error(
        "this game is seated: send the token of the side to move as `Authorization: Bearer <token>`"
    )]
    Unauthorized,
    /// The token is another side's or another game's.
    #[error("this token is not the seat of the side to move in this game")]
    Forbidden,
    /// A request with this idempotency key is still being played.
    #[error("a request with this Idempotency-Key is still being processed; retry after it answers")]
    KeyInFlight,
    /// This idempotency key was used for a different request.
    #[error("this Idempotency-Key was used with a different request; use a new key")]
    KeyReused,
    /// The live feed has its most subscribers, for the game or in all.
    #[error(transparent)]
    FeedFull(#[from] FeedFull),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError {
    /// Whether the store was too busy (or could not make a write durable):
    /// the request may be tried again shortly.
    #[must_use]
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            ServiceError::Store(StoreError::Busy | StoreError::Unavailable)
        )
    }
}

impl From<RulesError> for ServiceError {
    fn from(e: RulesError) -> Self {
        match e {
            RulesError::GameOver => ServiceError::GameOver,
            RulesError::Throw(m) => ServiceError::ThrowMismatch(m),
        }
    }
}

type Result<T> = std::result::Result<T, ServiceError>;

/// A validated request to create a game.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Preset the options start from.
    pub preset: Preset,
    /// Resolved options (preset plus overrides).
    pub options: Options,
    /// Side A then side B: name and player names (empty: one player named
    /// after the side, or the preset's default team size).
    pub sides: [(String, Vec<String>); 2],
    /// Who throws first.
    pub first: Side,
    /// The seed; `None`: a fresh random one, kept secret until the end.
    pub seed: Option<String>,
    /// Narration audience.
    pub audience: Audience,
    /// Whether throws need a seat token per side.
    pub seats: bool,
}

/// A new game and, for a seated game, its side tokens (A first), shown
/// only this once.
#[derive(Clone, Debug)]
pub struct Created {
    /// The game.
    pub game: Game,
    /// The seat tokens, for a seated game.
    pub tokens: Option<[String; 2]>,
}

/// A throw request, as the service needs it.
#[derive(Clone, Debug, Default)]
pub struct ThrowCommand {
    /// A physical throw reported by the client; `None`: the server throws.
    pub reported: Option<Throw>,
    /// Play only if the game is at this version (`If-Match`).
    pub expected_version: Option<u32>,
    /// The bearer token, for seated games.
    pub token: Option<String>,
    /// The idempotency key and the SHA-256 of the request's body.
    pub idempotency: Option<(String, [u8; 32])>,
}

/// The answer to a throw, as sent: kept under an idempotency key so that a
/// retry gets it byte for byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move's URL.
    pub location: String,
    /// The game's new ETag.
    pub etag: String,
    /// The body.
    pub body: Vec<u8>,
    /// `true` when this is the replay of an earlier answer.
    pub replayed: bool,
}

fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A fresh seat token: 256 bits from the operating system's generator, hex.
fn fresh_token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Removes an idempotency key from the in-flight set when dropped.
struct InFlight {
    set: Arc<Mutex<HashSet<(GameId, String)>>>,
    entry: (GameId, String),
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.entry);
    }
}

/// The service: the rules, the narration and the store together.
#[derive(Clone, Debug)]
pub struct Service {
    store: Store,
    in_flight: Arc<Mutex<HashSet<(GameId, String)>>>,
    writer: mpsc::Sender<Job>,
    commits: Arc<AtomicU64>,
    hub: Arc<Hub>,
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
        let max_batch = max_batch.max(1);
        let (writer, jobs) = mpsc::channel(4 * max_batch);
        let commits = Arc::new(AtomicU64::new(0));
        let hub = Hub::new(feed);
        tokio::spawn(writer::run(
            store.clone(),
            jobs,
            max_batch,
            Arc::clone(&commits),
            Arc::clone(&hub),
        ));
        Self {
            store,
            in_flight: Arc::default(),
            writer,
            commits,
            hub,
        }
    }

    /// The live feed's hub (its bounds and subscriber counts).
    #[must_use]
    pub fn hub(&self) -> &Hub {
        &self.hub
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

    /// Create and store a game.
    ///
    /// # Errors
    /// [`ServiceError::Setup`] for out-of-bounds options or teams; storage errors.
    pub async fn create_game(&self, new: NewGame) -> Result<Created> {
        let default_players = usize::from(new.preset.default_players());
        let sides = new.sides.map(|(name, players)| {
            let players = if players.is_empty() {
                if default_players == 1 {
                    vec![name.clone()]
                } else {
                    (1..=default_players)
                        .map(|i| format!("{name} {i}"))
                        .collect()
                }
            } else {
                players
            };
            SideSetup { name, players }
        });
        let setup = Setup {
            preset: new.preset,
            options: new.options,
            sides,
            first: new.first,
            audience: new.audience,
        };
        let table = setup.table()?;
        let (seed, seeded) = match new.seed {
            Some(seed) => (seed, true),
            None => (fresh_seed(), false),
        };
        let game = Game {
            id: GameId::new(),
            created_at: String::new(),
            updated_at: String::new(),
            state: rules::GameState::new(&table),
            setup,
            seed,
            seeded,
            seated: new.seats,
            version: 0,
            told_facts: Vec::new(),
        };
        let tokens = new.seats.then(|| [fresh_token(), fresh_token()]);
        let hashes = tokens.as_ref().map(|[a, b]| [token_hash(a), token_hash(b)]);
        self.store.insert_game(&game, hashes).await?;
        Ok(Created {
            game: self.game(game.id).await?,
            tokens,
        })
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
    /// single writer, which plays the throws that arrive together, for any
    /// games, in one `BEGIN IMMEDIATE` transaction (group commit: one fsync
    /// for the batch; see the `writer` module): it takes the game (from
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
        render: fn(&Game, &MoveRecord) -> Answer,
    ) -> Result<Answer> {
        let _guard = match &cmd.idempotency {
            Some((key, _)) => {
                let entry = (id, key.clone());
                let fresh = self
                    .in_flight
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(entry.clone());
                if !fresh {
                    return Err(ServiceError::KeyInFlight);
                }
                Some(InFlight {
                    set: Arc::clone(&self.in_flight),
                    entry,
                })
            }
            None => None,
        };
        let (reply, answer) = oneshot::channel();
        let job = Job::Throw {
            id,
            cmd,
            render,
            reply,
        };
        self.writer
            .send(job)
            .await
            .map_err(|_| ServiceError::Store(StoreError::Busy))?;
        match answer
            .await
            .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))?
        {
            Thrown::Played(game, record) => Ok(render(&game, &record)),
            Thrown::Answer(answer) => Ok(answer),
        }
    }

    /// Stop a game: more counters wins, equal counts are a draw. Stored as
    /// a new version without a move, through the single writer like a
    /// throw. A seated game needs either side's token.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::GameOver`],
    /// [`ServiceError::Unauthorized`], [`ServiceError::Forbidden`]; storage errors.
    pub async fn stop(
        &self,
        id: GameId,
        token: Option<&str>,
    ) -> Result<(Game, narration::Narration)> {
        let (reply, answer) = oneshot::channel();
        let job = Job::Stop {
            id,
            token: token.map(str::to_owned),
            reply,
        };
        self.writer
            .send(job)
            .await
            .map_err(|_| ServiceError::Store(StoreError::Busy))?;
        answer
            .await
            .unwrap_or(Err(ServiceError::Store(StoreError::Busy)))
    }

    /// Check every stored game: its moves are numbered 1, 2, ... without a
    /// gap or a double, and its state equals the replay of its moves (then a
    /// stop, for a game stopped early). Returns the number of games checked
    /// and a description of each fault.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn verify(&self) -> Result<(usize, Vec<String>)> {
        let ids = self.store.game_ids().await?;
        let mut faults = Vec::new();
        for &id in &ids {
            let game = self.game(id).await?;
            let moves = self.store.moves(id, 0, u32::MAX).await?;
            for (i, m) in moves.iter().enumerate() {
                if m.n as usize != i + 1 {
                    faults.push(format!("game {id}: move {} stored at place {}", m.n, i + 1));
                    break;
                }
            }
            let table = game.setup.table()?;
            let throws: Vec<Throw> = moves.iter().map(|m| m.throw).collect();
            let mut replayed = match rules::replay(&table, &throws) {
                Ok(s) => s,
                Err(e) => {
                    faults.push(format!("game {id}: replay fails: {e}"));
                    continue;
                }
            };
            let stopped = game.version as usize == moves.len() + 1;
            if stopped && let Ok((s, _)) = rules::stop(&replayed) {
                replayed = s;
            }
            if replayed != game.state {
                faults.push(format!(
                    "game {id}: stored state differs from the replay of its moves"
                ));
            }
            if game.version as usize != moves.len() + usize::from(stopped) {
                faults.push(format!(
                    "game {id}: version {} for {} moves",
                    game.version,
                    moves.len()
                ));
            }
        }
        Ok((ids.len(), faults))
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
