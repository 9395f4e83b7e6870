//! Several throws in one call: what a whole game costs a chatbot (calls,
//! and tokens of text at four characters a token), where a run stops, the
//! seats it respects, and that each of its throws is stored as a single
//! throw is.

use serde_json::{Value, json};

use super::{call, connect, new_game, ok, refused, text_of};
use crate::common::{TestDb, spawn_server_with_mcp};

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// Play a whole game of `preset` with `throw` called with `args` until it
/// is over; the calls made (creation included) and the characters of text
/// read.
async fn whole_game(client: &Client, preset: &str, seed: &str, args: &Value) -> (u32, usize, u32) {
    let created = call(
        client,
        "create_game",
        json!({"preset": preset, "seed": seed}),
    )
    .await;
    let id = ok(&created)["game"]["game_id"].as_str().unwrap().to_owned();
    let mut calls = 1;
    let mut chars = text_of(&created).chars().count();
    loop {
        let mut a = args.clone();
        a["game_id"] = json!(id);
        let result = call(client, "throw", a).await;
        let out = ok(&result);
        calls += 1;
        chars += text_of(&result).chars().count();
        if out["game"]["status"] == "finished" {
            return (calls, chars, out["game"]["throws"].as_u64().unwrap() as u32);
        }
        assert!(calls < 10_000, "the game never ends");
    }
}

/// A whole composite game took 288 calls and about 55,000 tokens of text,
/// one throw a call. In runs of 30 throws at the game's `lesson` detail,
/// over HTTP with a real client, every seeded game here is played in at
/// most 20 calls and 12,000 tokens (characters / 4).
#[actix_web::test]
async fn a_whole_composite_game_takes_at_most_20_calls_and_12000_tokens_of_text() {
    let (_db, server) = spawn_server_with_mcp().await;
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(format!("{}/mcp", server.base));
    let client = rmcp::ServiceExt::serve((), transport).await.unwrap();
    let mut worst = (0, 0, 0, String::new());
    for seed in 0..8 {
        let seed = format!("whole-{seed}");
        let (calls, chars, throws) =
            whole_game(&client, "composite", &seed, &json!({"count": 30})).await;
        eprintln!("composite {seed}: {throws} throws, {calls} calls, {chars} characters");
        assert!(calls <= 20, "{seed}: {calls} calls for {throws} throws");
        assert!(
            chars / 4 <= 12_000,
            "{seed}: {} tokens for {throws} throws",
            chars / 4
        );
        worst = worst.max((chars, calls, throws, seed));
    }
    eprintln!("longest text: {worst:?}");
    client.cancel().await.unwrap();
}

/// A `ludii` game took 5,085 calls; played until its end, 500 throws a
/// call at most, it takes at most 40.
#[actix_web::test]
async fn a_whole_ludii_game_takes_at_most_40_calls() {
    let (_db, server) = spawn_server_with_mcp().await;
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(format!("{}/mcp", server.base));
    let client = rmcp::ServiceExt::serve((), transport).await.unwrap();
    let (calls, chars, throws) = whole_game(
        &client,
        "ludii",
        "whole-ludii",
        &json!({"until": "game_end"}),
    )
    .await;
    eprintln!("ludii: {throws} throws, {calls} calls, {chars} characters");
    assert!(calls <= 40, "{calls} calls for {throws} throws");
    client.cancel().await.unwrap();
}

/// Where a run stops: after the number asked for, after the throw that
/// brings an event, after the throw that ends the turn; the text has one
/// line a plain move and the state after.
#[tokio::test]
async fn a_run_stops_after_its_count_its_event_or_its_turn() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let id = new_game(&client, json!({"seed": "runs", "detail": "brief"})).await;

    let five = call(&client, "throw", json!({"game_id": id, "count": 5})).await;
    let out = ok(&five);
    assert_eq!(out["played"], 5);
    assert_eq!(out["stopped"], "count");
    assert_eq!(out["move"]["n"], 5);
    let text = text_of(&five);
    let lines: Vec<&str> = text.lines().collect();
    // The head, one line a throw at `brief`, and where the game stands.
    assert_eq!(lines.len(), 7, "{text}");
    assert!(
        lines[0].starts_with(&format!("Moves 1-5 of game {id} (5 throws)")),
        "{text}"
    );
    for (i, line) in lines[1..6].iter().enumerate() {
        assert!(line.starts_with(&format!("{}. ", i + 1)), "{text}");
        assert!(line.contains(" ["), "cited: {line}");
    }
    assert!(lines[6].starts_with("Counters: "), "{text}");

    let plain = ["moved", "passed_north_creek", "throws_again", "turn_passed"];
    let event = ok(&call(&client, "throw", json!({"game_id": id, "until": "event"})).await);
    let events: Vec<&str> = event["move"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(event["stopped"], "event");
    assert!(events.iter().any(|e| !plain.contains(e)), "{events:?}");

    let turn = ok(&call(
        &client,
        "throw",
        json!({"game_id": id, "until": "turn_end"}),
    )
    .await);
    assert_eq!(turn["stopped"], "turn_end");
    assert_ne!(turn["move"]["side"], turn["game"]["to_throw"]);

    for (args, said) in [
        (
            json!({"count": 0}),
            "`count`: must be a whole number from 1 to 500, got 0",
        ),
        (
            json!({"count": 501}),
            "`count`: must be a whole number from 1 to 500, got 501",
        ),
        (
            json!({"until": "lunch"}),
            "`until`: must be one of: event, turn_end, game_end, got \"lunch\"",
        ),
    ] {
        let mut args = args;
        args["game_id"] = json!(id);
        assert_eq!(refused(&call(&client, "throw", args).await), said);
    }
}

/// A run in a seated game throws only for the sides the token speaks for:
/// a side's token stops when the other side is to throw, and the host's
/// throws for both.
#[tokio::test]
async fn a_run_with_a_sides_token_stops_when_the_other_side_is_to_throw() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let created = ok(&call(
        &client,
        "create_game",
        json!({"seats": true, "seed": "seated-run"}),
    )
    .await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    let a = created["tokens"]["a"].as_str().unwrap().to_owned();
    let host = created["tokens"]["host"].as_str().unwrap().to_owned();

    let run = call(
        &client,
        "throw",
        json!({"game_id": id, "token": a, "count": 50}),
    )
    .await;
    let out = ok(&run);
    // Regression: the run ended "stopped: Not your seat: ...", as if it
    // had failed; it is the end of the side's turn.
    assert_eq!(out["stopped"], "turn_end", "{}", text_of(&run));
    assert_eq!(out["game"]["to_throw"], "B");
    assert_eq!(out["move"]["side"], "A");
    assert_eq!(out["game"]["throws"], out["played"]);
    assert!(
        text_of(&run)
            .contains("stopped: the turn passed to the other side, whose token throws next."),
        "{}",
        text_of(&run)
    );
    let log = ok(&call(&client, "list_moves", json!({"game_id": id, "limit": 20})).await);
    for m in log["moves"].as_array().unwrap() {
        assert_eq!(m["side"], "A", "only A's throws with A's token");
    }
    // Again with A's token: B is to throw, so nothing is played.
    let again = refused(
        &call(
            &client,
            "throw",
            json!({"game_id": id, "token": a, "count": 5}),
        )
        .await,
    );
    assert!(again.starts_with("Not your seat: "), "{again}");
    // No token at all: refused as a single throw is.
    let none = refused(&call(&client, "throw", json!({"game_id": id, "count": 5})).await);
    assert!(none.starts_with("Seat token required: "), "{none}");

    let host_run = ok(&call(
        &client,
        "throw",
        json!({"game_id": id, "token": host, "count": 40}),
    )
    .await);
    let played = host_run["played"].as_u64().unwrap();
    assert!(played == 40 || host_run["stopped"] == "game_end");
    let log = ok(&call(
        &client,
        "list_moves",
        json!({"game_id": id, "after": out["played"], "limit": 20}),
    )
    .await);
    let sides: Vec<&str> = log["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["side"].as_str().unwrap())
        .collect();
    assert!(sides.contains(&"A") && sides.contains(&"B"), "{sides:?}");
}

/// Every throw of a run goes through the service as a single throw does:
/// the same seed gives the same stored moves, narration and states,
/// thrown one a call or forty in one.
#[tokio::test]
async fn each_throw_of_a_run_is_stored_as_a_single_throw_is() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let service = db.service().await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        ids.push(new_game(&client, json!({"seed": "same", "side_a": "Ama"})).await);
    }
    for _ in 0..40 {
        ok(&call(&client, "throw", json!({"game_id": ids[0]})).await);
    }
    let run = ok(&call(&client, "throw", json!({"game_id": ids[1], "count": 40})).await);
    assert_eq!(run["played"], 40);
    let mut logs = Vec::new();
    for id in &ids {
        let id = zohn_ahl::domain::GameId::parse(id).unwrap();
        let (game, moves) = service.moves(id, 0, 100).await.unwrap();
        assert_eq!(moves.len(), 40);
        logs.push((game.state, game.version, moves));
    }
    assert_eq!(logs[0], logs[1]);
}
