//! The game resources: create, read, throw, stop, and the move log.

use actix_web::http::header::{self, HeaderMap};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::dto::{
    CreateGameRequest, GameView, MovePage, MoveView, StopView, ThrowRequest, game_view, move_view,
};
use super::json;
use super::problem::{ApiError, Problem};
use crate::narration::Audience;
use crate::service::model::{Game, GameId, MoveRecord};
use crate::service::{NewGame, Service};

/// Largest page of the move log.
pub const MAX_PAGE: u32 = 100;
/// Page size when `limit` is absent.
pub const DEFAULT_PAGE: u32 = 20;

fn game_id(raw: &str) -> Result<GameId, ApiError> {
    GameId::parse(raw).map_err(|e| ApiError::field("#/path/id", e.to_string()))
}

/// The `audience` query parameter: absent, or one of the audiences.
fn audience(raw: Option<&str>) -> Result<Option<Audience>, ApiError> {
    raw.map(|text| {
        Audience::parse(text).ok_or_else(|| {
            ApiError::field(
                "#/query/audience",
                format!("must be one of: young, general, scholar (got {text:?})"),
            )
        })
    })
    .transpose()
}

/// The move as stored, or narrated again for `audience`.
fn for_audience(game: &Game, record: MoveRecord, audience: Option<Audience>) -> MoveRecord {
    match audience {
        Some(a) => MoveRecord {
            narration: record.narration_for(&game.setup, a),
            ..record
        },
        None => record,
    }
}

fn etag(version: u32) -> String {
    format!("\"{version}\"")
}

/// The version an `If-Match` header asks for: `None` when absent or `*`.
fn if_match(headers: &HeaderMap) -> Result<Option<u32>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    text.trim_start_matches("W/")
        .trim_matches('"')
        .parse::<u32>()
        .map(Some)
        .map_err(|_| {
            ApiError::field(
                "#/header/If-Match",
                "must be the game's ETag, a quoted version such as \"3\"",
            )
        })
}

fn game_response(status: actix_web::http::StatusCode, game: &Game) -> HttpResponse {
    let view = game_view(game, &game.state);
    HttpResponse::build(status)
        .insert_header((header::ETAG, etag(game.version)))
        .json(view)
}

/// Create a game.
///
/// Every field is optional: `{}` (or an empty body) starts a composite game
/// between "Side A" and "Side B", side A first, with a secret server seed.
#[utoipa::path(
    tag = "games",
    request_body(content = Option<CreateGameRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The game, created", body = GameView,
            headers(("Location" = String, description = "The game's URL"),
                    ("ETag" = String, description = "The game's version, quoted"))),
        (status = 400, description = "A field out of bounds or unknown", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    service: web::Data<Service>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: CreateGameRequest = json::parse(&req, &body, true)?;
    let new = NewGame::try_from(request)?;
    let game = service.create_game(new).await?;
    let mut res = game_response(actix_web::http::StatusCode::CREATED, &game);
    res.headers_mut().insert(
        header::LOCATION,
        header::HeaderValue::from_str(&format!("/v1/games/{}", game.id))
            .map_err(|e| ApiError::internal(&e))?,
    );
    Ok(res)
}

/// Read a game's state.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id (a UUID)")),
    responses(
        (status = 200, description = "The game", body = GameView,
            headers(("ETag" = String, description = "The game's version, quoted"))),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}")]
pub async fn get_game(
    service: web::Data<Service>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let game = service.game(game_id(&id)?).await?;
    Ok(game_response(actix_web::http::StatusCode::OK, &game))
}

/// Throw for the side to move.
///
/// An empty body (or `{}`) lets the server throw with the game's seeded
/// generator; `{"sticks": [...]}` reports a physical throw (four faces, the
/// sahe last), `{"spinner": "..."}` a spinner result. `If-Match` with the
/// game's ETag makes the throw conditional on the version.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id (a UUID)"),
        ("If-Match" = Option<String>, Header, description = "Play only if the game is at this version (its ETag)"),
    ),
    request_body(content = Option<ThrowRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The move, played and narrated", body = MoveView,
            headers(("Location" = String, description = "The move's URL"),
                    ("ETag" = String, description = "The game's new version, quoted"))),
        (status = 400, description = "Malformed id or throw", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match the game's version", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is busy; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/throws")]
pub async fn post_throw(
    service: web::Data<Service>,
    id: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let id = game_id(&id)?;
    let expected = if_match(req.headers())?;
    let request: ThrowRequest = json::parse(&req, &body, true)?;
    let reported = request.reported()?;
    let (record, game) = service.throw(id, reported, expected).await?;
    let view = move_view(&game, &record, true);
    Ok(HttpResponse::Created()
        .insert_header((
            header::LOCATION,
            format!("/v1/games/{id}/moves/{}", record.n),
        ))
        .insert_header((header::ETAG, etag(game.version)))
        .json(view))
}

/// Stop a game early: the side with more counters wins; equal counts are a
/// draw (the A4 sheet's rule).
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id (a UUID)")),
    responses(
        (status = 200, description = "The stopped game and its narrated result", body = StopView),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is already over", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/stop")]
pub async fn stop_game(
    service: web::Data<Service>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (game, narration) = service.stop(game_id(&id)?).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(game.version)))
        .json(StopView {
            state: game_view(&game, &game.state),
            narration: (&narration).into(),
        }))
}

/// Paging through the move log.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MovesQuery {
    /// The `next_cursor` of the previous page; absent for the first page.
    cursor: Option<String>,
    /// Moves per page, 1 to 100 (default 20).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100)]
    limit: Option<String>,
    /// Narrate every move again for this audience (default: the game's
    /// own). The same rules and context facts are told, in that audience's
    /// words; the result is the same on every request.
    #[param(inline, value_type = Option<Audience>)]
    audience: Option<String>,
}

/// The audience to narrate one move for.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MoveQuery {
    /// Narrate the move again for this audience (default: the game's own).
    /// The same rules and context fact are told, in that audience's words;
    /// the result is the same on every request.
    #[param(inline, value_type = Option<Audience>)]
    audience: Option<String>,
}

/// The move log, oldest first, a page at a time; with `audience`, every
/// move narrated again from its stored events for that audience.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id (a UUID)"), MovesQuery),
    responses(
        (status = 200, description = "A page of moves", body = MovePage),
        (status = 400, description = "Malformed id, cursor, limit or audience", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves")]
pub async fn list_moves(
    service: web::Data<Service>,
    id: web::Path<String>,
    query: web::Query<MovesQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = game_id(&id)?;
    let after = match &query.cursor {
        None => 0,
        Some(c) => c.parse::<u32>().map_err(|_| {
            ApiError::field(
                "#/query/cursor",
                "must be a next_cursor value from a previous page",
            )
        })?,
    };
    let limit = match &query.limit {
        None => DEFAULT_PAGE,
        Some(l) => l
            .parse::<u32>()
            .ok()
            .filter(|l| (1..=MAX_PAGE).contains(l))
            .ok_or_else(|| {
                ApiError::field(
                    "#/query/limit",
                    format!("must be an integer from 1 to {MAX_PAGE}"),
                )
            })?,
    };
    let audience = audience(query.audience.as_deref())?;
    let game = service.game(id).await?;
    let records = service.moves(id, after, limit).await?;
    let next_cursor = records
        .last()
        .filter(|last| last.n < game.version && records.len() == limit as usize)
        .map(|last| last.n.to_string());
    let items = records
        .into_iter()
        .map(|r| move_view(&game, &for_audience(&game, r, audience), false))
        .collect();
    Ok(HttpResponse::Ok().json(MovePage { items, next_cursor }))
}

/// One move of the log, narrated for the game's audience or, with
/// `audience`, narrated again from its stored events for another.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id (a UUID)"),
        ("n" = u32, Path, description = "The move number, from 1", minimum = 1),
        MoveQuery,
    ),
    responses(
        (status = 200, description = "The move", body = MoveView),
        (status = 400, description = "Malformed id, move number or audience", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or move", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves/{n}")]
pub async fn get_move(
    service: web::Data<Service>,
    path: web::Path<(String, String)>,
    query: web::Query<MoveQuery>,
) -> Result<HttpResponse, ApiError> {
    let (id, n) = path.into_inner();
    let id = game_id(&id)?;
    let n = n.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
        ApiError::field("#/path/n", "must be a move number, an integer from 1 up")
    })?;
    let audience = audience(query.audience.as_deref())?;
    let record = service.move_record(id, n).await?;
    let game = service.game(id).await?;
    let record = for_audience(&game, record, audience);
    Ok(HttpResponse::Ok().json(move_view(&game, &record, false)))
}
