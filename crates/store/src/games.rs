//! Games: reading one, listing them, inserting one, saving a batch of
//! moves with the games' new states (compare-and-set), deleting one.

use std::collections::HashMap;

use sqlx::QueryBuilder;

use super::rows::{self, GameRow, SeatRow, select_game};
use super::seam::{BatchGames, Dialect, in_tx, on_readers};
use super::{Result, Store, WriteTx, from_json, to_json};
use crate::domain::LoggedMove;
use crate::domain::{Game, GameId, MoveRecord, Seats, Timestamp, Version};
use crate::domain::{Narration, RulesStated};

/// A game as a batch plays it: the game, the hashes of its tokens (a
/// seated game's) and its last move's narration, with the game's memory
/// of the rules stated so far (what the next move's narration starts
/// from).
#[derive(Debug)]
pub struct GameToPlay {
    /// The game as stored.
    pub game: Game,
    /// The hashes of its tokens; `None` for a game without seats.
    pub seats: Option<Seats>,
    /// Its last move's narration; `None` before the first move.
    pub previous: Option<Narration>,
}

/// What [`WriteTx::lock_games`] found: on PostgreSQL, the version of each
/// locked game as the database has it.
#[derive(Debug)]
pub struct Locked(Option<HashMap<GameId, Version>>);

impl Locked {
    /// Whether a game held in memory at `version` is still the database's:
    /// always on SQLite, whose only writer is this process's; on
    /// PostgreSQL when the locked row is there at that version (another
    /// instance may have written or deleted it since).
    #[must_use]
    pub fn is_current(&self, id: GameId, version: Version) -> bool {
        self.0
            .as_ref()
            .is_none_or(|versions| versions.get(&id) == Some(&version))
    }
}

/// A game's row with its memory of the rules stated and its last move (if
/// any), as [`WriteTx::games_to_play`] reads it.
#[derive(sqlx::FromRow)]
struct PlayRow {
    #[sqlx(flatten)]
    game: GameRow,
    rules_stated: String,
    n: Option<i64>,
    body: Option<Vec<u8>>,
}

/// A game's last move's narration from its row: the move's, with the
/// game's memory of the rules stated so far.
fn previous(game: &Game, rules_stated: &str, n: i64, body: &[u8]) -> Result<Narration> {
    let mut narration = rows::record(n, body, &game.setup)?.narration;
    narration.rules_stated = from_json(rules_stated)?;
    Ok(narration)
}

impl Store {
    /// The game with this id, read from a reader connection.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn game(&self, id: GameId) -> Result<Option<Game>> {
        on_readers!(self, c => {
            let row: Option<GameRow> = sqlx::query_as(select_game!("WHERE id = $1"))
                .bind(id.to_string())
                .fetch_optional(c)
                .await?;
            row.map(GameRow::game).transpose()
        })
    }

    /// Every game id, oldest first.
    ///
    /// # Errors
    /// Any database error.
    pub async fn game_ids(&self) -> Result<Vec<GameId>> {
        on_readers!(self, c => {
            let ids: Vec<String> =
                sqlx::query_scalar("SELECT id FROM games ORDER BY created_at, id")
                    .fetch_all(c)
                    .await?;
            Ok(rows::game_ids(&ids))
        })
    }
}

impl WriteTx {
    /// Insert a new game (its `created_at` and `updated_at` as given) and,
    /// for a seated game, the hashes of its tokens.
    ///
    /// # Errors
    /// Any database error (a duplicate id included).
    pub async fn insert_game(&mut self, game: &Game, seats: Option<&Seats>) -> Result<()> {
        let (setup, state, told) = (
            to_json(&game.setup)?,
            to_json(&game.state)?,
            to_json(&game.told_facts)?,
        );
        in_tx!(self, c => sqlx::query(
            "INSERT INTO games (id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(game.id.to_string())
        .bind(game.created_at.as_str())
        .bind(game.updated_at.as_str())
        .bind(&setup)
        .bind(game.seed.as_str())
        .bind(i64::from(game.seeded))
        .bind(i64::from(game.seated))
        .bind(i64::from(game.sides_report_throws))
        .bind(&state)
        .bind(game.version.to_stored())
        .bind(game.status())
        .bind(&told)
        .execute(c)
        .await
        .map(drop))?;
        if let Some(seats) = seats {
            self.insert_seats(game.id, seats).await?;
        }
        Ok(())
    }

    /// Lock these games' rows until the transaction ends, all at once and
    /// in one order (by id), before any is read: on PostgreSQL, where
    /// another instance's transaction may want the same games, so that two
    /// such transactions wait for each other rather than deadlock. Nothing
    /// to do on SQLite, whose write transaction holds the whole file.
    ///
    /// # Errors
    /// Any database error; [`crate::StoreError::Busy`] when PostgreSQL
    /// gives up waiting.
    pub async fn lock_games(&mut self, ids: &[GameId]) -> Result<Locked> {
        in_tx!(self, c, D => D::lock_games(c, ids).await).map(Locked)
    }

    /// Those of these games that exist, each with its seats and its last
    /// move's narration, read inside the transaction in two statements
    /// whatever their number (the games with their last moves, then the
    /// seats of the seated ones).
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn games_to_play(&mut self, ids: &[GameId]) -> Result<Vec<GameToPlay>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<PlayRow> = in_tx!(self, c, D => {
            let mut select = QueryBuilder::<<D as Dialect>::Db>::new(
                "SELECT g.id, g.created_at, g.updated_at, g.setup, g.seed, g.seeded, g.seated, \
                        g.sides_report_throws, g.state, g.version, g.told_facts, \
                        g.rules_stated, m.n, m.body \
                 FROM games g LEFT JOIN moves m ON m.game_id = g.id \
                     AND m.n = (SELECT MAX(n) FROM moves WHERE moves.game_id = g.id) \
                 WHERE g.id IN (",
            );
            let mut list = select.separated(", ");
            for id in ids {
                list.push_bind(id.to_string());
            }
            select.push(")");
            select.build_query_as().fetch_all(c).await
        })?;
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let game = row.game.game()?;
            let previous = match (row.n, row.body) {
                (Some(n), Some(body)) => Some(previous(&game, &row.rules_stated, n, &body)?),
                _ => None,
            };
            games.push(GameToPlay {
                game,
                seats: None,
                previous,
            });
        }
        let seated: Vec<String> = games
            .iter()
            .filter(|g| g.game.seated)
            .map(|g| g.game.id.to_string())
            .collect();
        if !seated.is_empty() {
            #[derive(sqlx::FromRow)]
            struct GameSeat {
                game_id: String,
                #[sqlx(flatten)]
                seat: SeatRow,
            }
            let rows: Vec<GameSeat> = in_tx!(self, c, D => {
                let mut select = QueryBuilder::<<D as Dialect>::Db>::new(
                    "SELECT game_id, side, token_hash FROM seats WHERE game_id IN (",
                );
                let mut list = select.separated(", ");
                for id in &seated {
                    list.push_bind(id.as_str());
                }
                select.push(")");
                select.build_query_as().fetch_all(c).await
            })?;
            let mut by_game: HashMap<String, Vec<SeatRow>> = HashMap::new();
            for row in rows {
                by_game.entry(row.game_id).or_default().push(row.seat);
            }
            for g in games.iter_mut().filter(|g| g.game.seated) {
                let rows = by_game.remove(&g.game.id.to_string()).unwrap_or_default();
                g.seats = rows::seats_from_rows(rows)?;
            }
        }
        Ok(games)
    }

    /// The game, read inside the transaction (on PostgreSQL, locked until
    /// it ends: another instance's transaction on it waits, then reads it
    /// as this one left it).
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn game(&mut self, id: GameId) -> Result<Option<Game>> {
        let row: Option<GameRow> = in_tx!(self, c, D => sqlx::query_as(D::SELECT_GAME_IN_TX)
            .bind(id.to_string())
            .fetch_optional(c)
            .await)?;
        row.map(GameRow::game).transpose()
    }

    /// Save a batch: each game's new state and its memory of the rules
    /// stated (that of its last move's narration), as a compare-and-set on
    /// the version it had when read (`(game, read_version, memory)`, one
    /// statement for all), then every move in the log's binary form
    /// (`(game id, move)`, one statement). On PostgreSQL the games written
    /// are announced to every instance on commit. Returns `false`, having
    /// written no move, when some game's version moved on meanwhile
    /// (another writer): the caller must roll back then.
    ///
    /// # Errors
    /// Any database error.
    pub async fn save_batch(
        &mut self,
        updated_at: &Timestamp,
        games: &BatchGames<'_>,
        moves: &[(GameId, &MoveRecord)],
    ) -> Result<bool> {
        let rows = batch_rows(games)?;
        let moves = moves
            .iter()
            .map(|(id, record)| {
                (
                    id.to_string(),
                    i64::from(record.n),
                    LoggedMove::of(record).encode(),
                )
            })
            .collect::<Vec<_>>();
        in_tx!(self, c, D => {
            if !rows.is_empty() {
                let mut update = QueryBuilder::<<D as Dialect>::Db>::new(
                    "WITH v (id, read_version, state, version, status, told_facts, rules_stated) AS (",
                );
                update.push_values(&rows, |mut b, row| {
                    b.push_bind(row.0.as_str())
                        .push_bind(row.1)
                        .push_bind(row.2.as_str())
                        .push_bind(row.3)
                        .push_bind(row.4)
                        .push_bind(row.5.as_str())
                        .push_bind(row.6.as_str());
                });
                update.push(
                    ") UPDATE games SET state = v.state, version = v.version, status = v.status, \
                     told_facts = v.told_facts, rules_stated = v.rules_stated, updated_at = ",
                );
                update.push_bind(updated_at.as_str());
                update.push(" FROM v WHERE games.id = v.id AND games.version = v.read_version");
                let done = update.build().execute(&mut *c).await?;
                if usize::try_from(done.rows_affected()).ok() != Some(rows.len()) {
                    return Ok(false);
                }
                D::announce(&mut *c, games).await?;
            }
            if !moves.is_empty() {
                let mut insert = QueryBuilder::<<D as Dialect>::Db>::new(
                    "INSERT INTO moves (game_id, n, body) ",
                );
                insert.push_values(&moves, |mut b, row| {
                    b.push_bind(row.0.as_str())
                        .push_bind(row.1)
                        .push_bind(row.2.as_slice());
                });
                insert.build().execute(&mut *c).await?;
            }
            Ok(true)
        })
    }

    /// Delete a game with its moves, seats and idempotency keys (the
    /// foreign keys cascade). Returns whether there was such a game.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_game(&mut self, id: GameId) -> Result<bool> {
        Ok(
            in_tx!(self, c => sqlx::query("DELETE FROM games WHERE id = $1")
            .bind(id.to_string())
            .execute(c)
            .await
            .map(|done| done.rows_affected()))?
                > 0,
        )
    }
}

/// One game's row of a batch's update: id, the version it was read at
/// (the compare-and-set), state, new version, status, facts told, rules
/// stated.
type BatchRow = (String, i64, String, i64, &'static str, String, String);

/// The rows of a batch's games, in order.
fn batch_rows(games: &BatchGames<'_>) -> Result<Vec<BatchRow>> {
    games
        .iter()
        .map(|(game, read_version, memory)| {
            Ok((
                game.id.to_string(),
                read_version.to_stored(),
                to_json(&game.state)?,
                game.version.to_stored(),
                game.status(),
                to_json(&game.told_facts)?,
                match memory {
                    Some(memory) => to_json(memory)?,
                    None => to_json(&RulesStated::default())?,
                },
            ))
        })
        .collect()
}
