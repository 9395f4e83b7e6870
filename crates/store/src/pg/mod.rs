//! The PostgreSQL store's side of the seam ([`crate::seam::Dialect`]):
//! the same records as the SQLite store's, over one pool. Several
//! instances may share the database: every write is a transaction (`READ
//! COMMITTED`), a batch's games are locked in one order and saved with a
//! compare-and-set on their versions (a concurrent save of the same game
//! waits for the other transaction and then finds the version moved on),
//! each batch's games are announced to every instance (`NOTIFY`), and the
//! migrations run under sqlx's advisory lock.

use std::collections::HashMap;

use sqlx::PgConnection;
use sqlx::postgres::PgPool;

use crate::Result;
use crate::domain::{GameId, Version};
use crate::rows::{ClearRow, game_id, select_game};
use crate::sealed::{CLEAR_ANSWERS, seal_clear};
use crate::seam::{BatchGames, Dialect};

mod batch;
mod pool;

pub use batch::{WRITES_CHANNEL, Writes};
pub(crate) use pool::{MIGRATOR, connect, ready, told};
pub use pool::{is_postgres, redacted};

/// PostgreSQL's dialect.
pub(crate) struct Postgres;

impl Dialect for Postgres {
    type Db = sqlx::Postgres;

    const SELECT_GAME_IN_TX: &'static str = select_game!("WHERE id = $1 FOR UPDATE");

    /// Two transactions locking overlapping games this way wait for each
    /// other instead of deadlocking, whatever order their requests came in.
    async fn lock_games(
        c: &mut PgConnection,
        ids: &[GameId],
    ) -> Result<Option<HashMap<GameId, Version>>> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT id, version FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE",
        )
        .bind(&ids)
        .fetch_all(&mut *c)
        .await?;
        rows.into_iter()
            .map(|(id, version)| Ok((game_id(&id)?, Version::from_stored(version))))
            .collect::<Result<_>>()
            .map(Some)
    }

    async fn announce(c: &mut PgConnection, games: &BatchGames<'_>) -> Result<()> {
        batch::announce(c, games).await
    }
}

/// Seal every answer kept in clear by a version before (`nonce` NULL)
/// under `secret`, in one transaction; rows another instance is sealing
/// meanwhile are waited for and then found sealed. Returns how many were
/// sealed. (PostgreSQL keeps the rows' old versions until `VACUUM` reuses
/// their space.)
async fn seal_clear_answers(pool: &PgPool, secret: &crate::secret::SecretKey) -> Result<u64> {
    let mut tx = pool.begin().await?;
    let mut sealed = 0;
    for (kept, select, update) in CLEAR_ANSWERS {
        let rows: Vec<ClearRow> =
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{select} FOR UPDATE")))
                .fetch_all(&mut *tx)
                .await?;
        for row in rows {
            let (game, key, nonce, body) = seal_clear(secret, kept, row)?;
            sqlx::query(update)
                .bind(body)
                .bind(nonce)
                .bind(game.to_string())
                .bind(key)
                .execute(&mut *tx)
                .await?;
            sealed += 1;
        }
    }
    tx.commit().await?;
    Ok(sealed)
}

/// Open the pool at `url` with the migrations applied ([`connect`]), and
/// seal with `secret` the answers a version before kept in clear.
///
/// # Errors
/// Any error connecting, migrating or sealing.
pub(crate) async fn open(url: &str, secret: Option<&crate::secret::SecretKey>) -> Result<PgPool> {
    let pool = connect(url).await?;
    if let Some(secret) = secret {
        let sealed = seal_clear_answers(&pool, secret).await?;
        if sealed > 0 {
            tracing::info!(
                answers = sealed,
                "sealed the idempotency answers an earlier version kept in clear"
            );
        }
    }
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn a_logged_database_url_shows_no_password() {
        assert_eq!(
            redacted("postgres://zohn:s3cret@db:5432/games"),
            "postgres://zohn:***@db:5432/games"
        );
        assert_eq!(
            redacted("postgres://zohn@db/games"),
            "postgres://zohn@db/games"
        );
        assert_eq!(redacted("sqlite://zohn-ahl.db"), "sqlite://zohn-ahl.db");
    }
}
