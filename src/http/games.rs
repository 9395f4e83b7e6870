//! The game resources: read, throw, and the move log (creating, stopping
//! and deleting a game are in `lifecycle`).

use actix_web::http::header::{self, HeaderMap};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::IntoParams;

use super::dto::{GameView, MovePage, MoveView, ThrowRequest, game_view, move_view};
use super::json;
use super::problem::{ApiError, Problem, echo};
use crate::domain::{Game, GameId, MoveRecord};
use crate::narration::Audience;
use crate::service::{Answer, Service, ThrowCommand};

/// Longest `Idempotency-Key`, in characters.
pub const MAX_IDEMPOTENCY_KEY: usize = 255;

/// The bearer token of an `Authorization` header, if any. A header that is
/// not `Bearer <token>` counts as a token no seat has: a seated game answers
/// it with 401, an open game ignores it (as it ignores any credentials).
pub(super) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?;
    let text = value.to_str().unwrap_or_default().trim();
    Some(match text.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
            token.trim().to_ascii_lowercase()
        }
        _ => String::new(),
    })
}

/// The `Idempotency-Key` header: 1 to 255 visible ASCII characters.
pub(super) fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let key = value.to_str().unwrap_or_default();
    if key.is_empty()
        || key.len() > MAX_IDEMPOTENCY_KEY
        || !key.bytes().all(|b| b.is_ascii_graphic())
    {
        return Err(ApiError::field(
            "#/header/Idempotency-Key",
            format!("must be 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters"),
        ));
    }
    Ok(Some(key.to_owned()))
}

/// Largest page of the move log.
pub const MAX_PAGE: u32 = 100;
/// Page size when `limit` is absent.
pub const DEFAULT_PAGE: u32 = 20;

pub(super) fn game_id(raw: &str) -> Result<GameId, ApiError> {
    GameId::parse(raw).map_err(|e| ApiError::field("#/path/id", e.to_string()))
}

/// The `audience` query parameter: absent, or one of the audiences.
fn audience(raw: Option<&str>) -> Result<Option<Audience>, ApiError> {
    raw.map(|text| {
        Audience::parse(text).ok_or_else(|| {
            ApiError::field(
                "#/query/audience",
                format!(
                    "must be one of: young, general, scholar (got {:?})",
                    echo(text)
                ),
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

pub(super) fn etag(version: u32) -> String {
    format!("\"{version}\"")
}

/// The version an `If-Match` header asks for: `None` when absent or `*`.
/// Otherwise it must be one of the game's ETags: a quoted version, `"3"`
/// (also accepted weak, `W/"3"`, or bare, `3`).
pub(super) fn if_match(headers: &HeaderMap) -> Result<Option<u32>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    Some(text.strip_prefix("W/").unwrap_or(text).trim_matches('"'))
        .filter(|t| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<u32>().ok())
        .map(Some)
        .ok_or_else(|| {
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
/// game's ETag makes the throw conditional on the version. In a seated
/// game a server throw needs the mover's token or the host's; a reported
/// throw needs the host's, or the mover's when the game was created with
/// `sides_report_throws`.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
        ("If-Match" = Option<String>, Header, nullable = false, pattern = "^(\\*|(W/)?\"?[0-9]{1,9}\"?)$", description = "Play only if the game is at this version (its ETag)"),
        ("Idempotency-Key" = Option<String>, Header, nullable = false, pattern = "^[!-~]{1,255}$", description = "1 to 255 visible ASCII characters. A retry with the same key and request within 24 hours gets the first answer again, byte for byte (with `Idempotent-Replayed: true`); the same key with another request is 422; a retry while the first is still being played is 409"),
    ),
    request_body(content = Option<ThrowRequest>, content_type = "application/json"),
    security((), ("token" = [])),
    responses(
        (status = 201, description = "The move, played and narrated", body = MoveView,
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
    let headers = req.headers();
    let cmd = ThrowCommand {
        expected_version: if_match(headers)?,
        token: bearer(headers),
        idempotency: idempotency_key(headers)?.map(|key| (key, Sha256::digest(&body).into())),
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

/// Paging through the move log.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
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
