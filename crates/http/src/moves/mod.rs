//! The move log of a game (`GET /v1/games/{id}/moves`) and one move
//! (`.../moves/{n}`), each narrated again for an `audience` or at a
//! `detail` level on request.

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::views::moves::{MovePage, MoveView, chance_table, move_view};

use super::extract::{GameIdPath, MoveNumber, NarrationQuery};
use super::problem::{ApiError, Problem};
use crate::narration::{Audience, Detail};
use crate::service::Service;
use zohn_ahl_odds::Solver;

/// Largest page of the move log.
pub const MAX_PAGE: u32 = 100;
/// Page size when `limit` is absent.
pub const DEFAULT_PAGE: u32 = 20;

/// Paging through the move log: the operation's query parameters, as
/// documented. Extracted first so that a repeated parameter is refused
/// before anything else (unknown ones are ignored); the values are read by [`Page`] and
/// [`NarrationQuery`].
#[derive(Debug, Deserialize, IntoParams)]
#[expect(dead_code, reason = "parsed only to refuse repeated parameters")]
#[into_params(parameter_in = Query)]
pub struct MovesQuery {
    /// The `next_cursor` of the previous page; absent (or empty) for the
    /// first page. A client may pass the last page's `next_cursor`
    /// as it is: `null` is the same as absent.
    #[param(pattern = "^([0-9]{0,9}|null)$", nullable = true)]
    cursor: Option<String>,
    /// Moves per page, 1 to 100 (default 20).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100)]
    limit: Option<String>,
    /// Narrate every move again for this audience (default: the game's
    /// own). The same rules and context facts are told, in that audience's
    /// words; the result is the same on every request.
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
    /// Tell every move at this detail level (default: the game's own):
    /// `brief` one sentence (after a one-line framing on the first move),
    /// `lesson` the game's lesson plan, `full` every
    /// rule every time; the result is the same on every request.
    #[param(value_type = Option<Detail>)]
    detail: Option<String>,
}

/// The audience and detail to narrate one move for: the operation's query
/// parameters, as documented, extracted first to refuse a repeated one; the
/// values are read by [`NarrationQuery`].
#[derive(Debug, Deserialize, IntoParams)]
#[expect(dead_code, reason = "parsed only to refuse repeated parameters")]
#[into_params(parameter_in = Query)]
pub struct MoveQuery {
    /// Narrate the move again for this audience (default: the game's own).
    /// The same rules and context fact are told, in that audience's words;
    /// the result is the same on every request.
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
    /// Tell the move at this detail level (default: the game's own):
    /// `brief` one sentence (after a one-line framing on the first move),
    /// `lesson` the game's lesson plan, `full` every
    /// rule every time; the result is the same on every request.
    #[param(value_type = Option<Detail>)]
    detail: Option<String>,
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
        let after = match params.cursor.as_deref() {
            // `null` is what a client sends for the last page's
            // `next_cursor` written into the query as it is.
            None | Some("" | "null") => 0,
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

/// List the move log, oldest first, a page at a time.
///
/// The move log, oldest first, a page at a time; with `audience` or
/// `detail`, every move narrated again from its stored events for that
/// audience at that detail level.
#[utoipa::path(
    operation_id = "list_moves",
    tag = "games",
    params(GameIdPath, MovesQuery),
    responses(
        (status = 200, description = "A page of moves", body = MovePage),
        (status = 400, description = "Malformed id, cursor, limit, audience or detail", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves")]
pub async fn list_moves(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    // The documented parameters first: a repeated one is refused before
    // the path is read (unknown ones are ignored).
    _params: web::Query<MovesQuery>,
    GameIdPath(id): GameIdPath,
    Page { after, limit }: Page,
    told: NarrationQuery,
) -> Result<HttpResponse, ApiError> {
    let (game, records) = service.moves(id, after, limit).await?;
    let next_cursor = records
        .last()
        .filter(|last| last.n < game.state.throws && records.len() == limit as usize)
        .map(|last| last.n.to_string());
    let chances = chance_table(&solver, &game).await;
    let items = records
        .into_iter()
        .map(|r| move_view(&game, &r, told.audience, told.detail, &chances))
        .collect();
    Ok(HttpResponse::Ok().json(MovePage { items, next_cursor }))
}

/// Read one move of the log.
///
/// One move of the log, narrated for the game's audience at its detail
/// level or, with `audience` or `detail`, narrated again from its stored
/// events for another or at another.
#[utoipa::path(
    operation_id = "get_move",
    tag = "games",
    params(
        GameIdPath,
        ("n" = u32, Path, description = "The move number, from 1", minimum = 1, maximum = 999_999_999),
        MoveQuery,
    ),
    responses(
        (status = 200, description = "The move", body = MoveView),
        (status = 400, description = "Malformed id, move number, audience or detail", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or move", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves/{n}")]
pub async fn get_move(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    // The documented parameters first: a repeated one is refused before
    // the path is read (unknown ones are ignored).
    _params: web::Query<MoveQuery>,
    GameIdPath(id): GameIdPath,
    MoveNumber(n): MoveNumber,
    told: NarrationQuery,
) -> Result<HttpResponse, ApiError> {
    let record = service.move_record(id, n).await?;
    let game = service.game(id).await?;
    let chances = chance_table(&solver, &game).await;
    Ok(HttpResponse::Ok().json(move_view(
        &game,
        &record,
        told.audience,
        told.detail,
        &chances,
    )))
}
