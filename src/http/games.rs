//! The game resources: create, read, throw, stop, and the move log.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::IntoParams;

use super::dto::{
    CreateGameRequest, GameView, MovePage, MoveView, SeatTokens, StopView, ThrowRequest, game_view,
    move_view,
};
use super::extract::{AudienceQuery, Bearer, GameIdPath, IdempotencyKey, IfMatch, path_segments};
use super::json;
use super::problem::{ApiError, Problem};
use crate::domain::{Game, MoveRecord};
use crate::narration::Audience;
use crate::service::{Answer, NewGame, Service, ThrowCommand};

/// Largest page of the move log.
pub const MAX_PAGE: u32 = 100;
/// Page size when `limit` is absent.
pub const DEFAULT_PAGE: u32 = 20;

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
    let created = service.create_game(new).await?;
    let game = created.game;
    let mut view = game_view(&game, &game.state);
    view.seat_tokens = created.tokens.map(|[a, b]| SeatTokens { a, b });
    let mut res = HttpResponse::Created()
        .insert_header((header::ETAG, etag(game.version)))
        .json(view);
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
    params(("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")),
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
    GameIdPath(id): GameIdPath,
) -> Result<HttpResponse, ApiError> {
    let game = service.game(id).await?;
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
        ("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
        ("If-Match" = Option<String>, Header, nullable = false, pattern = "^(\\*|(W/)?\"?[0-9]{1,9}\"?)$", description = "Play only if the game is at this version (its ETag)"),
        ("Idempotency-Key" = Option<String>, Header, nullable = false, pattern = "^[!-~]{1,255}$", description = "1 to 255 visible ASCII characters. A retry with the same key and request within 24 hours gets the first answer again, byte for byte (with `Idempotent-Replayed: true`); the same key with another request is 422; a retry while the first is still being played is 409"),
    ),
    request_body(content = Option<ThrowRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The move, played and narrated", body = MoveView,
            headers(("Location" = String, description = "The move's URL"),
                    ("ETag" = String, description = "The game's new version, quoted"))),
        (status = 400, description = "Malformed id or throw", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid seat token (`Authorization: Bearer <token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Another side's or another game's seat token", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over, or a request with this Idempotency-Key is still being played", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match the game's version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The reported throw does not fit the game's throw table (sticks for a spinner game or the reverse), or this Idempotency-Key was used with another request", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is busy; retry", body = Problem, content_type = "application/problem+json"),
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
        idempotency: key.map(|key| (key, Sha256::digest(&body).into())),
        reported: json::parse::<ThrowRequest>(&req, &body, true)?.reported()?,
    };
    let answer = service
        .throw(id, cmd, |game, record| Answer {
            location: format!("/v1/games/{}/moves/{}", game.id, record.n),
            etag: etag(game.version),
            body: serde_json::to_vec(&move_view(game, record, true)).unwrap_or_default(),
            replayed: false,
        })
        .await?;
    let mut res = HttpResponse::Created();
    res.insert_header((header::LOCATION, answer.location))
        .insert_header((header::ETAG, answer.etag))
        .content_type("application/json");
    if answer.replayed {
        res.insert_header(("idempotent-replayed", "true"));
    }
    Ok(res.body(answer.body))
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

/// Paging through the move log: the operation's query parameters, as
/// documented. Extracted first so that an unknown or repeated parameter is
/// refused before anything else; the values are read by [`Page`] and
/// [`AudienceQuery`].
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "parsed only to refuse parameters the operation does not document"
)]
#[into_params(parameter_in = Query)]
pub struct MovesQuery {
    /// The `next_cursor` of the previous page; absent for the first page.
    #[param(pattern = "^[0-9]{1,9}$")]
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

/// The audience to narrate one move for: the operation's query parameters,
/// as documented, extracted first to refuse unknown or repeated ones; the
/// value is read by [`AudienceQuery`].
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "parsed only to refuse parameters the operation does not document"
)]
#[into_params(parameter_in = Query)]
pub struct MoveQuery {
    /// Narrate the move again for this audience (default: the game's own).
    /// The same rules and context fact are told, in that audience's words;
    /// the result is the same on every request.
    #[param(inline, value_type = Option<Audience>)]
    audience: Option<String>,
}

/// A page of the move log: the moves after `after`, at most `limit`.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    after: u32,
    limit: u32,
}

/// The paging parameters alone.
#[derive(Deserialize)]
struct PageParams {
    cursor: Option<String>,
    limit: Option<String>,
}

impl Page {
    fn parse(params: &PageParams) -> Result<Self, ApiError> {
        let after = match &params.cursor {
            None => 0,
            Some(c) => c.parse::<u32>().map_err(|_| {
                ApiError::field(
                    "#/query/cursor",
                    "must be a next_cursor value from a previous page",
                )
            })?,
        };
        let limit = match &params.limit {
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
        Ok(Self { after, limit })
    }
}

impl FromRequest for Page {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parsed = web::Query::<PageParams>::from_request(req, payload).into_inner();
        ready(parsed.and_then(|params| Self::parse(&params).map_err(Into::into)))
    }
}

/// The `{n}` segment of a move's path.
#[derive(Deserialize)]
struct MoveSegment {
    n: String,
}

/// The move number of a `/v1/games/{id}/moves/{n}` path, from 1; anything
/// else is a 400 problem pointing at `#/path/n`.
#[derive(Clone, Copy, Debug)]
pub struct MoveNumber(u32);

impl FromRequest for MoveNumber {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_segments::<MoveSegment>(req).and_then(|segment| {
            segment
                .n
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .map(Self)
                .ok_or_else(|| {
                    ApiError::field("#/path/n", "must be a move number, an integer from 1 up")
                })
        }))
    }
}

/// The move log, oldest first, a page at a time; with `audience`, every
/// move narrated again from its stored events for that audience.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"), MovesQuery),
    responses(
        (status = 200, description = "A page of moves", body = MovePage),
        (status = 400, description = "Malformed id, cursor, limit or audience", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves")]
pub async fn list_moves(
    service: web::Data<Service>,
    _params: web::Query<MovesQuery>,
    GameIdPath(id): GameIdPath,
    Page { after, limit }: Page,
    AudienceQuery(audience): AudienceQuery,
) -> Result<HttpResponse, ApiError> {
    let (game, records) = service.moves(id, after, limit).await?;
    let next_cursor = records
        .last()
        .filter(|last| last.n < game.state.throws && records.len() == limit as usize)
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
        ("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
        ("n" = u32, Path, description = "The move number, from 1", minimum = 1, maximum = 999_999_999),
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
    _params: web::Query<MoveQuery>,
    GameIdPath(id): GameIdPath,
    MoveNumber(n): MoveNumber,
    AudienceQuery(audience): AudienceQuery,
) -> Result<HttpResponse, ApiError> {
    let record = service.move_record(id, n).await?;
    let game = service.game(id).await?;
    let record = for_audience(&game, record, audience);
    Ok(HttpResponse::Ok().json(move_view(&game, &record, false)))
}
