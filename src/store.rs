//! SQLite storage (sqlx): the only module with SQL.
//!
//! One writer connection (writes are serialised, so no two writers ever
//! race for the lock), a pool of read-only connections and one checkpointer
//! connection on the same file, in WAL mode with `synchronous=FULL`: a
//! throw answered 201 has reached the disk. The write-ahead log is copied
//! into the database by the checkpointer, off the writer's path, and let
//! wrap by the writer between transactions ([`Store::wrap_wal`]).
//! Migrations are embedded in the binary and run on connect.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{QueryBuilder, Row, Sqlite, SqlitePool};
use tokio::sync::Notify;

use crate::domain::{Game, GameId, MoveRecord, Seats};

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
    /// A write could not be made durable (the cause is logged where it
    /// happened).
    #[error("the database could not complete the write")]
    Unavailable,
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

/// How long an idempotency key's answer is kept, as an SQLite date modifier.
pub const IDEMPOTENCY_EXPIRY: &str = "-24 hours";

/// How long an idempotency key's answer is kept: [`IDEMPOTENCY_EXPIRY`]
/// as a duration.
pub const IDEMPOTENCY_LIFETIME: time::Duration = time::Duration::hours(24);

/// The first answer to a throw sent with an idempotency key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnswer {
    /// SHA-256 of the request (body and credentials) it answered.
    pub request_hash: Vec<u8>,
    /// Its `Location` header.
    pub location: String,
    /// Its `ETag` header.
    pub etag: String,
    /// Its body, byte for byte.
    pub body: Vec<u8>,
}

/// The current time as the database's defaults write it: RFC 3339, UTC,
/// milliseconds (`2026-11-30T05:40:12.345Z`, like SQLite's
/// `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`).
#[must_use]
pub fn now() -> String {
    timestamp(time::OffsetDateTime::now_utc())
}

/// A time as the database stores it (see [`now`]), in UTC.
#[must_use]
pub fn timestamp(at: time::OffsetDateTime) -> String {
    const FORMAT: &[time::format_description::BorrowedFormatItem<'_>] = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    at.to_offset(time::UtcOffset::UTC)
        .format(FORMAT)
        .unwrap_or_default()
}

/// How long a connection waits for a lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The game store.
#[derive(Clone, Debug)]
pub struct Store {
    writer: SqlitePool,
    readers: SqlitePool,
    checkpointer: SqlitePool,
    wrote: Arc<Notify>,
    /// WAL frames at the checkpointer's last checkpoint.
    wal_frames: Arc<AtomicI64>,
    /// The bound past which [`Store::wrap_wal`] lets the log wrap.
    wal_wrap_frames: i64,
}

/// An open write transaction (`BEGIN IMMEDIATE` on the single writer).
pub struct WriteTx(sqlx::Transaction<'static, sqlx::Sqlite>, Arc<Notify>);

/// WAL frames (pages) past which the writer lets the write-ahead log start
/// again from its beginning (64 MiB of 4 KiB pages; see
/// [`Store::wrap_wal`]): under a steady load the checkpointer seldom
/// catches up on its own, and the log would otherwise grow without bound.
pub const WAL_WRAP_FRAMES: i64 = 16_384;

/// The checkpointer's pause after each checkpoint: the commits made
/// meanwhile share the next one, which copies a page written by many of
/// them once.
pub const CHECKPOINT_PAUSE: Duration = Duration::from_millis(2);

/// Copy the write-ahead log into the database, off the writer's path: the
/// writer's own automatic checkpoint is off, so that no request waits for
/// one. Runs a passive checkpoint (it never waits for a lock) after a
/// commit, at most one per [`CHECKPOINT_PAUSE`], and notes the log's size
/// in `wal_frames`. Ends when the store is closed.
async fn checkpoints(pool: SqlitePool, wrote: Arc<Notify>, wal_frames: Arc<AtomicI64>) {
    loop {
        wrote.notified().await;
        tokio::time::sleep(CHECKPOINT_PAUSE).await;
        if pool.is_closed() {
            return;
        }
        let passive: std::result::Result<(i64, i64, i64), _> =
            sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&pool)
                .await;
        match passive {
            Ok((_, log, _)) => wal_frames.store(log, Ordering::Relaxed),
            Err(e) => {
                if pool.is_closed() {
                    return;
                }
                tracing::warn!(error = %e, "checkpoint failed");
            }
        }
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string(value)?)
}

fn corrupt(what: String) -> StoreError {
    StoreError::Corrupt(serde::de::Error::custom(what))
}

fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    Ok(serde_json::from_str(text)?)
}

/// `SELECT` of every game column by id.
const SELECT_GAME: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts FROM games WHERE id = ?";

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
        seated: row.try_get::<i64, _>("seated")? != 0,
        sides_report_throws: row.try_get::<i64, _>("sides_report_throws")? != 0,
        state: from_json(row.try_get::<&str, _>("state")?)?,
        version: u32::try_from(row.try_get::<i64, _>("version")?).unwrap_or(u32::MAX),
        told_facts: from_json(row.try_get::<&str, _>("told_facts")?)?,
    })
}

/// The embedded migrations.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How long a start waits for another process's migrations at most.
const MIGRATION_WAIT: Duration = Duration::from_secs(120);

/// Apply the pending migrations under the database's write lock.
///
/// sqlx's SQLite migrator takes no lock of its own, so two processes
/// started together on a fresh file would both apply the first migration
/// and one would fail. Here the whole run happens inside one `BEGIN
/// IMMEDIATE` transaction (each migration a savepoint of it): the first
/// process to take the write lock applies everything, the others wait for
/// the lock (retrying past the busy time-out) and then find nothing to do.
async fn migrate(writer: &SqlitePool) -> Result<()> {
    use sqlx::Connection;
    let deadline = tokio::time::Instant::now() + MIGRATION_WAIT;
    let mut conn = writer.acquire().await?;
    loop {
        match conn.begin_with("BEGIN IMMEDIATE").await {
            Ok(mut tx) => {
                MIGRATOR.run_direct(None, &mut *tx, false).await?;
                tx.commit().await?;
                return Ok(());
            }
            Err(e) => match StoreError::from_sqlx(e) {
                StoreError::Busy if tokio::time::Instant::now() < deadline => {}
                other => return Err(other),
            },
        }
    }
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
            // No checkpoint on the writer's path (see `checkpoints`); a
            // larger page cache than the default 2 MiB, and statement
            // journals (a batch's multi-row statements) in memory.
            .connect_with(
                base.clone()
                    .pragma("wal_autocheckpoint", "0")
                    .pragma("cache_size", "-8192")
                    .pragma("temp_store", "memory"),
            )
            .await?;
        migrate(&writer).await?;
        let readers = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(base.clone().read_only(true))
            .await?;
        let checkpointer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(BUSY_TIMEOUT)
            .connect_with(base)
            .await?;
        let wrote = Arc::new(Notify::new());
        let wal_frames = Arc::new(AtomicI64::new(0));
        tokio::spawn(checkpoints(
            checkpointer.clone(),
            Arc::clone(&wrote),
            Arc::clone(&wal_frames),
        ));
        Ok(Self {
            writer,
            readers,
            checkpointer,
            wrote,
            wal_frames,
            wal_wrap_frames: WAL_WRAP_FRAMES,
        })
    }

    /// Close the pools, waiting for connections to finish (the last one to
    /// close copies the write-ahead log into the database).
    pub async fn close(&self) {
        self.checkpointer.close().await;
        self.wrote.notify_one();
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
        let embedded = MIGRATOR.iter().count();
        Ok(usize::try_from(applied).unwrap_or(0) >= embedded)
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

    /// Games whose last change (creation, move or stop) came before
    /// `before` (a [`timestamp`]), at most `limit`, oldest change first:
    /// the candidates of a retention purge, found on a reader connection so
    /// that the search holds no write lock.
    ///
    /// # Errors
    /// Any database error.
    pub async fn games_untouched_since(&self, before: &str, limit: u32) -> Result<Vec<GameId>> {
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM games WHERE updated_at < ? ORDER BY updated_at LIMIT ?",
        )
        .bind(before)
        .bind(i64::from(limit))
        .fetch_all(&self.readers)
        .await
        .map_err(StoreError::from_sqlx)?;
        Ok(ids.iter().filter_map(|id| GameId::parse(id).ok()).collect())
    }

    /// Every game id, oldest first.
    ///
    /// # Errors
    /// Any database error.
    pub async fn game_ids(&self) -> Result<Vec<GameId>> {
        let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM games ORDER BY created_at, id")
            .fetch_all(&self.readers)
            .await
            .map_err(StoreError::from_sqlx)?;
        Ok(ids.iter().filter_map(|id| GameId::parse(id).ok()).collect())
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

    /// The same store, letting the write-ahead log wrap past `frames` (4 KiB
    /// pages) instead of [`WAL_WRAP_FRAMES`] (at least 1).
    #[must_use]
    pub fn with_wal_wrap_frames(mut self, frames: i64) -> Self {
        self.wal_wrap_frames = frames.max(1);
        self
    }

    /// Let the write-ahead log start again from its beginning once it has
    /// passed [`WAL_WRAP_FRAMES`] (or the bound set by
    /// [`Store::with_wal_wrap_frames`]): between two transactions, the writer
    /// copies the few frames the checkpointer has not copied yet (a passive
    /// checkpoint on its own connection), and SQLite then writes the next
    /// transaction from the log's start. Returns whether it did; does
    /// nothing (and costs nothing) below the bound, or when a checkpoint is
    /// running (then the next call tries again).
    ///
    /// # Errors
    /// Any database error.
    pub async fn wrap_wal(&self) -> Result<bool> {
        if self.wal_frames.load(Ordering::Relaxed) < self.wal_wrap_frames {
            return Ok(false);
        }
        let (busy, log, copied): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&self.writer)
            .await
            .map_err(StoreError::from_sqlx)?;
        let done = busy == 0 && log == copied;
        if done {
            self.wal_frames.store(0, Ordering::Relaxed);
        }
        Ok(done)
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
        Ok(WriteTx(tx, Arc::clone(&self.wrote)))
    }
}

impl WriteTx {
    /// Insert a new game (its `created_at` and `updated_at` as given) and,
    /// for a seated game, the hashes of its tokens.
    ///
    /// # Errors
    /// Any database error (a duplicate id included).
    pub async fn insert_game(&mut self, game: &Game, seats: Option<&Seats>) -> Result<()> {
        sqlx::query(
            "INSERT INTO games (id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game.id.to_string())
        .bind(&game.created_at)
        .bind(&game.updated_at)
        .bind(to_json(&game.setup)?)
        .bind(&game.seed)
        .bind(i64::from(game.seeded))
        .bind(i64::from(game.seated))
        .bind(i64::from(game.sides_report_throws))
        .bind(to_json(&game.state)?)
        .bind(i64::from(game.version))
        .bind(game.status())
        .bind(to_json(&game.told_facts)?)
        .execute(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        if let Some(seats) = seats {
            let rows = [
                ("A", Some(seats.sides[0])),
                ("B", Some(seats.sides[1])),
                ("host", seats.host),
            ];
            for (side, hash) in rows {
                let Some(hash) = hash else { continue };
                sqlx::query("INSERT INTO seats (game_id, side, token_hash) VALUES (?, ?, ?)")
                    .bind(game.id.to_string())
                    .bind(side)
                    .bind(hash.as_slice())
                    .execute(&mut *self.0)
                    .await
                    .map_err(StoreError::from_sqlx)?;
            }
        }
        Ok(())
    }

    /// Delete a game with its moves, seats and idempotency keys (the
    /// foreign keys cascade). Returns whether there was such a game.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_game(&mut self, id: GameId) -> Result<bool> {
        let done = sqlx::query("DELETE FROM games WHERE id = ?")
            .bind(id.to_string())
            .execute(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        Ok(done.rows_affected() > 0)
    }

    /// Delete those of `ids` whose last change still came before `before`
    /// (a [`timestamp`]; a game played meanwhile is kept), with their
    /// moves, seats and keys. Returns the ids deleted.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_games_untouched_since(
        &mut self,
        ids: &[GameId],
        before: &str,
    ) -> Result<Vec<GameId>> {
        let mut deleted = Vec::new();
        for chunk in ids.chunks(256) {
            let mut delete = QueryBuilder::<Sqlite>::new("DELETE FROM games WHERE updated_at < ");
            delete.push_bind(before);
            delete.push(" AND id IN (");
            let mut list = delete.separated(", ");
            for id in chunk {
                list.push_bind(id.to_string());
            }
            delete.push(") RETURNING id");
            let gone: Vec<String> = delete
                .build_query_scalar()
                .fetch_all(&mut *self.0)
                .await
                .map_err(StoreError::from_sqlx)?;
            deleted.extend(gone.iter().filter_map(|id| GameId::parse(id).ok()));
        }
        Ok(deleted)
    }

    /// Delete every idempotency answer (of throws, stops and creations)
    /// kept since before `before` (a [`timestamp`]): an answer to a
    /// creation holds the game's tokens in clear until then. Returns how
    /// many were deleted.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_keys_before(&mut self, before: &str) -> Result<u64> {
        let mut deleted = 0;
        for delete in [
            "DELETE FROM idempotency_keys WHERE created_at <= ?",
            "DELETE FROM create_keys WHERE created_at <= ?",
        ] {
            let done = sqlx::query(delete)
                .bind(before)
                .execute(&mut *self.0)
                .await
                .map_err(StoreError::from_sqlx)?;
            deleted += done.rows_affected();
        }
        Ok(deleted)
    }

    /// The stored answer to an earlier creation with this idempotency key,
    /// if it has not expired.
    ///
    /// # Errors
    /// Any database error.
    pub async fn create_answer(&mut self, key: &str) -> Result<Option<StoredAnswer>> {
        let row = sqlx::query(
            "SELECT request_hash, location, etag, body FROM create_keys
             WHERE key = ? AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(key)
        .bind(IDEMPOTENCY_EXPIRY)
        .fetch_optional(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        row.map(|r| {
            Ok(StoredAnswer {
                request_hash: r.try_get("request_hash")?,
                location: r.try_get("location")?,
                etag: r.try_get("etag")?,
                body: r.try_get("body")?,
            })
        })
        .transpose()
    }

    /// Keep the answer to a creation under its idempotency key (replacing
    /// an expired one), and drop every expired creation key.
    ///
    /// # Errors
    /// Any database error.
    pub async fn keep_create_answer(
        &mut self,
        key: &str,
        game: GameId,
        answer: &StoredAnswer,
    ) -> Result<()> {
        sqlx::query(
            "DELETE FROM create_keys
             WHERE key = ? OR created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(key)
        .bind(IDEMPOTENCY_EXPIRY)
        .execute(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        sqlx::query(
            "INSERT INTO create_keys (key, request_hash, game_id, location, etag, body)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(key)
        .bind(answer.request_hash.as_slice())
        .bind(game.to_string())
        .bind(&answer.location)
        .bind(&answer.etag)
        .bind(answer.body.as_slice())
        .execute(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        Ok(())
    }

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

    /// Move number `n` of a game, read inside the transaction (so a move
    /// written earlier in it is seen).
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn move_record(&mut self, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
        let row = sqlx::query("SELECT body FROM moves WHERE game_id = ? AND n = ?")
            .bind(id.to_string())
            .bind(i64::from(n))
            .fetch_optional(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.map(|r| from_json(r.try_get::<&str, _>("body")?))
            .transpose()
    }

    /// The game and side a token hash is the seat of, if any.
    ///
    /// # Errors
    /// Any database error.
    pub async fn seat_of(&mut self, token_hash: &[u8; 32]) -> Result<Option<(String, String)>> {
        let row = sqlx::query("SELECT game_id, side FROM seats WHERE token_hash = ?")
            .bind(token_hash.as_slice())
            .fetch_optional(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.map(|r| Ok((r.try_get("game_id")?, r.try_get("side")?)))
            .transpose()
    }

    /// The stored answer to an earlier throw with this idempotency key, if
    /// it has not expired: (request hash, location, etag, body).
    ///
    /// # Errors
    /// Any database error.
    pub async fn idempotent_answer(
        &mut self,
        id: GameId,
        key: &str,
    ) -> Result<Option<StoredAnswer>> {
        let row = sqlx::query(
            "SELECT request_hash, location, etag, body FROM idempotency_keys
             WHERE game_id = ? AND key = ?
               AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(id.to_string())
        .bind(key)
        .bind(IDEMPOTENCY_EXPIRY)
        .fetch_optional(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        row.map(|r| {
            Ok(StoredAnswer {
                request_hash: r.try_get("request_hash")?,
                location: r.try_get("location")?,
                etag: r.try_get("etag")?,
                body: r.try_get("body")?,
            })
        })
        .transpose()
    }

    /// Keep the answer to a throw under its idempotency key (replacing an
    /// expired one), and drop the game's expired keys.
    ///
    /// # Errors
    /// Any database error.
    pub async fn keep_answer(
        &mut self,
        id: GameId,
        key: &str,
        answer: &StoredAnswer,
    ) -> Result<()> {
        sqlx::query(
            "DELETE FROM idempotency_keys
             WHERE game_id = ? AND created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(id.to_string())
        .bind(IDEMPOTENCY_EXPIRY)
        .execute(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        sqlx::query(
            "INSERT OR REPLACE INTO idempotency_keys (game_id, key, request_hash, location, etag, body)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(id.to_string())
        .bind(key)
        .bind(answer.request_hash.as_slice())
        .bind(&answer.location)
        .bind(&answer.etag)
        .bind(answer.body.as_slice())
        .execute(&mut *self.0)
        .await
        .map_err(StoreError::from_sqlx)?;
        Ok(())
    }

    /// The hashes of a seated game's tokens: each side's and, for a game
    /// seated since hosts exist, the host's.
    ///
    /// # Errors
    /// Any database error; [`StoreError::Corrupt`] for a seat row that is
    /// not a side's or the host's 32-byte hash.
    pub async fn seats(&mut self, id: GameId) -> Result<Option<Seats>> {
        let rows = sqlx::query("SELECT side, token_hash FROM seats WHERE game_id = ?")
            .bind(id.to_string())
            .fetch_all(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        if rows.is_empty() {
            return Ok(None);
        }
        let mut seats = Seats {
            sides: [[0; 32]; 2],
            host: None,
        };
        for row in &rows {
            let side: String = row.try_get("side")?;
            let hash: Vec<u8> = row.try_get("token_hash")?;
            let hash: [u8; 32] = hash
                .try_into()
                .map_err(|_| corrupt("a seat hash is not 32 bytes".to_owned()))?;
            match side.as_str() {
                "A" => seats.sides[0] = hash,
                "B" => seats.sides[1] = hash,
                "host" => seats.host = Some(hash),
                _ => return Err(corrupt(format!("seat of side {side:?}"))),
            }
        }
        Ok(Some(seats))
    }

    /// Save a batch: each game's new state, as a compare-and-set on the
    /// version it had when read (`(game, read_version)`, one statement for
    /// all), then every move (`(game id, move)`, one statement). Returns
    /// `false`, having written no move, when some game's version moved on
    /// meanwhile (another writer): the caller must roll back then.
    ///
    /// # Errors
    /// Any database error.
    pub async fn save_batch(
        &mut self,
        updated_at: &str,
        games: &[(&Game, u32)],
        moves: &[(GameId, &MoveRecord)],
    ) -> Result<bool> {
        if !games.is_empty() {
            let rows = games
                .iter()
                .map(|(game, read_version)| {
                    Ok((
                        game.id.to_string(),
                        i64::from(*read_version),
                        to_json(&game.state)?,
                        i64::from(game.version),
                        game.status(),
                        to_json(&game.told_facts)?,
                    ))
                })
                .collect::<Result<Vec<_>>>()?;
            let mut update = QueryBuilder::<Sqlite>::new(
                "WITH v (id, read_version, state, version, status, told_facts) AS (",
            );
            update.push_values(rows, |mut b, row| {
                b.push_bind(row.0)
                    .push_bind(row.1)
                    .push_bind(row.2)
                    .push_bind(row.3)
                    .push_bind(row.4)
                    .push_bind(row.5);
            });
            update.push(
                ") UPDATE games SET state = v.state, version = v.version, status = v.status, \
                 told_facts = v.told_facts, updated_at = ",
            );
            update.push_bind(updated_at);
            update.push(" FROM v WHERE games.id = v.id AND games.version = v.read_version");
            let done = update
                .build()
                .execute(&mut *self.0)
                .await
                .map_err(StoreError::from_sqlx)?;
            if usize::try_from(done.rows_affected()).ok() != Some(games.len()) {
                return Ok(false);
            }
        }
        if !moves.is_empty() {
            let rows = moves
                .iter()
                .map(|(id, record)| Ok((id.to_string(), i64::from(record.n), to_json(record)?)))
                .collect::<Result<Vec<_>>>()?;
            let mut insert = QueryBuilder::<Sqlite>::new("INSERT INTO moves (game_id, n, body) ");
            insert.push_values(rows, |mut b, row| {
                b.push_bind(row.0).push_bind(row.1).push_bind(row.2);
            });
            insert
                .build()
                .execute(&mut *self.0)
                .await
                .map_err(StoreError::from_sqlx)?;
        }
        Ok(true)
    }

    /// Roll back: nothing of the transaction is written.
    ///
    /// # Errors
    /// Any database error.
    pub async fn rollback(self) -> Result<()> {
        self.0.rollback().await.map_err(StoreError::from_sqlx)
    }

    /// Commit.
    ///
    /// # Errors
    /// Any database error; nothing is written then.
    pub async fn commit(self) -> Result<()> {
        self.0.commit().await.map_err(StoreError::from_sqlx)?;
        self.1.notify_one();
        Ok(())
    }
}
