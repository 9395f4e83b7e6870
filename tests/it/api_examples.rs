//! One full example per JSON answer and problem of the document: real
//! answers of the server, recorded here into `openapi/examples.json` (keyed
//! by operation id and status), which the document's conventions attach to
//! each answer's `application/json` or `application/problem+json`
//! (`crates/http/src/contract.rs`); the refusals made below the handlers (414, 431)
//! share one, and what cannot be provoked on demand ([`CANNOT_PROVOKE`])
//! has none. Swagger UI used
//! to assemble an example from each property's own, which contradicted
//! itself (`"created_at": "string"`, `result: "won"` beside
//! `extra_throw_pending: true`); a recorded answer cannot.
//!
//! `UPDATE_EXAMPLES=1 cargo test --test it api_examples::` records them again
//! (and fails, on purpose); then `UPDATE_OPENAPI=1 cargo test --test
//! it api_reference::` puts them in the committed document.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::{Bound, get, post_json, send, spawn_app};
use serde_json::{Value, json};

const EXAMPLES_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/examples.json");

/// Lists longer than this are cut in an example (the first ones kept).
const MOST_ITEMS: usize = 2;

/// A real answer: its status and JSON, cut to [`MOST_ITEMS`] items.
pub(crate) async fn answer(app: &Bound, req: actix_web::test::TestRequest) -> (String, Value) {
    let r = send(app, req).await;
    let mut body = r.json();
    if let Some(Value::Array(items)) = body.get_mut("items") {
        items.truncate(MOST_ITEMS);
    }
    (r.status.as_u16().to_string(), body)
}

/// A read answered 503 while the server solves (statistics, odds): asked
/// again until it is answered.
async fn solved(app: &Bound, path: &str) -> (String, Value) {
    let start = Instant::now();
    loop {
        let (status, body) = answer(app, get(path)).await;
        if status != "503" {
            return (status, body);
        }
        assert!(start.elapsed() < Duration::from_secs(120), "{path}: 503");
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every operation's success answered by a real server, by operation id.
async fn record() -> BTreeMap<String, BTreeMap<String, Value>> {
    let (_db, app) = spawn_app().await;
    let mut out: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    let mut put = |id: &str, (status, body): (String, Value)| {
        out.entry(id.to_owned()).or_default().insert(status, body);
    };
    let created = answer(
        &app,
        post_json(
            "/v1/games",
            &json!({"seed": "example", "sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}}}),
        ),
    )
    .await;
    let id = created.1["id"].as_str().unwrap().to_owned();
    put("create_game", created);
    let game = format!("/v1/games/{id}");
    // The ruleset's odds solved first, so that every move's `chances` are
    // in the examples (a throw's answer does not wait for a solve).
    solved(&app, &format!("{game}/odds")).await;
    for _ in 0..3 {
        let thrown = answer(&app, common::post_empty(&format!("{game}/throws"))).await;
        put("play_throw", thrown);
    }
    put("get_game", answer(&app, get(&game)).await);
    put(
        "list_moves",
        answer(&app, get(&format!("{game}/moves"))).await,
    );
    put(
        "get_move",
        answer(&app, get(&format!("{game}/moves/2"))).await,
    );
    put("get_odds", solved(&app, &format!("{game}/odds")).await);
    put(
        "get_game_fairness",
        answer(&app, get(&format!("{game}/fairness"))).await,
    );
    put(
        "get_class_fairness",
        answer(&app, get(&format!("/v1/fairness?game={id}"))).await,
    );
    put(
        "stop_game",
        answer(&app, common::post_empty(&format!("{game}/stop"))).await,
    );
    put(
        "get_recap",
        answer(&app, get(&format!("{game}/recap?detail=full"))).await,
    );
    // A seated game's creation is the example: its tokens and join codes.
    let seated = answer(
        &app,
        post_json(
            "/v1/games",
            &json!({"seed": "seated", "seats": true, "sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}}}),
        ),
    )
    .await;
    put("create_game", seated.clone());
    let seated = seated.1;
    let reissued = answer(
        &app,
        common::post_empty(&format!(
            "/v1/games/{}/seats/a/token",
            seated["id"].as_str().unwrap()
        ))
        .insert_header((
            "authorization",
            format!("Bearer {}", seated["host_token"].as_str().unwrap()),
        )),
    )
    .await;
    let code = reissued.1["join_code"].as_str().unwrap().to_owned();
    put("create_seat_token", reissued);
    put(
        "join_seat",
        answer(&app, post_json("/v1/join", &json!({"code": code}))).await,
    );
    let class = answer(
        &app,
        post_json(
            "/v1/classes",
            &json!({"name": "Room 4", "games": 2, "game": {"seed": "example", "sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}}}}),
        ),
    )
    .await;
    let class_id = class.1["id"].as_str().unwrap().to_owned();
    let class_host = format!("Bearer {}", class.1["host_token"].as_str().unwrap());
    let first = class.1["games"][0]["id"].as_str().unwrap().to_owned();
    put("create_class", class);
    put(
        "create_class_game",
        answer(
            &app,
            post_json(
                &format!("/v1/classes/{class_id}/games"),
                &json!({"seed": "example", "sides": {"a": {"name": "Owls"}, "b": {"name": "Crows"}}}),
            )
            .insert_header(("authorization", class_host.clone())),
        )
        .await,
    );
    answer(
        &app,
        common::post_empty(&format!("/v1/games/{first}/throws"))
            .insert_header(("authorization", class_host.clone())),
    )
    .await;
    put(
        "get_class",
        answer(
            &app,
            get(&format!("/v1/classes/{class_id}"))
                .insert_header(("authorization", class_host.clone())),
        )
        .await,
    );
    let archive = answer(
        &app,
        get(&format!("/v1/classes/{class_id}/archive"))
            .insert_header(("authorization", class_host.clone())),
    )
    .await;
    put(
        "import_class",
        answer(&app, post_json("/v1/class-imports", &archive.1)).await,
    );
    put("get_class_archive", archive);
    put("list_rulesets", answer(&app, get("/v1/rulesets")).await);
    put(
        "get_ruleset",
        answer(&app, get("/v1/rulesets/composite")).await,
    );
    put(
        "get_ruleset_statistics",
        solved(&app, "/v1/rulesets/composite/statistics").await,
    );
    put("list_throw_tables", answer(&app, get("/v1/sticks")).await);
    put("list_sources", answer(&app, get("/v1/sources")).await);
    put(
        "get_source",
        answer(&app, get("/v1/sources/culin1907")).await,
    );
    let terms = answer(&app, get("/v1/glossary")).await;
    let term = terms.1["items"][0]["id"].as_str().unwrap().to_owned();
    put("list_glossary_terms", terms);
    put(
        "get_glossary_term",
        answer(&app, get(&format!("/v1/glossary/{term}"))).await,
    );
    let facts = answer(&app, get("/v1/facts")).await;
    let fact = facts.1["items"][0]["id"].as_str().unwrap().to_owned();
    put("list_facts", facts);
    put(
        "get_fact",
        answer(&app, get(&format!("/v1/facts/{fact}"))).await,
    );
    let rules = answer(&app, get("/v1/rules")).await;
    let rule = rules.1["items"][0]["id"].as_str().unwrap().to_owned();
    put("list_rules", rules);
    put(
        "get_rule",
        answer(&app, get(&format!("/v1/rules/{rule}"))).await,
    );
    put("check_health", answer(&app, get("/healthz")).await);
    put("check_readiness", answer(&app, get("/readyz")).await);
    for (id, status, body) in problems(&app)
        .await
        .into_iter()
        .chain(crate::api_examples_busy::busy().await)
    {
        out.entry(id).or_default().entry(status).or_insert(body);
    }
    for (id, body) in rate_limited().await {
        out.entry(id.to_owned())
            .or_default()
            .insert("429".to_owned(), body);
    }
    out
}

/// The 429 of each limited operation, from a server whose limits are one
/// game a minute, one throw a second (ten at once), one feed a minute and
/// one join code a minute (thirty at once).
async fn rate_limited() -> Vec<(&'static str, Value)> {
    let settings = zohn_ahl::http::RateSettings {
        games_per_minute: 1,
        throws_per_second: 1,
        feeds_per_minute: 1,
        joins_per_minute: 1,
        ..zohn_ahl::http::RateSettings::off()
    };
    let (_db, app) = crate::api_limits::limited(settings).await;
    let mut out = Vec::new();
    let (_, game) = answer(&app, post_json("/v1/games", &json!({}))).await;
    let (status, refused) = answer(&app, post_json("/v1/games", &json!({}))).await;
    assert_eq!(status, "429");
    out.push(("create_game", refused));
    let (status, refused) = answer(
        &app,
        post_json("/v1/classes", &json!({"name": "Room 4", "games": 2})),
    )
    .await;
    assert_eq!(status, "429");
    out.push(("create_class", refused));
    let (status, refused) = answer(
        &app,
        common::post_empty(&format!("/v1/classes/{UNKNOWN}/games")),
    )
    .await;
    assert_eq!(status, "429");
    out.push(("create_class_game", refused));
    let side = |name: &str| json!({"name": name, "players": [name]});
    let archive = json!({
        "format": "zohn-ahl-class/1", "name": "Room 4", "created_at": "2026-01-01T00:00:00.000Z",
        "games": [{
            "format": "zohn-ahl-game/1", "id": UNKNOWN,
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z",
            "setup": {"preset": "composite", "options": game["ruleset"]["options"],
                      "sides": [side("Side A"), side("Side B")], "first": "A",
                      "audience": "general", "detail": "lesson"},
            "seed": null, "seeded": false, "seated": true, "sides_report_throws": false,
            "moves": [], "stopped": false
        }]
    });
    let (status, refused) = answer(&app, post_json("/v1/class-imports", &archive)).await;
    assert_eq!(status, "429", "{refused}");
    out.push(("import_class", refused));
    let id = game["id"].as_str().unwrap();
    let throws = format!("/v1/games/{id}/throws");
    loop {
        let (status, body) = answer(&app, common::post_empty(&throws)).await;
        if status == "429" {
            out.push(("play_throw", body));
            break;
        }
        assert_eq!(status, "201");
    }
    loop {
        let (status, body) = answer(&app, post_json("/v1/join", &json!({"code": "ZZZZZZ"}))).await;
        if status == "429" {
            out.push(("join_seat", body));
            break;
        }
        assert_eq!(status, "404");
    }
    let feed = format!("/v1/games/{id}/events?follow=false");
    send(&app, get(&feed)).await;
    let (status, refused) = answer(&app, get(&feed)).await;
    assert_eq!(status, "429");
    out.push(("stream_events", refused));
    out
}

/// A game id no game has.
const UNKNOWN: &str = "00000000-0000-4000-8000-000000000000";

/// Query parameters each with a value no operation takes: every operation
/// that knows one of them refuses it (400); the others ignore them.
const BAD_QUERY: &str = "format=xml&audience=nobody&detail=nobody&limit=0&preset=monopoly&since=x&follow=x&view=nowhere";

/// `path` with its parameters filled in for a `status` refusal: unknown
/// things for 404, malformed ones (and `BAD_QUERY`) for 400.
fn refused_path(path: &str, status: &str, game: &str) -> Option<String> {
    let (id, other, query) = match status {
        "404" if path.starts_with("/v1/games/") || path.starts_with("/v1/classes/") => {
            (UNKNOWN, "no-such-thing", "")
        }
        "404" if path == "/v1/fairness" => return Some(format!("/v1/fairness?game={UNKNOWN}")),
        "404" => ("no-such-thing", "no-such-thing", ""),
        "400" if path.contains("{n}") => (game, "0", BAD_QUERY),
        "400" => ("Bad%20Id", "Bad%20Id", BAD_QUERY),
        _ => return None,
    };
    let filled = path
        .replace("{id}", id)
        .replace("{term}", other)
        .replace("{rule}", other)
        .replace(
            "{preset}",
            if status == "404" {
                "monopoly"
            } else {
                "composite"
            },
        )
        .replace("{n}", if status == "404" { "1" } else { "0" });
    Some(if query.is_empty() {
        filled
    } else {
        format!("{filled}?{query}")
    })
}

/// Real refusals: each read's 400 and 404 from the document's paths, and
/// the writes' refusals provoked one by one; as (operation id, status,
/// problem). Statuses the server cannot be made to answer on demand (503)
/// are not among them.
async fn problems(app: &Bound) -> Vec<(String, String, Value)> {
    use actix_web::test::TestRequest;
    let mut out = Vec::new();
    let game = answer(app, post_json("/v1/games", &json!({"seed": "refusals"})))
        .await
        .1;
    let game = game["id"].as_str().unwrap().to_owned();
    let doc: Value = zohn_ahl::http::openapi();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(get_op) = item.get("get") else {
            continue;
        };
        for status in ["400", "404"] {
            if get_op["responses"].get(status).is_none() {
                continue;
            }
            let Some(uri) = refused_path(path, status, &game) else {
                continue;
            };
            let (got, body) = answer(app, get(&uri)).await;
            if got == status {
                let id = get_op["operationId"].as_str().unwrap().to_owned();
                out.push((id, got, body));
            }
        }
    }
    let seated = answer(app, post_json("/v1/games", &json!({"seats": true})))
        .await
        .1;
    let (seated_id, side_b) = (
        seated["id"].as_str().unwrap().to_owned(),
        seated["seat_tokens"]["b"].as_str().unwrap().to_owned(),
    );
    let stopped = answer(app, post_json("/v1/games", &json!({}))).await.1;
    let stopped = stopped["id"].as_str().unwrap().to_owned();
    answer(
        app,
        common::post_empty(&format!("/v1/games/{stopped}/stop")),
    )
    .await;
    let full_class = answer(
        app,
        post_json("/v1/classes", &json!({"name": "Room 5", "games": 40})),
    )
    .await
    .1;
    let class_host = format!("Bearer {}", full_class["host_token"].as_str().unwrap());
    let full_class = full_class["id"].as_str().unwrap().to_owned();
    let class_games = format!("/v1/classes/{full_class}/games");
    let big = json!({"seed": "x".repeat(20_000)});
    let same_names = json!({"sides": {"a": {"name": "Hawks"}, "b": {"name": "hawks"}}});
    let archive = answer(
        app,
        get(&format!("/v1/classes/{full_class}/archive"))
            .insert_header(("authorization", class_host.clone())),
    )
    .await
    .1;
    let mut not_replaying = archive.clone();
    not_replaying["games"][0]["moves"] = json!([
        {"throw": {"spinner": "six"}, "origin": "reported"}
    ]);
    let mut bad_archive = archive.clone();
    bad_archive["games"] = json!([]);
    let writes: Vec<(&str, TestRequest)> = vec![
        (
            "get_class_archive",
            get(&format!("/v1/classes/{full_class}/archive")),
        ),
        (
            "get_class_archive",
            get(&format!("/v1/classes/{full_class}/archive"))
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "import_class",
            post_json("/v1/class-imports", &not_replaying),
        ),
        ("import_class", post_json("/v1/class-imports", &bad_archive)),
        (
            "import_class",
            TestRequest::post()
                .uri("/v1/class-imports")
                .insert_header(("content-type", "application/json"))
                .set_payload(vec![b' '; 16 * 1024 * 1024 + 1]),
        ),
        (
            "import_class",
            post_json("/v1/class-imports", &archive)
                .insert_header(("origin", "https://elsewhere.example")),
        ),
        (
            "import_class",
            TestRequest::post()
                .uri("/v1/class-imports")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
        ),
        ("get_class", get(&format!("/v1/classes/{full_class}"))),
        (
            "get_class",
            get(&format!("/v1/classes/{full_class}"))
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "create_class",
            post_json("/v1/classes", &json!({"name": "", "games": 0})),
        ),
        (
            "create_class",
            post_json(
                "/v1/classes",
                &json!({"name": "Room 6", "games": 1, "game": big.clone()}),
            ),
        ),
        (
            "create_class",
            TestRequest::post()
                .uri("/v1/classes")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
        ),
        (
            "create_class",
            post_json(
                "/v1/classes",
                &json!({"name": "Room 6", "games": 1, "game": same_names.clone()}),
            ),
        ),
        (
            "create_class",
            post_json("/v1/classes", &json!({"name": "Room 6", "games": 1}))
                .insert_header(("origin", "https://elsewhere.example")),
        ),
        (
            "create_class_game",
            common::post_empty("/v1/classes/not-a-class/games"),
        ),
        ("create_class_game", common::post_empty(&class_games)),
        (
            "create_class_game",
            common::post_empty(&class_games)
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "create_class_game",
            common::post_empty(&format!("/v1/classes/{UNKNOWN}/games"))
                .insert_header(("authorization", class_host.clone())),
        ),
        (
            "create_class_game",
            common::post_empty(&class_games).insert_header(("authorization", class_host.clone())),
        ),
        (
            "create_class_game",
            post_json(&class_games, &big).insert_header(("authorization", class_host.clone())),
        ),
        (
            "create_class_game",
            TestRequest::post()
                .uri(&class_games)
                .insert_header(("content-type", "text/plain"))
                .insert_header(("authorization", class_host.clone()))
                .set_payload("{}"),
        ),
        (
            "create_class_game",
            post_json(&class_games, &same_names)
                .insert_header(("authorization", class_host.clone())),
        ),
        // Before the game is stopped below: still in play.
        ("get_recap", get(&format!("/v1/games/{game}/recap"))),
        (
            "create_game",
            TestRequest::post()
                .uri("/v1/games")
                .insert_header(("content-type", "application/json"))
                .set_payload("{"),
        ),
        ("create_game", post_json("/v1/games", &big)),
        (
            "create_game",
            TestRequest::post()
                .uri("/v1/games")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
        ),
        (
            "create_game",
            post_json(
                "/v1/games",
                &json!({"sides": {"a": {"name": "Hawks"}, "b": {"name": "hawks"}}}),
            ),
        ),
        (
            "play_throw",
            common::post_empty("/v1/games/not-a-game/throws"),
        ),
        (
            "play_throw",
            common::post_empty(&format!("/v1/games/{UNKNOWN}/throws")),
        ),
        (
            "play_throw",
            common::post_empty(&format!("/v1/games/{seated_id}/throws")),
        ),
        (
            "play_throw",
            common::post_empty(&format!("/v1/games/{seated_id}/throws"))
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "play_throw",
            common::post_empty(&format!("/v1/games/{stopped}/throws")),
        ),
        (
            "play_throw",
            common::post_empty(&format!("/v1/games/{game}/throws"))
                .insert_header(("if-match", "\"7\"")),
        ),
        (
            "play_throw",
            post_json(&format!("/v1/games/{game}/throws"), &big),
        ),
        (
            "play_throw",
            TestRequest::post()
                .uri(&format!("/v1/games/{game}/throws"))
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
        ),
        (
            "play_throw",
            post_json(
                &format!("/v1/games/{game}/throws"),
                &json!({"spinner": "six"}),
            ),
        ),
        ("stop_game", common::post_empty("/v1/games/not-a-game/stop")),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{UNKNOWN}/stop")),
        ),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{seated_id}/stop")),
        ),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{seated_id}/stop"))
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{stopped}/stop")),
        ),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{game}/stop"))
                .insert_header(("if-match", "\"7\"")),
        ),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{game}/stop"))
                .insert_header(("idempotency-key", "k")),
        ),
        (
            "stop_game",
            common::post_empty(&format!("/v1/games/{game}/stop"))
                .insert_header(("idempotency-key", "k"))
                .insert_header(("authorization", "Bearer someone-else")),
        ),
        ("join_seat", post_json("/v1/join", &json!({"code": "K7M"}))),
        ("join_seat", post_json("/v1/join", &json!({}))),
        (
            "join_seat",
            post_json("/v1/join", &json!({"code": "ZZZZZZ"})),
        ),
        ("join_seat", post_json("/v1/join", &big)),
        (
            "join_seat",
            TestRequest::post()
                .uri("/v1/join")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
        ),
        (
            "create_seat_token",
            common::post_empty("/v1/games/not-a-game/seats/a/token"),
        ),
        (
            "create_seat_token",
            common::post_empty(&format!("/v1/games/{UNKNOWN}/seats/a/token")),
        ),
        (
            "create_seat_token",
            common::post_empty(&format!("/v1/games/{seated_id}/seats/a/token")),
        ),
        (
            "create_seat_token",
            common::post_empty(&format!("/v1/games/{seated_id}/seats/a/token"))
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "create_seat_token",
            common::post_empty(&format!("/v1/games/{game}/seats/a/token")),
        ),
        ("get_odds", get(&format!("/v1/games/{stopped}/odds"))),
        (
            "delete_game",
            TestRequest::delete().uri("/v1/games/not-a-game"),
        ),
        (
            "delete_game",
            TestRequest::delete().uri(&format!("/v1/games/{UNKNOWN}")),
        ),
        (
            "delete_game",
            TestRequest::delete().uri(&format!("/v1/games/{seated_id}")),
        ),
        (
            "delete_game",
            TestRequest::delete()
                .uri(&format!("/v1/games/{seated_id}"))
                .insert_header(("authorization", format!("Bearer {side_b}"))),
        ),
        (
            "create_game",
            post_json("/v1/games", &json!({}))
                .insert_header(("origin", "https://elsewhere.example")),
        ),
        (
            "join_seat",
            post_json("/v1/join", &json!({"code": "ZZZZZZ"}))
                .insert_header(("origin", "https://elsewhere.example")),
        ),
        (
            "check_health",
            get(&format!("/healthz?pad={}", "x".repeat(17_000))),
        ),
        (
            "check_health",
            (0..70).fold(get("/healthz"), |r, i| {
                r.insert_header((format!("x-pad-{i}"), "x"))
            }),
        ),
    ];
    for (id, req) in writes {
        let (status, body) = answer(app, req).await;
        if status.starts_with('4') {
            out.push((id.to_owned(), status, body));
        }
    }
    out
}

/// Answers the server cannot be made to give on demand, which keep no
/// example: not ready (503: the store cannot be read), and the chart's 503
/// (its odds being solved) and 422 (a ruleset too large to solve).
const CANNOT_PROVOKE: [(&str, &str); 5] = [
    ("check_readiness", "503"),
    ("get_chances_chart", "503"),
    ("get_chances_chart_png", "503"),
    ("get_chances_chart", "422"),
    ("get_chances_chart_png", "422"),
];

/// The `application/json` and `application/problem+json` answers of the
/// document, but those of [`CANNOT_PROVOKE`], as (operation id, status,
/// media type object).
fn json_answers(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for (method, op) in item.as_object().unwrap() {
            if method == "head" {
                continue;
            }
            let id = op["operationId"].as_str().unwrap();
            for (status, response) in op["responses"].as_object().unwrap() {
                if CANNOT_PROVOKE
                    .iter()
                    .any(|&(o, st)| o == id && st == status)
                {
                    continue;
                }
                for media in ["application~1json", "application~1problem+json"] {
                    if let Some(media) = response.pointer(&format!("/content/{media}")) {
                        out.push((id.to_owned(), status.clone(), media.clone()));
                    }
                }
            }
        }
    }
    out
}

#[actix_web::test]
async fn every_json_answer_has_one_full_example_recorded_from_the_server() {
    let recorded = record().await;
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(EXAMPLES_PATH).unwrap_or_default())
            .unwrap_or(Value::Null);
    let keys = |v: &Value| -> Vec<(String, String)> {
        v.as_object()
            .into_iter()
            .flatten()
            .flat_map(|(id, by_status)| {
                by_status
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(|s| (id.clone(), s.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let recorded = serde_json::to_value(&recorded).unwrap();
    if std::env::var_os("UPDATE_EXAMPLES").is_some() && committed != recorded {
        std::fs::write(
            EXAMPLES_PATH,
            serde_json::to_string_pretty(&recorded).unwrap() + "\n",
        )
        .unwrap();
        panic!(
            "rewrote openapi/examples.json: review it, run `UPDATE_OPENAPI=1 cargo test --test it api_reference::`, then the tests again"
        );
    }
    assert_eq!(
        keys(&committed),
        keys(&recorded),
        "openapi/examples.json does not cover what the server answers: run `UPDATE_EXAMPLES=1 cargo test --test it api_examples::`"
    );
    // Every JSON answer and problem has its example, taken by its own
    // schema.
    let doc: Value = zohn_ahl::http::openapi();
    let answers = json_answers(&doc);
    assert!(answers.len() >= 150, "{}", answers.len());
    for (id, status, media) in answers {
        let example = media
            .get("example")
            .unwrap_or_else(|| panic!("{id} {status}: no example"));
        // Its own, or the one the refusals made below the handlers share.
        let own = &committed[&id][&status];
        assert!(own.is_null() || example == own, "{id} {status}");
        let root = json!({"$ref": media["schema"]["$ref"], "components": doc["components"]});
        let validator = jsonschema::validator_for(&root).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(example)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{id} {status}: {errors:?}");
    }
}

/// The example of a game is one state: a finished game has a result and no
/// pending throw, a game in play the reverse.
#[test]
fn regression_a_games_example_was_won_with_an_extra_throw_pending() {
    let doc: Value = zohn_ahl::http::openapi();
    let mut seen = 0;
    for (id, status, media) in json_answers(&doc) {
        let mut games = Vec::new();
        collect_games(&media["example"], &mut games);
        seen += games.len();
        for game in games {
            let finished = game["status"] == "finished";
            assert_eq!(finished, !game["result"].is_null(), "{id} {status}");
            assert_eq!(finished, game["to_throw"].is_null(), "{id} {status}");
            if finished {
                assert_eq!(game["extra_throw_pending"], false, "{id} {status}");
            }
            assert!(
                game["created_at"]
                    .as_str()
                    .is_some_and(|t| t.ends_with('Z') && t.len() >= 20),
                "{id} {status}: {}",
                game["created_at"]
            );
        }
    }
    // A game's view in the creation's, the game's, a throw's and a stop's.
    assert!(seen >= 4, "{seen} games in the examples");
}

/// Every object in `value` that is a game view (it has `extra_throw_pending`
/// and `created_at`).
fn collect_games<'a>(value: &'a Value, into: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            if map.contains_key("extra_throw_pending") && map.contains_key("created_at") {
                into.push(value);
            }
            map.values().for_each(|v| collect_games(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_games(v, into)),
        _ => {}
    }
}
