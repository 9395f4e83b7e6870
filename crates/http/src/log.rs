//! The request log: one line per request, when its answer's head is
//! ready (`answered`, with the span's fields: method, route, status,
//! request id), carrying `duration_ms`, the milliseconds from the
//! request's head to its answer's head as a number (the span's close event
//! said it as a string, "1.23ms", which a log shipper cannot sum). A refusal
//! (4xx) is the client's affair: its line carries the problem's words and
//! nothing more (an operator once got a warning with a debug dump for every
//! wrong token). A server fault (5xx) is an error event of its own.

use std::time::Instant;

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RootSpanBuilder};

/// The root span of each request (tracing-actix-web's fields), ended as
/// above.
pub struct RequestLog;

/// When the request's head came, kept in its extensions for its line's
/// `duration_ms`.
#[derive(Clone, Copy)]
struct Started(Instant);

impl RootSpanBuilder for RequestLog {
    fn on_request_start(request: &ServiceRequest) -> Span {
        request.extensions_mut().insert(Started(Instant::now()));
        DefaultRootSpanBuilder::on_request_start(request)
    }

    fn on_request_end<B: MessageBody>(
        span: Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        // A middleware's error (none of this application's answers with
        // one: each makes an answer) has no request left to time.
        let (status, error, started) = match outcome {
            Ok(response) => (
                response.status(),
                response.response().error().map(ToString::to_string),
                response.request().extensions().get::<Started>().copied(),
            ),
            Err(error) => (
                error.as_response_error().status_code(),
                Some(error.to_string()),
                None,
            ),
        };
        span.record("http.status_code", i32::from(status.as_u16()));
        let failed = status.is_server_error() && error.is_some();
        span.record("otel.status_code", if failed { "ERROR" } else { "OK" });
        if let Some(message) = &error {
            span.record("exception.message", tracing::field::display(message));
        }
        span.in_scope(|| {
            if failed && let Some(message) = &error {
                tracing::error!(status = status.as_u16(), "{message}");
            }
            let duration_ms = started.map(|Started(at)| at.elapsed().as_secs_f64() * 1000.0);
            tracing::info!(duration_ms, "answered");
        });
    }
}

/// The answer's `X-Request-Id`: the request's id in the log (the span's
/// `request_id`), so that a client reporting a failure names the log line
/// an operator looks for.
pub(crate) async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .extensions()
        .get::<tracing_actix_web::RequestId>()
        .copied();
    let mut res = next.call(req).await?;
    if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id.to_string()).ok()) {
        res.headers_mut()
            .insert(HeaderName::from_static("x-request-id"), value);
    }
    Ok(res)
}
