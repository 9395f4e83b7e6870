//! `DELETE /v1/games/{id}`: delete a game with its moves, seats and keys.

use actix_web::{HttpResponse, delete, web};

use crate::extract::{Bearer, GameIdPath};
use crate::problem::{ApiError, Problem, StoreUnavailable};
use crate::service::Service;

/// Delete a game and everything stored with it.
///
/// Delete a game: its setup and names, its moves, seats and idempotency
/// answers. Every read of it is 404 afterwards.
///
/// A seated game needs the host's token; a game without seats may be
/// deleted by anyone, as anyone may play it.
#[utoipa::path(
    operation_id = "delete_game",
    tag = "games",
    params(
        GameIdPath,
    ),
    security((), ("token" = [])),
    responses(
        (status = 204, description = "The game is deleted"),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid token (`Authorization: Bearer <host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A side's token (only the host's may delete a seated game), or another game's token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (or it is already deleted)", body = Problem, content_type = "application/problem+json"),
        StoreUnavailable,
    )
)]
#[delete("/v1/games/{id}")]
pub async fn delete_game(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    Bearer(token): Bearer,
) -> Result<HttpResponse, ApiError> {
    service.delete(id, token).await?;
    Ok(HttpResponse::NoContent().finish())
}
