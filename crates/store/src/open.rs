//! Opening and closing the store, on either database (each opens its own
//! way: `sqlite::open`, `pg::open`), its readiness and the write-ahead
//! log's sync and wrap.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use tokio::sync::Notify;

use super::secret::{POSTGRES_KEY_FILE, SecretKey};
use super::sqlite::{MIGRATOR, WAL_WRAP_FRAMES, remove_log, sqlite_options};
use super::{Backend, Result, Store, StoreError};

impl Store {
    /// Open and migrate the database at `url` (see
    /// [`Store::connect_with_key`]), with the secret key in its default
    /// file ([`Store::default_key_file`]), made if missing.
    ///
    /// # Errors
    /// [`StoreError::SecretKey`] when the key file cannot be used; as
    /// [`Store::connect_with_key`].
    pub async fn connect(url: &str) -> Result<Self> {
        let secret = SecretKey::load_or_create(&Self::default_key_file(url)?)?;
        Self::connect_with_key(url, Some(secret)).await
    }

    /// The file of the SQLite database at `url`; `None` for PostgreSQL.
    ///
    /// # Errors
    /// [`StoreError`] when `url` is not a database URL.
    pub fn sqlite_file(url: &str) -> Result<Option<PathBuf>> {
        if super::pg::is_postgres(url) {
            return Ok(None);
        }
        Ok(Some(sqlite_options(url)?.get_filename().to_path_buf()))
    }

    /// The secret key file's default place for the database at `url`:
    /// beside a SQLite file, its name with `.key` added; `zohn-ahl.key` in
    /// the working directory for PostgreSQL.
    ///
    /// # Errors
    /// [`StoreError`] when `url` is not a database URL.
    pub fn default_key_file(url: &str) -> Result<PathBuf> {
        if super::pg::is_postgres(url) {
            return Ok(PathBuf::from(POSTGRES_KEY_FILE));
        }
        let mut path = sqlite_options(url)?.get_filename().as_os_str().to_owned();
        path.push(".key");
        Ok(PathBuf::from(path))
    }

    /// Open and migrate the database at `url`: PostgreSQL for
    /// `postgres://...` (or `postgresql://`); otherwise SQLite, creating
    /// the file if missing (`sqlite://path`, `sqlite:path` or a plain
    /// path). The answers kept under idempotency keys are sealed with
    /// `secret`, and those a version before kept in clear are sealed at
    /// once; without a key (a store that only reads games, such as
    /// `verify`'s) none can be kept or read.
    ///
    /// # Errors
    /// [`StoreError::InMemory`] for an in-memory SQLite URL; otherwise any
    /// error connecting to or migrating the database.
    pub async fn connect_with_key(url: &str, secret: Option<SecretKey>) -> Result<Self> {
        if super::pg::is_postgres(url) {
            let pool = super::pg::open(url, secret.as_ref()).await?;
            return Ok(Self {
                backend: Backend::Postgres(pool),
                wrote: Arc::new(Notify::new()),
                wal_frames: Arc::new(AtomicI64::new(0)),
                wal_wrap_frames: WAL_WRAP_FRAMES,
                secret,
            });
        }
        let (pools, wrote, wal_frames) = super::sqlite::open(url, secret.as_ref()).await?;
        Ok(Self {
            backend: Backend::Sqlite(pools),
            wrote,
            wal_frames,
            wal_wrap_frames: WAL_WRAP_FRAMES,
            secret,
        })
    }

    /// Close the pools, waiting for connections to finish. On SQLite the
    /// writer's connection closes last: the last connection to close copies
    /// the write-ahead log into the database and removes the log and its
    /// shared-memory file, which a read-only reader cannot do, so that a
    /// stopped server leaves the database as one file.
    pub async fn close(&self) {
        match &self.backend {
            Backend::Sqlite(pools) => {
                pools.readers.close().await;
                pools.checkpointer.close().await;
                self.wrote.notify_one();
                pools.writer.close().await;
                remove_log(&pools.options, pools.log.path()).await;
            }
            Backend::Postgres(pool) => pool.close().await,
        }
    }

    /// Whether [`Store::close`] has been called.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        match &self.backend {
            Backend::Sqlite(pools) => pools.writer.is_closed(),
            Backend::Postgres(pool) => pool.is_closed(),
        }
    }

    /// The writes of every instance on the database, as each commits
    /// (PostgreSQL; `None` for SQLite, where this process is the only
    /// writer).
    ///
    /// # Errors
    /// Any database error.
    pub async fn writes(&self) -> Result<Option<super::pg::Writes>> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(None),
            Backend::Postgres(pool) => Ok(Some(super::pg::Writes::listen(pool).await?)),
        }
    }

    /// Whether the database answers and every embedded migration is applied.
    ///
    /// # Errors
    /// Any database error.
    pub async fn ready(&self) -> Result<bool> {
        let readers = match &self.backend {
            // A log that could not be synced: no write is taken again.
            Backend::Sqlite(pools) if pools.log.failed() => return Ok(false),
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => return super::pg::ready(pool).await,
        };
        let applied: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success = 1")
                .fetch_one(readers)
                .await?;
        let embedded = MIGRATOR.iter().count();
        Ok(usize::try_from(applied).unwrap_or(0) >= embedded)
    }

    /// The version of the last migration applied to the database (that of
    /// the newest embedded migration once the store is open), for the
    /// start-up log.
    ///
    /// # Errors
    /// Any database error.
    pub async fn schema_version(&self) -> Result<Option<i64>> {
        const LAST: &str = "SELECT MAX(version) FROM _sqlx_migrations WHERE success";
        match &self.backend {
            Backend::Sqlite(pools) => sqlx::query_scalar(LAST).fetch_one(&pools.readers).await,
            Backend::Postgres(pool) => sqlx::query_scalar(LAST).fetch_one(pool).await,
        }
        .map_err(StoreError::from)
    }

    /// The newest embedded migration's version for this store's backend.
    #[must_use]
    pub fn latest_migration(&self) -> Option<i64> {
        let migrator = match &self.backend {
            Backend::Sqlite(_) => &MIGRATOR,
            Backend::Postgres(_) => &super::pg::MIGRATOR,
        };
        migrator.iter().map(|m| m.version).max()
    }

    /// Make every transaction committed so far durable: on SQLite, sync the
    /// write-ahead log (after [`WriteTx::commit_unsynced`](super::WriteTx::commit_unsynced));
    /// nothing to do on PostgreSQL, whose commits wait for its log.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the log cannot be synced.
    pub async fn sync_log(&self) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(pools) => pools.log.sync().await,
            Backend::Postgres(_) => Ok(()),
        }
    }

    /// How many times the write-ahead log was synced so far (SQLite; 0 on
    /// PostgreSQL).
    #[must_use]
    pub fn log_syncs(&self) -> u64 {
        match &self.backend {
            Backend::Sqlite(pools) => pools.log.syncs(),
            Backend::Postgres(_) => 0,
        }
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
        let Backend::Sqlite(pools) = &self.backend else {
            return Ok(false);
        };
        if self.wal_frames.load(Ordering::Relaxed) < self.wal_wrap_frames {
            return Ok(false);
        }
        let (busy, log, copied): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&pools.writer)
            .await?;
        let done = busy == 0 && log == copied;
        if done {
            self.wal_frames.store(0, Ordering::Relaxed);
        }
        Ok(done)
    }
}
