//! `POST /v1/join`: a pupil's join code redeemed for her seat (its game,
//! side and token), while the game is not finished. Guesses are limited
//! per client address (`rate`), so that a code cannot be found by trying.

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::JoinCode;
use crate::json;
use crate::problem::{ApiError, FieldError, Problem};
use crate::service::{Joined, Service};
use zohn_ahl_rules::Side;

/// Body of `POST /v1/join`: `code` is needed (an empty body, as any
/// body of this API may be, fits the schema and is a 422 naming it).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"code": "K7M2QX"}))]
pub struct JoinRequest {
    /// The seat's join code as typed: 6 characters of
    /// `23456789ABCDEFGHJKMNPQRSTVWXYZ`, any case; spaces and dashes are
    /// ignored.
    #[schema(schema_with = code_schema)]
    pub code: Option<String>,
}

/// The code's schema: the pattern [`JoinCode::parse`] takes, from the
/// code's own definition.
fn code_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(64))
        .pattern(Some(JoinCode::pattern()))
        .examples([serde_json::json!("K7M2QX")])
        .build()
}

/// The seat a join code opened.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "game_id": "4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e",
    "side": "A",
    "token": "9f2c4e0b7a1d3f5e8c6b4a29d0e1f3a5b7c9d2e4f6a8b0c1d3e5f7a9b2c4d6e8",
    "play": "/play/4b3c2d1e-0f9a-4b8c-9d7e-6f5a4b3c2d1e#seat=A.9f2c4e0b7a1d3f5e8c6b4a29d0e1f3a5b7c9d2e4f6a8b0c1d3e5f7a9b2c4d6e8"
}))]
pub struct JoinView {
    /// The game's id.
    pub game_id: String,
    /// The seat's side.
    pub side: Side,
    /// The seat's token now (64 hex digits): keep it secret.
    pub token: String,
    /// The seat's page (the lesson page with the seat in its fragment,
    /// which browsers never send to a server).
    pub play: String,
}

impl From<Joined> for JoinView {
    fn from(j: Joined) -> Self {
        let side = match j.side {
            Side::A => "A",
            Side::B => "B",
        };
        Self {
            game_id: j.game.to_string(),
            side: j.side,
            play: format!("/play/{}#seat={side}.{}", j.game, j.token.as_str()),
            token: j.token.as_str().to_owned(),
        }
    }
}

/// Open a seat by its join code.
///
/// Redeem a seat's join code (the short code a teacher's page shows beside
/// each side's link) for that seat: its game, side and token now. Only
/// while the game is not finished; a code that opens nothing is 404,
/// whether or not it ever did. Each client address may try a few codes a
/// minute (`--limit-joins-per-minute`).
#[utoipa::path(
    operation_id = "join_seat",
    tag = "games",
    request_body(content = Option<JoinRequest>, content_type = "application/json"),
    responses(
        (status = 200, description = "The seat the code opens", body = JoinView),
        (status = 400, description = "A code that is not 6 characters of the code's alphabet (naming `/code`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The code opens no seat of a game in play (`/problems/join-code-not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No code (`/problems/join-code-missing`, naming `/code`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address has tried its most codes this minute (`--limit-joins-per-minute`) (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
    )
)]
#[post("/v1/join")]
pub async fn join_seat(
    service: web::Data<Service>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: JoinRequest = json::parse(&req, &body, true)?;
    let Some(typed) = request.code else {
        return Err(ApiError::unprocessable(
            "join-code-missing",
            "No join code",
            "/code: a join code is needed to open a seat",
            vec![FieldError {
                pointer: "/code".to_owned(),
                detail: "a join code is needed to open a seat".to_owned(),
            }],
        ));
    };
    let code = JoinCode::parse(&typed).map_err(|e| ApiError::field("/code", e.to_string()))?;
    let joined = service.join(&code).await?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(JoinView::from(joined)))
}
