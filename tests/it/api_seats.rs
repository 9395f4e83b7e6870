//! A seat given a new token by the host (the old one refused from then
//! on), and each seat's join code (`POST /v1/join`), through the real HTTP
//! stack on the suite's database (SQLite, or PostgreSQL with
//! `ZOHN_AHL_TEST_BACKEND=postgres`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test::TestRequest;
use common::{Bound, get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

/// A seated game's id, side tokens (A, B) and host token.
pub(crate) struct Seated {
    pub(crate) id: String,
    pub(crate) a: String,
    pub(crate) b: String,
    pub(crate) host: String,
    pub(crate) created: Value,
}

pub(crate) async fn seated(app: &Bound) -> Seated {
    let created = send(app, post_json("/v1/games", &json!({"seats": true}))).await;
    assert_eq!(created.status.as_u16(), 201);
    let g = created.json();
    let text = |v: &Value| v.as_str().unwrap().to_owned();
    Seated {
        id: text(&g["id"]),
        a: text(&g["seat_tokens"]["a"]),
        b: text(&g["seat_tokens"]["b"]),
        host: text(&g["host_token"]),
        created: g,
    }
}

fn bearer(req: TestRequest, token: Option<&str>) -> TestRequest {
    match token {
        Some(t) => req.insert_header(("authorization", format!("Bearer {t}"))),
        None => req,
    }
}

pub(crate) fn reissue(id: &str, side: &str, token: Option<&str>) -> TestRequest {
    bearer(
        post_empty(&format!("/v1/games/{id}/seats/{side}/token")),
        token,
    )
}

fn throw(id: &str, token: &str) -> TestRequest {
    bearer(post_empty(&format!("/v1/games/{id}/throws")), Some(token))
}

#[actix_web::test]
async fn the_host_gives_a_seat_a_new_token_and_the_old_one_is_refused() {
    let (_db, app) = spawn_app().await;
    let g = seated(&app).await;
    let r = send(&app, reissue(&g.id, "a", Some(&g.host))).await;
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let body = r.json();
    assert_eq!(body["side"], "A");
    let new_a = body["token"].as_str().unwrap().to_owned();
    assert_eq!(new_a.len(), 64);
    assert!(new_a != g.a && new_a != g.b && new_a != g.host);
    // The old token is no seat's any more: 401, as an unknown token.
    let p = send(&app, throw(&g.id, &g.a)).await.problem(401);
    assert_eq!(p["type"], "/problems/seat-token-required");
    // The new one throws for A (A moves first).
    let r = send(&app, throw(&g.id, &new_a)).await;
    assert_eq!(
        r.status.as_u16(),
        201,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    // B's seat and the host's are untouched.
    let g2 = send(&app, get(&format!("/v1/games/{}", g.id))).await.json();
    let mover = g2["to_throw"]["side"].as_str().unwrap().to_owned();
    let token = if mover == "A" { &new_a } else { &g.b };
    assert_eq!(send(&app, throw(&g.id, token)).await.status.as_u16(), 201);
    assert_eq!(send(&app, throw(&g.id, &g.host)).await.status.as_u16(), 201);
}

/// Read again from the store, not only from the writer's memory: a
/// second server on the same database refuses the old token too.
#[actix_web::test]
async fn a_new_token_is_stored_and_a_server_started_after_refuses_the_old_one() {
    let (db, app) = spawn_app().await;
    let g = seated(&app).await;
    let r = send(&app, reissue(&g.id, "B", Some(&g.host))).await;
    assert_eq!(r.status.as_u16(), 200);
    let new_b = r.json()["token"].as_str().unwrap().to_owned();
    let other = common::spawn_server(db.service().await);
    // A moves first: B's old token is no seat's (401), B's new one is
    // B's seat, out of turn (403).
    send(&other, throw(&g.id, &g.b)).await.problem(401);
    send(&other, throw(&g.id, &new_b)).await.problem(403);
}

/// The host-only refusals answer as a stop's: none is 401, a side's token
/// 403 `host-token-required`, another game's 403.
#[actix_web::test]
async fn only_the_host_gives_a_seat_a_new_token() {
    let (_db, app) = spawn_app().await;
    let g = seated(&app).await;
    let other = seated(&app).await;
    send(&app, reissue(&g.id, "a", None)).await.problem(401);
    for t in [&g.a, &g.b] {
        let p = send(&app, reissue(&g.id, "a", Some(t))).await.problem(403);
        assert_eq!(p["type"], "/problems/host-token-required");
    }
    send(&app, reissue(&g.id, "a", Some(&other.host)))
        .await
        .problem(403);
    // Nothing changed: A's token still throws.
    assert_eq!(send(&app, throw(&g.id, &g.a)).await.status.as_u16(), 201);
}

#[actix_web::test]
async fn a_seat_of_a_game_without_seats_unknown_games_and_sides_are_refused() {
    let (_db, app) = spawn_app().await;
    let open = send(&app, post_json("/v1/games", &json!({}))).await.json();
    let open = open["id"].as_str().unwrap();
    let p = send(&app, reissue(open, "a", None)).await.problem(409);
    assert_eq!(p["type"], "/problems/game-not-seated");
    let unknown = "00000000-0000-4000-8000-000000000000";
    send(&app, reissue(unknown, "a", None)).await.problem(404);
    let g = seated(&app).await;
    let p = send(&app, reissue(&g.id, "c", Some(&g.host)))
        .await
        .problem(400);
    assert!(p.to_string().contains("#/path/side"), "{p}");
    send(&app, reissue("not-a-game", "a", Some(&g.host)))
        .await
        .problem(400);
}

pub(crate) fn join(code: &str) -> TestRequest {
    post_json("/v1/join", &json!({ "code": code }))
}

const ALPHABET: &str = "23456789ABCDEFGHJKMNPQRSTVWXYZ";

#[actix_web::test]
async fn a_seated_game_answers_a_join_code_per_side_that_opens_that_seat() {
    let (_db, app) = spawn_app().await;
    let g = seated(&app).await;
    let codes = &g.created["join_codes"];
    let (a, b) = (codes["a"].as_str().unwrap(), codes["b"].as_str().unwrap());
    assert_ne!(a, b);
    for code in [a, b] {
        assert_eq!(code.len(), 6);
        assert!(code.chars().all(|c| ALPHABET.contains(c)), "{code}");
    }
    for (code, side, token) in [(a, "A", &g.a), (b, "B", &g.b)] {
        // As a pupil types it: lower case, a dash, spaces.
        let typed = format!(" {}-{} ", &code[..3].to_lowercase(), &code[3..]);
        let r = send(&app, join(&typed)).await;
        assert_eq!(
            r.status.as_u16(),
            200,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
        let seat = r.json();
        assert_eq!(seat["game_id"], g.id.as_str());
        assert_eq!(seat["side"], side);
        assert_eq!(seat["token"], token.as_str());
        assert_eq!(
            seat["play"],
            format!("/play/{}#seat={side}.{token}", g.id).as_str()
        );
    }
    let open = send(&app, post_json("/v1/games", &json!({}))).await.json();
    assert_eq!(open["join_codes"], Value::Null);
}

/// A code opens nothing once the game is over, and its refusal is the
/// same as a code that never was one's: nothing tells them apart.
#[actix_web::test]
async fn a_join_code_opens_nothing_once_the_game_is_finished_and_says_no_more() {
    let (_db, app) = spawn_app().await;
    let g = seated(&app).await;
    let code = g.created["join_codes"]["a"].as_str().unwrap().to_owned();
    let stop = bearer(
        post_empty(&format!("/v1/games/{}/stop", g.id)),
        Some(&g.host),
    );
    assert_eq!(send(&app, stop).await.status.as_u16(), 200);
    let finished = send(&app, join(&code)).await.problem(404);
    assert_eq!(finished["type"], "/problems/join-code-not-found");
    let unknown = if code == "ZZZZZZ" { "YYYYYY" } else { "ZZZZZZ" };
    let never = send(&app, join(unknown)).await.problem(404);
    assert_eq!(finished, never);
}

#[actix_web::test]
async fn a_new_token_comes_with_a_new_code_and_the_old_code_opens_nothing() {
    let (_db, app) = spawn_app().await;
    let g = seated(&app).await;
    let old = g.created["join_codes"]["b"].as_str().unwrap().to_owned();
    let r = send(&app, reissue(&g.id, "b", Some(&g.host))).await.json();
    let (code, token) = (
        r["join_code"].as_str().unwrap(),
        r["token"].as_str().unwrap(),
    );
    assert_ne!(code, old);
    send(&app, join(&old)).await.problem(404);
    let seat = send(&app, join(code)).await.json();
    assert_eq!(seat["token"], token);
    assert_eq!(seat["side"], "B");
    // A's code is untouched.
    let a = g.created["join_codes"]["a"].as_str().unwrap();
    assert_eq!(send(&app, join(a)).await.json()["token"], g.a.as_str());
}

#[actix_web::test]
async fn a_code_that_is_not_six_characters_of_the_alphabet_is_400_naming_it() {
    let (_db, app) = spawn_app().await;
    for bad in ["K7M", "K7M2QX9", "K7M2Q0", "OOOOOO", ""] {
        let p = send(&app, join(bad)).await.problem(400);
        assert_eq!(p["errors"][0]["pointer"], "/code", "{bad:?}: {p}");
        let detail = p["errors"][0]["detail"].as_str().unwrap();
        assert!(
            detail.contains('6') && detail.contains(ALPHABET),
            "{detail}"
        );
    }
    // No code at all fits the schema (every body may be empty): 422,
    // naming it (schemathesis found the 400 it was).
    for empty in [json!({}), serde_json::Value::Null] {
        let p = send(&app, post_json("/v1/join", &empty)).await.problem(422);
        assert_eq!(p["type"], "/problems/join-code-missing");
        assert_eq!(p["errors"][0]["pointer"], "/code");
    }
    send(
        &app,
        post_json("/v1/join", &json!({"code": "K7M2QX", "x": 1})),
    )
    .await
    .problem(400);
}

/// Tokens are kept only as hashes: a seat's token kept for its join code
/// is sealed, so the database's file holds none in clear.
#[actix_web::test]
async fn a_join_codes_token_is_kept_sealed_never_in_clear() {
    let (db, app) = common::spawn_sqlite_app().await;
    let g = seated(&app).await;
    let r = send(&app, reissue(&g.id, "a", Some(&g.host))).await.json();
    let new_a = r["token"].as_str().unwrap().to_owned();
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let rows: Vec<(String, Option<String>, Option<Vec<u8>>)> = sqlx::query_as(
        "SELECT side, join_code, sealed_token FROM seats WHERE game_id = ? ORDER BY side",
    )
    .bind(&g.id)
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    assert_eq!(rows.len(), 3);
    for (side, code, sealed) in &rows[..2] {
        assert!(code.is_some() && sealed.is_some(), "{side}");
    }
    assert_eq!(rows[2].1, None, "the host's seat has no code");
    let file = std::fs::read(db.dir.path().join("games.db")).unwrap_or_default();
    let wal = std::fs::read(db.dir.path().join("games.db-wal")).unwrap_or_default();
    for token in [&g.a, &g.b, &new_a] {
        for bytes in [&file, &wal] {
            assert!(
                !bytes.windows(64).any(|w| w == token.as_bytes()),
                "a seat's token is stored in clear"
            );
        }
    }
}

/// Guessing codes: an address gets its burst, then 429 with `Retry-After`,
/// even for the right code; another address still joins.
#[actix_web::test]
async fn an_address_trying_codes_past_its_limit_gets_429() {
    let settings = zohn_ahl::http::RateSettings {
        joins_per_minute: 2,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..zohn_ahl::http::RateSettings::off()
    };
    let (_db, app) = crate::api_limits::limited(settings).await;
    let g = seated(&app).await;
    let code = g.created["join_codes"]["a"].as_str().unwrap().to_owned();
    let from =
        |req: TestRequest, client: &str| req.insert_header(("x-forwarded-for", client.to_owned()));
    let mut tried = 0;
    let refused = loop {
        let r = send(&app, from(join("ZZZZZZ"), "198.51.100.7")).await;
        if r.status.as_u16() == 429 {
            break r;
        }
        assert_eq!(r.status.as_u16(), 404);
        tried += 1;
        assert!(tried <= 30, "the burst is 30");
    };
    assert_eq!(tried, 30, "a class's worth at once");
    let retry: u32 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=30).contains(&retry), "{retry}");
    let p = refused.problem(429);
    assert_eq!(p["type"], "/problems/rate-limited");
    assert!(p["detail"].as_str().unwrap().contains("join codes"), "{p}");
    send(&app, from(join(&code), "198.51.100.7"))
        .await
        .problem(429);
    let r = send(&app, from(join(&code), "203.0.113.9")).await;
    assert_eq!(r.status.as_u16(), 200);
}

/// The document's pattern for a join code takes what the server takes:
/// a client that validates before sending refuses nothing the server would
/// open, and the server refuses nothing the pattern allows (schemathesis
/// sent codes the schema allowed and the server refused).
#[test]
fn the_documents_join_code_pattern_takes_what_the_server_takes() {
    let doc = zohn_ahl::http::openapi();
    let schema = &doc["components"]["schemas"]["JoinRequest"]["properties"]["code"];
    let validator = jsonschema::validator_for(schema).unwrap();
    for typed in [
        "K7M2QX",
        "k7m2qx",
        "K7M 2QX",
        "k7m-2qx",
        " K7M-2QX ",
        "K7M",
        "K7M2QX9",
        "K7M2Q0",
        "OOOOOO",
        "IIIIII",
        "LLLLLL",
        "UUUUUU",
        "222222",
        "ZZZZZZ",
        "K7M\t2QX",
        "K7M_2QX",
    ] {
        assert_eq!(
            validator.is_valid(&json!(typed)),
            zohn_ahl::domain::JoinCode::parse(typed).is_ok(),
            "{typed:?}"
        );
    }
}
