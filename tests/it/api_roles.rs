//! Roles in a seated game (each side's token and the host's), stopping,
//! deleting, idempotent creation, and a database of the schema before
//! hosts, through the real HTTP stack on real SQLite files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test;
use common::{Reply, TestDb, get, post_empty, post_json, send, spawn_app, spawn_app_with_service};
use futures_util::future::join_all;
use serde_json::{Value, json};

/// A seated game's id, side tokens (A, B) and host token.
struct Seated {
    id: String,
    a: String,
    b: String,
    host: String,
}

impl Seated {
    fn from(created: &Reply) -> Self {
        assert_eq!(
            created.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&created.body)
        );
        let g = created.json();
        let token = |v: &Value| v.as_str().unwrap().to_owned();
        Self {
            id: token(&g["id"]),
            a: token(&g["seat_tokens"]["a"]),
            b: token(&g["seat_tokens"]["b"]),
            host: token(&g["host_token"]),
        }
    }

    fn side(&self, side: &str) -> &str {
        if side == "A" { &self.a } else { &self.b }
    }
}

fn bearer(req: test::TestRequest, token: Option<&str>) -> test::TestRequest {
    match token {
        Some(t) => req.insert_header(("authorization", format!("Bearer {t}"))),
        None => req,
    }
}

const STICKS: &str = r#"{"sticks": ["flat", "round", "flat", "flat"]}"#;

fn report(id: &str) -> test::TestRequest {
    test::TestRequest::post()
        .uri(&format!("/v1/games/{id}/throws"))
        .insert_header(("content-type", "application/json"))
        .set_payload(STICKS)
}

/// The side to move now.
async fn to_move<T: common::Target>(app: &T, id: &str) -> String {
    let g = send(app, get(&format!("/v1/games/{id}"))).await.json();
    g["to_throw"]["side"].as_str().unwrap().to_owned()
}

#[actix_web::test]
async fn a_seated_game_gives_a_host_token_once_and_never_shows_it_again() {
    let (db, app) = common::spawn_sqlite_app().await;
    let created = send(&app, post_json("/v1/games", &json!({"seats": true}))).await;
    let g = Seated::from(&created);
    let body = created.json();
    assert_eq!(body["seated"], true);
    assert_eq!(body["sides_report_throws"], false);
    for t in [&g.a, &g.b, &g.host] {
        assert_eq!(t.len(), 64, "256 bits in hex");
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    assert!(g.host != g.a && g.host != g.b && g.a != g.b);
    // Stored only as hashes, as the side tokens.
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let rows: Vec<(String, Vec<u8>)> =
        sqlx::query_as("SELECT side, token_hash FROM seats WHERE game_id = ? ORDER BY side")
            .bind(&g.id)
            .fetch_all(&pool)
            .await
            .unwrap();
    pool.close().await;
    let sides: Vec<&str> = rows.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(sides, ["A", "B", "host"]);
    use sha2::Digest;
    let host_hash = sha2::Sha256::digest(g.host.as_bytes()).to_vec();
    assert_eq!(rows[2].1, host_hash);
    let file = std::fs::read(db.dir.path().join("games.db")).unwrap_or_default();
    let wal = std::fs::read(db.dir.path().join("games.db-wal")).unwrap_or_default();
    for bytes in [&file, &wal] {
        assert!(
            !bytes.windows(64).any(|w| w == g.host.as_bytes()),
            "the host token is stored in clear"
        );
    }

    // Neither a read nor a throw's answer nor an error shows it again.
    let id = &g.id;
    let replies = [
        send(&app, get(&format!("/v1/games/{id}"))).await,
        send(
            &app,
            bearer(post_empty(&format!("/v1/games/{id}/throws")), Some(&g.host)),
        )
        .await,
        send(&app, get(&format!("/v1/games/{id}/moves"))).await,
        send(&app, get(&format!("/v1/games/{id}/moves/1"))).await,
        send(&app, bearer(report(id), Some(&g.a))).await,
        send(
            &app,
            bearer(post_empty(&format!("/v1/games/{id}/stop")), Some(&g.a)),
        )
        .await,
    ];
    for r in &replies {
        let text = String::from_utf8_lossy(&r.body);
        assert!(r.status.as_u16() < 500, "{text}");
        for t in [&g.a, &g.b, &g.host] {
            assert!(!text.contains(t.as_str()), "a token is echoed: {text}");
        }
        assert!(!text.contains("host_token") && !text.contains("seat_tokens"));
    }
}

#[actix_web::test]
async fn a_server_throw_needs_the_movers_token_or_the_hosts() {
    let (_db, app) = spawn_app().await;
    let g = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let other = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let throw = |t: Option<&str>| bearer(post_empty(&format!("/v1/games/{}/throws", g.id)), t);
    send(&app, throw(None)).await.problem(401);
    // Regression: an unknown token was told to "send one of its tokens",
    // as though none had been sent.
    let unknown = send(&app, throw(Some(&"f".repeat(64)))).await.problem(401);
    let detail = unknown["detail"].as_str().unwrap();
    assert!(detail.contains("the one sent is unknown"), "{detail}");
    send(&app, throw(Some(&other.host))).await.problem(403);
    for n in 0..12 {
        let side = to_move(&app, &g.id).await;
        let wrong = if side == "A" { &g.b } else { &g.a };
        let p = send(&app, throw(Some(wrong))).await.problem(403);
        assert_eq!(p["type"], "/problems/not-your-seat");
        // The host throws for either side; otherwise the mover does.
        let token = if n % 3 == 0 { &g.host } else { g.side(&side) };
        let r = send(&app, throw(Some(token))).await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.json()["side"], side.as_str());
    }
}

/// A side that could report its own sticks could choose a 10 on every
/// throw: only the host reports, unless the game was created allowing it.
#[actix_web::test]
async fn a_side_token_cannot_report_its_own_throw_unless_the_game_allows_it() {
    let (_db, app) = spawn_app().await;
    let g = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    for _ in 0..4 {
        let side = to_move(&app, &g.id).await;
        let p = send(&app, bearer(report(&g.id), Some(g.side(&side))))
            .await
            .problem(403);
        assert_eq!(p["type"], "/problems/host-token-required");
        assert!(
            p["detail"]
                .as_str()
                .unwrap()
                .contains("sides_report_throws")
        );
        send(&app, bearer(report(&g.id), None)).await.problem(401);
        let r = send(&app, bearer(report(&g.id), Some(&g.host))).await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.json()["origin"], "reported");
    }
    let state = send(&app, get(&format!("/v1/games/{}", g.id))).await.json();
    assert_eq!(state["version"], 4, "no refused report was played");

    // Created allowing it: the mover reports her own throw, the other side
    // still cannot.
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"seats": {"sides_report_throws": true}}),
        ),
    )
    .await;
    assert_eq!(created.json()["sides_report_throws"], true);
    let open = Seated::from(&created);
    for _ in 0..4 {
        let side = to_move(&app, &open.id).await;
        let other = if side == "A" { &open.b } else { &open.a };
        send(&app, bearer(report(&open.id), Some(other)))
            .await
            .problem(403);
        let r = send(&app, bearer(report(&open.id), Some(open.side(&side)))).await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
    }
    // The settings object is checked like any other.
    let r = send(
        &app,
        post_json("/v1/games", &json!({"seats": {"sides_report": true}})),
    )
    .await;
    assert_eq!(
        r.problem(400)["errors"][0]["pointer"],
        "/seats/sides_report"
    );
    let r = send(&app, post_json("/v1/games", &json!({"seats": 1}))).await;
    assert_eq!(r.problem(400)["errors"][0]["pointer"], "/seats");
    let r = send(&app, post_json("/v1/games", &json!({"seats": false}))).await;
    assert_eq!(r.json()["seated"], false);
}

/// Either seat could stop the game during the other side's turn and win:
/// only the host stops.
#[actix_web::test]
async fn only_the_host_stops_a_seated_game() {
    let (_db, app) = spawn_app().await;
    let g = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let other = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let stop = |t: Option<&str>| bearer(post_empty(&format!("/v1/games/{}/stop", g.id)), t);
    for _ in 0..3 {
        let side = to_move(&app, &g.id).await;
        send(
            &app,
            bearer(
                post_empty(&format!("/v1/games/{}/throws", g.id)),
                Some(g.side(&side)),
            ),
        )
        .await;
    }
    send(&app, stop(None)).await.problem(401);
    for t in [&g.a, &g.b] {
        let p = send(&app, stop(Some(t))).await.problem(403);
        assert_eq!(p["type"], "/problems/host-token-required");
    }
    send(&app, stop(Some(&other.host))).await.problem(403);
    send(&app, stop(Some(&other.a))).await.problem(403);
    let state = send(&app, get(&format!("/v1/games/{}", g.id))).await.json();
    assert_eq!(state["status"], "in_progress", "no refused stop was played");
    let r = send(&app, stop(Some(&g.host))).await;
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.json()["state"]["status"], "finished");
    assert_eq!(r.header("etag").as_deref(), Some("\"4\""));
    send(&app, stop(Some(&g.host))).await.problem(409);
}

/// `stop` ignored a stale `If-Match`.
#[actix_web::test]
async fn a_stop_with_a_stale_if_match_is_412_with_the_current_version() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let stale = post_empty(&format!("/v1/games/{id}/stop")).insert_header(("if-match", "\"0\""));
    let p = send(&app, stale).await.problem(412);
    assert_eq!(p["current_version"], 1);
    let state = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(state["status"], "in_progress");
    let fresh = post_empty(&format!("/v1/games/{id}/stop")).insert_header(("if-match", "\"1\""));
    assert_eq!(send(&app, fresh).await.status.as_u16(), 200);
    let bad = post_empty(&format!("/v1/games/{id}/stop")).insert_header(("if-match", "three"));
    let p = send(&app, bad).await.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/header/If-Match");
}

/// A retried stop got 409: now it replays the first answer.
#[actix_web::test]
async fn a_retried_stop_with_its_idempotency_key_replays_the_first_answer() {
    let (_db, app) = spawn_app().await;
    let g = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let id = &g.id;
    let stop = |key: &str, t: &str| {
        bearer(post_empty(&format!("/v1/games/{id}/stop")), Some(t))
            .insert_header(("idempotency-key", key.to_owned()))
    };
    let first = send(&app, stop("stop-1", &g.host)).await;
    assert_eq!(first.status.as_u16(), 200);
    assert_eq!(first.header("idempotent-replayed"), None);
    let again = send(&app, stop("stop-1", &g.host)).await;
    assert_eq!(again.status.as_u16(), 200);
    assert_eq!(again.body, first.body, "byte for byte");
    assert_eq!(again.header("etag"), first.header("etag"));
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    // The same key with other credentials is another request, never the
    // replay; a side's token is refused.
    let p = send(&app, stop("stop-1", &g.a)).await.problem(422);
    assert_eq!(p["type"], "/problems/idempotency-key-reused");
    send(&app, stop("stop-2", &g.a)).await.problem(403);
    send(&app, stop("stop-2", &g.host)).await.problem(409);
    // A throw's key cannot be replayed as a stop, nor the reverse.
    let open = send(&app, post_empty("/v1/games")).await.json();
    let oid = open["id"].as_str().unwrap();
    let thrown = send(
        &app,
        post_empty(&format!("/v1/games/{oid}/throws")).insert_header(("idempotency-key", "k")),
    )
    .await;
    assert_eq!(thrown.status.as_u16(), 201);
    let p = send(
        &app,
        post_empty(&format!("/v1/games/{oid}/stop")).insert_header(("idempotency-key", "k")),
    )
    .await
    .problem(422);
    assert_eq!(p["type"], "/problems/idempotency-key-reused");
    let state = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(state["version"], 1, "the game was stopped once");
}

/// How many rows of `table` name the game.
async fn rows(db: &TestDb, table: &str, id: &str) -> i64 {
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM {table} WHERE game_id = ?"
    )))
    .bind(id)
    .fetch_one(&pool)
    .await
    .unwrap();
    pool.close().await;
    n
}

#[actix_web::test]
async fn the_host_deletes_a_seated_game_and_every_read_is_404_after() {
    let (db, app) = common::spawn_sqlite_app().await;
    let created = send(
        &app,
        post_json("/v1/games", &json!({"seats": true}))
            .insert_header(("idempotency-key", "create-to-delete")),
    )
    .await;
    let g = Seated::from(&created);
    let other = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let id = &g.id;
    for key in ["t1", "t2"] {
        let side = to_move(&app, id).await;
        let r = send(
            &app,
            bearer(
                post_empty(&format!("/v1/games/{id}/throws")),
                Some(g.side(&side)),
            )
            .insert_header(("idempotency-key", key)),
        )
        .await;
        assert_eq!(r.status.as_u16(), 201);
    }
    for table in ["moves", "seats", "idempotency_keys", "create_keys"] {
        assert!(
            rows(&db, table, id).await > 0,
            "{table} has the game's rows"
        );
    }
    let delete = |t: Option<&str>| {
        bearer(
            test::TestRequest::delete().uri(&format!("/v1/games/{id}")),
            t,
        )
    };
    send(&app, delete(None)).await.problem(401);
    for t in [&g.a, &g.b, &other.host, &other.b] {
        send(&app, delete(Some(t))).await.problem(403);
    }
    assert_eq!(
        send(&app, get(&format!("/v1/games/{id}")))
            .await
            .status
            .as_u16(),
        200
    );
    let r = send(&app, delete(Some(&g.host))).await;
    assert_eq!(
        r.status.as_u16(),
        204,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert!(r.body.is_empty());

    for path in [
        format!("/v1/games/{id}"),
        format!("/v1/games/{id}/moves"),
        format!("/v1/games/{id}/moves/1"),
        format!("/v1/games/{id}/odds"),
    ] {
        let p = send(&app, get(&path)).await.problem(404);
        assert_eq!(p["type"], "/problems/game-not-found", "{path}");
    }
    send(
        &app,
        bearer(post_empty(&format!("/v1/games/{id}/throws")), Some(&g.host)),
    )
    .await
    .problem(404);
    send(
        &app,
        bearer(post_empty(&format!("/v1/games/{id}/stop")), Some(&g.host)),
    )
    .await
    .problem(404);
    send(&app, delete(Some(&g.host))).await.problem(404);
    for table in ["moves", "seats", "idempotency_keys", "create_keys"] {
        assert_eq!(
            rows(&db, table, id).await,
            0,
            "{table} keeps the game's rows"
        );
    }
    // The other game is untouched.
    let r = send(&app, get(&format!("/v1/games/{}", other.id))).await;
    assert_eq!(r.status.as_u16(), 200);
}

#[actix_web::test]
async fn anyone_may_delete_a_game_without_seats() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let r = send(
        &app,
        test::TestRequest::delete().uri(&format!("/v1/games/{id}")),
    )
    .await;
    assert_eq!(r.status.as_u16(), 204);
    send(&app, get(&format!("/v1/games/{id}")))
        .await
        .problem(404);
    let r = send(
        &app,
        test::TestRequest::delete().uri("/v1/games/not-a-uuid"),
    )
    .await;
    assert_eq!(r.problem(400)["errors"][0]["pointer"], "#/path/id");
    // DELETE is a method of the game, and 405 says so elsewhere.
    let r = send(&app, test::TestRequest::delete().uri("/v1/games")).await;
    r.problem(405);
    let r = send(
        &app,
        test::TestRequest::put().uri(&format!("/v1/games/{id}")),
    )
    .await;
    assert!(r.header("allow").unwrap().contains("DELETE"));
}

/// A retried create made a second seated game, and the first game's
/// tokens were lost.
#[actix_web::test]
async fn a_retried_create_with_its_key_makes_no_second_game_and_replays_the_tokens() {
    let (_db, service, app) = spawn_app_with_service().await;
    let body = json!({"seats": true, "sides": {"a": {"name": "Ama"}, "b": {"name": "Bea"}}});
    let create = |key: &str, body: &Value| {
        post_json("/v1/games", body).insert_header(("idempotency-key", key.to_owned()))
    };
    let first = send(&app, create("museum-1", &body)).await;
    let g = Seated::from(&first);
    assert_eq!(first.header("idempotent-replayed"), None);
    let again = send(&app, create("museum-1", &body)).await;
    assert_eq!(again.status.as_u16(), 201);
    assert_eq!(again.body, first.body, "byte for byte, tokens included");
    assert_eq!(again.header("location"), first.header("location"));
    assert_eq!(again.header("etag"), first.header("etag"));
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(service.verify().await.unwrap().0, 1, "one game");
    // The replayed tokens are the game's.
    let r = send(
        &app,
        bearer(
            post_empty(&format!("/v1/games/{}/throws", g.id)),
            Some(&g.host),
        ),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);

    let p = send(&app, create("museum-1", &json!({"seats": true})))
        .await
        .problem(422);
    assert_eq!(p["type"], "/problems/idempotency-key-reused");
    let other = send(&app, create("museum-2", &body)).await;
    assert_ne!(Seated::from(&other).id, g.id);
    send(&app, create("", &body)).await.problem(400);
    assert_eq!(service.verify().await.unwrap().0, 2);

    // Retries that arrive together make one game.
    let replies = join_all((0..6).map(|_| send(&app, create("museum-3", &body)))).await;
    let made: Vec<&Reply> = replies
        .iter()
        .filter(|r| r.status.as_u16() == 201)
        .collect();
    assert!(!made.is_empty());
    for r in &replies {
        match r.status.as_u16() {
            201 => assert_eq!(r.body, made[0].body),
            409 => assert_eq!(
                r.problem(409)["type"],
                "/problems/idempotency-key-in-flight"
            ),
            s => panic!("unexpected {s}"),
        }
    }
    assert_eq!(service.verify().await.unwrap().0, 3);
}

/// Once its key has expired, a creation's stored answer (which holds the
/// tokens, sealed) is not replayed, and the purge deletes it.
#[actix_web::test]
async fn an_expired_create_key_is_not_replayed_and_its_tokens_are_purged() {
    let (db, service, app) = common::spawn_sqlite_app_with_service().await;
    let create = || {
        post_json("/v1/games", &json!({"seats": true})).insert_header(("idempotency-key", "old"))
    };
    let first = Seated::from(&send(&app, create()).await);
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    sqlx::query(
        "UPDATE create_keys SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-25 hours')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let purged = service
        .purge(time::OffsetDateTime::now_utc(), None)
        .await
        .unwrap();
    assert_eq!(purged.keys, 1);
    assert_eq!(purged.games, 0, "no retention: games are kept");
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM create_keys")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    let second = Seated::from(&send(&app, create()).await);
    assert_ne!(second.id, first.id, "an expired key makes a new game");
    // An answer not yet expired is kept by the same purge.
    let purged = service
        .purge(time::OffsetDateTime::now_utc(), None)
        .await
        .unwrap();
    assert_eq!(purged.keys, 0);
    pool.close().await;
}

/// A database written by the migrations before hosts (0001 to 0003): its
/// seated games have no host token, so either side's token keeps the
/// powers it had (stopping, reporting its own throws) and may delete.
#[actix_web::test]
async fn a_database_seated_before_hosts_is_migrated_and_its_sides_keep_their_powers() {
    use sha2::Digest;
    let old = TestDb::new();
    let dir = old.dir.path().join("migrations-0003");
    std::fs::create_dir(&dir).unwrap();
    for name in [
        "0001_games_and_moves.sql",
        "0002_seats_and_idempotency.sql",
        "0003_moves_by_rowid.sql",
    ] {
        std::fs::copy(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("crates/store/migrations/sqlite")
                .join(name),
            dir.join(name),
        )
        .unwrap();
    }
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(old.dir.path().join("games.db"))
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    sqlx::migrate::Migrator::new(dir.as_path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    // The setup and state of a fresh composite game, as the service writes
    // them (their JSON has not changed).
    let (fresh, fresh_app) = common::spawn_sqlite_app().await;
    let seeded = send(&fresh_app, post_json("/v1/games", &json!({"seed": "old"})))
        .await
        .json();
    let fresh_pool = sqlx::SqlitePool::connect(&fresh.url).await.unwrap();
    let (setup, state): (String, String) = sqlx::query_as("SELECT setup, state FROM games")
        .fetch_one(&fresh_pool)
        .await
        .unwrap();
    fresh_pool.close().await;
    let seated_id = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79";
    let open_id = "1b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79";
    for (id, seated) in [(seated_id, 1), (open_id, 0)] {
        sqlx::query(
            "INSERT INTO games (id, setup, seed, seeded, seated, state) VALUES (?, ?, 'old', 1, ?, ?)",
        )
        .bind(id)
        .bind(&setup)
        .bind(seated)
        .bind(&state)
        .execute(&pool)
        .await
        .unwrap();
    }
    let (a, b) = ("a".repeat(64), "b".repeat(64));
    for (side, token) in [("A", &a), ("B", &b)] {
        sqlx::query("INSERT INTO seats (game_id, side, token_hash) VALUES (?, ?, ?)")
            .bind(seated_id)
            .bind(side)
            .bind(sha2::Sha256::digest(token.as_bytes()).to_vec())
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    // Opening it runs the new migration.
    let service = old.service().await;
    assert!(service.ready().await);
    let app = common::spawn_server(service.clone());
    let g = send(&app, get(&format!("/v1/games/{seated_id}")))
        .await
        .json();
    assert_eq!(g["seated"], true);
    assert_eq!(g["sides_report_throws"], true);
    assert_eq!(g["sides"][0]["name"], seeded["sides"][0]["name"]);
    let token = |side: &str| if side == "A" { a.as_str() } else { b.as_str() };
    let side = to_move(&app, seated_id).await;
    let r = send(&app, bearer(report(seated_id), Some(token(&side)))).await;
    assert_eq!(
        r.status.as_u16(),
        201,
        "a side reports its own throw, as before"
    );
    let side = to_move(&app, seated_id).await;
    let r = send(
        &app,
        bearer(
            post_empty(&format!("/v1/games/{seated_id}/throws")),
            Some(token(&side)),
        ),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let wrong = if to_move(&app, seated_id).await == "A" {
        &b
    } else {
        &a
    };
    send(
        &app,
        bearer(
            post_empty(&format!("/v1/games/{seated_id}/throws")),
            Some(wrong),
        ),
    )
    .await
    .problem(403);
    send(&app, post_empty(&format!("/v1/games/{seated_id}/stop")))
        .await
        .problem(401);
    let r = send(
        &app,
        bearer(post_empty(&format!("/v1/games/{seated_id}/stop")), Some(&b)),
    )
    .await;
    assert_eq!(r.status.as_u16(), 200, "either side stops, as before");
    let r = send(
        &app,
        bearer(
            test::TestRequest::delete().uri(&format!("/v1/games/{seated_id}")),
            Some(&a),
        ),
    )
    .await;
    assert_eq!(r.status.as_u16(), 204);
    // The open game plays as before.
    let r = send(&app, report(open_id)).await;
    assert_eq!(r.status.as_u16(), 201);
    let g = send(&app, get(&format!("/v1/games/{open_id}")))
        .await
        .json();
    assert_eq!(g["seated"], false);
    assert_eq!(g["sides_report_throws"], false);
    let (games, faults) = service.verify().await.unwrap();
    assert_eq!((games, faults), (1, Vec::<String>::new()));
}

/// A side sending the key of the host's throw or stop, with its own token
/// or none, must not get the host's answer replayed nor act through it:
/// the key is bound to the request's credentials.
#[actix_web::test]
async fn a_side_replaying_the_hosts_idempotency_key_gets_422_not_the_hosts_answer() {
    let (_db, app) = spawn_app().await;
    let g = Seated::from(&send(&app, post_json("/v1/games", &json!({"seats": true}))).await);
    let throws = format!("/v1/games/{}/throws", g.id);
    let stop = format!("/v1/games/{}/stop", g.id);
    let keyed =
        |req: test::TestRequest, key: &'static str| req.insert_header(("idempotency-key", key));
    let r = send(
        &app,
        bearer(keyed(post_empty(&throws), "h1"), Some(&g.host)),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let mover = to_move(&app, &g.id).await;
    let other = if mover == "A" { "B" } else { "A" };
    for token in [Some(g.side(other)), Some(g.side(&mover)), None] {
        let p = send(&app, bearer(keyed(post_empty(&throws), "h1"), token))
            .await
            .problem(422);
        assert_eq!(p["type"], "/problems/idempotency-key-reused");
    }
    let r = send(&app, bearer(keyed(post_empty(&stop), "s1"), Some(&g.host))).await;
    assert_eq!(r.status.as_u16(), 200);
    for token in [Some(g.a.as_str()), Some(g.b.as_str()), None] {
        let p = send(&app, bearer(keyed(post_empty(&stop), "s1"), token))
            .await
            .problem(422);
        assert_eq!(p["type"], "/problems/idempotency-key-reused");
    }
    // With no key, a stop without a token is told it needs the host's.
    let p = send(&app, post_empty(&stop)).await.problem(401);
    assert!(p["detail"].as_str().unwrap().contains("the host's"), "{p}");
    let g2 = send(&app, get(&format!("/v1/games/{}", g.id))).await.json();
    assert_eq!(
        g2["version"], 2,
        "one throw and the host's stop, nothing more"
    );
}
