//! The answers kept under idempotency keys are sealed under the server's
//! secret key, kept in a file outside the database: the database's files
//! (a copy, a backup) hold none of the tokens a creation gave, a retry is
//! still answered byte for byte (after a restart too), an answer sealed
//! under another key is refused in words that give nothing away, and the
//! key file is owner-only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use common::{Bound, Reply, TestDb, post_empty, post_json, send};
use serde_json::{Value, json};
use zohn_ahl::domain::IdempotencyKey;
use zohn_ahl::service::Service;
use zohn_ahl::store::{KEY_BYTES, SecretKey, SecretKeyError, Store};

/// The bytes of the database file and of its write-ahead log and
/// shared-memory files, those that exist, each with its name.
fn database_files(db: &TestDb) -> Vec<(String, Vec<u8>)> {
    ["games.db", "games.db-wal", "games.db-shm"]
        .into_iter()
        .filter_map(|name| {
            std::fs::read(db.dir.path().join(name))
                .ok()
                .map(|bytes| (name.to_owned(), bytes))
        })
        .collect()
}

/// Assert that none of the database's files holds any of `secrets`.
fn assert_none_in_database_files(db: &TestDb, secrets: &[String]) {
    let files = database_files(db);
    assert!(files.iter().any(|(name, _)| name == "games.db"));
    for (name, bytes) in &files {
        for secret in secrets {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{name} holds the token {secret}"
            );
        }
    }
}

/// The seat and host tokens a creation answer gave.
fn tokens(created: &Value) -> Vec<String> {
    let tokens: Vec<String> = [
        &created["seat_tokens"]["a"],
        &created["seat_tokens"]["b"],
        &created["host_token"],
    ]
    .into_iter()
    .map(|t| t.as_str().expect("a seated game's token").to_owned())
    .collect();
    assert_eq!(tokens.len(), 3);
    tokens
}

fn create_with_key(body: &Value, key: &str) -> actix_web::test::TestRequest {
    post_json("/v1/games", body).insert_header(("Idempotency-Key", key))
}

async fn serve(url: &str) -> (Service, Bound) {
    let service = Service::new(Store::connect(url).await.expect("open the store"));
    (service.clone(), common::spawn_server(service))
}

/// An operator found a seated game's seat and host tokens in clear in the
/// SQLite file and its write-ahead log, in the answer kept for 24 hours
/// under the creation's `Idempotency-Key`: a copy of the database let
/// anyone throw for any side. The answer is kept sealed now: none of the
/// tokens is in the files, while a retry still gets them back, byte for
/// byte, before and after a restart.
#[actix_web::test]
async fn regression_seat_tokens_were_kept_in_clear_in_the_database_file() {
    let db = TestDb::new();
    let (service, app) = serve(&db.url).await;
    let body = json!({"seats": true, "seed": "sealed"});
    let first = send(&app, create_with_key(&body, "class-7b-monday")).await;
    assert_eq!(first.status.as_u16(), 201);
    let created = first.json();
    let secrets = tokens(&created);
    let id = created["id"].as_str().unwrap().to_owned();
    // A throw kept under a key too (its answer holds no token, and is
    // sealed like every kept answer).
    let thrown = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws"))
            .insert_header(("Authorization", format!("Bearer {}", secrets[2])))
            .insert_header(("Idempotency-Key", "throw-1")),
    )
    .await;
    assert_eq!(thrown.status.as_u16(), 201);

    let again = send(&app, create_with_key(&body, "class-7b-monday")).await;
    assert_eq!(again.status.as_u16(), 201);
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(again.body, first.body, "the same answer, tokens included");

    assert_none_in_database_files(&db, &secrets);
    for (name, bytes) in database_files(&db) {
        assert!(
            !bytes.windows(10).any(|w| w == b"host_token"),
            "{name} holds a creation answer in clear"
        );
    }

    // The key file: beside the database, 32 bytes, owner-only.
    let key_file = db.dir.path().join("games.db.key");
    let meta = std::fs::metadata(&key_file).expect("the key file beside the database");
    assert_eq!(meta.len(), KEY_BYTES as u64);
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);

    // Restarted on the same files (a clean stop copies the log into the
    // database): the retry is answered the same, and still no file holds
    // a token.
    service.store().close().await;
    assert_none_in_database_files(&db, &secrets);
    let (service, app) = serve(&db.url).await;
    let after = send(&app, create_with_key(&body, "class-7b-monday")).await;
    assert_eq!(after.status.as_u16(), 201);
    assert_eq!(after.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(after.body, first.body, "the same answer after a restart");
    let throw_again = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws"))
            .insert_header(("Authorization", format!("Bearer {}", secrets[2])))
            .insert_header(("Idempotency-Key", "throw-1")),
    )
    .await;
    assert_eq!(
        throw_again.header("idempotent-replayed").as_deref(),
        Some("true")
    );
    assert_eq!(throw_again.body, thrown.body);
    let (games, faults) = service.verify().await.unwrap();
    assert_eq!((games, faults.len()), (1, 0), "no second game was made");
    service.store().close().await;
    assert_none_in_database_files(&db, &secrets);
}

/// A database of the version before holds its creation answers in clear:
/// the first start seals them (overwriting the clear bytes in the file),
/// and each is still the same answer, byte for byte.
#[actix_web::test]
async fn regression_answers_kept_in_clear_by_the_version_before_stayed_in_the_database_file() {
    let db = TestDb::with_fixture_0004();
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    sqlx::query("UPDATE create_keys SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
        .execute(&pool)
        .await
        .unwrap();
    let kept: Vec<(String, Vec<u8>)> = sqlx::query_as("SELECT key, body FROM create_keys")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    let mut secrets = Vec::new();
    for (_, body) in &kept {
        let answer: Value = serde_json::from_slice(body).unwrap();
        if !answer["host_token"].is_null() {
            secrets.extend(tokens(&answer));
        }
    }
    assert!(secrets.len() >= 9, "the fixture has seated creations");
    let before = std::fs::read(db.dir.path().join("games.db")).unwrap();
    for secret in &secrets {
        assert!(
            before.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "the fixture's file holds the token {secret} in clear"
        );
    }

    let store = Store::connect(&db.url).await.unwrap();
    for (key, body) in &kept {
        let mut tx = store.begin().await.unwrap();
        let answer = tx
            .create_answer(
                &IdempotencyKey::parse(key).unwrap(),
                time::OffsetDateTime::now_utc(),
            )
            .await
            .unwrap()
            .expect("the kept answer");
        tx.rollback().await.unwrap();
        assert_eq!(&answer.body, body, "{key}: the same answer, byte for byte");
    }
    store.close().await;
    assert_none_in_database_files(&db, &secrets);
}

/// A retry that reaches a server whose key did not seal the answer (an
/// instance given another key file, or a key file lost and made anew) is
/// told so in problem details, with nothing internal, and makes nothing
/// again.
#[actix_web::test]
async fn an_answer_sealed_under_another_key_is_refused_in_plain_words() {
    let db = TestDb::new();
    let (service, app) = serve(&db.url).await;
    let body = json!({"seats": true});
    let created = send(&app, create_with_key(&body, "create-1")).await;
    assert_eq!(created.status.as_u16(), 201);
    let created_json = created.json();
    let secrets = tokens(&created_json);
    let id = created_json["id"].as_str().unwrap().to_owned();
    let throw = || {
        post_empty(&format!("/v1/games/{id}/throws"))
            .insert_header(("Authorization", format!("Bearer {}", secrets[2])))
            .insert_header(("Idempotency-Key", "throw-1"))
    };
    assert_eq!(send(&app, throw()).await.status.as_u16(), 201);
    service.store().close().await;

    let other = SecretKey::load_or_create(&db.dir.path().join("other.key")).unwrap();
    let service = Service::new(Store::connect_with_key(&db.url, Some(other)).await.unwrap());
    let app = common::spawn_server(service.clone());
    let check = |r: &Reply| {
        let p = r.problem(500);
        assert_eq!(p["type"], "/problems/stored-answer-unreadable");
        let text = String::from_utf8_lossy(&r.body).to_lowercase();
        assert!(text.contains("idempotency-key"), "{text}");
        for internal in ["sqlx", "chacha", "aead", "nonce", "storeerror", ".key"] {
            assert!(!text.contains(internal), "{internal} in {text}");
        }
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()));
        }
    };
    check(&send(&app, create_with_key(&body, "create-1")).await);
    check(&send(&app, throw()).await);
    let (games, _) = service.verify().await.unwrap();
    assert_eq!(games, 1, "no second game was made");
    let game = service
        .store()
        .game(zohn_ahl::domain::GameId::parse(&id).unwrap())
        .await
        .unwrap();
    assert_eq!(
        game.unwrap().version.get(),
        1,
        "the throw was not played again"
    );
    service.store().close().await;
}

/// A key file its group or others may read, or that is not 32 bytes, is
/// refused, saying which file and what to do.
#[test]
fn a_key_file_that_others_may_read_or_of_another_length_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open.key");
    std::fs::write(&open, [7u8; KEY_BYTES]).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = SecretKey::load_or_create(&open).unwrap_err();
    assert!(matches!(err, SecretKeyError::TooOpen { mode: 0o644, .. }));
    let text = err.to_string();
    assert!(text.contains(&open.display().to_string()), "{text}");
    assert!(text.contains("chmod 600"), "{text}");

    let short = dir.path().join("short.key");
    std::fs::write(&short, b"0123456789abcdef").unwrap();
    std::fs::set_permissions(&short, std::fs::Permissions::from_mode(0o600)).unwrap();
    let err = SecretKey::load_or_create(&short).unwrap_err();
    assert!(matches!(err, SecretKeyError::WrongLength { len: 16, .. }));
    assert!(err.to_string().contains("holds 16 bytes, not 32"), "{err}");
    // Neither was replaced.
    assert_eq!(std::fs::read(&short).unwrap(), b"0123456789abcdef");
}

/// Threads making the key file of a fresh setup together all get it, and
/// one file is left: no temporary file, none replaced.
#[test]
fn key_files_made_together_leave_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.db.key");
    let barrier = std::sync::Barrier::new(8);
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                barrier.wait();
                SecretKey::load_or_create(&path).expect("every thread gets the key");
            });
        }
    });
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("games.db.key")]);
    assert_key_file(&path);
}

fn assert_key_file(path: &Path) {
    let meta = std::fs::metadata(path).unwrap();
    assert_eq!(meta.len(), KEY_BYTES as u64);
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
}
