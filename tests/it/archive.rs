//! `zohn-ahl export` and `zohn-ahl import`: a class's games (open and
//! seated, reported and server throws, stopped, finished, every board)
//! exported by the binary and imported into an empty database, of the same
//! store or of PostgreSQL, read back move for move, narration included,
//! and export again byte for byte; an import never replaces a game nor takes
//! one that does not replay.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use zohn_ahl::domain::GameId;
use zohn_ahl::store::Store;

use crate::common::{self, Bound, fresh_postgres, post_empty, post_json, send};

/// The binary's `export` of the database at `url`, with the seats.
fn export(url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
        .args(["export", "--with-seats", "--database-url", url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The binary's `import` of `lines` into the database at `url`: whether it
/// succeeded, and what it said.
fn import(url: &str, lines: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
        .args(["import", "--database-url", url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn create(app: &Bound, body: Value) -> String {
    let created = send(app, post_json("/v1/games", &body)).await;
    assert_eq!(
        created.status,
        201,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
    created.json()["id"].as_str().unwrap().to_owned()
}

async fn throw(app: &Bound, id: &str) -> u16 {
    send(app, post_empty(&format!("/v1/games/{id}/throws")))
        .await
        .status
        .as_u16()
}

/// A class's games of every kind, played on `app`; their ids.
async fn play_a_class(app: &Bound) -> Vec<String> {
    let mut ids = Vec::new();
    // Server throws, from a seed the server drew (not exported).
    let id = create(app, json!({})).await;
    for _ in 0..6 {
        assert_eq!(throw(app, &id).await, 201);
    }
    ids.push(id);
    // Reported throws, then the server's.
    let id = create(
        app,
        json!({"seed": "class-2", "narration": {"audience": "young"}}),
    )
    .await;
    for sticks in [
        ["flat", "round", "round", "round"],
        ["flat", "flat", "flat", "flat"],
    ] {
        let r = send(
            app,
            post_json(
                &format!("/v1/games/{id}/throws"),
                &json!({ "sticks": sticks }),
            ),
        )
        .await;
        assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    }
    assert_eq!(throw(app, &id).await, 201);
    ids.push(id);
    // Seated, not yet played.
    ids.push(create(app, json!({"seed": "class-3", "seats": true})).await);
    // Stopped.
    let id = create(
        app,
        json!({"seed": "class-4", "narration": {"audience": "scholar"}}),
    )
    .await;
    for _ in 0..3 {
        assert_eq!(throw(app, &id).await, 201);
    }
    assert_eq!(
        send(app, post_empty(&format!("/v1/games/{id}/stop")))
            .await
            .status,
        200
    );
    ids.push(id);
    // The square board and its spinner.
    let id = create(app, json!({"seed": "class-5", "ruleset": {"preset": "a4"}})).await;
    for _ in 0..5 {
        assert_eq!(throw(app, &id).await, 201);
    }
    ids.push(id);
    // Played to the end.
    let id = create(
        app,
        json!({"seed": "class-6", "ruleset": {"preset": "culin1898"}}),
    )
    .await;
    let mut thrown = 0;
    while throw(app, &id).await == 201 {
        thrown += 1;
        assert!(thrown < 2_000, "the game ends");
    }
    ids.push(id);
    ids
}

/// Every game of `ids` reads the same from both stores: the game (state,
/// version, facts told) and every move, its narration word for word.
async fn assert_same_games(from: &str, to: &str, ids: &[String]) {
    let (from, to) = (
        Store::connect(from).await.unwrap(),
        Store::connect(to).await.unwrap(),
    );
    for id in ids {
        let id = GameId::parse(id).unwrap();
        let (mut a, b) = (
            from.game(id).await.unwrap().unwrap(),
            to.game(id).await.unwrap().unwrap(),
        );
        if !a.seeded {
            // A seed the server drew is not exported: the import drew another.
            assert_ne!(a.seed, b.seed, "game {id}");
            a.seed = b.seed.clone();
        }
        assert_eq!(a, b, "game {id}");
        let (a, b) = (
            from.moves(id, 0, u32::MAX).await.unwrap(),
            to.moves(id, 0, u32::MAX).await.unwrap(),
        );
        assert_eq!(a, b, "the moves of game {id}");
    }
    from.close().await;
    to.close().await;
}

/// Export, import into `target` (empty), and check it all.
async fn round_trip(target: &str) {
    let (db, app) = common::spawn_sqlite_app().await;
    let ids = play_a_class(&app).await;
    let exported = export(&db.url);
    assert_eq!(exported.lines().count(), ids.len());
    assert!(!exported.contains("seat_tokens") && !exported.contains("token\""));
    let drawn = Store::connect(&db.url)
        .await
        .unwrap()
        .game(GameId::parse(&ids[0]).unwrap())
        .await
        .unwrap()
        .unwrap()
        .seed;
    assert!(
        !exported.contains(drawn.as_str()),
        "a drawn seed is exported"
    );

    let (ok, said) = import(target, &exported);
    assert!(ok, "{said}");
    assert!(
        said.contains(&format!("imported {} games, refused 0", ids.len())),
        "{said}"
    );
    assert_same_games(&db.url, target, &ids).await;
    assert_eq!(
        export(target),
        exported,
        "the imported games export the same lines"
    );

    // Never over a game that exists.
    let (ok, said) = import(target, &exported);
    assert!(!ok);
    assert!(
        said.contains("exists: an import never replaces a game"),
        "{said}"
    );
}

#[actix_web::test]
async fn a_class_exported_from_sqlite_imports_into_an_empty_database_move_for_move() {
    let target = common::TestDb::new();
    round_trip(&target.url).await;
}

#[actix_web::test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: run under pg_virtualenv, or set ZOHN_AHL_TEST_POSTGRES (README: SQLite or PostgreSQL)"
)]
async fn a_class_exported_from_sqlite_imports_into_postgresql_move_for_move() {
    round_trip(&fresh_postgres().await).await;
}

/// A line whose throws do not replay (a throw after the game's end, a
/// spinner's sector on a game of sticks), of another format, or a seated
/// game without its seats, is refused; the good lines beside it go in.
#[actix_web::test]
async fn an_import_refuses_a_game_that_does_not_replay_and_takes_the_others() {
    let (db, app) = common::spawn_sqlite_app().await;
    let id = create(&app, json!({"seed": "refused"})).await;
    for _ in 0..2 {
        assert_eq!(throw(&app, &id).await, 201);
    }
    let seated = create(&app, json!({"seed": "seated", "seats": true})).await;
    let lines = export(&db.url);
    let mut good: Value =
        serde_json::from_str(lines.lines().find(|l| l.contains(&id)).unwrap()).unwrap();
    let mut spinner = good.clone();
    spinner["moves"][1]["throw"] = json!({"spinner": "six"});
    spinner["id"] = json!("0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79");
    let mut other = good.clone();
    other["format"] = json!("zohn-ahl-game/9");
    let mut seatless: Value =
        serde_json::from_str(lines.lines().find(|l| l.contains(&seated)).unwrap()).unwrap();
    seatless.as_object_mut().unwrap().remove("seats");
    good["id"] = json!("1b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79");

    let target = common::TestDb::new();
    let input = [spinner, other, seatless, good]
        .iter()
        .map(|v| format!("{v}\n"))
        .collect::<String>();
    let (ok, said) = import(&target.url, &input);
    assert!(!ok, "{said}");
    assert!(
        said.contains("line 1: game 0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79: move 2 does not replay"),
        "{said}"
    );
    assert!(
        said.contains("line 2: not a game of format zohn-ahl-game/1"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "line 3: game {seated} is seated, and its seats were not exported"
        )),
        "{said}"
    );
    assert!(said.contains("imported 1 game, refused 3"), "{said}");
    let store = Store::connect(&target.url).await.unwrap();
    assert_eq!(store.game_ids().await.unwrap().len(), 1);
    store.close().await;
}
