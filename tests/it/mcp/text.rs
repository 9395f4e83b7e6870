//! What the model reads is enough: the text alone carries the ids and
//! tokens a next call needs, look-ups take what a text printed, `detail`
//! is an argument, the tool list is short, and every tool says what a host
//! needs to know before calling it.

use rmcp::RoleClient;
use rmcp::service::RunningService;
use serde_json::json;

use super::{call, connect, new_game, ok, refused, text_of};
use crate::common::TestDb;

/// The word after `label` in `text`, up to a comma, a space or a period.
fn after<'t>(text: &'t str, label: &str) -> &'t str {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {text}"))
        + label.len();
    text[at..]
        .split([',', ' ', '\n'])
        .next()
        .unwrap()
        .trim_end_matches('.')
}

/// `tools/list` was about 9,000 tokens, more than some hosts give every
/// tool together; then 3,987 of its 4,000, with no room for a new argument.
/// It keeps 300 tokens of room.
#[tokio::test]
async fn the_tool_list_leaves_300_of_its_4000_tokens() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let tools = client.list_all_tools().await.unwrap();
    let sent = serde_json::to_string(&json!({ "tools": tools })).unwrap();
    let tokens = sent.chars().count() / 4;
    eprintln!(
        "tools/list: {} characters, {tokens} tokens",
        sent.chars().count()
    );
    assert!(tokens <= 4_000 - 300, "{tokens} tokens");
}

/// No tool had a title or annotations, so a host asked the user to
/// confirm every throw and every look-up alike.
#[tokio::test]
async fn every_tool_has_a_title_and_the_hints_hosts_read() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let tools = client.list_all_tools().await.unwrap();
    for tool in &tools {
        let name = tool.name.as_ref();
        assert!(
            tool.title.as_deref().is_some_and(|t| !t.is_empty()),
            "{name}: a title"
        );
        let a = tool
            .annotations
            .as_ref()
            .unwrap_or_else(|| panic!("{name}"));
        let writes = ["create_game", "throw", "report_throw", "stop_game"].contains(&name);
        assert_eq!(a.read_only_hint, Some(!writes), "{name}");
        assert_eq!(a.destructive_hint, Some(name == "stop_game"), "{name}");
        assert_eq!(a.open_world_hint, Some(false), "{name}");
        assert!(a.idempotent_hint.is_some(), "{name}");
        assert!(a.title.is_none() || a.title == tool.title, "{name}");
    }
}

/// Seat tokens, and rule and fact ids, were only in `structuredContent`: a
/// host that forwards only the text could not play a seated game or look
/// an id up.
#[tokio::test]
async fn a_host_that_forwards_only_text_plays_a_seated_game() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = text_of(
        &call(
            &client,
            "create_game",
            json!({"seats": true, "seed": "text-only", "side_a": "Ama", "side_b": "Bea"}),
        )
        .await,
    );
    let id = after(&created, "Game ");
    let a = after(&created, " A ");
    let b = after(&created, " B ");
    let host = after(&created, "host ");
    assert_eq!(a.len(), 64, "{created}");
    let mut ids = Vec::new();
    let mut next = created.lines().last().unwrap().to_owned();
    for _ in 0..8 {
        // The side to move, as the text says it, throws with its token.
        let token = if next.contains("(A) throws") { a } else { b };
        let result = call(&client, "throw", json!({"game_id": id, "token": token})).await;
        ok(&result);
        let text = text_of(&result);
        if let Some(line) = text.lines().find(|l| l.starts_with("(ids: ")) {
            ids.push(line.to_owned());
        }
        next = text.lines().last().unwrap().to_owned();
    }
    assert_eq!(host.len(), 64, "{created}");
    assert!(!ids.is_empty());
    // An id as the text prints it is looked up as it is.
    let rule = ids[0]
        .trim_start_matches("(ids: rules ")
        .split([',', ';', ')'])
        .next()
        .unwrap();
    ok(&call(&client, "explain_rule", json!({"rule_id": rule})).await);
}

/// `get_fact("women")` and a citation pasted as printed (`culin1907 pp.
/// 124-130`) failed with no suggestion.
#[tokio::test]
async fn look_ups_take_a_citation_as_printed_and_suggest_the_nearest_ids() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let source = ok(&call(
        &client,
        "get_source",
        json!({"source_id": "culin1907 pp. 124-130"}),
    )
    .await);
    assert_eq!(source["source_id"], "culin1907");
    let bracketed = ok(&call(
        &client,
        "get_source",
        json!({"source_id": "[wp-zohnahl; ludii-zohnahl]"}),
    )
    .await);
    assert_eq!(bracketed["source_id"], "wp-zohnahl");
    let fact = ok(&call(&client, "get_fact", json!({"fact_id": "fact womens-game"})).await);
    assert_eq!(fact["fact_id"], "womens-game");

    let women = refused(&call(&client, "get_fact", json!({"fact_id": "women"})).await);
    assert!(
        women.starts_with("no fact has the id women; nearest: womens-game"),
        "{women}"
    );
    let culin = refused(&call(&client, "get_source", json!({"source_id": "culin1908"})).await);
    assert!(culin.contains("nearest: culin1907"), "{culin}");
}

/// Players' names could not be set from a chat; the first to throw is
/// side A's first player.
#[tokio::test]
async fn players_names_are_set_where_games_are_created() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = ok(&call(
        &client,
        "create_game",
        json!({"preset": "ludii", "side_a": "Foxes", "side_b": "Owls",
               "players_a": ["Ama", "Alo"], "players_b": ["Bea", "Ben"]}),
    )
    .await);
    assert_eq!(created["game"]["to_throw_player"], "Ama");
    let moved = ok(&call(
        &client,
        "throw",
        json!({"game_id": created["game"]["game_id"]}),
    )
    .await);
    assert_eq!(moved["move"]["player"], "Ama");
    let too_many = refused(&call(&client, "create_game", json!({"players_a": vec!["P"; 9]})).await);
    assert!(
        too_many.contains("`players_a`: must list from 1 to 8 names, got 9"),
        "{too_many}"
    );
}

/// `detail` is an argument of `throw` and `list_moves`: a game told at
/// `lesson` can be read `brief`, one sentence a move.
#[tokio::test]
async fn detail_is_an_argument_of_the_throw_and_the_move_log() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let tools = client.list_all_tools().await.unwrap();
    for name in ["throw", "list_moves"] {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        assert_eq!(
            tool.input_schema["properties"]["detail"]["enum"],
            json!(["lesson", "brief", "full"]),
            "{name}"
        );
    }
    let id = new_game(&client, json!({"seed": "detail-arg"})).await;
    let brief = text_of(&call(&client, "throw", json!({"game_id": id, "detail": "brief"})).await);
    let lesson_log = text_of(&call(&client, "list_moves", json!({"game_id": id})).await);
    let brief_log = text_of(
        &call(
            &client,
            "list_moves",
            json!({"game_id": id, "detail": "brief"}),
        )
        .await,
    );
    assert!(
        brief_log.len() < lesson_log.len(),
        "{brief_log}\n{lesson_log}"
    );
    // The sentence, after the first move's framing and before where the
    // game stands.
    let sentence = brief.lines().rev().nth(1).unwrap();
    assert!(
        brief_log.starts_with(&format!("1. {}", sentence.split(" [").next().unwrap())),
        "{brief_log}\n{brief}"
    );
}

/// A game id lost from the chat could not be found again, and games were
/// no resources: `list_games` gives back this session's games, and a
/// game, its move log and its board are resources by template.
#[tokio::test]
async fn a_sessions_games_are_listed_and_each_is_a_resource() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let none = call(&client, "list_games", json!({})).await;
    assert_eq!(ok(&none)["games"], json!([]));
    let first = new_game(&client, json!({"seed": "listed-1", "side_a": "Ama"})).await;
    let second = new_game(&client, json!({"seed": "listed-2", "preset": "a4"})).await;
    ok(&call(&client, "throw", json!({"game_id": first, "count": 3})).await);
    let listed = call(&client, "list_games", json!({})).await;
    let games = ok(&listed)["games"].clone();
    assert_eq!(games[0]["game_id"], first.as_str());
    assert_eq!(games[1]["game_id"], second.as_str());
    assert_eq!(games[0]["throws"], 3);
    assert!(text_of(&listed).contains(&format!("Game {first} (composite)")));
    // Another connection has its own list.
    let other = connect(&db).await;
    assert_eq!(
        ok(&call(&other, "list_games", json!({})).await)["games"],
        json!([])
    );

    // A game's answers link its resources.
    let created = call(&client, "create_game", json!({})).await;
    let id = ok(&created)["game"]["game_id"].as_str().unwrap().to_owned();
    let links: Vec<String> = created
        .content
        .iter()
        .filter_map(|c| c.as_resource_link().map(|l| l.uri.clone()))
        .collect();
    assert_eq!(
        links,
        [
            format!("zohn-ahl://games/{id}"),
            format!("zohn-ahl://games/{id}/moves"),
            format!("zohn-ahl://games/{id}/board.svg"),
            format!("zohn-ahl://games/{id}/board.txt")
        ]
    );
    let thrown = call(&client, "throw", json!({"game_id": id, "count": 2})).await;
    assert!(thrown.content.iter().any(|c| {
        c.as_resource_link()
            .is_some_and(|l| l.uri.ends_with("/board.svg"))
    }));

    let templates = client.list_all_resource_templates().await.unwrap();
    let uris: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert_eq!(
        uris,
        [
            "zohn-ahl://games/{game_id}",
            "zohn-ahl://games/{game_id}/moves",
            "zohn-ahl://games/{game_id}/board.svg",
            "zohn-ahl://games/{game_id}/board.txt"
        ]
    );
    let read = |uri: String| {
        let client = &client;
        async move {
            let r = client
                .read_resource(rmcp::model::ReadResourceRequestParams::new(uri))
                .await
                .unwrap();
            match &r.contents[0] {
                rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
                other => panic!("{other:?}"),
            }
        }
    };
    let game: serde_json::Value =
        serde_json::from_str(&read(format!("zohn-ahl://games/{first}")).await).unwrap();
    assert_eq!(game["throws"], 3);
    let moves = read(format!("zohn-ahl://games/{first}/moves")).await;
    assert_eq!(moves.lines().count(), 3, "{moves}");
    assert!(moves.starts_with("1. "), "{moves}");
    let board = read(format!("zohn-ahl://games/{second}/board.svg")).await;
    assert!(board.contains("<svg"), "{board:.80}");
    let missing = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "zohn-ahl://games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79",
        ))
        .await
        .unwrap_err();
    assert!(
        missing.to_string().contains("no game has the id"),
        "{missing}"
    );
}

/// Hosts could complete neither the prompt's arguments nor a game
/// resource's id.
#[tokio::test]
async fn the_prompts_arguments_and_a_game_resources_id_complete() {
    use rmcp::model::{ArgumentInfo, CompleteRequestParams, Reference};
    let db = TestDb::new();
    let client = connect(&db).await;
    let complete = async |r: Reference, name: &str, typed: &str| {
        client
            .complete(CompleteRequestParams::new(
                r,
                ArgumentInfo::new(name, typed),
            ))
            .await
            .unwrap()
            .completion
            .values
    };
    let prompt = || Reference::for_prompt("teach_by_playing");
    assert_eq!(complete(prompt(), "audience", "y").await, ["young"]);
    assert_eq!(complete(prompt(), "preset", "cu").await, ["culin1898"]);
    let id = new_game(&client, json!({})).await;
    let game = || Reference::for_resource("zohn-ahl://games/{game_id}");
    assert_eq!(complete(game(), "game_id", &id[..4]).await, vec![id]);
    assert!(complete(game(), "game_id", "zz").await.is_empty());
}

/// The board reached the model as an inline PNG of about 196 KB; it is
/// sent at half size, within 40 KB, for every preset, names and all.
#[tokio::test]
async fn regression_the_board_was_a_196_kb_png() {
    use base64::Engine as _;
    let db = TestDb::new();
    let client = connect(&db).await;
    let mut largest = 0;
    for preset in ["composite", "culin1898", "ludii", "a4", "boxed"] {
        let id = new_game(
            &client,
            json!({"preset": preset, "seed": "png", "side_a": "🦊 Foxes of the North", "side_b": "Owls"}),
        )
        .await;
        ok(&call(&client, "throw", json!({"game_id": id, "count": 12})).await);
        let board = call(&client, "get_board", json!({"game_id": id})).await;
        let image = board
            .content
            .iter()
            .find_map(|c| c.as_image().cloned())
            .expect("an image");
        let png = base64::engine::general_purpose::STANDARD
            .decode(&image.data)
            .unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        largest = largest.max(png.len());
    }
    eprintln!("largest board PNG: {largest} bytes");
    assert!(largest <= 40 * 1024, "{largest} bytes");
}

/// Regression: only `create_game` and `throw` linked the game's
/// resources; a host that follows links from any other answer about a game
/// (reading it, its moves, its odds, its board, stopping it, a reported
/// throw, the session's list) found none. Every such answer now links the
/// game's other resources, and each link reads.
#[tokio::test]
async fn regression_only_two_tools_linked_a_games_resources() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let id = new_game(&client, json!({"seed": "linked"})).await;
    ok(&call(&client, "throw", json!({"game_id": id, "count": 2})).await);
    let game = format!("zohn-ahl://games/{id}");
    let moves = format!("{game}/moves");
    let board = format!("{game}/board.svg");
    let text_board = format!("{game}/board.txt");
    for (tool, args, expected) in [
        (
            "get_game",
            json!({"game_id": id}),
            vec![&moves, &board, &text_board],
        ),
        (
            "list_moves",
            json!({"game_id": id}),
            vec![&game, &board, &text_board],
        ),
        ("get_odds", json!({"game_id": id}), vec![&game]),
        (
            "get_board",
            json!({"game_id": id}),
            vec![&game, &moves, &board, &text_board],
        ),
        // A past board is not the board resource, the board now.
        (
            "get_board",
            json!({"game_id": id, "move": 1}),
            vec![&game, &moves],
        ),
        ("list_games", json!({}), vec![&game]),
        (
            "stop_game",
            json!({"game_id": id}),
            vec![&game, &moves, &board, &text_board],
        ),
    ] {
        let links = links_that_read(&client, tool, args.clone()).await;
        assert_eq!(links.iter().collect::<Vec<_>>(), expected, "{tool} {args}");
    }
}

/// Regression: `get_source` and `get_lesson` answered with no link, so a
/// host that follows links could not open the source's CSL-JSON item or
/// the lesson as a resource. Each now links its resource (a source found
/// from a citation pasted as printed included), and each link reads.
#[tokio::test]
async fn regression_the_source_and_lesson_answers_linked_no_resource() {
    let db = TestDb::new();
    let client = connect(&db).await;
    for (tool, args, expected) in [
        (
            "get_source",
            json!({"source_id": "culin1898"}),
            "zohn-ahl://sources/culin1898",
        ),
        (
            "get_source",
            json!({"source_id": "culin1898, pp. 687-689"}),
            "zohn-ahl://sources/culin1898",
        ),
        (
            "get_lesson",
            json!({"preset": "a4"}),
            "zohn-ahl://lessons/a4",
        ),
        ("get_lesson", json!({}), "zohn-ahl://lessons/composite"),
    ] {
        let links = links_that_read(&client, tool, args.clone()).await;
        assert_eq!(links, [expected], "{tool} {args}");
    }
    let refused = call(&client, "get_source", json!({"source_id": "nobody1900"})).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        refused
            .content
            .iter()
            .all(|c| c.as_resource_link().is_none())
    );
}

/// The URIs of the resource links in `tool`'s answer to `args`, in order,
/// once the answer is checked to be no error and each link to read.
async fn links_that_read(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    args: serde_json::Value,
) -> Vec<String> {
    let result = call(client, tool, args.clone()).await;
    assert_ne!(
        result.is_error,
        Some(true),
        "{tool} {args}: {}",
        text_of(&result)
    );
    let links: Vec<String> = result
        .content
        .iter()
        .filter_map(|c| c.as_resource_link().map(|l| l.uri.clone()))
        .collect();
    for uri in &links {
        let read = client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(uri.clone()))
            .await;
        assert!(read.is_ok(), "{tool}: {uri} does not read: {read:?}");
    }
    links
}
