//! `GET /v1/games/{id}`: a game's state.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use crate::extract::GameIdPath;
use crate::problem::{ApiError, Problem};
use crate::service::Service;
use crate::views::game::{GameView, game_view};

/// Read a game's state.
///
/// The state after the last move, its `version` also sent as the `ETag`:
/// `If-None-Match` with it gives 304 while the game is unchanged.
#[utoipa::path(
    operation_id = "get_game",
    tag = "games",
    params(
        GameIdPath,
        ("If-None-Match" = Option<String>, Header, nullable = false, description = "The ETag of the state already held: 304 while the game is at that version"),
    ),
    responses(
        (status = 200, description = "The game", body = GameView,
            headers(("ETag" = String, description = "The game's version, quoted"))),
        (status = 304, description = "Not modified: If-None-Match names the game's current ETag",
            headers(("ETag" = String, description = "The game's version, quoted"))),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}")]
pub async fn get_game(
    service: web::Data<Service>,
    req: HttpRequest,
    GameIdPath(id): GameIdPath,
) -> Result<HttpResponse, ApiError> {
    let game = service.game(id).await?;
    let tag = game.version.etag();
    if crate::board::not_modified(req.headers(), &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .json(game_view(&game, &game.state)))
}
