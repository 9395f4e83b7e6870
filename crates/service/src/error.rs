//! What a use case refuses or cannot do.

use super::feed::FeedFull;
use crate::domain::{ClassId, GameId, Version};
use crate::rules::{RulesError, SetupError, ThrowMismatch};
use crate::store::StoreError;

/// A use case that cannot be carried out.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// No game with that id.
    #[error("no game has the id {0}")]
    GameNotFound(GameId),
    /// No class with that id.
    #[error("no class has the id {0}")]
    ClassNotFound(ClassId),
    /// A class's request without a token, or with one that is nobody's.
    #[error(
        "a class is read and added to with its host's token, and none came (none was sent, or the one sent is unknown): send the class's host_token"
    )]
    ClassUnauthorized,
    /// A class's request with a token of another class or game.
    #[error("this token is not this class's host token: it is another class's, or a game's")]
    ClassForbidden,
    /// The class has its most games.
    #[error("the class has its most games, {max}; make another class for more", max = crate::MAX_CLASS_GAMES)]
    ClassFull,
    /// No move with that number in the game.
    #[error("game {0} has no move {1}")]
    MoveNotFound(GameId, u32),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The game moved on while this request was being served.
    #[error("the game changed while the throw was being played; it is now at version {current}")]
    Conflict {
        /// The game's version now.
        current: Version,
    },
    /// The reported throw does not fit the game's throw table.
    #[error(transparent)]
    ThrowMismatch(#[from] ThrowMismatch),
    /// The setup is out of bounds.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A request on a seated game came without a token, or with one that
    /// is no game's.
    #[error(
        "this game is seated and no token of any game came (none was sent, or the one sent is unknown): send one of its tokens (to throw, the side to move's or the host's; to stop or delete, the host's)"
    )]
    Unauthorized,
    /// The token is another side's or another game's.
    #[error(
        "this token is not the side to move's in this game: it is the other side's, or another game's"
    )]
    Forbidden,
    /// A side's token, for what only the host's token may do in this game.
    #[error("only the host's token may {0}")]
    HostOnly(&'static str),
    /// A seat's token asked of a game without seats.
    #[error("this game has no seats: anyone may throw in it, so it has no token to give again")]
    NotSeated,
    /// A join code that opens no seat of a game in play (whether it ever
    /// did is not told).
    #[error("this code opens no seat of a game in play")]
    JoinCodeUnknown,
    /// A request with this idempotency key is still being played.
    #[error("a request with this Idempotency-Key is still being processed; retry after it answers")]
    KeyInFlight,
    /// This idempotency key was used for a different request.
    #[error("this Idempotency-Key was used with a different request; use a new key")]
    KeyReused,
    /// The live feed has its most subscribers, for the game or in all.
    #[error(transparent)]
    FeedFull(#[from] FeedFull),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError {
    /// Whether the store was too busy (or could not make a write durable):
    /// the request may be tried again shortly.
    #[must_use]
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            ServiceError::Store(StoreError::Busy | StoreError::Unavailable)
        )
    }
}

impl From<RulesError> for ServiceError {
    fn from(e: RulesError) -> Self {
        match e {
            RulesError::GameOver => ServiceError::GameOver,
            RulesError::Throw(m) => ServiceError::ThrowMismatch(m),
        }
    }
}
