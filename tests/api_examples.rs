//! One full example per JSON answer of the document: real answers of the
//! server, recorded here into `openapi/examples.json` (keyed by operation
//! id and status), which the document's conventions attach to each
//! answer's `application/json` (`src/http/contract.rs`). Swagger UI used
//! to assemble an example from each property's own, which contradicted
//! itself (`"created_at": "string"`, `result: "won"` beside
//! `extra_throw_pending: true`); a recorded answer cannot.
//!
//! `UPDATE_EXAMPLES=1 cargo test --test api_examples` records them again
//! (and fails, on purpose); then `UPDATE_OPENAPI=1 cargo test --test
//! api_reference` puts them in the committed document.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::{Bound, get, post_json, send, spawn_app};
use serde_json::{Value, json};

const EXAMPLES_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/examples.json");

/// Lists longer than this are cut in an example (the first ones kept).
const MOST_ITEMS: usize = 2;

/// A real answer: its status and JSON, cut to [`MOST_ITEMS`] items.
async fn answer(app: &Bound, req: actix_web::test::TestRequest) -> (String, Value) {
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
    out
}

/// The `application/json` answers of the document that succeed, as
/// (operation id, status, schema).
fn json_answers(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for (method, op) in item.as_object().unwrap() {
            if method == "head" {
                continue;
            }
            for (status, response) in op["responses"].as_object().unwrap() {
                if !status.starts_with('2') {
                    continue;
                }
                if let Some(media) = response.pointer("/content/application~1json") {
                    out.push((
                        op["operationId"].as_str().unwrap().to_owned(),
                        status.clone(),
                        media.clone(),
                    ));
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
            "rewrote openapi/examples.json: review it, run `UPDATE_OPENAPI=1 cargo test --test api_reference`, then the tests again"
        );
    }
    assert_eq!(
        keys(&committed),
        keys(&recorded),
        "openapi/examples.json does not cover what the server answers: run `UPDATE_EXAMPLES=1 cargo test --test api_examples`"
    );
    // Every success with JSON has its example, taken by its own schema.
    let doc: Value = zohn_ahl::http::openapi();
    let answers = json_answers(&doc);
    assert_eq!(
        answers.len(),
        keys(&committed).len(),
        "an answer without an example"
    );
    for (id, status, media) in answers {
        let example = media
            .get("example")
            .unwrap_or_else(|| panic!("{id} {status}: no example"));
        assert_eq!(example, &committed[&id][&status], "{id} {status}");
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
