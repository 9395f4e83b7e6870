//! A class's archive over HTTP, for its host: `GET
//! /v1/classes/{id}/archive` gives the class's name and each game as
//! `zohn-ahl export` writes a line (no token, no seed the server drew);
//! `POST /v1/class-imports` makes a new class of such an archive here or on
//! another server, each game checked as a new game is and its throws played
//! again, under new ids with new tokens.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::classes::{CreatedClassView, created_class_answer, keyed};
use crate::domain::{SideSetup, ThrowOrigin};
use crate::dto::OptionsView;
use crate::extract::{Bearer, ClassIdPath, IdempotencyKey};
use crate::games::PlayerName;
use crate::limits::ARCHIVE_BODY_LIMIT;
use crate::narration::{Audience, Detail};
use crate::problem::{ApiError, Problem, StoreUnavailable};
use crate::service::archive::{ArchivedGame, ArchivedMove, FORMAT};
use crate::service::{CLASS_FORMAT, ClassArchive, Service};
use zohn_ahl_rules::{Preset, Side, Throw};

/// The format of a class's archive: `zohn-ahl-class/1`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
pub enum ClassArchiveFormat {
    /// The first.
    #[serde(rename = "zohn-ahl-class/1")]
    V1,
}

/// The format of an archived game: `zohn-ahl-game/1`, a line of `zohn-ahl
/// export`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
pub enum GameArchiveFormat {
    /// The first.
    #[serde(rename = "zohn-ahl-game/1")]
    V1,
}

/// A class's archive: its name and its games, oldest first, each as
/// `zohn-ahl export` writes a line. No token is in it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassArchiveView {
    /// `zohn-ahl-class/1`.
    pub format: ClassArchiveFormat,
    /// The class's name, checked as a side's name is.
    pub name: PlayerName,
    /// When the class was made, RFC 3339 UTC (an import makes a new class,
    /// made when imported).
    pub created_at: String,
    /// Its games, oldest first: 1 to 40.
    #[schema(min_items = 1, max_items = 40)]
    pub games: Vec<ArchivedGameView>,
}

/// A game as archived: what it was made with and each move's throw, not
/// what followed from them (an import plays the throws again).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchivedGameView {
    /// `zohn-ahl-game/1`.
    pub format: GameArchiveFormat,
    /// The game's id where it was exported (an import gives a new one).
    #[schema(example = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")]
    pub id: String,
    /// When it was made, RFC 3339 UTC.
    pub created_at: String,
    /// When it last changed, RFC 3339 UTC.
    pub updated_at: String,
    /// Everything fixed at its making.
    pub setup: ArchivedSetupView,
    /// The seed of its throw generator when its creator chose it; `null`
    /// for a seed the server drew, which stays secret (an import draws a
    /// new one).
    // Required, `null` or a seed, as the schema says.
    #[serde(deserialize_with = "Option::deserialize")]
    #[schema(min_length = 1, max_length = 128, required = true)]
    pub seed: Option<String>,
    /// Whether its creator chose the seed (an import goes by `seed`).
    pub seeded: bool,
    /// Whether throws needed a seat token (a class's games always do).
    pub seated: bool,
    /// Whether a side's own token may report a physical throw.
    pub sides_report_throws: bool,
    /// Each move's throw and where it came from, in order.
    pub moves: Vec<ArchivedMoveView>,
    /// Whether its host stopped it after its last move.
    pub stopped: bool,
}

/// A game's setting as archived.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchivedSetupView {
    /// The preset its options started from.
    pub preset: Preset,
    /// Its resolved options.
    pub options: OptionsView,
    /// Side A then side B.
    #[schema(value_type = Vec<ArchivedSideView>, min_items = 2, max_items = 2)]
    pub sides: [ArchivedSideView; 2],
    /// The side that threw first.
    pub first: Side,
    /// Its narration's audience.
    pub audience: Audience,
    /// How much its moves' narration tells when read.
    pub detail: Detail,
}

/// A side as archived: its name and its players, in throwing order.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchivedSideView {
    /// Its name.
    pub name: PlayerName,
    /// Its players' names, 1 to 8 (a lone player carries the side's name).
    #[schema(min_items = 1, max_items = 8)]
    pub players: Vec<PlayerName>,
}

/// A move as archived: its throw, which an import plays again.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchivedMoveView {
    /// The sticks' faces or the spinner's sector.
    pub throw: Throw,
    /// `server` (the game's generator) or `reported` (a physical throw).
    pub origin: ThrowOrigin,
}

impl From<ClassArchive> for ClassArchiveView {
    fn from(a: ClassArchive) -> Self {
        Self {
            format: ClassArchiveFormat::V1,
            name: PlayerName::from(a.name),
            created_at: a.created_at,
            games: a.games.into_iter().map(ArchivedGameView::from).collect(),
        }
    }
}

impl From<ArchivedGame> for ArchivedGameView {
    fn from(g: ArchivedGame) -> Self {
        let side = |s: SideSetup| ArchivedSideView {
            name: PlayerName::from(s.name),
            players: s.players.into_iter().map(PlayerName::from).collect(),
        };
        let [a, b] = g.setup.sides;
        Self {
            format: GameArchiveFormat::V1,
            id: g.id,
            created_at: g.created_at,
            updated_at: g.updated_at,
            setup: ArchivedSetupView {
                preset: g.setup.preset,
                options: OptionsView::from(g.setup.options),
                sides: [side(a), side(b)],
                first: g.setup.first,
                audience: g.setup.audience,
                detail: g.setup.detail,
            },
            seed: g.seed,
            seeded: g.seeded,
            seated: g.seated,
            sides_report_throws: g.sides_report_throws,
            moves: g
                .moves
                .into_iter()
                .map(|m| ArchivedMoveView {
                    throw: m.throw,
                    origin: m.origin,
                })
                .collect(),
            stopped: g.stopped,
        }
    }
}

impl From<ClassArchiveView> for ClassArchive {
    fn from(v: ClassArchiveView) -> Self {
        Self {
            format: CLASS_FORMAT.to_owned(),
            name: v.name.into(),
            created_at: v.created_at,
            games: v.games.into_iter().map(ArchivedGame::from).collect(),
        }
    }
}

impl From<ArchivedGameView> for ArchivedGame {
    fn from(g: ArchivedGameView) -> Self {
        let side = |s: ArchivedSideView| SideSetup {
            name: s.name.into(),
            players: s.players.into_iter().map(String::from).collect(),
        };
        let [a, b] = g.setup.sides;
        Self {
            format: FORMAT.to_owned(),
            id: g.id,
            created_at: g.created_at,
            updated_at: g.updated_at,
            setup: crate::domain::Setup {
                preset: g.setup.preset,
                options: g.setup.options.into(),
                sides: [side(a), side(b)],
                first: g.setup.first,
                audience: g.setup.audience,
                detail: g.setup.detail,
            },
            seeded: g.seed.is_some(),
            seed: g.seed,
            seated: g.seated,
            sides_report_throws: g.sides_report_throws,
            moves: g
                .moves
                .into_iter()
                .map(|m| ArchivedMove {
                    throw: m.throw,
                    origin: m.origin,
                })
                .collect(),
            stopped: g.stopped,
            seats: None,
        }
    }
}

/// Export a class.
///
/// The class's name and each of its games as `zohn-ahl export` writes a
/// line: its setting, each move's throw and where it came from, whether it
/// was stopped, and its seed only if its creator chose it; with the
/// class's host token. No token is in it. `POST /v1/class-imports` makes
/// a new class of it, here or on another server.
#[utoipa::path(
    operation_id = "get_class_archive",
    tag = "classes",
    params(ClassIdPath),
    security(("token" = [])),
    responses(
        (status = 200, description = "The class's archive", body = ClassArchiveView,
            headers(("Content-Disposition" = String, description = "`attachment`, with a file name naming the class's id"))),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token (`Authorization: Bearer <class host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Another class's token, or a game's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such class", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/classes/{id}/archive")]
pub async fn export_class(
    service: web::Data<Service>,
    ClassIdPath(id): ClassIdPath,
    Bearer(token): Bearer,
) -> Result<HttpResponse, ApiError> {
    let archive = service.export_class(id, token.as_ref()).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"class-{id}.json\""),
        ))
        .json(ClassArchiveView::from(archive)))
}

/// Import a class.
///
/// A new class made of an archive that `GET /v1/classes/{id}/archive` gave,
/// here or on another server: its name and its games, each checked as `POST
/// /v1/games` checks a new game, its throws played again through the rules
/// and the narration (every move reads as it did), seated, under a new id
/// with new tokens and join codes (the old ones are never exported, so
/// they open nothing here). The answer is a class's creation's: the new
/// host token and each game's tokens, shown once. Each game counts
/// against the address's limit on games created. A body may hold up to
/// 16 MiB.
#[utoipa::path(
    operation_id = "import_class",
    tag = "classes",
    params(
        IdempotencyKey,
    ),
    request_body(content = ClassArchiveView, content_type = "application/json"),
    responses(
        (status = 201, description = "The class, made with its games as archived", body = CreatedClassView,
            headers(("Location" = String, description = "The class's URL"))),
        (status = 400, description = "Not an archive, or a value out of bounds (`/name`, `/games`, `/games/{i}/...`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this Idempotency-Key is still being served", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body past 16 MiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A game's throws do not replay (`/problems/archive-does-not-replay`, naming the move), both sides of a game have the same name, teams the preset cannot seat, or this Idempotency-Key was used with another body", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address would be past its most games this minute (`--limit-games-per-minute`) with this class's (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
        StoreUnavailable,
    )
)]
#[post("/v1/class-imports")]
pub async fn import_class(
    service: web::Data<Service>,
    req: HttpRequest,
    body: web::Payload,
    IdempotencyKey(key): IdempotencyKey,
) -> Result<HttpResponse, ApiError> {
    let body = read_within(body, ARCHIVE_BODY_LIMIT).await?;
    let view: ClassArchiveView = crate::json::parse_within(&req, &body, false, ARCHIVE_BODY_LIMIT)?;
    let games = view.games.len();
    crate::rate::charge_games(&req, games)?;
    // Playing every throw again is work for the CPU, off the server's
    // threads.
    let throws = service.server_throws();
    let imported = web::block(move || ClassArchive::from(view).check(throws.as_ref()))
        .await
        .map_err(|e| ApiError::internal(&e))??;
    let answer = service
        .import_class(
            imported,
            keyed(key, b"class import", &body),
            created_class_answer,
        )
        .await?;
    Ok(crate::answer::created(answer))
}

/// The body, read up to `limit` bytes: 413 past it.
async fn read_within(mut payload: web::Payload, limit: usize) -> Result<web::Bytes, ApiError> {
    use futures_util::StreamExt;
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::invalid(format!("the body could not be read: {e}"), Vec::new())
        })?;
        if body.len() + chunk.len() > limit {
            return Err(crate::json::too_large_for(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// The bound the document states, held to the limit's.
const _: () = assert!(ARCHIVE_BODY_LIMIT == 16 * 1024 * 1024);
