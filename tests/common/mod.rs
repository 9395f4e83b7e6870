//! Shared test harness: the real application over a real SQLite file in a
//! fresh temporary directory, with real migrations.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::Value;
use zohn_ahl::service::Service;
use zohn_ahl::store::Store;

/// A temporary database directory and its URL.
pub struct TestDb {
    pub dir: tempfile::TempDir,
    pub url: String,
}

impl TestDb {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("games.db").display());
        Self { dir, url }
    }

    pub async fn service(&self) -> Service {
        Service::new(Store::connect(&self.url).await.expect("open store"))
    }
}

/// The real application over a fresh SQLite file (real migrations), as
/// actix's test service: `let (_db, app) = spawn_app().await;` (keep the
/// database alive while the app runs).
pub async fn spawn_app() -> (
    TestDb,
    impl actix_web::dev::Service<
        actix_http::Request,
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
    >,
) {
    let db = TestDb::new();
    let app = test::init_service(zohn_ahl::http::app(db.service().await)).await;
    (db, app)
}

/// A response read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    }

    /// Assert a problem+json reply with this status; return the problem.
    pub fn problem(&self, status: u16) -> Value {
        assert_eq!(
            self.status.as_u16(),
            status,
            "body: {}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(
            self.header("content-type").as_deref(),
            Some("application/problem+json"),
            "problem content type"
        );
        let p = self.json();
        assert_eq!(p["status"], status);
        assert!(p["type"].as_str().unwrap().starts_with("/problems/"));
        assert!(!p["title"].as_str().unwrap().is_empty());
        assert!(!p["detail"].as_str().unwrap().is_empty());
        p
    }
}

pub async fn read<B: MessageBody>(res: ServiceResponse<B>) -> Reply {
    let status = res.status();
    let headers = res.headers().clone();
    let body = test::read_body(res).await.to_vec();
    Reply {
        status,
        headers,
        body,
    }
}

/// Send a request through the app.
pub async fn send<S, B>(app: &S, req: test::TestRequest) -> Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: MessageBody,
{
    match app.call(req.to_request()).await {
        Ok(res) => read(res).await,
        Err(e) => {
            let res = e.error_response();
            Reply {
                status: res.status(),
                headers: res.headers().clone(),
                body: actix_web::body::to_bytes(res.into_body())
                    .await
                    .map(|b| b.to_vec())
                    .unwrap_or_default(),
            }
        }
    }
}

pub fn post_json(path: &str, body: &Value) -> test::TestRequest {
    test::TestRequest::post().uri(path).set_json(body)
}

pub fn get(path: &str) -> test::TestRequest {
    test::TestRequest::get().uri(path)
}

pub fn post_empty(path: &str) -> test::TestRequest {
    test::TestRequest::post().uri(path)
}

/// The server's whole application (the API and the MCP endpoint at `/mcp`)
/// over a fresh SQLite file, bound to a free loopback port and serving in
/// the background: `let (_db, base, _server) = spawn_server().await;`, then
/// requests to `base` (`http://127.0.0.1:PORT`). Dropping the handle stops
/// the server.
pub async fn spawn_server() -> (TestDb, String, ServerHandle) {
    let db = TestDb::new();
    let service = db.service().await;
    let mcp = zohn_ahl::mcp::http_service(service.clone(), zohn_ahl::odds::Solver::shared(), &[]);
    let server =
        actix_web::HttpServer::new(move || zohn_ahl::server::app(service.clone(), mcp.clone()))
            .workers(1)
            .disable_signals()
            .bind(("127.0.0.1", 0))
            .expect("bind a loopback port");
    let addr = server.addrs()[0];
    let server = server.run();
    let handle = server.handle();
    tokio::spawn(server);
    (db, format!("http://{addr}"), ServerHandle(handle))
}

/// Stops a server of [`spawn_server`] when dropped.
pub struct ServerHandle(actix_web::dev::ServerHandle);

impl Drop for ServerHandle {
    fn drop(&mut self) {
        let handle = self.0.clone();
        drop(handle.stop(false));
    }
}
