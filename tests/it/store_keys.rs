//! The answers kept under idempotency keys expire by one clock, the
//! application's, which the service passes to the store (issue 24): on
//! SQLite, and on PostgreSQL with `ZOHN_AHL_TEST_BACKEND=postgres`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{post_empty, post_json, send, spawn_app_with_service};
use serde_json::json;
use time::{Duration, OffsetDateTime};
use zohn_ahl::domain::{GameId, IdempotencyKey};
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
        location: format!("/v1/games/{game}"),
        etag: "\"1\"".to_owned(),
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
