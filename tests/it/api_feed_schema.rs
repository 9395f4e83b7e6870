//! The live feed as the document describes it to generators: the SSE media
//! type's schema is what each event's `data` holds (`FeedData`), which is
//! what generated SSE readers yield (hey-api's `streamEvents`); the NDJSON
//! one is a string, one `FeedLine` a line (its `contentSchema`), which
//! generators read as text (openapi-python-client raised `ValueError` when
//! the event-stream was described as one object). Each checked against a
//! real feed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

/// A validator for `schema`, its references resolved in the document.
fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    jsonschema::validator_for(&root).unwrap()
}

fn errors(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[actix_web::test]
async fn regression_generators_typed_the_event_stream_as_its_framing() {
    let doc: Value = zohn_ahl::http::openapi();
    let content = &doc["paths"]["/v1/games/{id}/events"]["get"]["responses"]["200"]["content"];
    // SSE first: hey-api reads the first media type, and reads it as SSE.
    let types: Vec<&String> = content.as_object().unwrap().keys().collect();
    assert_eq!(types, ["text/event-stream", "application/x-ndjson"]);
    let sse = &content["text/event-stream"]["schema"];
    assert_eq!(sse, &json!({"$ref": "#/components/schemas/FeedData"}));
    // `anyOf`: an `EndView` is a `GameView` too.
    let variants: Vec<&str> = doc["components"]["schemas"]["FeedData"]["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["$ref"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        [
            "#/components/schemas/GameView",
            "#/components/schemas/MoveView",
            "#/components/schemas/EndView",
            "#/components/schemas/FeedDeletion"
        ]
    );
    let ndjson = &content["application/x-ndjson"]["schema"];
    assert_eq!(ndjson["type"], "string");
    assert_eq!(
        ndjson["contentSchema"],
        json!({"$ref": "#/components/schemas/FeedLine"})
    );
    assert!(doc["components"]["schemas"]["SseEvent"].is_null());

    // A real feed: each SSE event's data is a `FeedData`; each NDJSON line
    // a `FeedLine`; the whole body a string.
    let (_db, app) = spawn_app().await;
    let game = send(
        &app,
        post_json("/v1/games", &json!({"seed": "feed-schema"})),
    )
    .await
    .json();
    let id = game["id"].as_str().unwrap();
    for _ in 0..3 {
        send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    }
    send(&app, post_empty(&format!("/v1/games/{id}/stop"))).await;
    let data = validator(&doc, sse);
    let body = send(
        &app,
        get(&format!("/v1/games/{id}/events?since=0&follow=false")),
    )
    .await;
    let text = String::from_utf8(body.body).unwrap();
    let mut names = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let field = |name: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .map(str::to_owned)
        };
        let Some(event) = field("event") else {
            assert!(block.starts_with("retry: "), "{block}");
            continue;
        };
        let value: Value = serde_json::from_str(&field("data").unwrap()).unwrap();
        assert_eq!(errors(&data, &value), Vec::<String>::new(), "{event}");
        names.push(event);
    }
    assert_eq!(names, ["move", "move", "move", "end"]);
    let line = validator(&doc, &ndjson["contentSchema"]);
    let body = send(
        &app,
        get(&format!("/v1/games/{id}/events?follow=false"))
            .insert_header(("accept", "application/x-ndjson")),
    )
    .await;
    let text = String::from_utf8(body.body).unwrap();
    let whole = validator(&doc, &json!({"type": ndjson["type"]}));
    assert!(whole.is_valid(&Value::String(text.clone())));
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    for value in lines {
        assert_eq!(errors(&line, &value), Vec::<String>::new(), "{value}");
    }
}
