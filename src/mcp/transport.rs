//! The two transports: Streamable HTTP inside the actix app, and stdio.

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt as _;
use rmcp_actix_web::transport::{LocalSessionManager, StreamableHttpService};

use super::ZohnAhl;
use crate::odds::Solver;
use crate::service::Service;

/// The `/mcp` endpoint: build it once, outside the actix server's factory,
/// so every worker shares its sessions; mount `clone().scope()` in each app.
pub type HttpService = StreamableHttpService<ZohnAhl, LocalSessionManager>;

/// The `Host` values the MCP endpoint accepts by default: loopback only,
/// which keeps a web page a user visits from reaching a server on their
/// machine through DNS rebinding.
pub const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The hosts given, or the loopback ones when none are. An empty list would
/// turn the check off, so it is never passed on.
#[must_use]
pub fn allowed_hosts_or_loopback(hosts: &[String]) -> Vec<String> {
    let hosts: Vec<String> = hosts
        .iter()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .collect();
    if hosts.is_empty() {
        LOOPBACK_HOSTS.iter().map(|&h| h.to_owned()).collect()
    } else {
        hosts
    }
}

/// The Streamable HTTP endpoint over `service`, accepting requests whose
/// `Host` is one of `allowed_hosts` (a host name, or `host:port`; none
/// given: loopback only).
#[must_use]
pub fn http_service(service: Service, odds: Solver, allowed_hosts: &[String]) -> HttpService {
    StreamableHttpService::builder()
        .service_factory(Arc::new(move || {
            Ok(ZohnAhl::with_odds(service.clone(), odds.clone()))
        }))
        .session_manager(Arc::new(LocalSessionManager::default()))
        .stateful_mode(true)
        .sse_keep_alive(Duration::from_secs(15))
        .allowed_hosts(allowed_hosts_or_loopback(allowed_hosts))
        .build()
}

/// Serve the MCP tools over standard input and output until the client
/// closes them. Nothing else may write to standard output: logs go to
/// standard error.
///
/// # Errors
/// The transport failed to start or broke.
pub async fn serve_stdio(service: Service) -> std::io::Result<()> {
    let running = ZohnAhl::new(service)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
