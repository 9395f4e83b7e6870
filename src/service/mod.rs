//! Use cases: create a game, throw, stop, read. Each owns its transaction.

pub mod model;

use crate::narration::{self, Audience, MoveContext};
use crate::rules::{self, Options, Preset, RulesError, SetupError, Side, Throw, ThrowMismatch};
use crate::store::{Store, StoreError};
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
}

/// The service: the rules, the narration and the store together.
#[derive(Clone, Debug)]
pub struct Service {
    store: Store,
}

impl Service {
    /// A service over an open store.
    #[must_use]
    pub fn new(store: Store) -> Self {
        Self { store }
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
    pub async fn create_game(&self, new: NewGame) -> Result<Game> {
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
            version: 0,
            told_facts: Vec::new(),
        };
        self.store.insert_game(&game).await?;
        self.game(game.id).await
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

    /// Play one throw for the side to move: `reported` is a physical throw
    /// reported by the client; `None` lets the server throw with the game's
    /// seeded generator. `expected_version`, when given, must equal the
    /// game's version. One `BEGIN IMMEDIATE` transaction reads the game,
    /// plays, narrates and writes the move and the new state.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::GameOver`],
    /// [`ServiceError::Conflict`], [`ServiceError::ThrowMismatch`]; storage errors.
    pub async fn throw(
        &self,
        id: GameId,
        reported: Option<Throw>,
        expected_version: Option<u32>,
    ) -> Result<(MoveRecord, Game)> {
        let mut tx = self.store.begin().await?;
        let mut game = tx.game(id).await?.ok_or(ServiceError::GameNotFound(id))?;
        if let Some(expected) = expected_version
            && expected != game.version
        {
            return Err(ServiceError::Conflict {
                current: game.version,
            });
        }
        if game.state.is_finished() {
            return Err(ServiceError::GameOver);
        }
        let table = game.setup.table()?;
        let n = game.version + 1;
        let (throw, origin) = match reported {
            Some(t) => (t, ThrowOrigin::Reported),
            None => (
                SeededThrows::new(&game.seed).throw(table.options().throw_table, n),
                ThrowOrigin::Server,
            ),
        };
        let seat = game.state.to_throw(&table);
        let from = game.state.awl(seat.side);
        let played = rules::play(&table, &game.state, &throw)?;
        // The previous move's narration: its rules are not repeated word
        // for word, and its memory of the rules stated carries on. Moves are
        // only ever appended under the writer lock held here, so this read
        // sees move n - 1 as committed.
        let previous = match n.checked_sub(1).filter(|p| *p >= 1) {
            Some(p) => self.store.move_record(id, p).await?.map(|m| m.narration),
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
        if !tx.append_move(&game, expected, Some(&record)).await? {
            return Err(ServiceError::Conflict { current: expected });
        }
        tx.commit().await?;
        let game = self.game(id).await?;
        Ok((record, game))
    }

    /// Stop a game: more counters wins, equal counts are a draw. Stored as
    /// a new version without a move.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`], [`ServiceError::GameOver`]; storage errors.
    pub async fn stop(&self, id: GameId) -> Result<(Game, narration::Narration)> {
        let mut tx = self.store.begin().await?;
        let mut game = tx.game(id).await?.ok_or(ServiceError::GameNotFound(id))?;
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
        if !tx.append_move(&game, expected, None).await? {
            return Err(ServiceError::Conflict { current: expected });
        }
        tx.commit().await?;
        Ok((self.game(id).await?, narration))
    }

    /// Moves after move `after` (0: from the start), at most `limit`.
    ///
    /// # Errors
    /// [`ServiceError::GameNotFound`]; storage errors.
    pub async fn moves(&self, id: GameId, after: u32, limit: u32) -> Result<Vec<MoveRecord>> {
        let game = self.game(id).await?;
        let _ = game;
        Ok(self.store.moves(id, after, limit).await?)
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
