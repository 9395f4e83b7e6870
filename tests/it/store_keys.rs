//! The answers kept under idempotency keys expire by one clock, the
//! application's, which the service passes to the store (issue 24): on
//! SQLite, and on PostgreSQL with `ZOHN_AHL_TEST_BACKEND=postgres`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{post_empty, post_json, send, spawn_app_with_service};
use serde_json::json;
use time::{Duration, OffsetDateTime};
use zohn_ahl::domain::{GameId, IdempotencyKey, Subject, Version};
use zohn_ahl::store::{IDEMPOTENCY_LIFETIME, StoredAnswer};

/// A creation's and a throw's kept answers are replayed until the clock
/// passed in says their lifetime is over, and not after; an answer kept
/// with a clock a day behind is expired by the real one. The database's
/// own clock plays no part (the kept rows' `created_at` is the time
/// passed in).
#[actix_web::test]
async fn a_kept_answer_expires_by_the_clock_the_application_passes_in() {
    let (_db, service, app) = spawn_app_with_service().await;
    let r = send(
        &app,
        post_json("/v1/games", &json!({})).insert_header(("Idempotency-Key", "clock-create")),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let game: String = r.json()["id"].as_str().unwrap().to_owned();
    let r = send(
        &app,
        post_empty(&format!("/v1/games/{game}/throws"))
            .insert_header(("Idempotency-Key", "clock-throw")),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let game = GameId::parse(&game).unwrap();
    let (create, throw) = (
        IdempotencyKey::parse("clock-create").unwrap(),
        IdempotencyKey::parse("clock-throw").unwrap(),
    );
    let now = OffsetDateTime::now_utc();
    let (within, past) = (
        now + IDEMPOTENCY_LIFETIME - Duration::minutes(1),
        now + IDEMPOTENCY_LIFETIME + Duration::minutes(1),
    );

    let store = service.store();
    let mut tx = store.begin().await.unwrap();
    assert!(tx.create_answer(&create, within).await.unwrap().is_some());
    assert!(tx.create_answer(&create, past).await.unwrap().is_none());
    assert!(
        tx.idempotent_answer(game, &throw, within)
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        tx.idempotent_answer(game, &throw, past)
            .await
            .unwrap()
            .is_none()
    );

    // Kept by a clock a day behind: stamped then, so expired now.
    let behind = now - IDEMPOTENCY_LIFETIME - Duration::minutes(1);
    let answer = StoredAnswer {
        request_hash: vec![7; 32],
        subject: Subject::Game {
            id: game,
            version: Version::new(1),
        },
        body: b"{}".to_vec(),
    };
    let late = IdempotencyKey::parse("clock-behind").unwrap();
    tx.keep_create_answer(&late, game, &answer, behind)
        .await
        .unwrap();
    tx.keep_answer(game, &late, &answer, behind).await.unwrap();
    assert!(tx.create_answer(&late, now).await.unwrap().is_none());
    assert!(
        tx.idempotent_answer(game, &late, now)
            .await
            .unwrap()
            .is_none()
    );
    let then = behind + Duration::minutes(1);
    assert_eq!(
        tx.create_answer(&late, then).await.unwrap(),
        Some(answer.clone())
    );
    assert_eq!(
        tx.idempotent_answer(game, &late, then).await.unwrap(),
        Some(answer)
    );
    tx.rollback().await.unwrap();
}

/// The service kept each idempotency answer with the HTTP headers it was
/// sent with (`Location`, `ETag`), so the chatbot surface made up headers
/// for its answers too. Answers now name what they are about (a game at a
/// version, a move, a class) and each surface builds its own headers. The
/// answers a version before kept, in the old shape, are read by the
/// migration: after it each names its game, version, move or class, and a
/// retry of a creation still gets its answer with the same headers.
#[actix_web::test]
async fn regression_answers_were_kept_with_their_http_headers() {
    let (db, service, app) = spawn_app_with_service().await;
    let r = send(&app, post_json("/v1/games", &json!({}))).await;
    let game = r.json()["id"].as_str().unwrap().to_owned();
    let class = zohn_ahl::domain::ClassId::new();
    service.store().close().await;
    drop(app);

    // The schema as the version before left it, with four answers it kept
    // in clear: a throw's, a stop's, a game's creation, a class's.
    let (latest, postgres) = if db.url.starts_with("postgres") {
        ("5", true)
    } else {
        ("10", false)
    };
    let now = zohn_ahl::domain::Timestamp::at(OffsetDateTime::now_utc());
    let mut statements: Vec<(String, Vec<String>)> = Vec::new();
    for table in ["idempotency_keys", "create_keys"] {
        for sql in [
            "ALTER TABLE {t} DROP COLUMN subject",
            "ALTER TABLE {t} RENAME COLUMN bound_location TO location",
            "ALTER TABLE {t} RENAME COLUMN bound_etag TO etag",
        ] {
            statements.push((sql.replace("{t}", table), vec![]));
        }
    }
    statements.push((
        format!("DELETE FROM _sqlx_migrations WHERE version = {latest}"),
        vec![],
    ));
    let create_body = b"{\"kept\":\"creation\"}".to_vec();
    let hash = zohn_ahl::service::idempotency::body_hash(b"{}");
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let hash_hex = hex(&hash);
    let blob = |hex: &str| {
        if postgres {
            format!("decode('{hex}', 'hex')")
        } else {
            format!("X'{hex}'")
        }
    };
    let rows = [
        (
            "idempotency_keys",
            "throw-old",
            format!("/v1/games/{game}/moves/3"),
            "\"3\"".to_owned(),
        ),
        (
            "idempotency_keys",
            "stop-old",
            format!("/v1/games/{game}"),
            "\"4\"".to_owned(),
        ),
        (
            "create_keys",
            "create-old",
            format!("/v1/games/{game}"),
            "\"0\"".to_owned(),
        ),
        (
            "create_keys",
            "class-old",
            format!("/v1/classes/{class}"),
            String::new(),
        ),
    ];
    for (table, key, location, etag) in &rows {
        let sql = format!(
            "INSERT INTO {table} (game_id, key, request_hash, location, etag, answer, nonce, created_at)
             VALUES ($1, $2, {}, $3, $4, {}, NULL, $5)",
            blob(&hash_hex),
            blob(&hex(&create_body)),
        );
        statements.push((
            sql,
            vec![
                game.clone(),
                (*key).to_owned(),
                location.clone(),
                etag.clone(),
                now.as_str().to_owned(),
            ],
        ));
    }
    common::run_sql(&db.url, &statements).await;

    // Opened again: the migration reads each subject from the old headers,
    // and the start seals the answers kept in clear.
    let service = db.service().await;
    assert!(service.ready().await);
    let id = GameId::parse(&game).unwrap();
    let at = OffsetDateTime::now_utc();
    let mut tx = service.store().begin().await.unwrap();
    let key = |k: &str| IdempotencyKey::parse(k).unwrap();
    let subject = |a: Option<StoredAnswer>| {
        let a = a.expect("the kept answer");
        assert_eq!(a.body, create_body, "the answer, byte for byte");
        a.subject
    };
    assert_eq!(
        subject(
            tx.idempotent_answer(id, &key("throw-old"), at)
                .await
                .unwrap()
        ),
        Subject::Move {
            id,
            version: Version::new(3),
            n: 3
        }
    );
    assert_eq!(
        subject(
            tx.idempotent_answer(id, &key("stop-old"), at)
                .await
                .unwrap()
        ),
        Subject::Game {
            id,
            version: Version::new(4)
        }
    );
    assert_eq!(
        subject(tx.create_answer(&key("create-old"), at).await.unwrap()),
        Subject::Game {
            id,
            version: Version::new(0)
        }
    );
    assert_eq!(
        subject(tx.create_answer(&key("class-old"), at).await.unwrap()),
        Subject::Class(class)
    );
    tx.rollback().await.unwrap();

    // A retry of the creation gets the kept answer with the headers it
    // was first sent with.
    let app = common::spawn_server(service.clone());
    let r = send(
        &app,
        post_json("/v1/games", &json!({})).insert_header(("Idempotency-Key", "create-old")),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    assert_eq!(r.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(r.header("location"), Some(format!("/v1/games/{game}")));
    assert_eq!(r.header("etag").as_deref(), Some("\"0\""));
    assert_eq!(r.body, create_body);
}
