//! Export and import: a game as one line of NDJSON, to move a class's games
//! to another server or another store. A line holds what the game was made
//! with and each move's throw, not what followed from them: an import plays
//! the throws again through the engine and the narration, so a game that
//! does not replay is refused, and every move reads as it did. Seat tokens'
//! hashes go only when asked (`with_seats`); no token is ever stored, so
//! none can be exported.

use serde::{Deserialize, Serialize};

use crate::domain::{
    Game, GameId, MoveRecord, RulesStated, Seats, Seed, Setup, ThrowOrigin, Timestamp, TokenHash,
    Turn, Version, play_move,
};
use crate::rules::{self, Throw};
use crate::{Result, Service, ServiceError};

/// The format of a line, its first field: a reader refuses another.
pub const FORMAT: &str = "zohn-ahl-game/1";

/// A game as exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedGame {
    /// [`FORMAT`].
    pub format: String,
    /// The game's id, kept by the import.
    pub id: String,
    /// When it was created.
    pub created_at: String,
    /// When it last changed.
    pub updated_at: String,
    /// Everything fixed at creation.
    pub setup: Setup,
    /// The seed of its throw generator, only when the creator chose it
    /// (`null` otherwise): the server's own seed stays secret (whoever has
    /// it can tell the game's next throws), and an import gives such a game
    /// a new one.
    #[serde(default)]
    pub seed: Option<String>,
    /// Whether the creator chose the seed.
    pub seeded: bool,
    /// Whether throws need a seat token.
    pub seated: bool,
    /// Whether a side's own token may report a physical throw.
    pub sides_report_throws: bool,
    /// Each move's throw and where it came from, in order.
    pub moves: Vec<ArchivedMove>,
    /// Whether the game was stopped after its last move.
    pub stopped: bool,
    /// The seat tokens' SHA-256 hashes (hexadecimal), only when asked: with
    /// them the imported game's tokens still work.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<ArchivedSeats>,
}

/// A move as exported: the throw, which the import plays again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedMove {
    /// The sticks' faces or the spinner's sector.
    pub throw: Throw,
    /// The server's generator, or reported by a client.
    pub origin: ThrowOrigin,
}

/// A seated game's token hashes, hexadecimal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedSeats {
    /// Side A's and side B's.
    pub sides: [String; 2],
    /// The host's, if the game has one.
    pub host: Option<String>,
}

/// An archived game's throws played again from the game as it began.
pub(crate) struct Replayed {
    /// The game after its last move (and its stop, if it was stopped).
    pub(crate) game: Game,
    /// Each move as played again: the rules' events, the narration, the
    /// facts told.
    pub(crate) records: Vec<MoveRecord>,
    /// The rules the narration has stated, after the last move.
    pub(crate) rules_stated: RulesStated,
}

/// Play `moves` again from `start` through the engine and the narration,
/// then the stop if the game was `stopped`: the game as it stands and
/// each move's record, or the number of the move (the stop counts as the
/// move after the last) the rules refuse, and why.
pub(crate) fn replay(
    start: &Game,
    table: &rules::Table,
    moves: &[ArchivedMove],
    stopped: bool,
) -> std::result::Result<Replayed, (u32, rules::RulesError)> {
    let cast = start.setup.cast();
    let mut game = start.clone();
    let mut records: Vec<MoveRecord> = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let turn = Turn {
            table,
            cast: &cast,
            audience: game.setup.audience,
            state: &game.state,
            previous: records.last().map(|r| &r.narration),
        };
        let record =
            play_move(&turn, n, m.throw, m.origin, &mut game.told_facts).map_err(|why| (n, why))?;
        game.state = record.state.clone();
        game.version = game.version.next();
        records.push(record);
    }
    if stopped {
        let n = u32::try_from(records.len() + 1).unwrap_or(u32::MAX);
        let (state, _) = rules::stop(&game.state).map_err(|why| (n, why))?;
        game.state = state;
        game.version = game.version.next();
    }
    let rules_stated = records
        .last()
        .map(|r| r.narration.rules_stated.clone())
        .unwrap_or_default();
    Ok(Replayed {
        game,
        records,
        rules_stated,
    })
}

/// Why an archived game is not imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The line is not an archived game of this format.
    #[error("not a game of format {FORMAT}: {0}")]
    Format(String),
    /// A game with this id is already in the store.
    #[error("game {0} exists: an import never replaces a game")]
    Exists(GameId),
    /// A throw does not replay on the game as it stood.
    #[error("game {id}: move {n} does not replay: {why}")]
    Replay {
        /// The game.
        id: GameId,
        /// The move's number.
        n: u32,
        /// The rules' refusal.
        why: rules::RulesError,
    },
    /// A seated game came without its seats.
    #[error("game {0} is seated, and its seats were not exported (export it with --with-seats)")]
    NoSeats(GameId),
    /// Reading or writing the store failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl Service {
    /// Game `id` as exported; `None` when there is no such game.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn export_game(&self, id: GameId, with_seats: bool) -> Result<Option<ArchivedGame>> {
        let Some(game) = self.store.game(id).await? else {
            return Ok(None);
        };
        let moves = self.store.moves(id, 0, u32::MAX).await?;
        let seats = if with_seats && game.seated {
            let mut tx = self.store.begin().await?;
            let seats = tx.seats(id).await?;
            tx.rollback().await?;
            seats.map(|s| ArchivedSeats {
                sides: s.sides.map(|h| hex::encode(h.as_bytes())),
                host: s.host.map(|h| hex::encode(h.as_bytes())),
            })
        } else {
            None
        };
        let stopped = game.was_stopped();
        Ok(Some(ArchivedGame {
            format: FORMAT.to_owned(),
            id: game.id.to_string(),
            created_at: game.created_at.as_str().to_owned(),
            updated_at: game.updated_at.as_str().to_owned(),
            setup: game.setup,
            seed: game.seeded.then(|| game.seed.as_str().to_owned()),
            seeded: game.seeded,
            seated: game.seated,
            sides_report_throws: game.sides_report_throws,
            stopped,
            moves: moves
                .iter()
                .map(|m| ArchivedMove {
                    throw: m.throw,
                    origin: m.origin,
                })
                .collect(),
            seats,
        }))
    }

    /// Import an exported game under its own id: every throw played again
    /// (the rules, the narration, the facts told), then the game and its
    /// moves written in one transaction.
    ///
    /// # Errors
    /// [`ImportError`]: a line of another format, an id already in the
    /// store, a throw that does not replay, a seated game without its seats,
    /// storage errors.
    pub async fn import_game(
        &self,
        archived: ArchivedGame,
    ) -> std::result::Result<GameId, ImportError> {
        let bad = |what: &str| ImportError::Format(what.to_owned());
        if archived.format != FORMAT {
            return Err(bad(&format!("format {:?}", archived.format)));
        }
        let id = GameId::parse(&archived.id).map_err(|e| bad(&e.to_string()))?;
        let seed = match (&archived.seed, archived.seeded) {
            (Some(seed), true) => Seed::parse(seed).map_err(|e| bad(&e.to_string()))?,
            (None, false) => Seed::fresh(),
            (Some(_), false) => return Err(bad("a seed on a game whose creator chose none")),
            (None, true) => return Err(bad("no seed on a game whose creator chose one")),
        };
        let hash = |hex_text: &str| {
            hex::decode(hex_text)
                .ok()
                .and_then(|bytes| TokenHash::from_stored(&bytes))
                .ok_or_else(|| bad("a seat's hash is not 64 hexadecimal digits"))
        };
        let seats = match (&archived.seats, archived.seated) {
            (_, false) => None,
            (None, true) => return Err(ImportError::NoSeats(id)),
            (Some(s), true) => Some(Seats {
                sides: [hash(&s.sides[0])?, hash(&s.sides[1])?],
                host: s.host.as_deref().map(hash).transpose()?,
            }),
        };
        let table = archived.setup.table().map_err(ServiceError::from)?;
        let start = Game {
            id,
            created_at: Timestamp::from_stored(archived.created_at),
            updated_at: Timestamp::from_stored(archived.updated_at.clone()),
            state: rules::GameState::new(&table),
            setup: archived.setup.clone(),
            seed,
            seeded: archived.seeded,
            seated: archived.seated,
            sides_report_throws: archived.sides_report_throws,
            version: Version::NEW,
            told_facts: Vec::new(),
        };
        let Replayed {
            game,
            records,
            rules_stated,
        } = replay(&start, &table, &archived.moves, archived.stopped)
            .map_err(|(n, why)| ImportError::Replay { id, n, why })?;
        let mut tx = self.store.begin().await.map_err(ServiceError::from)?;
        if tx.game(id).await.map_err(ServiceError::from)?.is_some() {
            tx.rollback().await.map_err(ServiceError::from)?;
            return Err(ImportError::Exists(id));
        }
        tx.insert_game(&start, seats.as_ref())
            .await
            .map_err(ServiceError::from)?;
        let moves: Vec<(GameId, &MoveRecord)> = records.iter().map(|r| (id, r)).collect();
        let saved = tx
            .save_batch(
                &Timestamp::from_stored(archived.updated_at),
                &[(&game, Version::NEW, Some(&rules_stated))],
                &moves,
            )
            .await
            .map_err(ServiceError::from)?;
        if !saved {
            tx.rollback().await.map_err(ServiceError::from)?;
            return Err(ImportError::Exists(id));
        }
        tx.commit().await.map_err(ServiceError::from)?;
        Ok(id)
    }
}
