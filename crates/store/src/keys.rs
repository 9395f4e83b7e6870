//! Idempotency keys: the first answer to a throw or a stop (per game) and
//! to a creation (`create_keys`, holding the new game's tokens), kept for
//! 24 hours to be replayed to a retry, then deleted.
//!
//! Every answer is kept sealed under the server's secret key
//! ([`SecretKey`], kept outside the database): the body in the `answer`
//! column is XChaCha20-Poly1305's, its nonce in `nonce`, and the associated
//! data bind it to its table, game and key and to the columns kept in
//! clear beside it (the request's hash, `Location`, `ETag`). A copy of the
//! database holds no token. An answer kept in clear by a version before
//! (`nonce` NULL) is sealed at the first start with the key
//! ([`seal_clear_answers`]); one that this server's key cannot open is
//! [`StoreError::AnswerUnreadable`].

use sqlx::Row;

use super::secret::SecretKey;
use super::{Result, StoreError, Tx, WriteTx, corrupt, pg};
use crate::domain::{GameId, IdempotencyKey, Timestamp};

/// How long an idempotency key's answer is kept.
pub const IDEMPOTENCY_LIFETIME: time::Duration = time::Duration::hours(24);

/// The time before which an idempotency answer has expired, by the
/// application's clock, which also stamps each answer kept (on both
/// stores: one clock, whichever database's clock differs from it).
pub(super) fn expired_before() -> String {
    Timestamp::at(time::OffsetDateTime::now_utc() - IDEMPOTENCY_LIFETIME)
        .as_str()
        .to_owned()
}

/// The first answer to a throw sent with an idempotency key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnswer {
    /// SHA-256 of the request (body and credentials) it answered.
    pub request_hash: Vec<u8>,
    /// Its `Location` header.
    pub location: String,
    /// Its `ETag` header.
    pub etag: String,
    /// Its body, byte for byte (kept sealed).
    pub body: Vec<u8>,
}

/// The table an answer is kept in: throws' and stops' answers (per game),
/// or creations'.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kept {
    /// `idempotency_keys`.
    Move,
    /// `create_keys`.
    Create,
}

impl Kept {
    fn table(self) -> &'static str {
        match self {
            Kept::Move => "idempotency_keys",
            Kept::Create => "create_keys",
        }
    }
}

/// An answer as a row holds it: the body sealed (`nonce` set) or, kept by
/// a version before, in clear (`nonce` NULL).
pub(super) struct KeptRow {
    pub(super) request_hash: Vec<u8>,
    pub(super) location: String,
    pub(super) etag: String,
    pub(super) answer: Vec<u8>,
    pub(super) nonce: Option<Vec<u8>>,
}

/// What a sealed answer is bound to: its table, game and key, and the
/// columns kept in clear beside it; each part preceded by its length.
fn associated(
    kept: Kept,
    game: GameId,
    key: &str,
    request_hash: &[u8],
    location: &str,
    etag: &str,
) -> Vec<u8> {
    let game = game.to_string();
    let mut data = Vec::with_capacity(128 + key.len() + location.len());
    for part in [
        b"zohn-ahl kept answer 1".as_slice(),
        kept.table().as_bytes(),
        game.as_bytes(),
        key.as_bytes(),
        request_hash,
        location.as_bytes(),
        etag.as_bytes(),
    ] {
        data.extend_from_slice(&(part.len() as u64).to_be_bytes());
        data.extend_from_slice(part);
    }
    data
}

/// `answer`'s body sealed under `secret` for `kept`, `game` and `key`:
/// (nonce, sealed body).
///
/// # Errors
/// [`StoreError::NoSecretKey`] for a store opened without a key.
pub(super) fn seal(
    secret: Option<&SecretKey>,
    kept: Kept,
    game: GameId,
    key: &str,
    answer: &StoredAnswer,
) -> Result<(Vec<u8>, Vec<u8>)> {
    let secret = secret.ok_or(StoreError::NoSecretKey)?;
    let data = associated(
        kept,
        game,
        key,
        &answer.request_hash,
        &answer.location,
        &answer.etag,
    );
    secret
        .seal(&data, &answer.body)
        .ok_or_else(|| corrupt("an answer could not be sealed".to_owned()))
}

/// The answer a row holds, its body opened with `secret` (or taken as it
/// is, kept in clear by a version before).
///
/// # Errors
/// [`StoreError::AnswerUnreadable`] when `secret` cannot open it (it was
/// sealed under another key, or altered); [`StoreError::NoSecretKey`]
/// for a store opened without a key.
pub(super) fn unseal(
    secret: Option<&SecretKey>,
    kept: Kept,
    game: GameId,
    key: &str,
    row: KeptRow,
) -> Result<StoredAnswer> {
    let body = match &row.nonce {
        None => row.answer,
        Some(nonce) => {
            let secret = secret.ok_or(StoreError::NoSecretKey)?;
            let data = associated(kept, game, key, &row.request_hash, &row.location, &row.etag);
            secret
                .open(&data, nonce, &row.answer)
                .ok_or(StoreError::AnswerUnreadable)?
        }
    };
    Ok(StoredAnswer {
        request_hash: row.request_hash,
        location: row.location,
        etag: row.etag,
        body,
    })
}

fn row_from(row: &sqlx::sqlite::SqliteRow) -> Result<KeptRow> {
    Ok(KeptRow {
        request_hash: row.try_get("request_hash")?,
        location: row.try_get("location")?,
        etag: row.try_get("etag")?,
        answer: row.try_get("answer")?,
        nonce: row.try_get("nonce")?,
    })
}

fn create_row_from(row: &sqlx::sqlite::SqliteRow) -> Result<(GameId, KeptRow)> {
    Ok((game_id(row.try_get("game_id")?)?, row_from(row)?))
}

/// A stored game id, parsed.
pub(super) fn game_id(id: &str) -> Result<GameId> {
    GameId::parse(id).map_err(|_| corrupt(format!("bad game id {id:?}")))
}

/// Seal every answer kept in clear by a version before (`nonce` NULL)
/// under `secret`, in the migrations' transaction. SQLite's
/// `secure_delete` is on meanwhile, so the clear bytes are overwritten
/// with zeros in the file rather than left in its free pages. Returns how
/// many were sealed.
///
/// # Errors
/// Any database error.
pub(super) async fn seal_clear_answers(
    conn: &mut sqlx::SqliteConnection,
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
    for (kept, select, update) in [
        (
            Kept::Move,
            "SELECT game_id, key, request_hash, location, etag, answer FROM idempotency_keys
             WHERE nonce IS NULL LIMIT 256",
            "UPDATE idempotency_keys SET answer = ?, nonce = ? WHERE game_id = ? AND key = ?",
        ),
        (
            Kept::Create,
            "SELECT game_id, key, request_hash, location, etag, answer FROM create_keys
             WHERE nonce IS NULL LIMIT 256",
            "UPDATE create_keys SET answer = ?, nonce = ? WHERE game_id = ? AND key = ?",
        ),
    ] {
        // A few hundred at a time: a sealed row leaves the selection.
        loop {
            let rows = sqlx::query(select).fetch_all(&mut *conn).await?;
            if rows.is_empty() {
                break;
            }
            for row in &rows {
                let game = game_id(row.try_get("game_id")?)?;
                let key: String = row.try_get("key")?;
                let answer = StoredAnswer {
                    request_hash: row.try_get("request_hash")?,
                    location: row.try_get("location")?,
                    etag: row.try_get("etag")?,
                    body: row.try_get("answer")?,
                };
                let (nonce, body) = seal(Some(secret), kept, game, &key, &answer)?;
                sqlx::query(update)
                    .bind(body)
                    .bind(nonce)
                    .bind(game.to_string())
                    .bind(&key)
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

impl WriteTx {
    /// The stored answer to an earlier throw with this idempotency key, if
    /// it has not expired, opened with the server's key.
    ///
    /// # Errors
    /// [`StoreError::AnswerUnreadable`] when the server's key cannot open
    /// it; any database error.
    pub async fn idempotent_answer(
        &mut self,
        id: GameId,
        key: &IdempotencyKey,
    ) -> Result<Option<StoredAnswer>> {
        let row = match &mut self.0 {
            Tx::Sqlite(tx) => sqlx::query(
                "SELECT request_hash, location, etag, answer, nonce FROM idempotency_keys
                 WHERE game_id = ? AND key = ?
                   AND created_at > ?",
            )
            .bind(id.to_string())
            .bind(key.as_str())
            .bind(expired_before())
            .fetch_optional(&mut **tx)
            .await?
            .as_ref()
            .map(row_from)
            .transpose()?,
            Tx::Postgres(tx) => pg::idempotent_answer(tx, id, key).await?,
        };
        row.map(|row| unseal(self.3.as_ref(), Kept::Move, id, key.as_str(), row))
            .transpose()
    }

    /// Keep the answer to a throw under its idempotency key, sealed
    /// (replacing an expired one), and drop the game's expired keys.
    ///
    /// # Errors
    /// [`StoreError::NoSecretKey`] for a store opened without a key; any
    /// database error.
    pub async fn keep_answer(
        &mut self,
        id: GameId,
        key: &IdempotencyKey,
        answer: &StoredAnswer,
    ) -> Result<()> {
        let (nonce, sealed) = seal(self.3.as_ref(), Kept::Move, id, key.as_str(), answer)?;
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => {
                return pg::keep_answer(tx, id, key, answer, &sealed, &nonce).await;
            }
        };
        sqlx::query(
            "DELETE FROM idempotency_keys
             WHERE game_id = ? AND created_at <= ?",
        )
        .bind(id.to_string())
        .bind(expired_before())
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT OR REPLACE INTO idempotency_keys (game_id, key, request_hash, location, etag, answer, nonce, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id.to_string())
        .bind(key.as_str())
        .bind(answer.request_hash.as_slice())
        .bind(&answer.location)
        .bind(&answer.etag)
        .bind(sealed)
        .bind(nonce)
        .bind(Timestamp::now().as_str())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The stored answer to an earlier creation with this idempotency key,
    /// if it has not expired, opened with the server's key.
    ///
    /// # Errors
    /// [`StoreError::AnswerUnreadable`] when the server's key cannot open
    /// it; any database error.
    pub async fn create_answer(&mut self, key: &IdempotencyKey) -> Result<Option<StoredAnswer>> {
        let row = match &mut self.0 {
            Tx::Sqlite(tx) => sqlx::query(
                "SELECT game_id, request_hash, location, etag, answer, nonce FROM create_keys
                 WHERE key = ? AND created_at > ?",
            )
            .bind(key.as_str())
            .bind(expired_before())
            .fetch_optional(&mut **tx)
            .await?
            .as_ref()
            .map(create_row_from)
            .transpose()?,
            Tx::Postgres(tx) => pg::create_answer(tx, key).await?,
        };
        row.map(|(game, row)| unseal(self.3.as_ref(), Kept::Create, game, key.as_str(), row))
            .transpose()
    }

    /// Keep the answer to a creation under its idempotency key, sealed
    /// (replacing an expired one), and drop every expired creation key.
    ///
    /// # Errors
    /// [`StoreError::NoSecretKey`] for a store opened without a key; any
    /// database error.
    pub async fn keep_create_answer(
        &mut self,
        key: &IdempotencyKey,
        game: GameId,
        answer: &StoredAnswer,
    ) -> Result<()> {
        let (nonce, sealed) = seal(self.3.as_ref(), Kept::Create, game, key.as_str(), answer)?;
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => {
                return pg::keep_create_answer(tx, key, game, answer, &sealed, &nonce).await;
            }
        };
        sqlx::query(
            "DELETE FROM create_keys
             WHERE key = ? OR created_at <= ?",
        )
        .bind(key.as_str())
        .bind(expired_before())
        .execute(&mut **tx)
        .await?;
        sqlx::query(
            "INSERT INTO create_keys (key, request_hash, game_id, location, etag, answer, nonce, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(key.as_str())
        .bind(answer.request_hash.as_slice())
        .bind(game.to_string())
        .bind(&answer.location)
        .bind(&answer.etag)
        .bind(sealed)
        .bind(nonce)
        .bind(Timestamp::now().as_str())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Delete every idempotency answer (of throws, stops and creations)
    /// kept since before `before` (a [`Timestamp`]). Returns how many were
    /// deleted.
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
                .await?;
            deleted += done.rows_affected();
        }
        Ok(deleted)
    }
}
