//! The HTTP API (actix-web): thin handlers over [`crate::service`], every
//! error as RFC 9457 problem details, the OpenAPI document generated from
//! the handlers (utoipa) and served with Swagger UI at `/docs/`. One module
//! per resource, its bodies next to its handlers; typed extractors in
//! `extract`, the views several resources share in `dto`.

// The crates below this one, by the names the modules use.
use zohn_ahl_domain as domain;
use zohn_ahl_narration as narration;
use zohn_ahl_picture as picture;
use zohn_ahl_service as service;

mod answer;
#[cfg(feature = "bench-baseline")]
mod baseline;
pub(crate) mod board;
mod chances;
mod class_archive;
mod classes;
mod contract;
mod conventions;
mod csl;
pub mod dto;
mod events;
mod extract;
mod facts;
mod fairness;
mod games;
mod join;
mod json;
pub mod limits;
mod log;
mod mounted;
mod moves;
pub mod odds;
mod play;
mod printable;
pub mod problem;
mod rate;
mod recap;
mod reference;
mod rules;
mod rulesets;
pub(crate) mod schema;
mod served;
pub mod views;

use actix_web::body::MessageBody;
use actix_web::dev::{ResourceDef, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{App, HttpRequest, HttpResponse, ResponseError, web};
use tracing_actix_web::TracingLogger;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_swagger_ui::SwaggerUi;

pub use conventions::CorsPolicy;
pub use limits::{BODY_LIMIT, MAX_HEADER_BYTES, MAX_HEADERS, MAX_URI_BYTES};
pub use moves::{DEFAULT_PAGE, MAX_PAGE};
pub use play::CorrectionsContact;
use problem::{ApiError, PROBLEM_JSON};
pub use rate::{RateLimits, RateSettings};
pub use served::PublicUrl;

use crate::service::Service;
use zohn_ahl_odds::Solver;

/// The OpenAPI document's fixed parts; paths and schemas come from the
/// handlers.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Zohn Ahl narrated rules service",
        // The API's version, not the crate's: one constant for both
        // surfaces, recorded in CHANGELOG.md (tests/it/api_stability.rs).
        version = crate::service::API_VERSION,
        description = "Play Zohn Ahl, the Kiowa stick-dice race game that the 1890s record gives to women and girls, over HTTP. Create a game, post a throw, read the state: every move comes back narrated, each sentence cited to documented sources. Errors are RFC 9457 problem details (`application/problem+json`)."
    ),
    tags(
        (name = "games", description = "Create games, throw, read state and the move log"),
        (name = "classes", description = "A teacher's games under one host token: make them at once, list them, add one"),
        (name = "rulesets", description = "Presets, options, each preset's rules as a narrated lesson, and their exact statistics"),
        (name = "reference", description = "Throw tables, sources and glossary"),
        (name = "health", description = "Liveness and readiness"),
    ),
    servers((url = "http://127.0.0.1:8080", description = "The default address; the document served at /openapi.json names the server it is served from")),
    components(schemas(
        problem::Problem,
        problem::FieldError,
        fairness::ClassGameId,
        board::BoardFormat,
        schema::BoardViewName,
        reference::SourceFormat
    )),
    modifiers(&SecuritySchemes)
)]
struct ApiDoc;

/// The tokens' security scheme, `token`: the operations that take one
/// list it as optional (a game without seats needs none).
struct SecuritySchemes;

impl utoipa::Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "token",
                SecurityScheme::Http(
                    HttpBuilder::new()
                        .scheme(HttpAuthScheme::Bearer)
                        .bearer_format("64 hex digits")
                        .description(Some(
                            "A seated game's token, from the answer that created it: a side's \
                             (`seat_tokens.a`, `seat_tokens.b`) or the host's (`host_token`); or \
                             a class's host token (`host_token` of the class's creation), which \
                             is host of each of its games. Games without seats need none.",
                        ))
                        .build(),
                ),
            );
    }
}

/// Every route and its methods, for telling 405 from 404: the operations
/// of the OpenAPI document, which utoipa collects from the registered
/// handlers, plus the document itself.
fn route_table() -> &'static [(ResourceDef, Vec<&'static str>)] {
    static TABLE: std::sync::LazyLock<Vec<(ResourceDef, Vec<&'static str>)>> =
        std::sync::LazyLock::new(|| {
            let mut table: Vec<(ResourceDef, Vec<&'static str>)> = described()
                .paths
                .paths
                .iter()
                .map(|(path, item)| {
                    let methods = [
                        ("GET", item.get.is_some()),
                        ("HEAD", item.get.is_some()),
                        ("POST", item.post.is_some()),
                        ("PUT", item.put.is_some()),
                        ("PATCH", item.patch.is_some()),
                        ("DELETE", item.delete.is_some()),
                        ("OPTIONS", item.options.is_some()),
                    ];
                    let allowed = methods
                        .into_iter()
                        .filter_map(|(m, present)| present.then_some(m))
                        .collect();
                    (ResourceDef::new(path.as_str()), allowed)
                })
                .collect();
            table.push((ResourceDef::new("/openapi.json"), vec!["GET", "HEAD"]));
            table
        });
    &TABLE
}

fn routes(cfg: &mut ServiceConfig) {
    cfg.service(games::create_game)
        .service(games::get_game)
        .service(games::delete_game)
        .service(games::post_throw)
        .service(games::stop_game)
        .service(games::create_seat_token)
        .service(join::join_seat)
        .service(classes::create_class)
        .service(class_archive::import_class)
        .service(class_archive::export_class)
        .service(classes::get_class)
        .service(classes::create_class_game)
        .service(moves::list_moves)
        .service(moves::get_move)
        .service(events::get_events)
        .service(board::get_board)
        .service(board::get_board_png)
        .service(board::get_move_board)
        .service(board::get_move_board_png)
        .service(board::get_ruleset_board)
        .service(board::get_ruleset_board_png)
        .service(chances::get_chances_chart)
        .service(chances::get_chances_chart_png)
        .service(rulesets::get_rulesets)
        .service(rulesets::get_ruleset)
        .service(odds::get_odds)
        .service(odds::get_statistics)
        .service(recap::get_recap)
        .service(fairness::get_game_fairness)
        .service(fairness::get_class_fairness)
        .service(reference::get_sticks)
        .service(reference::get_sources)
        .service(reference::get_sources_bibtex)
        // Before `/v1/sources/{id}`, which would take `culin1907.bib` as an id.
        .service(reference::get_source_bibtex)
        .service(reference::get_source)
        .service(reference::get_glossary)
        .service(reference::get_glossary_term)
        .service(facts::get_facts)
        .service(facts::get_fact)
        .service(rules::get_rules)
        .service(rules::get_rule)
        .service(reference::healthz)
        .service(reference::readyz);
}

/// What the handlers declare, as utoipa collects it.
fn described() -> utoipa::openapi::OpenApi {
    App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes)
        .split_for_parts()
        .1
}

/// The OpenAPI document (as committed; the one served at `/openapi.json`
/// names the server it is served from).
#[must_use]
pub fn openapi() -> serde_json::Value {
    finish(described())
}

/// The document as served: the conventions applied, the links added.
fn finish(api: utoipa::openapi::OpenApi) -> serde_json::Value {
    contract::finish(with_links(contract::apply(api)))
}

/// Add OpenAPI links from the answers that name a game (creating one,
/// throwing) to the operations on that game, so clients and contract
/// fuzzers can follow them.
fn with_links(mut api: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::link::LinkBuilder;
    let game_ops = [
        ("GetGame", "get_game"),
        ("PlayThrow", "play_throw"),
        ("StopGame", "stop_game"),
        ("DeleteGame", "delete_game"),
        ("ListMoves", "list_moves"),
        ("GetBoard", "get_board"),
        ("StreamEvents", "stream_events"),
    ];
    for (path, id_expr, with_move) in [
        ("/v1/games", "$response.body#/id", false),
        ("/v1/games/{id}/throws", "$request.path.id", true),
    ] {
        let Some(RefOr::T(response)) = api
            .paths
            .paths
            .get_mut(path)
            .and_then(|item| item.post.as_mut())
            .and_then(|op| op.responses.responses.get_mut("201"))
        else {
            continue;
        };
        for (name, operation) in game_ops {
            let link = LinkBuilder::new()
                .operation_id(operation)
                .parameter("id", id_expr)
                .build();
            response.links.insert(name.to_owned(), RefOr::T(link));
        }
        if with_move {
            let link = LinkBuilder::new()
                .operation_id("get_move")
                .parameter("id", id_expr)
                .parameter("n", "$response.body#/n")
                .build();
            response.links.insert("GetMove".to_owned(), RefOr::T(link));
            let link = LinkBuilder::new()
                .operation_id("get_move_board")
                .parameter("id", id_expr)
                .parameter("n", "$response.body#/n")
                .build();
            response
                .links
                .insert("GetMoveBoard".to_owned(), RefOr::T(link));
        }
    }
    api
}

/// The problem for a query string the operation's query type refused: a
/// parameter given twice (serde's "duplicate field `limit`") points at
/// `#/query/limit`; what names no parameter points at `#/query`.
fn query_problem(err: &actix_web::error::QueryPayloadError) -> ApiError {
    let message = err.to_string().replace("Query deserialize error: ", "");
    let name = ["duplicate field `", "missing field `", "unknown field `"]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name)
        .filter(|name| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
    let (pointer, detail) = match name {
        Some(name) if message.starts_with("duplicate") => (
            format!("#/query/{name}"),
            format!("`{name}` is given more than once; give it once"),
        ),
        Some(name) => (format!("#/query/{name}"), problem::clip_echoes(&message)),
        None => ("#/query".to_owned(), problem::clip_echoes(&message)),
    };
    ApiError::invalid(
        format!("query string: {detail}"),
        vec![problem::FieldError { pointer, detail }],
    )
}

/// Where the MCP endpoint is mounted (see [`app_with`]): its answers to a
/// message, JSON-RPC errors included, are that protocol's; its transport's
/// refusals are problem details (`mounted.rs`).
pub const MOUNTED_PREFIX: &str = "/mcp";

/// 404 or 405 for a request no route took.
async fn no_route(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    let allowed: Vec<String> = route_table()
        .iter()
        .filter(|(pattern, _)| pattern.is_match(path))
        .flat_map(|(_, methods)| methods.iter().map(|m| (*m).to_owned()))
        .collect();
    if allowed.is_empty() {
        ApiError::no_route(path).error_response()
    } else {
        ApiError::method_not_allowed(req.method().as_str(), allowed).error_response()
    }
}

/// Turn any error response that is not yet problem details (one made by
/// actix itself or a library) into one, keeping its status.
fn to_problem<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    // Another protocol's endpoint mounted beside the API (the MCP one)
    // answers a message in its own terms; its transport's refusals become
    // problems there.
    if res.request().path().starts_with(MOUNTED_PREFIX) {
        return mounted::to_problem(res);
    }
    // Problems pass as they are, and so do the lesson page's own HTML
    // answers (its "no such game" page).
    let is_problem = res.headers().get(header::CONTENT_TYPE).is_some_and(|v| {
        v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()) || v.as_bytes().starts_with(b"text/html")
    });
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let cors = res
        .response()
        .error()
        .and_then(|e| e.as_error::<actix_cors::CorsError>())
        .map(ToString::to_string);
    let error = match status.as_u16() {
        _ if let Some(refusal) = cors => ApiError::new(
            actix_web::http::StatusCode::FORBIDDEN,
            "cors-refused",
            "Cross-origin request refused",
            format!(
                "{}: pages of other origins may read; writing needs an origin the server allows (--cors-origins)",
                refusal.replace('`', "")
            ),
        ),
        404 => ApiError::no_route(res.request().path()),
        413 => json::too_large(),
        _ => ApiError::new(
            status,
            "http-error",
            status.canonical_reason().unwrap_or("Error"),
            "the request could not be served as sent",
        ),
    };
    let (req, _) = res.into_parts();
    let response = error.error_response();
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, response).map_into_right_body(),
    ))
}

/// The whole application over `service`: API routes, `/openapi.json`,
/// Swagger UI at `/docs/`, problem details for every error, one tracing span
/// per request. Exact odds come from the process's odds service,
/// [`Solver::shared`].
pub fn app(
    service: Service,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with_odds(service, Solver::shared())
}

/// [`app`] with its own odds service (its own budget, bounds and cache).
pub fn app_with_odds(
    service: Service,
    odds: Solver,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with(service, odds, CorsPolicy::default(), |_| {})
}

/// [`app_with_odds`] with more services mounted by `mount` (the MCP
/// endpoint at [`MOUNTED_PREFIX`]), outside the OpenAPI document and under
/// the same tracing.
pub fn app_with(
    service: Service,
    odds: Solver,
    cors: CorsPolicy,
    mount: impl FnOnce(&mut web::ServiceConfig),
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let (app, api) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .app_data(web::Data::new(service))
        .app_data(web::Data::new(odds))
        .app_data(web::PayloadConfig::new(BODY_LIMIT))
        .app_data(web::QueryConfig::default().error_handler(|err, _| query_problem(&err).into()))
        .configure(routes)
        .split_for_parts();
    let document = finish(api);
    let app = app
        .service(web::redirect("/docs", "/docs/"))
        .configure(play::routes)
        .configure(mount);
    // The load benchmark's baseline route, only in builds with the
    // `bench-baseline` feature (not documented, not in the product).
    #[cfg(feature = "bench-baseline")]
    let app = app.service(baseline::post_baseline);
    app.service(
        web::resource("/openapi.json")
            .app_data(web::Data::new(served::Document(document)))
            .route(web::get().to(served::serve)),
    )
    .service(
        SwaggerUi::new("/docs/{_:.*}").config(utoipa_swagger_ui::Config::new(["/openapi.json"])),
    )
    .default_service(web::to(no_route))
    .wrap(ErrorHandlers::new().default_handler(to_problem))
    // Inside CORS, so that a browser reads the 429 too.
    .wrap(actix_web::middleware::from_fn(rate::limit))
    .wrap(actix_web::middleware::from_fn(mounted::session_closed))
    .wrap(conventions::cors(cors))
    // Again outside CORS: its own refusals become problems too.
    .wrap(ErrorHandlers::new().default_handler(to_problem))
    .wrap(actix_web::middleware::from_fn(limits::check))
    .wrap(actix_web::middleware::from_fn(conventions::head_as_get))
    .wrap(actix_web::middleware::from_fn(log::request_id))
    .wrap(TracingLogger::<log::RequestLog>::new())
    .wrap(actix_web::middleware::from_fn(rate::forwarded_for))
}
