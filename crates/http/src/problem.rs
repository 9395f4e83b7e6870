//! RFC 9457 problem details: every error the API gives.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::service::{Refusal, RefusalKind, ServiceError};

/// The media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

pub use crate::service::{MAX_ECHO_CHARS, echo};

/// A message that quotes sent values (between `"` or `` ` ``, as serde's
/// messages do) with each quoted value cut by [`echo`].
#[must_use]
pub fn clip_echoes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let Some(close) = rest.find(quote) else {
            out.push_str(&echo(rest));
            return out;
        };
        out.push_str(&echo(&rest[..close]));
        out.push(quote);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// One invalid input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) into the request body, or `#/path/NAME` /
    /// `#/query/NAME` / `#/header/NAME` for other inputs.
    #[schema(example = "/ruleset/options/counters_per_side")]
    pub pointer: String,
    /// What is wrong and what is allowed.
    #[schema(example = "must be an integer from 1 to 15")]
    pub detail: String,
}

/// An RFC 9457 problem details object (`application/problem+json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "/problems/game-not-found",
    "title": "Game not found",
    "status": 404,
    "detail": "no game has the id 0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79",
    "errors": [],
    "current_version": null,
    "allowed": []
}))]
pub struct Problem {
    /// A URI reference naming the kind of problem (see the README's API
    /// conventions).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong this time, for a person.
    pub detail: String,
    /// The invalid inputs, each with a JSON pointer (`[]` when the problem
    /// is not about an input).
    pub errors: Vec<FieldError>,
    /// For a conflict: the game's current version (`null` otherwise).
    pub current_version: Option<u32>,
    /// Allowed methods, on 405 (`[]` otherwise).
    pub allowed: Vec<String>,
}

/// The type of the problem an answer carries (`/problems/game-over`), kept
/// in the answer's extensions by [`ApiError`]'s answer, the one place every
/// problem is made: what the metrics label a 4xx or 5xx with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemType(pub String);

/// An error the API answers with.
#[derive(Debug, thiserror::Error)]
#[error("{}", .problem.detail)]
pub struct ApiError {
    problem: Box<Problem>,
    retry_after: Option<u32>,
    www_authenticate: bool,
}

impl ApiError {
    /// A problem of `status` whose type is `/problems/{slug}`.
    #[must_use]
    pub fn new(status: StatusCode, slug: &str, title: &str, detail: impl Into<String>) -> Self {
        Self {
            problem: Box::new(Problem {
                kind: format!("/problems/{slug}"),
                title: title.to_owned(),
                status: status.as_u16(),
                detail: detail.into(),
                errors: Vec::new(),
                current_version: None,
                allowed: Vec::new(),
            }),
            retry_after: None,
            www_authenticate: false,
        }
    }

    /// 400 for invalid input, listing each field at fault.
    #[must_use]
    pub fn invalid(detail: impl Into<String>, errors: Vec<FieldError>) -> Self {
        let mut e = Self::new(
            StatusCode::BAD_REQUEST,
            "invalid-request",
            "Invalid request",
            detail,
        );
        e.problem.errors = errors;
        e
    }

    /// 400 for one invalid field.
    #[must_use]
    pub fn field(pointer: &str, detail: impl Into<String>) -> Self {
        let detail = detail.into();
        Self::invalid(
            format!("{pointer}: {detail}"),
            vec![FieldError {
                pointer: pointer.to_owned(),
                detail,
            }],
        )
    }

    /// 422 for a request that fits the schema but cannot be served as
    /// sent, listing each field at fault.
    #[must_use]
    pub fn unprocessable(
        slug: &str,
        title: &str,
        detail: impl Into<String>,
        errors: Vec<FieldError>,
    ) -> Self {
        let mut e = Self::new(StatusCode::UNPROCESSABLE_ENTITY, slug, title, detail);
        e.problem.errors = errors;
        e
    }

    /// 404 for a path that names no route.
    #[must_use]
    pub fn no_route(path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "Not found",
            format!(
                "nothing is served at {}; see /docs/ for the API",
                echo(path)
            ),
        )
    }

    /// 405 with the allowed methods.
    #[must_use]
    pub fn method_not_allowed(method: &str, allowed: Vec<String>) -> Self {
        let mut e = Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "Method not allowed",
            format!(
                "{} is not allowed here; allowed: {}",
                echo(method),
                allowed.join(", ")
            ),
        );
        e.problem.allowed = allowed;
        e
    }

    /// 500 with nothing internal in it; the cause is logged.
    #[must_use]
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal error",
            "the server failed to answer; the failure is logged",
        )
    }

    /// The same error with a `Retry-After` header of `secs` seconds.
    #[must_use]
    pub fn with_retry_after(mut self, secs: u32) -> Self {
        self.retry_after = Some(secs);
        self
    }

    /// The seconds to wait, when the problem says.
    #[must_use]
    pub fn retry_after(&self) -> Option<u32> {
        self.retry_after
    }

    /// The problem body.
    #[must_use]
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        if let Some(secs) = self.retry_after {
            res.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        if self.www_authenticate {
            res.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if !self.problem.allowed.is_empty() {
            res.insert_header((header::ALLOW, self.problem.allowed.join(", ")));
        }
        res.extensions_mut()
            .insert(ProblemType(self.problem.kind.clone()));
        let body = serde_json::to_vec(&*self.problem).unwrap_or_default();
        res.body(body)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        Refusal::from(e).into()
    }
}

/// The service's refusal as problem details: its kind as the status code,
/// its values at fault as `errors`; a missing seat token is asked for in the
/// `Authorization` header.
impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        let status = match r.kind {
            RefusalKind::Invalid => StatusCode::BAD_REQUEST,
            RefusalKind::NotFound => StatusCode::NOT_FOUND,
            RefusalKind::Conflict => StatusCode::CONFLICT,
            RefusalKind::VersionMismatch => StatusCode::PRECONDITION_FAILED,
            RefusalKind::Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
            RefusalKind::Unauthorized => StatusCode::UNAUTHORIZED,
            RefusalKind::Forbidden => StatusCode::FORBIDDEN,
            RefusalKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            RefusalKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let unauthorized = r.kind == RefusalKind::Unauthorized;
        let detail = if unauthorized {
            format!("{}, as `Authorization: Bearer <token>`", r.detail)
        } else {
            r.detail
        };
        let mut err = Self::new(status, r.slug, r.title, detail);
        err.problem.errors = r
            .faults
            .into_iter()
            .map(|f| FieldError {
                pointer: f.pointer,
                detail: f.detail,
            })
            .collect();
        err.problem.current_version = r.current_version;
        err.retry_after = r.retry_after;
        err.www_authenticate = unauthorized;
        err
    }
}

/// What a client waits for before trying again: every `Retry-After`
/// header the document lists says this.
pub(crate) const RETRY_AFTER: &str = "Seconds to wait before trying again";

/// The answer every operation that writes may give when the store cannot
/// take it now (`ServiceError`'s busy and unreachable store, mapped once
/// in [`ApiError`]): 503 problem details with `Retry-After`, documented
/// once here for all of them (`responses(StoreUnavailable)`).
pub struct StoreUnavailable;

impl utoipa::IntoResponses for StoreUnavailable {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        let answers = serde_json::json!({
            "503": {
                "description": "The store is busy (`/problems/busy`: another request holds what this one needs), or the database cannot be reached (`/problems/store-unavailable`: its server is down or unreachable); retry after `Retry-After`",
                "headers": {
                    "Retry-After": {
                        "schema": {"type": "integer", "format": "int32", "minimum": 0},
                        "description": RETRY_AFTER,
                    },
                },
                "content": {
                    "application/problem+json": {
                        "schema": {"$ref": "#/components/schemas/Problem"},
                    },
                },
            },
        });
        serde_json::from_value(answers).unwrap_or_default()
    }
}
