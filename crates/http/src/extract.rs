//! Typed extractors for the inputs several operations read: each parses one
//! input into a validated type or refuses it with the API's problem and a
//! pointer to it (`docs/architecture.md`: http parses into validated types).

use std::convert::Infallible;
use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderMap};
use actix_web::{FromRequest, HttpRequest, web};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::problem::{ApiError, FieldError, echo};
use crate::domain::{ClassId, GameId, SeatToken, Version};
use crate::narration::{Audience, Detail};
use zohn_ahl_rules::Preset;

/// Named segments of the matched path, percent-decoded as actix's own
/// `web::Path` decodes them.
///
/// # Errors
/// 500 when the route has no such segment (a handler on the wrong route).
pub(super) fn path_segments<T: DeserializeOwned>(req: &HttpRequest) -> Result<T, ApiError> {
    req.match_info()
        .load::<T>()
        .map_err(|e| ApiError::internal(&e))
}

/// The `{id}` segment of a game's path.
#[derive(Deserialize)]
struct IdSegment {
    id: String,
}

/// The game id of a `/v1/games/{id}...` path; a malformed one is a 400
/// problem pointing at `#/path/id`.
#[derive(Clone, Copy, Debug)]
pub struct GameIdPath(pub GameId);

/// The pattern of a game id in the OpenAPI document: a UUID, any case.
pub const GAME_ID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// A string parameter as the extractor that reads it documents it: its
/// name, where it is, what it is, whether it is required and its pattern.
pub(crate) fn string_parameter(
    name: &str,
    at: utoipa::openapi::path::ParameterIn,
    description: &str,
    required: bool,
    pattern: Option<&str>,
) -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    utoipa::openapi::path::ParameterBuilder::new()
        .name(name)
        .parameter_in(at)
        .description(Some(description))
        .required(if required {
            utoipa::openapi::Required::True
        } else {
            utoipa::openapi::Required::False
        })
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(pattern),
        ))
        .build()
}

/// The extractor documents its own parameter: an operation lists
/// `GameIdPath` in its `params`.
impl utoipa::IntoParams for GameIdPath {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![string_parameter(
            "id",
            utoipa::openapi::path::ParameterIn::Path,
            "The game's id (a UUID)",
            true,
            Some(GAME_ID_PATTERN),
        )]
    }
}

impl FromRequest for GameIdPath {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_segments::<IdSegment>(req).and_then(|segment| {
            GameId::parse(&segment.id)
                .map(Self)
                .map_err(|e| ApiError::field("#/path/id", e.to_string()))
        }))
    }
}

/// The class id of a `/v1/classes/{id}...` path; a malformed one is a 400
/// problem pointing at `#/path/id`.
#[derive(Clone, Copy, Debug)]
pub struct ClassIdPath(pub ClassId);

impl utoipa::IntoParams for ClassIdPath {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![string_parameter(
            "id",
            utoipa::openapi::path::ParameterIn::Path,
            "The class's id (a UUID)",
            true,
            Some(GAME_ID_PATTERN),
        )]
    }
}

impl FromRequest for ClassIdPath {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_segments::<IdSegment>(req).and_then(|segment| {
            ClassId::parse(&segment.id)
                .map(Self)
                .map_err(|e| ApiError::field("#/path/id", e.to_string()))
        }))
    }
}

/// The version an `If-Match` header asks for: `None` when absent or `*`.
/// Otherwise it must be one of the game's ETags: a quoted version, `"3"`
/// (also accepted bare, `3`). A weak tag, `W/"3"`, is well formed but never
/// matches (If-Match compares strongly, RFC 9110 section 13.1.1): it asks
/// for [`Version::UNMATCHABLE`], so the write is refused with 412 and the
/// game's current version. Anything else is a 400 problem pointing at
/// `#/header/If-Match`.
#[derive(Clone, Copy, Debug)]
pub struct IfMatch(pub Option<Version>);

fn if_match(headers: &HeaderMap) -> Result<Option<Version>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    if text == "*" {
        return Ok(None);
    }
    if let Some(weak) = text.strip_prefix("W/") {
        return Version::from_etag(weak)
            .map(|_| Some(Version::UNMATCHABLE))
            .ok_or_else(|| {
                ApiError::field(
                    "#/header/If-Match",
                    "must be the game's ETag, a quoted version such as \"3\"",
                )
            });
    }
    Version::from_etag(text).map(Some).ok_or_else(|| {
        ApiError::field(
            "#/header/If-Match",
            "must be the game's ETag, a quoted version such as \"3\"",
        )
    })
}

/// The pattern of an `If-Match` header the server takes: `*`, or a
/// version of at most nine digits, quoted or bare, weak or strong.
pub const IF_MATCH_PATTERN: &str = "^(\\*|(W/)?\"?[0-9]{1,9}\"?)$";

/// The extractor documents its own header: an operation lists `IfMatch`
/// in its `params`.
impl utoipa::IntoParams for IfMatch {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![string_parameter(
            "If-Match",
            utoipa::openapi::path::ParameterIn::Header,
            "Act only if the game is at this version (its ETag; compared strongly, so a weak tag `W/\"3\"` never matches: 412)",
            false,
            Some(IF_MATCH_PATTERN),
        )]
    }
}

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(if_match(req.headers()).map(Self))
    }
}

/// The bearer token of an `Authorization` header, if any. A header that is
/// not `Bearer <token>` counts as a token no seat has (the empty string): a
/// seated game answers it with 401, an open game ignores it (as it ignores
/// any credentials).
#[derive(Clone, Debug)]
pub struct Bearer(pub Option<SeatToken>);

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?;
    let text = value.to_str().unwrap_or_default().trim();
    Some(match text.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
            token.trim().to_ascii_lowercase()
        }
        _ => String::new(),
    })
}

impl FromRequest for Bearer {
    type Error = Infallible;
    type Future = Ready<Result<Self, Infallible>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(Self(bearer(req.headers()).map(SeatToken::from_sent))))
    }
}

/// The `Idempotency-Key` header, if any: 1 to 255 visible ASCII characters;
/// anything else is a 400 problem pointing at `#/header/Idempotency-Key`.
#[derive(Clone, Debug)]
pub struct IdempotencyKey(pub Option<crate::domain::IdempotencyKey>);

fn idempotency_key(headers: &HeaderMap) -> Result<Option<crate::domain::IdempotencyKey>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    crate::domain::IdempotencyKey::parse(value.to_str().unwrap_or_default())
        .map(Some)
        .map_err(|e| ApiError::field("#/header/Idempotency-Key", e.to_string()))
}

/// The extractor documents its own header: an operation lists
/// `IdempotencyKey` in its `params`.
impl utoipa::IntoParams for IdempotencyKey {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![string_parameter(
            "Idempotency-Key",
            utoipa::openapi::path::ParameterIn::Header,
            &format!(
                "1 to {} visible ASCII characters; use an unguessable one, such as a UUID. A retry with the same key and request within 24 hours is served once: it gets the first answer again, byte for byte, every token included (with `Idempotent-Replayed: true`); the same key with another request is 422; a retry while the first is still being served is 409",
                crate::domain::IdempotencyKey::MAX_CHARS
            ),
            false,
            Some(&crate::domain::IdempotencyKey::pattern()),
        )]
    }
}

impl FromRequest for IdempotencyKey {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(idempotency_key(req.headers()).map(Self))
    }
}

/// The `audience` and `detail` query parameters alone; the operation's
/// other parameters are left to its own query type.
#[derive(Deserialize)]
struct NarrationParams {
    audience: Option<String>,
    detail: Option<String>,
}

/// How to narrate the moves read: the `audience` and `detail` query
/// parameters, each absent (the game's own) or one of its names; any other
/// value is a 400 problem pointing at `#/query/audience` or
/// `#/query/detail` (both, when both are wrong) and listing the names.
///
/// It reads only those two: an operation refuses parameters it does not
/// know with its own query type (`web::Query`), extracted before this.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NarrationQuery {
    /// The audience asked for.
    pub audience: Option<Audience>,
    /// The detail level asked for.
    pub detail: Option<Detail>,
}

/// One closed-set query parameter: absent, or one of `names`.
fn one_of<T>(
    name: &str,
    raw: Option<&str>,
    names: &[&str],
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, FieldError> {
    raw.map(|text| {
        parse(text).ok_or_else(|| FieldError {
            pointer: format!("#/query/{name}"),
            detail: format!(
                "must be one of: {} (got {:?})",
                names.join(", "),
                echo(text)
            ),
        })
    })
    .transpose()
}

fn narration_query(params: &NarrationParams) -> Result<NarrationQuery, ApiError> {
    let audience = one_of(
        "audience",
        params.audience.as_deref(),
        &Audience::ALL.map(Audience::key),
        Audience::parse,
    );
    let detail = one_of(
        "detail",
        params.detail.as_deref(),
        &Detail::ALL.map(Detail::key),
        Detail::parse,
    );
    match (audience, detail) {
        (Ok(audience), Ok(detail)) => Ok(NarrationQuery { audience, detail }),
        (audience, detail) => {
            let faults: Vec<FieldError> = [audience.err(), detail.err()]
                .into_iter()
                .flatten()
                .collect();
            let summary = faults
                .iter()
                .map(|f| format!("{}: {}", f.pointer, f.detail))
                .collect::<Vec<_>>()
                .join("; ");
            Err(ApiError::invalid(summary, faults))
        }
    }
}

impl FromRequest for NarrationQuery {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        // Through `web::Query`, so that a malformed query string is refused
        // with the application's query problem, as for every operation.
        let parsed = web::Query::<NarrationParams>::from_request(req, payload).into_inner();
        ready(parsed.and_then(|query| narration_query(&query).map_err(Into::into)))
    }
}

#[cfg(test)]
mod tests {
    use actix_web::FromRequest;
    use actix_web::test::TestRequest;

    use super::*;

    fn pointer(e: &ApiError) -> &str {
        &e.problem().errors[0].pointer
    }

    #[actix_web::test]
    async fn a_non_bearer_authorization_counts_as_a_token_no_seat_has() {
        let token = |header: Option<&'static str>| {
            let mut req = TestRequest::default();
            if let Some(h) = header {
                req = req.insert_header((header::AUTHORIZATION, h));
            }
            bearer(req.to_http_request().headers())
        };
        assert_eq!(token(None), None);
        assert_eq!(token(Some("Bearer AbC ")), Some("abc".to_owned()));
        assert_eq!(token(Some("bearer abc")), Some("abc".to_owned()));
        assert_eq!(token(Some("Basic dXNlcjpwYXNz")), Some(String::new()));
        assert_eq!(token(Some("abc")), Some(String::new()));
    }

    #[actix_web::test]
    async fn an_idempotency_key_of_256_characters_points_at_its_header() {
        let key = |value: String| {
            let req = TestRequest::default()
                .insert_header(("Idempotency-Key", value))
                .to_http_request();
            idempotency_key(req.headers())
        };
        let longest = "k".repeat(crate::domain::IdempotencyKey::MAX_CHARS);
        assert_eq!(
            key(longest.clone())
                .ok()
                .flatten()
                .map(|k| k.as_str().to_owned()),
            Some(longest)
        );
        for bad in [
            "k".repeat(crate::domain::IdempotencyKey::MAX_CHARS + 1),
            "a b".to_owned(),
        ] {
            let e = key(bad).expect_err("refused");
            assert_eq!(pointer(&e), "#/header/Idempotency-Key");
        }
    }

    #[actix_web::test]
    async fn if_match_takes_strong_and_bare_etags_never_matches_a_weak_one_and_refuses_others() {
        let version = |value: &'static str| {
            let req = TestRequest::default()
                .insert_header((header::IF_MATCH, value))
                .to_http_request();
            if_match(req.headers())
        };
        for etag in ["\"3\"", "3"] {
            assert_eq!(version(etag).ok(), Some(Some(Version::new(3))), "{etag}");
        }
        assert_eq!(version("W/\"3\"").ok(), Some(Some(Version::UNMATCHABLE)));
        assert_eq!(version("*").ok(), Some(None));
        for bad in ["\"x\"", "\"\"", "\"1234567890\"", "W/\"x\"", "W/W/\"3\""] {
            assert_eq!(pointer(&version(bad).expect_err(bad)), "#/header/If-Match");
        }
    }

    #[actix_web::test]
    async fn a_malformed_game_id_points_at_the_path() {
        let req = TestRequest::default()
            .param("id", "not-a-uuid")
            .to_http_request();
        let e = GameIdPath::extract(&req).await.expect_err("refused");
        assert_eq!(pointer(&e), "#/path/id");
        let id = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79";
        let req = TestRequest::default().param("id", id).to_http_request();
        let GameIdPath(parsed) = GameIdPath::extract(&req).await.expect("a UUID");
        assert_eq!(parsed.to_string(), id);
    }

    #[actix_web::test]
    async fn the_narration_query_reads_only_audience_and_detail() {
        let query = |uri: &str| {
            let req = TestRequest::get().uri(uri).to_http_request();
            NarrationQuery::extract(&req).into_inner()
        };
        assert_eq!(query("/").ok(), Some(NarrationQuery::default()));
        assert_eq!(
            query("/?limit=5&audience=scholar&detail=brief").ok(),
            Some(NarrationQuery {
                audience: Some(Audience::Scholar),
                detail: Some(Detail::Brief),
            })
        );
        let e = query("/?audience=Young").expect_err("refused");
        let api = e.as_error::<ApiError>().expect("an API problem");
        assert_eq!(pointer(api), "#/query/audience");
        let e = query("/?detail=Full").expect_err("refused");
        let api = e.as_error::<ApiError>().expect("an API problem");
        assert_eq!(pointer(api), "#/query/detail");
        assert!(
            api.problem().errors[0]
                .detail
                .contains("lesson, brief, full")
        );
        let e = query("/?audience=x&detail=y").expect_err("refused");
        let api = e.as_error::<ApiError>().expect("an API problem");
        let pointers: Vec<&str> = api
            .problem()
            .errors
            .iter()
            .map(|f| f.pointer.as_str())
            .collect();
        assert_eq!(pointers, ["#/query/audience", "#/query/detail"]);
    }
}

/// The `{n}` segment of a move's path.
#[derive(Deserialize)]
struct MoveSegment {
    n: String,
}

/// Highest move number a path may name (the documented `maximum`).
pub const MAX_MOVE: u32 = 999_999_999;

/// The move number of a `/v1/games/{id}/moves/{n}...` path, from 1 to
/// [`MAX_MOVE`]; anything else is a 400 problem pointing at `#/path/n`.
#[derive(Clone, Copy, Debug)]
pub struct MoveNumber(pub u32);

impl FromRequest for MoveNumber {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(path_segments::<MoveSegment>(req).and_then(|segment| {
            segment
                .n
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_MOVE).contains(n))
                .map(Self)
                .ok_or_else(|| {
                    ApiError::field(
                        "#/path/n",
                        format!("must be a move number, an integer from 1 to {MAX_MOVE}"),
                    )
                })
        }))
    }
}

/// The preset named in a path, or a 404 problem listing the presets.
///
/// # Errors
/// 404 `preset-not-found` for any other name.
fn preset_from_path(name: &str) -> Result<Preset, ApiError> {
    name.parse::<Preset>().map_err(|_| {
        ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "preset-not-found",
            "Preset not found",
            format!(
                "no preset is called that; the presets are: {}",
                <Preset as strum::VariantNames>::VARIANTS.join(", ")
            ),
        )
    })
}

/// The `{preset}` segment of a ruleset's path.
#[derive(Deserialize)]
struct PresetSegment {
    preset: String,
}

/// The preset of a `/v1/rulesets/{preset}...` path; any other name is a 404
/// problem listing the presets.
#[derive(Clone, Copy, Debug)]
pub struct PresetPath(pub Preset);

impl FromRequest for PresetPath {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            path_segments::<PresetSegment>(req)
                .and_then(|segment| preset_from_path(&segment.preset).map(Self)),
        )
    }
}
