//! Start-up: several processes opening one database at the same moment.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use zohn_ahl::store::Store;

use crate::common::process::{free_port, get_status, send_signal, spawn_binary};

struct Killed(Vec<Child>);

impl Drop for Killed {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Case 0001: three servers started at once on one new SQLite file; two
/// of them used to die in the migrations ("duplicate column name",
/// "UNIQUE constraint failed: _sqlx_migrations.version").
#[test]
fn instances_started_together_on_a_fresh_database_all_come_up() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("shared.db").display()
    );
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let mut servers = Killed(Vec::new());
    for port in &ports {
        servers.0.push(
            Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
                .args([
                    "--database-url",
                    &url,
                    "--addr",
                    &format!("127.0.0.1:{port}"),
                ])
                .args(["--log", "warn", "--workers", "1"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut ready = vec![false; ports.len()];
    while ready.iter().any(|r| !r) {
        assert!(Instant::now() < deadline, "not every server became ready");
        for (i, server) in servers.0.iter_mut().enumerate() {
            if let Some(status) = server.try_wait().unwrap() {
                let mut err = String::new();
                server
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                panic!("server {i} exited ({status}): {err}");
            }
            ready[i] = ready[i] || get_status(ports[i], "/readyz") == Some(200);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The same race inside one process: every store opened at once on a
/// fresh file migrates it exactly once and reports it ready.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stores_opened_together_on_a_fresh_database_all_migrate() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("shared.db").display());
    let opened = futures_util::future::join_all((0..6).map(|_| Store::connect(&url))).await;
    for store in opened {
        let store = store.expect("every store opens");
        assert!(store.ready().await.unwrap());
        store.close().await;
    }
}

/// Start a server on a fresh SQLite file with `log` as its log filter;
/// its standard error is piped.
fn spawn_server(dir: &std::path::Path, port: u16, log: &str) -> Child {
    spawn_server_with(dir, port, &["--log", log])
}

/// Start a server on a fresh SQLite file with these flags besides its
/// database, address and one worker; its standard error is piped.
fn spawn_server_with(dir: &std::path::Path, port: u16, flags: &[&str]) -> Child {
    spawn_binary(dir, port, flags, Stdio::piped())
}

/// What the server wrote on standard error, once it has exited.
fn read_log(server: &mut Child) -> String {
    let mut log = String::new();
    server
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    log
}

/// Kill the server and read what it wrote on standard error.
fn kill_and_read_log(mut server: Child) -> String {
    server.kill().unwrap();
    server.wait().unwrap();
    read_log(&mut server)
}

/// `--log-format json`: every line of the log is one JSON object, and a
/// request's line carries its span's fields (method, route, status), which
/// a log shipper indexes.
#[test]
fn the_json_log_is_one_object_a_line_with_the_requests_fields() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server_with(dir.path(), port, &["--log", "info", "--log-format", "json"]);
    assert_eq!(
        get_status(port, "/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"),
        Some(404)
    );
    let log = kill_and_read_log(server);
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON object ({e}): {line}"))
        })
        .collect();
    assert!(
        lines
            .iter()
            .all(|l| l["level"].is_string() && l["timestamp"].is_string()),
        "{log}"
    );
    let request = lines
        .iter()
        .find(|l| l["span"]["http.route"] == "/v1/games/{id}")
        .unwrap_or_else(|| panic!("no line of the request: {log}"));
    assert_eq!(request["span"]["http.method"], "GET", "{request}");
    assert_eq!(request["span"]["http.status_code"], 404, "{request}");
}

/// An operator's trial (issue 29): with `--log-format json` a request's
/// duration came as the span's close event's strings (`"time.busy":
/// "242µs"`), which a log shipper cannot sum or compare. A request's line
/// carries `duration_ms`, a number, in JSON and in text alike.
#[test]
fn regression_log_durations_were_strings() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server_with(dir.path(), port, &["--log", "info", "--log-format", "json"]);
    assert_eq!(get_status(port, "/healthz"), Some(200));
    let log = kill_and_read_log(server);
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let request = lines
        .iter()
        .find(|l| l["span"]["http.route"] == "/healthz" && l["fields"]["message"] == "answered")
        .unwrap_or_else(|| panic!("no line of the request: {log}"));
    let duration = &request["fields"]["duration_ms"];
    assert!(
        duration.as_f64().is_some_and(|ms| ms >= 0.0),
        "duration_ms is not a number: {request}"
    );
    assert!(
        !log.contains("time.busy") && !log.contains("time.idle"),
        "a duration as a string: {log}"
    );

    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    assert_eq!(get_status(port, "/healthz"), Some(200));
    let log = kill_and_read_log(server);
    let line = log
        .lines()
        .find(|l| l.contains("http.route=/healthz") && l.contains("answered"))
        .unwrap_or_else(|| panic!("no line of the request: {log}"));
    let ms = line
        .split_once("duration_ms=")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no duration_ms: {line}"));
    assert!(
        ms.parse::<f64>().is_ok(),
        "duration_ms={ms} is not a number: {line}"
    );
}

/// `--metrics-addr`: the metrics' own listener serves Prometheus's text
/// format, with the throws committed, the games created and each request
/// by route and status counted as they were played; the public listener
/// does not serve them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_count_what_was_played_on_their_own_listener() {
    let dir = tempfile::tempdir().unwrap();
    let (port, metrics_port) = (free_port(), free_port());
    let metrics_addr = format!("127.0.0.1:{metrics_port}");
    let server = spawn_server_with(
        dir.path(),
        port,
        &["--log", "warn", "--metrics-addr", &metrics_addr],
    );
    let client = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{port}");
    let created = client
        .post(format!("{base}/v1/games"))
        .header("content-type", "application/json")
        .body(r#"{"seed": "metrics"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let game: serde_json::Value = serde_json::from_slice(&created.bytes().await.unwrap()).unwrap();
    let id = game["id"].as_str().unwrap();
    for _ in 0..3 {
        let thrown = client
            .post(format!("{base}/v1/games/{id}/throws"))
            .send()
            .await
            .unwrap();
        assert_eq!(thrown.status(), 201);
    }
    // A throw at a stopped game: 409, counted with its problem's type.
    let stopped = client
        .post(format!("{base}/v1/games/{id}/stop"))
        .send()
        .await
        .unwrap();
    assert_eq!(stopped.status(), 200);
    let over = client
        .post(format!("{base}/v1/games/{id}/throws"))
        .send()
        .await
        .unwrap();
    assert_eq!(over.status(), 409);
    let public = client.get(format!("{base}/metrics")).send().await.unwrap();
    assert_eq!(
        public.status(),
        404,
        "the public listener serves no metrics"
    );

    let scraped = client
        .get(format!("http://{metrics_addr}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(scraped.status(), 200);
    assert!(
        scraped.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4"),
    );
    let text = scraped.text().await.unwrap();
    let value = |series: &str| -> f64 {
        text.lines()
            .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {series} in:\n{text}"))
            .parse()
            .unwrap()
    };
    assert_eq!(value("zohn_ahl_throws_committed_total"), 3.0);
    assert_eq!(value("zohn_ahl_games_created_total"), 1.0);
    assert_eq!(
        value(
            r#"zohn_ahl_http_requests_total{method="POST",route="/v1/games/{id}/throws",status="201"}"#
        ),
        3.0
    );
    assert_eq!(
        value(
            r#"zohn_ahl_http_requests_total{method="GET",route="unmatched",status="404",problem="/problems/not-found"}"#
        ),
        1.0
    );
    // Issue 29: a 409 had no problem type, so a dashboard could not tell a
    // game over from a request in flight or a stale If-Match.
    assert_eq!(
        value(
            r#"zohn_ahl_http_requests_total{method="POST",route="/v1/games/{id}/throws",status="409",problem="/problems/game-over"}"#
        ),
        1.0
    );
    // Three throws, one at a time: one to three batches, three throws in all.
    assert!((1.0..=3.0).contains(&value("zohn_ahl_batch_throws_count")));
    assert_eq!(value("zohn_ahl_batch_throws_sum"), 3.0);
    assert!(value("zohn_ahl_log_sync_seconds_count") >= 1.0);
    assert!(text.contains(r#"zohn_ahl_http_request_duration_seconds_bucket{method="POST",route="/v1/games/{id}/throws",le="0.5"}"#), "{text}");
    assert!(value(r#"zohn_ahl_db_pool_connections{pool="writer"}"#) >= 1.0);
    // Which build answers, and the process's own figures (an operator's
    // trial found neither).
    assert_eq!(
        value(&format!(
            r#"zohn_ahl_build_info{{version="{}"}}"#,
            env!("CARGO_PKG_VERSION")
        )),
        1.0
    );
    assert!(value("process_resident_memory_bytes") > 1_000_000.0);
    assert!(value("process_open_fds") >= 3.0);
    assert!(value("process_threads") >= 2.0);
    assert!(value("process_start_time_seconds") > 1.7e9);
    assert!(
        text.contains("# HELP zohn_ahl_throws_committed_total"),
        "{text}"
    );
    kill_and_read_log(server);
}

/// An operator's trial: a taken port was reported as "server error:
/// Address already in use" after "serving Zohn Ahl" was logged, naming
/// neither the address nor the flag, and after the database and key files
/// were made. The listeners are bound first now.
#[test]
fn regression_a_taken_port_was_not_named_and_left_files_behind() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let db = dir.path().join("games.db");
    for (flags, which) in [
        (
            vec!["--addr".to_owned(), format!("127.0.0.1:{port}")],
            "--addr",
        ),
        (
            vec![
                "--addr".to_owned(),
                format!("127.0.0.1:{}", free_port()),
                "--metrics-addr".to_owned(),
                format!("127.0.0.1:{port}"),
            ],
            "--metrics-addr",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
            .args(["--database-url", &format!("sqlite://{}", db.display())])
            .args(&flags)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(&format!("cannot listen on 127.0.0.1:{port} ({which})")),
            "{said}"
        );
        assert!(!said.contains("serving Zohn Ahl"), "{said}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files made before the refusal: {left:?}");
}

/// An operator's log had a warning with a debug dump of the error for
/// every refused request (a wrong seat token, an unknown game): refusals
/// are the client's affair and get the request's own line only.
#[test]
fn regression_refused_requests_were_logged_as_warnings_with_a_debug_dump() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    assert_eq!(
        get_status(port, "/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"),
        Some(404)
    );
    assert_eq!(get_status(port, "/v1/games/not-a-game"), Some(400));
    let log = kill_and_read_log(server);
    assert!(log.contains("http.status_code=404"), "{log}");
    assert!(log.contains("http.status_code=400"), "{log}");
    for line in log.lines() {
        assert!(
            !line.contains("WARN"),
            "a refusal logged as a warning: {line}"
        );
        assert!(
            !line.contains("ApiError"),
            "a debug dump in the log: {line}"
        );
    }
}

/// The newest migration's version in `crates/store/migrations/sqlite/` (its file
/// name's number).
fn newest_sqlite_migration() -> i64 {
    std::fs::read_dir(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/store/migrations/sqlite"
    ))
    .unwrap()
    .filter_map(|e| {
        let name = e.unwrap().file_name().into_string().unwrap();
        name.split('_').next()?.parse().ok()
    })
    .max()
    .unwrap()
}

/// An operator could not tell from the log whether the migrations had run:
/// the start line names the schema's version.
#[test]
fn regression_the_start_up_log_did_not_say_the_migrations_ran() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    let log = kill_and_read_log(server);
    let start = log
        .lines()
        .find(|l| l.contains("serving Zohn Ahl"))
        .unwrap_or_else(|| panic!("no start line in {log}"));
    let schema = format!("schema={}", newest_sqlite_migration());
    assert!(start.contains(&schema), "{start}");
}

/// A fresh store's schema is at the newest embedded migration.
#[tokio::test]
async fn a_fresh_store_is_at_the_newest_migration() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("fresh.db").display());
    let store = Store::connect(&url).await.unwrap();
    assert_eq!(
        store.schema_version().await.unwrap(),
        Some(newest_sqlite_migration())
    );
    assert_eq!(store.latest_migration(), Some(newest_sqlite_migration()));
    store.close().await;
}

/// Send `request` (a whole HTTP/1.1 request) and read the answer's head
/// and as much of its body as came within the timeout.
fn send_raw(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// Create a game with the defaults; its id.
fn create_game(port: u16) -> String {
    let created = send_raw(
        port,
        "POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    created
        .split("\"id\":\"")
        .nth(1)
        .and_then(|rest| rest.get(..36))
        .unwrap()
        .to_owned()
}

/// An operator's SIGTERM took 30 s while a live feed was open, and the
/// feed was then cut (curl: partial transfer): the feeds now end first,
/// each stream closed cleanly, and the server exits at once.
#[test]
fn regression_a_stopping_server_held_its_live_feeds_open_for_thirty_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = spawn_server(dir.path(), port, "warn");
    let id = create_game(port);
    let mut feed = TcpStream::connect(("127.0.0.1", port)).unwrap();
    feed.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        feed,
        "GET /v1/games/{id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0_u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("event: snapshot") {
        let n = feed.read(&mut buf).unwrap();
        assert!(n > 0, "the feed closed before its snapshot");
        seen.extend_from_slice(&buf[..n]);
    }
    let asked = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The stream ends with the last chunk of its chunked body.
    loop {
        let n = feed
            .read(&mut buf)
            .expect("the feed was not ended within 20 s");
        seen.extend_from_slice(&buf[..n]);
        if n == 0 || seen.ends_with(b"0\r\n\r\n") {
            break;
        }
    }
    assert!(seen.ends_with(b"0\r\n\r\n"), "the feed was cut, not ended");
    let deadline = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(exit) = server.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "the server had not exited 10 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit}");
    eprintln!("stopped {:?} after SIGTERM", asked.elapsed());
}

/// An operator found the `-wal` and `-shm` files still beside the database
/// after a clean SIGTERM: the last connection to close was a read-only
/// reader, which cannot copy the log into the database. A stopped server
/// now leaves the database as one file, which alone holds every move.
#[tokio::test]
async fn regression_a_clean_stop_left_the_write_ahead_log_beside_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    let id = create_game(port);
    for _ in 0..3 {
        let thrown = send_raw(
            port,
            &format!(
                "POST /v1/games/{id}/throws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            ),
        );
        assert!(thrown.starts_with("HTTP/1.1 201"), "{thrown}");
    }
    let database = dir.path().join("games.db");
    let log = dir.path().join("games.db-wal");
    assert!(log.exists(), "the server runs with a write-ahead log");
    let stderr = stop_and_read_log(server);
    assert!(stderr.contains("the database is closed"), "{stderr}");
    assert!(
        !log.exists(),
        "the write-ahead log was left after a clean stop"
    );
    assert!(
        !dir.path().join("games.db-shm").exists(),
        "the shared-memory file was left after a clean stop"
    );
    // The database file alone, copied elsewhere, has all three moves.
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(&database, copy.path().join("copy.db")).unwrap();
    let store = Store::connect(&format!(
        "sqlite://{}",
        copy.path().join("copy.db").display()
    ))
    .await
    .unwrap();
    let game = store
        .game(zohn_ahl::domain::GameId::parse(&id).unwrap())
        .await
        .unwrap()
        .expect("the game is in the database file");
    assert_eq!(game.version.get(), 3);
    store.close().await;
}

/// An operator's Ctrl-C cut the throws in flight ("Empty reply from
/// server"), some stored though never answered: actix-server makes SIGINT
/// a forced stop. Ctrl-C and SIGTERM now both let a request in flight
/// finish, here one whose body is still arriving when the signal comes.
#[test]
fn regression_ctrl_c_cut_the_requests_in_flight() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let server = spawn_server(dir.path(), port, "info");
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream
            .write_all(
                b"POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{",
            )
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        send_signal(&server, signal);
        std::thread::sleep(Duration::from_millis(300));
        stream.write_all(b"}").unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        assert!(
            answer.starts_with("HTTP/1.1 201"),
            "{signal}: the request in flight got {answer:?}"
        );
        let log = wait_and_read_log(server);
        assert!(!log.contains("forced"), "{signal}: {log}");
        assert!(
            log.contains("the requests in flight finish"),
            "{signal}: {log}"
        );
    }
}

/// Wait for the server to exit, which it must do successfully, and read
/// what it wrote on standard error.
fn wait_and_read_log(mut server: Child) -> String {
    let exit = server.wait().unwrap();
    assert!(exit.success(), "{exit}");
    read_log(&mut server)
}

/// Stop the server with SIGTERM and read what it wrote on standard error.
fn stop_and_read_log(server: Child) -> String {
    send_signal(&server, "-TERM");
    wait_and_read_log(server)
}

/// An operator restarted a killed server and its log said nothing of the
/// write-ahead log it read back: the start now says so, and a start after
/// a clean stop (which leaves no log) does not.
#[test]
fn regression_a_start_after_a_kill_did_not_say_the_log_was_read_back() {
    const READ_BACK: &str = "its commits were read back";
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    let id = create_game(port);
    let thrown = send_raw(
        port,
        &format!(
            "POST /v1/games/{id}/throws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(thrown.starts_with("HTTP/1.1 201"), "{thrown}");
    let first = kill_and_read_log(server);
    assert!(!first.contains(READ_BACK), "{first}");
    let wal = dir.path().join("games.db-wal");
    assert!(std::fs::metadata(&wal).unwrap().len() > 0);

    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    let game = send_raw(
        port,
        &format!("GET /v1/games/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    );
    assert!(game.contains("\"version\":1"), "{game}");
    let second = stop_and_read_log(server);
    assert!(second.contains(READ_BACK), "{second}");
    assert!(!wal.exists());

    let port = free_port();
    let server = spawn_server(dir.path(), port, "info");
    let third = stop_and_read_log(server);
    assert!(!third.contains(READ_BACK), "{third}");
}

/// Create a seated game on the server at `port` with the idempotency key
/// `key`: the answer's status line and body.
fn create_seated_with_key(port: u16, key: &str) -> (String, String) {
    let body = r#"{"seats": true}"#;
    let answer = send_raw(
        port,
        &format!(
            "POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nIdempotency-Key: {key}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// Three servers started together on a fresh setup (no database, no key
/// file) make one secret key between them: each is ready, a creation kept
/// by one is replayed by the other two, the same, and the key file is the
/// only one made, owner-only.
#[test]
fn instances_started_together_on_a_fresh_setup_share_one_secret_key() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("shared.db").display()
    );
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let mut servers = Killed(Vec::new());
    for port in &ports {
        servers.0.push(
            Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
                .args([
                    "--database-url",
                    &url,
                    "--addr",
                    &format!("127.0.0.1:{port}"),
                ])
                .args(["--log", "warn", "--workers", "1"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    for (i, port) in ports.iter().enumerate() {
        while get_status(*port, "/readyz") != Some(200) {
            if let Some(status) = servers.0[i].try_wait().unwrap() {
                panic!(
                    "server {i} exited ({status}): {}",
                    read_log(&mut servers.0[i])
                );
            }
            assert!(Instant::now() < deadline, "server {i} did not become ready");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let (status, first) = create_seated_with_key(ports[0], "shared-key-1");
    assert!(status.contains(" 201 "), "{status}: {first}");
    assert!(first.contains("\"host_token\":\""), "{first}");
    for port in &ports[1..] {
        let (status, again) = create_seated_with_key(*port, "shared-key-1");
        assert!(status.contains(" 201 "), "{status}: {again}");
        assert_eq!(again, first, "every instance opens the kept answer");
    }
    let key = dir.path().join("shared.db.key");
    let meta = std::fs::metadata(&key).unwrap();
    assert_eq!(meta.len(), 32);
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.starts_with("shared.db"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// A key file its group or others may read is refused at start, and the
/// server says which file and what to do; so is one of another length.
#[test]
fn a_key_file_others_may_read_is_refused_at_start() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("zohn-ahl.key");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("games.db").display()
    );
    let start = |key: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
            .args(["--database-url", &url, "--addr", "127.0.0.1:0"])
            .args(["--log", "warn"])
            .env("ZOHN_AHL_SECRET_KEY_FILE", key)
            .stdout(Stdio::null())
            .output()
            .unwrap()
    };
    std::fs::write(&key, [1u8; 32]).unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = start(&key);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&key.display().to_string()), "{said}");
    assert!(said.contains("chmod 600"), "{said}");

    std::fs::write(&key, b"not a key\n").unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = start(&key);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("holds 10 bytes, not 32"), "{said}");
    assert!(
        !dir.path().join("games.db").exists(),
        "the database is not touched before the key is read"
    );
}

/// `zohn-ahl transcript` takes the sides' names, checked as a new game's
/// names are (the same refusal, naming the field), and prints the read-aloud
/// form.
#[test]
fn a_transcript_takes_checked_side_names_and_reads_aloud() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
            .args(["transcript", "--seed", "names", "--audience", "young"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--side-a", "Hawks", "--side-b", "hawks"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("/sides/b/name") && said.contains("different names"),
        "{said}"
    );
    let out = run(&["--side-a", "Hawks", "--side-b", "Foxes", "--read-aloud"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("(For the teacher, not to be read aloud: "),
        "{text}"
    );
    // No "Move N." labels: the words to read, the first move first.
    assert!(text.contains("\n\nZohn Ahl is a race game"), "{text}");
    assert!(!text.contains("\n\nMove "), "{text}");
    assert!(text.contains("Hawks") && text.contains("Foxes") && !text.contains("Side A"));
    assert!(
        !text.contains('[') && !text.contains("## "),
        "no citations, no headings"
    );
    assert!(
        text.contains(
            "`zohn-ahl transcript --seed names --preset composite --audience young --side-a Hawks --side-b Foxes`.)"
        ),
        "{text}"
    );
    // It ends with the game and the questions that look back on it, not
    // with a command line.
    let last = text.trim_end().rsplit("\n\n").next().unwrap();
    assert!(
        last.contains("(Answer: ") && !last.contains("zohn-ahl"),
        "{text}"
    );
    // The note says how to get a board to show the class.
    assert!(
        text.contains(
            "for Hawks (A) outside the path, for Foxes (B) inside, add --board board.png."
        ),
        "{text}"
    );
}

/// `zohn-ahl transcript --read-aloud` fits a game to about 10 minutes by
/// default, telling a long game's middle in short, and `--minutes` sets
/// another length (8 to 600, read aloud only): seed 1's composite game
/// reads in about 27 minutes throw by throw.
#[test]
fn the_read_aloud_transcript_fits_the_minutes_it_is_given() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
            .args(["transcript", "--seed", "1", "--audience", "young"])
            .args(args)
            .output()
            .unwrap()
    };
    for refused in [
        &["--minutes", "10"][..],
        &["--read-aloud", "--minutes", "4"],
    ] {
        let out = run(refused);
        assert!(!out.status.success(), "{refused:?}");
    }
    let minutes = |text: &str| -> usize {
        text.split_once(" words, about ")
            .and_then(|(_, rest)| rest.split(' ').next())
            .unwrap()
            .parse()
            .unwrap()
    };
    let out = run(&["--read-aloud"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(minutes(&text) <= 12, "{text}");
    assert!(text.contains("\n\nLet's skip ahead ") || text.contains("\n\nNow we jump ahead "));
    let every: String = text
        .split_once("add --minutes ")
        .unwrap()
        .1
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let out = run(&["--read-aloud", "--minutes", &every]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(minutes(&text).to_string(), every, "{text}");
    assert!(
        !text.contains("skip ahead") && !text.contains("jump ahead"),
        "every throw told"
    );
}

/// A teacher's trial: read aloud, two awls counted from different starts
/// were hard to picture without a board in front of the class. `--board`
/// writes the preset's empty board, both sides' numbers on it, as PNG or
/// SVG by the file's name, and the teacher's note names the file.
#[test]
fn regression_a_read_aloud_game_had_no_board_to_show_the_class() {
    let dir = tempfile::tempdir().unwrap();
    let run = |board: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
            .args(["transcript", "--seed", "board", "--audience", "young"])
            .args(["--side-a", "The Otters", "--side-b", "The Herons"])
            .args(["--read-aloud", "--preset", "a4", "--board"])
            .arg(board)
            .output()
            .unwrap()
    };
    for (name, magic) in [("board.png", &b"\x89PNG"[..]), ("board.svg", &b"<svg"[..])] {
        let path = dir.path().join(name);
        let out = run(&path);
        let text = String::from_utf8_lossy(&out.stdout);
        let note = text.split("\n\n").next().unwrap();
        assert!(
            out.status.success() && note.contains(&format!(
                "The board to show the class is in {}: the numbers for the Otters (A) outside the path, for the Herons (B) inside.",
                path.display()
            )),
            "{note} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(magic), "{name}");
        if name.ends_with(".svg") {
            let svg = String::from_utf8(bytes).unwrap();
            // The square board, before the first throw, with the names.
            assert!(
                svg.contains("Zohn Ahl on the 28-space square: The Otters (side A) and The Herons (side B), before the first throw"),
                "the square board"
            );
        }
    }
    // A file that cannot be written: refused, the board named.
    let out = run(&dir.path().join("missing").join("board.svg"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the board ("));
}

/// `--move-chances off`: a throw's answer carries no chances (`null`, with
/// the reason `off`) and no odds sentence, and the game odds are still
/// served; the switch the load benchmark compares the cost of the chances
/// with.
#[test]
fn with_move_chances_off_a_move_has_none_and_the_game_odds_remain() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = spawn_server_with(dir.path(), port, &["--move-chances", "off"]);
    let id = create_game(port);
    let thrown = send_raw(
        port,
        &format!(
            "POST /v1/games/{id}/throws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(thrown.starts_with("HTTP/1.1 201"), "{thrown}");
    let body: serde_json::Value =
        serde_json::from_str(thrown.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["chances"]["before"], serde_json::Value::Null);
    assert_eq!(body["chances"]["unknown"]["reason"], "off", "{body}");
    let segments = body["narration"]["segments"].as_array().unwrap();
    assert!(segments.iter().all(|s| s["kind"] != "odds"));
    // The game's odds are still solved and served (within a minute of the
    // start, while the presets are solved).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = get_status(port, &format!("/v1/games/{id}/odds"));
        if status == Some(200) {
            break;
        }
        assert_eq!(status, Some(503));
        assert!(Instant::now() < deadline, "no odds");
        std::thread::sleep(Duration::from_millis(200));
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

/// An operator found the database a first start made readable by every
/// user of the machine (0644), while the secret key beside it was
/// owner-only: the database, its log and its shared memory are now
/// owner-only too.
#[cfg(unix)]
#[test]
fn regression_a_new_database_was_readable_by_every_user() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut server = spawn_server_with(dir.path(), port, &[]);
    create_game(port);
    for name in ["games.db", "games.db-wal", "games.db-shm"] {
        let path = dir.path().join(name);
        if name == "games.db" || path.exists() {
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{name}: {mode:o}");
        }
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
