//! SQLite storage (sqlx): the only module with SQL.
//!
//! One writer connection (writes are serialised, so no two writers ever
//! race for the lock) and a pool of read-only connections on the same file,
//! in WAL mode with `synchronous=FULL`: a throw answered 201 has reached the
//! disk. Migrations are embedded in the binary and run on connect.

use std::str::FromStr;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use crate::service::model::{Game, GameId, MoveRecord};

#[cfg(feature = "bench-baseline")]
mod baseline;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL names an in-memory database, which the two pools
    /// cannot share.
    #[error(
        "in-memory SQLite databases are not supported (the writer and the readers would see different databases); give a file, e.g. sqlite://zohn-ahl.db"
    )]
    InMemory,
    /// The database could not be opened, read or written.
    #[error("database error: {0}")]
    Sqlx(#[from] sqlx::Error),
    /// Migrations failed.
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored JSON column does not parse (a defect or a foreign edit).
    #[error("stored data is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// The database is locked by another writer for longer than the busy
    /// time-out.
    #[error("the database is busy")]
    Busy,
}

impl StoreError {
    fn from_sqlx(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(db) = &e
            && matches!(db.code().as_deref(), Some("5" | "6" | "517"))
        {
            return StoreError::Busy;
        }
        if matches!(e, sqlx::Error::PoolTimedOut) {
            return StoreError::Busy;
        }
        StoreError::Sqlx(e)
    }
}

type Result<T> = std::result::Result<T, StoreError>;

/// How long a connection waits for a lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The game store.
#[derive(Clone, Debug)]
pub struct Store {
    writer: SqlitePool,
    readers: SqlitePool,
}

/// An open write transaction (`BEGIN IMMEDIATE` on the single writer).
pub struct WriteTx(sqlx::Transaction<'static, sqlx::Sqlite>);

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string(value)?)
}

fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    Ok(serde_json::from_str(text)?)
}

/// `SELECT` of every game column by id.
const SELECT_GAME: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, state, version, status, told_facts FROM games WHERE id = ?";

fn game_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<Game> {
    let id: String = row.try_get("id")?;
    Ok(Game {
        id: GameId::parse(&id).map_err(|_| {
            StoreError::Corrupt(serde::de::Error::custom(format!("bad game id {id:?}")))
        })?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        setup: from_json(row.try_get::<&str, _>("setup")?)?,
        seed: row.try_get("seed")?,
        seeded: row.try_get::<i64, _>("seeded")? != 0,
        state: from_json(row.try_get::<&str, _>("state")?)?,
        version: u32::try_from(row.try_get::<i64, _>("version")?).unwrap_or(u32::MAX),
        told_facts: from_json(row.try_get::<&str, _>("told_facts")?)?,
    })
}

impl Store {
    /// Open (creating if missing) and migrate the database at `url`
    /// (`sqlite://path`, `sqlite:path` or a plain path).
    ///
    /// # Errors
    /// [`StoreError::InMemory`] for an in-memory URL; otherwise any error
    /// opening or migrating the file.
    pub async fn connect(url: &str) -> Result<Self> {
        if url.contains(":memory:") || url.contains("mode=memory") {
            return Err(StoreError::InMemory);
        }
        let url = if url.starts_with("sqlite:") {
            url.to_owned()
        } else {
            format!("sqlite://{url}")
        };
        let base = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(BUSY_TIMEOUT)
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(base.clone())
            .await?;
        sqlx::migrate!("./migrations").run(&writer).await?;
        let readers = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(base.read_only(true))
            .await?;
        Ok(Self { writer, readers })
    }

    /// Close both pools, waiting for connections to finish.
    pub async fn close(&self) {
        self.writer.close().await;
        self.readers.close().await;
    }

    /// Whether the database answers and every embedded migration is applied.
    ///
    /// # Errors
    /// Any database error.
    pub async fn ready(&self) -> Result<bool> {
        let applied: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success = 1")
                .fetch_one(&self.readers)
                .await
                .map_err(StoreError::from_sqlx)?;
        let embedded = sqlx::migrate!("./migrations").iter().count();
        Ok(usize::try_from(applied).unwrap_or(0) >= embedded)
    }

    /// Insert a new game.
    ///
    /// # Errors
    /// Any database error (a duplicate id included).
    pub async fn insert_game(&self, game: &Game) -> Result<()> {
        sqlx::query(
            "INSERT INTO games (id, setup, seed, seeded, state, version, status, told_facts)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game.id.to_string())
        .bind(to_json(&game.setup)?)
        .bind(&game.seed)
        .bind(i64::from(game.seeded))
        .bind(to_json(&game.state)?)
        .bind(i64::from(game.version))
        .bind(game.status())
        .bind(to_json(&game.told_facts)?)
        .execute(&self.writer)
        .await
        .map_err(StoreError::from_sqlx)?;
        Ok(())
    }

    /// The game with this id, read from a reader connection.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn game(&self, id: GameId) -> Result<Option<Game>> {
        let row = sqlx::query(SELECT_GAME)
            .bind(id.to_string())
            .fetch_optional(&self.readers)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// Moves of a game with `n > after`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn moves(&self, id: GameId, after: u32, limit: u32) -> Result<Vec<MoveRecord>> {
        let rows =
            sqlx::query("SELECT body FROM moves WHERE game_id = ? AND n > ? ORDER BY n LIMIT ?")
                .bind(id.to_string())
                .bind(i64::from(after))
                .bind(i64::from(limit))
                .fetch_all(&self.readers)
                .await
                .map_err(StoreError::from_sqlx)?;
        rows.iter()
            .map(|r| from_json(r.try_get::<&str, _>("body")?))
            .collect()
    }

    /// Move number `n` of a game.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn move_record(&self, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
        let row = sqlx::query("SELECT body FROM moves WHERE game_id = ? AND n = ?")
            .bind(id.to_string())
            .bind(i64::from(n))
            .fetch_optional(&self.readers)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.map(|r| from_json(r.try_get::<&str, _>("body")?))
            .transpose()
    }

    /// Start a write transaction with `BEGIN IMMEDIATE` on the writer.
    ///
    /// # Errors
    /// [`StoreError::Busy`] when the lock cannot be had in time.
    pub async fn begin(&self) -> Result<WriteTx> {
        let tx = self
            .writer
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(StoreError::from_sqlx)?;
        Ok(WriteTx(tx))
    }
}

impl WriteTx {
    /// The game, read inside the transaction.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn game(&mut self, id: GameId) -> Result<Option<Game>> {
        let row = sqlx::query(SELECT_GAME)
            .bind(id.to_string())
            .fetch_optional(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// Append a move and save the game's new state, as a compare-and-set on
    /// the version the game had when read (`expected_version`). Returns
    /// `false`, writing nothing, when the version moved on meanwhile.
    ///
    /// # Errors
    /// Any database error.
    pub async fn append_move(
        &mut self,
        game: &Game,
        expected_version: u32,
        record: Option<&MoveRecord>,
    ) -> Result<bool> {
        let updated = sqlx::query(
            "UPDATE games
             SET state = ?, version = ?, status = ?, told_facts = ?,
                 updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ? AND version = ?",
        )
        .bind(to_json(&game.state)?)
        .bind(i64::from(game.version))
        .bind(game.status())
        .bind(to_json(&game.told_facts)?)
        .bind(game.id.to_string())
        .bind(i64::from(expected_version))
        .execute(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        if updated.rows_affected() != 1 {
            return Ok(false);
        }
        if let Some(record) = record {
            sqlx::query("INSERT INTO moves (game_id, n, body) VALUES (?, ?, ?)")
                .bind(game.id.to_string())
                .bind(i64::from(record.n))
                .bind(to_json(record)?)
                .execute(&mut *self.0)
                .await
                .map_err(StoreError::from_sqlx)?;
        }
        Ok(true)
    }

    /// Commit.
    ///
    /// # Errors
    /// Any database error; nothing is written then.
    pub async fn commit(self) -> Result<()> {
        self.0.commit().await.map_err(StoreError::from_sqlx)
    }
}
