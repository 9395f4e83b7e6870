//! Reading JSON request bodies: content type, size limit, unknown fields and
//! type errors all become problem details with a JSON pointer, in words
//! that never name the server's internal types.

use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, web};
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::limits::BODY_LIMIT;
use super::problem::{ApiError, FieldError};

/// A value that must come as a JSON object. Serde would also build a
/// struct from a JSON array of its fields; the API's schemas say "object",
/// so this wrapper refuses arrays and anything else.
#[derive(Debug, Default)]
pub struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectOnly<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOnly<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectOnly(PhantomData)).map(Obj)
    }
}

/// Whether the request declares a JSON media type (`application/json` or
/// any `+json`).
fn is_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|m| {
            let m = m.trim().to_ascii_lowercase();
            m == "application/json" || (m.starts_with("application/") && m.ends_with("+json"))
        })
        .unwrap_or(false)
}

/// Rewrite a serde message so it speaks of JSON, not of Rust types.
fn plain_words(message: &str) -> String {
    let mut out = Vec::new();
    let mut words = message.split(' ').peekable();
    while let Some(word) = words.next() {
        let bare = word.trim_end_matches([',', '.']);
        let tail = &word[bare.len()..];
        match bare {
            "struct" | "enum" | "map" if words.peek().is_some() && bare != "map" => {
                // "struct Foo" / "enum Bar": drop the type name.
                let _ = words.next();
                out.push(if bare == "struct" {
                    format!("a JSON object{tail}")
                } else {
                    format!("one of the allowed values{tail}")
                });
            }
            "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" => {
                out.push(format!("an integer{tail}"));
            }
            "f32" | "f64" => out.push(format!("a number{tail}")),
            "bool" => out.push(format!("true or false{tail}")),
            _ => out.push(word.to_owned()),
        }
    }
    out.join(" ")
}

fn pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut p = String::new();
    for seg in path.iter() {
        p.push('/');
        match seg {
            Segment::Seq { index } => p.push_str(&index.to_string()),
            Segment::Map { key } => {
                p.push_str(
                    &super::problem::echo(key)
                        .replace('~', "~0")
                        .replace('/', "~1"),
                );
            }
            Segment::Enum { variant } => p.push_str(variant),
            Segment::Unknown => p.push('?'),
        }
    }
    p
}

/// Parse a JSON body into `T`. An empty body, or JSON `null`, parses as
/// `{}` when `empty_ok` (the body is optional); otherwise it is an error.
///
/// # Errors
/// 415 for a non-JSON content type, 413 past [`BODY_LIMIT`], 400 for
/// malformed JSON or a field that does not fit (with its pointer).
pub fn parse<T: DeserializeOwned>(
    req: &HttpRequest,
    body: &web::Bytes,
    empty_ok: bool,
) -> Result<T, ApiError> {
    parse_within(req, body, empty_ok, BODY_LIMIT)
}

/// [`parse`] with a body of up to `limit` bytes (an operation that takes
/// more than [`BODY_LIMIT`], as a class's archive).
///
/// # Errors
/// As [`parse`], 413 past `limit`.
pub fn parse_within<T: DeserializeOwned>(
    req: &HttpRequest,
    body: &web::Bytes,
    empty_ok: bool,
    limit: usize,
) -> Result<T, ApiError> {
    if body.len() > limit {
        return Err(too_large_for(limit));
    }
    let text: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        if !empty_ok {
            return Err(ApiError::invalid(
                "the request needs a JSON body",
                Vec::new(),
            ));
        }
        b"{}"
    } else {
        if !is_json(req) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "Unsupported media type",
                "send the body as application/json",
            ));
        }
        body
    };
    let value: serde_json::Value = serde_json::from_slice(text).map_err(|e| {
        ApiError::invalid(
            format!(
                "the body is not valid JSON (line {}, column {})",
                e.line(),
                e.column()
            ),
            Vec::new(),
        )
    })?;
    // JSON `null` is "no body" where a body is optional (client generators
    // send it for a body left unset), and refused where one is required.
    let value = match value {
        serde_json::Value::Null if empty_ok => serde_json::Value::Object(serde_json::Map::new()),
        serde_json::Value::Null => {
            return Err(ApiError::invalid(
                "the request needs a JSON object as its body, not null",
                vec![FieldError {
                    pointer: String::new(),
                    detail: "must be a JSON object".to_owned(),
                }],
            ));
        }
        value => value,
    };
    serde_path_to_error::deserialize(value)
        .map(|Obj(t)| t)
        .map_err(|e| {
            let pointer = pointer(e.path());
            let detail = super::problem::clip_echoes(&plain_words(&e.inner().to_string()));
            let shown = if pointer.is_empty() { "/" } else { &pointer };
            ApiError::invalid(
                format!("{shown}: {detail}"),
                vec![FieldError {
                    pointer: if pointer.is_empty() {
                        String::new()
                    } else {
                        pointer
                    },
                    detail,
                }],
            )
        })
}

/// 413 for a body past [`BODY_LIMIT`].
#[must_use]
pub fn too_large() -> ApiError {
    too_large_for(BODY_LIMIT)
}

/// 413 for a body past `limit` bytes.
#[must_use]
pub fn too_large_for(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload-too-large",
        "Payload too large",
        format!("request bodies are limited to {limit} bytes"),
    )
}

#[cfg(test)]
mod tests {
    use super::{parse, plain_words};

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Probe {
        seed: Option<String>,
    }

    #[test]
    fn null_is_no_body_only_where_the_body_is_optional() {
        let req = actix_web::test::TestRequest::post()
            .insert_header(("content-type", "application/json"))
            .to_http_request();
        let null = actix_web::web::Bytes::from_static(b"null");
        let probe: Probe = parse(&req, &null, true).expect("null is no body");
        assert!(probe.seed.is_none());
        let refused = parse::<Probe>(&req, &null, false).expect_err("a body is required");
        assert_eq!(refused.problem().status, 400);
        for other in [&b"[]"[..], b"3", b"\"x\"", b"true"] {
            let body = actix_web::web::Bytes::copy_from_slice(other);
            assert!(parse::<Probe>(&req, &body, true).is_err(), "{other:?}");
        }
    }

    #[test]
    fn serde_messages_lose_rust_type_names() {
        assert_eq!(
            plain_words("invalid type: string \"x\", expected u8"),
            "invalid type: string \"x\", expected an integer"
        );
        assert_eq!(
            plain_words("invalid type: integer `3`, expected struct CreateGameRequest"),
            "invalid type: integer `3`, expected a JSON object"
        );
    }
}
