//! Opening the SQLite store: the file's connections (one writer, readers,
//! a checkpointer), the embedded migrations (under the write lock), the
//! checkpoints off the writer's path and the write-ahead log's wrap.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use tokio::sync::Notify;

use super::{LogFile, left_beside};
use crate::secret::SecretKey;
use crate::{BUSY_TIMEOUT, Result, SqlitePools, StoreError};

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

/// How long [`Store::close`] waits for the write-ahead log to go.
const LOG_REMOVAL_WAIT: Duration = Duration::from_secs(1);

/// Let the write-ahead log at `log` go once every pool is closed. A
/// connection a pool let go of without closing it (one dropped with a
/// request's task as the server stopped) is closed by its own thread a
/// moment later; if that was after the writer's, the writer's close was
/// not the last and left the log. One more connection, opened and closed
/// once the others are gone, is the last: SQLite copies the log into the
/// database and removes it. Tried for at most [`LOG_REMOVAL_WAIT`]: the log
/// of a database another process has open stays, as it should.
pub(crate) async fn remove_log(options: &SqliteConnectOptions, log: &std::path::Path) {
    use sqlx::{ConnectOptions, Connection};
    let deadline = tokio::time::Instant::now() + LOG_REMOVAL_WAIT;
    while log.exists() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
        if let Ok(connection) = options.connect().await {
            let _ = connection.close().await;
        }
    }
    if log.exists() {
        tracing::debug!(log = %log.display(), "the write-ahead log stays: another connection has the database open");
    }
}

/// The embedded migrations.
pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// The migration after which the moves are converted into the log's binary
/// form (see [`convert_moves`]).
const MOVE_LOG_MIGRATION: i64 = 5;

/// Convert the moves kept as JSON records (`moves`, before migration 0006)
/// into the log's binary form (`move_log`, made by 0005), and give each
/// game the memory of the rules stated that its last move's narration
/// kept. Does nothing once 0006 is applied (`move_log` is gone then).
async fn convert_moves(conn: &mut sqlx::SqliteConnection) -> Result<()> {
    use std::collections::HashMap;

    use sqlx::Row;

    use crate::domain::LoggedMove;
    use crate::domain::MoveRecord;
    use crate::{from_json, to_json};

    let pending: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'move_log'",
    )
    .fetch_one(&mut *conn)
    .await?;
    if pending == 0 {
        return Ok(());
    }
    // Each game's last move and its memory of the rules stated.
    let mut memory: HashMap<String, (i64, String)> = HashMap::new();
    let mut after = 0i64;
    loop {
        let rows = sqlx::query(
            "SELECT rowid, game_id, n, created_at, body FROM moves WHERE rowid > ? ORDER BY rowid LIMIT 1024",
        )
        .bind(after)
        .fetch_all(&mut *conn)
        .await?;
        let Some(last) = rows.last() else { break };
        after = last.try_get("rowid")?;
        for row in &rows {
            let game: String = row.try_get("game_id")?;
            let n: i64 = row.try_get("n")?;
            let record: MoveRecord = from_json(row.try_get::<&str, _>("body")?)?;
            sqlx::query("INSERT INTO move_log (game_id, n, created_at, body) VALUES (?, ?, ?, ?)")
                .bind(&game)
                .bind(n)
                .bind(row.try_get::<&str, _>("created_at")?)
                .bind(LoggedMove::of(&record).encode())
                .execute(&mut *conn)
                .await?;
            let latest = memory.get(&game).is_none_or(|(last, _)| *last < n);
            if latest {
                memory.insert(game, (n, to_json(&record.narration.rules_stated)?));
            }
        }
    }
    for (game, (_, rules_stated)) in memory {
        sqlx::query("UPDATE games SET rules_stated = ? WHERE id = ?")
            .bind(rules_stated)
            .bind(game)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// How long a start waits for another process's migrations at most.
const MIGRATION_WAIT: Duration = Duration::from_secs(120);

/// Apply the pending migrations under the database's write lock (the moves
/// converted into the log's binary form between 0005 and 0006, in the same
/// transaction).
///
/// sqlx's SQLite migrator takes no lock of its own, so two processes
/// started together on a fresh file would both apply the first migration
/// and one would fail. Here the whole run happens inside one `BEGIN
/// IMMEDIATE` transaction (each migration a savepoint of it): the first
/// process to take the write lock applies everything, the others wait for
/// the lock (retrying past the busy time-out) and then find nothing to do.
///
/// With a secret key, the answers a version before kept in clear are then
/// sealed under it, in the same transaction (see `sqlite::seal_clear_answers`).
async fn migrate(writer: &SqlitePool, secret: Option<&SecretKey>) -> Result<()> {
    use sqlx::Connection;
    let deadline = tokio::time::Instant::now() + MIGRATION_WAIT;
    let mut conn = writer.acquire().await?;
    loop {
        match conn.begin_with("BEGIN IMMEDIATE").await {
            Ok(mut tx) => {
                MIGRATOR
                    .run_direct(Some(MOVE_LOG_MIGRATION), &mut *tx, false)
                    .await?;
                convert_moves(&mut tx).await?;
                MIGRATOR.run_direct(None, &mut *tx, false).await?;
                let sealed = match secret {
                    Some(secret) => super::seal_clear_answers(&mut tx, secret).await?,
                    None => 0,
                };
                tx.commit().await?;
                if sealed > 0 {
                    tracing::info!(
                        answers = sealed,
                        "sealed the idempotency answers an earlier version kept in clear"
                    );
                }
                return Ok(());
            }
            Err(e) => match StoreError::from(e) {
                StoreError::Busy if tokio::time::Instant::now() < deadline => {}
                other => return Err(other),
            },
        }
    }
}

/// Open a pool, retrying while the file is busy: on a fresh file another
/// process may hold the lock while it switches the file to WAL or migrates
/// it, and SQLite answers the switch with SQLITE_BUSY at once, whatever the
/// busy time-out.
async fn open_pool(pool: SqlitePoolOptions, options: SqliteConnectOptions) -> Result<SqlitePool> {
    let deadline = tokio::time::Instant::now() + MIGRATION_WAIT;
    loop {
        match pool.clone().connect_with(options.clone()).await {
            Ok(pool) => return Ok(pool),
            Err(e) => match StoreError::from(e) {
                StoreError::Busy if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                other => return Err(other),
            },
        }
    }
}

/// The SQLite connection options of `url` (`sqlite://path`, `sqlite:path`
/// or a plain path), creating the file if missing.
pub(crate) fn sqlite_options(url: &str) -> Result<SqliteConnectOptions> {
    if url.contains(":memory:") || url.contains("mode=memory") {
        return Err(StoreError::InMemory);
    }
    let url = if url.starts_with("sqlite:") {
        url.to_owned()
    } else if let Some((scheme, _)) = url.split_once("://") {
        return Err(StoreError::Scheme(scheme.to_owned()));
    } else {
        format!("sqlite://{url}")
    };
    Ok(SqliteConnectOptions::from_str(&url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(BUSY_TIMEOUT)
        .foreign_keys(true))
}

/// Open and migrate the SQLite database at `url`, creating the file if
/// missing: its pools, the notice the checkpointer waits for after a
/// commit, and the log's size as the checkpointer last saw it. Answers a
/// version before kept in clear are sealed with `secret`.
///
/// # Errors
/// [`StoreError::InMemory`] for an in-memory URL; any error opening or
/// migrating the file.
pub(crate) async fn open(
    url: &str,
    secret: Option<&SecretKey>,
) -> Result<(SqlitePools, Arc<Notify>, Arc<AtomicI64>)> {
    let base = sqlite_options(url)?;
    // No checkpoint on the writer's path (see `checkpoints`); its
    // commits do not wait for the disk (`sync_log` syncs the log after
    // them, see `WriteTx::commit`); a larger page cache than the
    // default 2 MiB, and statement journals (a batch's multi-row
    // statements) in memory.
    let left_log = left_beside(base.get_filename());
    // A database this open makes holds the games (and the sealed
    // answers): owner-only, as the secret key is.
    let fresh = !base.get_filename().exists();
    let writer = open_pool(
        // Kept open while the store is: SQLite removes the log when
        // its last connection closes, and the log synced is this one's.
        SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .acquire_timeout(BUSY_TIMEOUT),
        base.clone()
            .synchronous(SqliteSynchronous::Normal)
            .pragma("wal_autocheckpoint", "0")
            .pragma("cache_size", "-8192")
            .pragma("temp_store", "memory"),
    )
    .await?;
    migrate(&writer, secret).await?;
    if fresh {
        owner_only(base.get_filename());
    }
    let log = LogFile::open(base.get_filename()).await?;
    if left_log {
        tracing::info!(
            "a write-ahead log lay beside the database (a stop that was not clean, or another \
                 process has the database open): its commits were read back"
        );
    }
    let readers = open_pool(
        SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(BUSY_TIMEOUT),
        base.clone().read_only(true),
    )
    .await?;
    let checkpointer = open_pool(
        SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(BUSY_TIMEOUT),
        base.clone(),
    )
    .await?;
    let wrote = Arc::new(Notify::new());
    let wal_frames = Arc::new(AtomicI64::new(0));
    tokio::spawn(checkpoints(
        checkpointer.clone(),
        Arc::clone(&wrote),
        Arc::clone(&wal_frames),
    ));
    Ok((
        SqlitePools {
            writer,
            readers,
            checkpointer,
            log,
            options: Arc::new(base),
        },
        wrote,
        wal_frames,
    ))
}

/// Make the database file at `path` and its log and shared-memory files
/// (as far as they exist) readable and writable by their owner alone.
fn owner_only(path: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut files = vec![path.to_path_buf()];
        for suffix in ["-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            files.push(PathBuf::from(name));
        }
        for file in files.iter().filter(|f| f.exists()) {
            if let Err(e) = std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600)) {
                tracing::warn!(file = %file.display(), error = %e, "cannot make the database owner-only");
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}
