//! `POST /v1/games/{id}/stop`: stop a game early, and its answer.

use actix_web::{HttpResponse, post, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::Game;
use crate::dto::NarrationView;
use crate::extract::{Bearer, GameIdPath, IdempotencyKey, IfMatch};
use crate::narration::Narration;
use crate::problem::{ApiError, Problem, StoreUnavailable};
use crate::service::{Service, StopCommand};
use crate::views::game::{GameView, game_view};

/// The result of stopping a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct StopView {
    /// The game after the stop.
    pub state: GameView,
    /// The narrated result, cited.
    pub narration: NarrationView,
}

/// The body of a stop's answer, as sent.
fn stopped_answer(game: &Game, narration: &Narration) -> Vec<u8> {
    let view = StopView {
        state: game_view(game, &game.state),
        narration: narration.into(),
    };
    serde_json::to_vec(&view).unwrap_or_default()
}

/// Stop a game early: more counters wins, equal counts draw.
///
/// Stop a game early: the side with more counters wins; equal counts are a
/// draw (the A4 sheet's rule).
///
/// A seated game needs the host's token. `If-Match` with the game's ETag
/// makes the stop conditional on the version; `Idempotency-Key` works as
/// for a throw.
#[utoipa::path(
    operation_id = "stop_game",
    tag = "games",
    params(
        GameIdPath,
        IfMatch,
        IdempotencyKey,
    ),
    security((), ("token" = [])),
    responses(
        (status = 200, description = "The stopped game and its narrated result", body = StopView,
            headers(("ETag" = String, description = "The game's new version, quoted"))),
        (status = 400, description = "Malformed id or header", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid token (`Authorization: Bearer <host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A side's token (only the host's may stop a seated game), or another game's token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is already over, or a request with this Idempotency-Key is still being served", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match the game's version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "This Idempotency-Key was used with another request", body = Problem, content_type = "application/problem+json"),
        StoreUnavailable,
    )
)]
#[post("/v1/games/{id}/stop")]
pub async fn stop_game(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    IfMatch(expected_version): IfMatch,
    Bearer(token): Bearer,
    IdempotencyKey(idempotency): IdempotencyKey,
) -> Result<HttpResponse, ApiError> {
    let cmd = StopCommand {
        expected_version,
        token,
        idempotency,
    };
    let answer = service.stop(id, cmd, stopped_answer).await?;
    Ok(crate::answer::changed(answer))
}
