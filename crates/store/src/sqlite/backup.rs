//! A consistent copy of a live SQLite database, taken while the server
//! serves: `VACUUM INTO` on a read-only connection reads one snapshot of
//! the database (every transaction committed before it began, none after)
//! and writes it, compacted, to a new file. The server's writer is not
//! stopped and the source file is not changed. A PostgreSQL database is
//! backed up with its own tools (`pg_dump`, README "Backups").

use std::path::Path;

use crate::{Backend, Result, Store, StoreError};

impl Store {
    /// Write a copy of the database, as of one moment, to `to`, a file that
    /// must not exist yet.
    ///
    /// # Errors
    /// [`StoreError::BackupTarget`] when `to` exists or is not a UTF-8
    /// path, [`StoreError::BackupOnPostgres`] on PostgreSQL, and the
    /// database's own errors (a directory that cannot be written, a full
    /// disk).
    pub async fn backup_to(&self, to: &Path) -> Result<()> {
        let Backend::Sqlite(pools) = &self.backend else {
            return Err(StoreError::BackupOnPostgres);
        };
        if to.exists() {
            return Err(StoreError::BackupTarget(format!(
                "{} exists: a backup is written to a new file, never over one",
                to.display()
            )));
        }
        let Some(path) = to.to_str() else {
            return Err(StoreError::BackupTarget(format!(
                "{} is not a UTF-8 path",
                to.display()
            )));
        };
        sqlx::query("VACUUM INTO ?")
            .bind(path)
            .execute(&pools.readers)
            .await?;
        Ok(())
    }
}
