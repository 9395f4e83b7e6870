//! The HTTP layer's limits, all in this module: those the application
//! checks itself, each answered with problem details before any handler
//! reads the request, and those of actix-web's own HTTP/1.1 parser and
//! connection, which it enforces before the application sees a request,
//! answering with a bare status (no body) and closing the connection.
//!
//! | past | answer | by |
//! |---|---|---|
//! | [`BODY_LIMIT`] bytes of body | 413 problem | the application |
//! | [`ARCHIVE_BODY_LIMIT`] bytes of a class's archive (`POST /v1/class-imports`) | 413 problem | the application |
//! | [`MAX_URI_BYTES`] bytes of target (path and query) | 414 problem | the application |
//! | [`MAX_HEADERS`] headers, or [`MAX_HEADER_BYTES`] of them | 431 problem | the application |
//! | [`PARSER_MAX_URI_BYTES`] bytes of target | bare 400 | actix-web (the `http` crate) |
//! | a head that is not HTTP/1.1 | bare 400 | actix-web (`httparse`) |
//! | [`PARSER_MAX_HEADERS`] headers | bare 431 | actix-web (`httparse`) |
//! | [`PARSER_MAX_HEAD_BYTES`] bytes of head not yet whole | bare 431 | actix-web |
//! | [`REQUEST_HEAD_TIMEOUT`] without a whole first head | bare 408 | actix-web |
//!
//! The parser's limits are fixed by actix-web; they are written here so
//! that the documentation and the tests name them. A proxy in front of the
//! server is where to shape the answers to such requests (README, "Limits
//! below the handlers").

use std::time::Duration;

use actix_web::ResponseError;
use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;

use super::problem::ApiError;

/// Largest request body served, in bytes: 413 past it.
pub const BODY_LIMIT: usize = 16 * 1024;
/// Largest class archive imported, in bytes: 413 past it. A class's 40
/// games of the longest preset (`ludii`, a few thousand throws a game, about
/// 70 bytes a throw) fit.
pub const ARCHIVE_BODY_LIMIT: usize = 16 * 1024 * 1024;
/// Longest request target (path and query) served, in bytes: 414 past it.
pub const MAX_URI_BYTES: usize = 16 * 1024;
/// Most request headers served: 431 past it.
pub const MAX_HEADERS: usize = 64;
/// Largest total of header names and values served, in bytes: 431 past it.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// The longest request target actix-web parses (the `http` crate's `Uri`):
/// past it, a bare 400.
pub const PARSER_MAX_URI_BYTES: usize = 65_534;
/// The most headers actix-web's parser reads: past them, a bare 431.
pub const PARSER_MAX_HEADERS: usize = 96;
/// The bytes of an unfinished request head actix-web holds: past them, a
/// bare 431.
pub const PARSER_MAX_HEAD_BYTES: usize = 128 * 1024;

/// How long an idle connection is kept open between requests.
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);
/// How long a new connection may take to send its first request head: a
/// bare 408 after it.
pub const REQUEST_HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the server waits for a client to close after it has closed
/// its side.
pub const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// The problem for a request target past [`MAX_URI_BYTES`].
fn uri_too_long() -> ApiError {
    ApiError::new(
        StatusCode::URI_TOO_LONG,
        "uri-too-long",
        "URI too long",
        format!("the request's path and query are limited to {MAX_URI_BYTES} bytes"),
    )
}

/// The problem for headers past [`MAX_HEADERS`] or [`MAX_HEADER_BYTES`].
fn headers_too_large() -> ApiError {
    ApiError::new(
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        "headers-too-large",
        "Request header fields too large",
        format!(
            "requests are limited to {MAX_HEADERS} headers and {MAX_HEADER_BYTES} bytes of them"
        ),
    )
}

/// 414 for a request target past [`MAX_URI_BYTES`], 431 for more than
/// [`MAX_HEADERS`] headers or more than [`MAX_HEADER_BYTES`] of them, as
/// problem details, before any handler reads them.
pub async fn check(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<BoxBody, BoxBody>>, actix_web::Error> {
    let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    let headers = req.headers();
    let header_bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    let refusal = if target > MAX_URI_BYTES {
        Some(uri_too_long())
    } else if headers.len() > MAX_HEADERS || header_bytes > MAX_HEADER_BYTES {
        Some(headers_too_large())
    } else {
        None
    };
    match refusal {
        Some(error) => {
            let response = error.error_response();
            Ok(req.into_response(response).map_into_left_body())
        }
        None => Ok(next
            .call(req)
            .await?
            .map_body(|_, body| body.boxed())
            .map_into_right_body()),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        MAX_HEADER_BYTES, MAX_HEADERS, MAX_URI_BYTES, PARSER_MAX_HEAD_BYTES, PARSER_MAX_HEADERS,
        PARSER_MAX_URI_BYTES,
    };

    /// Each limit of the application's is within the parser's, so that a
    /// request past it reaches the application and gets a problem.
    #[test]
    fn the_applications_limits_are_within_the_parsers() {
        const {
            assert!(MAX_URI_BYTES < PARSER_MAX_URI_BYTES);
            assert!(MAX_HEADERS < PARSER_MAX_HEADERS);
            assert!(MAX_URI_BYTES + MAX_HEADER_BYTES < PARSER_MAX_HEAD_BYTES);
        }
    }

    /// The target's limit the parser has is the `http` crate's.
    #[test]
    fn the_parsers_target_limit_is_the_http_crates() {
        let at = format!("/{}", "x".repeat(PARSER_MAX_URI_BYTES - 1));
        assert!(at.parse::<actix_web::http::Uri>().is_ok());
        let past = format!("/{}", "x".repeat(PARSER_MAX_URI_BYTES));
        assert!(past.parse::<actix_web::http::Uri>().is_err());
    }
}
