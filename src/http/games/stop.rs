//! `POST /v1/games/{id}/stop`: stop a game early, and its answer.

use actix_web::http::header;
use actix_web::{HttpResponse, post, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::etag;
use super::read::{GameView, game_view};
use crate::http::dto::NarrationView;
use crate::http::extract::{Bearer, GameIdPath};
use crate::http::problem::{ApiError, Problem};
use crate::service::Service;

/// The result of stopping a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct StopView {
    /// The game after the stop.
    pub state: GameView,
    /// The narrated result, cited.
    pub narration: NarrationView,
}

/// Stop a game early: the side with more counters wins; equal counts are a
/// draw (the A4 sheet's rule).
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
    ),
    responses(
        (status = 200, description = "The stopped game and its narrated result", body = StopView),
        (status = 401, description = "A seated game and no valid seat token (`Authorization: Bearer <token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Another game's seat token", body = Problem, content_type = "application/problem+json"),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is already over", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/stop")]
pub async fn stop_game(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    Bearer(token): Bearer,
) -> Result<HttpResponse, ApiError> {
    let (game, narration) = service.stop(id, token.as_deref()).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(game.version)))
        .json(StopView {
            state: game_view(&game, &game.state),
            narration: (&narration).into(),
        }))
}
