//! Retention: games untouched for longer than the setting are deleted by
//! the purge, which is called here with a time (never by waiting), on real
//! SQLite files; and the setting's flag.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use clap::Parser;
use common::{TestDb, get, post_empty, post_json, send, spawn_app_with_service};
use serde_json::json;
use time::{Duration, OffsetDateTime};
use zohn_ahl::store::timestamp;

/// Set a game's last change (and its creation) to `at`.
async fn touch(db: &TestDb, id: &str, at: OffsetDateTime) {
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    sqlx::query("UPDATE games SET updated_at = ?, created_at = ? WHERE id = ?")
        .bind(timestamp(at))
        .bind(timestamp(at))
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

#[actix_web::test]
async fn the_purge_deletes_games_untouched_past_the_retention_and_keeps_the_others() {
    let (db, service, app) = spawn_app_with_service().await;
    let now = OffsetDateTime::now_utc();
    let mut ids = Vec::new();
    for i in 0..4 {
        let g = send(
            &app,
            post_json(
                "/v1/games",
                &json!({"seats": true, "sides": {"a": {"name": format!("Child {i}")}}}),
            ),
        )
        .await
        .json();
        ids.push(g["id"].as_str().unwrap().to_owned());
    }
    // Game 0 finished 40 days ago, game 1 was left unfinished 31 days ago,
    // game 2 was last played 29 days ago, game 3 today.
    touch(&db, &ids[0], now - Duration::days(40)).await;
    touch(&db, &ids[1], now - Duration::days(31)).await;
    touch(&db, &ids[2], now - Duration::days(29)).await;

    let store = zohn_ahl::store::Store::connect(&db.url).await.unwrap();
    let due = store
        .games_untouched_since(&timestamp(now - Duration::days(30)), 100)
        .await
        .unwrap();
    let due: Vec<String> = due.iter().map(ToString::to_string).collect();
    assert_eq!(due, [ids[0].clone(), ids[1].clone()], "oldest first");
    store.close().await;

    // No retention: nothing is deleted.
    let purged = service.purge(now, None).await.unwrap();
    assert_eq!(purged.games, 0);
    let purged = service.purge(now, Some(Duration::days(30))).await.unwrap();
    assert_eq!(purged.games, 2);
    for id in &ids[..2] {
        send(&app, get(&format!("/v1/games/{id}")))
            .await
            .problem(404);
    }
    for id in &ids[2..] {
        let r = send(&app, get(&format!("/v1/games/{id}"))).await;
        assert_eq!(r.status.as_u16(), 200);
    }
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let seats: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM seats")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(seats, 6, "the deleted games' seats went with them");
    pool.close().await;
    // A day later game 2 is due too.
    let purged = service
        .purge(now + Duration::days(2), Some(Duration::days(30)))
        .await
        .unwrap();
    assert_eq!(purged.games, 1);
    send(&app, get(&format!("/v1/games/{}", ids[2])))
        .await
        .problem(404);
    let (games, faults) = service.verify().await.unwrap();
    assert_eq!((games, faults), (1, Vec::<String>::new()));
}

/// The single writer keeps the games it wrote in memory: a purged game
/// must leave that memory, or a throw would write it back.
#[actix_web::test]
async fn a_purged_game_held_in_the_writers_memory_is_not_played_again() {
    let (db, service, app) = spawn_app_with_service().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap().to_owned();
    for _ in 0..3 {
        let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        assert_eq!(r.status.as_u16(), 201);
    }
    let now = OffsetDateTime::now_utc();
    let purged = service
        .purge(now + Duration::days(8), Some(Duration::days(7)))
        .await
        .unwrap();
    assert_eq!(purged.games, 1);
    let p = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
        .await
        .problem(404);
    assert_eq!(p["type"], "/problems/game-not-found");
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(moves, 0);
    pool.close().await;
}

/// Expired idempotency answers of throws and stops are purged too (24
/// hours), and only those.
#[actix_web::test]
async fn the_purge_deletes_idempotency_answers_older_than_a_day() {
    let (_db, service, app) = spawn_app_with_service().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap().to_owned();
    for key in ["a", "b"] {
        let r = send(
            &app,
            post_empty(&format!("/v1/games/{id}/throws")).insert_header(("idempotency-key", key)),
        )
        .await;
        assert_eq!(r.status.as_u16(), 201);
    }
    let now = OffsetDateTime::now_utc();
    assert_eq!(service.purge(now, None).await.unwrap().keys, 0);
    let purged = service
        .purge(now + Duration::hours(25), Some(Duration::days(30)))
        .await
        .unwrap();
    assert_eq!(purged.keys, 2);
    assert_eq!(purged.games, 0, "the game itself is within its retention");
    let r = send(&app, get(&format!("/v1/games/{id}"))).await;
    assert_eq!(r.status.as_u16(), 200);
}

#[test]
fn the_retention_flag_reaches_the_server_settings() {
    use zohn_ahl::cli::{Cli, Command};
    use zohn_ahl::server::Settings;
    let parse = |args: &[&str]| -> Result<Settings, clap::Error> {
        let cli = Cli::try_parse_from(args)?;
        match cli.command.unwrap_or(Command::Serve(cli.serve)) {
            Command::Serve(args) => Ok(args.into()),
            other => panic!("not serve: {other:?}"),
        }
    };
    let settings = parse(&["zohn-ahl", "serve", "--retention-days", "30"]).unwrap();
    assert_eq!(settings.retention_days, Some(30));
    let settings = parse(&["zohn-ahl", "--retention-days", "7"]).unwrap();
    assert_eq!(settings.retention_days, Some(7));
    assert!(parse(&["zohn-ahl", "serve", "--retention-days", "0"]).is_err());
    assert!(parse(&["zohn-ahl", "serve", "--retention-days", "many"]).is_err());
    if std::env::var_os("ZOHN_AHL_RETENTION_DAYS").is_none() {
        let settings = parse(&["zohn-ahl", "serve"]).unwrap();
        assert_eq!(settings.retention_days, None, "off by default");
    }
}
