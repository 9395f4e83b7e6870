//! The two transports: Streamable HTTP inside the actix app, and stdio.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManagerError;
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use rmcp::ServiceExt as _;
use rmcp_actix_web::transport::{LocalSessionManager, StreamableHttpService};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};

use super::ZohnAhl;
use crate::odds::Solver;
use crate::service::Service;

/// The `/mcp` endpoint: build it once, outside the actix server's factory,
/// so every worker shares its sessions; mount `clone().scope()` in each app.
pub type HttpService = StreamableHttpService<ZohnAhl, IdleSessions>;

/// How long a session may stay idle (no request) by default before it is
/// ended.
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// Most sessions kept at once: a new session past it ends the one idle the
/// longest. About 0.3 MB each, so the sessions' memory stays within about
/// 150 MB whatever clients do.
pub const MAX_SESSIONS: usize = 500;

/// The SDK's sessions, each ended once idle for longer than its lifetime,
/// and then answered as the transport says of an ended session: 404, which
/// tells a client to start a new one. (On its own the SDK stopped an idle
/// session's worker after five minutes but kept its id, and the next
/// request failed with 500.)
pub struct IdleSessions {
    inner: LocalSessionManager,
    idle: Duration,
    max: usize,
    seen: Mutex<HashMap<SessionId, Instant>>,
}

impl IdleSessions {
    /// Sessions that end after `idle` without a request.
    #[must_use]
    pub fn new(idle: Duration) -> Self {
        Self::with_max(idle, MAX_SESSIONS)
    }

    /// Sessions that end after `idle` without a request, at most `max` of
    /// them (past it, a new one ends the one idle the longest).
    #[must_use]
    pub fn with_max(idle: Duration, max: usize) -> Self {
        let mut inner = LocalSessionManager::default();
        // The worker outlives the lifetime kept here, so a session ends
        // here first, with its 404.
        inner.session_config.keep_alive = Some(idle + Duration::from_secs(60));
        Self {
            inner,
            idle,
            max: max.max(1),
            seen: Mutex::new(HashMap::new()),
        }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Instant>> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn touch(&self, id: &SessionId) {
        let mut seen = self.seen();
        seen.insert(id.clone(), Instant::now());
        sessions_now(seen.len());
    }

    /// End every session idle for longer than the lifetime.
    async fn end_idle(&self) -> Result<(), LocalSessionManagerError> {
        let idle: Vec<SessionId> = {
            let mut seen = self.seen();
            let idle: Vec<SessionId> = seen
                .iter()
                .filter(|(_, at)| at.elapsed() > self.idle)
                .map(|(id, _)| id.clone())
                .collect();
            for id in &idle {
                seen.remove(id);
            }
            sessions_now(seen.len());
            idle
        };
        for id in &idle {
            self.inner.close_session(id).await?;
        }
        Ok(())
    }
}

/// The metric of the MCP sessions open now (Streamable HTTP).
pub const SESSIONS: &str = "zohn_ahl_mcp_sessions";

/// Describe the MCP surface's metrics to the installed recorder.
pub fn describe_metrics() {
    metrics::describe_gauge!(SESSIONS, "MCP sessions open now (Streamable HTTP).");
    sessions_now(0);
}

/// The MCP sessions open now.
fn sessions_now(count: usize) {
    #[allow(clippy::cast_precision_loss)]
    metrics::gauge!(SESSIONS).set(count as f64);
}

impl SessionManager for IdleSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.end_idle().await?;
        // At the most sessions: the one idle the longest ends.
        let oldest = {
            let mut seen = self.seen();
            let oldest = (seen.len() >= self.max)
                .then(|| {
                    seen.iter()
                        .min_by_key(|(_, at)| **at)
                        .map(|(id, _)| id.clone())
                })
                .flatten();
            if let Some(id) = &oldest {
                seen.remove(id);
            }
            oldest
        };
        if let Some(id) = oldest {
            self.inner.close_session(&id).await?;
        }
        let (id, transport) = self.inner.create_session().await?;
        self.touch(&id);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.end_idle().await?;
        if !self.seen().contains_key(id) {
            return Ok(false);
        }
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        {
            let mut seen = self.seen();
            seen.remove(id);
            sessions_now(seen.len());
        }
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }
}

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
/// given: loopback only), its sessions ended after `idle` without a
/// request.
#[must_use]
pub fn http_service(
    service: Service,
    odds: Solver,
    allowed_hosts: &[String],
    idle: Duration,
) -> HttpService {
    StreamableHttpService::builder()
        .service_factory(Arc::new(move || {
            Ok(ZohnAhl::with_odds(service.clone(), odds.clone()))
        }))
        .session_manager(Arc::new(IdleSessions::new(idle)))
        .stateful_mode(true)
        .sse_keep_alive(Duration::from_secs(15))
        .allowed_hosts(allowed_hosts_or_loopback(allowed_hosts))
        .build()
}

/// Serve the MCP tools over standard input and output until the client
/// closes them. Nothing else may write to standard output: logs go to
/// standard error. Each line read is screened first
/// ([`screen`](super::jsonrpc::screen)): a message the SDK would drop
/// unanswered (not JSON, no JSON-RPC message, `tools/call` without a name)
/// is answered with its JSON-RPC error; the others go to the SDK.
///
/// # Errors
/// The transport failed to start or broke.
pub async fn serve_stdio(service: Service) -> std::io::Result<()> {
    serve_lines(service, tokio::io::stdin(), tokio::io::stdout()).await
}

/// [`serve_stdio`] over any pair of byte streams, a message a line.
///
/// # Errors
/// The transport failed to start or broke.
pub async fn serve_lines<R, W>(service: Service, input: R, mut output: W) -> std::io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sdk_side, ours) = tokio::io::duplex(1 << 16);
    let (from_sdk, mut to_sdk) = tokio::io::split(ours);
    let (lines, mut outgoing) = tokio::sync::mpsc::channel::<Vec<u8>>(64);
    // One writer, a whole line at a time: the SDK's answers and ours.
    let writer = tokio::spawn(async move {
        while let Some(line) = outgoing.recv().await {
            output.write_all(&line).await?;
            output.flush().await?;
        }
        Ok::<_, std::io::Error>(())
    });
    let answers = lines.clone();
    let relay = tokio::spawn(async move {
        let mut from_sdk = BufReader::new(from_sdk);
        loop {
            let mut line = Vec::new();
            if from_sdk.read_until(b'\n', &mut line).await? == 0
                || answers.send(line).await.is_err()
            {
                return Ok::<_, std::io::Error>(());
            }
        }
    });
    let reader = tokio::spawn(async move {
        let mut input = BufReader::new(input);
        loop {
            let mut line = Vec::new();
            if input.read_until(b'\n', &mut line).await? == 0 {
                // End of input: the SDK sees it too, and ends.
                to_sdk.shutdown().await?;
                return Ok::<_, std::io::Error>(());
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match super::jsonrpc::screen(&line) {
                Some(answer) => {
                    let mut said = serde_json::to_vec(&answer).unwrap_or_default();
                    said.push(b'\n');
                    if lines.send(said).await.is_err() {
                        return Ok(());
                    }
                }
                None => to_sdk.write_all(&line).await?,
            }
        }
    });
    let running = ZohnAhl::new(service)
        .serve(sdk_side)
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    reader.abort();
    for task in [relay, writer] {
        task.await.map_err(std::io::Error::other)??;
    }
    Ok(())
}
