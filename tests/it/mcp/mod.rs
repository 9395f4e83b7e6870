//! The Model Context Protocol surface: an in-process client over a pipe,
//! and a real HTTP client against the server bound to a port.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
mod app;
mod chart;
mod contract;
mod runs;
mod text;
mod transport;

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, GetPromptRequestParams};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use zohn_ahl::mcp::ZohnAhl;

use common::{TestDb, spawn_server_with_mcp};

/// The most characters a throw's text block may have: 300 tokens at four
/// characters a token (a conservative average for English prose with
/// short citations; tokenizers of current models give 4 to 4.5).
const THROW_TEXT_BUDGET: usize = 300 * 4;

const TOOLS: [&str; 16] = [
    "create_game",
    "list_games",
    "throw",
    "report_throw",
    "get_game",
    "list_moves",
    "stop_game",
    "get_odds",
    "explain_rule",
    "get_fact",
    "get_lesson",
    "get_source",
    "search_glossary",
    "get_board",
    "get_recap",
    "get_chances_chart",
];

async fn connect(db: &TestDb) -> RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = ZohnAhl::new(db.service().await);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("client connects")
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool} failed at the protocol level: {e}"))
}

/// A new game made with `args`: its id.
async fn new_game(client: &RunningService<RoleClient, ()>, args: Value) -> String {
    let created = ok(&call(client, "create_game", args).await);
    created["game"]["game_id"].as_str().unwrap().to_owned()
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| match c {
            ContentBlock::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ok(result: &CallToolResult) -> Value {
    assert_ne!(
        result.is_error,
        Some(true),
        "tool error: {}",
        text_of(result)
    );
    result.structured_content.clone().unwrap_or(Value::Null)
}

fn refused(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "expected an error: {result:?}");
    text_of(result)
}

/// Every `type` in a schema, recursively.
fn types(schema: &Value, out: &mut Vec<Value>) {
    match schema {
        Value::Object(m) => {
            if let Some(t) = m.get("type") {
                out.push(t.clone());
            }
            m.values().for_each(|v| types(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| types(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_server_names_itself_and_lists_every_tool_with_portable_schemas() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let info = client.peer_info().expect("server info");
    let me = info.server_info.clone().expect("the server names itself");
    assert_eq!(me.name, "zohn-ahl");
    assert_eq!(me.version, zohn_ahl::service::API_VERSION);
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("create_game")
    );

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    let mut want = TOOLS.to_vec();
    want.sort_unstable();
    assert_eq!(names, want);
    for tool in &tools {
        let schema = Value::Object((*tool.input_schema).clone());
        assert_eq!(schema["type"], "object", "{}", tool.name);
        let mut ts = Vec::new();
        types(&schema, &mut ts);
        // One type per schema (no `["string", "null"]`), and never free JSON.
        for t in &ts {
            assert!(t.is_string(), "{}: type {t}", tool.name);
        }
        for schema in [
            Some(schema.clone()),
            tool.output_schema
                .as_ref()
                .map(|s| Value::Object((**s).clone())),
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                !schema.to_string().contains("\"format\":\"uint"),
                "{}: no integer widths as formats",
                tool.name
            );
        }
        assert!(
            tool.description.as_deref().is_some_and(|d| d.len() <= 300),
            "{}: a short description",
            tool.name
        );
    }
    let throw = tools.iter().find(|t| t.name == "throw").unwrap();
    let props = &throw.input_schema["properties"];
    assert!(props.get("sticks").is_none(), "throw never takes sticks");
    assert!(throw.output_schema.is_some(), "throw has an output schema");
    let create = tools.iter().find(|t| t.name == "create_game").unwrap();
    assert_eq!(
        create.input_schema["properties"]["preset"]["enum"],
        json!(["composite", "culin1898", "ludii", "a4", "boxed"])
    );
}

#[tokio::test]
async fn a_whole_game_is_played_with_the_tools_alone() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = ok(&call(
        &client,
        "create_game",
        json!({"side_a": "Ama", "side_b": "Bea", "seed": "mcp-1"}),
    )
    .await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    assert_eq!(created["game"]["to_throw"], "A");
    assert_eq!(created["tokens"]["a"], "");

    let mut last = Value::Null;
    for n in 1..=2000u32 {
        let result = call(&client, "throw", json!({"game_id": id})).await;
        let out = ok(&result);
        assert_eq!(out["move"]["n"], n);
        let text = text_of(&result);
        // The first line is the move's number and its caption (at most 100
        // characters).
        let first = text.lines().next().unwrap();
        let caption = first.strip_prefix(&format!("Move {n}: ")).expect(&text);
        assert!(
            !caption.is_empty() && caption.chars().count() <= 100,
            "{text}"
        );
        assert!(text.contains('['), "cited: {text}");
        last = out;
        if last["game"]["status"] == "finished" {
            break;
        }
    }
    assert_eq!(last["game"]["status"], "finished");
    let winner = last["game"]["winner"].as_str().unwrap();
    assert!(winner == "A" || winner == "B");
    let side = &last["game"]["sides"][if winner == "A" { 0 } else { 1 }];
    assert_eq!(side["counters"], 8, "the winner holds every counter");

    let again = refused(&call(&client, "throw", json!({"game_id": id})).await);
    assert_eq!(
        again,
        "Game over: the game is finished; no more throws or stops are played"
    );
    let game = ok(&call(&client, "get_game", json!({"game_id": id})).await);
    assert_eq!(game, last["game"]);
    let moves = ok(&call(&client, "list_moves", json!({"game_id": id, "limit": 3})).await);
    assert_eq!(moves["moves"].as_array().unwrap().len(), 3);
    assert_eq!(moves["next_after"], 3);
}

#[tokio::test]
async fn a_throws_text_block_stays_within_its_budget_in_every_audience_and_preset() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let mut longest = (0, String::new());
    for preset in ["composite", "culin1898", "ludii", "a4", "boxed"] {
        for audience in ["young", "general", "scholar"] {
            for seed in 0..3 {
                let created = ok(&call(
                    &client,
                    "create_game",
                    json!({"preset": preset, "audience": audience, "seed": format!("budget-{seed}")}),
                )
                .await);
                let id = created["game"]["game_id"].as_str().unwrap().to_owned();
                for _ in 0..60 {
                    let result = call(&client, "throw", json!({"game_id": id})).await;
                    let out = ok(&result);
                    let text = text_of(&result);
                    if text.chars().count() > longest.0 {
                        longest = (text.chars().count(), text);
                    }
                    if out["game"]["status"] == "finished" {
                        break;
                    }
                }
            }
        }
    }
    assert!(
        longest.0 <= THROW_TEXT_BUDGET,
        "{} characters (budget {THROW_TEXT_BUDGET}):\n{}",
        longest.0,
        longest.1
    );
}

/// Move 101 of this seeded A4 game (a whip, a landing on a dry gully that
/// takes the extra throw, the other side's turn forfeited), told for
/// scholars, was 1,288 characters when only the optional sentences gave
/// way.
#[tokio::test]
async fn a_scholar_a4_move_with_a_whip_and_a_dry_gully_stays_within_the_budget() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = ok(&call(
        &client,
        "create_game",
        json!({"preset": "a4", "audience": "scholar", "seed": "bulk-a4-scholar-0", "side_a": "Ama", "side_b": "Bea"}),
    )
    .await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    for n in 1..=140 {
        let result = call(&client, "throw", json!({"game_id": id})).await;
        let out = ok(&result);
        let text = text_of(&result);
        assert!(
            text.chars().count() <= THROW_TEXT_BUDGET,
            "move {n}: {} characters:\n{text}",
            text.chars().count()
        );
        if out["game"]["status"] == "finished" {
            break;
        }
    }
}

/// A game created `brief` is told one sentence a move, in the throw's
/// answer and in the move log; the tool lists the levels and refuses
/// another in the product's words.
#[tokio::test]
async fn create_game_with_detail_brief_tells_each_throw_in_one_sentence() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let create = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == "create_game")
        .unwrap();
    let detail = &create.input_schema["properties"]["detail"];
    assert_eq!(detail["enum"], json!(["lesson", "brief", "full"]));
    assert!(detail["description"].as_str().unwrap().contains("brief"));

    let mut first_moves = Vec::new();
    for level in ["brief", "lesson"] {
        let created = ok(&call(
            &client,
            "create_game",
            json!({"seed": "mcp-detail", "detail": level}),
        )
        .await);
        let id = created["game"]["game_id"].as_str().unwrap().to_owned();
        let mut texts = Vec::new();
        for _ in 0..6 {
            texts.push(text_of(
                &call(&client, "throw", json!({"game_id": id})).await,
            ));
        }
        let log = call(&client, "list_moves", json!({"game_id": id, "limit": 6})).await;
        ok(&log);
        if level == "brief" {
            for (i, text) in texts.iter().enumerate() {
                // The caption, the one sentence with its citations, and
                // where the game stands; the first move's one-line
                // framing before the sentence.
                let framing = usize::from(i == 0);
                assert_eq!(text.lines().count(), 3 + framing, "{text}");
                if i == 0 {
                    assert!(
                        text.lines().nth(1).unwrap().contains("Kiowa race game"),
                        "{text}"
                    );
                }
            }
            for line in text_of(&log).lines() {
                let (n, sentence) = line.split_once(". ").unwrap();
                let n: usize = n.parse().unwrap();
                assert!(
                    texts[n - 1]
                        .lines()
                        .rev()
                        .nth(1)
                        .unwrap()
                        .starts_with(sentence),
                    "{line}"
                );
            }
        }
        first_moves.push(texts.swap_remove(0));
    }
    assert!(
        first_moves[0].chars().count() < first_moves[1].chars().count(),
        "the lesson's first move says more than the brief one: {first_moves:?}"
    );

    let nope = refused(&call(&client, "create_game", json!({"detail": "nope"})).await);
    assert_eq!(
        nope,
        "`detail`: must be one of: lesson, brief, full, got \"nope\""
    );
}

#[tokio::test]
async fn errors_are_said_in_the_products_words() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let bad_id = refused(&call(&client, "throw", json!({"game_id": "nope"})).await);
    assert!(bad_id.starts_with("`game_id`: "), "{bad_id}");
    let unknown = refused(
        &call(
            &client,
            "get_game",
            json!({"game_id": "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"}),
        )
        .await,
    );
    assert_eq!(
        unknown,
        "Game not found: no game has the id 0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"
    );
    let preset = refused(&call(&client, "create_game", json!({"preset": "chess"})).await);
    assert_eq!(
        preset,
        "`preset`: must be one of: composite, culin1898, ludii, a4, boxed, got \"chess\""
    );
    let limit = refused(
        &call(
            &client,
            "list_moves",
            json!({"game_id": "x", "limit": "many"}),
        )
        .await,
    );
    assert!(limit.starts_with("`limit`: "), "{limit}");
    assert!(!limit.contains("u32"), "no Rust type names: {limit}");
    let name = refused(&call(&client, "create_game", json!({"side_a": "  "})).await);
    assert_eq!(
        name,
        "Invalid request: `side_a`: must be from 1 to 40 characters, got 0"
    );
    let extra = refused(&call(&client, "throw", json!({"game_id": "x", "sticks": []})).await);
    assert!(extra.contains("unknown field `sticks`"), "{extra}");
}

#[tokio::test]
async fn a_seated_game_needs_the_movers_token_and_a_report_needs_sticks() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = ok(&call(&client, "create_game", json!({"seats": true, "seed": "s"})).await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    let a = created["tokens"]["a"].as_str().unwrap().to_owned();
    let b = created["tokens"]["b"].as_str().unwrap().to_owned();
    assert_eq!(a.len(), 64);
    // The pupils' join codes, in the structured output and in the text a
    // host may forward alone (a teacher's chatbot had no way to them).
    let codes = created["tokens"]["join_codes"].as_array().unwrap().clone();
    assert_eq!(codes.len(), 2);
    for code in &codes {
        assert_eq!(code.as_str().unwrap().len(), 6, "{code}");
    }
    let created_text =
        text_of(&call(&client, "create_game", json!({"seats": true, "seed": "t"})).await);
    assert!(
        created_text.contains("Join codes for the pupils, typed at this server's /join page: A "),
        "{created_text}"
    );
    // Side B's code opens side B's seat of this game, with its token.
    let code = zohn_ahl::domain::JoinCode::parse(codes[1].as_str().unwrap()).unwrap();
    let joined = db.service().await.join(&code).await.unwrap();
    assert_eq!(joined.game.to_string(), id);
    assert_eq!(joined.side, zohn_ahl::rules::Side::B);
    assert_eq!(joined.token.as_str(), b);
    let none = refused(&call(&client, "throw", json!({"game_id": id})).await);
    assert!(none.starts_with("Seat token required: "), "{none}");
    // A tool takes the token as an argument: no HTTP header is asked for.
    assert!(none.ends_with("in the `token` argument"), "{none}");
    assert!(!none.contains("Authorization"), "{none}");
    let wrong = refused(&call(&client, "throw", json!({"game_id": id, "token": b})).await);
    assert!(wrong.starts_with("Not your seat: "), "{wrong}");
    ok(&call(&client, "throw", json!({"game_id": id, "token": a})).await);
    let three = refused(
        &call(
            &client,
            "report_throw",
            json!({"game_id": id, "sticks": ["flat", "flat", "round"]}),
        )
        .await,
    );
    assert_eq!(
        three,
        "`sticks`: must list four faces, the sahe last, got 3"
    );
}

#[tokio::test]
async fn a_reported_throw_plays_the_faces_sent() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = ok(&call(&client, "create_game", json!({})).await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    let out = ok(&call(
        &client,
        "report_throw",
        json!({"game_id": id, "sticks": ["flat", "round", "flat", "flat"]}),
    )
    .await);
    assert_eq!(out["move"]["origin"], "reported");
    assert_eq!(
        out["move"]["sticks"],
        json!(["flat", "round", "flat", "flat"])
    );
    assert_eq!(out["move"]["value"], 3);
    assert_eq!(out["move"]["to"], 4);
}

#[tokio::test]
async fn references_resources_prompt_and_board_resolve() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let rule = call(&client, "explain_rule", json!({"rule_id": "sticks_sahe"})).await;
    assert!(text_of(&rule).contains("sahe"), "{}", text_of(&rule));
    assert!(
        text_of(&rule).contains(" [wp-zohnahl"),
        "cited: {}",
        text_of(&rule)
    );
    let fact = call(&client, "get_fact", json!({"fact_id": "womens-game"})).await;
    assert!(text_of(&fact).contains("(evidence: "), "{}", text_of(&fact));
    let bib = call(
        &client,
        "get_source",
        json!({"source_id": "culin1907", "format": "bibtex"}),
    )
    .await;
    assert!(text_of(&bib).starts_with('@'), "{}", text_of(&bib));
    let missing = refused(&call(&client, "get_source", json!({"source_id": "nobody"})).await);
    assert!(
        missing.starts_with("no source has the id nobody"),
        "{missing}"
    );
    let glossary = call(&client, "search_glossary", json!({"query": "sahe"})).await;
    assert!(text_of(&glossary).to_lowercase().contains("sahe"));
    let lesson = call(
        &client,
        "get_lesson",
        json!({"preset": "culin1898", "audience": "young"}),
    )
    .await;
    assert!(text_of(&lesson).starts_with("# "));

    let resources = client.list_all_resources().await.unwrap();
    let catalogue = zohn_ahl::narration::catalogue();
    let sources = resources
        .iter()
        .filter(|r| r.uri.contains("/sources/"))
        .count();
    assert_eq!(sources, catalogue.sources.len(), "one resource per source");
    let lessons = resources
        .iter()
        .filter(|r| r.uri.contains("/lessons/"))
        .count();
    assert_eq!(lessons, 5, "one lesson per preset");
    for r in &resources {
        let read = client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(r.uri.clone()))
            .await
            .unwrap();
        assert_eq!(read.contents.len(), 1, "{}", r.uri);
    }

    let prompts = client.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    let mut args = serde_json::Map::new();
    args.insert("audience".into(), json!("young"));
    let prompt = client
        .get_prompt(GetPromptRequestParams::new(prompts[0].name.clone()).with_arguments(args))
        .await
        .unwrap();
    let said = serde_json::to_string(&prompt.messages).unwrap();
    assert!(
        said.contains("create_game") && said.contains("children"),
        "{said}"
    );

    let created = ok(&call(&client, "create_game", json!({})).await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    let board = call(&client, "get_board", json!({"game_id": id})).await;
    let image = board
        .content
        .iter()
        .find_map(|c| match c {
            ContentBlock::Image(i) => Some(i.clone()),
            _ => None,
        })
        .expect("an image");
    assert_eq!(image.mime_type, "image/png");
    use base64::Engine as _;
    let png = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[actix_web::test]
async fn over_http_the_tools_share_the_service_with_rest() {
    let (_db, server) = spawn_server_with_mcp().await;
    let base = server.base.clone();
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(format!("{base}/mcp"));
    let client = ().serve(transport).await.expect("connects over HTTP");
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names.len(), TOOLS.len());
    let created = ok(&call(&client, "create_game", json!({"seed": "http"})).await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    let thrown = ok(&call(&client, "throw", json!({"game_id": id})).await);
    assert_eq!(thrown["move"]["n"], 1);

    // The REST API of the same server sees the move made over MCP.
    let http = reqwest::Client::new();
    let game: Value = http
        .get(format!("{base}/v1/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(game["throws"], 1);
    client.cancel().await.unwrap();
}

#[actix_web::test]
async fn the_mcp_endpoint_refuses_a_host_it_does_not_know() {
    let (_db, server) = spawn_server_with_mcp().await;
    let base = server.base.clone();
    let res = reqwest::Client::new()
        .post(format!("{base}/mcp"))
        .header("host", "zohn.example")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 403);
    // The REST API is not behind that check.
    let res = reqwest::Client::new()
        .get(format!("{base}/healthz"))
        .header("host", "zohn.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
}

/// A finished game's recap as a tool: refused while the game is in play,
/// then the summary and three to five questions with their answers, the
/// same numbers as the service's recap.
#[tokio::test]
async fn get_recap_looks_back_on_a_finished_game_and_refuses_one_in_play() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let id = new_game(&client, json!({"seed": "mcp-recap", "detail": "brief"})).await;
    let early = call(&client, "get_recap", json!({"game_id": id})).await;
    assert_eq!(early.is_error, Some(true));
    let text = early.content[0].as_text().unwrap().text.clone();
    assert!(text.contains("still being played"), "{text}");
    call(
        &client,
        "throw",
        json!({"game_id": id, "until": "game_end"}),
    )
    .await;
    let recap = call(&client, "get_recap", json!({"game_id": id})).await;
    let out = ok(&recap);
    let questions = out["questions"].as_array().unwrap();
    assert!((3..=5).contains(&questions.len()), "{out:#}");
    let text = recap.content[0].as_text().unwrap().text.clone();
    assert!(
        text.contains("Questions for the class:") && text.contains("Answer:"),
        "{text}"
    );
    let service = db.service().await;
    let game_id = zohn_ahl::domain::GameId::parse(&id).unwrap();
    let direct = service
        .recap(&zohn_ahl::odds::Solver::shared(), game_id, None, None)
        .await
        .unwrap();
    assert_eq!(out["moves"], direct.facts.moves);
    assert_eq!(out["summary"], json!(direct.text.summary));
    assert_eq!(
        out["questions"][0]["answer"],
        json!(direct.text.questions[0].answer)
    );
}
