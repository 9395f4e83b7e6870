//! HTTP conventions over a bound port: CORS, conditional reads, HEAD,
//! problems for what is refused below the handlers, unknown query
//! parameters, echoed input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test::TestRequest;
use common::{Bound, get, post_empty, post_json, send, spawn_app, spawn_server_with};
use serde_json::json;

const ORIGIN: &str = "https://class.example";

async fn game(app: &Bound) -> String {
    let g = send(app, post_empty("/v1/games")).await;
    assert_eq!(g.status.as_u16(), 201);
    g.json()["id"].as_str().unwrap().to_owned()
}

fn preflight(path: &str, method: &str, origin: &str) -> TestRequest {
    TestRequest::default()
        .method(actix_web::http::Method::OPTIONS)
        .uri(path)
        .insert_header(("origin", origin))
        .insert_header(("access-control-request-method", method))
}

#[actix_web::test]
async fn reads_are_open_to_every_origin_and_writes_only_to_configured_ones() {
    let (_db, app) = spawn_app().await;
    let id = game(&app).await;
    // A read from any page: allowed, with the headers a page may read.
    let r = send(
        &app,
        get(&format!("/v1/games/{id}")).insert_header(("origin", ORIGIN)),
    )
    .await;
    assert_eq!(r.status.as_u16(), 200);
    assert_eq!(
        r.header("access-control-allow-origin").as_deref(),
        Some(ORIGIN)
    );
    assert!(
        r.header("access-control-expose-headers")
            .unwrap()
            .to_ascii_lowercase()
            .contains("etag")
    );
    let pre = send(&app, preflight(&format!("/v1/games/{id}"), "GET", ORIGIN)).await;
    assert_eq!(pre.status.as_u16(), 200, "a read's preflight");
    // No origin may write by default: its preflight is refused, and a
    // write sent without one (an empty POST needs none) is refused as a
    // problem, before the handler plays it.
    let pre = send(
        &app,
        preflight(&format!("/v1/games/{id}/throws"), "POST", ORIGIN),
    )
    .await;
    assert!(
        pre.header("access-control-allow-origin").is_none(),
        "{:?}",
        pre.headers
    );
    // The server's own pages (the lesson page) write as always.
    let own = app.base.clone();
    let r = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("origin", own.as_str())),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201, "same origin");
    let r = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("origin", ORIGIN)),
    )
    .await;
    let p = r.problem(403);
    assert_eq!(p["type"], "/problems/cors-refused");
    let state = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(state["throws"], 1, "the refused throw was not played");

    // A configured origin writes.
    let db2 = common::TestDb::new();
    let service = db2.service().await;
    let allowed = spawn_server_with(move || {
        zohn_ahl::http::app_with(
            service.clone(),
            zohn_ahl::odds::Solver::shared(),
            zohn_ahl::http::CorsPolicy {
                write_origins: vec![ORIGIN.to_owned()],
            },
            |_| {},
        )
    });
    let id = game(&allowed).await;
    let pre = send(
        &allowed,
        preflight(&format!("/v1/games/{id}/throws"), "POST", ORIGIN),
    )
    .await;
    assert_eq!(pre.status.as_u16(), 200);
    assert_eq!(
        pre.header("access-control-allow-origin").as_deref(),
        Some(ORIGIN)
    );
    let r = send(
        &allowed,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("origin", ORIGIN)),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let other = send(
        &allowed,
        post_empty(&format!("/v1/games/{id}/throws"))
            .insert_header(("origin", "https://elsewhere.example")),
    )
    .await;
    other.problem(403);
}

#[actix_web::test]
async fn if_none_match_with_the_games_etag_gets_304() {
    let (_db, app) = spawn_app().await;
    let id = game(&app).await;
    let first = send(&app, get(&format!("/v1/games/{id}"))).await;
    let tag = first.header("etag").unwrap();
    let again = send(
        &app,
        get(&format!("/v1/games/{id}")).insert_header(("if-none-match", tag.as_str())),
    )
    .await;
    assert_eq!(again.status.as_u16(), 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag").as_deref(), Some(tag.as_str()));
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let changed = send(
        &app,
        get(&format!("/v1/games/{id}")).insert_header(("if-none-match", tag.as_str())),
    )
    .await;
    assert_eq!(changed.status.as_u16(), 200, "a move changes the version");
}

#[actix_web::test]
async fn head_answers_wherever_get_does_with_the_headers_only() {
    let (_db, app) = spawn_app().await;
    let id = game(&app).await;
    for path in [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/moves"),
        "/v1/sticks".to_owned(),
        "/v1/sources/culin1907".to_owned(),
        "/openapi.json".to_owned(),
        format!("/v1/games/{id}/events?follow=false"),
    ] {
        let got = send(&app, get(&path)).await;
        let head = send(
            &app,
            TestRequest::default()
                .method(actix_web::http::Method::HEAD)
                .uri(&path),
        )
        .await;
        assert_eq!(head.status.as_u16(), 200, "{path}");
        assert!(head.body.is_empty(), "{path}");
        assert_eq!(
            head.header("content-type"),
            got.header("content-type"),
            "{path}"
        );
    }
    // The live feed of a game in progress streams for as long as the game
    // lasts; HEAD answers its headers and ends.
    let head = send(
        &app,
        TestRequest::default()
            .method(actix_web::http::Method::HEAD)
            .uri(&format!("/v1/games/{id}/events")),
    )
    .await;
    assert_eq!(head.status.as_u16(), 200);
    assert!(
        head.header("content-type")
            .unwrap()
            .starts_with("text/event-stream")
    );
    // 405 lists HEAD beside GET.
    let r = send(&app, TestRequest::put().uri("/v1/sticks")).await;
    let p = r.problem(405);
    assert!(
        p["allowed"].as_array().unwrap().contains(&json!("HEAD")),
        "{p}"
    );
}

#[actix_web::test]
async fn a_long_uri_is_414_and_too_many_headers_431_as_problems() {
    let (_db, app) = spawn_app().await;
    let long = format!(
        "/v1/sticks?pad={}",
        "x".repeat(zohn_ahl::http::MAX_URI_BYTES)
    );
    let p = send(&app, get(&long)).await.problem(414);
    assert_eq!(p["type"], "/problems/uri-too-long");
    let mut many = get("/v1/sticks");
    for i in 0..=zohn_ahl::http::MAX_HEADERS {
        many = many.insert_header((format!("x-pad-{i}"), "1"));
    }
    let p = send(&app, many).await.problem(431);
    assert_eq!(p["type"], "/problems/headers-too-large");
    let big =
        get("/v1/sticks").insert_header(("x-pad", "y".repeat(zohn_ahl::http::MAX_HEADER_BYTES)));
    send(&app, big).await.problem(431);
    // A body past the limit is 413, a problem too.
    let body = vec![b' '; zohn_ahl::http::BODY_LIMIT + 1];
    let r = send(
        &app,
        TestRequest::post()
            .uri("/v1/games")
            .insert_header(("content-type", "application/json"))
            .set_payload(body),
    )
    .await;
    r.problem(413);
}

#[actix_web::test]
async fn unknown_query_parameters_are_ignored_everywhere() {
    let (_db, app) = spawn_app().await;
    let id = game(&app).await;
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    for path in [
        format!("/v1/games/{id}?utm_source=x"),
        format!("/v1/games/{id}/moves?utm_source=x&limit=5"),
        format!("/v1/games/{id}/moves/1?utm_source=x"),
        format!("/v1/games/{id}/board.svg?utm_source=x"),
        format!("/v1/games/{id}/fairness?utm_source=x"),
        format!("/v1/fairness?game={id}&utm_source=x"),
        "/v1/sources?utm_source=x".to_owned(),
        "/v1/rules?utm_source=x".to_owned(),
        "/v1/rulesets/composite?utm_source=x".to_owned(),
        format!("/v1/games/{id}/events?follow=false&utm_source=x"),
    ] {
        let r = send(&app, get(&path)).await;
        assert_eq!(
            r.status.as_u16(),
            200,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
    }
}

/// An 8 KB bad `audience` was echoed twice in full, in a 16 KB problem.
#[actix_web::test]
async fn an_8_kb_bad_audience_is_echoed_cut() {
    let (_db, app) = spawn_app().await;
    let id = game(&app).await;
    let bad = "y".repeat(8 * 1024);
    for path in [
        format!("/v1/games/{id}/moves?audience={bad}"),
        format!("/v1/games/{id}/moves?limit={bad}"),
        format!("/v1/games/{id}/moves?audience=young&audience={bad}"),
        format!("/v1/sources?format={bad}"),
    ] {
        let r = send(&app, get(&path)).await;
        assert_eq!(r.status.as_u16(), 400, "{path}");
        assert!(r.body.len() < 1024, "{} bytes", r.body.len());
        let p = r.problem(400);
        assert!(!p["errors"].as_array().unwrap().is_empty(), "{p}");
    }
}

/// A generated client sends JSON `null` for an optional body left unset;
/// it was refused (400), so the client's first "no body" call failed.
#[actix_web::test]
async fn a_null_body_is_no_body_where_the_body_is_optional() {
    let (_db, app) = spawn_app().await;
    let null = |path: &str| post_json(path, &serde_json::Value::Null);
    let created = send(&app, null("/v1/games")).await;
    assert_eq!(created.status.as_u16(), 201, "{:?}", created.json());
    let id = created.json()["id"].as_str().unwrap().to_owned();
    let thrown = send(&app, null(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(thrown.status.as_u16(), 201, "{:?}", thrown.json());
    assert_eq!(thrown.json()["origin"], "server");
    // In a seated game, the mover's token with a null body throws too.
    let seated = send(&app, post_json("/v1/games", &json!({"seats": true}))).await;
    let seated = seated.json();
    let sid = seated["id"].as_str().unwrap();
    let mover = seated["to_throw"]["side"]
        .as_str()
        .unwrap()
        .to_ascii_lowercase();
    let token = seated["seat_tokens"][&mover].as_str().unwrap();
    let r = send(
        &app,
        null(&format!("/v1/games/{sid}/throws"))
            .insert_header(("authorization", format!("Bearer {token}"))),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201, "{:?}", r.json());
    // Any other non-object body is still refused.
    for body in ["[]", "3", "\"x\"", "true"] {
        let r = send(
            &app,
            post_empty("/v1/games")
                .insert_header(("content-type", "application/json"))
                .set_payload(body),
        )
        .await;
        r.problem(400);
    }
}

/// Send `bytes` on a new connection to `app`, read until the server closes
/// it; the answers as text.
async fn raw(app: &Bound, bytes: &[u8]) -> String {
    let (answer, read) = exchange(app, bytes).await;
    assert!(read.is_ok(), "{read:?} after {} bytes", answer.len());
    answer
}

/// [`raw`], for a request the server stops reading: closing a connection
/// with input it has not read resets it, after its answer.
async fn exchange(app: &Bound, bytes: &[u8]) -> (String, std::io::Result<usize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may answer and stop reading before all is sent.
    let _ = stream.write_all(bytes).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        stream.read_to_end(&mut answer),
    )
    .await
    .expect("the server closes the connection");
    (String::from_utf8_lossy(&answer).into_owned(), read)
}

/// The problem of the last answer in `text`, with its status.
fn last_problem(text: &str, status: u16) -> serde_json::Value {
    let at = text
        .rfind("HTTP/1.1 ")
        .unwrap_or_else(|| panic!("no answer: {text:?}"));
    let answer = &text[at..];
    assert!(
        answer.starts_with(&format!("HTTP/1.1 {status} ")),
        "{answer}"
    );
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/problem+json"),
        "{head}"
    );
    let p: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(p["status"], status, "{p}");
    p
}

/// The status line of the only answer in `text`, which has no body: what
/// actix-web's parser answers to a head past its own limits.
fn bare(text: &str) -> &str {
    assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{text:?}");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
    assert!(body.is_empty(), "{text:?}");
    assert!(
        !head.to_ascii_lowercase().contains("problem+json"),
        "{head}"
    );
    head.lines().next().unwrap_or_default()
}

/// On a real socket: a head past the application's limits but within
/// actix-web's parser's is a problem (414, 431), in its place after the
/// requests before it on the connection; a head past the parser's own
/// limits (`zohn_ahl::http::limits`) gets the parser's bare answer and the
/// connection closes. This replaces
/// `heads_the_http_layer_refused_bare_are_problems_on_the_wire`, which
/// pinned the problems that the connection's own head reader
/// (`wire.rs`, removed) made for those heads too.
#[actix_web::test]
async fn heads_past_the_parsers_limits_get_its_bare_answers_and_the_rest_problems() {
    use zohn_ahl::http::limits::{
        MAX_HEADER_BYTES, MAX_HEADERS, MAX_URI_BYTES, PARSER_MAX_HEAD_BYTES, PARSER_MAX_HEADERS,
        PARSER_MAX_URI_BYTES,
    };
    let (_db, app) = spawn_app().await;
    // Past the application's limits, within the parser's: problems.
    let long = format!(
        "GET /v1/sticks?pad={} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        "x".repeat(MAX_URI_BYTES)
    );
    let p = last_problem(&raw(&app, long.as_bytes()).await, 414);
    assert_eq!(p["type"], "/problems/uri-too-long");
    let mut many = String::from("GET /v1/sticks HTTP/1.1\r\nhost: x\r\nconnection: close\r\n");
    for i in 0..MAX_HEADERS {
        many.push_str(&format!("x-pad-{i}: 1\r\n"));
    }
    many.push_str("\r\n");
    let p = last_problem(&raw(&app, many.as_bytes()).await, 431);
    assert_eq!(p["type"], "/problems/headers-too-large");
    let big = format!(
        "GET /v1/sticks HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-pad: {}\r\n\r\n",
        "y".repeat(MAX_HEADER_BYTES)
    );
    last_problem(&raw(&app, big.as_bytes()).await, 431);
    // After a body and a request on the same connection, in order.
    let piped = format!(
        "POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{{}}\
         GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n{long}"
    );
    let text = raw(&app, piped.as_bytes()).await;
    let statuses: Vec<&str> = text
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &text[i + 9..i + 12])
        .collect();
    assert_eq!(statuses, ["201", "200", "414"], "{text}");
    last_problem(&text, 414);

    // Past the parser's: its bare answers.
    let longer = format!(
        "GET /v1/sticks?pad={} HTTP/1.1\r\nhost: x\r\n\r\n",
        "x".repeat(PARSER_MAX_URI_BYTES)
    );
    let text = raw(&app, longer.as_bytes()).await;
    assert!(bare(&text).starts_with("HTTP/1.1 400 "), "{text:?}");
    let mut more = String::from("GET /v1/sticks HTTP/1.1\r\nhost: x\r\n");
    for i in 0..PARSER_MAX_HEADERS {
        more.push_str(&format!("x-pad-{i}: 1\r\n"));
    }
    more.push_str("\r\n");
    let text = raw(&app, more.as_bytes()).await;
    assert!(bare(&text).starts_with("HTTP/1.1 431 "), "{text:?}");
    let text = raw(&app, b"GET / HTTP/1.1\r\nno colon here\r\n\r\n").await;
    assert!(bare(&text).starts_with("HTTP/1.1 400 "), "{text:?}");
    // A head still unfinished at the parser's bound: the answer, then the
    // connection reset (the server closes it with input left unread).
    let huge = format!(
        "GET /v1/sticks HTTP/1.1\r\nhost: x\r\nx-pad: {}",
        "y".repeat(PARSER_MAX_HEAD_BYTES)
    );
    let (text, _) = exchange(&app, huge.as_bytes()).await;
    assert!(bare(&text).starts_with("HTTP/1.1 431 "), "{text:?}");
    // A head within the limits is served as before.
    let ok = raw(
        &app,
        b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(ok.starts_with("HTTP/1.1 200 "), "{ok}");
}

/// A client reporting a failure had nothing to name it by: every answer,
/// a problem's too, now carries `X-Request-Id`, the request's id in the
/// log (its span's `request_id`), a new one for each request.
#[actix_web::test]
async fn regression_an_answer_named_no_request_for_the_log() {
    let (_db, app) = common::spawn_app().await;
    let ok = common::send(&app, common::get("/healthz")).await;
    let missing = common::send(
        &app,
        common::get("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"),
    )
    .await;
    assert_eq!(missing.status.as_u16(), 404);
    let ids: Vec<String> = [&ok, &missing]
        .iter()
        .map(|r| r.header("x-request-id").expect("X-Request-Id"))
        .collect();
    for id in &ids {
        assert_eq!(id.len(), 36, "{id}");
        assert_eq!(id.matches('-').count(), 4, "{id}");
    }
    assert_ne!(ids[0], ids[1]);
}
