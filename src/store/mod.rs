//! Storage (sqlx): the only module with SQL. SQLite by default; PostgreSQL
//! (`pg`) when the database URL says `postgres://`, for several instances
//! on one database. It knows nothing of
//! the layers above it (service, http): it reads and writes the records of
//! [`crate::domain`].
//!
//! One writer connection (writes are serialised, so no two writers ever
//! race for the lock), a pool of read-only connections and one checkpointer
//! connection on the same file, in WAL mode. The writer commits with
//! `synchronous=NORMAL` (the commit writes the log, without waiting for the
//! disk) and the store then syncs the log itself ([`Store::sync_log`]):
//! [`WriteTx::commit`] does both, so a throw answered 201 has reached the
//! disk; the single writer uses [`WriteTx::commit_unsynced`] and syncs one
//! group of batches at a time while it writes the next (see
//! `service::writer`). The write-ahead log is copied
//! into the database by the checkpointer, off the writer's path, and let
//! wrap by the writer between transactions ([`Store::wrap_wal`]).
//! Migrations are embedded in the binary and run on connect.
//!
//! By concern: `open` (connecting, migrations, checkpoints), `games`,
//! `moves`, `seats`, `keys` (idempotency answers, kept sealed), `secret`
//! (the server's secret key that seals them, kept in a file outside the
//! database), `retention` (what a purge deletes), `wal` (syncing the
//! write-ahead log); this module holds the store, its write transaction,
//! its errors and its clock.

use std::sync::Arc;
use std::sync::atomic::AtomicI64;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::SqlitePool;
use sqlx::postgres::PgPool;
use tokio::sync::Notify;

#[cfg(feature = "bench-baseline")]
mod baseline;
mod codec;
mod games;
mod keys;
mod moves;
mod open;
mod pg;
mod retention;
mod seats;
mod secret;
mod wal;

pub use codec::LoggedMove;
pub use games::{GameToPlay, Locked, RulesStated};
pub use keys::{IDEMPOTENCY_EXPIRY, IDEMPOTENCY_LIFETIME, StoredAnswer};
pub use open::{CHECKPOINT_PAUSE, WAL_WRAP_FRAMES};
pub use pg::{WRITES_CHANNEL, Writes, is_postgres, redacted};
pub use secret::{KEY_BYTES, POSTGRES_KEY_FILE, SecretKey, SecretKeyError};

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
    /// The secret key file cannot be used.
    #[error(transparent)]
    SecretKey(#[from] SecretKeyError),
    /// An answer kept under an idempotency key cannot be opened with this
    /// store's secret key: it was sealed under another key file (another
    /// instance's, or one lost since), or its bytes were altered.
    #[error(
        "an answer kept under an idempotency key cannot be opened with this server's secret key (it was sealed under another key file)"
    )]
    AnswerUnreadable,
    /// The store was opened without a secret key, so it can neither keep
    /// nor read an idempotency answer.
    #[error("this store was opened without a secret key and keeps no idempotency answer")]
    NoSecretKey,
}

impl StoreError {
    fn from_sqlx(e: sqlx::Error) -> Self {
        // SQLite's BUSY, LOCKED and BUSY_SNAPSHOT; PostgreSQL's
        // serialization failure, deadlock and lock time-out.
        if let sqlx::Error::Database(db) = &e
            && matches!(
                db.code().as_deref(),
                Some("5" | "6" | "517" | "40001" | "40P01" | "55P03")
            )
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

/// The game store: SQLite (the default) or PostgreSQL, chosen by the
/// database URL's scheme ([`Store::connect`]). Each method runs its own
/// backend's SQL.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    wrote: Arc<Notify>,
    /// WAL frames at the checkpointer's last checkpoint (SQLite).
    wal_frames: Arc<AtomicI64>,
    /// The bound past which [`Store::wrap_wal`] lets the log wrap.
    wal_wrap_frames: i64,
    /// What seals the answers kept under idempotency keys (`None`: a
    /// store that keeps and reads none, such as `verify`'s).
    secret: Option<SecretKey>,
}

/// The database behind a store.
#[derive(Clone, Debug)]
enum Backend {
    /// One file: a single writer connection, read-only readers and a
    /// checkpointer.
    Sqlite(SqlitePools),
    /// A PostgreSQL database, possibly shared by several instances.
    Postgres(PgPool),
}

/// The SQLite store's connections to its file.
#[derive(Clone, Debug)]
struct SqlitePools {
    writer: SqlitePool,
    readers: SqlitePool,
    checkpointer: SqlitePool,
    /// The write-ahead log's file, synced by [`Store::sync_log`].
    log: wal::LogFile,
}

/// An open write transaction (`BEGIN IMMEDIATE` on SQLite's single writer;
/// a `READ COMMITTED` transaction on PostgreSQL).
/// On SQLite it also names the write-ahead log to sync after the commit;
/// it seals and opens idempotency answers with the store's secret key.
pub struct WriteTx(Tx, Arc<Notify>, Option<wal::LogFile>, Option<SecretKey>);

/// A write transaction of either backend.
enum Tx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
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

impl Store {
    /// Whether the store is PostgreSQL's.
    #[must_use]
    pub fn is_postgres(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Start a write transaction: `BEGIN IMMEDIATE` on SQLite's writer, a
    /// transaction on PostgreSQL.
    ///
    /// # Errors
    /// [`StoreError::Busy`] when the lock cannot be had in time.
    pub async fn begin(&self) -> Result<WriteTx> {
        let (tx, log) = match &self.backend {
            Backend::Sqlite(pools) if pools.log.failed() => return Err(StoreError::Unavailable),
            Backend::Sqlite(pools) => (
                Tx::Sqlite(
                    pools
                        .writer
                        .begin_with("BEGIN IMMEDIATE")
                        .await
                        .map_err(StoreError::from_sqlx)?,
                ),
                Some(pools.log.clone()),
            ),
            Backend::Postgres(pool) => (
                Tx::Postgres(pool.begin().await.map_err(StoreError::from_sqlx)?),
                None,
            ),
        };
        Ok(WriteTx(
            tx,
            Arc::clone(&self.wrote),
            log,
            self.secret.clone(),
        ))
    }
}

impl WriteTx {
    /// Roll back: nothing of the transaction is written.
    ///
    /// # Errors
    /// Any database error.
    pub async fn rollback(self) -> Result<()> {
        match self.0 {
            Tx::Sqlite(tx) => tx.rollback().await,
            Tx::Postgres(tx) => tx.rollback().await,
        }
        .map_err(StoreError::from_sqlx)
    }

    /// Commit, durably: on SQLite the commit, then the write-ahead log
    /// synced ([`Store::sync_log`]).
    ///
    /// # Errors
    /// Any database error; nothing is written then. [`StoreError::Unavailable`]
    /// when the log cannot be synced: the transaction is committed but may
    /// not survive a power cut.
    pub async fn commit(self) -> Result<()> {
        let log = self.2.clone();
        self.commit_unsynced().await?;
        match log {
            Some(log) => log.sync().await,
            None => Ok(()),
        }
    }

    /// Commit without waiting for the disk. On SQLite the transaction is
    /// then in the write-ahead log, visible to readers and kept if the
    /// process is killed, but not yet on the disk: nobody may be told it is
    /// durable before [`Store::sync_log`] has returned. On PostgreSQL the
    /// same as [`WriteTx::commit`].
    ///
    /// # Errors
    /// Any database error; nothing is written then.
    pub async fn commit_unsynced(self) -> Result<()> {
        match self.0 {
            Tx::Sqlite(tx) => tx.commit().await,
            Tx::Postgres(tx) => tx.commit().await,
        }
        .map_err(StoreError::from_sqlx)?;
        self.1.notify_one();
        Ok(())
    }
}
