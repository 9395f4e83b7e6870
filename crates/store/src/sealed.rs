//! The answers kept under idempotency keys, sealed and opened: no
//! database here but the statements that seal the answers a version
//! before kept in clear, which `sqlite/` and `pg/` each run their way.

use crate::domain::GameId;
use crate::rows::{self, ClearRow, KeptRow};
use crate::secret::SecretKey;
use crate::{Result, StoreError, corrupt};

/// Each table of kept answers with the `SELECT` of its answers kept in
/// clear (to which each store adds its own limit or lock) and the
/// `UPDATE` that seals one.
pub(crate) const CLEAR_ANSWERS: [(Kept, &str, &str); 2] = [
    (
        Kept::Move,
        "SELECT game_id, key, request_hash, location, etag, answer FROM idempotency_keys
         WHERE nonce IS NULL",
        "UPDATE idempotency_keys SET answer = $1, nonce = $2 WHERE game_id = $3 AND key = $4",
    ),
    (
        Kept::Create,
        "SELECT game_id, key, request_hash, location, etag, answer FROM create_keys
         WHERE nonce IS NULL",
        "UPDATE create_keys SET answer = $1, nonce = $2 WHERE game_id = $3 AND key = $4",
    ),
];

/// An answer kept in clear, sealed under `secret`: its game and key, the
/// nonce and the sealed body.
///
/// # Errors
/// [`StoreError::Corrupt`] for a bad game id.
pub(crate) fn seal_clear(
    secret: &SecretKey,
    kept: Kept,
    row: ClearRow,
) -> Result<(GameId, String, Vec<u8>, Vec<u8>)> {
    let game = rows::game_id(&row.game_id)?;
    let answer = StoredAnswer {
        request_hash: row.request_hash,
        location: row.location,
        etag: row.etag,
        body: row.answer,
    };
    let (nonce, body) = seal(Some(secret), kept, game, &row.key, &answer)?;
    Ok((game, row.key, nonce, body))
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
pub(crate) enum Kept {
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
pub(crate) fn seal(
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
pub(crate) fn unseal(
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
