//! The board as a picture: a game's board now, after one of its moves, and a
//! preset's empty board with both numberings, as SVG (`board.svg`) or PNG
//! (`board.png`), one media type per path. `board.svg?format=png`, the PNG
//! before it had its own path, still answers PNG; the document marks that
//! parameter deprecated.
//!
//! Each answer's `ETag` is a hash of the SVG (prefixed with the format), so
//! it changes exactly when the picture does; `If-None-Match` with it gives
//! 304 without drawing the PNG again. The last PNGs rendered are kept (by
//! that hash), so many clients asking for one board cost one rendering.

use std::num::NonZeroUsize;
use std::sync::{LazyLock, Mutex, PoisonError};

use actix_web::http::header::{self, HeaderMap};
use actix_web::{HttpRequest, HttpResponse, get, web};
use lru::LruCache;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

use utoipa::openapi::RefOr;
use utoipa::openapi::response::Response;
use utoipa::{IntoParams, IntoResponses, ToSchema};

use super::extract::{GameIdPath, MoveNumber, PresetPath};
use super::problem::{ApiError, Problem, echo};
use crate::domain::{GameId, Setup};
use crate::picture::{self, Names};
use crate::service::Service;

/// The media type of the SVG picture.
pub const SVG: &str = "image/svg+xml";
/// The media type of the PNG picture.
pub const PNG: &str = "image/png";

/// PNGs kept, by the SHA-256 of their SVG: a board asked for by many
/// clients after a throw (a class's chat tools) is rendered once, not once
/// per client. About 190 KB each.
const PNG_CACHE: usize = 32;

/// The PNGs rendered last, by the hex SHA-256 of their SVG (the SVG fixes
/// the PNG, so an entry never goes stale).
static PNGS: LazyLock<Mutex<LruCache<String, web::Bytes>>> = LazyLock::new(|| {
    Mutex::new(LruCache::new(
        NonZeroUsize::new(PNG_CACHE).unwrap_or(NonZeroUsize::MIN),
    ))
});

/// The PNG of `svg`, from the cache or rendered (off the worker's thread:
/// rasterising takes milliseconds).
async fn png_of(svg: String) -> Result<web::Bytes, ApiError> {
    let key = hex::encode(Sha256::digest(svg.as_bytes()));
    let cached = PNGS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
        .cloned();
    if let Some(png) = cached {
        return Ok(png);
    }
    let png = web::block(move || picture::png(&svg))
        .await
        .map_err(|e| ApiError::internal(&e))?
        .map_err(|e| ApiError::internal(&e))?;
    let png = web::Bytes::from(png);
    PNGS.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .put(key, png.clone());
    Ok(png)
}

/// What the picture is sent as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BoardFormat {
    /// `image/svg+xml`, the default.
    Svg,
    /// `image/png`: the same picture, rendered by the server.
    Png,
}

impl BoardFormat {
    const fn as_str(self) -> &'static str {
        match self {
            BoardFormat::Svg => "svg",
            BoardFormat::Png => "png",
        }
    }
}

/// The format a picture is asked for in.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// Deprecated: ask `board.png` for the PNG. `svg` (default): the
    /// picture as SVG; `png`: the same picture as a PNG (`image/png`, 1440 ×
    /// 900 pixels), answered with that media type.
    #[param(value_type = Option<BoardFormat>)]
    format: Option<String>,
}

impl BoardQuery {
    fn format(&self) -> Result<BoardFormat, ApiError> {
        match self.format.as_deref() {
            None | Some("svg") => Ok(BoardFormat::Svg),
            Some("png") => Ok(BoardFormat::Png),
            Some(other) => Err(ApiError::field(
                "#/query/format",
                format!("must be one of: svg, png (got {:?})", echo(other)),
            )),
        }
    }
}

/// Which view of the board is asked for.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ViewQuery {
    /// `full` (default): the track and, beside it, the panel (the sides,
    /// their awls and counters, the key), 1440 × 900. `projector`: the
    /// track alone, 1010 × 900, with space numbers 70 % larger, for a page
    /// that shows whose turn it is beside the board (the lesson page's big
    /// screen, and its phones): they are 28 pixels and more when the board
    /// is shown 870 pixels high.
    #[param(value_type = Option<super::schema::BoardViewName>)]
    view: Option<String>,
}

impl ViewQuery {
    fn view(&self) -> Result<picture::BoardView, ApiError> {
        match self.view.as_deref() {
            None => Ok(picture::BoardView::Full),
            Some(key) => picture::BoardView::parse(key).ok_or_else(|| {
                ApiError::field(
                    "#/query/view",
                    format!("must be one of: full, projector (got {:?})", echo(key)),
                )
            }),
        }
    }
}

/// A picture's answers in `media`: 200 with it, or 304 while the client
/// holds it (its `ETag` and `Cache-Control` in both).
fn picture_answers(media: &str) -> BTreeMap<String, RefOr<Response>> {
    let answers = serde_json::json!({
        "200": {
            "description": "The picture",
            "content": {media: {}},
            "headers": {
                "ETag": {"schema": {"type": "string"}, "description": "Changes when the picture changes (a hash of it, quoted)"},
                "Cache-Control": {"schema": {"type": "string"}, "description": "`no-cache`: revalidate with If-None-Match"},
            },
        },
        "304": {
            "description": "Not modified: If-None-Match names the picture's ETag",
            "headers": {
                "ETag": {"schema": {"type": "string"}, "description": "The picture's ETag"},
                "Cache-Control": {"schema": {"type": "string"}, "description": "`no-cache`"},
            },
        },
    });
    serde_json::from_value(answers).unwrap_or_default()
}

/// The answers of an SVG picture's operation (200, 304).
pub struct SvgPicture;

impl IntoResponses for SvgPicture {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        picture_answers(SVG)
    }
}

/// The answers of a PNG picture's operation (200, 304).
pub struct PngPicture;

impl IntoResponses for PngPicture {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        picture_answers(PNG)
    }
}

/// The names a game's picture shows.
fn names(setup: &Setup) -> Names<'_> {
    let [a, b] = &setup.sides;
    Names {
        sides: [&a.name, &b.name],
        players: [&a.players, &b.players],
    }
}

/// The quoted ETag of `svg` sent as `format`: the format and the first 64
/// bits of the SVG's SHA-256, in hex.
fn etag(svg: &str, format: BoardFormat) -> String {
    let digest = Sha256::digest(svg.as_bytes());
    format!("\"{}-{}\"", format.as_str(), hex::encode(&digest[..8]))
}

/// A picture's conditional read, as every picture operation lists it:
/// its optional `If-None-Match` header, which [`not_modified`] reads.
pub(super) struct PictureIfNoneMatch;

impl utoipa::IntoParams for PictureIfNoneMatch {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![crate::extract::string_parameter(
            "If-None-Match",
            utoipa::openapi::path::ParameterIn::Header,
            "The ETag of a picture already held: 304 while the picture is the same",
            false,
            None,
        )]
    }
}

/// Whether `If-None-Match` names `etag` (or is `*`); weak tags compare equal
/// to strong ones, as RFC 9110 asks for this header.
pub(super) fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

/// The picture in `format` with its ETag, or 304 when the client has it.
pub(super) async fn answer(
    req: &HttpRequest,
    svg: String,
    format: BoardFormat,
) -> Result<HttpResponse, ApiError> {
    let tag = etag(&svg, format);
    if not_modified(req.headers(), &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .finish());
    }
    let (content_type, body) = match format {
        BoardFormat::Svg => (SVG, web::Bytes::from(svg)),
        BoardFormat::Png => (PNG, png_of(svg).await?),
    };
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body))
}

/// Draw a game's board now, as SVG.
///
/// A game's board now, as SVG (`board.png` is the same picture as PNG).
///
/// The picture shows both awls at their spaces, the counters each side
/// holds, whose throw it is (or who won) and the side names, on the
/// 40-space circle (or the A4 preset's 28-space square) with both
/// numberings, the creeks and the dry branches. The SVG is accessible (`role="img"`, a `<title>`, and a `<desc>` saying
/// the state in words) and has hooks for scripts: every space carries
/// `data-space="a/b"` (its number in A's and in B's count), the features
/// the classes `creek` and `dry-branch`, the awls `awl-a` and `awl-b`. The
/// same state always gives the same bytes.
#[utoipa::path(
    operation_id = "get_board",
    tag = "games",
    params(
        GameIdPath,
        PictureIfNoneMatch,
        BoardQuery,
        ViewQuery,
    ),
    responses(
        SvgPicture,
        (status = 400, description = "Malformed id, unknown format or view", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/board.svg")]
pub async fn get_board(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    query: web::Query<BoardQuery>,
    view: web::Query<ViewQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let format = query.format()?;
    answer(&req, game_board(&service, id, view.view()?).await?, format).await
}

/// Draw a game's board now, as PNG.
///
/// A game's board now, as a PNG (1440 × 900 pixels) for clients that
/// cannot show SVG: the picture `board.svg` gives.
#[utoipa::path(
    operation_id = "get_board_png",
    tag = "games",
    params(
        GameIdPath,
        PictureIfNoneMatch,
        ViewQuery,
    ),
    responses(
        PngPicture,
        (status = 400, description = "Malformed id or unknown view", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/board.png")]
pub async fn get_board_png(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    view: web::Query<ViewQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let view = view.view()?;
    answer(
        &req,
        game_board(&service, id, view).await?,
        BoardFormat::Png,
    )
    .await
}

/// The SVG of game `id`'s board now.
async fn game_board(
    service: &Service,
    id: GameId,
    view: picture::BoardView,
) -> Result<String, ApiError> {
    let game = service.game(id).await?;
    let table = game.setup.table().map_err(|e| ApiError::internal(&e))?;
    Ok(picture::game_svg_in(
        &table,
        &game.state,
        &names(&game.setup),
        view,
    ))
}

/// Draw a game's board as a move left it, as SVG.
///
/// A game's board after move `n`, as SVG (`board.png` is the same picture
/// as PNG).
///
/// The same picture as the game's board, for the state the move left.
#[utoipa::path(
    operation_id = "get_move_board",
    tag = "games",
    params(
        GameIdPath,
        ("n" = u32, Path, description = "The move number, from 1", minimum = 1, maximum = 999_999_999),
        PictureIfNoneMatch,
        BoardQuery,
        ViewQuery,
    ),
    responses(
        SvgPicture,
        (status = 400, description = "Malformed id, move number, format or view", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or move", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves/{n}/board.svg")]
pub async fn get_move_board(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    MoveNumber(n): MoveNumber,
    query: web::Query<BoardQuery>,
    view: web::Query<ViewQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let format = query.format()?;
    answer(
        &req,
        move_board(&service, id, n, view.view()?).await?,
        format,
    )
    .await
}

/// Draw a game's board as a move left it, as PNG.
///
/// A game's board after move `n`, as a PNG (1440 × 900 pixels): the
/// picture the move's `board.svg` gives.
#[utoipa::path(
    operation_id = "get_move_board_png",
    tag = "games",
    params(
        GameIdPath,
        ("n" = u32, Path, description = "The move number, from 1", minimum = 1, maximum = 999_999_999),
        PictureIfNoneMatch,
        ViewQuery,
    ),
    responses(
        PngPicture,
        (status = 400, description = "Malformed id, move number or view", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or move", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves/{n}/board.png")]
pub async fn get_move_board_png(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    MoveNumber(n): MoveNumber,
    view: web::Query<ViewQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let view = view.view()?;
    answer(
        &req,
        move_board(&service, id, n, view).await?,
        BoardFormat::Png,
    )
    .await
}

/// The SVG of game `id`'s board as move `n` left it.
async fn move_board(
    service: &Service,
    id: GameId,
    n: u32,
    view: picture::BoardView,
) -> Result<String, ApiError> {
    let (game, state) = service.board_after(id, Some(n)).await?;
    let table = game.setup.table().map_err(|e| ApiError::internal(&e))?;
    Ok(picture::game_svg_in(
        &table,
        &state,
        &names(&game.setup),
        view,
    ))
}

/// Draw a preset's empty board with both numberings, as SVG.
///
/// A preset's empty board with both numberings, as SVG (`board.png` is
/// the same picture as PNG).
///
/// Every space shows its number in A's count (outside the track) and in
/// B's (inside): they add up to 41 on the circle, 29 on the A4 preset's
/// square. The creeks (torrents) and dry branches (dry gullies) are drawn
/// and labelled, with their banks ringed.
#[utoipa::path(
    operation_id = "get_ruleset_board",
    tag = "rulesets",
    params(
        ("preset" = zohn_ahl_rules::Preset, Path, description = "The preset"),
        PictureIfNoneMatch,
        BoardQuery,
        ViewQuery,
    ),
    responses(
        SvgPicture,
        (status = 400, description = "Unknown format or view", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such preset", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/rulesets/{preset}/board.svg")]
pub async fn get_ruleset_board(
    PresetPath(preset): PresetPath,
    query: web::Query<BoardQuery>,
    view: web::Query<ViewQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let format = query.format()?;
    let svg = picture::empty_svg_in(preset.options().board, view.view()?);
    answer(&req, svg, format).await
}

/// Draw a preset's empty board with both numberings, as PNG.
///
/// A preset's empty board, as a PNG (1440 × 900 pixels): the picture the
/// preset's `board.svg` gives.
#[utoipa::path(
    operation_id = "get_ruleset_board_png",
    tag = "rulesets",
    params(
        ("preset" = zohn_ahl_rules::Preset, Path, description = "The preset"),
        PictureIfNoneMatch,
        ViewQuery,
    ),
    responses(
        PngPicture,
        (status = 400, description = "Unknown view", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such preset", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/rulesets/{preset}/board.png")]
pub async fn get_ruleset_board_png(
    PresetPath(preset): PresetPath,
    view: web::Query<ViewQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let svg = picture::empty_svg_in(preset.options().board, view.view()?);
    answer(&req, svg, BoardFormat::Png).await
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::HeaderValue;

    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(value).unwrap_or_else(|_| HeaderValue::from_static("x")),
        );
        headers
    }

    #[test]
    fn if_none_match_takes_lists_weak_tags_and_star() {
        let tag = "\"svg-0123456789abcdef\"";
        assert!(not_modified(&with(tag), tag));
        assert!(not_modified(&with(&format!("W/{tag}")), tag));
        assert!(not_modified(&with(&format!("\"other\", {tag}")), tag));
        assert!(not_modified(&with("*"), tag));
        assert!(!not_modified(&with("\"png-0123456789abcdef\""), tag));
        assert!(
            !not_modified(&with("svg-0123456789abcdef"), tag),
            "unquoted"
        );
        assert!(!not_modified(&HeaderMap::new(), tag));
    }

    #[test]
    fn the_etag_names_the_format_and_follows_the_bytes() {
        let a = etag("<svg/>", BoardFormat::Svg);
        assert!(
            a.starts_with("\"svg-") && a.ends_with('"') && a.len() == 22,
            "{a}"
        );
        assert_ne!(a, etag("<svg/>", BoardFormat::Png));
        assert_ne!(a, etag("<svg />", BoardFormat::Svg));
        assert_eq!(a, etag("<svg/>", BoardFormat::Svg));
    }
}
