//! Seats, idempotency, compare-and-set and concurrency through the real
//! HTTP stack on a real SQLite file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test;
use common::{TestDb, get, post_empty, post_json, send, spawn_app, spawn_app_with_service};
use futures_util::future::join_all;
use serde_json::json;

#[actix_web::test]
async fn seated_games_need_the_token_of_the_side_to_move() {
    let (_db, app) = spawn_app().await;
    let created = send(&app, post_json("/v1/games", &json!({"seats": true}))).await;
    assert_eq!(created.status.as_u16(), 201);
    let g = created.json();
    let id = g["id"].as_str().unwrap().to_owned();
    let a = g["seat_tokens"]["a"].as_str().unwrap().to_owned();
    let b = g["seat_tokens"]["b"].as_str().unwrap().to_owned();
    assert_ne!(a, b);
    assert_eq!(g["seated"], true);
    let other = send(&app, post_json("/v1/games", &json!({"seats": true})))
        .await
        .json();
    let other_a = other["seat_tokens"]["a"].as_str().unwrap().to_owned();

    // Reading stays public and never shows the tokens again.
    let read = send(&app, get(&format!("/v1/games/{id}"))).await;
    assert_eq!(read.status.as_u16(), 200);
    let text = String::from_utf8_lossy(&read.body).into_owned();
    assert!(!text.contains(&a) && !text.contains(&b) && !text.contains("seat_tokens"));

    let throw = |token: Option<&str>| {
        let req = post_empty(&format!("/v1/games/{id}/throws"));
        match token {
            Some(t) => req.insert_header(("authorization", format!("Bearer {t}"))),
            None => req,
        }
    };
    let r = send(&app, throw(None)).await;
    r.problem(401);
    assert_eq!(r.header("www-authenticate").unwrap(), "Bearer");
    send(&app, throw(Some("not-a-token"))).await.problem(401);
    send(&app, throw(Some(&"0".repeat(64)))).await.problem(401);
    send(&app, throw(Some(&b))).await.problem(403);
    send(&app, throw(Some(&other_a))).await.problem(403);
    let bad_scheme = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("authorization", a.clone())),
    )
    .await;
    bad_scheme.problem(401);
    // Errors never echo the token.
    for t in [&a, &b, &other_a] {
        let r = send(&app, throw(Some(t))).await;
        let body = String::from_utf8_lossy(&r.body).into_owned();
        assert!(!body.contains(t.as_str()), "a token leaked in {body}");
        if r.status.as_u16() == 201 {
            break;
        }
    }
    // Whoever is to move now, only that side's token plays.
    for _ in 0..10 {
        let g = send(&app, get(&format!("/v1/games/{id}"))).await.json();
        let token = if g["to_throw"]["side"] == "A" { &a } else { &b };
        let wrong = if g["to_throw"]["side"] == "A" { &b } else { &a };
        send(&app, throw(Some(wrong))).await.problem(403);
        let r = send(&app, throw(Some(token))).await;
        assert_eq!(r.status.as_u16(), 201);
        assert!(!String::from_utf8_lossy(&r.body).contains(token.as_str()));
    }
    // Stopping a seated game needs its host's token: a side's is refused.
    send(&app, post_empty(&format!("/v1/games/{id}/stop")))
        .await
        .problem(401);
    let r = send(
        &app,
        post_empty(&format!("/v1/games/{id}/stop"))
            .insert_header(("authorization", format!("Bearer {other_a}"))),
    )
    .await;
    r.problem(403);
    let r = send(
        &app,
        post_empty(&format!("/v1/games/{id}/stop"))
            .insert_header(("authorization", format!("Bearer {b}"))),
    )
    .await;
    r.problem(403);
    let host = g["host_token"].as_str().unwrap();
    let r = send(
        &app,
        post_empty(&format!("/v1/games/{id}/stop"))
            .insert_header(("authorization", format!("Bearer {host}"))),
    )
    .await;
    assert_eq!(r.status.as_u16(), 200);
}

#[actix_web::test]
async fn an_idempotent_retry_replays_the_first_answer_byte_for_byte() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_json("/v1/games", &json!({"seed": "idem"})))
        .await
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let throw = |key: &str, body: serde_json::Value| {
        post_json(&format!("/v1/games/{id}/throws"), &body)
            .insert_header(("idempotency-key", key.to_owned()))
    };
    let first = send(&app, throw("k-1", json!({}))).await;
    assert_eq!(first.status.as_u16(), 201);
    let again = send(&app, throw("k-1", json!({}))).await;
    assert_eq!(again.status.as_u16(), 201);
    assert_eq!(again.body, first.body, "byte for byte");
    assert_eq!(again.header("location"), first.header("location"));
    assert_eq!(again.header("etag"), first.header("etag"));
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    let state = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(state["version"], 1, "the retry did not play again");

    let reused = send(
        &app,
        throw(
            "k-1",
            json!({"sticks": ["flat", "round", "round", "round"]}),
        ),
    )
    .await;
    reused.problem(422);
    let second = send(&app, throw("k-2", json!({}))).await;
    assert_eq!(second.json()["n"], 2);
    let bad = send(&app, throw("", json!({}))).await;
    bad.problem(400);
    let long = "k".repeat(256);
    send(&app, throw(&long, json!({}))).await.problem(400);
}

#[actix_web::test]
async fn two_concurrent_retries_with_one_key_play_once() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap().to_owned();
    let replies = join_all((0..8).map(|_| {
        send(
            &app,
            post_empty(&format!("/v1/games/{id}/throws"))
                .insert_header(("idempotency-key", "same")),
        )
    }))
    .await;
    let ok: Vec<_> = replies
        .iter()
        .filter(|r| r.status.as_u16() == 201)
        .collect();
    assert!(!ok.is_empty());
    for r in &replies {
        match r.status.as_u16() {
            201 => assert_eq!(r.body, ok[0].body),
            409 => assert_eq!(
                r.problem(409)["type"],
                "/problems/idempotency-key-in-flight"
            ),
            s => panic!("unexpected {s}"),
        }
    }
    let state = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(state["version"], 1);
}

#[actix_web::test]
async fn concurrent_throws_for_one_turn_apply_exactly_once() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap().to_owned();
    let replies = join_all((0..16).map(|_| {
        send(
            &app,
            post_empty(&format!("/v1/games/{id}/throws")).insert_header(("if-match", "\"0\"")),
        )
    }))
    .await;
    let created = replies.iter().filter(|r| r.status.as_u16() == 201).count();
    assert_eq!(created, 1);
    for r in replies.iter().filter(|r| r.status.as_u16() != 201) {
        assert_eq!(r.problem(412)["current_version"], 1);
    }
}

/// Many clients on many games and on one game at once: no 5xx, every 201
/// stored once, no gaps, every game's state the replay of its moves.
#[actix_web::test]
async fn many_clients_on_many_games_lose_and_double_nothing() {
    let (_db, service, app) = spawn_app_with_service().await;
    let mut ids = Vec::new();
    for i in 0..6 {
        let g = send(
            &app,
            post_json("/v1/games", &json!({"seed": format!("load-{i}")})),
        )
        .await
        .json();
        ids.push(g["id"].as_str().unwrap().to_owned());
    }
    // 6 games x 15 throws, plus 30 more on the first game, all at once.
    let mut targets: Vec<String> = ids
        .iter()
        .flat_map(|id| std::iter::repeat_n(id.clone(), 15))
        .collect();
    targets.extend(std::iter::repeat_n(ids[0].clone(), 30));
    let replies = join_all(
        targets
            .iter()
            .map(|id| send(&app, post_empty(&format!("/v1/games/{id}/throws")))),
    )
    .await;
    let mut created = std::collections::HashMap::<String, u64>::new();
    for (id, r) in targets.iter().zip(&replies) {
        assert!(
            r.status.as_u16() < 500,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        match r.status.as_u16() {
            201 => *created.entry(id.clone()).or_default() += 1,
            409 => assert_eq!(r.problem(409)["type"], "/problems/game-over"),
            s => panic!("unexpected {s}"),
        }
    }
    for id in &ids {
        let gid = zohn_ahl::domain::GameId::parse(id).unwrap();
        let game = service.game(gid).await.unwrap();
        let moves = service.moves(gid, 0, 10_000).await.unwrap().1;
        assert_eq!(moves.len() as u64, created.get(id).copied().unwrap_or(0));
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(m.n as usize, i + 1, "no gaps or doubles");
        }
        let table = game.setup.table().unwrap();
        let throws: Vec<_> = moves.iter().map(|m| m.throw).collect();
        assert_eq!(
            zohn_ahl::rules::replay(&table, &throws).unwrap(),
            game.state
        );
        let [a, b] = game.state.counters;
        assert_eq!(a + b, 8);
    }
}

/// Throws for different games that arrive together are committed in one
/// transaction by the single writer (group commit), each answered only
/// after that commit.
/// One throw on each of `games` fresh games, all sent together through
/// the real stack: the games' ids and the commits the writer made for them.
async fn throw_together(service: &zohn_ahl::service::Service, games: usize) -> (Vec<String>, u64) {
    let app = common::spawn_server(service.clone());
    let mut ids = Vec::new();
    for _ in 0..games {
        let g = send(&app, post_empty("/v1/games")).await.json();
        ids.push(g["id"].as_str().unwrap().to_owned());
    }
    let before = service.commits();
    let replies = join_all(
        ids.iter()
            .map(|id| send(&app, post_empty(&format!("/v1/games/{id}/throws")))),
    )
    .await;
    assert!(replies.iter().all(|r| r.status.as_u16() == 201));
    (ids, service.commits() - before)
}

#[actix_web::test]
async fn throws_that_arrive_together_share_one_commit() {
    let db = TestDb::new();
    let service = db.service().await;
    let (ids, commits) = throw_together(&service, 32).await;
    assert!(
        commits < 32,
        "32 throws took {commits} commits: they were not grouped"
    );
    let app = common::spawn_server(service);
    for id in &ids {
        let g = send(&app, get(&format!("/v1/games/{id}"))).await.json();
        assert_eq!(g["version"], 1, "each game's throw is stored once");
    }
}

/// Seat and host tokens never reach a log line: the server binary, logging
/// every span and event at the most verbose level as an operator's would,
/// serves an idempotent seated creation and its replay, seated throws (the
/// host's and the sides'), a reported throw refused to a side, wrong
/// tokens, stops (a side's refused, the host's, its replay), a deletion and
/// the errors; then its whole log is read.
///
/// A regression: this test once installed a capturing subscriber for its
/// own thread inside the shared test binary, and failed once in CI while
/// other tests ran beside it (tracing keeps one interest per call site for
/// the whole process, so a thread's subscriber is not alone). The binary's
/// own log has no such neighbours.
#[actix_web::test]
async fn seat_and_host_tokens_never_reach_the_log() {
    let logged = common::process::Logged::start(&["--log", "trace"]);
    let app = &logged.app;
    let create = || {
        post_json("/v1/games", &json!({"seats": true})).insert_header(("idempotency-key", "log-1"))
    };
    let g = send(app, create()).await.json();
    let replayed = send(app, create()).await;
    assert_eq!(
        replayed.header("idempotent-replayed").as_deref(),
        Some("true")
    );
    let id = g["id"].as_str().unwrap().to_owned();
    let tokens = [
        g["seat_tokens"]["a"].as_str().unwrap().to_owned(),
        g["seat_tokens"]["b"].as_str().unwrap().to_owned(),
        g["host_token"].as_str().unwrap().to_owned(),
    ];
    let with = |path: &str, token: &str| {
        post_empty(path).insert_header(("authorization", format!("Bearer {token}")))
    };
    for _ in 0..4 {
        for token in &tokens {
            send(app, with(&format!("/v1/games/{id}/throws"), token)).await;
        }
    }
    let report = |token: &str| {
        post_json(
            &format!("/v1/games/{id}/throws"),
            &json!({"sticks": ["flat", "flat", "flat", "flat"]}),
        )
        .insert_header(("authorization", format!("Bearer {token}")))
    };
    for token in &tokens {
        send(app, report(token)).await;
    }
    send(app, with(&format!("/v1/games/{id}/stop"), &tokens[1])).await;
    for _ in 0..2 {
        send(
            app,
            with(&format!("/v1/games/{id}/stop"), &tokens[2])
                .insert_header(("idempotency-key", "stop")),
        )
        .await;
    }
    send(app, with(&format!("/v1/games/{id}/throws"), &tokens[0])).await;
    let delete = |token: &str| {
        test::TestRequest::delete()
            .uri(&format!("/v1/games/{id}"))
            .insert_header(("authorization", format!("Bearer {token}")))
    };
    send(app, delete(&tokens[0])).await;
    send(app, delete(&tokens[2])).await;
    send(app, delete(&tokens[2])).await;

    let log = logged.stop();
    assert!(
        log.contains(&format!("/v1/games/{id}/throws")),
        "the requests were logged"
    );
    assert!(
        log.contains(&format!("/v1/games/{id}/stop")) && log.contains("DELETE"),
        "the stops and deletions were logged"
    );
    for token in &tokens {
        assert!(
            !log.contains(token.as_str()),
            "a seat or host token reached the log"
        );
    }
    assert!(
        !log.to_lowercase().contains("bearer"),
        "an Authorization header was logged"
    );
}

/// `--max-batch 1` (the load benchmark's "before"): every throw is its own
/// commit, however many arrive together.
#[actix_web::test]
async fn with_a_batch_of_one_every_throw_is_its_own_commit() {
    use zohn_ahl::service::Service;
    use zohn_ahl::store::Store;
    let db = TestDb::new();
    let service = Service::with_max_batch(Store::connect(&db.url).await.unwrap(), 1);
    let (_, commits) = throw_together(&service, 16).await;
    assert_eq!(commits, 16);
}

/// A store locked by another writer for longer than the busy time-out
/// answers 503 with Retry-After, and the throw is not half applied.
#[actix_web::test]
async fn a_locked_store_answers_503_with_retry_after() {
    use sqlx::Connection;
    let (db, app) = common::spawn_sqlite_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap().to_owned();
    let mut other = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let p = r.problem(503);
    assert_eq!(p["type"], "/problems/busy");
    assert_eq!(r.header("retry-after").as_deref(), Some("1"));
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    let state = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(state["version"], 0, "nothing of the refused throw was kept");
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(r.status.as_u16(), 201, "the store recovers");
}

/// The request log's client address is the one the limits count: a
/// forwarded address from a peer that is no trusted proxy is not believed
/// (an operator's trial: `X-Forwarded-For: 10.1.1.4` from an untrusted
/// client was logged as its address); from a trusted proxy, the address it
/// forwards is.
#[actix_web::test]
async fn regression_the_log_believed_an_untrusted_forwarded_address() {
    let logged = common::process::Logged::start(&["--log-format", "json"]);
    let forged = |address: &str| {
        common::get("/healthz")
            .insert_header(("x-forwarded-for", address.to_owned()))
            .insert_header(("forwarded", format!("for={address}")))
            .insert_header(("x-real-ip", address.to_owned()))
    };
    assert_eq!(send(&logged.app, forged("10.1.1.4")).await.status, 200);
    let log = logged.stop();
    assert!(!log.contains("10.1.1.4"), "{log}");
    let answered: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|l| l["fields"]["message"] == "answered")
        .collect();
    assert!(!answered.is_empty(), "{log}");
    for line in &answered {
        assert_eq!(line["span"]["http.client_ip"], "127.0.0.1", "{line}");
    }

    // Behind a trusted proxy, the forwarded address is the client's.
    let logged =
        common::process::Logged::start(&["--log-format", "json", "--trusted-proxies", "127.0.0.1"]);
    let proxied = common::get("/healthz").insert_header(("x-forwarded-for", "10.1.1.5"));
    assert_eq!(send(&logged.app, proxied).await.status, 200);
    let log = logged.stop();
    assert!(log.contains("\"http.client_ip\":\"10.1.1.5\""), "{log}");
}
