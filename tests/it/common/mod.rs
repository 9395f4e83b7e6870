//! Shared test harness: the real application, served by actix's real HTTP
//! server on a loopback port bound for the test (port 0), over a real SQLite
//! file in a fresh temporary directory, with real migrations. Requests are
//! written with actix's `TestRequest` builder and sent over TCP by a real
//! HTTP client.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::Value;
use zohn_ahl::service::Service;
use zohn_ahl::store::Store;

pub mod live;
pub mod process;

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

    /// The database file of `tests/fixtures/games-0004.db.gz`, written by
    /// the version before the move log (migrations 0001-0004, moves kept
    /// as JSON records with their narration): 15 games, one per preset and
    /// audience, seated and open, with reported throws, idempotency keys, a
    /// stopped game and a finished one.
    pub fn with_fixture_0004() -> Self {
        use std::io::Read;
        let db = Self::new();
        let gz = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/games-0004.db.gz"),
        )
        .expect("the fixture");
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(gz.as_slice())
            .read_to_end(&mut bytes)
            .expect("a gzipped database");
        std::fs::write(db.dir.path().join("games.db"), bytes).expect("write the fixture");
        db
    }

    /// A fresh database for an HTTP suite: SQLite, or PostgreSQL when
    /// `ZOHN_AHL_TEST_BACKEND=postgres` (panicking when no server is given:
    /// that run asked for one).
    pub async fn for_suite() -> Self {
        let mut db = Self::new();
        if std::env::var("ZOHN_AHL_TEST_BACKEND").as_deref() == Ok("postgres") {
            db.url = fresh_postgres().await;
        }
        db
    }

    pub async fn service(&self) -> Service {
        Service::new(Store::connect(&self.url).await.expect("open store"))
    }
}

/// Run each statement on the test's database, SQLite or PostgreSQL, with
/// its text arguments bound in order.
pub async fn run_sql(url: &str, statements: &[(String, Vec<String>)]) {
    macro_rules! each {
        ($pool:expr) => {{
            let pool = $pool;
            for (sql, args) in statements {
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.as_str()));
                for a in args {
                    q = q.bind(a.clone());
                }
                q.execute(&pool)
                    .await
                    .unwrap_or_else(|e| panic!("{sql}: {e}"));
            }
            pool.close().await;
        }};
    }
    if url.starts_with("postgres") {
        each!(sqlx::PgPool::connect(url).await.unwrap());
    } else {
        each!(sqlx::SqlitePool::connect(url).await.unwrap());
    }
}

/// The one number a query gives (a `COUNT(*)`), on the test's database,
/// SQLite or PostgreSQL, its text arguments bound in order (`$1`, ...).
pub async fn count(url: &str, sql: &str, args: &[&str]) -> i64 {
    macro_rules! one {
        ($pool:expr) => {{
            let pool = $pool;
            let mut q = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql));
            for a in args {
                q = q.bind(*a);
            }
            let n = q
                .fetch_one(&pool)
                .await
                .unwrap_or_else(|e| panic!("{sql}: {e}"));
            pool.close().await;
            n
        }};
    }
    if url.starts_with("postgres") {
        one!(sqlx::PgPool::connect(url).await.unwrap())
    } else {
        one!(sqlx::SqlitePool::connect(url).await.unwrap())
    }
}

/// The URL of a fresh, empty PostgreSQL schema for one test (its
/// connections' `search_path`), made on the
/// server named by `ZOHN_AHL_TEST_POSTGRES` (a `postgres://` URL whose role
/// may create schemas in its database) or, without it, by the `PG*`
/// variables that `pg_virtualenv` exports (`PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`). Panics when neither is set: the tests that call it are
/// ignored unless a server was given when they were built, or `CI` was set
/// (the cfg `postgres_tests`, see `build.rs`), so a test that gets here was
/// promised one.
pub async fn fresh_postgres() -> String {
    let base = match std::env::var("ZOHN_AHL_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => match (std::env::var("PGHOST"), std::env::var("PGUSER")) {
            (Ok(host), Ok(user)) => format!(
                "postgres://{user}:{}@{host}:{}/{}",
                std::env::var("PGPASSWORD").unwrap_or_default(),
                std::env::var("PGPORT").unwrap_or_else(|_| "5432".to_owned()),
                std::env::var("PGDATABASE").unwrap_or_else(|_| "postgres".to_owned()),
            ),
            _ => panic!(
                "this test needs PostgreSQL and none is given (ZOHN_AHL_TEST_POSTGRES, or PGHOST and PGUSER as pg_virtualenv exports them){}",
                if std::env::var_os("CI").is_some() {
                    ": CI is set, and CI provides PostgreSQL"
                } else {
                    ""
                }
            ),
        },
    };
    use sqlx::ConnectOptions;
    use std::str::FromStr;
    let mut admin = sqlx::postgres::PgConnectOptions::from_str(&base)
        .expect("a PostgreSQL URL")
        .connect()
        .await
        .unwrap_or_else(|e| panic!("cannot reach PostgreSQL at {base}: {e}"));
    // A schema of its own (far cheaper than a database): the test's
    // connections find their tables there first.
    let name = format!("zohn_test_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {name}")))
        .execute(&mut admin)
        .await
        .expect("create a test schema");
    let separator = if base.contains('?') { '&' } else { '?' };
    format!("{base}{separator}options=-c%20search_path%3D{name}")
}

/// What libtest does with the other tests of the calling test's module,
/// which need a tool (`built_with`: the cfg `build.rs` set for it,
/// `cfg!(postgres_tests)` or `cfg!(browser_tests)`), checked by running the
/// binary again (no build). Built without the tool, each is ignored and says
/// why (`test NAME ... ignored, needs ...`, where `reason` starts the
/// reason); built with it (or with `CI` set), none is ignored: they run for
/// real. `this` is the calling test's full name, `module::test`.
pub fn assert_the_other_tests_run_or_say_why(built_with: bool, this: &str, reason: &str) {
    let exe = std::env::current_exe().expect("this test binary");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&exe)
            .args(args)
            .output()
            .expect("run this test binary again");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let module = this
        .rsplit_once("::")
        .map(|(module, _)| format!("{module}::"))
        .expect("the calling test's full name, module::test");
    let others = |list: String| {
        list.lines()
            .filter_map(|line| line.strip_suffix(": test"))
            .filter(|name| name.starts_with(&module) && *name != this)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let all = others(run(&["--list", "--format", "terse", &module]));
    let ignored = others(run(&["--list", "--format", "terse", "--ignored", &module]));
    assert!(!all.is_empty(), "no other test in {module}");
    if built_with {
        assert!(
            ignored.is_empty(),
            "built to run them, yet ignored: {ignored:?}"
        );
        return;
    }
    assert_eq!(ignored, all, "built without the tool, yet not ignored");
    let out = run(&[module.as_str(), "--skip", this]);
    for name in &all {
        assert!(
            out.contains(&format!("test {name} ... ignored, {reason}")),
            "{name} does not say why it is ignored: {out}"
        );
    }
    assert!(
        out.contains(&format!("0 passed; 0 failed; {} ignored", all.len())),
        "{out}"
    );
}

/// The real application over a fresh SQLite file (real migrations), served
/// on a bound loopback port: `let (_db, app) = spawn_app().await;` (keep
/// the database alive while the app runs).
///
/// With `ZOHN_AHL_TEST_BACKEND=postgres` (and a server, see
/// [`fresh_postgres`]) the application runs on a fresh PostgreSQL database
/// instead: `db.url` is its URL. CI runs the HTTP suites that way too.
pub async fn spawn_app() -> (TestDb, Bound) {
    let db = TestDb::for_suite().await;
    let app = spawn_server(db.service().await);
    (db, app)
}

/// A server on a fresh SQLite file whose odds come from `solver` (its own
/// budget and queue, to see a chain being solved or a full queue).
pub async fn spawn_app_with_solver(solver: &zohn_ahl::odds::Solver) -> (TestDb, Bound) {
    let db = TestDb::new();
    let (service, solver) = (db.service().await, solver.clone());
    let app =
        spawn_server_with(move || zohn_ahl::http::app_with_odds(service.clone(), solver.clone()));
    (db, app)
}

/// GET `path` until it is not 503 (the ruleset's chain being solved); at
/// most two minutes.
pub async fn until_solved(app: &Bound, path: &str) -> Reply {
    let start = std::time::Instant::now();
    loop {
        let r = send(app, get(path)).await;
        if r.status.as_u16() != 503 {
            return r;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "{path}: 503"
        );
        actix_web::rt::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// [`spawn_app`] on a SQLite file whatever the backend asked for: for the
/// tests that read the file itself.
pub async fn spawn_sqlite_app() -> (TestDb, Bound) {
    let db = TestDb::new();
    let app = spawn_server(db.service().await);
    (db, app)
}

/// [`spawn_app_with_service`] on a SQLite file whatever the backend asked
/// for: for the tests that read the file itself.
pub async fn spawn_sqlite_app_with_service() -> (TestDb, Service, Bound) {
    let db = TestDb::new();
    let service = db.service().await;
    let app = spawn_server(service.clone());
    (db, service, app)
}

/// The application over `service`, served by actix's HTTP server on a port
/// of 127.0.0.1 the system chose; the server stops with the test's runtime.
pub fn spawn_server(service: Service) -> Bound {
    spawn_server_with(move || zohn_ahl::http::app(service.clone()))
}

/// The application `factory` builds, served on a bound loopback port.
pub fn spawn_server_with<F, A, B>(factory: F) -> Bound
where
    F: Fn() -> actix_web::App<A> + Send + Clone + 'static,
    A: actix_web::dev::ServiceFactory<
            actix_web::dev::ServiceRequest,
            Config = (),
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: MessageBody + 'static,
{
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let addr = listener.local_addr().expect("bound address");
    // As the server runs it (TCP_NODELAY, hang-ups noticed, the
    // connection's time-outs).
    let server = zohn_ahl::server::serve_on(listener, factory)
        .expect("listen")
        .workers(1)
        .disable_signals()
        .run();
    actix_web::rt::spawn(server);
    Bound::at(format!("http://{addr}"))
}

/// A server on a bound port, and a client for it.
pub struct Bound {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    client: awc::Client,
}

impl Bound {
    /// A client for the server at `base` (`http://127.0.0.1:PORT`).
    pub fn at(base: String) -> Self {
        Self {
            base,
            // Pooled connections are dropped after a second, well inside
            // the server's keep-alive (5 s). An odds test that waited for a
            // solve between two requests once sent its second one on a
            // connection the server was closing at that moment
            // (`Connect(Disconnected)`).
            client: awc::Client::builder()
                .disable_redirects()
                .timeout(std::time::Duration::from_secs(60))
                .connector(awc::Connector::new().conn_keep_alive(std::time::Duration::from_secs(1)))
                .finish(),
        }
    }
}

/// What a request can be sent to: the bound server (over TCP), or an actix
/// service in process (for the few tests that need one).
pub trait Target {
    /// Send the request, read the whole answer.
    fn send(&self, req: test::TestRequest) -> impl std::future::Future<Output = Reply>;
}

impl Target for Bound {
    async fn send(&self, req: test::TestRequest) -> Reply {
        use actix_web::HttpMessage;
        use futures_util::StreamExt;
        let mut req = req.to_request();
        let mut payload = req.take_payload();
        let mut body = Vec::new();
        while let Some(chunk) = payload.next().await {
            body.extend_from_slice(&chunk.expect("request payload"));
        }
        let path = req
            .uri()
            .path_and_query()
            .map_or("/", actix_web::http::uri::PathAndQuery::as_str);
        let mut out = self
            .client
            .request(req.method().clone(), format!("{}{path}", self.base));
        for (name, value) in req.headers() {
            out = out.append_header((name.clone(), value.clone()));
        }
        let mut res = out.send_body(body).await.expect("HTTP exchange");
        let body = res
            .body()
            .limit(64 << 20)
            .await
            .expect("answer body")
            .to_vec();
        Reply {
            status: res.status(),
            headers: res.headers().clone(),
            body,
        }
    }
}

/// [`spawn_app`], also handing back the service under the application,
/// for tests that call it directly (a purge, `verify`): `let (db, service,
/// app) = spawn_app_with_service().await;`.
pub async fn spawn_app_with_service() -> (TestDb, Service, Bound) {
    let db = TestDb::for_suite().await;
    let service = db.service().await;
    let app = spawn_server(service.clone());
    (db, service, app)
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

/// Send a request to the server (or in-process service), read the whole
/// answer.
pub async fn send<T: Target>(app: &T, req: test::TestRequest) -> Reply {
    app.send(req).await
}

impl<S, B> Target for S
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: MessageBody,
{
    async fn send(&self, req: test::TestRequest) -> Reply {
        in_process(self, req).await
    }
}

async fn in_process<S, B>(app: &S, req: test::TestRequest) -> Reply
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

/// The server's whole application (the API and the MCP endpoint at `/mcp`,
/// as `zohn-ahl serve` runs it) over a fresh SQLite file, on a bound
/// loopback port: `let (_db, server) = spawn_server_with_mcp().await;`.
pub async fn spawn_server_with_mcp() -> (TestDb, Bound) {
    let db = TestDb::new();
    let service = db.service().await;
    let mcp = mcp_endpoint(&service);
    let server = spawn_server_with(move || zohn_ahl::server::app(service.clone(), mcp.clone()));
    (db, server)
}

/// The MCP endpoint over `service`, as the server builds it (the shared
/// solver, loopback hosts, the default idle time).
pub fn mcp_endpoint(service: &Service) -> zohn_ahl::mcp::HttpService {
    zohn_ahl::mcp::http_service(
        service.clone(),
        zohn_ahl::odds::Solver::shared(),
        &[],
        zohn_ahl::mcp::SESSION_IDLE,
    )
}

/// What a move's `after` must say, from the game view (`GET
/// /v1/games/{id}`, or a throw's `state`) the move left.
pub fn after_of(game: &Value) -> Value {
    serde_json::json!({
        "status": game["status"],
        "version": game["version"],
        "to_throw": game["to_throw"],
        "extra_throw_pending": game["extra_throw_pending"],
        "counters": {"a": game["sides"][0]["counters"], "b": game["sides"][1]["counters"]},
        "winner": game["winner"],
    })
}
