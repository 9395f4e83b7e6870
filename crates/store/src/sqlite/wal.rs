//! SQLite's write-ahead log as a file the store syncs itself: the writer's
//! commits do not wait for the disk (`synchronous=NORMAL`), and
//! [`LogFile::sync`] makes every transaction committed before it durable.
//!
//! The log is found where SQLite puts it: next to the database file with
//! every symbolic link resolved. It is kept open, so that a disk error is
//! reported to this descriptor even when another connection saw it first,
//! and opened again only when SQLite has made a new log (its writer
//! connection is kept open, so that happens only if the file was removed
//! from outside). A failed sync is final: the store takes no write again
//! until it is restarted, since after an error Linux may report later syncs
//! as successful for pages it never wrote.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::{Result, StoreError};

/// The write-ahead log's file, how many times it was synced, and whether a
/// sync ever failed.
#[derive(Clone, Debug)]
pub(crate) struct LogFile(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    path: PathBuf,
    file: Mutex<File>,
    syncs: AtomicU64,
    failed: AtomicBool,
}

/// Whether a write-ahead log with commits in it lies beside the database
/// file at `database` before this process opens it: one left by a stop
/// that was not clean (a kill, a crash, a power cut), which SQLite reads
/// back, or that of another process that has the database open.
pub(crate) fn left_beside(database: &Path) -> bool {
    log_path(database)
        .and_then(std::fs::metadata)
        .is_ok_and(|m| m.len() > 0)
}

/// Where SQLite keeps the log of the database file at `database`: beside
/// the file, with every symbolic link resolved.
fn log_path(database: &Path) -> std::io::Result<PathBuf> {
    let mut path = std::fs::canonicalize(database)?.into_os_string();
    path.push("-wal");
    Ok(PathBuf::from(path))
}

impl LogFile {
    /// The log of the database file at `database` (which must exist and be
    /// open in WAL mode), synced once, with its directory (a new log's name
    /// is durable too).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the log cannot be found or synced.
    pub(crate) async fn open(database: &Path) -> Result<Self> {
        let database = database.to_owned();
        let opened = tokio::task::spawn_blocking(move || -> std::io::Result<(PathBuf, File)> {
            let path = log_path(&database)?;
            let file = File::open(&path)?;
            file.sync_data()?;
            if let Some(dir) = path.parent() {
                File::open(dir)?.sync_all()?;
            }
            Ok((path, file))
        })
        .await;
        match opened {
            Ok(Ok((path, file))) => Ok(Self(Arc::new(Inner {
                path,
                file: Mutex::new(file),
                syncs: AtomicU64::new(1),
                failed: AtomicBool::new(false),
            }))),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "cannot open and sync the write-ahead log");
                Err(StoreError::Unavailable)
            }
            Err(e) => {
                tracing::error!(error = %e, "the write-ahead log's first sync did not finish");
                Err(StoreError::Unavailable)
            }
        }
    }

    /// Sync the log to the disk: every transaction committed before the
    /// call is durable once it returns.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when this sync, or any before it, failed.
    pub(crate) async fn sync(&self) -> Result<()> {
        if self.failed() {
            return Err(StoreError::Unavailable);
        }
        let inner = Arc::clone(&self.0);
        let synced = tokio::task::spawn_blocking(move || inner.sync()).await;
        let error = match synced {
            Ok(Ok(())) => {
                self.0.syncs.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            Ok(Err(e)) => e.to_string(),
            Err(e) => e.to_string(),
        };
        self.0.failed.store(true, Ordering::Relaxed);
        tracing::error!(
            error = %error,
            log = %self.0.path.display(),
            "cannot sync the write-ahead log: the store takes no write until it is restarted"
        );
        Err(StoreError::Unavailable)
    }

    /// Where the log is.
    pub(crate) fn path(&self) -> &Path {
        &self.0.path
    }

    /// How many times the log was synced so far.
    pub(crate) fn syncs(&self) -> u64 {
        self.0.syncs.load(Ordering::Relaxed)
    }

    /// Whether a sync ever failed.
    pub(crate) fn failed(&self) -> bool {
        self.0.failed.load(Ordering::Relaxed)
    }
}

impl Inner {
    fn sync(&self) -> std::io::Result<()> {
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        // The log SQLite writes now: the one held, or one made since (after
        // the last was copied whole into the database, which SQLite synced).
        let current = std::fs::metadata(&self.path)?;
        let held = file.metadata()?;
        if (held.dev(), held.ino()) != (current.dev(), current.ino()) {
            *file = File::open(&self.path)?;
        }
        file.sync_data()
    }
}
