//! Retention: finished games (won or stopped) are deleted the set number
//! of days after they ended, games left unfinished the same number of days
//! after their last move; the purge is called here with a time (never by
//! waiting), on real SQLite files (and on PostgreSQL with
//! `ZOHN_AHL_TEST_BACKEND=postgres`); and the setting's flag.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use clap::Parser;
use common::{TestDb, get, post_empty, post_json, send, spawn_app_with_service};
use serde_json::json;
use time::{Duration, OffsetDateTime};
use zohn_ahl::domain::Timestamp;

/// Set a game's creation to `created` and its last change (its end, for a
/// finished game) to `changed`.
async fn age(db: &TestDb, id: &str, created: OffsetDateTime, changed: OffsetDateTime) {
    common::run_sql(
        &db.url,
        &[(
            "UPDATE games SET created_at = $1, updated_at = $2 WHERE id = $3".to_owned(),
            vec![
                Timestamp::at(created).as_str().to_owned(),
                Timestamp::at(changed).as_str().to_owned(),
                id.to_owned(),
            ],
        )],
    )
    .await;
}

/// How [`finish`] ends a game.
#[derive(Clone, Copy)]
enum Ending {
    /// The host stops it.
    Stop,
    /// The host throws until a side wins.
    Win,
}

/// End the seated game `(id, host token)`; its state after.
async fn finish<T: common::Target>(
    app: &T,
    (id, host): &(String, String),
    ending: Ending,
) -> serde_json::Value {
    let path = match ending {
        Ending::Stop => "stop",
        Ending::Win => "throws",
    };
    for _ in 0..10_000 {
        let g = send(app, get(&format!("/v1/games/{id}"))).await.json();
        if g["status"] == "finished" {
            return g;
        }
        let r = send(
            app,
            post_empty(&format!("/v1/games/{id}/{path}"))
                .insert_header(("authorization", format!("Bearer {host}"))),
        )
        .await;
        assert!(
            r.status.is_success(),
            "{}",
            String::from_utf8_lossy(&r.body)
        );
    }
    panic!("game {id} did not finish");
}

#[actix_web::test]
async fn finished_games_go_n_days_after_their_end_and_abandoned_ones_n_days_after_their_last_move()
{
    let (db, service, app) = spawn_app_with_service().await;
    let now = OffsetDateTime::now_utc();
    let days = |n: i64| now - Duration::days(n);
    let mut games = Vec::new();
    for i in 0..6 {
        let g = send(
            &app,
            post_json(
                "/v1/games",
                &json!({"seats": true, "sides": {"a": {"name": format!("Child {i}")}}}),
            ),
        )
        .await
        .json();
        let id = g["id"].as_str().unwrap().to_owned();
        let host = g["host_token"].as_str().unwrap().to_owned();
        let r = send(
            &app,
            post_empty(&format!("/v1/games/{id}/throws"))
                .insert_header(("authorization", format!("Bearer {host}"))),
        )
        .await;
        assert_eq!(r.status.as_u16(), 201);
        games.push((id, host));
    }
    // Game 0 was stopped 40 days ago; game 1 was won 31 days ago, having
    // been created 50 days ago; game 2 was left unfinished 31 days ago;
    // game 3 was stopped 29 days ago, having been created 60 days ago;
    // game 4, created 60 days ago, was last played 29 days ago; game 5 is
    // today's.
    finish(&app, &games[0], Ending::Stop).await;
    assert_eq!(finish(&app, &games[1], Ending::Win).await["result"], "won");
    finish(&app, &games[3], Ending::Stop).await;
    age(&db, &games[0].0, days(41), days(40)).await;
    age(&db, &games[1].0, days(50), days(31)).await;
    // A minute after game 1's end, so that the two are in one order on
    // either database.
    age(&db, &games[2].0, days(32), days(31) + Duration::minutes(1)).await;
    age(&db, &games[3].0, days(60), days(29)).await;
    age(&db, &games[4].0, days(60), days(29)).await;
    let id = |i: usize| games[i].0.clone();

    let store = zohn_ahl::store::Store::connect(&db.url).await.unwrap();
    let due = store
        .games_untouched_since(&Timestamp::at(days(30)), 100)
        .await
        .unwrap();
    let due: Vec<String> = due.iter().map(ToString::to_string).collect();
    assert_eq!(due, [id(0), id(1), id(2)], "oldest end or last move first");
    store.close().await;

    // No retention: nothing is deleted.
    let purged = service.purge(now, None).await.unwrap();
    assert_eq!(purged.games, 0);
    let purged = service.purge(now, Some(Duration::days(30))).await.unwrap();
    assert_eq!(purged.games, 3);
    for i in 0..3 {
        send(&app, get(&format!("/v1/games/{}", id(i))))
            .await
            .problem(404);
    }
    for i in 3..6 {
        let r = send(&app, get(&format!("/v1/games/{}", id(i)))).await;
        assert_eq!(r.status.as_u16(), 200, "game {i} is kept");
    }
    for query in [
        "SELECT COUNT(*) FROM seats WHERE game_id IN ($1, $2, $3)",
        "SELECT COUNT(*) FROM moves WHERE game_id IN ($1, $2, $3)",
    ] {
        let count = common::count(&db.url, query, &[&id(0), &id(1), &id(2)]).await;
        assert_eq!(count, 0, "the deleted games' rows went with them: {query}");
    }
    let seats = common::count(&db.url, "SELECT COUNT(*) FROM seats", &[]).await;
    assert_eq!(seats, 9, "the three kept games keep their three seats each");
    // Two days later games 3 (ended 31 days before) and 4 (last played
    // 31 days before) are due too; today's game is not.
    let purged = service
        .purge(now + Duration::days(2), Some(Duration::days(30)))
        .await
        .unwrap();
    assert_eq!(purged.games, 2);
    for i in 3..5 {
        send(&app, get(&format!("/v1/games/{}", id(i))))
            .await
            .problem(404);
    }
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
    let moves = common::count(&db.url, "SELECT COUNT(*) FROM moves", &[]).await;
    assert_eq!(moves, 0);
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
