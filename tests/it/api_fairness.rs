//! "Are our sticks fair?" over HTTP: a game's and a class's reported
//! throws against the exact probabilities of the throw table in play.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Target, get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

/// The 16 stick configurations, the sahe last.
fn configurations() -> Vec<[&'static str; 4]> {
    (0u8..16)
        .map(|bits| {
            let face = |i: u8| if bits >> i & 1 == 1 { "flat" } else { "round" };
            [face(0), face(1), face(2), face(3)]
        })
        .collect()
}

/// Every throw the API reported, and the sticks it was sent.
async fn report<T: Target>(app: &T, id: &str, sticks: &[[&str; 4]]) {
    for s in sticks {
        let r = send(
            app,
            post_json(&format!("/v1/games/{id}/throws"), &json!({ "sticks": s })),
        )
        .await;
        assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    }
}

fn chi_square_of(test: &Value) -> f64 {
    test["pooled"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let o = g["observed"].as_f64().unwrap();
            let e = g["expected"].as_f64().unwrap();
            (o - e) * (o - e) / e
        })
        .sum()
}

#[actix_web::test]
async fn every_configuration_once_is_exactly_fair_and_the_probabilities_are_the_rules() {
    let (_db, app) = spawn_app().await;
    let id = send(&app, post_json("/v1/games", &json!({"seed": "fair"})))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    report(&app, &id, &configurations()).await;
    let r = send(&app, get(&format!("/v1/games/{id}/fairness"))).await;
    assert_eq!(r.status, 200);
    let body = r.json();
    assert_eq!(body["games"], json!([id]));
    let test = &body["tests"][0];
    assert_eq!(test["throw_table"], "sticks_sahe");
    assert_eq!(test["throws"], 16);
    assert_eq!(test["server_throws"], 0);

    // The cells are the composite table's results with the rules' own
    // probabilities (as /v1/sticks gives them).
    let sticks = send(&app, get("/v1/sticks")).await.json();
    let table = sticks["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "sticks_sahe")
        .unwrap();
    let cells = test["cells"].as_array().unwrap();
    assert_eq!(cells.len(), table["results"].as_array().unwrap().len());
    for (cell, result) in cells.iter().zip(table["results"].as_array().unwrap()) {
        assert_eq!(cell["value"], result["value"]);
        assert_eq!(cell["throws_again"], result["throws_again"]);
        assert_eq!(cell["probability"], result["probability"]);
        // Each configuration once: observed = 16 × probability = expected.
        let expected = 16.0 * result["probability"]["decimal"].as_f64().unwrap();
        assert_eq!(cell["observed"].as_f64().unwrap(), expected);
        assert!((cell["expected"].as_f64().unwrap() - expected).abs() < 1e-9);
    }
    assert_eq!(test["reliable"], true);
    assert_eq!(test["chi_square"].as_f64().unwrap(), 0.0);
    assert!((test["p_value"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    assert_eq!(test["unlike_fair"], false);
    for audience in ["young", "general", "scholar"] {
        assert!(
            !test["explanation"][audience].as_str().unwrap().is_empty(),
            "{audience}"
        );
    }
}

#[actix_web::test]
async fn lopsided_sticks_are_found_unlike_fair_and_server_throws_are_left_out() {
    let (_db, app) = spawn_app().await;
    let id = send(&app, post_json("/v1/games", &json!({"seed": "lopsided"})))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // 40 throws of two flat faces, the sahe round: a 2 every time.
    report(&app, &id, &[["flat", "flat", "round", "round"]; 40]).await;
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(r.status, 201);
    let test = &send(&app, get(&format!("/v1/games/{id}/fairness")))
        .await
        .json()["tests"][0];
    assert_eq!(test["throws"], 40);
    assert_eq!(test["server_throws"], 1);
    assert_eq!(test["reliable"], true);
    // Every pooled cell expects at least 5, and the statistic is theirs.
    for g in test["pooled"].as_array().unwrap() {
        assert!(g["expected"].as_f64().unwrap() >= 5.0, "{g}");
    }
    let x2 = test["chi_square"].as_f64().unwrap();
    assert!((x2 - chi_square_of(test)).abs() < 1e-9);
    assert_eq!(
        test["degrees_of_freedom"].as_u64().unwrap() as usize,
        test["pooled"].as_array().unwrap().len() - 1
    );
    assert!(test["p_value"].as_f64().unwrap() < 0.001, "{test}");
    assert_eq!(test["unlike_fair"], true);
}

#[actix_web::test]
async fn too_few_reported_throws_give_no_statistic_and_the_throws_needed() {
    let (_db, app) = spawn_app().await;
    let id = send(&app, post_json("/v1/games", &json!({}))).await.json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    report(&app, &id, &configurations()[..5]).await;
    let test = &send(&app, get(&format!("/v1/games/{id}/fairness")))
        .await
        .json()["tests"][0];
    assert_eq!(test["throws"], 5);
    assert_eq!(test["reliable"], false);
    assert_eq!(test["chi_square"], Value::Null);
    assert_eq!(test["p_value"], Value::Null);
    assert_eq!(test["degrees_of_freedom"], Value::Null);
    assert_eq!(test["min_throws"], 14);
    assert!(
        test["explanation"]["young"]
            .as_str()
            .unwrap()
            .contains("14"),
        "{test}"
    );
}

#[actix_web::test]
async fn a_class_counts_its_games_together_and_keeps_the_spinner_apart() {
    let (_db, app) = spawn_app().await;
    let mut ids = Vec::new();
    for preset in ["composite", "boxed", "a4"] {
        ids.push(
            send(
                &app,
                post_json("/v1/games", &json!({"ruleset": {"preset": preset}})),
            )
            .await
            .json()["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let all = configurations();
    report(&app, &ids[0], &all[..8]).await;
    report(&app, &ids[1], &all[8..]).await;
    for sector in ["ten", "two", "blue_three"] {
        let r = send(
            &app,
            post_json(
                &format!("/v1/games/{}/throws", ids[2]),
                &json!({ "spinner": sector }),
            ),
        )
        .await;
        assert_eq!(r.status, 201);
    }
    // The first game twice: counted once.
    let uri = format!(
        "/v1/fairness?game={}&game={}&game={}&game={}",
        ids[0], ids[1], ids[2], ids[0]
    );
    let r = send(&app, get(&uri)).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert_eq!(body["games"], json!([ids[0], ids[1], ids[2]]));
    let tests = body["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2);
    assert_eq!(tests[0]["throw_table"], "sticks_sahe");
    assert_eq!(tests[0]["games"], json!([ids[0], ids[1]]));
    assert_eq!(tests[0]["throws"], 16);
    assert_eq!(tests[0]["chi_square"].as_f64().unwrap(), 0.0);
    assert_eq!(tests[1]["throw_table"], "spinner");
    assert_eq!(tests[1]["games"], json!([ids[2]]));
    assert_eq!(tests[1]["throws"], 3);
    assert_eq!(tests[1]["cells"].as_array().unwrap().len(), 7);
}

#[actix_web::test]
async fn class_errors_are_problems_with_pointers() {
    let (_db, app) = spawn_app().await;
    let p = send(&app, get("/v1/fairness")).await.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/query/game");
    let p = send(&app, get("/v1/fairness?game=nope")).await.problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/query/game/0");
    let id = uuid_like();
    // Another parameter is ignored, as everywhere.
    send(&app, get(&format!("/v1/fairness?game={id}&class=3")))
        .await
        .problem(404);
    send(&app, get(&format!("/v1/fairness?game={id}")))
        .await
        .problem(404);
    send(&app, get(&format!("/v1/games/{id}/fairness")))
        .await
        .problem(404);
    send(&app, get("/v1/games/nope/fairness"))
        .await
        .problem(400);
    let many: Vec<String> = (0..51)
        .map(|i| format!("game=00000000-0000-4000-8000-{i:012}"))
        .collect();
    let p = send(&app, get(&format!("/v1/fairness?{}", many.join("&"))))
        .await
        .problem(400);
    assert!(p["detail"].as_str().unwrap().contains("50"), "{p}");
}

fn uuid_like() -> &'static str {
    "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"
}

/// A fuzzer sent `?game=&game=...` (empty strings, valid under a bare
/// `string` item) and was refused: each listed game is documented as the
/// UUID the server takes.
#[actix_web::test]
async fn the_class_query_documents_each_game_as_a_uuid() {
    let (_db, app) = spawn_app().await;
    let doc = send(&app, get("/openapi.json")).await.json();
    let param = &doc["paths"]["/v1/fairness"]["get"]["parameters"][0];
    assert_eq!(param["name"], "game");
    let item = param["schema"]["items"]["$ref"].as_str().unwrap();
    let name = item.rsplit('/').next().unwrap();
    let pattern = doc["components"]["schemas"][name]["pattern"]
        .as_str()
        .unwrap();
    assert!(pattern.starts_with("^[0-9a-fA-F]{8}-"), "{pattern}");
    let refused = send(&app, get("/v1/fairness?game=")).await.problem(400);
    assert_eq!(refused["errors"][0]["pointer"], "#/query/game/0");
}
