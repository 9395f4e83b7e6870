//! Every error is RFC 9457 problem+json, names the field and the bound,
//! and leaks no internal type names.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test;
use common::{get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

/// Words that would betray the server's internals.
const LEAKS: &[&str] = &[
    "struct ", "enum ", "u8", "u16", "u32", "i64", "usize", "zohn_ahl", "sqlx", "serde", "::",
    "panicked",
];

fn assert_no_leak(body: &[u8]) {
    let text = String::from_utf8_lossy(body);
    for word in LEAKS {
        assert!(!text.contains(word), "{word:?} leaks in {text}");
    }
}

#[actix_web::test]
async fn malformed_json_is_a_400_problem() {
    let (_db, app) = spawn_app().await;
    let r = send(
        &app,
        test::TestRequest::post()
            .uri("/v1/games")
            .insert_header(("content-type", "application/json"))
            .set_payload("{\"seed\": "),
    )
    .await;
    let p = r.problem(400);
    assert!(p["detail"].as_str().unwrap().contains("not valid JSON"));
    assert_no_leak(&r.body);
}

#[actix_web::test]
async fn a_non_json_content_type_is_415() {
    let (_db, app) = spawn_app().await;
    let r = send(
        &app,
        test::TestRequest::post()
            .uri("/v1/games")
            .insert_header(("content-type", "text/plain"))
            .set_payload("{}"),
    )
    .await;
    r.problem(415);
}

#[actix_web::test]
async fn unknown_fields_are_rejected_with_their_pointer() {
    let (_db, app) = spawn_app().await;
    let r = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"options": {"counters": 3}}}),
        ),
    )
    .await;
    let p = r.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "/ruleset/options/counters");
    assert!(p["detail"].as_str().unwrap().contains("unknown field"));
    assert_no_leak(&r.body);
}

#[actix_web::test]
async fn out_of_bound_numbers_name_the_field_and_the_bound() {
    let (_db, app) = spawn_app().await;
    for bad in [0, 16, -3, 100_000] {
        let r = send(
            &app,
            post_json(
                "/v1/games",
                &json!({"ruleset": {"options": {"counters_per_side": bad}}}),
            ),
        )
        .await;
        let p = r.problem(400);
        assert_eq!(
            p["errors"][0]["pointer"],
            "/ruleset/options/counters_per_side"
        );
        assert!(
            p["errors"][0]["detail"]
                .as_str()
                .unwrap()
                .contains("from 1 to 15"),
            "{p}"
        );
    }
    let r = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"options": {"counters_per_side": "four"}}}),
        ),
    )
    .await;
    r.problem(400);
    assert_no_leak(&r.body);
}

#[actix_web::test]
async fn names_and_seeds_are_bounded_in_characters() {
    let (_db, app) = spawn_app().await;
    // 40 characters of four bytes each is within bounds: the bound is in
    // Unicode scalar values, not bytes.
    let ok = "𝄞".repeat(40);
    let r = send(
        &app,
        post_json("/v1/games", &json!({"sides": {"a": {"name": ok}}})),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let too_long = "a".repeat(41);
    let r = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": too_long}, "b": {"name": "  "}}, "seed": ""}),
        ),
    )
    .await;
    let p = r.problem(400);
    let pointers: Vec<_> = p["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(pointers, ["/sides/a/name", "/sides/b/name", "/seed"]);
}

#[actix_web::test]
async fn an_unknown_preset_lists_the_allowed_values() {
    let (_db, app) = spawn_app().await;
    let r = send(
        &app,
        post_json("/v1/games", &json!({"ruleset": {"preset": "monopoly"}})),
    )
    .await;
    let p = r.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "/ruleset/preset");
    let detail = p["errors"][0]["detail"].as_str().unwrap();
    for preset in ["composite", "culin1898", "ludii", "a4", "boxed"] {
        assert!(detail.contains(preset), "{detail}");
    }
    assert_no_leak(&r.body);
}

#[actix_web::test]
async fn malformed_ids_are_400_and_unknown_ids_404() {
    let (_db, app) = spawn_app().await;
    let r = send(&app, get("/v1/games/not-a-uuid")).await;
    let p = r.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/path/id");
    let r = send(&app, get("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")).await;
    let p = r.problem(404);
    assert_eq!(p["type"], "/problems/game-not-found");
    let r = send(
        &app,
        post_empty("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79/throws"),
    )
    .await;
    r.problem(404);
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    send(&app, get(&format!("/v1/games/{id}/moves/1")))
        .await
        .problem(404);
    send(&app, get(&format!("/v1/games/{id}/moves/0")))
        .await
        .problem(400);
    send(&app, get(&format!("/v1/games/{id}/moves?limit=0")))
        .await
        .problem(400);
    send(&app, get(&format!("/v1/games/{id}/moves?limit=101")))
        .await
        .problem(400);
    send(&app, get(&format!("/v1/games/{id}/moves?cursor=x")))
        .await
        .problem(400);
    // An unknown parameter is ignored (as everywhere); a known one twice
    // is refused.
    let r = send(&app, get(&format!("/v1/games/{id}/moves?page=2"))).await;
    assert_eq!(r.status.as_u16(), 200);
    send(&app, get(&format!("/v1/games/{id}/moves?limit=2&limit=3")))
        .await
        .problem(400);
}

/// A duplicated query parameter pointed at `#/query`, not at the
/// parameter, on every operation that reads a query.
#[actix_web::test]
async fn a_parameter_given_twice_points_at_its_name() {
    let (_db, app) = spawn_app().await;
    let created = send(&app, post_empty("/v1/games")).await;
    let id = created.json()["id"].as_str().expect("id").to_owned();
    for (path, name) in [
        (format!("/v1/games/{id}/moves?limit=2&limit=3"), "limit"),
        (format!("/v1/games/{id}/moves?cursor=1&cursor=2"), "cursor"),
        (
            format!("/v1/games/{id}/moves/1?audience=young&audience=young"),
            "audience",
        ),
        (
            format!("/v1/games/{id}/board.svg?format=png&format=svg"),
            "format",
        ),
        ("/v1/sources?format=csl&format=csl".to_owned(), "format"),
        ("/v1/rules?preset=ludii&preset=a4".to_owned(), "preset"),
        (
            "/v1/rulesets/ludii?audience=young&audience=scholar".to_owned(),
            "audience",
        ),
    ] {
        let p = send(&app, get(&path)).await.problem(400);
        assert_eq!(
            p["errors"][0]["pointer"],
            format!("#/query/{name}"),
            "{path}: {p}"
        );
        assert!(
            p["detail"]
                .as_str()
                .is_some_and(|d| d.contains(&format!("`{name}`"))),
            "{path}: {p}"
        );
    }
}

#[actix_web::test]
async fn unknown_routes_are_404_and_wrong_methods_405() {
    let (_db, app) = spawn_app().await;
    let r = send(&app, get("/v1/nothing-here")).await;
    r.problem(404);
    let r = send(&app, test::TestRequest::delete().uri("/v1/games")).await;
    let p = r.problem(405);
    assert_eq!(r.header("allow").unwrap(), "POST");
    assert_eq!(p["allowed"][0], "POST");
    let r = send(
        &app,
        get("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79/throws"),
    )
    .await;
    r.problem(405);
}

#[actix_web::test]
async fn an_oversized_body_is_413() {
    let (_db, app) = spawn_app().await;
    let big = format!(
        "{{\"seed\": \"{}\"}}",
        "x".repeat(zohn_ahl::http::BODY_LIMIT + 10)
    );
    let r = send(
        &app,
        test::TestRequest::post()
            .uri("/v1/games")
            .insert_header(("content-type", "application/json"))
            .set_payload(big),
    )
    .await;
    r.problem(413);
}

#[actix_web::test]
async fn both_sticks_and_spinner_is_a_400() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    let r = send(
        &app,
        post_json(
            &format!("/v1/games/{id}/throws"),
            &json!({"sticks": ["flat", "flat", "flat", "flat"], "spinner": "six"}),
        ),
    )
    .await;
    r.problem(400);
    let r = send(
        &app,
        post_json(
            &format!("/v1/games/{id}/throws"),
            &json!({"sticks": ["flat", "flat", "flat"]}),
        ),
    )
    .await;
    let p = r.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "/sticks");
    assert_no_leak(&r.body);
    let r = send(
        &app,
        post_json(
            &format!("/v1/games/{id}/throws"),
            &json!({"sticks": ["flat", "up", "flat", "flat"]}),
        ),
    )
    .await;
    let p = r.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "/sticks/1");
}

#[actix_web::test]
async fn an_in_memory_database_is_refused_with_a_clear_message() {
    let err = zohn_ahl::store::Store::connect("sqlite::memory:")
        .await
        .expect_err("in-memory refused");
    assert!(err.to_string().contains("in-memory"));
}

/// Regression: `counters_per_side: 1e20` was refused with "got
/// 9223372036854775807" (the number saturated to 64 bits), not what was sent.
#[actix_web::test]
async fn an_option_count_beyond_64_bits_is_refused_naming_the_number_as_sent() {
    let (_db, app) = spawn_app().await;
    let body: Value =
        serde_json::from_str(r#"{"ruleset": {"options": {"counters_per_side": 1e20}}}"#).unwrap();
    let r = send(&app, post_json("/v1/games", &body)).await;
    let p = r.problem(400);
    let text = p.to_string();
    assert!(text.contains("1e20"), "{text}");
    assert!(!text.contains("9223372036854775807"), "{text}");
    assert!(text.contains("counters_per_side"), "{text}");
}

#[actix_web::test]
async fn a_move_number_above_the_documented_maximum_is_a_400_on_every_move_path() {
    let (_db, app) = spawn_app().await;
    let created = send(&app, post_empty("/v1/games")).await.json();
    let id = created["id"].as_str().unwrap();
    for path in [
        format!("/v1/games/{id}/moves/1000000000"),
        format!("/v1/games/{id}/moves/1000000000/board.svg"),
        format!("/v1/games/{id}/moves/0"),
        format!("/v1/games/{id}/moves/0/board.svg"),
    ] {
        let p = send(&app, get(&path)).await.problem(400);
        assert_eq!(p["errors"][0]["pointer"], "#/path/n", "{path}");
        assert!(
            p["errors"][0]["detail"]
                .as_str()
                .unwrap()
                .contains("from 1 to 999999999"),
            "{path}: {p}"
        );
    }
}
