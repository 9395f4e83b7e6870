//! The answers kept under idempotency keys, sealed and opened: no
//! database here but the statements that seal the answers a version
//! before kept in clear, which `sqlite/` and `pg/` each run their way.

use crate::domain::{GameId, Subject};
use crate::rows::{self, ClearRow, KeptRow};
use crate::secret::SecretKey;
use crate::{Result, StoreError, corrupt};

/// Each table of kept answers with the `SELECT` of its answers kept in
/// clear (to which each store adds its own limit or lock) and the
/// `UPDATE` that seals one.
pub(crate) const CLEAR_ANSWERS: [(Kept, &str, &str); 2] = [
    (
        Kept::Move,
        "SELECT game_id, key, request_hash, subject, answer FROM idempotency_keys
         WHERE nonce IS NULL",
        "UPDATE idempotency_keys SET answer = $1, nonce = $2, bound_location = '', bound_etag = ''
         WHERE game_id = $3 AND key = $4",
    ),
    (
        Kept::Create,
        "SELECT game_id, key, request_hash, subject, answer FROM create_keys
         WHERE nonce IS NULL",
        "UPDATE create_keys SET answer = $1, nonce = $2, bound_location = '', bound_etag = ''
         WHERE game_id = $3 AND key = $4",
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
        subject: subject(&row.subject)?,
        body: row.answer,
    };
    let (nonce, body) = seal(Some(secret), kept, game, &row.key, &answer)?;
    Ok((game, row.key, nonce, body))
}

/// The subject a row keeps, read.
fn subject(text: &str) -> Result<Subject> {
    Subject::parse(text).map_err(|e| corrupt(format!("a kept answer's subject `{text}`: {e}")))
}

/// The first answer to a request sent with an idempotency key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnswer {
    /// SHA-256 of the request (body and credentials) it answered.
    pub request_hash: Vec<u8>,
    /// What it is about: the game, move or class it made or changed.
    pub subject: Subject,
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
/// An answer kept since subjects is bound to its subject's text; one
/// kept before, to the `Location` and `ETag` it was sent with
/// ([`Bound::Headers`], read back from its row until it expires).
fn associated(kept: Kept, game: GameId, key: &str, request_hash: &[u8], bound: &Bound) -> Vec<u8> {
    let game = game.to_string();
    let subject;
    let (tag, bound): (&[u8], Vec<&[u8]>) = match bound {
        Bound::Subject(s) => {
            subject = s.to_string();
            (b"zohn-ahl kept answer 2", vec![subject.as_bytes()])
        }
        Bound::Headers { location, etag } => (
            b"zohn-ahl kept answer 1",
            vec![location.as_bytes(), etag.as_bytes()],
        ),
    };
    let mut data = Vec::with_capacity(192 + key.len());
    let head = [
        tag,
        kept.table().as_bytes(),
        game.as_bytes(),
        key.as_bytes(),
        request_hash,
    ];
    for part in head.into_iter().chain(bound) {
        data.extend_from_slice(&(part.len() as u64).to_be_bytes());
        data.extend_from_slice(part);
    }
    data
}

/// What the sealing of an answer binds besides its table, game, key and
/// request hash.
enum Bound {
    /// Its subject: every answer kept since subjects.
    Subject(Subject),
    /// The `Location` and `ETag` an answer kept before subjects was sent
    /// with (`bound_location`, `bound_etag`).
    Headers {
        /// Its `Location`.
        location: String,
        /// Its `ETag`.
        etag: String,
    },
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
        &Bound::Subject(answer.subject),
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
    let subject = subject(&row.subject)?;
    let body = match &row.nonce {
        None => row.answer,
        Some(nonce) => {
            let secret = secret.ok_or(StoreError::NoSecretKey)?;
            let bound = if row.bound_location.is_empty() {
                Bound::Subject(subject)
            } else {
                Bound::Headers {
                    location: row.bound_location,
                    etag: row.bound_etag,
                }
            };
            let data = associated(kept, game, key, &row.request_hash, &bound);
            secret
                .open(&data, nonce, &row.answer)
                .ok_or(StoreError::AnswerUnreadable)?
        }
    };
    Ok(StoredAnswer {
        request_hash: row.request_hash,
        subject,
        body,
    })
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::domain::Version;

    /// A row as a version before subjects sealed it: bound to the
    /// `Location` and `ETag` it was sent with.
    fn sealed_before_subjects(
        secret: &SecretKey,
        game: GameId,
        subject: Subject,
        body: &[u8],
    ) -> KeptRow {
        let (location, etag) = (format!("/v1/games/{game}/moves/3"), "\"3\"".to_owned());
        let headers = Bound::Headers {
            location: location.clone(),
            etag: etag.clone(),
        };
        let data = associated(Kept::Move, game, "k", &[7; 32], &headers);
        let (nonce, sealed) = secret.seal(&data, body).expect("sealed");
        KeptRow {
            request_hash: vec![7; 32],
            subject: subject.to_string(),
            bound_location: location,
            bound_etag: etag,
            answer: sealed,
            nonce: Some(nonce),
        }
    }

    /// An answer sealed before subjects opens by the headers its row keeps
    /// (`bound_*`), after the migration gave it its subject; altered
    /// headers, or a row that claims to be bound to its subject, do not
    /// open it.
    #[test]
    fn an_answer_sealed_before_subjects_opens_by_the_headers_it_was_bound_to() {
        let secret = SecretKey::ephemeral();
        let game = GameId::new();
        let subject = Subject::Move {
            id: game,
            version: Version::new(3),
            n: 3,
        };
        let row = sealed_before_subjects(&secret, game, subject, b"{\"n\":3}");
        let opened = unseal(Some(&secret), Kept::Move, game, "k", row).expect("opens");
        assert_eq!(opened.subject, subject);
        assert_eq!(opened.body, b"{\"n\":3}");

        let mut altered = sealed_before_subjects(&secret, game, subject, b"{}");
        altered.bound_etag = "\"4\"".to_owned();
        assert!(matches!(
            unseal(Some(&secret), Kept::Move, game, "k", altered),
            Err(StoreError::AnswerUnreadable)
        ));
        let mut unbound = sealed_before_subjects(&secret, game, subject, b"{}");
        unbound.bound_location.clear();
        unbound.bound_etag.clear();
        assert!(matches!(
            unseal(Some(&secret), Kept::Move, game, "k", unbound),
            Err(StoreError::AnswerUnreadable)
        ));
    }

    /// An answer kept since is bound to its subject: it opens as kept, and
    /// not under another subject.
    #[test]
    fn an_answer_is_bound_to_its_subject() {
        let secret = SecretKey::ephemeral();
        let game = GameId::new();
        let answer = StoredAnswer {
            request_hash: vec![1; 32],
            subject: Subject::Game {
                id: game,
                version: Version::new(5),
            },
            body: b"{}".to_vec(),
        };
        let (nonce, sealed) = seal(Some(&secret), Kept::Move, game, "k", &answer).expect("sealed");
        let row = |subject: Subject| KeptRow {
            request_hash: vec![1; 32],
            subject: subject.to_string(),
            bound_location: String::new(),
            bound_etag: String::new(),
            answer: sealed.clone(),
            nonce: Some(nonce.clone()),
        };
        let opened = unseal(Some(&secret), Kept::Move, game, "k", row(answer.subject));
        assert_eq!(opened.expect("opens"), answer);
        let other = Subject::Game {
            id: game,
            version: Version::new(6),
        };
        assert!(matches!(
            unseal(Some(&secret), Kept::Move, game, "k", row(other)),
            Err(StoreError::AnswerUnreadable)
        ));
    }
}
