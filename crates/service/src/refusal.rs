//! What the service says when it refuses or fails, in the product's own
//! words, for every surface: REST turns a [`Refusal`] into problem details
//! (its kind into a status code), the MCP tools into an error result. The
//! words live here, once, so both surfaces say the same thing.

use super::error::ServiceError;
use crate::store::StoreError;

/// Longest value a refusal echoes back, in characters.
pub const MAX_ECHO_CHARS: usize = 64;

/// A value sent by the client, as a refusal may echo it: at most
/// [`MAX_ECHO_CHARS`] characters, cut with an ellipsis.
#[must_use]
pub fn echo(value: &str) -> String {
    if value.chars().count() <= MAX_ECHO_CHARS {
        return value.to_owned();
    }
    let mut cut: String = value.chars().take(MAX_ECHO_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// Seconds a client refused by a full live feed is asked to wait.
pub const FEED_RETRY_AFTER: u32 = 5;

/// Seconds a client is asked to wait when the database cannot be reached
/// (longer than busy's 1 s: a server down is not back in a moment).
pub const UNREACHABLE_RETRY_AFTER: u32 = 5;

/// What kind of refusal it is: what a surface needs to answer it (REST
/// maps each to a status code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The request is malformed or a value is out of bounds.
    Invalid,
    /// What it names does not exist.
    NotFound,
    /// The game's state does not allow it (it is over), or a request with
    /// the same key is still being served.
    Conflict,
    /// The game is not at the version the request expected.
    VersionMismatch,
    /// The request is well formed but cannot be served as sent.
    Unprocessable,
    /// A seated game, and no token (or an unknown one).
    Unauthorized,
    /// A token that may not do this.
    Forbidden,
    /// Not now: ask again later (see [`Refusal::retry_after`]).
    Unavailable,
    /// The service failed; the cause is logged, not told.
    Internal,
}

/// One value at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Where it is in the creation request (a JSON pointer, e.g.
    /// `/sides/a/name`).
    pub pointer: String,
    /// What is wrong and what is allowed.
    pub detail: String,
}

/// Each value at fault as `pointer: detail`, joined by `; `.
fn said(faults: &[Fault]) -> String {
    faults
        .iter()
        .map(|f| format!("{}: {}", f.pointer, f.detail))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A refusal or failure, in the product's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct Refusal {
    /// What kind it is.
    pub kind: RefusalKind,
    /// Its short name, e.g. `game-not-found`.
    pub slug: &'static str,
    /// A short summary of the kind, e.g. "Game not found".
    pub title: &'static str,
    /// What went wrong this time, for a person.
    pub detail: String,
    /// The values at fault, if any.
    pub faults: Vec<Fault>,
    /// For a version mismatch: the game's version now.
    pub current_version: Option<u32>,
    /// Seconds to wait before asking again, when waiting helps.
    pub retry_after: Option<u32>,
}

impl Refusal {
    /// A refusal of `kind`.
    #[must_use]
    pub fn new(
        kind: RefusalKind,
        slug: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        Self {
            kind,
            slug,
            title,
            detail: detail.into(),
            faults: Vec::new(),
            current_version: None,
            retry_after: None,
        }
    }

    /// Invalid input, listing each value at fault.
    #[must_use]
    pub fn invalid(detail: impl Into<String>, faults: Vec<Fault>) -> Self {
        let mut r = Self::new(
            RefusalKind::Invalid,
            "invalid-request",
            "Invalid request",
            detail,
        );
        r.faults = faults;
        r
    }

    /// Invalid input, each value at fault said as `pointer: detail` in the
    /// refusal's detail.
    #[must_use]
    pub fn invalid_values(faults: Vec<Fault>) -> Self {
        Self::invalid(said(&faults), faults)
    }

    /// A failure with nothing internal in it; the cause is logged.
    #[must_use]
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(
            RefusalKind::Internal,
            "internal",
            "Internal error",
            "the server failed to answer; the failure is logged",
        )
    }

    /// The same refusal with each value's pointer under `prefix` (a new
    /// game's checks, as a part of a larger request), its detail naming
    /// them so (a refusal of values says each as `pointer: detail`).
    #[must_use]
    pub fn under(mut self, prefix: &str) -> Self {
        if self.faults.is_empty() {
            return self;
        }
        for fault in &mut self.faults {
            fault.pointer = format!("{prefix}{}", fault.pointer);
        }
        self.detail = said(&self.faults);
        self
    }

    /// The same refusal, asking to wait `secs` seconds.
    #[must_use]
    pub fn with_retry_after(mut self, secs: u32) -> Self {
        self.retry_after = Some(secs);
        self
    }
}

impl From<ServiceError> for Refusal {
    fn from(e: ServiceError) -> Self {
        use RefusalKind as K;
        match e {
            ServiceError::GameNotFound(_) => Self::new(
                K::NotFound,
                "game-not-found",
                "Game not found",
                e.to_string(),
            ),
            ServiceError::ClassNotFound(_) => Self::new(
                K::NotFound,
                "class-not-found",
                "Class not found",
                e.to_string(),
            ),
            ServiceError::ClassUnauthorized => Self::new(
                K::Unauthorized,
                "class-token-required",
                "Class host token required",
                e.to_string(),
            ),
            ServiceError::ClassForbidden => Self::new(
                K::Forbidden,
                "not-this-class",
                "Not this class's host",
                e.to_string(),
            ),
            ServiceError::ClassFull => {
                Self::new(K::Conflict, "class-full", "Class full", e.to_string())
            }
            ServiceError::MoveNotFound(..) => Self::new(
                K::NotFound,
                "move-not-found",
                "Move not found",
                e.to_string(),
            ),
            ServiceError::GameOver => Self::new(
                K::Conflict,
                "game-over",
                "Game over",
                "the game is finished; no more throws or stops are played",
            ),
            ServiceError::Conflict { current } => {
                let mut r = Self::new(
                    K::VersionMismatch,
                    "version-mismatch",
                    "Version mismatch",
                    format!(
                        "the game is at version {current}, not the one this request expected; read it again"
                    ),
                );
                r.current_version = Some(current.get());
                r
            }
            ServiceError::ThrowMismatch(m) => {
                let (pointer, detail) = if m.table.uses_sticks() {
                    (
                        "/spinner",
                        "this game throws sticks: send \"sticks\" (four faces), not \"spinner\"",
                    )
                } else {
                    (
                        "/sticks",
                        "this game uses the spinner: send \"spinner\" (a sector), not \"sticks\"",
                    )
                };
                let mut r = Self::new(
                    K::Unprocessable,
                    "throw-does-not-fit",
                    "Throw does not fit the game",
                    format!("{pointer}: {detail}"),
                );
                r.faults = vec![Fault {
                    pointer: pointer.to_owned(),
                    detail: detail.to_owned(),
                }];
                r
            }
            ServiceError::Setup(s) => Self::invalid(s.to_string(), Vec::new()),
            // Each surface says where the token goes (a header, an
            // argument).
            ServiceError::Unauthorized => Self::new(
                K::Unauthorized,
                "seat-token-required",
                "Seat token required",
                e.to_string(),
            ),
            ServiceError::Forbidden => Self::new(
                K::Forbidden,
                "not-your-seat",
                "Not your seat",
                e.to_string(),
            ),
            ServiceError::HostOnly(_) => Self::new(
                K::Forbidden,
                "host-token-required",
                "Host token required",
                e.to_string(),
            ),
            ServiceError::JoinCodeUnknown => Self::new(
                K::NotFound,
                "join-code-not-found",
                "Join code not found",
                e.to_string(),
            ),
            ServiceError::NotSeated => Self::new(
                K::Conflict,
                "game-not-seated",
                "Game not seated",
                e.to_string(),
            ),
            ServiceError::KeyInFlight => Self::new(
                K::Conflict,
                "idempotency-key-in-flight",
                "Request in progress",
                e.to_string(),
            ),
            ServiceError::KeyReused => Self::new(
                K::Unprocessable,
                "idempotency-key-reused",
                "Idempotency key reused",
                e.to_string(),
            ),
            ServiceError::FeedFull(_) => {
                Self::new(K::Unavailable, "feed-full", "Feed full", e.to_string())
                    .with_retry_after(FEED_RETRY_AFTER)
            }
            ServiceError::Store(StoreError::Unreachable(_)) => {
                tracing::error!(
                    error = %e,
                    "the database cannot be reached: is its server up, and is --database-url right?"
                );
                Self::new(
                    K::Unavailable,
                    "store-unavailable",
                    "Store unavailable",
                    "the game store cannot be reached just now; try again later",
                )
                .with_retry_after(UNREACHABLE_RETRY_AFTER)
            }
            ServiceError::Store(_) if e.is_busy() => Self::new(
                K::Unavailable,
                "busy",
                "Busy",
                "the game store is busy; try again shortly",
            )
            .with_retry_after(1),
            ServiceError::Store(StoreError::AnswerUnreadable) => {
                tracing::error!(
                    error = %e,
                    "every instance on one database needs the same secret key file (--secret-key-file)"
                );
                Self::new(
                    K::Internal,
                    "stored-answer-unreadable",
                    "Stored answer unreadable",
                    "the answer kept for this Idempotency-Key cannot be read by this server (it was \
                     sealed under another server key), so it cannot be replayed; the first request \
                     was applied and is not applied again: read the game to see where it stands, or \
                     send a new request with a new key",
                )
            }
            ServiceError::Store(_) => Self::internal(&e),
        }
    }
}
