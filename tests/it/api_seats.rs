//! A seat given a new token by the host (the old one refused from then
//! on), through the real HTTP stack on the suite's database (SQLite, or
//! PostgreSQL with `ZOHN_AHL_TEST_BACKEND=postgres`).
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
    let _ = g.created;
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
