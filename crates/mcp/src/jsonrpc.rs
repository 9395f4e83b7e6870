//! The JSON-RPC checks the SDK leaves to the transport, made alike on both:
//! a message that is not JSON is answered -32700 (parse error), one that
//! is no JSON-RPC message -32600 (invalid request), and `tools/call`
//! without a tool's name -32602 (invalid params). Without them the SDK
//! answered malformed JSON with an HTTP 415 (and nothing at all on stdio)
//! and a nameless `tools/call` with -32601 (method not found).

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, web};
use serde_json::{Map, Value, json};

/// The message is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// The message is JSON but no JSON-RPC request, notification or response.
pub const INVALID_REQUEST: i64 = -32600;
/// A request whose parameters the method cannot take.
pub const INVALID_PARAMS: i64 = -32602;

/// A JSON-RPC error response.
fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// What is wrong with a message a client sent, as the JSON-RPC error
/// response to send back; `None` when the SDK may take it.
#[must_use]
pub fn screen(message: &[u8]) -> Option<Value> {
    let value: Value = match serde_json::from_slice(message) {
        Ok(v) => v,
        Err(e) => {
            return Some(error(
                Value::Null,
                PARSE_ERROR,
                format!("Parse error: the message is not JSON ({e})"),
            ));
        }
    };
    match value {
        Value::Object(m) => screen_object(&m),
        Value::Array(_) => Some(error(
            Value::Null,
            INVALID_REQUEST,
            "Invalid Request: send one JSON-RPC message at a time, not a batch",
        )),
        _ => Some(error(
            Value::Null,
            INVALID_REQUEST,
            "Invalid Request: a JSON-RPC message is a JSON object",
        )),
    }
}

fn screen_object(m: &Map<String, Value>) -> Option<Value> {
    let id = match m.get("id") {
        None => Value::Null,
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        Some(_) => {
            return Some(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: `id` must be a string or a number",
            ));
        }
    };
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(error(
            id,
            INVALID_REQUEST,
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        ));
    }
    match m.get("method") {
        Some(Value::String(method)) => {
            let named = m
                .get("params")
                .and_then(|p| p.get("name"))
                .is_some_and(Value::is_string);
            (method == "tools/call" && !named).then(|| {
                error(
                    id,
                    INVALID_PARAMS,
                    "Invalid params: tools/call needs `params.name`, the name of a tool (tools/list lists them)",
                )
            })
        }
        Some(_) => Some(error(
            id,
            INVALID_REQUEST,
            "Invalid Request: `method` must be a string",
        )),
        None if m.contains_key("result") || m.contains_key("error") => None,
        None => Some(error(
            id,
            INVALID_REQUEST,
            "Invalid Request: a request or notification names its `method`",
        )),
    }
}

/// The HTTP status a refused message is answered with: 400 for a message
/// the server cannot take at all (the transport's rule), 200 for a
/// request answered with its JSON-RPC error.
fn status_of(answer: &Value) -> StatusCode {
    if answer["error"]["code"] == INVALID_PARAMS {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    }
}

/// The Streamable HTTP endpoint's check of every `POST` of JSON: a
/// message the SDK would mistake is answered here with its JSON-RPC error (as
/// `application/json`); any other goes on, its body as sent.
///
/// # Errors
/// The body could not be read (too large: 413).
pub async fn screen_posts(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    // Only JSON is read here: the SDK answers another media type (415).
    let json = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if req.method() != Method::POST || !json {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let body = req.extract::<web::Bytes>().await?;
    if let Some(answer) = screen(&body) {
        let res = HttpResponse::build(status_of(&answer)).json(answer);
        return Ok(req.into_response(res));
    }
    req.set_payload(actix_web::dev::Payload::from(body));
    Ok(next.call(req).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn code(message: &str) -> Option<i64> {
        screen(message.as_bytes()).map(|a| a["error"]["code"].as_i64().unwrap())
    }

    #[test]
    fn each_kind_of_bad_message_gets_its_code_and_good_ones_pass() {
        assert_eq!(code("{\"jsonrpc\":"), Some(PARSE_ERROR));
        assert_eq!(code("[]"), Some(INVALID_REQUEST));
        assert_eq!(code("3"), Some(INVALID_REQUEST));
        assert_eq!(
            code(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            Some(INVALID_REQUEST)
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#),
            Some(INVALID_REQUEST)
        );
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":1}"#), Some(INVALID_REQUEST));
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#),
            Some(INVALID_PARAMS)
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#),
            Some(INVALID_PARAMS)
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"throw"}}"#),
            None
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            None
        );
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#), None);
        let named = screen(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#).unwrap();
        assert_eq!(named["id"], 7);
    }
}
