//! The OpenAPI document as served at `/openapi.json`: its `servers` name
//! an absolute base URL a generated client can use as it is. That is the
//! public URL the operator configured (`--public-url`, for a server behind
//! a proxy or TLS), or else the URL this request reached: `http://` and its
//! `Host`. The committed document names the default address
//! (`http://127.0.0.1:8080`).

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

/// The base URL clients reach the server by, as the operator configured it
/// (`--public-url`): `http:` or `https:`, with a host, no query or fragment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    /// Read a public URL; a trailing `/` is dropped.
    ///
    /// # Errors
    /// A sentence saying what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let url = url::Url::parse(text.trim()).map_err(|e| format!("not a URL ({e}): {text:?}"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!(
                "must be an http: or https: URL, got {}:",
                url.scheme()
            ));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(format!("must name a host: {text:?}"));
        }
        if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
            return Err(format!(
                "must have no query, fragment or credentials: {text:?}"
            ));
        }
        Ok(Self(url.as_str().trim_end_matches('/').to_owned()))
    }

    /// The URL, without a trailing `/`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The document the handlers describe, ready to serve.
pub(super) struct Document(pub Value);

/// Whether `host` is a `Host` header worth naming: a name, an IPv4 address
/// or a bracketed IPv6 address, with an optional port.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
}

/// The base URL to name for `req`.
fn base_url(req: &HttpRequest, public: Option<&PublicUrl>) -> Option<(String, &'static str)> {
    if let Some(public) = public {
        return Some((public.as_str().to_owned(), "This server's public URL"));
    }
    let host = req.headers().get(header::HOST)?.to_str().ok()?;
    plain_host(host).then(|| {
        (
            format!("http://{}", host.to_ascii_lowercase()),
            "This server, as this request reached it",
        )
    })
}

/// `GET /openapi.json`: the document, its `servers` naming this server.
pub(super) async fn serve(
    req: HttpRequest,
    doc: web::Data<Document>,
    public: Option<web::Data<PublicUrl>>,
) -> HttpResponse {
    let mut body = doc.0.clone();
    if let Some((url, description)) = base_url(&req, public.as_ref().map(|p| p.get_ref())) {
        body["servers"] = json!([{"url": url, "description": description}]);
    }
    HttpResponse::Ok()
        .insert_header((header::VARY, "Host"))
        .json(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_is_http_or_https_with_a_host_and_no_trailing_slash() {
        assert_eq!(
            PublicUrl::parse("https://zohn.example/api/").map(|u| u.0),
            Ok("https://zohn.example/api".to_owned())
        );
        for bad in [
            "ftp://zohn.example",
            "zohn.example",
            "https://zohn.example/?a=1",
            "https://user:pw@zohn.example",
        ] {
            assert!(PublicUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_plain_host_is_named() {
        assert!(plain_host("127.0.0.1:8080"));
        assert!(plain_host("[::1]:8080"));
        assert!(plain_host("zohn.example"));
        for bad in ["", "a b", "evil\"}", "x/y", "a@b"] {
            assert!(!plain_host(bad), "{bad}");
        }
    }
}
