//! The requests the service takes and the answers it gives back.

use crate::domain::{Game, IdempotencyKey, JoinCode, SeatToken, Seed, Subject, Version};
use crate::narration::{Audience, Detail};
use crate::rules::{Options, Preset, Side, Throw};

/// A validated request to create a game.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Preset the options start from.
    pub preset: Preset,
    /// Resolved options (preset plus overrides).
    pub options: Options,
    /// Side A then side B: name and player names (empty: one player named
    /// after the side, or the preset's default team size).
    pub sides: [(String, Vec<String>); 2],
    /// Who throws first.
    pub first: Side,
    /// The seed; `None`: a fresh random one, kept secret until the end.
    pub seed: Option<Seed>,
    /// Narration audience.
    pub audience: Audience,
    /// How much the moves' narration tells when read.
    pub detail: Detail,
    /// Whether the game is seated: a token per side and one for the host.
    pub seats: bool,
    /// In a seated game, whether a side's own token may report a physical
    /// throw (otherwise only the host's may).
    pub sides_report_throws: bool,
}

/// The secret tokens of a seated game, shown only in the answer that
/// creates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tokens {
    /// Each side's token, A first.
    pub sides: [SeatToken; 2],
    /// The host's token.
    pub host: SeatToken,
    /// Each side's join code, A first (`None` from a store that keeps no
    /// sealed token: one opened without a secret key).
    pub join_codes: Option<[JoinCode; 2]>,
}

/// A new game and, for a seated game, its tokens, shown only this once.
#[derive(Clone, Debug)]
pub struct Created {
    /// The game.
    pub game: Game,
    /// The tokens, for a seated game.
    pub tokens: Option<Tokens>,
}

/// A side's seat given a new token: the old one is refused from now on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reissued {
    /// The side whose seat it is.
    pub side: Side,
    /// The seat's new token, shown only in this answer.
    pub token: SeatToken,
    /// The seat's new join code (the old one opens nothing any more), as
    /// [`Tokens::join_codes`].
    pub join_code: Option<JoinCode>,
}

/// A stop request, as the service needs it.
#[derive(Clone, Debug, Default)]
pub struct StopCommand {
    /// Stop only if the game is at this version (`If-Match`).
    pub expected_version: Option<Version>,
    /// The bearer token, for seated games.
    pub token: Option<SeatToken>,
    /// The idempotency key.
    pub idempotency: Option<IdempotencyKey>,
}

/// What a purge removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    /// Games deleted under the retention setting.
    pub games: usize,
    /// Expired idempotency answers deleted.
    pub keys: u64,
}

/// How often the housekeeping task purges expired idempotency answers (and
/// games past the retention setting): an answer to a creation, which holds
/// the game's tokens, outlives its 24 hours by at most this.
pub const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// A throw request, as the service needs it.
#[derive(Clone, Debug, Default)]
pub struct ThrowCommand {
    /// A physical throw reported by the client; `None`: the server throws.
    pub reported: Option<Throw>,
    /// Play only if the game is at this version (`If-Match`).
    pub expected_version: Option<Version>,
    /// The bearer token, for seated games.
    pub token: Option<SeatToken>,
    /// The idempotency key and the SHA-256 of the request's body.
    pub idempotency: Option<(IdempotencyKey, [u8; 32])>,
}

/// The answer to a create, a throw or a stop: what it is about, and the
/// body as the surface rendered it. Kept under an idempotency key so that a
/// retry gets it byte for byte; each surface builds its own headers and
/// links from the subject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The game, move or class the request made or changed.
    pub subject: Subject,
    /// The body, as the surface rendered it.
    pub body: Vec<u8>,
    /// `true` when this is the replay of an earlier answer.
    pub replayed: bool,
}
