//! `POST /v1/games`: the creation body, checked into the service's
//! [`NewGame`], and the handler.

use std::borrow::Cow;

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};

use crate::extract::IdempotencyKey;
use crate::json::{self, Obj};
use crate::narration::{Audience, Detail};
use crate::problem::{ApiError, Problem, StoreUnavailable};
use crate::service::idempotency::body_hash;
use crate::service::{self, GameRequest, NewGame, Service};
use crate::views::game::{CreatedGameView, created_answer};
use zohn_ahl_rules::{OptionsPatch, Preset, Side};

/// Body of `POST /v1/games`. Every field is optional: `{}` creates a
/// composite game between "Side A" and "Side B", A first, server-seeded.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "ruleset": {"preset": "composite", "options": {"counters_per_side": 4}},
    "sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}},
    "first": "A",
    "seed": "lesson-1",
    "narration": {"audience": "general", "detail": "lesson"}
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
    /// `true` (or an object of seat settings): the answer gives each side a
    /// secret token and the host another, once; every throw then needs
    /// `Authorization: Bearer <token>` (the mover's or the host's), and
    /// stopping, deleting and (unless `sides_report_throws`) reporting a
    /// physical throw need the host's (default `false`: anyone may do
    /// anything).
    pub seats: Option<SeatsRequest>,
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
    /// Display name, 1 to 40 characters, with a visible character (not
    /// only spaces or invisible characters), no control characters and no
    /// bidirectional controls; not the other side's name, compared without
    /// case (default "Side A" / "Side B").
    #[schema(
        min_length = 1,
        max_length = 40,
        example = "Hawks",
        pattern = "^[^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*[^\\s\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2065\\u206A-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8][^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$"
    )]
    pub name: Option<String>,
    /// Player names in throwing order, 1 to 8 names of 1 to 40 characters.
    #[schema(min_items = 1, max_items = 8, inline)]
    pub players: Option<Vec<PlayerName>>,
}

/// A player's name, 1 to 40 characters, with a visible character, no
/// control characters and no bidirectional controls.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(
    min_length = 1,
    max_length = 40,
    example = "Ama",
    pattern = "^[^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*[^\\s\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2065\\u206A-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8][^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$"
)]
pub struct PlayerName(String);

impl From<String> for PlayerName {
    fn from(name: String) -> Self {
        Self(name)
    }
}

impl From<PlayerName> for String {
    fn from(name: PlayerName) -> Self {
        name.0
    }
}

/// Narration settings.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NarrationRequest {
    /// Who the narration is for (default `general`).
    pub audience: Option<Audience>,
    /// How much each move's narration tells (default `lesson`): reads
    /// tell the moves at this level unless they ask for another with
    /// `?detail=`.
    pub detail: Option<Detail>,
}

/// The body as the service's creation request, before its checks.
impl From<CreateGameRequest> for GameRequest {
    fn from(req: CreateGameRequest) -> Self {
        let ruleset = req.ruleset.unwrap_or_default().0;
        let sides = req.sides.unwrap_or_default().0;
        let side = |s: Option<Obj<SideRequest>>| {
            s.map(|Obj(s)| service::SideRequest {
                name: s.name,
                players: s
                    .players
                    .map(|p| p.into_iter().map(|PlayerName(n)| n).collect()),
            })
            .unwrap_or_default()
        };
        let seats = req.seats.unwrap_or_default();
        let narration = req.narration.unwrap_or_default().0;
        GameRequest {
            preset: ruleset.preset,
            options: ruleset.options.map(|o| o.0),
            sides: [side(sides.a), side(sides.b)],
            first: req.first,
            seed: req.seed,
            audience: narration.audience,
            detail: narration.detail,
            seats: seats.seated,
            sides_report_throws: seats.sides_report_throws,
        }
    }
}

/// The body as the service's creation request: its checks are the
/// service's ([`GameRequest::check`]), shared with every surface that
/// creates games.
impl TryFrom<CreateGameRequest> for NewGame {
    type Error = ApiError;

    fn try_from(req: CreateGameRequest) -> Result<Self, ApiError> {
        GameRequest::from(req).check().map_err(ApiError::from)
    }
}

/// The `seats` field of a new game: `true` or `false`, or an object of seat
/// settings (which seats the game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatsRequest {
    /// Whether the game is seated.
    pub seated: bool,
    /// Whether a side's own token may report a physical throw.
    pub sides_report_throws: bool,
}

/// The object form of `seats`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatSettings {
    sides_report_throws: Option<bool>,
}

impl<'de> Deserialize<'de> for SeatsRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = SeatsRequest;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("true, false or an object such as {\"sides_report_throws\": true}")
            }
            fn visit_bool<E: de::Error>(self, seated: bool) -> Result<SeatsRequest, E> {
                Ok(SeatsRequest {
                    seated,
                    sides_report_throws: false,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SeatsRequest, A::Error> {
                let settings =
                    SeatSettings::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(SeatsRequest {
                    seated: true,
                    sides_report_throws: settings.sides_report_throws.unwrap_or(false),
                })
            }
        }
        d.deserialize_any(Visit)
    }
}

impl utoipa::PartialSchema for SeatsRequest {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .description(Some(
                "Seats: `true` gives each side a secret token and the host (the teacher, the app) \
                 another, once, in the answer; `false` (default) seats nobody and anyone may \
                 throw, report, stop and delete. The object form seats the game with settings.",
            ))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .property(
                        "sides_report_throws",
                        ObjectBuilder::new()
                            .schema_type(SchemaType::from_iter([Type::Boolean, Type::Null]))
                            .description(Some(
                                "`true`: a side's own token may report a physical throw for \
                                 it; `false` (default, also `null`): only the host's token may \
                                 report throws (a side's token still asks the server to throw).",
                            )),
                    )
                    .additional_properties(Some(AdditionalProperties::FreeForm(false))),
            )
            .into()
    }
}

impl utoipa::ToSchema for SeatsRequest {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("SeatsRequest")
    }
}

/// Create a game.
///
/// Every field is optional: `{}` (or an empty body) starts a composite game
/// between "Side A" and "Side B", side A first, with a secret server seed.
/// A seated game's answer carries its tokens, once: `seat_tokens` (one per
/// side) and `host_token`, and each side's `join_codes`.
#[utoipa::path(
    operation_id = "create_game",
    tag = "games",
    params(
        IdempotencyKey,
    ),
    request_body(content = Option<CreateGameRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The game, created", body = CreatedGameView,
            headers(("Location" = String, description = "The game's URL"),
                    ("ETag" = String, description = "The game's version, quoted"))),
        (status = 400, description = "A field out of bounds or unknown", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this Idempotency-Key is still being served", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Both sides have the same name, or this Idempotency-Key was used with another body", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address has created its most games this minute (`--limit-games-per-minute`) (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
        StoreUnavailable,
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    service: web::Data<Service>,
    req: HttpRequest,
    // The body comes first: a body over the limit is refused before the
    // headers are looked at.
    body: web::Bytes,
    IdempotencyKey(key): IdempotencyKey,
) -> Result<HttpResponse, ApiError> {
    let request: CreateGameRequest = json::parse(&req, &body, true)?;
    let new = NewGame::try_from(request)?;
    let idempotency = key.map(|key| (key, body_hash(&body)));
    let answer = service.create(new, idempotency, created_answer).await?;
    Ok(crate::answer::created(answer))
}
