//! The refusals `api_examples` records that need a server of their own:
//! the odds not yet solved, a feed full, a ruleset too large, the store
//! locked by another writer (see that module).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_examples::answer;
use crate::common;

use std::time::Duration;

use common::live::Served;
use common::{TestDb, get, post_json};
use serde_json::{Value, json};
use zohn_ahl::odds::{Settings, Solver};
use zohn_ahl::service::FeedLimits;

/// The refusals that need a server of their own or a ruleset too large:
/// the odds not solved within the budget (a solver whose budget is zero),
/// a game's live feeds full (one subscriber a game, one open), and a
/// ruleset's chain too large to solve (422).
pub(crate) async fn busy() -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    let solver = Solver::new(Settings {
        budget: Duration::ZERO,
        ..Settings::default()
    });
    let db = TestDb::new();
    let app = {
        let (service, solver) = (db.service().await, solver.clone());
        common::spawn_server_with(move || {
            zohn_ahl::http::app_with_odds(service.clone(), solver.clone())
        })
    };
    let game = answer(&app, post_json("/v1/games", &json!({"seed": "pending"})))
        .await
        .1;
    let game = game["id"].as_str().unwrap();
    for (id, path) in [
        ("get_odds", format!("/v1/games/{game}/odds")),
        (
            "get_ruleset_statistics",
            "/v1/rulesets/ludii/statistics".to_owned(),
        ),
    ] {
        let (status, body) = answer(&app, get(&path)).await;
        assert_eq!(
            (status.as_str(), &body["type"]),
            ("503", &json!("/problems/odds-pending")),
            "{path}"
        );
        out.push((id.to_owned(), status, body));
    }
    let big = json!({
        "seed": "too-large",
        "ruleset": {"preset": "boxed", "options": {"counters_per_side": 15}},
        "sides": {"a": {"players": ["1", "2", "3", "4", "5", "6", "7", "8"]},
                  "b": {"players": ["1", "2", "3", "4", "5", "6", "7"]}}
    });
    let big = answer(&app, post_json("/v1/games", &big)).await.1;
    let big = big["id"].as_str().unwrap();
    let (status, body) = answer(&app, get(&format!("/v1/games/{big}/odds"))).await;
    assert_eq!(status, "422", "{body}");
    out.push(("get_odds".to_owned(), status, body));
    let served = Served::start(FeedLimits {
        per_game: 1,
        total: 2,
    })
    .await;
    let game = served.create(&json!({"seed": "full"})).await;
    let path = format!("/v1/games/{game}/events");
    let mut open = served.stream(&path, &[]).await;
    open.event().await.unwrap();
    let full = served.request("GET", &path, &[], b"").await;
    assert_eq!(full.status, 503);
    let body: Value = serde_json::from_slice(&full.body).unwrap();
    out.push(("stream_events".to_owned(), "503".to_owned(), body));
    drop(open);
    served.stop().await;
    out.extend(locked().await);
    out
}

/// The store locked by another writer (SQLite's `BEGIN IMMEDIATE` held):
/// each write answers 503 (`/problems/busy`) after the busy time-out, and a
/// creation (of a game, of a class) retried with its Idempotency-Key while
/// the first still waits is 409 (`/problems/idempotency-key-in-flight`).
async fn locked() -> Vec<(String, String, Value)> {
    use sqlx::Connection;
    let (db, app) = common::spawn_sqlite_app().await;
    let game = answer(&app, post_json("/v1/games", &json!({"seed": "busy"})))
        .await
        .1;
    let game = format!("/v1/games/{}", game["id"].as_str().unwrap());
    let class = answer(
        &app,
        post_json("/v1/classes", &json!({"name": "Busy", "games": 1})),
    )
    .await
    .1;
    let add_to_class = common::post_empty(&format!(
        "/v1/classes/{}/games",
        class["id"].as_str().unwrap()
    ))
    .insert_header((
        "authorization",
        format!("Bearer {}", class["host_token"].as_str().unwrap()),
    ));
    let archive = answer(
        &app,
        common::get(&format!(
            "/v1/classes/{}/archive",
            class["id"].as_str().unwrap()
        ))
        .insert_header((
            "authorization",
            format!("Bearer {}", class["host_token"].as_str().unwrap()),
        )),
    )
    .await
    .1;
    let mut other = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    let create = || {
        post_json("/v1/games", &json!({"seed": "busy-create"}))
            .insert_header(("idempotency-key", "busy-create"))
    };
    let first = answer(&app, create());
    let retry = async {
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
        answer(&app, create()).await
    };
    let create_class = || {
        post_json("/v1/classes", &json!({"name": "Busy", "games": 1}))
            .insert_header(("idempotency-key", "busy-class"))
    };
    let class_first = answer(&app, create_class());
    let class_retry = async {
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
        answer(&app, create_class()).await
    };
    let import = || {
        post_json("/v1/class-imports", &archive).insert_header(("idempotency-key", "busy-import"))
    };
    let import_first = answer(&app, import());
    let import_retry = async {
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
        answer(&app, import()).await
    };
    let (first, retry, class_first, class_retry, import_first, import_retry) = futures_util::join!(
        first,
        retry,
        class_first,
        class_retry,
        import_first,
        import_retry
    );
    let writes = futures_util::future::join_all([
        answer(&app, common::post_empty(&format!("{game}/throws"))),
        answer(&app, common::post_empty(&format!("{game}/stop"))),
        answer(&app, actix_web::test::TestRequest::delete().uri(&game)),
        answer(&app, common::post_empty(&format!("{game}/seats/a/token"))),
        answer(&app, add_to_class),
    ])
    .await;
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    let mut out = Vec::new();
    for (id, (status, body)) in [
        "create_game",
        "create_game",
        "create_class",
        "create_class",
        "import_class",
        "import_class",
        "play_throw",
        "stop_game",
        "delete_game",
        "create_seat_token",
        "create_class_game",
    ]
    .into_iter()
    .zip(
        [
            first,
            retry,
            class_first,
            class_retry,
            import_first,
            import_retry,
        ]
        .into_iter()
        .chain(writes),
    ) {
        assert!(status == "503" || status == "409", "{id} {status} {body}");
        out.push((id.to_owned(), status, body));
    }
    out
}
