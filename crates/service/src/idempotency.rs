//! Idempotency keys, in one place: the request's hash, the claim of a key
//! while its request is served, and the kept answer's replay. A request
//! sent with an `Idempotency-Key` has its first answer kept, sealed, for
//! [`IDEMPOTENCY_LIFETIME`] (the store's `keys` module keeps it, by the
//! application's clock); a retry with the same key and the same request
//! gets that answer again, byte for byte, and changes nothing; the same key
//! with another request is [`ServiceError::KeyReused`]; the same key while
//! its first request is still being served is [`ServiceError::KeyInFlight`].
//!
//! A throw's and a stop's keys are the game's; a creation's (of a game or
//! of a class, or a class's import) are the server's.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

pub use crate::store::IDEMPOTENCY_LIFETIME;

use crate::command::{Answer, StopCommand, ThrowCommand};
use crate::domain::{GameId, IdempotencyKey, SeatToken};
use crate::store::StoredAnswer;
use crate::{Result, ServiceError};

/// The hash of a game's creation or a throw as sent: SHA-256 of the
/// request's body. (A throw's is bound to its credentials and expected
/// version too, when it is played.)
#[must_use]
pub fn body_hash(body: &[u8]) -> [u8; 32] {
    Sha256::digest(body).into()
}

/// The hash of a class's request as sent: SHA-256 of its `operation` and
/// body, so that another operation's request with the same key and body is
/// another request.
#[must_use]
pub fn operation_hash(operation: &[u8], body: &[u8]) -> [u8; 32] {
    Sha256::new()
        .chain_update(operation)
        .chain_update(b"\0")
        .chain_update(body)
        .finalize()
        .into()
}

/// The hash that a throw's replay under the same key must match: the
/// body's, the credentials and the expected version, so that a replay
/// needs the very same request.
pub(crate) fn throw_request_hash(cmd: &ThrowCommand) -> Option<[u8; 32]> {
    cmd.idempotency.as_ref().map(|(_, body_hash)| {
        let mut h = Sha256::new();
        h.update(body_hash);
        h.update(cmd.token.as_ref().map_or("", SeatToken::as_str).as_bytes());
        h.update(
            cmd.expected_version
                .map(|v| v.to_string())
                .unwrap_or_default(),
        );
        h.finalize().into()
    })
}

/// The hash that a stop's replay under the same key must match: the
/// operation, the credentials and the expected version (a stop has no
/// body; a throw's hash never equals a stop's, so one key cannot serve
/// both).
pub(crate) fn stop_request_hash(cmd: &StopCommand) -> Option<[u8; 32]> {
    cmd.idempotency.as_ref().map(|_| {
        let mut h = Sha256::new();
        h.update(b"stop\0");
        h.update(cmd.token.as_ref().map_or("", SeatToken::as_str).as_bytes());
        h.update(b"\0");
        h.update(
            cmd.expected_version
                .map(|v| v.to_string())
                .unwrap_or_default(),
        );
        h.finalize().into()
    })
}

/// Idempotency keys being served: a game's (throws and stops), or a
/// creation's (`None`).
pub(crate) type InFlightSet = Arc<Mutex<HashSet<(Option<GameId>, IdempotencyKey)>>>;

/// A key claimed while its request is served; released when dropped.
pub(crate) struct InFlight {
    set: InFlightSet,
    entry: (Option<GameId>, IdempotencyKey),
}

impl InFlight {
    /// Claim a key, or [`ServiceError::KeyInFlight`] when a request with it
    /// is still being served.
    pub(crate) fn claim(
        set: &InFlightSet,
        game: Option<GameId>,
        key: &IdempotencyKey,
    ) -> Result<Self> {
        let entry = (game, key.clone());
        let fresh = set
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(entry.clone());
        if !fresh {
            return Err(ServiceError::KeyInFlight);
        }
        Ok(Self {
            set: Arc::clone(set),
            entry,
        })
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.entry);
    }
}

/// An answer kept under a key, replayed to the request hashed `hash`; or
/// [`ServiceError::KeyReused`] when it was kept for another request.
pub(crate) fn replay(stored: StoredAnswer, hash: &[u8]) -> Result<Answer> {
    if stored.request_hash != hash {
        return Err(ServiceError::KeyReused);
    }
    Ok(Answer {
        subject: stored.subject,
        body: stored.body,
        replayed: true,
    })
}

/// `answer` as it is kept for the request hashed `hash`.
pub(crate) fn kept(answer: &Answer, hash: &[u8]) -> StoredAnswer {
    StoredAnswer {
        request_hash: hash.to_vec(),
        subject: answer.subject,
        body: answer.body.clone(),
    }
}
