//! The load benchmark's baseline (cargo feature `bench-baseline`, never in
//! the product build): the cheapest durable write, one tiny row inserted in
//! autocommit on the same writer connection, with the same settings (WAL,
//! the commit then the log synced, busy time-out, checkpoints off the
//! writer's path, the log let wrap between writes) as a throw. `scripts/load.sh` sets
//! the throws' rate against this one.

use crate::{Backend, Result, Store, StoreError};

impl Store {
    /// Create the baseline's table if missing (at start, with the feature).
    /// Nothing on PostgreSQL: the baseline is SQLite's (its route answers
    /// 503 there), and a server built with the feature serves PostgreSQL
    /// as the product does.
    ///
    /// # Errors
    /// Any database error.
    pub async fn baseline_setup(&self) -> Result<()> {
        let Backend::Sqlite(pools) = &self.backend else {
            return Ok(());
        };
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS bench_baseline (
                 id INTEGER PRIMARY KEY,
                 at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
             ) STRICT",
        )
        .execute(&pools.writer)
        .await?;
        Ok(())
    }

    /// Insert one row (one durable commit); its id.
    ///
    /// # Errors
    /// Any database error; [`StoreError::Busy`] when the writer is busy too
    /// long.
    pub async fn baseline_write(&self) -> Result<i64> {
        let Backend::Sqlite(pools) = &self.backend else {
            return Err(StoreError::Unavailable);
        };
        let done = sqlx::query("INSERT INTO bench_baseline DEFAULT VALUES")
            .execute(&pools.writer)
            .await?;
        self.wrote.notify_one();
        // Durable, as a throw's commit is.
        self.sync_log().await?;
        // As the throws' writer does between two transactions.
        self.wrap_wal().await?;
        Ok(done.last_insert_rowid())
    }
}
