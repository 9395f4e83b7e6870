//! `POST /v1/games/{id}/throws`: the throw body, the handler, and its
//! answer (a move of [`crate::moves`]).

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::extract::{Bearer, GameIdPath, IdempotencyKey, IfMatch};
use crate::json;
use crate::problem::{ApiError, Problem, StoreUnavailable};
use crate::service::idempotency::body_hash;
use crate::service::{Service, ThrowCommand};
use crate::views::moves::{ThrowView, throw_view};
use zohn_ahl_rules::{Face, SpinnerSector, Sticks, Throw};

/// Body of `POST /v1/games/{id}/throws`. Empty (or `{}`): the server throws
/// with the game's seeded generator. Or report a physical throw: `sticks`
/// for the stick tables, `spinner` for the spinner table.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"sticks": ["flat", "round", "round", "flat"]}), max_properties = 1)]
pub struct ThrowRequest {
    /// The face of each of the four sticks; the fourth is the sahe.
    #[schema(min_items = 4, max_items = 4)]
    pub sticks: Option<[Face; 4]>,
    /// Where the spinner stopped.
    pub spinner: Option<SpinnerSector>,
}

impl ThrowRequest {
    /// The reported throw, if any.
    ///
    /// # Errors
    /// 400 when both `sticks` and `spinner` are given.
    pub fn reported(self) -> Result<Option<Throw>, ApiError> {
        match (self.sticks, self.spinner) {
            (Some(_), Some(_)) => Err(ApiError::field(
                "/spinner",
                "give either sticks or spinner, not both",
            )),
            (Some(faces), None) => Ok(Some(Throw::Sticks(Sticks::new(faces)))),
            (None, Some(sector)) => Ok(Some(Throw::Spinner(sector))),
            (None, None) => Ok(None),
        }
    }
}

/// Throw for the side to move.
///
/// An empty body (or `{}`) lets the server throw with the game's seeded
/// generator; `{"sticks": [...]}` reports a physical throw (four faces, the
/// sahe last), `{"spinner": "..."}` a spinner result. `If-Match` with the
/// game's ETag makes the throw conditional on the version. In a seated
/// game a server throw needs the mover's token or the host's; a reported
/// throw needs the host's, or the mover's when the game was created with
/// `sides_report_throws`.
#[utoipa::path(
    operation_id = "play_throw",
    tag = "games",
    params(
        GameIdPath,
        IfMatch,
        IdempotencyKey,
    ),
    request_body(content = Option<ThrowRequest>, content_type = "application/json"),
    security((), ("token" = [])),
    responses(
        (status = 201, description = "The move, played and narrated", body = ThrowView,
            headers(("Location" = String, description = "The move's URL"),
                    ("ETag" = String, description = "The game's new version, quoted"))),
        (status = 400, description = "Malformed id or throw", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid token (`Authorization: Bearer <token>`: the mover's or the host's)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Another side's or another game's token, or a side's token reporting a physical throw in a game created without `sides_report_throws`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over, or a request with this Idempotency-Key is still being played", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match the game's version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The reported throw does not fit the game's throw table (sticks for a spinner game or the reverse), or this Idempotency-Key was used with another request", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address has posted its most throws for now (`--limit-throws-per-second`) (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
        StoreUnavailable,
    )
)]
#[post("/v1/games/{id}/throws")]
pub async fn post_throw(
    service: web::Data<Service>,
    req: HttpRequest,
    // The body comes first: a body over the limit is refused before the
    // path and headers are looked at.
    body: web::Bytes,
    GameIdPath(id): GameIdPath,
    IfMatch(expected_version): IfMatch,
    Bearer(token): Bearer,
    IdempotencyKey(key): IdempotencyKey,
) -> Result<HttpResponse, ApiError> {
    let cmd = ThrowCommand {
        expected_version,
        token,
        idempotency: key.map(|key| (key, body_hash(&body))),
        reported: json::parse::<ThrowRequest>(&req, &body, true)?.reported()?,
    };
    let answer = service
        .throw(id, cmd, |game, record| {
            serde_json::to_vec(&throw_view(game, record)).unwrap_or_default()
        })
        .await?;
    Ok(crate::answer::created(answer))
}
