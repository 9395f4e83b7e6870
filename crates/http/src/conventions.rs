//! HTTP conventions applied below the handlers: CORS (reads open to every
//! origin, writes to the configured ones) and `HEAD` wherever `GET` is.
//! (The limits on requests are in `limits`.)

use actix_cors::Cors;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{RequestHead, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;

use super::MOUNTED_PREFIX;

/// The MCP endpoint's session header, which a page sends and reads.
const MCP_SESSION_ID: &str = "mcp-session-id";
/// The MCP endpoint's protocol version header, which a page sends and
/// reads.
const MCP_PROTOCOL_VERSION: &str = "mcp-protocol-version";

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

/// Whether `origin` is a page served from this machine: `localhost`,
/// `127.0.0.1` or `[::1]`, on any port.
fn loopback(origin: &str) -> bool {
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "::1"
}

/// The CORS middleware for `policy`: a write from another origin is
/// refused before it is served (403 problem), not merely hidden from the
/// page. The mounted MCP endpoint takes no request (reads included: its
/// `GET` is a session's stream) from an origin other than the server's
/// own, a loopback one or one of `policy`'s.
pub fn cors(policy: CorsPolicy) -> Cors {
    Cors::default()
        .allowed_origin_fn(move |origin, head| {
            let origin = origin.to_str();
            if head.uri.path().starts_with(MOUNTED_PREFIX) {
                return origin
                    .is_ok_and(|o| same_origin(o, head) || loopback(o) || policy.may_write(o));
            }
            reads(head) || origin.is_ok_and(|o| same_origin(o, head) || policy.may_write(o))
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
            header::HeaderName::from_static(MCP_SESSION_ID),
            header::HeaderName::from_static(MCP_PROTOCOL_VERSION),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::RETRY_AFTER,
            header::HeaderName::from_static("idempotent-replayed"),
            header::HeaderName::from_static(MCP_SESSION_ID),
            header::HeaderName::from_static(MCP_PROTOCOL_VERSION),
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
