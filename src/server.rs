//! Starting the HTTP server.

use actix_web::HttpServer;
use tracing_subscriber::EnvFilter;

use crate::service::{PURGE_EVERY, Service, ServiceError};
use crate::store::{SecretKey, SecretKeyError, Store, StoreError};
use std::net::SocketAddr;

/// The server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened or migrated.
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    /// A check failed to read the store.
    #[error("{0}")]
    Service(#[from] ServiceError),
    /// The address could not be bound, or the server failed.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
    /// The secret key file cannot be used.
    #[error(transparent)]
    SecretKey(#[from] SecretKeyError),
    /// A command that reads a database was given a SQLite file that does
    /// not exist (the server creates one at its first start; a command
    /// that only reads never does).
    #[error("no database at {}: check --database-url", .0.display())]
    NoDatabase(std::path::PathBuf),
    /// A backup could not be written.
    #[error("cannot back up: {0}")]
    Backup(StoreError),
    /// A listener's address cannot be bound.
    #[error("cannot listen on {addr} ({which}): {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// `--addr` or `--metrics-addr`.
        which: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// An argument is not what the command takes.
    #[error("{0}")]
    Argument(String),
    /// The metrics' recorder cannot be installed.
    #[error("cannot keep metrics: {0}")]
    Metrics(#[from] metrics_exporter_prometheus::BuildError),
}

/// What the server needs to start: the command line's server flags, or a
/// test's or an embedding program's own choice.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The database URL or path.
    pub database_url: String,
    /// The file of the secret key that seals the answers kept under
    /// idempotency keys; `None`: [`Store::default_key_file`] (beside a
    /// SQLite file, `zohn-ahl.key` in the working directory for
    /// PostgreSQL). Made at the first start if missing.
    pub secret_key_file: Option<std::path::PathBuf>,
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The address of the metrics' own listener; `None`: no metrics.
    pub metrics_addr: Option<SocketAddr>,
    /// The log filter (tracing's EnvFilter syntax).
    pub log: String,
    /// The log's lines: for a person or for a log shipper.
    pub log_format: LogFormat,
    /// HTTP worker threads; `None`: one per core.
    pub workers: Option<usize>,
    /// Most throws committed together.
    pub max_batch: usize,
    /// Whether moves carry their chances of winning.
    pub move_chances: bool,
    /// The limits per client address.
    pub rates: crate::http::RateSettings,
    /// Delete finished games this many days after their end, and
    /// unfinished ones this many days after their last move; `None`: keep
    /// them until deleted.
    pub retention_days: Option<u32>,
    /// Most live-feed subscribers, per game and in all.
    pub feed: crate::service::FeedLimits,
    /// `Host` values the MCP endpoint accepts (empty: loopback only).
    pub mcp_allowed_hosts: Vec<String>,
    /// How long an MCP session may stay without a request.
    pub mcp_session_idle: std::time::Duration,
    /// Which web origins may read and write from a browser.
    pub cors: crate::http::CorsPolicy,
    /// Where the lesson pages tell readers to report a correction.
    pub corrections_contact: Option<crate::http::CorrectionsContact>,
    /// The base URL the served OpenAPI document names (`None`: the one
    /// each request reached).
    pub public_url: Option<crate::http::PublicUrl>,
}

/// A setting that is on or off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// On.
    #[default]
    On,
    /// Off.
    Off,
}

/// How the log's lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One line of text per event (a request's when its answer is ready,
    /// `answered` with `duration_ms`), coloured on a terminal.
    #[default]
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, the
    /// event's `fields` (a request's line: `duration_ms`, a number) and the
    /// request span's fields (`span`: method, route, status, request id,
    /// ...), for a log shipper.
    Json,
}

/// Read the secret key (making its file if missing), open the database
/// (creating and migrating it), then serve until interrupted (Ctrl-C or
/// SIGTERM: in-flight requests finish first).
///
/// # Errors
/// [`ServerError`] when the key file cannot be used, the database cannot
/// be opened or the address bound.
pub fn run(args: Settings) -> Result<(), ServerError> {
    init_log(&args.log, "info", args.log_format);
    // Both listeners first: a taken address stops the start before any
    // file is made.
    let bind = |addr: SocketAddr, which: &'static str| {
        std::net::TcpListener::bind(addr).map_err(|source| ServerError::Bind {
            addr,
            which,
            source,
        })
    };
    let listener = bind(args.addr, "--addr")?;
    let metrics_listener = args
        .metrics_addr
        .map(|addr| bind(addr, "--metrics-addr"))
        .transpose()?;
    actix_web::rt::System::new().block_on(async move {
        let key_file = match &args.secret_key_file {
            Some(file) => file.clone(),
            None => Store::default_key_file(&args.database_url)?,
        };
        let secret = SecretKey::load_or_create(&key_file)?;
        let store = Store::connect_with_key(&args.database_url, Some(secret)).await?;
        #[cfg(feature = "bench-baseline")]
        store.baseline_setup().await?;
        let service = Service::with_throws(
            store.clone(),
            args.max_batch,
            args.feed,
            std::sync::Arc::new(crate::throws::FromSeed),
        );
        crate::service::set_move_chances(args.move_chances);
        // Every preset's exact odds, solved in the background from now on.
        crate::odds::Solver::shared().solve_presets();
        // Expired idempotency answers (and, with a retention, old games)
        // are purged now and every few minutes.
        let retention = args
            .retention_days
            .map(|days| time::Duration::days(i64::from(days)));
        actix_web::rt::spawn(service.clone().keep_house(retention, PURGE_EVERY));
        // The schema as the migrations left it: an operator sees that
        // they ran (a second instance finds them done).
        let schema = match service.store().schema_version().await {
            Ok(version) => version,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the schema's version");
                None
            }
        };
        tracing::info!(
            addr = %args.addr,
            database = %crate::store::redacted(&args.database_url),
            secret_key_file = %key_file.display(),
            schema,
            retention_days = args.retention_days,
            "serving Zohn Ahl"
        );
        let mcp = crate::mcp::http_service(
            service.clone(),
            crate::odds::Solver::shared(),
            &args.mcp_allowed_hosts,
            args.mcp_session_idle,
        );
        let service_hub = service.hub_handle();
        let cors = args.cors.clone();
        let contact = args.corrections_contact.clone();
        let public_url = args.public_url.clone();
        let metrics = match metrics_listener {
            Some(listener) => Some(serve_metrics(
                listener,
                crate::metrics::install()?,
                store.clone(),
            )?),
            None => None,
        };
        let measured = metrics.is_some();
        let rates = actix_web::web::Data::new(crate::http::RateLimits::new(&args.rates));
        // The addresses whose limits are whole again are forgotten every
        // few minutes: the limits' memory follows the addresses seen lately.
        {
            let rates = rates.clone();
            actix_web::rt::spawn(async move {
                let mut every = actix_web::rt::time::interval(std::time::Duration::from_secs(300));
                loop {
                    every.tick().await;
                    rates.forget_idle();
                }
            });
        }
        let mut server = serve_on(listener, move || {
            let app = app_with_cors(service.clone(), mcp.clone(), cors.clone()).wrap(
                actix_web::middleware::Condition::new(
                    measured,
                    actix_web::middleware::from_fn(crate::metrics::record_request),
                ),
            );
            let app = app.app_data(rates.clone());
            let app = match &contact {
                Some(c) => app.app_data(actix_web::web::Data::new(c.clone())),
                None => app,
            };
            match &public_url {
                Some(u) => app.app_data(actix_web::web::Data::new(u.clone())),
                None => app,
            }
        })?;
        if let Some(workers) = args.workers {
            server = server.workers(workers.max(1));
        }
        // Ctrl-C and SIGTERM both stop the server gracefully (actix-server's
        // own handling makes Ctrl-C a forced stop, which cut the requests in
        // flight): the live feeds end first, since an open stream would hold
        // the graceful stop for its whole timeout (30 s) and then be cut;
        // then the requests in flight finish.
        let server = server.disable_signals().run();
        let handle = server.handle();
        let hub = service_hub.clone();
        actix_web::rt::spawn(async move {
            stop_signal().await;
            tracing::info!("stopping: the live feeds end, the requests in flight finish");
            hub.close_all();
            handle.stop(true).await;
        });
        server.await?;
        if let Some(metrics) = metrics {
            metrics.stop(true).await;
        }
        store.close().await;
        tracing::info!("stopped; the database is closed");
        Ok(())
    })
}

/// The metrics' own listener on `listener`: `GET /metrics` only, one worker,
/// stopped by the caller (its handle).
fn serve_metrics(
    listener: std::net::TcpListener,
    handle: metrics_exporter_prometheus::PrometheusHandle,
    store: Store,
) -> Result<actix_web::dev::ServerHandle, ServerError> {
    let server = HttpServer::new(move || {
        let (handle, store) = (handle.clone(), store.clone());
        actix_web::App::new().route(
            "/metrics",
            actix_web::web::get().to(move || {
                let body = crate::metrics::render(&handle, &store);
                async move {
                    actix_web::HttpResponse::Ok()
                        .content_type("text/plain; version=0.0.4; charset=utf-8")
                        .body(body)
                }
            }),
        )
    })
    .workers(1)
    .disable_signals();
    let addr = listener.local_addr()?;
    let server = server.listen(listener)?.run();
    let stop = server.handle();
    actix_web::rt::spawn(server);
    tracing::info!(%addr, "metrics at /metrics");
    Ok(stop)
}

/// The HTTP settings the server runs with, for the live feed's sake:
///
/// - `TCP_NODELAY` on every connection: an event is a few KB, less than a
///   segment, and with Nagle's algorithm the kernel held each one back
///   while the previous one waited for its (delayed) acknowledgement, so
///   a move could reach a subscriber tens of milliseconds late;
/// - a client that closes its side of the connection is gone: its stream
///   ends at once and its subscriber's place is given back (it was kept
///   until the next event or keep-alive failed to be written, up to 15 s
///   of memory and of the bound for each subscriber that had left).
///   HTTP/1.1 clients do not half-close a connection while they wait for
///   an answer;
/// - the connection's time-outs of [`crate::http::limits`].
pub fn tuned<F, I, S, B>(server: HttpServer<F, I, S, B>) -> HttpServer<F, I, S, B>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: actix_service::IntoServiceFactory<S, actix_http::Request>,
    S: actix_web::dev::ServiceFactory<actix_http::Request, Config = actix_web::dev::AppConfig>
        + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: std::fmt::Debug,
    S::Response: Into<actix_http::Response<B>> + 'static,
    <S::Service as actix_web::dev::Service<actix_http::Request>>::Future: 'static,
    S::Service: 'static,
    B: actix_web::body::MessageBody + 'static,
{
    use crate::http::limits::{DISCONNECT_TIMEOUT, KEEP_ALIVE, REQUEST_HEAD_TIMEOUT};
    server
        .tcp_nodelay(true)
        .h1_allow_half_closed(false)
        .keep_alive(KEEP_ALIVE)
        .client_request_timeout(REQUEST_HEAD_TIMEOUT)
        .client_disconnect_timeout(DISCONNECT_TIMEOUT)
}

/// The server for the application `factory` builds, on `listener`, with
/// the settings of [`tuned`] and the connection's time-outs of
/// [`crate::http::limits`] (keep-alive, the first request head's
/// deadline, the wait for a close). Set workers and signals on the
/// builder, then `run()` it.
///
/// # Errors
/// When the listener's address cannot be read or it cannot be listened on.
pub fn serve_on<F, I, S, B>(
    listener: std::net::TcpListener,
    factory: F,
) -> std::io::Result<actix_server::ServerBuilder>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: actix_service::IntoServiceFactory<S, actix_http::Request>,
    S: actix_web::dev::ServiceFactory<actix_http::Request, Config = actix_web::dev::AppConfig>
        + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: std::fmt::Debug,
    S::Response: Into<actix_http::Response<B>> + 'static,
    <S::Service as actix_web::dev::Service<actix_http::Request>>::Future: 'static,
    S::Service: 'static,
    B: actix_web::body::MessageBody + 'static,
{
    use crate::http::limits::{DISCONNECT_TIMEOUT, KEEP_ALIVE, REQUEST_HEAD_TIMEOUT};
    use actix_service::{ServiceFactoryExt, fn_service, map_config};
    let addr = listener.local_addr()?;
    let builder = actix_server::Server::build();
    let shutdown = builder.graceful_shutdown_signal();
    builder.listen(format!("zohn-ahl-{addr}"), listener, move || {
        let signal = shutdown.clone();
        let app = factory()
            .into_factory()
            .map_err(|err| err.into().error_response());
        let http = actix_http::HttpService::build()
            .keep_alive(actix_http::KeepAlive::Timeout(KEEP_ALIVE))
            .client_request_timeout(REQUEST_HEAD_TIMEOUT)
            .client_disconnect_timeout(DISCONNECT_TIMEOUT)
            .h1_allow_half_closed(false)
            .local_addr(addr)
            .graceful_shutdown_signal(move || {
                let signal = signal.clone();
                async move { signal.notified().await }
            })
            .h1(map_config(app, |()| actix_web::dev::AppConfig::default()));
        fn_service(|io: actix_web::rt::net::TcpStream| {
            // TCP_NODELAY, as `tuned` sets it.
            let _ = io.set_nodelay(true);
            let peer = io.peer_addr().ok();
            std::future::ready(Ok((io, peer)))
        })
        .and_then(http)
    })
}

/// The log filter as given, with PostgreSQL's notices (sqlx logs them at
/// INFO, such as "relation \"_sqlx_migrations\" already exists, skipping"
/// at every start of a second instance) only from warnings up, unless the
/// filter says what to do with sqlx.
fn log_filter(filter: &str) -> String {
    if filter.contains("sqlx") {
        filter.to_owned()
    } else if filter.trim().is_empty() {
        "sqlx::postgres::notice=warn".to_owned()
    } else {
        format!("{filter},sqlx::postgres::notice=warn")
    }
}

/// Ctrl-C or SIGTERM: the signals on which the server stops gracefully.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Logs to standard error, never standard output (which the stdio MCP
/// transport owns): one line per request when its span closes
/// (tracing-actix-web opens one span per request); as text, coloured only
/// on a terminal, or as one JSON object a line.
fn init_log(filter: &str, default: &str, format: LogFormat) {
    let filter = log_filter(filter);
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|_| EnvFilter::new(log_filter(default)));
    // No span's close event: a request's line is its own event
    // (`crate::http::log`), whose `duration_ms` is a number; the close
    // event's `time.busy` and `time.idle` were strings ("1.23ms").
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => log
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .try_init(),
        LogFormat::Json => log
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
}

/// The application the server runs: the API ([`crate::http::app`]) and
/// the MCP endpoint at `/mcp`, over one service; browsers of any origin may
/// read, none may write.
pub fn app(
    service: Service,
    mcp: crate::mcp::HttpService,
) -> actix_web::App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with_cors(service, mcp, crate::http::CorsPolicy::default())
}

/// [`app`] with the web origins `cors` lets write.
pub fn app_with_cors(
    service: Service,
    mcp: crate::mcp::HttpService,
    cors: crate::http::CorsPolicy,
) -> actix_web::App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    crate::http::app_with(service, crate::odds::Solver::shared(), cors, move |cfg| {
        cfg.service(
            actix_web::web::scope(crate::http::MOUNTED_PREFIX)
                .wrap(actix_web::middleware::from_fn(
                    crate::mcp::jsonrpc::screen_posts,
                ))
                .service(mcp.scope()),
        );
    })
}

/// Serve the MCP tools over stdio on the database at `url` until the
/// client closes the connection; logs go to standard error.
///
/// # Errors
/// [`ServerError`] when the database cannot be opened or the transport fails.
pub fn run_mcp_stdio(url: &str, log: &str) -> Result<(), ServerError> {
    init_log(log, "warn", LogFormat::Text);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        // The tools keep no answer under an idempotency key: no secret key.
        let store = Store::connect_with_key(url, None).await?;
        let service = Service::new(store.clone());
        crate::odds::Solver::shared().solve_presets();
        tracing::info!(database = %crate::store::redacted(url), "serving Zohn Ahl's MCP tools on stdio");
        crate::mcp::serve_stdio(service).await?;
        store.close().await;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::log_filter;

    #[test]
    fn postgresql_notices_are_logged_from_warnings_up_unless_the_filter_names_sqlx() {
        assert_eq!(log_filter("info"), "info,sqlx::postgres::notice=warn");
        assert_eq!(log_filter(""), "sqlx::postgres::notice=warn");
        assert_eq!(log_filter("info,sqlx=debug"), "info,sqlx=debug");
        // The filter is one EnvFilter accepts.
        assert!(tracing_subscriber::EnvFilter::try_new(log_filter("warn,zohn_ahl=debug")).is_ok());
    }
}
