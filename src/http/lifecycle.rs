//! A game's life: create (with its seats and host), stop, delete; and the
//! tokens' security scheme in the OpenAPI document.

use std::borrow::Cow;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, post, web};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use sha2::{Digest, Sha256};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};

use super::dto::{CreateGameRequest, GameView, SeatTokens, StopView, game_view};
use super::games::{bearer, etag, game_id, idempotency_key, if_match};
use super::json;
use super::problem::{ApiError, Problem};
use crate::domain::Game;
use crate::narration::Narration;
use crate::service::{Answer, Created, NewGame, Service, StopCommand};

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

/// The tokens' security scheme, `token`: the operations that take one
/// list it as optional (a game without seats needs none).
pub struct SecuritySchemes;

impl utoipa::Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "token",
                SecurityScheme::Http(
                    HttpBuilder::new()
                        .scheme(HttpAuthScheme::Bearer)
                        .bearer_format("64 hex digits")
                        .description(Some(
                            "A seated game's token, from the answer that created it: a side's \
                             (`seat_tokens.a`, `seat_tokens.b`) or the host's (`host_token`). \
                             Games without seats need none.",
                        ))
                        .build(),
                ),
            );
    }
}

/// The answer to a creation, as sent (tokens included, for a seated game).
fn created_answer(created: &Created) -> Answer {
    let game = &created.game;
    let mut view = game_view(game, &game.state);
    if let Some(tokens) = &created.tokens {
        let [a, b] = tokens.sides.clone();
        view.seat_tokens = Some(SeatTokens { a, b });
        view.host_token = Some(tokens.host.clone());
    }
    Answer {
        location: format!("/v1/games/{}", game.id),
        etag: etag(game.version),
        body: serde_json::to_vec(&view).unwrap_or_default(),
        replayed: false,
    }
}

/// The answer to a stop, as sent.
fn stopped_answer(game: &Game, narration: &Narration) -> Answer {
    let view = StopView {
        state: game_view(game, &game.state),
        narration: narration.into(),
    };
    Answer {
        location: format!("/v1/games/{}", game.id),
        etag: etag(game.version),
        body: serde_json::to_vec(&view).unwrap_or_default(),
        replayed: false,
    }
}

/// Create a game.
///
/// Every field is optional: `{}` (or an empty body) starts a composite game
/// between "Side A" and "Side B", side A first, with a secret server seed.
/// A seated game's answer carries its tokens, once: `seat_tokens` (one per
/// side) and `host_token`.
#[utoipa::path(
    tag = "games",
    params(
        ("Idempotency-Key" = Option<String>, Header, nullable = false, pattern = "^[!-~]{1,255}$", description = "1 to 255 visible ASCII characters; use an unguessable one, such as a UUID. A retry with the same key and body within 24 hours makes no second game and gets the first answer again, byte for byte, tokens included (with `Idempotent-Replayed: true`); the same key with another body is 422; a retry while the first is still being served is 409"),
    ),
    request_body(content = Option<CreateGameRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The game, created", body = GameView,
            headers(("Location" = String, description = "The game's URL"),
                    ("ETag" = String, description = "The game's version, quoted"))),
        (status = 400, description = "A field out of bounds or unknown", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this Idempotency-Key is still being served", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Both sides have the same name, or this Idempotency-Key was used with another body", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is busy; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    service: web::Data<Service>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let key = idempotency_key(req.headers())?;
    let request: CreateGameRequest = json::parse(&req, &body, true)?;
    let new = NewGame::try_from(request)?;
    let idempotency = key.map(|key| (key, Sha256::digest(&body).into()));
    let answer = service.create(new, idempotency, created_answer).await?;
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
///
/// A seated game needs the host's token. `If-Match` with the game's ETag
/// makes the stop conditional on the version; `Idempotency-Key` works as
/// for a throw.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
        ("If-Match" = Option<String>, Header, nullable = false, pattern = "^(\\*|(W/)?\"?[0-9]{1,9}\"?)$", description = "Stop only if the game is at this version (its ETag)"),
        ("Idempotency-Key" = Option<String>, Header, nullable = false, pattern = "^[!-~]{1,255}$", description = "1 to 255 visible ASCII characters. A retry with the same key and request within 24 hours gets the first answer again, byte for byte (with `Idempotent-Replayed: true`); the same key with another request (a throw's included) is 422; a retry while the first is still being served is 409"),
    ),
    security((), ("token" = [])),
    responses(
        (status = 200, description = "The stopped game and its narrated result", body = StopView,
            headers(("ETag" = String, description = "The game's new version, quoted"))),
        (status = 400, description = "Malformed id or header", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid token (`Authorization: Bearer <host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A side's token (only the host's may stop a seated game), or another game's token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is already over, or a request with this Idempotency-Key is still being served", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match does not match the game's version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "This Idempotency-Key was used with another request", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is busy; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/stop")]
pub async fn stop_game(
    service: web::Data<Service>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = game_id(&id)?;
    let headers = req.headers();
    let cmd = StopCommand {
        expected_version: if_match(headers)?,
        token: bearer(headers),
        idempotency: idempotency_key(headers)?,
    };
    let answer = service.stop(id, cmd, stopped_answer).await?;
    let mut res = HttpResponse::Ok();
    res.insert_header((header::ETAG, answer.etag))
        .content_type("application/json");
    if answer.replayed {
        res.insert_header(("idempotent-replayed", "true"));
    }
    Ok(res.body(answer.body))
}

/// Delete a game: its setup and names, its moves, seats and idempotency
/// answers. Every read of it is 404 afterwards.
///
/// A seated game needs the host's token; a game without seats may be
/// deleted by anyone, as anyone may play it.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id (a UUID)", pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
    ),
    security((), ("token" = [])),
    responses(
        (status = 204, description = "The game is deleted"),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid token (`Authorization: Bearer <host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A side's token (only the host's may delete a seated game), or another game's token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (or it is already deleted)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store is busy; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/games/{id}")]
pub async fn delete_game(
    service: web::Data<Service>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = game_id(&id)?;
    service.delete(id, bearer(req.headers())).await?;
    Ok(HttpResponse::NoContent().finish())
}
