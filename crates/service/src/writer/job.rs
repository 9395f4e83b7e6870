//! The writer's requests: what each asks for and where its answer goes.

use std::sync::Arc;

use tokio::sync::oneshot;

use crate::domain::{Game, GameId, MoveRecord, SeatToken, Timestamp};
use crate::narration::Narration;
use crate::rules;
use crate::{Answer, Reissued, ServiceError, StopCommand, ThrowCommand};

type Result<T> = std::result::Result<T, ServiceError>;

/// Makes the body of a throw's answer from the new game and the move.
pub(crate) type Render = fn(&Game, &MoveRecord) -> Vec<u8>;

/// Makes the body of a stop's answer from the stopped game and its
/// narration.
pub(crate) type StopRender = fn(&Game, &Narration) -> Vec<u8>;

/// What the writer sends back for a throw.
pub(crate) enum Thrown {
    /// The throw was played: the game after it and its move, for the
    /// caller to render (off the writer's path). Shared with the live feed
    /// and the writer's memory, not copied.
    Played(Arc<Game>, Arc<MoveRecord>),
    /// The answer as sent: rendered by the writer to be kept under an
    /// idempotency key, or kept earlier and replayed.
    Answer(Answer),
}

/// A request waiting for the writer.
pub(crate) enum Job {
    /// Play one throw.
    Throw {
        id: GameId,
        cmd: ThrowCommand,
        render: Render,
        reply: oneshot::Sender<Result<Thrown>>,
    },
    /// Stop a game.
    Stop {
        id: GameId,
        cmd: StopCommand,
        render: StopRender,
        reply: oneshot::Sender<Result<Answer>>,
    },
    /// Delete a game (exclusive: committed alone).
    Delete {
        id: GameId,
        token: Option<SeatToken>,
        reply: oneshot::Sender<Result<()>>,
    },
    /// Give a side's seat a new token (exclusive: committed alone).
    Reissue {
        id: GameId,
        side: rules::Side,
        token: Option<SeatToken>,
        reply: oneshot::Sender<Result<Reissued>>,
    },
    /// Delete those of `games` still untouched since `games_before`, and
    /// every idempotency answer kept since before `keys_before`
    /// (exclusive: committed alone). Answers how many games and keys.
    Purge {
        games: Vec<GameId>,
        games_before: Option<Timestamp>,
        keys_before: Timestamp,
        reply: oneshot::Sender<Result<(usize, u64)>>,
    },
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, id) = match self {
            Job::Throw { id, .. } => ("throw", Some(id)),
            Job::Stop { id, .. } => ("stop", Some(id)),
            Job::Delete { id, .. } => ("delete", Some(id)),
            Job::Reissue { id, .. } => ("reissue", Some(id)),
            Job::Purge { .. } => ("purge", None),
        };
        f.debug_struct("Job")
            .field("kind", &kind)
            .field("id", &id)
            .finish_non_exhaustive()
    }
}

impl Job {
    /// Whether the job is committed alone rather than in a batch.
    pub(super) fn is_exclusive(&self) -> bool {
        matches!(
            self,
            Job::Delete { .. } | Job::Purge { .. } | Job::Reissue { .. }
        )
    }

    /// The game a throw or a stop plays.
    pub(super) fn game(&self) -> Option<GameId> {
        match self {
            Job::Throw { id, .. } | Job::Stop { id, .. } => Some(*id),
            Job::Delete { .. } | Job::Purge { .. } | Job::Reissue { .. } => None,
        }
    }

    /// Answer with an error.
    pub(super) fn fail(self, e: ServiceError) {
        match self {
            Job::Throw { reply, .. } => {
                let _ = reply.send(Err(e));
            }
            Job::Stop { reply, .. } => {
                let _ = reply.send(Err(e));
            }
            Job::Delete { reply, .. } => {
                let _ = reply.send(Err(e));
            }
            Job::Purge { reply, .. } => {
                let _ = reply.send(Err(e));
            }
            Job::Reissue { reply, .. } => {
                let _ = reply.send(Err(e));
            }
        }
    }
}
