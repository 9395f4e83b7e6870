//! SQLite storage (sqlx): the only module with SQL. It knows nothing of
//! the layers above it (service, http): it reads and writes the records of
//! [`crate::domain`].
//!
//! One writer connection (writes are serialised, so no two writers ever
//! race for the lock), a pool of read-only connections and one checkpointer
//! connection on the same file, in WAL mode with `synchronous=FULL`: a
//! throw answered 201 has reached the disk. The write-ahead log is copied
//! into the database by the checkpointer, off the writer's path, and let
//! wrap by the writer between transactions ([`Store::wrap_wal`]).
//! Migrations are embedded in the binary and run on connect.
//!
//! By concern: `open` (connecting, migrations, checkpoints), `games`,
//! `moves`, `seats`, `keys` (idempotency answers), `retention` (what a
//! purge deletes); this module holds the store, its write transaction,
//! its errors and its clock.

use std::sync::Arc;
use std::sync::atomic::AtomicI64;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::SqlitePool;
use tokio::sync::Notify;

#[cfg(feature = "bench-baseline")]
mod baseline;
mod codec;
mod games;
mod keys;
mod moves;
mod open;
mod retention;
mod seats;

pub use codec::LoggedMove;
pub use games::RulesStated;
pub use keys::{IDEMPOTENCY_EXPIRY, IDEMPOTENCY_LIFETIME, StoredAnswer};
pub use open::{CHECKPOINT_PAUSE, WAL_WRAP_FRAMES};

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

fn to_json<T: Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string(value)?)
}

fn corrupt(what: String) -> StoreError {
    StoreError::Corrupt(serde::de::Error::custom(what))
}

fn from_json<T: DeserializeOwned>(text: &str) -> Result<T> {
    Ok(serde_json::from_str(text)?)
}

impl Store {
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
