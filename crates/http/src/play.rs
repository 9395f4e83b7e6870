//! The lesson page a teacher opens: `/play` starts a game, `/play/{id}`
//! plays it; `/join` is the pupils' page, where a side's join code opens
//! its game page; `/play/class/{id}` shows every board of a class on the
//! projector. Plain HTML, CSS and JavaScript with no build step, compiled
//! into the binary (`assets/play/`); the page talks only to this server's
//! API and keeps in step through the game's live feed.
//!
//! Every answer carries a Content-Security-Policy that allows nothing but
//! this origin's scripts, styles, images and API, and no inline code.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};

use crate::domain::{ClassId, GameId};
use crate::service::{Service, ServiceError};

/// The page's Content-Security-Policy: only this origin, no inline script
/// or style, no frames, forms only to this origin.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const NEW_HTML: &str = include_str!("../../../assets/play/new.html");
/// The site's icon: a small SVG (the ring of spaces, the two creeks and
/// an awl), linked from every page and also served at `/favicon.ico` for
/// clients that ask there without reading the page.
const FAVICON_SVG: &str = include_str!("../../../assets/play/favicon.svg");
const GAME_HTML: &str = include_str!("../../../assets/play/game.html");
/// The pupils' page: a side's join code opens its game page.
const JOIN_HTML: &str = include_str!("../../../assets/play/join.html");
/// A class's boards on one projector page.
const CLASS_HTML: &str = include_str!("../../../assets/play/class.html");

/// The page's assets, by name: (content type, body).
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "play.css",
        "text/css; charset=utf-8",
        include_str!("../../../assets/play/play.css"),
    ),
    (
        "print.css",
        "text/css; charset=utf-8",
        include_str!("../../../assets/play/print.css"),
    ),
    (
        "new.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/new.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/game.js"),
    ),
    (
        "chances.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/chances.js"),
    ),
    (
        "recap.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/recap.js"),
    ),
    (
        "sources.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/sources.js"),
    ),
    (
        "fairness.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/fairness.js"),
    ),
    (
        "bidi.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/bidi.js"),
    ),
    (
        "early.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/early.js"),
    ),
    (
        "seatlinks.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/seatlinks.js"),
    ),
    (
        "links.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/links.js"),
    ),
    (
        "join.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/join.js"),
    ),
    (
        "newlink.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/newlink.js"),
    ),
    (
        "refusals.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/refusals.js"),
    ),
    (
        "newclass.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/newclass.js"),
    ),
    (
        "classrecap.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/classrecap.js"),
    ),
    (
        "class.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../assets/play/class.js"),
    ),
    (
        "class.css",
        "text/css; charset=utf-8",
        include_str!("../../../assets/play/class.css"),
    ),
];

/// An answer of the pages: `body` with its type and the pages' headers
/// (the Content-Security-Policy, no sniffing, no referrer, revalidated).
pub(super) fn page(
    status: actix_web::http::StatusCode,
    content_type: &str,
    body: impl actix_web::body::MessageBody + 'static,
) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// The pages' content type.
pub(super) const HTML: &str = "text/html; charset=utf-8";

const NOT_FOUND_HTML: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>No such game</title><link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/play/assets/play.css\"></head><body><main><h1>No such game</h1><p>No game has this address. <a href=\"/play\">Start a game</a>.</p></main></body></html>\n";

const NO_CLASS_HTML: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>No such class</title><link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/play/assets/play.css\"></head><body><main><h1>No such class</h1><p>No class has this address. <a href=\"/play\">Start a game</a>.</p></main></body></html>\n";

/// Where readers of the narration send a correction, as the operator
/// configured it (`--corrections-contact`): an `https:`, `http:` or
/// `mailto:` address. The pages show it beside the notice that the
/// narration has not been reviewed by Kiowa educators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectionsContact(url::Url);

impl CorrectionsContact {
    /// Read an address.
    ///
    /// # Errors
    /// A sentence saying what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let address =
            url::Url::parse(text.trim()).map_err(|e| format!("not an address ({e}): {text:?}"))?;
        match address.scheme() {
            "https" | "http" | "mailto" => Ok(Self(address)),
            other => Err(format!(
                "must be an https:, http: or mailto: address, got {other}:"
            )),
        }
    }

    /// The address as written.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

/// The placeholder in the pages' footers where the corrections notice goes.
const CORRECTIONS_SLOT: &str = "<!-- corrections -->";

/// The footer's notice: the narration is not reviewed by Kiowa educators,
/// and where to report a correction (the configured contact, or, without
/// one, whoever runs the screen).
fn corrections_notice(contact: Option<&CorrectionsContact>) -> String {
    let how = contact.map_or_else(
        || {
            "To report a correction, tell the people who run this screen which sentence and \
             which source it cites."
                .to_owned()
        },
        |c| {
            format!(
                "<a id=\"corrections-link\" href=\"{}\">Report a correction</a>, naming the \
                 sentence and the source it cites.",
                html_escape::encode_double_quoted_attribute(c.as_str())
            )
        },
    );
    format!(
        "<p id=\"corrections\">The narration, facts and glossary have not been reviewed by Kiowa \
         educators. {how}</p>"
    )
}

/// A page with its corrections notice filled in.
fn with_notice(html: &'static str, contact: Option<&web::Data<CorrectionsContact>>) -> String {
    html.replace(
        CORRECTIONS_SLOT,
        &corrections_notice(contact.map(|c| c.get_ref())),
    )
}

/// The game's page with the sides' names in its title and heading from the
/// start, each in `<bdi>` (a right-to-left name keeps the words around it
/// in place): the script writes the same once it runs, so the heading's
/// height does not change under the reader (no layout shift).
fn named(html: &str, game: &crate::domain::Game) -> String {
    let [a, b] = game
        .setup
        .sides
        .each_ref()
        .map(|s| html_escape::encode_text(&s.name));
    html.replacen(
        "<title>Zohn Ahl: a game</title>",
        &format!("<title>Zohn Ahl: {a} and {b}</title>"),
        1,
    )
    .replacen(
        "<h1 id=\"title\">Zohn Ahl</h1>",
        &format!("<h1 id=\"title\"><bdi>{a}</bdi> and <bdi>{b}</bdi></h1>"),
        1,
    )
}

/// `GET /play`: the form that starts a game.
async fn new_game(contact: Option<web::Data<CorrectionsContact>>) -> HttpResponse {
    page(
        actix_web::http::StatusCode::OK,
        HTML,
        with_notice(NEW_HTML, contact.as_ref()),
    )
}

/// `GET /join`: the pupils' page, where a side's join code opens its game
/// page.
async fn join_page(contact: Option<web::Data<CorrectionsContact>>) -> HttpResponse {
    page(
        actix_web::http::StatusCode::OK,
        HTML,
        with_notice(JOIN_HTML, contact.as_ref()),
    )
}

/// `GET /play/{id}`: the page of one game (404 page for an unknown id).
async fn game_page(
    service: web::Data<Service>,
    contact: Option<web::Data<CorrectionsContact>>,
    id: web::Path<String>,
) -> Result<HttpResponse, super::problem::ApiError> {
    let Ok(id) = GameId::parse(&id) else {
        return Ok(page(
            actix_web::http::StatusCode::NOT_FOUND,
            HTML,
            NOT_FOUND_HTML,
        ));
    };
    match service.game(id).await {
        Ok(game) => Ok(page(
            actix_web::http::StatusCode::OK,
            HTML,
            named(&with_notice(GAME_HTML, contact.as_ref()), &game),
        )),
        Err(ServiceError::GameNotFound(_)) => Ok(page(
            actix_web::http::StatusCode::NOT_FOUND,
            HTML,
            NOT_FOUND_HTML,
        )),
        Err(other) => Err(other.into()),
    }
}

/// `GET /play/class/{id}`: a class's overview for the projector (404 page
/// for an unknown id). The page reads the class with the host's token from
/// its fragment; serving it needs none, so it tells nothing of the class
/// but that it exists.
async fn class_page(
    service: web::Data<Service>,
    contact: Option<web::Data<CorrectionsContact>>,
    id: web::Path<String>,
) -> Result<HttpResponse, super::problem::ApiError> {
    let missing = || page(actix_web::http::StatusCode::NOT_FOUND, HTML, NO_CLASS_HTML);
    let Ok(id) = ClassId::parse(&id) else {
        return Ok(missing());
    };
    // Asked without a token: a class that exists refuses it.
    match service.class(id, None).await {
        Ok(_) | Err(ServiceError::ClassUnauthorized) => Ok(page(
            actix_web::http::StatusCode::OK,
            HTML,
            with_notice(CLASS_HTML, contact.as_ref()),
        )),
        Err(ServiceError::ClassNotFound(_)) => Ok(missing()),
        Err(other) => Err(other.into()),
    }
}

/// `GET /play/assets/{name}`: a stylesheet or script of the page.
async fn asset(req: HttpRequest) -> HttpResponse {
    let name = req.match_info().get("name").unwrap_or_default();
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, content_type, body)) => page(actix_web::http::StatusCode::OK, content_type, *body),
        None => super::problem::ApiError::no_route(req.path()).error_response(),
    }
}

/// `GET /favicon.svg` and `GET /favicon.ico`: the icon, as SVG (browsers
/// read the type from the answer, not the name).
async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(FAVICON_SVG)
}

/// The longest link `POST /play/qr` draws.
const QR_LINK_MAX: usize = 512;

/// Whether `text` is a game page's link: `http(s)://host/play/{id}`, its
/// fragment (the seat's secret) included, at most [`QR_LINK_MAX`]
/// characters, no spaces or controls.
fn is_game_link(text: &str) -> bool {
    if text.len() > QR_LINK_MAX || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Some(rest) = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
    else {
        return false;
    };
    let page = rest.split_once('#').map_or(rest, |(page, _)| page);
    page.split_once('/').is_some_and(|(host, path)| {
        !host.is_empty()
            && path
                .strip_prefix("play/")
                .is_some_and(|id| GameId::parse(id).is_ok())
    })
}

/// `POST /play/qr`: the QR code (SVG) of a game page's link, sent as the
/// body (text): the start page shows one beside each seat's link, for a
/// tablet to scan. Only a game page's link is drawn (an open QR maker it is
/// not); the answer is never stored by a cache (`no-store`): the code
/// carries the seat's secret, which is why the link comes in the body and
/// not in the address (bodies are never logged).
async fn qr(body: web::Bytes) -> Result<HttpResponse, super::problem::ApiError> {
    let refused = || {
        super::problem::ApiError::field(
            "#/body",
            format!(
                "must be a game page's link, http(s)://host/play/{{id}} and its fragment, as text of at most {QR_LINK_MAX} characters"
            ),
        )
    };
    let text = std::str::from_utf8(&body).map_err(|_| refused())?.trim();
    if !is_game_link(text) {
        return Err(refused());
    }
    let svg = crate::picture::qr_svg(text, "QR code of the link").map_err(|_| refused())?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(svg))
}

/// Register the page's routes.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/favicon.svg", web::get().to(favicon))
        .route("/favicon.ico", web::get().to(favicon))
        .route("/join", web::get().to(join_page))
        .route("/play", web::get().to(new_game))
        .route("/play/", web::get().to(new_game))
        .route("/play/assets/{name}", web::get().to(asset))
        .route("/play/qr", web::post().to(qr))
        .configure(super::printable::routes)
        .route("/play/class/{id}", web::get().to(class_page))
        .route("/play/{id}", web::get().to(game_page));
}
