//! Idempotency keys: the first answer to a throw or a stop (per game) and
//! to a creation (`create_keys`, holding the new game's tokens), kept for
//! 24 hours to be replayed to a retry, then deleted.
//!
//! Every answer is kept sealed under the server's secret key
//! (`crate::SecretKey`, kept outside the database; see `sealed`): the body in the `answer`
//! column is XChaCha20-Poly1305's, its nonce in `nonce`, and the associated
//! data bind it to its table, game and key and to the columns kept in
//! clear beside it (the request's hash, and its subject: what it is about,
//! [`crate::domain::Subject`]). A copy of the
//! database holds no token. An answer kept in clear by a version before
//! (`nonce` NULL) is sealed at the first start with the key
//! (`sqlite::seal_clear_answers`, `pg::seal_clear_answers`); one that
//! this server's key cannot open is [`crate::StoreError::AnswerUnreadable`].
//!
//! One clock says when an answer expires: the application's, passed in as
//! `now` to each method that keeps or reads an answer (it stamps the
//! answer kept, and an answer kept at or before `now` less
//! [`IDEMPOTENCY_LIFETIME`] has expired), on both stores, whatever the
//! database's clock says.

use time::OffsetDateTime;

use super::rows::{self, CreateRow, KeptRow};
use super::sealed::{Kept, StoredAnswer, seal, unseal};
use super::seam::in_tx;
use super::{Result, WriteTx};
use crate::domain::{GameId, IdempotencyKey, Timestamp};

/// How long an idempotency key's answer is kept.
pub const IDEMPOTENCY_LIFETIME: time::Duration = time::Duration::hours(24);

/// The moment at or before which an answer kept has expired, `now` by
/// the application's clock.
fn expired_before(now: OffsetDateTime) -> Timestamp {
    Timestamp::at(now - IDEMPOTENCY_LIFETIME)
}

impl WriteTx {
    /// The stored answer to an earlier throw with this idempotency key, if
    /// it has not expired by `now`, opened with the server's key.
    ///
    /// # Errors
    /// [`crate::StoreError::AnswerUnreadable`] when the server's key cannot open
    /// it; any database error.
    pub async fn idempotent_answer(
        &mut self,
        id: GameId,
        key: &IdempotencyKey,
        now: OffsetDateTime,
    ) -> Result<Option<StoredAnswer>> {
        let row: Option<KeptRow> = in_tx!(self, c => sqlx::query_as(
            "SELECT request_hash, subject, bound_location, bound_etag, answer, nonce FROM idempotency_keys
             WHERE game_id = $1 AND key = $2 AND created_at > $3",
        )
        .bind(id.to_string())
        .bind(key.as_str())
        .bind(expired_before(now).as_str())
        .fetch_optional(c)
        .await)?;
        row.map(|row| unseal(self.3.as_ref(), Kept::Move, id, key.as_str(), row))
            .transpose()
    }

    /// Keep the answer to a throw under its idempotency key, sealed and
    /// stamped `now` (replacing an expired one), and drop the game's keys
    /// expired by `now`.
    ///
    /// # Errors
    /// [`crate::StoreError::NoSecretKey`] for a store opened without a key; any
    /// database error.
    pub async fn keep_answer(
        &mut self,
        id: GameId,
        key: &IdempotencyKey,
        answer: &StoredAnswer,
        now: OffsetDateTime,
    ) -> Result<()> {
        let (nonce, sealed) = seal(self.3.as_ref(), Kept::Move, id, key.as_str(), answer)?;
        in_tx!(self, c => {
            sqlx::query("DELETE FROM idempotency_keys WHERE game_id = $1 AND created_at <= $2")
                .bind(id.to_string())
                .bind(expired_before(now).as_str())
                .execute(&mut *c)
                .await?;
            sqlx::query(
                "INSERT INTO idempotency_keys
                     (game_id, key, request_hash, subject, bound_location, bound_etag, answer, nonce, created_at)
                 VALUES ($1, $2, $3, $4, '', '', $5, $6, $7)
                 ON CONFLICT (game_id, key) DO UPDATE SET request_hash = excluded.request_hash,
                     subject = excluded.subject, bound_location = '', bound_etag = '',
                     answer = excluded.answer, nonce = excluded.nonce, created_at = excluded.created_at",
            )
            .bind(id.to_string())
            .bind(key.as_str())
            .bind(answer.request_hash.as_slice())
            .bind(answer.subject.to_string())
            .bind(&sealed)
            .bind(&nonce)
            .bind(Timestamp::at(now).as_str())
            .execute(c)
            .await?;
            Ok(())
        })
    }

    /// The stored answer to an earlier creation with this idempotency key,
    /// if it has not expired by `now`, opened with the server's key.
    ///
    /// # Errors
    /// [`crate::StoreError::AnswerUnreadable`] when the server's key cannot open
    /// it; any database error.
    pub async fn create_answer(
        &mut self,
        key: &IdempotencyKey,
        now: OffsetDateTime,
    ) -> Result<Option<StoredAnswer>> {
        let row: Option<CreateRow> = in_tx!(self, c => sqlx::query_as(
            "SELECT game_id, request_hash, subject, bound_location, bound_etag, answer, nonce FROM create_keys
             WHERE key = $1 AND created_at > $2",
        )
        .bind(key.as_str())
        .bind(expired_before(now).as_str())
        .fetch_optional(c)
        .await)?;
        let Some(row) = row else { return Ok(None) };
        let game = rows::game_id(&row.game_id)?;
        unseal(self.3.as_ref(), Kept::Create, game, key.as_str(), row.kept).map(Some)
    }

    /// Keep the answer to a creation under its idempotency key, sealed and
    /// stamped `now` (replacing an expired one), and drop every creation
    /// key expired by `now`.
    ///
    /// # Errors
    /// [`crate::StoreError::NoSecretKey`] for a store opened without a key; any
    /// database error.
    pub async fn keep_create_answer(
        &mut self,
        key: &IdempotencyKey,
        game: GameId,
        answer: &StoredAnswer,
        now: OffsetDateTime,
    ) -> Result<()> {
        let (nonce, sealed) = seal(self.3.as_ref(), Kept::Create, game, key.as_str(), answer)?;
        in_tx!(self, c => {
            sqlx::query("DELETE FROM create_keys WHERE key = $1 OR created_at <= $2")
                .bind(key.as_str())
                .bind(expired_before(now).as_str())
                .execute(&mut *c)
                .await?;
            sqlx::query(
                "INSERT INTO create_keys
                     (key, request_hash, game_id, subject, bound_location, bound_etag, answer, nonce, created_at)
                 VALUES ($1, $2, $3, $4, '', '', $5, $6, $7)",
            )
            .bind(key.as_str())
            .bind(answer.request_hash.as_slice())
            .bind(game.to_string())
            .bind(answer.subject.to_string())
            .bind(&sealed)
            .bind(&nonce)
            .bind(Timestamp::at(now).as_str())
            .execute(c)
            .await?;
            Ok(())
        })
    }

    /// Delete every idempotency answer (of throws, stops and creations)
    /// kept since before `before` (a [`Timestamp`]). Returns how many were
    /// deleted.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_keys_before(&mut self, before: &Timestamp) -> Result<u64> {
        let mut deleted = 0;
        for delete in [
            "DELETE FROM idempotency_keys WHERE created_at <= $1",
            "DELETE FROM create_keys WHERE created_at <= $1",
        ] {
            deleted += in_tx!(self, c => sqlx::query(delete)
                .bind(before.as_str())
                .execute(c)
                .await
                .map(|done| done.rows_affected()))?;
        }
        Ok(deleted)
    }
}
