//! Use cases: create a game, throw, stop, read. Each owns its transaction.

pub mod model;

use crate::narration::{self, Audience, MoveContext};
use crate::rules::{self, Options, Preset, RulesError, SetupError, Side, Throw, ThrowMismatch};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use tokio::sync::{mpsc, oneshot};

use crate::store::{Store, StoreError, StoredAnswer, WriteTx};
use crate::throws::{SeededThrows, ThrowSource, fresh_seed};
use model::{Game, GameId, MoveRecord, Setup, SideSetup, ThrowOrigin};

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
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
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
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl Service {
    /// A service over an open store. Starts the single writer task, so it
    /// must be called inside a Tokio runtime.
    #[must_use]
    pub fn new(store: Store) -> Self {
        let (writer, jobs) = mpsc::channel(4 * MAX_BATCH);
        let commits = Arc::new(AtomicU64::new(0));
        tokio::spawn(self::writer(store.clone(), jobs, Arc::clone(&commits)));
        Self {
            store,
            in_flight: Arc::default(),
            writer,
            commits,
        }
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
    /// for the batch), each inside its own savepoint: it reads the game,
    /// checks the seat token and the expected version, plays, narrates,
    /// writes the move and the new state and, with an idempotency key, keeps
    /// the answer that `render` makes from the new game and the move. The
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
        render: impl FnOnce(&Game, &MoveRecord) -> Answer + Send + 'static,
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
        let job = Job {
            id,
            cmd,
            render: Box::new(render),
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

    /// Stop a game: more counters wins, equal counts are a draw. Stored as
    /// a new version without a move. A seated game needs either side's token.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::GameOver`],
    /// [`ServiceError::Unauthorized`], [`ServiceError::Forbidden`]; storage errors.
    pub async fn stop(
        &self,
        id: GameId,
        token: Option<&str>,
    ) -> Result<(Game, narration::Narration)> {
        let mut tx = self.store.begin().await?;
        let mut game = tx.game(id).await?.ok_or(ServiceError::GameNotFound(id))?;
        if game.seated {
            let token = token.ok_or(ServiceError::Unauthorized)?;
            let (seat_game, _) = tx
                .seat_of(&token_hash(token))
                .await?
                .ok_or(ServiceError::Unauthorized)?;
            if seat_game != id.to_string() {
                return Err(ServiceError::Forbidden);
            }
        }
        let (state, event) = rules::stop(&game.state)?;
        let narration = narration::narrate_stop(
            &game.setup.options,
            &game.setup.cast(),
            game.setup.audience,
            state.counters,
            &event,
        );
        let expected = game.version;
        game.state = state;
        game.version += 1;
        game.updated_at = tx.now().await?;
        if !tx.append_move(&game, expected, None).await? {
            return Err(ServiceError::Conflict { current: expected });
        }
        tx.commit().await?;
        Ok((self.game(id).await?, narration))
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

/// One throw inside the writer's transaction (see [`Service::throw`]).
async fn play_throw(
    tx: &mut WriteTx,
    id: GameId,
    cmd: ThrowCommand,
    render: Render,
) -> Result<Answer> {
    // The request hash covers the body and the credentials, so a replay
    // needs the very same request.
    let request_hash = cmd.idempotency.as_ref().map(|(_, body_hash)| {
        let mut h = Sha256::new();
        h.update(body_hash);
        h.update(cmd.token.as_deref().unwrap_or_default().as_bytes());
        h.update(
            cmd.expected_version
                .map(|v| v.to_string())
                .unwrap_or_default(),
        );
        <[u8; 32]>::from(h.finalize())
    });
    if let (Some((key, _)), Some(hash)) = (&cmd.idempotency, &request_hash)
        && let Some(stored) = tx.idempotent_answer(id, key).await?
    {
        if stored.request_hash != hash {
            return Err(ServiceError::KeyReused);
        }
        return Ok(Answer {
            location: stored.location,
            etag: stored.etag,
            body: stored.body,
            replayed: true,
        });
    }
    let mut game = tx.game(id).await?.ok_or(ServiceError::GameNotFound(id))?;
    let table = game.setup.table()?;
    let seat = game.state.to_throw(&table);
    if game.seated {
        let token = cmd.token.as_deref().ok_or(ServiceError::Unauthorized)?;
        let (seat_game, seat_side) = tx
            .seat_of(&token_hash(token))
            .await?
            .ok_or(ServiceError::Unauthorized)?;
        let side_name = if seat.side == Side::A { "A" } else { "B" };
        if seat_game != id.to_string() || seat_side != side_name {
            return Err(ServiceError::Forbidden);
        }
    }
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
    let n = game.version + 1;
    let (throw, origin) = match cmd.reported {
        Some(t) => (t, ThrowOrigin::Reported),
        None => (
            SeededThrows::new(&game.seed).throw(table.options().throw_table, n),
            ThrowOrigin::Server,
        ),
    };
    let from = game.state.awl(seat.side);
    let played = rules::play(&table, &game.state, &throw)?;
    // The previous move's narration: its rules are not repeated word for
    // word, and its memory of the rules stated carries on. Read inside the
    // writer's transaction, so a move of the same batch is seen.
    let previous = match n.checked_sub(1).filter(|p| *p >= 1) {
        Some(p) => tx.move_record(id, p).await?.map(|m| m.narration),
        None => None,
    };
    let cast = game.setup.cast();
    let narration = narration::narrate_move(&MoveContext {
        options: table.options(),
        cast: &cast,
        audience: game.setup.audience,
        move_number: n,
        seat,
        throw: &throw,
        score: &played.score,
        events: &played.events,
        told: &game.told_facts,
        previous: previous.as_ref(),
    });
    if let Some(fact) = narration.fact() {
        game.told_facts.push(fact.to_owned());
    }
    let record = MoveRecord {
        n,
        seat,
        origin,
        throw,
        score: played.score,
        from,
        to: played.state.awl(seat.side),
        events: played.events,
        narration,
        state: played.state.clone(),
    };
    let expected = game.version;
    game.state = played.state;
    game.version = n;
    game.updated_at = tx.now().await?;
    if !tx.append_move(&game, expected, Some(&record)).await? {
        return Err(ServiceError::Conflict { current: expected });
    }
    let answer = render(&game, &record);
    if let (Some((key, _)), Some(hash)) = (&cmd.idempotency, request_hash) {
        tx.keep_answer(
            id,
            key,
            &StoredAnswer {
                request_hash: hash.to_vec(),
                location: answer.location.clone(),
                etag: answer.etag.clone(),
                body: answer.body.clone(),
            },
        )
        .await?;
    }
    Ok(answer)
}

/// Makes the answer to a throw from the new game and the move.
type Render = Box<dyn FnOnce(&Game, &MoveRecord) -> Answer + Send>;

/// A throw waiting for the writer.
struct Job {
    id: GameId,
    cmd: ThrowCommand,
    render: Render,
    reply: oneshot::Sender<Result<Answer>>,
}

/// Most throws committed together.
pub const MAX_BATCH: usize = 64;

/// The single writer: takes the throws that are waiting, plays each in its
/// own savepoint of one transaction, commits once, then answers them all.
async fn writer(store: Store, mut jobs: mpsc::Receiver<Job>, commits: Arc<AtomicU64>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while jobs.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let mut tx = match store.begin().await {
            Ok(tx) => tx,
            Err(e) => {
                let busy = matches!(e, StoreError::Busy);
                tracing::warn!(error = %e, "cannot start a write transaction");
                for job in batch.drain(..) {
                    let err = if busy {
                        StoreError::Busy
                    } else {
                        StoreError::Unavailable
                    };
                    let _ = job.reply.send(Err(err.into()));
                }
                continue;
            }
        };
        let mut done = Vec::with_capacity(batch.len());
        for job in batch.drain(..) {
            let result = match tx.savepoint().await {
                Ok(()) => {
                    let r = play_throw(&mut tx, job.id, job.cmd, job.render).await;
                    let closed = if r.is_ok() {
                        tx.release().await
                    } else {
                        tx.rollback_to().await
                    };
                    closed.map_err(ServiceError::from).and(r)
                }
                Err(e) => Err(e.into()),
            };
            done.push((job.reply, result));
        }
        match tx.commit().await {
            Ok(()) => {
                commits.fetch_add(1, Ordering::Relaxed);
                for (reply, result) in done {
                    let _ = reply.send(result);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "a batch of throws failed to commit");
                let busy = matches!(e, StoreError::Busy);
                for (reply, result) in done {
                    let result = result.and(Err(if busy {
                        StoreError::Busy
                    } else {
                        StoreError::Unavailable
                    }
                    .into()));
                    let _ = reply.send(result);
                }
            }
        }
    }
}
