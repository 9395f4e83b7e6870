//! Idempotency keys: the first answer to a throw or a stop (per game) and
//! to a creation (`create_keys`, holding the new game's tokens), kept for
//! 24 hours to be replayed to a retry, then deleted.

use sqlx::Row;

use super::{Result, StoreError, Tx, WriteTx, pg};
use crate::domain::{GameId, IdempotencyKey, Timestamp};

/// How long an idempotency key's answer is kept, as an SQLite date modifier.
pub const IDEMPOTENCY_EXPIRY: &str = "-24 hours";

/// How long an idempotency key's answer is kept: [`IDEMPOTENCY_EXPIRY`]
/// as a duration.
pub const IDEMPOTENCY_LIFETIME: time::Duration = time::Duration::hours(24);

/// The first answer to a throw sent with an idempotency key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnswer {
    /// SHA-256 of the request (body and credentials) it answered.
    pub request_hash: Vec<u8>,
    /// Its `Location` header.
    pub location: String,
    /// Its `ETag` header.
    pub etag: String,
    /// Its body, byte for byte.
    pub body: Vec<u8>,
}

fn answer_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<StoredAnswer> {
    Ok(StoredAnswer {
        request_hash: row.try_get("request_hash")?,
        location: row.try_get("location")?,
        etag: row.try_get("etag")?,
        body: row.try_get("body")?,
    })
}

impl WriteTx {
    /// The stored answer to an earlier throw with this idempotency key, if
    /// it has not expired: (request hash, location, etag, body).
    ///
    /// # Errors
    /// Any database error.
    pub async fn idempotent_answer(
        &mut self,
        id: GameId,
        key: &IdempotencyKey,
    ) -> Result<Option<StoredAnswer>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::idempotent_answer(tx, id, key).await,
        };
        let row = sqlx::query(
            "SELECT request_hash, location, etag, body FROM idempotency_keys
             WHERE game_id = ? AND key = ?
               AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(id.to_string())
        .bind(key.as_str())
        .bind(IDEMPOTENCY_EXPIRY)
        .fetch_optional(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        row.as_ref().map(answer_from_row).transpose()
    }

    /// Keep the answer to a throw under its idempotency key (replacing an
    /// expired one), and drop the game's expired keys.
    ///
    /// # Errors
    /// Any database error.
    pub async fn keep_answer(
        &mut self,
        id: GameId,
        key: &IdempotencyKey,
        answer: &StoredAnswer,
    ) -> Result<()> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::keep_answer(tx, id, key, answer).await,
        };
        sqlx::query(
            "DELETE FROM idempotency_keys
             WHERE game_id = ? AND created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(id.to_string())
        .bind(IDEMPOTENCY_EXPIRY)
        .execute(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        sqlx::query(
            "INSERT OR REPLACE INTO idempotency_keys (game_id, key, request_hash, location, etag, body)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(id.to_string())
        .bind(key.as_str())
        .bind(answer.request_hash.as_slice())
        .bind(&answer.location)
        .bind(&answer.etag)
        .bind(answer.body.as_slice())
        .execute(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        Ok(())
    }

    /// The stored answer to an earlier creation with this idempotency key,
    /// if it has not expired.
    ///
    /// # Errors
    /// Any database error.
    pub async fn create_answer(&mut self, key: &IdempotencyKey) -> Result<Option<StoredAnswer>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::create_answer(tx, key).await,
        };
        let row = sqlx::query(
            "SELECT request_hash, location, etag, body FROM create_keys
             WHERE key = ? AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(key.as_str())
        .bind(IDEMPOTENCY_EXPIRY)
        .fetch_optional(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        row.as_ref().map(answer_from_row).transpose()
    }

    /// Keep the answer to a creation under its idempotency key (replacing
    /// an expired one), and drop every expired creation key.
    ///
    /// # Errors
    /// Any database error.
    pub async fn keep_create_answer(
        &mut self,
        key: &IdempotencyKey,
        game: GameId,
        answer: &StoredAnswer,
    ) -> Result<()> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::keep_create_answer(tx, key, game, answer).await,
        };
        sqlx::query(
            "DELETE FROM create_keys
             WHERE key = ? OR created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)",
        )
        .bind(key.as_str())
        .bind(IDEMPOTENCY_EXPIRY)
        .execute(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        sqlx::query(
            "INSERT INTO create_keys (key, request_hash, game_id, location, etag, body)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(key.as_str())
        .bind(answer.request_hash.as_slice())
        .bind(game.to_string())
        .bind(&answer.location)
        .bind(&answer.etag)
        .bind(answer.body.as_slice())
        .execute(&mut **tx)
        .await
        .map_err(StoreError::from_sqlx)?;
        Ok(())
    }

    /// Delete every idempotency answer (of throws, stops and creations)
    /// kept since before `before` (a [`Timestamp`]): an answer to a
    /// creation holds the game's tokens in clear until then. Returns how
    /// many were deleted.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_keys_before(&mut self, before: &Timestamp) -> Result<u64> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::delete_keys_before(tx, before.as_str()).await,
        };
        let mut deleted = 0;
        for delete in [
            "DELETE FROM idempotency_keys WHERE created_at <= ?",
            "DELETE FROM create_keys WHERE created_at <= ?",
        ] {
            let done = sqlx::query(delete)
                .bind(before.as_str())
                .execute(&mut **tx)
                .await
                .map_err(StoreError::from_sqlx)?;
            deleted += done.rows_affected();
        }
        Ok(deleted)
    }
}
