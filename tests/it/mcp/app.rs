//! The board as an MCP App (a `ui://` resource the throw, board and
//! creation tools name) and the board as text (a game's `board.txt`).

use super::{call, connect, new_game, ok};
use crate::common::TestDb;

use rmcp::RoleClient;
use rmcp::model::ReadResourceRequestParams;
use rmcp::service::RunningService;
use serde_json::{Value, json};

const APP: &str = "ui://zohn-ahl/board";

/// The one content of the resource at `uri`, as JSON.
async fn read(client: &RunningService<RoleClient, ()>, uri: &str) -> Value {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap_or_else(|e| panic!("{uri}: {e}"));
    assert_eq!(read.contents.len(), 1);
    serde_json::to_value(&read.contents[0]).unwrap()
}

fn text(content: &Value) -> &str {
    content["text"].as_str().expect("a text resource")
}

#[tokio::test]
async fn the_board_app_is_a_ui_resource_that_the_throw_board_and_create_tools_name() {
    let db = TestDb::new();
    let client = connect(&db).await;

    let listed = client.list_all_resources().await.unwrap();
    let app = listed
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .find(|r| r["uri"] == APP)
        .expect("the app in resources/list");
    assert_eq!(app["mimeType"], "text/html;profile=mcp-app");

    let view = read(&client, APP).await;
    assert_eq!(view["mimeType"], "text/html;profile=mcp-app");
    // Nothing to fetch from anywhere: the policy it asks for allows no
    // origin, and the page names none.
    assert_eq!(
        view["_meta"]["ui"]["csp"],
        json!({"connectDomains": [], "resourceDomains": []})
    );
    let html = text(&view);
    assert!(html.starts_with("<!doctype html>"), "{html:.40}");
    for outside in ["http://", "https://", "<script src", "<link", "@import"] {
        assert!(!html.contains(outside), "the view loads {outside}…");
    }
    for protocol in [
        "ui/initialize",
        "ui/notifications/initialized",
        "ui/notifications/tool-result",
        "tools/call",
        "resources/read",
    ] {
        assert!(html.contains(protocol), "the view never says {protocol}");
    }

    let tools = client.list_all_tools().await.unwrap();
    let mut naming: Vec<&str> = tools
        .iter()
        .filter(|t| {
            t.meta
                .as_ref()
                .and_then(|m| m.0.get("ui"))
                .and_then(|ui| ui.get("resourceUri"))
                == Some(&json!(APP))
        })
        .map(|t| t.name.as_ref())
        .collect();
    naming.sort_unstable();
    assert_eq!(naming, ["create_game", "get_board", "throw"]);

    let missing = client
        .read_resource(ReadResourceRequestParams::new("ui://zohn-ahl/other.html"))
        .await
        .unwrap_err();
    assert!(
        missing.to_string().contains("no resource has the URI"),
        "{missing}"
    );
}

#[tokio::test]
async fn the_board_as_text_shows_the_quarters_creeks_awls_and_counters() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let id = new_game(
        &client,
        json!({"side_a": "Ama", "side_b": "Bea", "seed": "board-text"}),
    )
    .await;

    let uri = format!("zohn-ahl://games/{id}/board.txt");
    let opening = read(&client, &uri).await;
    assert_eq!(opening["mimeType"], "text/plain");
    let board = text(&opening);
    let quarters: Vec<&str> = board
        .lines()
        .filter(|l| l.starts_with("Quarter "))
        .collect();
    assert_eq!(quarters.len(), 4, "{board}");
    for (q, line) in quarters.iter().enumerate() {
        assert_eq!(line.split_whitespace().count(), 2 + 10, "{line}");
        assert!(line.starts_with(&format!("Quarter {}:", q + 1)), "{line}");
    }
    // The south creek between the starts, both awls on their start, the
    // north creek, the dry branches.
    assert!(quarters[0].contains(" 1~A "), "{}", quarters[0]);
    assert!(quarters[3].ends_with(" 40~B"), "{}", quarters[3]);
    assert!(
        quarters[1].contains("20~") && quarters[2].contains("21~"),
        "{board}"
    );
    for branch in ["10|", "11|", "30|", "31|"] {
        assert!(board.contains(branch), "{branch}: {board}");
    }
    assert!(
        board.contains("Side A (Ama): awl on 1 (its own space 1), "),
        "{board}"
    );
    assert!(
        board.contains("Side B (Bea): awl on 40 (its own space 1), "),
        "{board}"
    );
    assert!(board.ends_with("Side A to throw (Ama)."), "{board}");

    // After some throws: each awl where the game says it is.
    ok(&call(&client, "throw", json!({"game_id": id, "count": 6})).await);
    let game = ok(&call(&client, "get_game", json!({"game_id": id})).await);
    let board = read(&client, &uri).await;
    let board = text(&board);
    let a = game["sides"][0]["space"].as_u64().unwrap();
    let b = game["sides"][1]["space"].as_u64().unwrap();
    let (ca, cb) = (&game["sides"][0]["counters"], &game["sides"][1]["counters"]);
    assert!(
        board.contains(&format!(
            "Side A (Ama): awl on {a} (its own space {a}), {ca} counters"
        )),
        "{board}"
    );
    assert!(
        board.contains(&format!(
            "Side B (Bea): awl on {} (its own space {b}), {cb} counters",
            41 - b
        )),
        "{board}"
    );
    let cells: Vec<(u64, String)> = board
        .lines()
        .filter(|l| l.starts_with("Quarter "))
        .flat_map(|l| l.split_whitespace().skip(2))
        .map(|c| {
            let digits = c.chars().take_while(char::is_ascii_digit).count();
            (c[..digits].parse().unwrap(), c[digits..].to_owned())
        })
        .collect();
    assert_eq!(cells.len(), 40, "{board}");
    let marked = |mark: char| -> Vec<u64> {
        cells
            .iter()
            .filter(|(_, m)| m.contains(mark))
            .map(|(n, _)| *n)
            .collect()
    };
    assert_eq!(marked('A'), [a], "{board}");
    assert_eq!(marked('B'), [41 - b], "{board}");
    assert_eq!(marked('~'), [1, 20, 21, 40], "{board}");
    assert_eq!(marked('|'), [10, 11, 30, 31], "{board}");
}
