//! Games: reading one, listing them, inserting one, saving a batch of
//! moves with the games' new states (compare-and-set), deleting one.

use std::collections::HashMap;

use sqlx::{QueryBuilder, Row, Sqlite};

use super::{Backend, Result, Store, StoreError, Tx, WriteTx, from_json, pg, to_json};
use crate::domain::LoggedMove;
use crate::domain::{Game, GameId, MoveRecord, Seats, Seed, Timestamp, Version};
use crate::domain::{Narration, RulesStated};

/// A game as a batch plays it: the game, the hashes of its tokens (a
/// seated game's) and its last move's narration (see
/// [`WriteTx::last_narration`]).
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

/// One game's row of a batch's update, as both stores bind it: id, the
/// version it was read at (the compare-and-set), state, new version,
/// status, facts told, rules stated.
pub(super) type BatchRow = (String, i64, String, i64, &'static str, String, String);

/// The rows of a batch's games, in order.
pub(super) fn batch_rows(
    games: &[(&Game, Version, Option<&RulesStated>)],
) -> Result<Vec<BatchRow>> {
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

/// `SELECT` of every game column by id.
const SELECT_GAME: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts FROM games WHERE id = ?";

pub(super) fn game_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<Game> {
    let id: String = row.try_get("id")?;
    Ok(Game {
        id: GameId::parse(&id).map_err(|_| {
            StoreError::Corrupt(serde::de::Error::custom(format!("bad game id {id:?}")))
        })?,
        created_at: Timestamp::from_stored(row.try_get("created_at")?),
        updated_at: Timestamp::from_stored(row.try_get("updated_at")?),
        setup: from_json(row.try_get::<&str, _>("setup")?)?,
        seed: Seed::from_stored(row.try_get("seed")?),
        seeded: row.try_get::<i64, _>("seeded")? != 0,
        seated: row.try_get::<i64, _>("seated")? != 0,
        sides_report_throws: row.try_get::<i64, _>("sides_report_throws")? != 0,
        state: from_json(row.try_get::<&str, _>("state")?)?,
        version: Version::from_stored(row.try_get::<i64, _>("version")?),
        told_facts: from_json(row.try_get::<&str, _>("told_facts")?)?,
    })
}

impl Store {
    /// The game with this id, read from a reader connection.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn game(&self, id: GameId) -> Result<Option<Game>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => return pg::told(pool, pg::game(pool, id)).await,
        };
        let row = sqlx::query(SELECT_GAME)
            .bind(id.to_string())
            .fetch_optional(readers)
            .await?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// Every game id, oldest first.
    ///
    /// # Errors
    /// Any database error.
    pub async fn game_ids(&self) -> Result<Vec<GameId>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => return pg::told(pool, pg::game_ids(pool)).await,
        };
        let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM games ORDER BY created_at, id")
            .fetch_all(readers)
            .await?;
        Ok(ids.iter().filter_map(|id| GameId::parse(id).ok()).collect())
    }
}

impl WriteTx {
    /// Insert a new game (its `created_at` and `updated_at` as given) and,
    /// for a seated game, the hashes of its tokens.
    ///
    /// # Errors
    /// Any database error (a duplicate id included).
    pub async fn insert_game(&mut self, game: &Game, seats: Option<&Seats>) -> Result<()> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::insert_game(tx, game, seats).await,
        };
        sqlx::query(
            "INSERT INTO games (id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game.id.to_string())
        .bind(game.created_at.as_str())
        .bind(game.updated_at.as_str())
        .bind(to_json(&game.setup)?)
        .bind(game.seed.as_str())
        .bind(i64::from(game.seeded))
        .bind(i64::from(game.seated))
        .bind(i64::from(game.sides_report_throws))
        .bind(to_json(&game.state)?)
        .bind(game.version.to_stored())
        .bind(game.status())
        .bind(to_json(&game.told_facts)?)
        .execute(&mut **tx)
        .await?;
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
    /// Any database error; [`StoreError::Busy`] when PostgreSQL gives up
    /// waiting.
    pub async fn lock_games(&mut self, ids: &[GameId]) -> Result<Locked> {
        match &mut self.0 {
            Tx::Sqlite(_) => Ok(Locked(None)),
            Tx::Postgres(tx) => pg::lock_games(tx, ids).await.map(|v| Locked(Some(v))),
        }
    }

    /// Those of these games that exist, each with its seats and its last
    /// move's narration, read inside the transaction: on PostgreSQL in two
    /// statements whatever their number (the games with their last moves,
    /// then the seats of the seated ones).
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn games_to_play(&mut self, ids: &[GameId]) -> Result<Vec<GameToPlay>> {
        if let Tx::Postgres(tx) = &mut self.0 {
            return pg::games_to_play(tx, ids).await;
        }
        let mut games = Vec::with_capacity(ids.len());
        for &id in ids {
            let Some(game) = self.game(id).await? else {
                continue;
            };
            let seats = if game.seated {
                self.seats(id).await?
            } else {
                None
            };
            let previous = self.last_narration(&game).await?;
            games.push(GameToPlay {
                game,
                seats,
                previous,
            });
        }
        Ok(games)
    }

    /// The game, read inside the transaction.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn game(&mut self, id: GameId) -> Result<Option<Game>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::tx_game(tx, id).await,
        };
        let row = sqlx::query(SELECT_GAME)
            .bind(id.to_string())
            .fetch_optional(&mut **tx)
            .await?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// Save a batch: each game's new state and its memory of the rules
    /// stated (that of its last move's narration), as a compare-and-set on
    /// the version it had when read (`(game, read_version, memory)`, one
    /// statement for all), then every move in the log's binary form
    /// (`(game id, move)`, one statement). Returns
    /// `false`, having written no move, when some game's version moved on
    /// meanwhile (another writer): the caller must roll back then.
    ///
    /// # Errors
    /// Any database error.
    pub async fn save_batch(
        &mut self,
        updated_at: &Timestamp,
        games: &[(&Game, Version, Option<&RulesStated>)],
        moves: &[(GameId, &MoveRecord)],
    ) -> Result<bool> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::save_batch(tx, updated_at.as_str(), games, moves).await,
        };
        if !games.is_empty() {
            let rows = batch_rows(games)?;
            let mut update = QueryBuilder::<Sqlite>::new(
                "WITH v (id, read_version, state, version, status, told_facts, rules_stated) AS (",
            );
            update.push_values(rows, |mut b, row| {
                b.push_bind(row.0)
                    .push_bind(row.1)
                    .push_bind(row.2)
                    .push_bind(row.3)
                    .push_bind(row.4)
                    .push_bind(row.5)
                    .push_bind(row.6);
            });
            update.push(
                ") UPDATE games SET state = v.state, version = v.version, status = v.status, \
                 told_facts = v.told_facts, rules_stated = v.rules_stated, updated_at = ",
            );
            update.push_bind(updated_at.as_str());
            update.push(" FROM v WHERE games.id = v.id AND games.version = v.read_version");
            let done = update.build().execute(&mut **tx).await?;
            if usize::try_from(done.rows_affected()).ok() != Some(games.len()) {
                return Ok(false);
            }
        }
        if !moves.is_empty() {
            let rows = moves
                .iter()
                .map(|(id, record)| {
                    (
                        id.to_string(),
                        i64::from(record.n),
                        LoggedMove::of(record).encode(),
                    )
                })
                .collect::<Vec<_>>();
            let mut insert = QueryBuilder::<Sqlite>::new("INSERT INTO moves (game_id, n, body) ");
            insert.push_values(rows, |mut b, row| {
                b.push_bind(row.0).push_bind(row.1).push_bind(row.2);
            });
            insert.build().execute(&mut **tx).await?;
        }
        Ok(true)
    }

    /// Delete a game with its moves, seats and idempotency keys (the
    /// foreign keys cascade). Returns whether there was such a game.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_game(&mut self, id: GameId) -> Result<bool> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::delete_game(tx, id).await,
        };
        let done = sqlx::query("DELETE FROM games WHERE id = ?")
            .bind(id.to_string())
            .execute(&mut **tx)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}
