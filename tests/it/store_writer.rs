//! The single writer's memory of hot games, the migrations of the move
//! table and the checkpoints, on real SQLite files with real migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::{TestDb, get, post_empty, send};

/// A fresh game's id.
async fn new_game<T: common::Target>(app: &T) -> String {
    let g = send(app, post_empty("/v1/games")).await.json();
    g["id"].as_str().unwrap().to_owned()
}

/// The writer keeps the games it wrote in memory; a game written meanwhile
/// through another connection (another process on the same file) is read
/// again, never overwritten, and its moves stay numbered without a gap.
#[actix_web::test]
async fn a_game_written_by_another_writer_is_read_again_not_overwritten() {
    let db = TestDb::new();
    let first = common::spawn_server(db.service().await);
    let second = common::spawn_server(db.service().await);
    let id = new_game(&first).await;
    let throws = format!("/v1/games/{id}/throws");
    for (app_no, n) in [(1, 1), (1, 2), (2, 3), (2, 4), (1, 5), (2, 6), (1, 7)] {
        let r = if app_no == 1 {
            send(&first, post_empty(&throws)).await
        } else {
            send(&second, post_empty(&throws)).await
        };
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.json()["n"], n, "throw {n} through writer {app_no}");
    }
    let moves = send(&first, get(&format!("/v1/games/{id}/moves?limit=100")))
        .await
        .json();
    let numbers: Vec<u64> = moves["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["n"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7]);
    let (games, faults) = db.service().await.verify().await.unwrap();
    assert_eq!((games, faults), (1, Vec::<String>::new()));
}

/// A stop goes through the same writer: a throw after it, served from the
/// writer's memory, finds the game over.
#[actix_web::test]
async fn a_throw_after_a_stop_finds_the_game_over() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let id = new_game(&app).await;
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(r.status.as_u16(), 201);
    let stopped = send(&app, post_empty(&format!("/v1/games/{id}/stop"))).await;
    assert_eq!(stopped.status.as_u16(), 200);
    assert_eq!(stopped.json()["state"]["version"], 2);
    let p = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
        .await
        .problem(409);
    assert_eq!(p["type"], "/problems/game-over");
    let read = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(read["version"], 2);
    assert_eq!(read["status"], "finished");
}

/// Moves stored before migration 0003 (when the move table was WITHOUT
/// ROWID, its moves JSON records) read back unchanged after the migrations
/// since (the rowid table, then the move log), and the games still replay.
#[actix_web::test]
async fn moves_stored_before_the_rowid_migration_are_kept() {
    use sqlx::Row;
    // An open game of the version before the move log, to copy its rows
    // from; and how it reads once converted.
    let source = TestDb::with_fixture_0004();
    let pool = sqlx::SqlitePool::connect(&source.url).await.unwrap();
    let game_row = sqlx::query(
        "SELECT id, created_at, updated_at, setup, seed, seeded, state, version, status, told_facts
         FROM games WHERE seated = 0 AND status = 'in_progress' ORDER BY id LIMIT 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let id: String = game_row.get("id");
    let version: i64 = game_row.get("version");
    let move_rows =
        sqlx::query("SELECT game_id, n, created_at, body FROM moves WHERE game_id = ? ORDER BY n")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(move_rows.len() >= 5);
    pool.close().await;
    let source_app = common::spawn_server(source.service().await);
    let before = send(&source_app, get(&format!("/v1/games/{id}/moves?limit=100")))
        .await
        .json();

    // The same rows in a database migrated only to 0002.
    let old = TestDb::new();
    let dir = old.dir.path().join("migrations-0002");
    std::fs::create_dir(&dir).unwrap();
    for name in ["0001_games_and_moves.sql", "0002_seats_and_idempotency.sql"] {
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
    let mut insert = sqlx::query(
        "INSERT INTO games (id, created_at, updated_at, setup, seed, seeded, state, version, status, told_facts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for i in 0..10 {
        insert = match i {
            5 | 7 => insert.bind(game_row.get::<i64, _>(i)),
            _ => insert.bind(game_row.get::<String, _>(i)),
        };
    }
    insert.execute(&pool).await.unwrap();
    for row in &move_rows {
        sqlx::query("INSERT INTO moves (game_id, n, created_at, body) VALUES (?, ?, ?, ?)")
            .bind(row.get::<String, _>(0))
            .bind(row.get::<i64, _>(1))
            .bind(row.get::<String, _>(2))
            .bind(row.get::<String, _>(3))
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    // Opening it runs 0003 and the rest; the moves read back as they
    // were, and the game plays on from them.
    let service = old.service().await;
    let old_app = common::spawn_server(service.clone());
    let after = send(&old_app, get(&format!("/v1/games/{id}/moves?limit=100")))
        .await
        .json();
    assert_eq!(after, before);
    let r = send(&old_app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(r.status.as_u16(), 201);
    assert_eq!(r.json()["n"], version + 1);
    let (games, faults) = service.verify().await.unwrap();
    assert_eq!((games, faults), (1, Vec::<String>::new()));
}

/// The writer's own automatic checkpoint is off; the checkpointer copies
/// the write-ahead log into the database file after commits.
#[actix_web::test]
async fn commits_are_checkpointed_into_the_database_file() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let file = db.dir.path().join("games.db");
    let id = new_game(&app).await;
    for _ in 0..20 {
        let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        assert_eq!(r.status.as_u16(), 201);
    }
    // Five tables and their indexes: well over 8 pages once copied.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let len = std::fs::metadata(&file).unwrap().len();
        if len >= 8 * 4096 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the database file is still {len} bytes: nothing was checkpointed"
        );
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The writer stamps `updated_at` from the clock in the same form as the
/// database's own defaults stamp `created_at`, so the two compare as text.
#[actix_web::test]
async fn updated_at_is_written_like_the_database_defaults() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let id = new_game(&app).await;
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(r.status.as_u16(), 201);
    let g = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    let created = g["created_at"].as_str().unwrap();
    let updated = g["updated_at"].as_str().unwrap();
    let shape = |t: &str| {
        t.chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect::<String>()
    };
    assert_eq!(shape(created), "9999-99-99T99:99:99.999Z");
    assert_eq!(shape(updated), shape(created));
    assert!(updated >= created, "{updated} before {created}");
}

/// The number of bytes of the database's write-ahead log.
fn wal_len(db: &TestDb) -> u64 {
    std::fs::metadata(db.dir.path().join("games.db-wal")).map_or(0, |m| m.len())
}

/// Play `throws` throws, one at a time, on fresh games.
async fn play_throws(service: zohn_ahl::service::Service, throws: usize) {
    let app = common::spawn_server(service);
    let mut id = String::new();
    for _ in 0..throws {
        if id.is_empty() {
            id = new_game(&app).await;
        }
        let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        match r.status.as_u16() {
            201 => {}
            409 => id.clear(),
            s => panic!("throw answered {s}"),
        }
    }
}

/// The write-ahead log does not grow without bound: past its bound (here
/// 32 frames), the writer lets it start again from its beginning between
/// two batches; the checkpointer alone seldom catches up under a steady
/// load. 600 throws write well over 2 MiB of log (about five 4 KiB frames
/// each); the log file stays within a few times the bound.
#[actix_web::test]
async fn the_write_ahead_log_wraps_past_its_bound() {
    use zohn_ahl::service::Service;
    use zohn_ahl::store::Store;
    let db = TestDb::new();
    let store = Store::connect(&db.url).await.unwrap();
    play_throws(Service::new(store.with_wal_wrap_frames(32)), 600).await;
    let kept = wal_len(&db);
    assert!(
        kept < 1 << 20,
        "the log reached {kept} bytes with a bound of 32 frames"
    );
}

/// The writer's commits do not wait for the disk: the store syncs the
/// write-ahead log after them, and the answers wait for that sync. The
/// game's creation and each throw are answered only once the log has been
/// synced since the request was sent.
#[actix_web::test]
async fn a_throw_is_answered_only_after_its_log_is_synced() {
    let (_db, service, app) = common::spawn_sqlite_app_with_service().await;
    let store = service.store();
    let before = store.log_syncs();
    let id = new_game(&app).await;
    assert!(
        store.log_syncs() > before,
        "the creation was answered with no sync of the log since it was sent"
    );
    let throws = format!("/v1/games/{id}/throws");
    for n in 1..=5 {
        let before = store.log_syncs();
        let r = send(&app, post_empty(&throws)).await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        assert!(
            store.log_syncs() > before,
            "throw {n} was answered with no sync of the log since it was sent"
        );
    }
}

/// Regression: the log's path was the database URL's with `-wal` added,
/// but SQLite names the log after the file a symbolic link points to, so
/// a database opened through a link had its log never synced. The store
/// now finds the log where SQLite writes it, and a throw there is answered
/// after a sync.
#[actix_web::test]
async fn regression_a_database_opened_through_a_link_had_its_log_never_synced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    let real = dir.path().join("data").join("games.db");
    std::fs::write(&real, b"").unwrap();
    let link = dir.path().join("games.db");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let store = zohn_ahl::store::Store::connect(&format!("sqlite://{}", link.display()))
        .await
        .expect("a database opened through a link starts");
    assert!(dir.path().join("data").join("games.db-wal").exists());
    assert!(!dir.path().join("games.db-wal").exists());
    let service = zohn_ahl::service::Service::new(store);
    let app = common::spawn_server(service.clone());
    let id = new_game(&app).await;
    let before = service.store().log_syncs();
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(
        r.status.as_u16(),
        201,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert!(service.store().log_syncs() > before);
}

/// A log that cannot be synced (here: removed from under the server) is
/// final: the throw whose batch it held is refused (503), so is every
/// write after it, and the service says it is not ready, since after a
/// failed sync the disk may report later ones as done for pages it never
/// wrote.
#[actix_web::test]
async fn a_log_that_cannot_be_synced_stops_the_writes() {
    let (db, _service, app) = common::spawn_sqlite_app_with_service().await;
    let id = new_game(&app).await;
    let throws = format!("/v1/games/{id}/throws");
    assert_eq!(send(&app, post_empty(&throws)).await.status.as_u16(), 201);
    std::fs::remove_file(db.dir.path().join("games.db-wal")).unwrap();
    for _ in 0..2 {
        let r = send(&app, post_empty(&throws)).await;
        assert_eq!(
            r.status.as_u16(),
            503,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
    }
    assert_eq!(
        send(&app, post_empty("/v1/games")).await.status.as_u16(),
        503
    );
    assert_eq!(send(&app, get("/readyz")).await.status.as_u16(), 503);
}

/// Regression: a stop left the write-ahead log beside the database (CI,
/// once): a connection the pools had let go of was closed by its own
/// thread just after the writer's, so the writer's close was not the last
/// and SQLite kept the log. Here another connection closes 200 ms after the
/// store's close began; the close still leaves the database as one file.
#[actix_web::test]
async fn regression_a_connection_closed_after_the_writer_left_the_log() {
    use sqlx::{ConnectOptions, Connection};
    let db = TestDb::new();
    let store = zohn_ahl::store::Store::connect(&db.url).await.unwrap();
    let mut late = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db.dir.path().join("games.db"))
        .read_only(true)
        .connect()
        .await
        .unwrap();
    let _: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM games")
        .fetch_one(&mut late)
        .await
        .unwrap();
    let closing = actix_web::rt::spawn(async move {
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
        late.close().await.unwrap();
    });
    store.close().await;
    closing.await.unwrap();
    assert!(db.dir.path().join("games.db").exists());
    assert!(!db.dir.path().join("games.db-wal").exists());
    assert!(!db.dir.path().join("games.db-shm").exists());
}
