//! `POST /v1/games/{id}/seats/{side}/token`: a side's seat given a new
//! token by the host; the old one is refused from then on.

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use std::future::{Ready, ready};
use utoipa::ToSchema;

use crate::extract::{Bearer, GameIdPath, path_segments};
use crate::problem::{ApiError, Problem, StoreUnavailable};
use crate::service::{Reissued, Service};
use zohn_ahl_rules::Side;

/// The `{side}` of a seat's path: `a` or `b` (either case); anything else
/// is a 400 problem pointing at `#/path/side`.
#[derive(Clone, Copy, Debug)]
pub struct SidePath(pub Side);

#[derive(Deserialize)]
struct SideSegment {
    side: String,
}

impl utoipa::IntoParams for SidePath {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![crate::extract::string_parameter(
            "side",
            utoipa::openapi::path::ParameterIn::Path,
            "The seat's side: `a` or `b` (either case)",
            true,
            Some("^[aAbB]$"),
        )]
    }
}

impl FromRequest for SidePath {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            path_segments::<SideSegment>(req).and_then(|segment| match segment.side.as_str() {
                "a" | "A" => Ok(Self(Side::A)),
                "b" | "B" => Ok(Self(Side::B)),
                _ => Err(ApiError::field(
                    "#/path/side",
                    "a seat's side is `a` or `b`".to_owned(),
                )),
            }),
        )
    }
}

/// A seat's new token, shown only in this answer.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "side": "A",
    "token": "9f2c4e0b7a1d3f5e8c6b4a29d0e1f3a5b7c9d2e4f6a8b0c1d3e5f7a9b2c4d6e8",
    "join_code": "K7M2QX"
}))]
pub struct SeatTokenView {
    /// The seat's side.
    pub side: Side,
    /// The seat's new token (64 hex digits): keep it secret. The old one is
    /// refused from now on.
    pub token: String,
    /// The seat's new join code (the old one opens nothing any more).
    pub join_code: Option<String>,
}

impl From<Reissued> for SeatTokenView {
    fn from(r: Reissued) -> Self {
        Self {
            side: r.side,
            token: r.token.as_str().to_owned(),
            join_code: r.join_code.map(|c| c.as_str().to_owned()),
        }
    }
}

/// Give a side's seat a new token.
///
/// The host gives a side's seat of a seated game a new token (a pupil's
/// link was lost or shared too widely): the answer carries it, once, and
/// the seat's old token is refused from then on, and its old join code
/// opens nothing (the answer has the new one). A seated game needs the
/// host's token, as a stop does.
#[utoipa::path(
    operation_id = "create_seat_token",
    tag = "games",
    params(GameIdPath, SidePath),
    security((), ("token" = [])),
    responses(
        (status = 200, description = "The seat's new token", body = SeatTokenView),
        (status = 400, description = "Malformed id or side", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seated game and no valid token (`Authorization: Bearer <host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A side's token (only the host's may give a seat a new token), or another game's token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has no seats (`/problems/game-not-seated`)", body = Problem, content_type = "application/problem+json"),
        StoreUnavailable,
    )
)]
#[post("/v1/games/{id}/seats/{side}/token")]
pub async fn create_seat_token(
    service: web::Data<Service>,
    GameIdPath(id): GameIdPath,
    SidePath(side): SidePath,
    Bearer(token): Bearer,
) -> Result<HttpResponse, ApiError> {
    let reissued = service.reissue(id, side, token).await?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(SeatTokenView::from(reissued)))
}
