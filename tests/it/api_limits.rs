//! Limits per client address (issue 29, point 4): past its rate, an
//! address's creations, throws, feeds and chatbot sessions are refused
//! with 429 problem details and `Retry-After`, other addresses are not
//! touched, and only a trusted proxy's `X-Forwarded-For` names the client.

use crate::common;

use actix_web::web;
use common::{Bound, TestDb, get, post_empty, post_json, send, spawn_server_with};
use serde_json::json;
use zohn_ahl::http::{RateLimits, RateSettings};

/// The application with `settings`' limits, as the server mounts them.
pub(crate) async fn limited(settings: RateSettings) -> (TestDb, Bound) {
    let db = TestDb::for_suite().await;
    let service = db.service().await;
    let limits = web::Data::new(RateLimits::new(&settings));
    let app =
        spawn_server_with(move || zohn_ahl::http::app(service.clone()).app_data(limits.clone()));
    (db, app)
}

fn from(req: actix_web::test::TestRequest, client: &str) -> actix_web::test::TestRequest {
    req.insert_header(("x-forwarded-for", client.to_owned()))
}

/// A script creating games as fast as it can gets its minute's worth,
/// then 429 with `Retry-After` and problem details naming the limit; a
/// second address still creates, and the games created are all there.
#[actix_web::test]
async fn an_address_past_its_games_a_minute_gets_429_and_others_do_not() {
    let settings = RateSettings {
        games_per_minute: 5,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..RateSettings::off()
    };
    let (_db, app) = limited(settings).await;
    let mut created = Vec::new();
    let mut refused = None;
    for _ in 0..8 {
        let r = send(
            &app,
            from(post_json("/v1/games", &json!({})), "198.51.100.7"),
        )
        .await;
        match r.status.as_u16() {
            201 => created.push(r.json()["id"].as_str().unwrap().to_owned()),
            429 => {
                refused = Some(r);
                break;
            }
            other => panic!("{other}"),
        }
    }
    assert_eq!(created.len(), 5, "a burst of the minute's worth");
    let refused = refused.expect("the sixth is refused");
    let retry: u32 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let problem = refused.problem(429);
    assert!(problem["type"].as_str().unwrap().ends_with("/rate-limited"));
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("games created are limited to 5 a minute an address")
    );
    // Another address is not touched.
    let other = send(
        &app,
        from(post_json("/v1/games", &json!({})), "203.0.113.9"),
    )
    .await;
    assert_eq!(other.status.as_u16(), 201);
    // Nothing acknowledged is lost.
    for id in created {
        assert_eq!(
            send(&app, get(&format!("/v1/games/{id}")))
                .await
                .status
                .as_u16(),
            200
        );
    }
}

/// Throws have their own rate (with ten seconds' worth at once); reads are
/// never limited.
#[actix_web::test]
async fn throws_have_their_own_rate_and_reads_none() {
    let settings = RateSettings {
        throws_per_second: 1,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..RateSettings::off()
    };
    let (_db, app) = limited(settings).await;
    let id = send(
        &app,
        from(post_json("/v1/games", &json!({})), "198.51.100.7"),
    )
    .await
    .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let throws = format!("/v1/games/{id}/throws");
    let mut played = 0;
    let refused = loop {
        let r = send(&app, from(post_empty(&throws), "198.51.100.7")).await;
        if r.status.as_u16() != 201 {
            break r;
        }
        played += 1;
        assert!(played <= 11, "the burst is ten seconds' worth");
    };
    assert!(played >= 10, "{played}");
    refused.problem(429);
    for _ in 0..30 {
        let r = send(
            &app,
            from(get(&format!("/v1/games/{id}/moves")), "198.51.100.7"),
        )
        .await;
        assert_eq!(r.status.as_u16(), 200);
    }
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(game["throws"], played, "every acknowledged throw is kept");
}

/// Without a trusted proxy, `X-Forwarded-For` is not believed: a client
/// cannot take another address by naming it.
#[actix_web::test]
async fn a_client_cannot_choose_its_address_without_a_trusted_proxy() {
    let settings = RateSettings {
        games_per_minute: 2,
        ..RateSettings::off()
    };
    let (_db, app) = limited(settings).await;
    for (i, client) in ["192.0.2.1", "192.0.2.2", "192.0.2.3"].iter().enumerate() {
        let r = send(&app, from(post_json("/v1/games", &json!({})), client)).await;
        let want = if i < 2 { 201 } else { 429 };
        assert_eq!(r.status.as_u16(), want, "{client}");
    }
}

/// The feeds and the chatbot sessions are counted when opened; a session's
/// later requests (with its `Mcp-Session-Id`) are not.
#[actix_web::test]
async fn feeds_opened_are_counted() {
    let settings = RateSettings {
        feeds_per_minute: 1,
        ..RateSettings::off()
    };
    let (_db, app) = limited(settings).await;
    let id = send(&app, post_json("/v1/games", &json!({}))).await.json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let feed = format!("/v1/games/{id}/events?follow=false");
    assert_eq!(send(&app, get(&feed)).await.status.as_u16(), 200);
    send(&app, get(&feed)).await.problem(429);
}

/// An operator's trial: games created and throws made through a chatbot's
/// tools (MCP over HTTP) were not limited within a session. A
/// `create_game` call now counts as a game created and a `throw` call as
/// its throws, against the same limits as REST from the same address.
#[actix_web::test]
async fn regression_a_chatbot_session_created_games_without_limit() {
    let settings = RateSettings {
        games_per_minute: 2,
        throws_per_second: 1,
        ..RateSettings::off()
    };
    let (_db, app) = with_mcp(settings).await;
    let client = connect(&app).await;
    let first = call(&client, "create_game", json!({"seed": "limits"}))
        .await
        .expect("the first game");
    let id = first.structured_content.unwrap()["game"]["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    call(&client, "create_game", json!({}))
        .await
        .expect("the second");
    assert!(
        call(&client, "create_game", json!({})).await.is_err(),
        "the third game of the minute is refused"
    );
    // The same address over REST shares the limit.
    let r = send(&app, post_json("/v1/games", &json!({}))).await;
    assert_eq!(r.status.as_u16(), 429);
    // A run of ten throws takes the ten seconds' worth at once; the next
    // throw, by either surface, waits.
    call(&client, "throw", json!({"game_id": id, "count": 10}))
        .await
        .expect("ten throws");
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(
        r.status.as_u16(),
        429,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert!(r.header("retry-after").is_some());
    // Reading stays free.
    let game = send(&app, get(&format!("/v1/games/{id}"))).await;
    assert_eq!(game.status.as_u16(), 200);
    assert_eq!(game.json()["throws"], 10);
}

/// A chatbot's trial with the Python SDK: a `throw` run `until` an event
/// was charged a whole burst before it ran, so every second call was
/// refused, and the refusal, HTTP 429 problem details, reached the
/// chatbot as "Server returned an error response" without its detail or
/// wait. A run now takes what the address has left (held to that many
/// throws), and a refusal on the MCP endpoint is a JSON-RPC error naming
/// the limit and the wait.
#[actix_web::test]
async fn regression_a_throw_until_an_event_was_refused_every_second_call() {
    let settings = RateSettings {
        throws_per_second: 1,
        ..RateSettings::off()
    };
    let (_db, app) = with_mcp(settings).await;
    let client = connect(&app).await;
    let game = call(&client, "create_game", json!({"seed": "until"}))
        .await
        .unwrap();
    let id = game.structured_content.unwrap()["game"]["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The whole burst (ten throws) and the run held to it.
    let run = call(
        &client,
        "throw",
        json!({"game_id": id, "until": "game_end"}),
    )
    .await
    .expect("a run within the burst");
    let played = run.structured_content.unwrap()["played"].as_u64().unwrap();
    assert!((1..=10).contains(&played), "{played}");
    // Nothing left: refused.
    // (The JSON-RPC error comes at 429, which the Python SDK reads and
    // rmcp's client reports as "HTTP 429".)
    call(&client, "throw", json!({"game_id": id, "until": "event"}))
        .await
        .expect_err("nothing left to spend");
    // A second later one throw is there, and the run takes it.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let run = call(&client, "throw", json!({"game_id": id, "until": "event"}))
        .await
        .expect("a run with what came back");
    assert_eq!(run.structured_content.unwrap()["played"], 1);
}

/// The refusal as the MCP endpoint sends it (here of a session past the
/// sessions' limit): a JSON-RPC error answering the request's id in
/// `application/json`, the detail its message, the wait in its data and
/// in `Retry-After`, not problem details an MCP client does not read.
#[actix_web::test]
async fn regression_a_refusal_on_the_mcp_endpoint_was_unreadable_to_an_mcp_client() {
    let settings = RateSettings {
        mcp_sessions_per_minute: 1,
        ..RateSettings::off()
    };
    let (_db, app) = with_mcp(settings).await;
    let init = json!({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {}});
    send(&app, post_json("/mcp", &init)).await;
    let r = send(&app, post_json("/mcp", &init)).await;
    assert_eq!(r.status.as_u16(), 429);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    assert!(r.header("retry-after").is_some());
    let body = r.json();
    assert_eq!(body["id"], 7);
    assert_eq!(body["error"]["code"], -32029);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("chatbot sessions"), "{message}");
    assert!(body["error"]["data"]["retry_after"].as_u64().unwrap() >= 1);
}

/// The server's application, the MCP endpoint with it, under `settings`'
/// limits.
async fn with_mcp(settings: RateSettings) -> (TestDb, Bound) {
    let db = TestDb::new();
    let service = db.service().await;
    let mcp = common::mcp_endpoint(&service);
    let limits = web::Data::new(RateLimits::new(&settings));
    let app = spawn_server_with(move || {
        zohn_ahl::server::app(service.clone(), mcp.clone()).app_data(limits.clone())
    });
    (db, app)
}

type Chatbot = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// A chatbot's session with `app`'s MCP endpoint.
async fn connect(app: &Bound) -> Chatbot {
    use rmcp::ServiceExt as _;
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(format!("{}/mcp", app.base));
    ().serve(transport).await.expect("connects over HTTP")
}

/// `client`'s call of `tool` with `args` (an object).
async fn call(
    client: &Chatbot,
    tool: &str,
    args: serde_json::Value,
) -> Result<rmcp::model::CallToolResult, rmcp::ServiceError> {
    let serde_json::Value::Object(args) = args else {
        unreachable!()
    };
    let params = rmcp::model::CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
    client.call_tool(params).await
}
