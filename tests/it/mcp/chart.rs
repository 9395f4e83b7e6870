//! `get_chances_chart`: the chart of the chances as an MCP image (PNG)
//! with its description, the same numbers as the REST chart's.

use super::{call, connect, new_game, ok, refused};
use crate::common::TestDb;

use base64::Engine as _;
use rmcp::model::ContentBlock;
use serde_json::json;

#[tokio::test]
async fn get_chances_chart_answers_a_png_and_the_chart_in_words() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let id = new_game(&client, json!({"seed": "mcp-chart"})).await;
    // The preset's chain solved, as the odds tool waits for it.
    for _ in 0..60 {
        let odds = call(&client, "get_odds", json!({"game_id": id})).await;
        if odds.is_error != Some(true) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    for _ in 0..8 {
        ok(&call(&client, "throw", json!({"game_id": id})).await);
    }
    let result = call(&client, "get_chances_chart", json!({"game_id": id})).await;
    let out = ok(&result);
    let description = out["description"].as_str().unwrap();
    assert!(description.contains("At the start"), "{description}");
    assert!(description.contains("to move 8"), "{description}");
    let image = result
        .content
        .iter()
        .find_map(|c| match c {
            ContentBlock::Image(i) => Some(i.clone()),
            _ => None,
        })
        .expect("an image");
    assert_eq!(image.mime_type, "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .unwrap();
    let decoded = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (720, 405));

    let why = refused(&call(&client, "get_chances_chart", json!({"game_id": "nope"})).await);
    assert!(why.contains("game_id"), "{why}");
}
