//! The transports by the specification: origins, CORS for pages that may
//! use the endpoint, JSON-RPC errors where the SDK gave HTTP statuses or
//! nothing, and sessions that end when idle with an answer that says so.

use std::time::Duration;

use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use crate::common::{Bound, TestDb, spawn_server_with};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// The server with its MCP endpoint: browsers of `origins` may write, the
/// sessions end after `idle`.
async fn server(origins: &[&str], idle: Duration) -> (TestDb, Bound) {
    let db = TestDb::new();
    let service = db.service().await;
    let mcp =
        zohn_ahl::mcp::http_service(service.clone(), zohn_ahl::odds::Solver::shared(), &[], idle);
    let cors = zohn_ahl::http::CorsPolicy {
        write_origins: origins.iter().map(|&o| o.to_owned()).collect(),
    };
    let bound = spawn_server_with(move || {
        zohn_ahl::server::app_with_cors(service.clone(), mcp.clone(), cors.clone())
    });
    (db, bound)
}

/// A POST of `body` to `/mcp`, with `headers` besides the transport's own.
async fn post(base: &str, body: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(format!("{base}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_owned());
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.unwrap()
}

/// The JSON-RPC message of an answer: its JSON body, or the first `data:`
/// of its event stream.
async fn message(res: reqwest::Response) -> Value {
    let text = res.text().await.unwrap();
    let json = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .find(|d| !d.is_empty())
        .unwrap_or(&text)
        .to_owned();
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A session: initialized and ready, its id.
async fn session(base: &str) -> String {
    let res = post(base, INITIALIZE, &[]).await;
    assert_eq!(res.status(), 200);
    let id = res.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    message(res).await;
    let ack = post(
        base,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        &[
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2025-11-25"),
        ],
    )
    .await;
    assert_eq!(ack.status(), 202);
    id
}

fn listed(headers: &HeaderMap, name: &str) -> Vec<String> {
    headers
        .get_all(name)
        .iter()
        .flat_map(|v| v.to_str().unwrap().split(','))
        .map(|v| v.trim().to_ascii_lowercase())
        .collect()
}

/// The MCP server named itself with the mcp crate's version (0.1.0) while
/// the API it serves was 0.6.0: over HTTP, the initialize answer's
/// `serverInfo.version` is the OpenAPI document's `info.version`.
#[actix_web::test]
async fn regression_mcp_server_version_was_the_crates_not_the_apis() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let init = message(post(base, INITIALIZE, &[]).await).await;
    let document: Value = reqwest::get(format!("{base}/openapi.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let api = document["info"]["version"].as_str().unwrap();
    assert_eq!(init["result"]["serverInfo"]["version"], api, "{init}");
    assert_eq!(api, zohn_ahl::service::API_VERSION);
}

/// A page of another origin got 400 from the CORS middleware; the
/// transport says 403. Loopback pages, and the origins configured, may use
/// the endpoint; reads are not open to every origin here, as they are on
/// the REST API.
#[actix_web::test]
async fn regression_a_disallowed_origin_got_400() {
    let (_db, server) = server(&["https://class.example"], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let evil = post(base, INITIALIZE, &[("origin", "https://evil.example")]).await;
    problem(evil, 403, "cors-refused", &["--cors-origins"]).await;
    let get = reqwest::Client::new()
        .get(format!("{base}/mcp"))
        .header("origin", "https://evil.example")
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(get.status(), 403, "the session stream is refused too");
    for origin in [
        "http://localhost:6274",
        "http://127.0.0.1:3000",
        "http://[::1]:8000",
        "https://class.example",
    ] {
        let res = post(base, INITIALIZE, &[("origin", origin)]).await;
        assert_eq!(res.status(), 200, "{origin}");
        assert_eq!(
            res.headers()["access-control-allow-origin"],
            origin,
            "{origin}"
        );
    }
    // The REST API's reads stay open to every origin.
    let rest = reqwest::Client::new()
        .get(format!("{base}/v1/sticks"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(rest.status(), 200);
}

/// With `--cors-origins`, the preflight refused `Mcp-Session-Id` and
/// `MCP-Protocol-Version`, and a page could not read the session id it was
/// given.
#[actix_web::test]
async fn a_configured_origins_page_may_send_and_read_the_session_headers() {
    let (_db, server) = server(&["https://class.example"], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let preflight = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, format!("{base}/mcp"))
        .header("origin", "https://class.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type, mcp-session-id, mcp-protocol-version",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.status(), 200);
    let allowed = listed(preflight.headers(), "access-control-allow-headers");
    for h in ["mcp-session-id", "mcp-protocol-version", "content-type"] {
        assert!(allowed.contains(&h.to_owned()), "{h}: {allowed:?}");
    }
    let res = post(base, INITIALIZE, &[("origin", "https://class.example")]).await;
    assert_eq!(res.status(), 200);
    let exposed = listed(res.headers(), "access-control-expose-headers");
    for h in ["mcp-session-id", "mcp-protocol-version"] {
        assert!(exposed.contains(&h.to_owned()), "{h}: {exposed:?}");
    }
    assert!(res.headers().contains_key("mcp-session-id"));
}

/// Malformed JSON got HTTP 415 with a text body; a message that is no
/// JSON-RPC got the same; `tools/call` without a name got -32601.
#[actix_web::test]
async fn regression_malformed_json_got_415_and_a_nameless_tools_call_32601() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let bad = post(base, "{\"jsonrpc\": \"2.0\", \"id\": 1,", &[]).await;
    assert_eq!(bad.status(), 400);
    assert!(
        bad.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let said = message(bad).await;
    assert_eq!(said["error"]["code"], -32700, "{said}");
    assert_eq!(said["id"], Value::Null);
    let invalid = message(post(base, r#"{"jsonrpc":"2.0","id":4}"#, &[]).await).await;
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
    assert_eq!(invalid["id"], 4);

    let id = session(base).await;
    let headers = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let nameless = post(
        base,
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{}}}"#,
        &headers,
    )
    .await;
    assert_eq!(nameless.status(), 200);
    let said = message(nameless).await;
    assert_eq!(said["error"]["code"], -32602, "{said}");
    assert_eq!(said["id"], 9);
    // The session goes on.
    let listed = message(
        post(
            base,
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/list"}"#,
            &headers,
        )
        .await,
    )
    .await;
    assert!(listed["result"]["tools"].is_array(), "{listed}");
}

const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

/// The problem details of an answer: of `status` and type
/// `/problems/{kind}`, its detail naming each of `names`, and none of the
/// transport's own words.
async fn problem(res: reqwest::Response, status: u16, kind: &str, names: &[&str]) {
    assert_eq!(res.status(), status);
    let media = res.headers()["content-type"].to_str().unwrap().to_owned();
    assert_eq!(media, "application/problem+json");
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["type"], format!("/problems/{kind}"), "{p}");
    assert_eq!(p["status"], status, "{p}");
    let detail = p["detail"].as_str().unwrap();
    for name in names {
        assert!(detail.contains(name), "{name}: {p}");
    }
    for said in [
        "Bad Request:",
        "Not Found:",
        "Not Acceptable:",
        "Forbidden:",
    ] {
        assert!(!detail.contains(said), "{p}");
    }
}

/// A request to `/mcp` of `method`, with `headers` only.
async fn bare(base: &str, method: reqwest::Method, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .request(method, format!("{base}/mcp"))
        .body(INITIALIZE);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.unwrap()
}

/// A POST without `Accept: application/json, text/event-stream` got the
/// SDK's plain-text 406; it is problem details naming the header.
#[actix_web::test]
async fn regression_mcp_answered_a_missing_accept_with_plain_text() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let json = ("content-type", "application/json");
    let res = bare(base, reqwest::Method::POST, &[json]).await;
    let want = ["Accept: application/json, text/event-stream"];
    problem(res, 406, "mcp-not-acceptable", &want).await;
    // A session's stream asks for its own media type.
    let get = bare(
        base,
        reqwest::Method::GET,
        &[("accept", "application/json")],
    )
    .await;
    let want = ["Accept: text/event-stream"];
    problem(get, 406, "mcp-not-acceptable", &want).await;
    // A body not JSON: 415, as the API says it.
    let accept = ("accept", "application/json, text/event-stream");
    let text = bare(
        base,
        reqwest::Method::POST,
        &[("content-type", "text/plain"), accept],
    )
    .await;
    problem(text, 415, "unsupported-media-type", &["application/json"]).await;
}

/// A request other than `initialize` without `Mcp-Session-Id` got the
/// SDK's plain-text 400; it is problem details naming the header.
#[actix_web::test]
async fn regression_mcp_answered_a_missing_session_id_with_plain_text() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let version = ("mcp-protocol-version", "2025-11-25");
    let res = post(&server.base, TOOLS_LIST, &[version]).await;
    let want = ["Mcp-Session-Id", "initialize"];
    problem(res, 400, "mcp-session-required", &want).await;
}

/// An `Mcp-Session-Id` that names no session got the SDK's plain-text
/// 404; it is problem details (the status kept: it tells a client to start
/// a new session).
#[actix_web::test]
async fn regression_mcp_answered_an_unknown_session_id_with_plain_text() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let unknown = [
        ("mcp-session-id", "no-such-session"),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let res = post(base, TOOLS_LIST, &unknown).await;
    let want = ["no-such-session", "initialize"];
    problem(res, 404, "mcp-session-not-found", &want).await;
    // A JSON-RPC client's own answers are as they were: a session works.
    session(base).await;
}

/// A `Host` the endpoint does not serve got the SDK's plain-text 403.
#[actix_web::test]
async fn regression_mcp_answered_a_refused_host_with_plain_text() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let res = post(&server.base, INITIALIZE, &[("host", "rebound.example")]).await;
    let want = ["--mcp-allowed-hosts", "rebound.example"];
    problem(res, 403, "mcp-host-refused", &want).await;
}

/// A method the endpoint does not serve, and a protocol version it does
/// not speak, got the SDK's plain text (405, 400); a path below the
/// endpoint got an empty 404.
#[actix_web::test]
async fn regression_mcp_answered_a_wrong_method_or_protocol_version_with_plain_text() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let put = bare(base, reqwest::Method::PUT, &[]).await;
    let allow = put.headers()["allow"].to_str().unwrap().to_owned();
    assert!(allow.contains("POST") && allow.contains("GET"), "{allow}");
    problem(put, 405, "method-not-allowed", &["PUT", "POST"]).await;
    let id = session(base).await;
    let future = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "1999-01-01"),
    ];
    let res = post(base, TOOLS_LIST, &future).await;
    let want = ["1999-01-01", "protocolVersion"];
    problem(res, 400, "mcp-protocol-version-unsupported", &want).await;
    let below = reqwest::get(format!("{base}/mcp/nothing")).await.unwrap();
    problem(below, 404, "not-found", &["/mcp/nothing"]).await;
}

/// One line to the server, and its answer.
async fn ask(
    out: &mut tokio::io::DuplexStream,
    lines: &mut tokio::io::Lines<tokio::io::BufReader<tokio::io::DuplexStream>>,
    line: &str,
) -> Value {
    use tokio::io::AsyncWriteExt;
    out.write_all(format!("{line}\n").as_bytes()).await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .expect("an answer")
        .unwrap()
        .unwrap();
    serde_json::from_str(&answer).unwrap()
}

/// Over stdio a malformed line got no answer at all: the client waited
/// for ever. Each bad line is answered with its JSON-RPC error, and the
/// session goes on.
#[tokio::test]
async fn regression_a_malformed_line_on_stdio_got_no_answer() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let db = TestDb::new();
    let service = db.service().await;
    let (client_in, server_out) = tokio::io::duplex(1 << 16);
    let (server_in, mut out) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(zohn_ahl::mcp::serve_lines(service, server_in, server_out));
    let mut lines = BufReader::new(client_in).lines();
    assert_eq!(
        ask(&mut out, &mut lines, "{nope").await["error"]["code"],
        -32700
    );
    assert_eq!(
        ask(&mut out, &mut lines, "[1, 2]").await["error"]["code"],
        -32600
    );
    let init = ask(&mut out, &mut lines, INITIALIZE).await;
    assert_eq!(init["result"]["serverInfo"]["name"], "zohn-ahl", "{init}");
    out.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    let nameless = ask(
        &mut out,
        &mut lines,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}"#,
    )
    .await;
    assert_eq!(nameless["error"]["code"], -32602, "{nameless}");
    assert_eq!(nameless["id"], 2);
    let lesson = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                        "params": {"name": "get_lesson", "arguments": {}}});
    let answered = ask(&mut out, &mut lines, &lesson.to_string()).await;
    assert_eq!(answered["id"], 3);
    assert!(answered["result"]["content"].is_array(), "{answered}");
    drop(out);
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server ends with its input")
        .unwrap()
        .unwrap();
}

/// Sessions ended silently after about five minutes idle, and the next
/// request failed. An idle session now ends after its lifetime (a flag),
/// and a request on it gets 404, which tells a client to start again.
#[actix_web::test]
async fn regression_an_idle_session_ended_silently() {
    let (_db, server) = server(&[], Duration::from_millis(800)).await;
    let base = &server.base;
    let id = session(base).await;
    let headers = [
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    assert_eq!(post(base, list, &headers).await.status(), 200);
    // Used, it stays alive past the lifetime.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(post(base, list, &headers).await.status(), 200);
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let gone = post(base, list, &headers).await;
    problem(gone, 404, "mcp-session-not-found", &[id.as_str()]).await;
    // A new session works at once.
    let again = session(base).await;
    assert_ne!(again, id);
}

/// Idle chatbot sessions were bounded in time only: a client starting
/// sessions without end held memory without end. Past the most sessions, a
/// new one ends the one idle the longest.
#[tokio::test]
async fn regression_sessions_were_unbounded_in_number() {
    use rmcp::transport::streamable_http_server::session::SessionManager;
    let sessions = zohn_ahl::mcp::IdleSessions::with_max(Duration::from_secs(600), 2);
    let (first, _a) = sessions.create_session().await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (second, _b) = sessions.create_session().await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert!(sessions.has_session(&first).await.unwrap());
    let (third, _c) = sessions.create_session().await.unwrap();
    assert!(
        !sessions.has_session(&first).await.unwrap(),
        "the longest idle ended"
    );
    assert!(sessions.has_session(&second).await.unwrap());
    assert!(sessions.has_session(&third).await.unwrap());
}

/// Closing a session (`DELETE /mcp`) was answered 202, which the MCP
/// Python SDK 2.3.0 logs as "Session termination failed: 202": it is 204,
/// and the session is gone.
#[actix_web::test]
async fn regression_closing_a_session_was_answered_202() {
    let (_db, server) = server(&[], zohn_ahl::mcp::SESSION_IDLE).await;
    let base = &server.base;
    let id = session(base).await;
    let closed = reqwest::Client::new()
        .delete(format!("{base}/mcp"))
        .header("mcp-session-id", &id)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(closed.status(), 204);
    let after = post(
        base,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        &[
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2025-11-25"),
        ],
    )
    .await;
    assert_eq!(after.status(), 404);
}
