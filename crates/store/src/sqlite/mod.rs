//! The SQLite store's side of the seam ([`crate::seam::Dialect`]): one
//! file, whose single writer's transaction (`BEGIN IMMEDIATE`) holds the
//! whole database, so nothing is locked row by row and nobody else is told
//! of a write. Its own concerns: the write-ahead log the store syncs
//! itself (`wal`), a backup of the live file (`backup`) and the load
//! benchmark's baseline (`baseline`), and opening the file, its migrations
//! and its checkpoints (`open`).

use std::collections::HashMap;

use sqlx::SqliteConnection;

use crate::Result;
use crate::domain::{GameId, Version};
use crate::rows::{ClearRow, select_game};
use crate::sealed::{CLEAR_ANSWERS, seal_clear};
use crate::seam::{BatchGames, Dialect};
use crate::secret::SecretKey;

mod backup;
#[cfg(feature = "bench-baseline")]
mod baseline;
mod open;
mod wal;

pub use open::{CHECKPOINT_PAUSE, WAL_WRAP_FRAMES};
pub(crate) use open::{MIGRATOR, open, remove_log, sqlite_options};
pub(crate) use wal::{LogFile, left_beside};

/// SQLite's dialect.
pub(crate) struct Sqlite;

impl Dialect for Sqlite {
    type Db = sqlx::Sqlite;

    const SELECT_GAME_IN_TX: &'static str = select_game!("WHERE id = $1");

    async fn lock_games(
        _: &mut SqliteConnection,
        _: &[GameId],
    ) -> Result<Option<HashMap<GameId, Version>>> {
        Ok(None)
    }

    async fn announce(_: &mut SqliteConnection, _: &BatchGames<'_>) -> Result<()> {
        Ok(())
    }
}

/// Seal every answer kept in clear by a version before (`nonce` NULL)
/// under `secret`, in the migrations' transaction. SQLite's
/// `secure_delete` is on meanwhile, so the clear bytes are overwritten
/// with zeros in the file rather than left in its free pages. Returns how
/// many were sealed.
///
/// # Errors
/// Any database error.
pub(crate) async fn seal_clear_answers(
    conn: &mut SqliteConnection,
    secret: &SecretKey,
) -> Result<u64> {
    let clear: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM idempotency_keys WHERE nonce IS NULL)
              + (SELECT COUNT(*) FROM create_keys WHERE nonce IS NULL)",
    )
    .fetch_one(&mut *conn)
    .await?;
    if clear == 0 {
        return Ok(0);
    }
    sqlx::query("PRAGMA secure_delete = ON")
        .execute(&mut *conn)
        .await?;
    let mut sealed = 0;
    for (kept, select, update) in CLEAR_ANSWERS {
        // A few hundred at a time: a sealed row leaves the selection.
        loop {
            let rows: Vec<ClearRow> =
                sqlx::query_as(sqlx::AssertSqlSafe(format!("{select} LIMIT 256")))
                    .fetch_all(&mut *conn)
                    .await?;
            if rows.is_empty() {
                break;
            }
            for row in rows {
                let (game, key, nonce, body) = seal_clear(secret, kept, row)?;
                sqlx::query(update)
                    .bind(body)
                    .bind(nonce)
                    .bind(game.to_string())
                    .bind(key)
                    .execute(&mut *conn)
                    .await?;
                sealed += 1;
            }
        }
    }
    sqlx::query("PRAGMA secure_delete = OFF")
        .execute(&mut *conn)
        .await?;
    Ok(sealed)
}
