//! The MCP endpoint's refusals as problem details. The endpoint mounted at
//! [`MOUNTED_PREFIX`](crate::MOUNTED_PREFIX) answers a message in JSON-RPC
//! (`application/json`, or an event stream), its errors included, and
//! those answers pass untouched; what its transport (the SDK's Streamable
//! HTTP) refuses before it reads a message came as plain text, and becomes
//! problem details here, its status kept:
//!
//! | Status | `type` | When |
//! |---|---|---|
//! | 400 | `/problems/mcp-session-required` | a request other than `initialize` without `Mcp-Session-Id` |
//! | 404 | `/problems/mcp-session-not-found` | an `Mcp-Session-Id` that names no session (it ended, idle, or never was) |
//! | 400 | `/problems/mcp-protocol-version-unsupported` | an `MCP-Protocol-Version` the server does not speak |
//! | 403 | `/problems/mcp-host-refused` | a `Host` not among `--mcp-allowed-hosts` |
//! | 403 | `/problems/cors-refused` | a page of an origin that may not use the endpoint |
//! | 406 | `/problems/mcp-not-acceptable` | a POST whose `Accept` lacks `application/json` or `text/event-stream`; a GET's, `text/event-stream` |
//! | 400 | `/problems/mcp-bad-request` | another request the transport cannot read (a malformed `Host`) |
//!
//! and as the API's: 405 `method-not-allowed` (with `Allow`), 413
//! `payload-too-large`, 415 `unsupported-media-type`, 500 `internal` (the
//! cause logged, never told).

use actix_web::body::{MessageBody, to_bytes_limited};
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderMap};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, ResponseError};

use crate::json;
use crate::problem::{ApiError, PROBLEM_JSON, echo};

/// Most bytes of a refusal's text read to tell which it is.
const READ_LIMIT: usize = 1024;

/// The session header of the transport.
const SESSION_ID: &str = "mcp-session-id";
/// The protocol version header of the transport.
const PROTOCOL_VERSION: &str = "mcp-protocol-version";

/// An error answer of the MCP endpoint: a JSON-RPC message or a problem as
/// it is, anything else (the transport's plain text) as problem details.
pub(crate) fn to_problem<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    if is_protocol_answer(res.headers()) {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    // A refused origin: 403, as the transport's specification says, not the
    // CORS middleware's 400.
    let refused_origin = res
        .response()
        .error()
        .is_some_and(|e| e.as_error::<actix_cors::CorsError>().is_some());
    if refused_origin {
        let (req, _) = res.into_parts();
        let error = ApiError::new(
            StatusCode::FORBIDDEN,
            "cors-refused",
            "Cross-origin request refused",
            "this Origin may not use the MCP endpoint: loopback pages, the server's own and those of --cors-origins may",
        );
        return Ok(ErrorHandlerResponse::Response(
            ServiceResponse::new(req, error.error_response()).map_into_right_body(),
        ));
    }
    let status = res.status();
    let (req, res) = res.into_parts();
    let allow = res.headers().get(header::ALLOW).cloned();
    let body = res.into_body();
    Ok(ErrorHandlerResponse::Future(Box::pin(async move {
        let text = match to_bytes_limited(body, READ_LIMIT).await {
            Ok(Ok(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
            _ => String::new(),
        };
        let allow = allow
            .as_ref()
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(',')
                    .map(|m| m.trim().to_owned())
                    .filter(|m| !m.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let error = problem_of(status, &text, &req, allow);
        Ok(ServiceResponse::new(req, error.error_response()).map_into_right_body())
    })))
}

/// Whether an answer is the protocol's own (a JSON-RPC message, an event
/// stream) or already a problem.
fn is_protocol_answer(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::trim)
        .is_some_and(|essence| {
            ["application/json", "text/event-stream", PROBLEM_JSON]
                .iter()
                .any(|t| essence.eq_ignore_ascii_case(t))
        })
}

/// A header of the request as text, cut as a refusal echoes it.
fn header_of(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(echo)
}

/// The problem for the transport's refusal of `status` that said `text`.
fn problem_of(status: StatusCode, text: &str, req: &HttpRequest, allow: Vec<String>) -> ApiError {
    match status.as_u16() {
        400 if text.contains("Session ID is required") => ApiError::new(
            status,
            "mcp-session-required",
            "Session required",
            "this request needs the `Mcp-Session-Id` header that the answer to `initialize` gave; \
             a session starts with an `initialize` request, sent without it",
        ),
        400 if text.contains("MCP-Protocol-Version") => ApiError::new(
            status,
            "mcp-protocol-version-unsupported",
            "Unsupported protocol version",
            match header_of(req, PROTOCOL_VERSION) {
                Some(sent) => format!(
                    "`MCP-Protocol-Version: {sent}` names no version this server speaks; send the \
                     `protocolVersion` the answer to `initialize` gave"
                ),
                None => "`MCP-Protocol-Version` names no version this server speaks; send the \
                         `protocolVersion` the answer to `initialize` gave"
                    .to_owned(),
            },
        ),
        404 if text.contains("Session not found") => ApiError::new(
            status,
            "mcp-session-not-found",
            "Session not found",
            format!(
                "no MCP session has the id {}: it ended (after --mcp-session-idle without a \
                 request) or never began; start a new session with `initialize`, sent without \
                 `Mcp-Session-Id`",
                header_of(req, SESSION_ID).unwrap_or_default()
            ),
        ),
        403 if text.contains("Host") => ApiError::new(
            status,
            "mcp-host-refused",
            "Host not allowed",
            format!(
                "the MCP endpoint answers only the Host values it is given (--mcp-allowed-hosts; \
                 loopback by default), not {}",
                header_of(req, "host").unwrap_or_default()
            ),
        ),
        406 if req.method() == Method::GET => ApiError::new(
            status,
            "mcp-not-acceptable",
            "Not acceptable",
            "a session's stream is text/event-stream: send `Accept: text/event-stream`",
        ),
        406 => ApiError::new(
            status,
            "mcp-not-acceptable",
            "Not acceptable",
            "the MCP endpoint answers a POST as application/json or text/event-stream: send \
             `Accept: application/json, text/event-stream`",
        ),
        404 => ApiError::no_route(req.path()),
        405 => ApiError::method_not_allowed(req.method().as_str(), allow),
        413 => json::too_large(),
        415 => ApiError::new(
            status,
            "unsupported-media-type",
            "Unsupported media type",
            "send the JSON-RPC message as application/json",
        ),
        400 => ApiError::new(
            status,
            "mcp-bad-request",
            "Bad request",
            "the MCP endpoint could not read the request as sent (its Host header, or its framing)",
        ),
        _ if status.is_server_error() => {
            ApiError::internal(&format!("the MCP transport answered {status}: {text}"))
        }
        _ => ApiError::new(
            status,
            "http-error",
            status.canonical_reason().unwrap_or("Error"),
            "the request could not be served as sent",
        ),
    }
}

/// A session closed (`DELETE` on the endpoint, which the SDK's transport
/// answers 202) is answered 204 No Content, as the MCP Streamable HTTP
/// transport's clients expect of a session's termination (the Python SDK
/// 2.3.0 takes only 200 or 204, and logs any other as a failure).
pub(crate) async fn session_closed(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody + 'static>, actix_web::Error> {
    let delete = req.method() == Method::DELETE && req.path().starts_with(crate::MOUNTED_PREFIX);
    let mut res = next.call(req).await?;
    if delete && res.status() == StatusCode::ACCEPTED {
        *res.response_mut().status_mut() = StatusCode::NO_CONTENT;
    }
    Ok(res)
}
