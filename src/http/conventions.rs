//! HTTP conventions applied below the handlers: CORS (reads open to every
//! origin, writes to the configured ones), `HEAD` wherever `GET` is, and
//! problem details for a request line or headers past the limits.

use actix_cors::Cors;
use actix_web::ResponseError;
use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{RequestHead, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode, header};
use actix_web::middleware::Next;

use super::MOUNTED_PREFIX;
use super::problem::ApiError;

/// Longest request target (path and query) served, in bytes: 414 past it.
pub const MAX_URI_BYTES: usize = 16 * 1024;
/// Most request headers served: 431 past it.
pub const MAX_HEADERS: usize = 64;
/// Largest total of header names and values served, in bytes: 431 past it.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// Which web origins a browser may use the API from.
#[derive(Clone, Debug, Default)]
pub struct CorsPolicy {
    /// Origins (`https://class.example`) whose pages may also write
    /// (`POST`, `DELETE`); `*` for any. Reads (`GET`, `HEAD`) are open to
    /// every origin.
    pub write_origins: Vec<String>,
}

impl CorsPolicy {
    fn may_write(&self, origin: &str) -> bool {
        self.write_origins
            .iter()
            .any(|o| o == "*" || o.trim_end_matches('/').eq_ignore_ascii_case(origin))
    }
}

/// Whether a request (or the one a preflight announces) only reads.
fn reads(head: &RequestHead) -> bool {
    let method = if head.method == Method::OPTIONS {
        head.headers
            .get(header::ACCESS_CONTROL_REQUEST_METHOD)
            .and_then(|m| m.to_str().ok())
            .and_then(|m| m.parse::<Method>().ok())
            .unwrap_or(Method::OPTIONS)
    } else {
        head.method.clone()
    };
    method == Method::GET || method == Method::HEAD
}

/// Whether `origin` is the server's own (the lesson page's): its host and
/// port are the request's `Host`.
fn same_origin(origin: &str, head: &RequestHead) -> bool {
    let host = head
        .headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    !host.is_empty() && authority.is_some_and(|a| a.eq_ignore_ascii_case(host))
}

/// The CORS middleware for `policy`: a write from another origin is
/// refused before it is served (403 problem), not merely hidden from the
/// page.
pub fn cors(policy: CorsPolicy) -> Cors {
    Cors::default()
        .allowed_origin_fn(move |origin, head| {
            reads(head)
                || origin
                    .to_str()
                    .is_ok_and(|o| same_origin(o, head) || policy.may_write(o))
        })
        .block_on_origin_mismatch(true)
        .allowed_methods(["GET", "HEAD", "POST", "DELETE"])
        .allowed_headers([
            header::ACCEPT,
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("idempotency-key"),
            header::HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::RETRY_AFTER,
            header::HeaderName::from_static("idempotent-replayed"),
        ])
        .max_age(600)
}

/// Serve `HEAD` as `GET` (the server sends the headers only), except on the
/// mounted MCP endpoint, which has its own methods. A streamed answer (the
/// live feed) is dropped at once rather than followed to its end.
pub async fn head_as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let head = req.method() == Method::HEAD && !req.path().starts_with(MOUNTED_PREFIX);
    if head {
        req.head_mut().method = Method::GET;
    }
    let res = next.call(req).await?;
    Ok(res.map_body(|_, body| {
        if head && matches!(body.size(), actix_web::body::BodySize::Stream) {
            BoxBody::new(())
        } else {
            body.boxed()
        }
    }))
}

/// The problem for a request refused below the handlers with `status`.
fn refused(status: StatusCode) -> ApiError {
    match status {
        StatusCode::URI_TOO_LONG => ApiError::new(
            status,
            "uri-too-long",
            "URI too long",
            format!("the request's path and query are limited to {MAX_URI_BYTES} bytes"),
        ),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => ApiError::new(
            status,
            "headers-too-large",
            "Request header fields too large",
            format!(
                "requests are limited to {MAX_HEADERS} headers and {MAX_HEADER_BYTES} bytes of them"
            ),
        ),
        _ => ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed-request",
            "Malformed request",
            "the request's head could not be read as HTTP/1.1",
        ),
    }
}

/// 414 for a request target past [`MAX_URI_BYTES`], 431 for more than
/// [`MAX_HEADERS`] headers or more than [`MAX_HEADER_BYTES`] of them, as
/// problem details, before any handler reads them.
pub async fn limits(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<BoxBody, BoxBody>>, actix_web::Error> {
    let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    let headers = req.headers();
    let header_bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    // A head the connection refused (see `wire`) comes as the server's own
    // stand-in request, which says with what.
    let refusal = if let Some(status) = headers
        .get(super::wire::REFUSAL_HEADER)
        .and_then(|v| super::wire::refusal(v.as_bytes()))
    {
        Some(refused(status))
    } else if target > MAX_URI_BYTES {
        Some(refused(StatusCode::URI_TOO_LONG))
    } else if headers.len() > MAX_HEADERS || header_bytes > MAX_HEADER_BYTES {
        Some(refused(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE))
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
