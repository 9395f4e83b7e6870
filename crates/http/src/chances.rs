//! The chances over a game as a chart: `chances.svg` and `chances.png`, one
//! media type per path, as the board's pictures are (the same `ETag`, 304
//! and PNG cache: [`super::board`]). The chances are the move log's
//! (`chances.after` of every move, and the opening's at move 0), read with
//! [`Service::known_chances`]; a ruleset without solved odds is refused as
//! `GET /v1/games/{id}/odds` refuses it.

use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::board::{BoardFormat, PictureIfNoneMatch, PngPicture, SvgPicture, answer};
use super::extract::GameIdPath;
use super::problem::{ApiError, Problem, echo};
use crate::domain::GameId;
use crate::narration::Audience;
use crate::service::Service;
use zohn_ahl_odds::Solver;

/// The words of the chart's description.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChartQuery {
    /// `young` ("about 7 in 10"), `general` (percentages) or `scholar`
    /// (four decimals): the audience of the chart's description (its
    /// `<desc>`); default: the game's.
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
}

impl ChartQuery {
    fn audience(&self) -> Result<Option<Audience>, ApiError> {
        self.audience
            .as_deref()
            .map(|text| {
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
}

/// The chart of game `id`.
async fn game_chart(
    service: &Service,
    solver: &Solver,
    id: GameId,
    audience: Option<Audience>,
) -> Result<String, ApiError> {
    let known = service.known_chances(solver, id).await?;
    Ok(known.chart(audience).svg)
}

/// Draw each side's chance of winning over a game, as SVG.
///
/// A chart of each side's exact chance of winning at the start (move 0)
/// and after every move, as SVG (`chances.png` is the same picture as PNG,
/// 1440 × 810 pixels).
///
/// The chances are the move log's (`chances.after` of each move, from this
/// service's own computation: the ruleset's solved Markov chain,
/// `docs/odds.md`). Side A's line is solid with diamonds, B's dashed with
/// squares, each in its side's colour and named at its end; the **turning
/// point** (the move that changed the chances most) is shaded and
/// labelled with who threw what and the chance before and after; each
/// **rare throw** (a result rarer than 1 in 16) is marked with a triangle
/// and its value. The SVG is accessible (`role="img"`, a `<title>`, and a
/// `<desc>` saying who was more likely to win at the start, the turning
/// point, how many rare throws and the result, in the words of
/// `audience`) and has hooks for scripts: one `<g class="point"
/// data-move="n" data-a="p" data-b="q">` per point, `<g
/// class="turning-point" data-move="n">`, `<g class="rare-throw"
/// data-move="n">`. A ruleset too large to solve is refused (422), one
/// whose chain is not solved within the 2 s budget is **503** with
/// `Retry-After` (`/problems/odds-pending`), as for the game's odds.
#[utoipa::path(
    operation_id = "get_chances_chart",
    tag = "games",
    params(
        GameIdPath,
        PictureIfNoneMatch,
        ChartQuery,
    ),
    responses(
        SvgPicture,
        (status = 400, description = "Malformed id or unknown audience", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The ruleset's chain is too large to solve: no exact chances", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Not solved within the 2 s budget (`/problems/odds-pending`: being solved in the background, ask again after `Retry-After`), or too many rulesets waiting to be solved (`/problems/odds-queue-full`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before asking again"))),
    )
)]
#[get("/v1/games/{id}/chances.svg")]
pub async fn get_chances_chart(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    GameIdPath(id): GameIdPath,
    query: web::Query<ChartQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let audience = query.audience()?;
    let svg = game_chart(&service, &solver, id, audience).await?;
    answer(&req, svg, BoardFormat::Svg).await
}

/// Draw each side's chance of winning over a game, as PNG.
///
/// The chart of the chances over a game as a PNG (1440 × 810 pixels) for
/// clients that cannot show SVG: the picture `chances.svg` gives.
#[utoipa::path(
    operation_id = "get_chances_chart_png",
    tag = "games",
    params(
        GameIdPath,
        PictureIfNoneMatch,
    ),
    responses(
        PngPicture,
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The ruleset's chain is too large to solve: no exact chances", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Not solved within the 2 s budget (`/problems/odds-pending`: being solved in the background, ask again after `Retry-After`), or too many rulesets waiting to be solved (`/problems/odds-queue-full`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before asking again"))),
    )
)]
#[get("/v1/games/{id}/chances.png")]
pub async fn get_chances_chart_png(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    GameIdPath(id): GameIdPath,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let svg = game_chart(&service, &solver, id, None).await?;
    answer(&req, svg, BoardFormat::Png).await
}
