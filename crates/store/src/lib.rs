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
//! `moves`, `seats`, `classes` (a teacher's games under one host token),
//! `keys` (idempotency answers, kept sealed by `sealed`), `secret` (the
//! server's secret key that seals them, kept in a file outside the
//! database), `retention` (what a purge deletes); SQLite's own concerns
//! are in `sqlite` (`wal`: syncing the write-ahead log; `backup`;
//! `baseline`). Each of their statements is written once for both
//! databases, through `seam` (the one dispatch, and the `Dialect` trait
//! that `sqlite` and `pg` each implement), reading the rows of `rows`;
//! this module holds the store, its write transaction and its errors.

// The crates below this one, by the names the modules use.
use zohn_ahl_domain as domain;

use std::sync::Arc;
use std::sync::atomic::AtomicI64;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::SqlitePool;
use sqlx::postgres::PgPool;
use tokio::sync::Notify;

mod classes;
mod games;
mod keys;
mod moves;
mod open;
mod pg;
mod retention;
mod rows;
mod sealed;
mod seam;
mod seats;
mod secret;
mod sqlite;

pub use games::{GameToPlay, Locked};
pub use keys::IDEMPOTENCY_LIFETIME;
pub use pg::{WRITES_CHANNEL, Writes, is_postgres, redacted};
pub use sealed::StoredAnswer;
pub use seats::JoinedSeat;
pub use secret::{KEY_BYTES, POSTGRES_KEY_FILE, SecretKey, SecretKeyError};
pub use sqlite::{CHECKPOINT_PAUSE, WAL_WRAP_FRAMES};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL names an in-memory database, which the two pools
    /// cannot share.
    #[error(
        "in-memory SQLite databases are not supported (the writer and the readers would see different databases); give a file, e.g. sqlite://zohn-ahl.db"
    )]
    InMemory,
    /// The database could not be opened, read or written. Made only by
    /// `From<sqlx::Error>`, which tells [`StoreError::Busy`] apart first.
    #[error("database error: {0}")]
    Sqlx(sqlx::Error),
    /// Migrations failed.
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored JSON column does not parse (a defect or a foreign edit).
    #[error("stored data is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// The database is busy: on SQLite locked by another writer for
    /// longer than the busy time-out; on PostgreSQL a deadlock, a
    /// serialization failure or a lock or statement time-out; on both, no
    /// connection free within the pool's time-out. Trying again shortly
    /// may succeed (see [`is_busy`]).
    #[error("the database is busy")]
    Busy,
    /// The database cannot be reached: PostgreSQL's server is down, or
    /// refuses or drops connections (a connection that fails, PostgreSQL's
    /// SQLSTATE class `08` or `57P01`-`57P03`, or a pool time-out while no
    /// new connection can be opened either). Not busy: waiting a moment
    /// does not help until an operator brings the server back.
    /// It holds what failed, for the log (never for a client).
    #[error("the database cannot be reached: {0}")]
    Unreachable(String),
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
    /// The database URL's scheme is neither SQLite's nor PostgreSQL's.
    #[error(
        "a database URL starts with sqlite:// or postgres:// (or is a file's path), not {0}://"
    )]
    Scheme(String),
    /// A backup's file cannot be written: it exists, or its path is not
    /// UTF-8.
    #[error("{0}")]
    BackupTarget(String),
    /// A PostgreSQL database is backed up with its own tools.
    #[error(
        "a PostgreSQL database is backed up with pg_dump (README: Backups and restores), not by this command"
    )]
    BackupOnPostgres,
}

impl Store {
    /// Each connection pool's connections open now and how many of them
    /// are idle: `writer`, `readers` and `checkpointer` on SQLite,
    /// `postgres` on PostgreSQL.
    #[must_use]
    pub fn pool_use(&self) -> Vec<(&'static str, u32, usize)> {
        match &self.backend {
            Backend::Sqlite(pools) => vec![
                ("writer", pools.writer.size(), pools.writer.num_idle()),
                ("readers", pools.readers.size(), pools.readers.num_idle()),
                (
                    "checkpointer",
                    pools.checkpointer.size(),
                    pools.checkpointer.num_idle(),
                ),
            ],
            Backend::Postgres(pool) => vec![("postgres", pool.size(), pool.num_idle())],
        }
    }
}

/// Every `sqlx::Error` of either store becomes a [`StoreError`] here, so
/// `?` on any query classifies it: unreachable ([`is_unreachable`]), busy
/// ([`is_busy`]) or neither. A pool time-out is busy here; the PostgreSQL
/// store tells one with its server unreachable apart (`pg::told`), since
/// sqlx retries a refused connection until the time-out and then says only
/// that it timed out.
impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if is_unreachable(&e) {
            StoreError::Unreachable(e.to_string())
        } else if is_busy(&e) {
            StoreError::Busy
        } else {
            StoreError::Sqlx(e)
        }
    }
}

/// Whether a database error says the database cannot be reached: the
/// connection failed (an I/O or TLS error), or PostgreSQL says the
/// connection is broken (SQLSTATE class `08`) or the server is shutting
/// down or starting (`57P01` admin_shutdown, `57P02` crash_shutdown,
/// `57P03` cannot_connect_now).
fn is_unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(db)
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_none() =>
        {
            db.code().is_some_and(|code| {
                code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03")
            })
        }
        _ => false,
    }
}

/// Whether a database error says the database is busy, so that the same
/// request may succeed if tried again shortly: no pooled connection free
/// within the pool's time-out (either store), or a database error of
/// [`sqlite_busy`] or [`postgres_busy`].
fn is_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(db) => match db.code() {
            Some(code) if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() => {
                sqlite_busy(&code)
            }
            Some(code) => postgres_busy(&code),
            None => false,
        },
        _ => false,
    }
}

/// SQLite's (extended) result codes of a busy database: `SQLITE_BUSY` (5)
/// and `SQLITE_LOCKED` (6) with each of their extended codes
/// (`BUSY_RECOVERY`, `BUSY_SNAPSHOT`, `BUSY_TIMEOUT`, `LOCKED_SHAREDCACHE`,
/// ...), whose low byte is the primary code.
fn sqlite_busy(code: &str) -> bool {
    code.parse::<u32>()
        .is_ok_and(|code| matches!(code & 0xff, 5 | 6))
}

/// PostgreSQL's SQLSTATEs of a transaction that lost to another and may be
/// tried again: `40001` serialization_failure, `40P01`
/// deadlock_detected, `55P03` lock_not_available (`lock_timeout`,
/// `NOWAIT`) and `57014` query_canceled (`statement_timeout`).
fn postgres_busy(code: &str) -> bool {
    matches!(code, "40001" | "40P01" | "55P03" | "57014")
}

type Result<T> = std::result::Result<T, StoreError>;

/// How long a connection waits for a lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The game store: SQLite (the default) or PostgreSQL, chosen by the
/// database URL's scheme ([`Store::connect`]). Each method's statements
/// are written once and run on the store's database (see `seam`).
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
    log: sqlite::LogFile,
    /// The file's connection options, for the last connection at close.
    options: Arc<sqlx::sqlite::SqliteConnectOptions>,
}

/// An open write transaction (`BEGIN IMMEDIATE` on SQLite's single writer;
/// a `READ COMMITTED` transaction on PostgreSQL).
/// On SQLite it also names the write-ahead log to sync after the commit;
/// it seals and opens idempotency answers with the store's secret key.
pub struct WriteTx(Tx, Arc<Notify>, Option<sqlite::LogFile>, Option<SecretKey>);

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
    /// [`StoreError::Busy`] when the lock cannot be had in time;
    /// [`StoreError::Unreachable`] when PostgreSQL cannot be reached.
    pub async fn begin(&self) -> Result<WriteTx> {
        let (tx, log) = match &self.backend {
            Backend::Sqlite(pools) if pools.log.failed() => return Err(StoreError::Unavailable),
            Backend::Sqlite(pools) => (
                Tx::Sqlite(pools.writer.begin_with("BEGIN IMMEDIATE").await?),
                Some(pools.log.clone()),
            ),
            Backend::Postgres(pool) => (
                Tx::Postgres(pg::told(pool, async { Ok(pool.begin().await?) }).await?),
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
        .map_err(StoreError::from)
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
        }?;
        self.1.notify_one();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{StoreError, is_busy, is_unreachable, postgres_busy, sqlite_busy};

    #[test]
    fn sqlite_busy_and_locked_codes_are_busy_with_their_extended_codes() {
        // BUSY, LOCKED, BUSY_RECOVERY, LOCKED_SHAREDCACHE, BUSY_SNAPSHOT,
        // LOCKED_VTAB, BUSY_TIMEOUT.
        for code in ["5", "6", "261", "262", "517", "518", "773"] {
            assert!(sqlite_busy(code), "SQLite code {code}");
        }
        // ERROR, CONSTRAINT_UNIQUE, IOERR_FSYNC, FULL, CORRUPT.
        for code in ["1", "2067", "1034", "13", "11", "40001", "40P01"] {
            assert!(!sqlite_busy(code), "SQLite code {code}");
        }
    }

    /// An operator's trial: `--database-url mysql://x` was taken for a
    /// file's path (and a key file was made beside it).
    #[test]
    fn regression_a_url_of_another_database_was_taken_for_a_file() {
        assert!(matches!(
            super::Store::sqlite_file("mysql://x/db"),
            Err(StoreError::Scheme(s)) if s == "mysql"
        ));
        assert!(matches!(
            super::Store::default_key_file("mysql://x/db"),
            Err(StoreError::Scheme(_))
        ));
        for url in ["sqlite://a.db", "sqlite:a.db", "a.db", "/tmp/a.db"] {
            assert!(super::Store::sqlite_file(url).unwrap().is_some(), "{url}");
        }
        assert!(
            super::Store::sqlite_file("postgres://u@h/d")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn postgres_deadlock_serialization_and_lock_time_outs_are_busy() {
        for code in ["40001", "40P01", "55P03", "57014"] {
            assert!(postgres_busy(code), "SQLSTATE {code}");
        }
        // unique_violation, foreign_key_violation, undefined_table,
        // admin_shutdown, and SQLite's codes.
        for code in ["23505", "23503", "42P01", "57P01", "5", "6", "517"] {
            assert!(!postgres_busy(code), "SQLSTATE {code}");
        }
    }

    #[test]
    fn a_pool_time_out_is_busy_and_other_errors_are_not() {
        assert!(is_busy(&sqlx::Error::PoolTimedOut));
        assert!(matches!(
            StoreError::from(sqlx::Error::PoolTimedOut),
            StoreError::Busy
        ));
        assert!(matches!(
            StoreError::from(sqlx::Error::RowNotFound),
            StoreError::Sqlx(sqlx::Error::RowNotFound)
        ));
        assert!(!is_busy(&sqlx::Error::PoolClosed));
    }

    /// Issue 29: a connection that fails is the database unreachable, not
    /// busy and not an internal error.
    #[test]
    fn a_failed_connection_is_unreachable_not_busy() {
        let refused =
            || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert!(is_unreachable(&refused()));
        assert!(!is_busy(&refused()));
        assert!(matches!(
            StoreError::from(refused()),
            StoreError::Unreachable(_)
        ));
        assert!(!is_unreachable(&sqlx::Error::PoolTimedOut));
        assert!(!is_unreachable(&sqlx::Error::RowNotFound));
    }

    /// A real SQLite error: a second writer on a file another holds, with
    /// no busy time-out, gets `SQLITE_BUSY`, which `?` makes `Busy`.
    #[tokio::test]
    async fn a_locked_sqlite_file_is_busy() {
        use sqlx::ConnectOptions;
        use sqlx::sqlite::SqliteConnectOptions;
        let dir = tempfile::tempdir().unwrap();
        let options = SqliteConnectOptions::new()
            .filename(dir.path().join("busy.db"))
            .create_if_missing(true)
            .busy_timeout(std::time::Duration::ZERO);
        let mut holder = options.connect().await.unwrap();
        let mut other = options.connect().await.unwrap();
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut holder)
            .await
            .unwrap();
        let e = sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut other)
            .await
            .unwrap_err();
        assert!(matches!(StoreError::from(e), StoreError::Busy));
    }
}
