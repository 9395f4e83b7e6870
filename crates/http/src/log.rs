//! The request log: one line per request, when its span closes, with the
//! answer's status. A refusal (4xx) is the client's affair: its line
//! carries the problem's words and nothing more (an operator once got a
//! warning with a debug dump for every wrong token). A server fault (5xx)
//! is an error event of its own.

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

impl RootSpanBuilder for RequestLog {
    fn on_request_start(request: &ServiceRequest) -> Span {
        DefaultRootSpanBuilder::on_request_start(request)
    }

    fn on_request_end<B: MessageBody>(
        span: Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        let (status, error) = match outcome {
            Ok(response) => (
                response.status(),
                response.response().error().map(ToString::to_string),
            ),
            Err(error) => (
                error.as_response_error().status_code(),
                Some(error.to_string()),
            ),
        };
        span.record("http.status_code", i32::from(status.as_u16()));
        let Some(message) = error else {
            span.record("otel.status_code", "OK");
            return;
        };
        span.record("exception.message", tracing::field::display(&message));
        if status.is_server_error() {
            span.record("otel.status_code", "ERROR");
            span.in_scope(|| tracing::error!(status = status.as_u16(), "{message}"));
        } else {
            span.record("otel.status_code", "OK");
        }
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
