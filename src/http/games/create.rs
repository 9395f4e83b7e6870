//! `POST /v1/games`: the creation body, checked into the service's
//! [`NewGame`], and the handler.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use super::etag;
use super::read::{GameView, SeatTokens, game_view};
use crate::http::json::{self, Obj};
use crate::http::problem::{ApiError, FieldError, Problem};
use crate::narration::Audience;
use crate::rules::{OptionsPatch, Preset, Side};
use crate::service::{NewGame, Service};

/// Longest side or player name, in Unicode scalar values.
pub const MAX_NAME_CHARS: usize = 40;
/// Longest seed, in Unicode scalar values.
pub const MAX_SEED_CHARS: usize = 128;
/// Most players on one side.
pub const MAX_PLAYERS: usize = 8;

/// Body of `POST /v1/games`. Every field is optional: `{}` creates a
/// composite game between "Side A" and "Side B", A first, server-seeded.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "ruleset": {"preset": "composite", "options": {"counters_per_side": 4}},
    "sides": {"a": {"name": "Tsoñ"}, "b": {"name": "Sahe"}},
    "first": "A",
    "seed": "lesson-1",
    "narration": {"audience": "general"}
}))]
pub struct CreateGameRequest {
    /// The ruleset: a preset and option overrides.
    #[schema(value_type = Option<RulesetRequest>)]
    pub ruleset: Option<Obj<RulesetRequest>>,
    /// Side names and players.
    #[schema(value_type = Option<SidesRequest>)]
    pub sides: Option<Obj<SidesRequest>>,
    /// The side that throws first (default `A`).
    pub first: Option<Side>,
    /// A seed string (1 to 128 characters): the same seed gives the same
    /// throws, across restarts. Without it the server picks a secret one.
    #[schema(min_length = 1, max_length = 128, example = "lesson-1")]
    pub seed: Option<String>,
    /// Narration settings.
    #[schema(value_type = Option<NarrationRequest>)]
    pub narration: Option<Obj<NarrationRequest>>,
    /// `true`: the answer gives each side a secret seat token, once, and
    /// every throw then needs `Authorization: Bearer <token of the side to
    /// move>` (default `false`: anyone may throw).
    pub seats: Option<bool>,
}

/// A preset and overrides of its options.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetRequest {
    /// The preset (default `composite`).
    pub preset: Option<Preset>,
    /// Options that override the preset's.
    #[schema(value_type = Option<OptionsPatch>)]
    pub options: Option<Obj<OptionsPatch>>,
}

/// The two sides.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SidesRequest {
    /// Side A (east bank, counter-clockwise).
    #[schema(value_type = Option<SideRequest>)]
    pub a: Option<Obj<SideRequest>>,
    /// Side B (west bank, clockwise).
    #[schema(value_type = Option<SideRequest>)]
    pub b: Option<Obj<SideRequest>>,
}

/// One side's name and players.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SideRequest {
    /// Display name, 1 to 40 characters, not all spaces, no control
    /// characters (default "Side A" / "Side B").
    #[schema(
        min_length = 1,
        max_length = 40,
        example = "Tsoñ",
        pattern = "^[^\\x00-\\x1F\\x7F-\\x9F]*[^\\s\\x00-\\x1F\\x7F-\\x9F][^\\x00-\\x1F\\x7F-\\x9F]*$"
    )]
    pub name: Option<String>,
    /// Player names in throwing order, 1 to 8 names of 1 to 40 characters.
    #[schema(min_items = 1, max_items = 8, inline)]
    pub players: Option<Vec<PlayerName>>,
}

/// A player's name, 1 to 40 characters.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(
    min_length = 1,
    max_length = 40,
    example = "Ama",
    pattern = "^[^\\x00-\\x1F\\x7F-\\x9F]*[^\\s\\x00-\\x1F\\x7F-\\x9F][^\\x00-\\x1F\\x7F-\\x9F]*$"
)]
pub struct PlayerName(String);

/// Narration settings.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NarrationRequest {
    /// Who the narration is for (default `general`).
    pub audience: Option<Audience>,
}

/// Check a name: trimmed, 1..=40 Unicode scalar values, no control characters.
fn name(pointer: &str, raw: &str) -> Result<String, FieldError> {
    let trimmed = raw.trim();
    let chars = trimmed.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(FieldError {
            pointer: pointer.to_owned(),
            detail: format!("must be from 1 to {MAX_NAME_CHARS} characters, got {chars}"),
        });
    }
    if trimmed.chars().any(char::is_control) {
        return Err(FieldError {
            pointer: pointer.to_owned(),
            detail: "must not contain control characters".to_owned(),
        });
    }
    Ok(trimmed.to_owned())
}

impl TryFrom<CreateGameRequest> for NewGame {
    type Error = ApiError;

    fn try_from(req: CreateGameRequest) -> Result<Self, ApiError> {
        let mut errors = Vec::new();
        let ruleset = req.ruleset.unwrap_or_default().0;
        let preset = ruleset.preset.unwrap_or_default();
        let options = match ruleset
            .options
            .map(|o| o.0)
            .unwrap_or_default()
            .apply(preset.options())
        {
            Ok(options) => options,
            Err(bad) => {
                errors.extend(bad.into_iter().map(|e| FieldError {
                    pointer: format!("/ruleset/options/{}", e.option),
                    detail: format!(
                        "must be an integer from {} to {}, got {}",
                        e.min, e.max, e.got
                    ),
                }));
                preset.options()
            }
        };
        let sides_req = req.sides.unwrap_or_default().0;
        let mut sides: [(String, Vec<String>); 2] = [
            ("Side A".to_owned(), Vec::new()),
            ("Side B".to_owned(), Vec::new()),
        ];
        for (i, (key, side)) in [("a", sides_req.a), ("b", sides_req.b)]
            .into_iter()
            .enumerate()
        {
            let Some(Obj(side)) = side else { continue };
            if let Some(raw) = side.name {
                match name(&format!("/sides/{key}/name"), &raw) {
                    Ok(n) => sides[i].0 = n,
                    Err(e) => errors.push(e),
                }
            }
            if let Some(players) = side.players {
                if players.is_empty() || players.len() > MAX_PLAYERS {
                    errors.push(FieldError {
                        pointer: format!("/sides/{key}/players"),
                        detail: format!(
                            "must list from 1 to {MAX_PLAYERS} names, got {}",
                            players.len()
                        ),
                    });
                }
                for (j, PlayerName(raw)) in players.iter().enumerate() {
                    match name(&format!("/sides/{key}/players/{j}"), raw) {
                        Ok(n) => sides[i].1.push(n),
                        Err(e) => errors.push(e),
                    }
                }
            }
        }
        let seed = match req.seed {
            Some(seed) => {
                let chars = seed.chars().count();
                if chars == 0 || chars > MAX_SEED_CHARS {
                    errors.push(FieldError {
                        pointer: "/seed".to_owned(),
                        detail: format!(
                            "must be from 1 to {MAX_SEED_CHARS} characters, got {chars}"
                        ),
                    });
                }
                Some(seed)
            }
            None => None,
        };
        if !errors.is_empty() {
            let detail = errors
                .iter()
                .map(|e| format!("{}: {}", e.pointer, e.detail))
                .collect::<Vec<_>>()
                .join("; ");
            return Err(ApiError::invalid(detail, errors));
        }
        Ok(NewGame {
            preset,
            options,
            sides,
            first: req.first.unwrap_or(Side::A),
            seed,
            audience: req.narration.and_then(|n| n.0.audience).unwrap_or_default(),
            seats: req.seats.unwrap_or(false),
        })
    }
}

/// The creation request that other surfaces (the MCP tools) make from
/// their own arguments, checked exactly as a REST body is, so both accept
/// and refuse the same games in the same words: names (`sides`), the seed,
/// the preset and audience (defaults when `None`), seats.
///
/// # Errors
/// The problem a REST creation with the same values gets.
pub fn new_game_from(
    preset: Option<Preset>,
    names: [String; 2],
    first: Option<Side>,
    seed: Option<String>,
    audience: Option<Audience>,
    seats: bool,
) -> Result<NewGame, ApiError> {
    let [a, b] = names.map(|n| {
        (!n.is_empty()).then_some(Obj(SideRequest {
            name: Some(n),
            players: None,
        }))
    });
    NewGame::try_from(CreateGameRequest {
        ruleset: Some(Obj(RulesetRequest {
            preset,
            options: None,
        })),
        sides: Some(Obj(SidesRequest { a, b })),
        first,
        seed,
        narration: Some(Obj(NarrationRequest { audience })),
        seats: Some(seats),
    })
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
