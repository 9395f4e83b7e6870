//! Limits per client address: how many games one address may create, how
//! many throws it may post, how many live feeds it may open, how many
//! chatbot (MCP) sessions it may start and how many join codes it may try
//! (so that a seat's code cannot be found by trying), each a rate with a burst (the
//! generic cell rate algorithm of the `governor` crate). Past one, the
//! answer is 429 problem details of type `/problems/rate-limited` with
//! `Retry-After`, before any handler reads the request (on the MCP
//! endpoint a JSON-RPC error saying the same, which MCP clients read). A chatbot's tool
//! calls over HTTP count as the same operations over REST (a `create_game`
//! is a game created, a `throw` its throws).
//!
//! The address is the connection's peer. Behind a proxy every request
//! comes from the proxy's address; a proxy named in
//! [`RateSettings::trusted_proxies`] is believed about the client it
//! forwards (the rightmost address of `X-Forwarded-For` that is not itself a
//! trusted proxy); no other peer's `X-Forwarded-For` is read, so a client
//! cannot choose its own address.
//!
//! The defaults are far above what a class of 30 behind one school address
//! does (30 games created at once, a throw every few seconds each, a feed
//! each, reconnects after a restart) and far below a script's flood.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use actix_web::ResponseError;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, web};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::problem::ApiError;

/// The rates, each 0 for no limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateSettings {
    /// Games one address may create a minute (also its burst).
    pub games_per_minute: u32,
    /// Throws (served or reported) one address may post a second; its
    /// burst is ten seconds' worth.
    pub throws_per_second: u32,
    /// Live feeds one address may open a minute (also its burst).
    pub feeds_per_minute: u32,
    /// Chatbot sessions one address may start a minute (also its burst).
    pub mcp_sessions_per_minute: u32,
    /// Join codes one address may try a minute; its burst is
    /// [`RateSettings::JOIN_BURST`] (or the rate, if higher).
    pub joins_per_minute: u32,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
}

impl RateSettings {
    /// The server's defaults.
    pub const GAMES_PER_MINUTE: u32 = 60;
    /// The server's default throws a second.
    pub const THROWS_PER_SECOND: u32 = 50;
    /// The server's default feeds a minute.
    pub const FEEDS_PER_MINUTE: u32 = 600;
    /// The server's default chatbot sessions a minute.
    pub const MCP_SESSIONS_PER_MINUTE: u32 = 60;
    /// The server's default join codes tried a minute: a code is one of
    /// 30⁶, so an address trying all day finds one of a thousand open
    /// seats' codes about once in fifty days.
    pub const JOINS_PER_MINUTE: u32 = 10;
    /// Join codes one address may try at once: a class of 30 behind one
    /// school address joining together.
    pub const JOIN_BURST: u32 = 30;

    /// No limit at all (a benchmark, the tests).
    #[must_use]
    pub fn off() -> Self {
        Self {
            games_per_minute: 0,
            throws_per_second: 0,
            feeds_per_minute: 0,
            mcp_sessions_per_minute: 0,
            joins_per_minute: 0,
            trusted_proxies: Vec::new(),
        }
    }
}

impl Default for RateSettings {
    fn default() -> Self {
        Self {
            games_per_minute: Self::GAMES_PER_MINUTE,
            throws_per_second: Self::THROWS_PER_SECOND,
            feeds_per_minute: Self::FEEDS_PER_MINUTE,
            mcp_sessions_per_minute: Self::MCP_SESSIONS_PER_MINUTE,
            joins_per_minute: Self::JOINS_PER_MINUTE,
            trusted_proxies: Vec::new(),
        }
    }
}

/// What a request counts against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Games,
    Throws,
    Feeds,
    McpSessions,
    Joins,
}

/// One limit: its limiter and how it is told.
struct Limit {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// The most one address may spend at once.
    burst: NonZeroU32,
    what: &'static str,
    rate: String,
}

/// The limits in force, shared by the workers.
#[derive(Clone)]
pub struct RateLimits(Arc<Inner>);

struct Inner {
    games: Option<Limit>,
    throws: Option<Limit>,
    feeds: Option<Limit>,
    mcp_sessions: Option<Limit>,
    joins: Option<Limit>,
    trusted: Vec<IpAddr>,
    clock: DefaultClock,
}

fn per_minute(n: u32, what: &'static str) -> Option<Limit> {
    let n = NonZeroU32::new(n)?;
    Some(Limit {
        limiter: RateLimiter::keyed(Quota::per_minute(n)),
        burst: n,
        what,
        rate: format!("{n} a minute"),
    })
}

impl RateLimits {
    /// The limits of `settings`.
    #[must_use]
    pub fn new(settings: &RateSettings) -> Self {
        let throws = NonZeroU32::new(settings.throws_per_second).map(|n| {
            let burst = n.saturating_mul(NonZeroU32::MIN.saturating_add(9));
            Limit {
                limiter: RateLimiter::keyed(Quota::per_second(n).allow_burst(burst)),
                burst,
                what: "throws",
                rate: format!("{n} a second"),
            }
        });
        Self(Arc::new(Inner {
            games: per_minute(settings.games_per_minute, "games created"),
            throws,
            feeds: per_minute(settings.feeds_per_minute, "live feeds opened"),
            mcp_sessions: per_minute(settings.mcp_sessions_per_minute, "chatbot sessions started"),
            joins: NonZeroU32::new(settings.joins_per_minute).map(|n| {
                let burst = n.max(NonZeroU32::new(RateSettings::JOIN_BURST).unwrap_or(n));
                Limit {
                    limiter: RateLimiter::keyed(Quota::per_minute(n).allow_burst(burst)),
                    burst,
                    what: "join codes tried",
                    rate: format!("{n} a minute"),
                }
            }),
            trusted: settings.trusted_proxies.clone(),
            clock: DefaultClock::default(),
        }))
    }

    /// Forget the addresses whose limits are whole again (their state
    /// would allow a full burst): the memory the limits hold stays bounded
    /// by the addresses seen recently.
    pub fn forget_idle(&self) {
        for limit in self.limits() {
            limit.limiter.retain_recent();
            limit.limiter.shrink_to_fit();
        }
    }

    fn limits(&self) -> impl Iterator<Item = &Limit> {
        [
            &self.0.games,
            &self.0.throws,
            &self.0.feeds,
            &self.0.mcp_sessions,
            &self.0.joins,
        ]
        .into_iter()
        .flatten()
    }

    fn limit(&self, kind: Kind) -> Option<&Limit> {
        match kind {
            Kind::Games => self.0.games.as_ref(),
            Kind::Throws => self.0.throws.as_ref(),
            Kind::Feeds => self.0.feeds.as_ref(),
            Kind::McpSessions => self.0.mcp_sessions.as_ref(),
            Kind::Joins => self.0.joins.as_ref(),
        }
    }

    /// The client's address: the peer's, or, from a trusted proxy, the
    /// rightmost forwarded address that is not a trusted proxy.
    fn client(&self, peer: Option<std::net::SocketAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer?.ip();
        if !self.0.trusted.contains(&peer) {
            return Some(peer);
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .collect::<Vec<_>>();
        Some(
            forwarded
                .into_iter()
                .rev()
                .find(|a| !self.0.trusted.contains(a))
                .unwrap_or(peer),
        )
    }

    /// `Err` with the refusal when `req`, counting `n` against `kind`, is
    /// past its address's limit.
    fn check(&self, req: &ServiceRequest, kind: Kind, n: NonZeroU32) -> Result<(), ApiError> {
        let Some(limit) = self.limit(kind) else {
            return Ok(());
        };
        let Some(client) = self.client(req.peer_addr(), req.headers()) else {
            return Ok(());
        };
        // A run of throws asking more than a whole burst counts as one.
        let n = if kind == Kind::Throws {
            n.min(limit.burst)
        } else {
            n
        };
        self.take(limit, client, n)
    }

    /// Like [`check`](Self::check), but taking as many of `n` as the
    /// address may spend now when that is fewer, and at least one: `Ok`
    /// with the number taken when fewer than `n`, the refusal when none
    /// is left.
    fn check_up_to(
        &self,
        req: &ServiceRequest,
        kind: Kind,
        n: NonZeroU32,
    ) -> Result<Option<u32>, ApiError> {
        let Some(limit) = self.limit(kind) else {
            return Ok(None);
        };
        let Some(client) = self.client(req.peer_addr(), req.headers()) else {
            return Ok(None);
        };
        let mut ask = n.min(limit.burst);
        // A refused ask takes nothing: halve it until one is granted.
        while ask > NonZeroU32::MIN {
            if let Ok(Ok(())) = limit.limiter.check_key_n(&client, ask) {
                return Ok((ask < n).then_some(ask.get()));
            }
            ask = NonZeroU32::new(ask.get() / 2).unwrap_or(NonZeroU32::MIN);
        }
        self.take(limit, client, ask)
            .map(|()| (ask < n).then_some(ask.get()))
    }

    /// Take `n` from the client's `limit`, or the refusal: 429 when its
    /// address is past the limit, or would be with `n` more.
    fn take(&self, limit: &Limit, client: IpAddr, n: NonZeroU32) -> Result<(), ApiError> {
        let not_until = match limit.limiter.check_key_n(&client, n) {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(not_until)) => Some(not_until),
            // More at once than the limit ever allows.
            Err(_) => None,
        };
        match not_until {
            None => Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate-limited",
                "Too many requests",
                format!(
                    "{} are limited to {} an address, fewer than the {n} this request asks for",
                    limit.what, limit.rate
                ),
            )
            .with_retry_after(60)),
            Some(not_until) => {
                let wait = not_until.wait_time_from(self.0.clock.now());
                let secs = u32::try_from(wait.as_secs())
                    .unwrap_or(u32::MAX)
                    .saturating_add(1);
                Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate-limited",
                    "Too many requests",
                    format!(
                        "{} are limited to {} an address; ask again in {secs} s",
                        limit.what, limit.rate
                    ),
                )
                .with_retry_after(secs))
            }
        }
    }
}

impl std::fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimits").finish_non_exhaustive()
    }
}

/// The client's address as the limits count it, for everything after
/// (the request log's `http.client_ip` included, which reads the forwarded
/// headers): a forwarded address is kept only from a trusted proxy, and then
/// only the one the limits count (`X-Forwarded-For: CLIENT`); from any other
/// peer the headers are dropped, so a client cannot write the log's address
/// (an operator's trial: the log showed an address an untrusted client sent).
pub(crate) async fn forwarded_for(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let peer = req.peer_addr().map(|p| p.ip());
    let client = req
        .app_data::<web::Data<RateLimits>>()
        .and_then(|limits| limits.client(req.peer_addr(), req.headers()));
    let headers = req.headers_mut();
    headers.remove(header::FORWARDED);
    headers.remove("x-real-ip");
    headers.remove(header::X_FORWARDED_FOR);
    if let (Some(client), Some(peer)) = (client, peer)
        && client != peer
        && let Ok(value) = HeaderValue::from_str(&client.to_string())
    {
        headers.insert(header::X_FORWARDED_FOR, value);
    }
    next.call(req).await
}

/// Count `n` games made by one request against the client's limit on
/// games created (a class makes several at once; the middleware counts
/// the other creations, one each).
///
/// # Errors
/// 429 when the client's address is past its limit, or would be with `n`
/// more.
pub(crate) fn charge_games(req: &HttpRequest, n: usize) -> Result<(), ApiError> {
    let Some(limits) = req.app_data::<web::Data<RateLimits>>() else {
        return Ok(());
    };
    let Some(limit) = limits.limit(Kind::Games) else {
        return Ok(());
    };
    let Some(client) = limits.client(req.peer_addr(), req.headers()) else {
        return Ok(());
    };
    let n = NonZeroU32::new(u32::try_from(n).unwrap_or(u32::MAX)).unwrap_or(NonZeroU32::MIN);
    limits.take(limit, client, n)
}

/// What `req` counts against, if anything.
fn kind(req: &ServiceRequest) -> Option<Kind> {
    let path = req.path();
    let method = req.method();
    if method == Method::POST && path == "/v1/games" {
        return Some(Kind::Games);
    }
    if method == Method::POST && path == "/v1/join" {
        return Some(Kind::Joins);
    }
    // One more game in a class; a new class, made or imported, counts its
    // games in its handler ([`charge_games`]).
    if method == Method::POST
        && path
            .strip_prefix("/v1/classes/")
            .is_some_and(|rest| rest.split_once('/').map(|(_, t)| t) == Some("games"))
    {
        return Some(Kind::Games);
    }
    if let Some(rest) = path.strip_prefix("/v1/games/") {
        let tail = rest.split_once('/').map(|(_, t)| t);
        if method == Method::POST && tail == Some("throws") {
            return Some(Kind::Throws);
        }
        if method == Method::GET && tail == Some("events") {
            return Some(Kind::Feeds);
        }
    }
    // A new chatbot session: a POST to the MCP endpoint without a session.
    if is_mcp_post(req) && !req.headers().contains_key("mcp-session-id") {
        return Some(Kind::McpSessions);
    }
    None
}

/// The middleware: the request refused with 429 when its address is past
/// its limit, served otherwise.
pub(crate) async fn limit(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody + 'static>>, actix_web::Error> {
    let Some(limits) = req.app_data::<web::Data<RateLimits>>().cloned() else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let mut req = req;
    let mut body = None;
    let counted = match kind(&req) {
        Some(kind) => Some((kind, NonZeroU32::MIN, false)),
        None if is_session_message(&req) => {
            // A chatbot's tool call in a session: read the body (within the
            // application's limit), count it, and hand it on.
            match req.extract::<web::Bytes>().await {
                Ok(bytes) => {
                    let counted = tool_call(&bytes);
                    body = Some(bytes);
                    counted
                }
                Err(e) => return Ok(req.error_response(e).map_into_right_body()),
            }
        }
        None => None,
    };
    let charged = match counted {
        // A run `until` an event, its count not given: as many throws as
        // the address may make now (up to a whole burst), the run held to
        // them, so that it is not refused while some are left.
        Some((kind, n, true)) => limits.check_up_to(&req, kind, n).map(|taken| {
            if let (Some(taken), Some(bytes)) = (taken, body.take()) {
                body = Some(with_count(&bytes, taken));
            }
        }),
        Some((kind, n, false)) => limits.check(&req, kind, n),
        None => Ok(()),
    };
    if let Err(refusal) = charged {
        let response = if is_mcp_post(&req) {
            // An MCP client reads a JSON-RPC error, not problem details.
            let bytes = match body {
                Some(bytes) => Some(bytes),
                None => req.extract::<web::Bytes>().await.ok(),
            };
            let id = bytes
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                .and_then(|m| m.get("id").cloned());
            jsonrpc_refusal(&refusal, id)
        } else {
            refusal.error_response()
        };
        return Ok(req.into_response(response.map_into_right_body()));
    }
    if let Some(bytes) = body {
        req.set_payload(bytes.into());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// Whether `req` is a message within a chatbot (MCP) session: a POST to
/// the MCP endpoint with its session's id.
fn is_session_message(req: &ServiceRequest) -> bool {
    is_mcp_post(req) && req.headers().contains_key("mcp-session-id")
}

/// The tool call `body` with its arguments' `count` set to `n`.
fn with_count(body: &web::Bytes, n: u32) -> web::Bytes {
    let Ok(mut message) = serde_json::from_slice::<serde_json::Value>(body) else {
        return body.clone();
    };
    if let Some(arguments) = message
        .pointer_mut("/params/arguments")
        .and_then(serde_json::Value::as_object_mut)
    {
        arguments.insert("count".to_owned(), n.into());
    }
    serde_json::to_vec(&message).map_or_else(|_| body.clone(), web::Bytes::from)
}

/// Whether `req` is a JSON-RPC message to the MCP endpoint.
fn is_mcp_post(req: &ServiceRequest) -> bool {
    req.method() == Method::POST && req.path().trim_end_matches('/') == super::MOUNTED_PREFIX
}

/// A refusal as an MCP client can read it: a JSON-RPC error answering the
/// request `id` in `application/json`, still 429 (the Python SDK reads a
/// JSON-RPC error in a JSON body at any status), the problem's detail as its
/// message, the problem and `retry_after` (seconds) as its data, and the
/// `Retry-After` header kept.
fn jsonrpc_refusal(refusal: &ApiError, id: Option<serde_json::Value>) -> actix_web::HttpResponse {
    let problem = refusal.problem();
    let retry_after = refusal.retry_after();
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(serde_json::Value::Null),
        "error": {
            "code": JSONRPC_RATE_LIMITED,
            "message": format!("{}: {}", problem.title, problem.detail),
            "data": {
                "type": problem.kind,
                "status": problem.status,
                "detail": problem.detail,
                "retry_after": retry_after,
            },
        },
    });
    let mut res = actix_web::HttpResponse::TooManyRequests();
    if let Some(secs) = retry_after {
        res.insert_header((header::RETRY_AFTER, secs.to_string()));
    }
    res.json(body)
}

/// The JSON-RPC error code of a refusal past a rate limit (in the range
/// JSON-RPC leaves to servers).
const JSONRPC_RATE_LIMITED: i64 = -32029;

/// What a chatbot's message counts against, if anything, and whether it is
/// a run `until` an event without a count: a `create_game`
/// tool call is a game created, a `throw` call its throws (its `count`, or
/// as many as a run may make when it runs `until` an event), as the same
/// operations over REST are (an operator's trial: games created through
/// the tools were not limited). Anything else, or a body that is not a
/// JSON-RPC tool call, counts for nothing here; the endpoint answers it.
fn tool_call(body: &[u8]) -> Option<(Kind, NonZeroU32, bool)> {
    let message: serde_json::Value = serde_json::from_slice(body).ok()?;
    if message.get("method")?.as_str()? != "tools/call" {
        return None;
    }
    let params = message.get("params")?;
    let arguments = params.get("arguments");
    match params.get("name")?.as_str()? {
        "create_game" => Some((Kind::Games, NonZeroU32::MIN, false)),
        "throw" => {
            let count = arguments
                .and_then(|a| a.get("count"))
                .and_then(serde_json::Value::as_u64);
            let until = arguments.is_some_and(|a| a.get("until").is_some_and(|u| !u.is_null()));
            let n = match count {
                Some(n) => u32::try_from(n).unwrap_or(u32::MAX),
                None if until => crate::service::MAX_RUN_THROWS,
                None => 1,
            };
            let n = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
            Some((Kind::Throws, n, count.is_none() && until))
        }
        _ => None,
    }
}
