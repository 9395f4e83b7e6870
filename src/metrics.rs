//! Prometheus metrics, for an operator's dashboard: served in Prometheus's
//! text format at `GET /metrics` on their own listener (`--metrics-addr`),
//! never on the public one. Off unless that flag is given: then a recorder
//! is installed and every layer's metrics (named where they are recorded:
//! [`crate::service::metrics`], the odds solver's, the MCP sessions') are
//! kept, with the HTTP requests' here.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};

use crate::http::problem::ProblemType;
use crate::store::Store;

/// Requests answered, by method, route (the route's pattern, `unmatched`
/// for none) and status; an answer with problem details also by its
/// problem's type (`problem`, e.g. `/problems/game-over`), which tells a
/// 409's causes (a game over, a request in flight, ...) and a 503's apart.
pub const HTTP_REQUESTS: &str = "zohn_ahl_http_requests_total";
/// Seconds from a request's head to its answer's head, by method and
/// route, a histogram.
pub const HTTP_DURATION: &str = "zohn_ahl_http_request_duration_seconds";
/// The database pools' connections open now, by pool.
pub const POOL_CONNECTIONS: &str = "zohn_ahl_db_pool_connections";
/// The database pools' idle connections now, by pool.
pub const POOL_IDLE: &str = "zohn_ahl_db_pool_idle_connections";

/// 1, labelled with the server's version: which build answers (a
/// dashboard's panel of versions across instances during an upgrade).
pub const BUILD_INFO: &str = "zohn_ahl_build_info";

/// The process's own metrics (`process_cpu_seconds_total`,
/// `process_resident_memory_bytes`, `process_open_fds`, ...), read at each
/// scrape.
static PROCESS: std::sync::LazyLock<metrics_process::Collector> =
    std::sync::LazyLock::new(metrics_process::Collector::default);

/// The bounds of the time histograms' buckets, in seconds.
const SECONDS_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];
/// The bounds of the batch-size histogram's buckets, in throws (the
/// largest batch is 256).
const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];

/// Install the process's recorder, every metric described; its handle
/// renders them.
///
/// # Errors
/// When a recorder is already installed.
pub fn install() -> Result<PrometheusHandle, BuildError> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), SECONDS_BUCKETS)?
        .set_buckets_for_metric(
            Matcher::Full(crate::service::metrics::BATCH_SIZE.to_owned()),
            BATCH_BUCKETS,
        )?
        .install_recorder()?;
    metrics::describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by method, route and status (and problem type, for a problem)."
    );
    metrics::describe_histogram!(
        HTTP_DURATION,
        metrics::Unit::Seconds,
        "Time from a request's head to its answer's head, by method and route."
    );
    metrics::describe_gauge!(POOL_CONNECTIONS, "Database connections open now, by pool.");
    metrics::describe_gauge!(POOL_IDLE, "Idle database connections now, by pool.");
    metrics::describe_gauge!(BUILD_INFO, "1, labelled with the server's version.");
    metrics::gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
    PROCESS.describe();
    crate::service::metrics::describe();
    crate::odds::describe_metrics();
    crate::mcp::describe_metrics();
    Ok(handle)
}

/// The middleware that counts and times every request of the public
/// listener.
///
/// # Errors
/// The inner service's own.
pub async fn record_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().as_str().to_owned();
    let res = next.call(req).await?;
    let route = res
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    let status = res.status().as_u16().to_string();
    let mut labels = vec![
        metrics::Label::new("method", method.clone()),
        metrics::Label::new("route", route.clone()),
        metrics::Label::new("status", status),
    ];
    if let Some(ProblemType(problem)) = res.response().extensions().get::<ProblemType>() {
        labels.push(metrics::Label::new("problem", problem.clone()));
    }
    metrics::counter!(HTTP_REQUESTS, labels).increment(1);
    metrics::histogram!(HTTP_DURATION, "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    Ok(res)
}

/// The metrics as Prometheus reads them, the pools' gauges and the
/// process's read now.
#[must_use]
pub fn render(handle: &PrometheusHandle, store: &Store) -> String {
    PROCESS.collect();
    for (pool, open, idle) in store.pool_use() {
        metrics::gauge!(POOL_CONNECTIONS, "pool" => pool).set(f64::from(open));
        #[allow(clippy::cast_precision_loss)]
        metrics::gauge!(POOL_IDLE, "pool" => pool).set(idle as f64);
    }
    handle.render()
}
