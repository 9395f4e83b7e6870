//! The tools' contract as a client reads it from tools/list: output
//! schemas that the answers validate against, required arguments, stated
//! bounds; and what the answers hold (rules in play, the ids a narration
//! names, seats whose sides report), and where the server's code draws
//! from.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{TOOLS, call, connect, ok, refused, text_of};
use crate::common::TestDb;

async fn tools(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
) -> Vec<rmcp::model::Tool> {
    client.list_all_tools().await.unwrap()
}

/// Six tools (explain_rule, get_fact, get_lesson, get_source,
/// search_glossary, get_board) had no output schema and answered with text
/// alone.
#[tokio::test]
async fn every_tools_structured_content_validates_against_its_advertised_output_schema() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let listed = tools(&client).await;
    let created = call(
        &client,
        "create_game",
        json!({"seed": "schemas", "seats": true}),
    )
    .await;
    let game = ok(&created);
    let id = game["game"]["game_id"].as_str().unwrap().to_owned();
    let host = game["tokens"]["host"].as_str().unwrap().to_owned();
    let mut answers = vec![("create_game", created)];
    answers.push((
        "throw",
        call(&client, "throw", json!({"game_id": id, "token": host})).await,
    ));
    answers.push((
        "report_throw",
        call(
            &client,
            "report_throw",
            json!({"game_id": id, "token": host, "sticks": ["flat", "round", "flat", "flat"]}),
        )
        .await,
    ));
    for (tool, args) in [
        ("get_game", json!({"game_id": id})),
        ("list_games", json!({})),
        ("list_moves", json!({"game_id": id, "limit": 20})),
        ("get_odds", json!({"game_id": id})),
        ("explain_rule", json!({"rule_id": "whip", "game_id": id})),
        (
            "get_fact",
            json!({"fact_id": "womens-game", "audience": "young"}),
        ),
        ("get_lesson", json!({"preset": "a4"})),
        (
            "get_source",
            json!({"source_id": "culin1907", "format": "bibtex"}),
        ),
        ("search_glossary", json!({"query": "sahe"})),
        ("get_board", json!({"game_id": id, "move": 1})),
        ("get_chances_chart", json!({"game_id": id})),
        ("stop_game", json!({"game_id": id, "token": host})),
        ("get_recap", json!({"game_id": id})),
    ] {
        answers.push((tool, call(&client, tool, args).await));
    }
    let answered: BTreeSet<&str> = answers.iter().map(|(t, _)| *t).collect();
    assert_eq!(
        answered,
        TOOLS.into_iter().collect(),
        "every tool is called"
    );

    for (name, result) in &answers {
        let structured = ok(result);
        assert!(structured.is_object(), "{name}: structured content");
        let tool = listed.iter().find(|t| t.name == *name).unwrap();
        let schema = Value::Object(
            (**tool
                .output_schema
                .as_ref()
                .unwrap_or_else(|| panic!("{name} advertises no output schema")))
            .clone(),
        );
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{name}: its output schema is no JSON Schema: {e}"));
        let errors: Vec<String> = validator
            .iter_errors(&structured)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}\n{structured:#}");
        // The schema says something: it names the answer's fields.
        let props = schema["properties"].as_object().unwrap();
        for key in structured.as_object().unwrap().keys() {
            assert!(props.contains_key(key), "{name}: {key} not in the schema");
        }
    }
}

/// No tool's input schema marked `game_id` (or any other mandatory
/// argument) as required: every argument was optional to a client.
#[tokio::test]
async fn mandatory_arguments_are_required_in_the_input_schemas_and_optional_ones_are_not() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let want: [(&str, &[&str]); 16] = [
        ("create_game", &[]),
        ("list_games", &[]),
        ("throw", &["game_id"]),
        ("report_throw", &["game_id"]),
        ("get_game", &["game_id"]),
        ("list_moves", &["game_id"]),
        ("stop_game", &["game_id"]),
        ("get_odds", &["game_id"]),
        ("explain_rule", &["rule_id"]),
        ("get_fact", &["fact_id"]),
        ("get_lesson", &[]),
        ("get_source", &["source_id"]),
        ("search_glossary", &["query"]),
        ("get_board", &["game_id"]),
        ("get_recap", &["game_id"]),
        ("get_chances_chart", &["game_id"]),
    ];
    let listed = tools(&client).await;
    for (name, required) in want {
        let tool = listed.iter().find(|t| t.name == name).unwrap();
        let got: BTreeSet<&str> = tool
            .input_schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        assert_eq!(got, required.iter().copied().collect(), "{name}");
        let props = tool.input_schema["properties"].as_object().unwrap();
        for r in required {
            assert!(props.contains_key(*r), "{name}: {r} is a property");
        }
    }
    let missing = refused(&call(&client, "throw", json!({})).await);
    assert_eq!(missing, "`game_id`: required, and not given");
    let missing = refused(&call(&client, "explain_rule", json!({"preset": "a4"})).await);
    assert_eq!(missing, "`rule_id`: required, and not given");
}

/// `list_moves.limit` was advertised with minimum 0 and no maximum, though
/// the tool takes 1 to 20.
#[tokio::test]
async fn list_moves_limit_states_its_real_bounds_and_refuses_values_out_of_them() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let listed = tools(&client).await;
    let tool = listed.iter().find(|t| t.name == "list_moves").unwrap();
    let limit = &tool.input_schema["properties"]["limit"];
    assert_eq!(limit["type"], "integer");
    assert_eq!(limit["minimum"], 1);
    assert_eq!(limit["maximum"], 20);
    assert_eq!(tool.input_schema["properties"]["after"]["minimum"], 0);

    let id = ok(&call(&client, "create_game", json!({"seed": "bounds"})).await)["game"]["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    for _ in 0..25 {
        ok(&call(&client, "throw", json!({"game_id": id})).await);
    }
    for (sent, shown) in [
        (json!(0), "0"),
        (json!(21), "21"),
        (json!(-1), "-1"),
        (json!(2.5), "2.5"),
    ] {
        let said =
            refused(&call(&client, "list_moves", json!({"game_id": id, "limit": sent})).await);
        assert_eq!(
            said,
            format!("`limit`: must be a whole number from 1 to 20, got {shown}")
        );
    }
    let after = refused(&call(&client, "list_moves", json!({"game_id": id, "after": -3})).await);
    assert_eq!(after, "`after`: must be a whole number, 0 or more, got -3");
    let twenty = ok(&call(&client, "list_moves", json!({"game_id": id, "limit": 20})).await);
    assert_eq!(twenty["moves"].as_array().unwrap().len(), 20);
    let one = ok(&call(
        &client,
        "list_moves",
        json!({"game_id": id, "limit": 1, "after": 4}),
    )
    .await);
    assert_eq!(one["moves"][0]["n"], 5);
}

/// `explain_rule` worded a rule for a preset but never said whether that
/// preset's games call for it.
#[tokio::test]
async fn explain_rule_says_whether_the_rule_is_in_play_for_a_preset_or_a_game() {
    let db = TestDb::new();
    let client = connect(&db).await;
    for (preset, rule, in_play) in [
        ("composite", "sticks_sahe", true),
        ("composite", "spinner", false),
        ("a4", "spinner", true),
        ("a4", "sticks_sahe", false),
        ("culin1898", "sticks_count", true),
    ] {
        let result = call(
            &client,
            "explain_rule",
            json!({"rule_id": rule, "preset": preset}),
        )
        .await;
        let out = ok(&result);
        assert_eq!(out["in_play"], in_play, "{preset} {rule}");
        assert_eq!(out["preset"], preset);
        assert_eq!(out["rule_id"], rule);
        assert_eq!(out["game_id"], "");
        let text = text_of(&result);
        let said = format!(
            "{} the {preset} ruleset's games",
            if in_play {
                "In play in"
            } else {
                "Not in play in"
            }
        );
        assert!(text.contains(&said), "{text}");
        assert!(!out["statement"].as_str().unwrap().is_empty());
        assert!(!out["citations"].as_array().unwrap().is_empty());
    }
    // A game's own ruleset and audience: an A4 game, told for the young.
    let created = ok(&call(
        &client,
        "create_game",
        json!({"preset": "a4", "audience": "young"}),
    )
    .await);
    let id = created["game"]["game_id"].as_str().unwrap().to_owned();
    let result = call(
        &client,
        "explain_rule",
        json!({"rule_id": "spinner", "game_id": id}),
    )
    .await;
    let out = ok(&result);
    assert_eq!(out["in_play"], true);
    assert_eq!(
        (out["preset"].as_str(), out["game_id"].as_str()),
        (Some("a4"), Some(id.as_str()))
    );
    assert_eq!(out["audience"], "young");
    assert!(
        text_of(&result).ends_with("In play in this game."),
        "{}",
        text_of(&result)
    );
    let sahe = ok(&call(
        &client,
        "explain_rule",
        json!({"rule_id": "sticks_sahe", "game_id": id}),
    )
    .await);
    assert_eq!(sahe["in_play"], false);
    let both = refused(
        &call(
            &client,
            "explain_rule",
            json!({"rule_id": "whip", "game_id": id, "preset": "a4"}),
        )
        .await,
    );
    assert_eq!(both, "give `preset` or `game_id`, not both");
}

/// A throw's structured content named no rule or fact, so the ids its
/// narration sentences carry (and its text's "More: rule ..." note) could
/// not be looked up from it.
#[tokio::test]
async fn every_rule_and_fact_id_a_throws_narration_names_is_in_its_structured_content_and_resolves()
{
    let db = TestDb::new();
    let client = connect(&db).await;
    let service = db.service().await;
    let mut rules = BTreeSet::new();
    let mut facts = BTreeSet::new();
    for (preset, audience) in [("composite", "scholar"), ("a4", "young")] {
        let created = ok(&call(
            &client,
            "create_game",
            json!({"preset": preset, "audience": audience, "seed": format!("ids-{preset}")}),
        )
        .await);
        let id = created["game"]["game_id"].as_str().unwrap().to_owned();
        let game_id = zohn_ahl::domain::GameId::parse(&id).unwrap();
        for n in 1..=40u32 {
            let result = call(&client, "throw", json!({"game_id": id})).await;
            let out = ok(&result);
            let record = service.move_record(game_id, n).await.unwrap();
            let segments = &record.narration.segments;
            let named_rules: BTreeSet<String> =
                segments.iter().filter_map(|s| s.rule.clone()).collect();
            let named_facts: BTreeSet<String> =
                segments.iter().filter_map(|s| s.fact.clone()).collect();
            let listed = |key: &str| -> BTreeSet<String> {
                out["move"][key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect()
            };
            assert_eq!(listed("rules"), named_rules, "move {n}");
            assert_eq!(listed("facts"), named_facts, "move {n}");
            assert!(!named_rules.is_empty(), "move {n} applies a rule");
            // What the text names for later is among them.
            let text = text_of(&result);
            if let Some(more) = text.lines().find_map(|l| l.strip_prefix("(More: ")) {
                for item in more.trim_end_matches(".)").split(", ") {
                    if let Some(rule) = item.strip_prefix("rule ") {
                        assert!(named_rules.contains(rule), "{rule} in {text}");
                    }
                    if let Some(fact) = item.strip_prefix("fact ") {
                        assert!(named_facts.contains(fact), "{fact} in {text}");
                    }
                }
            }
            for rule in &named_rules {
                rules.insert((id.clone(), rule.clone()));
            }
            facts.extend(named_facts);
            if out["game"]["status"] == "finished" {
                break;
            }
        }
    }
    assert!(!facts.is_empty(), "some fact was told");
    for (id, rule) in &rules {
        let out = ok(&call(
            &client,
            "explain_rule",
            json!({"rule_id": rule, "game_id": id}),
        )
        .await);
        assert_eq!(out["in_play"], true, "{rule} is narrated, so in play");
    }
    for fact in &facts {
        ok(&call(&client, "get_fact", json!({"fact_id": fact})).await);
    }
}

/// `create_game` could not set `sides_report_throws`, the seats option of
/// REST's creation body: a class whose sides report their own sticks had
/// to route every report through the host.
#[tokio::test]
async fn create_game_lets_sides_report_their_own_throws_when_asked() {
    let db = TestDb::new();
    let client = connect(&db).await;
    let sticks = json!(["flat", "round", "flat", "flat"]);
    for allowed in [true, false] {
        let answer = call(
            &client,
            "create_game",
            json!({"seats": true, "sides_report_throws": allowed}),
        )
        .await;
        let created = ok(&answer);
        // The text tells the class who reports.
        assert_eq!(
            text_of(&answer).contains("each report of real sticks, needs the mover's token"),
            allowed,
            "{}",
            text_of(&answer)
        );
        assert_eq!(created["game"]["seated"], true);
        assert_eq!(created["game"]["sides_report_throws"], allowed);
        let id = created["game"]["game_id"].as_str().unwrap().to_owned();
        let a = created["tokens"]["a"].as_str().unwrap().to_owned();
        let result = call(
            &client,
            "report_throw",
            json!({"game_id": id, "token": a, "sticks": sticks}),
        )
        .await;
        if allowed {
            assert_eq!(ok(&result)["move"]["origin"], "reported");
        } else {
            assert!(
                refused(&result).starts_with("Host token required: "),
                "{result:?}"
            );
        }
    }
    let unseated =
        refused(&call(&client, "create_game", json!({"sides_report_throws": true})).await);
    assert!(
        unseated.ends_with(
            ": `sides_report_throws`: only a seated game has side tokens to report with; set `seats` to true as well"
        ),
        "{unseated}"
    );
    let listed = tools(&client).await;
    let create = listed.iter().find(|t| t.name == "create_game").unwrap();
    assert_eq!(
        create.input_schema["properties"]["sides_report_throws"]["type"],
        "boolean"
    );
}

/// REST and the tools check a new game with the same code, so they refuse
/// it in the same words; the tool names its own argument.
#[actix_web::test]
async fn rest_and_the_tools_refuse_a_new_game_in_the_same_words() {
    let (_db, server) = crate::common::spawn_server_with_mcp().await;
    let base = server.base.clone();
    let seed = "s".repeat(129);
    let problem: Value = reqwest::Client::new()
        .post(format!("{base}/v1/games"))
        .json(&json!({"seed": seed}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        problem["detail"],
        "/seed: must be from 1 to 128 characters, got 129"
    );
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(format!("{base}/mcp"));
    let client = rmcp::ServiceExt::serve((), transport).await.unwrap();
    let said = refused(&call(&client, "create_game", json!({"seed": seed})).await);
    assert_eq!(
        said,
        format!(
            "{}: `seed`: must be from 1 to 128 characters, got 129",
            problem["title"].as_str().unwrap()
        )
    );
    let same = refused(
        &call(
            &client,
            "create_game",
            json!({"side_a": "Ama", "side_b": "AMA"}),
        )
        .await,
    );
    assert!(
        same.starts_with("Same name for both sides: `side_b`: "),
        "{same}"
    );
    client.cancel().await.unwrap();
}

/// Regression: the names, the seed and the glossary query stated their
/// lengths only in prose, and the names and seed advertised a default of
/// "" that the tool then read as "not given". Their schemas carry the
/// service's bounds and no empty default, and an empty name is refused.
#[tokio::test]
async fn string_arguments_state_the_services_length_bounds() {
    use zohn_ahl::service::{MAX_NAME_CHARS, MAX_SEED_CHARS};
    let db = TestDb::new();
    let client = connect(&db).await;
    let listed = tools(&client).await;
    let schema = |tool: &str, arg: &str| {
        let t = listed.iter().find(|t| t.name == tool).unwrap();
        t.input_schema["properties"][arg].clone()
    };
    for (tool, arg, max) in [
        ("create_game", "side_a", MAX_NAME_CHARS),
        ("create_game", "side_b", MAX_NAME_CHARS),
        ("create_game", "seed", MAX_SEED_CHARS),
        ("search_glossary", "query", 40),
    ] {
        let s = schema(tool, arg);
        assert_eq!(s["minLength"], 1, "{tool}.{arg}: {s}");
        assert_eq!(s["maxLength"], max, "{tool}.{arg}: {s}");
        assert_ne!(s.get("default"), Some(&json!("")), "{tool}.{arg}: {s}");
    }
    let empty = refused(&call(&client, "create_game", json!({"side_a": ""})).await);
    assert!(
        empty.contains("side_a") && empty.contains("1 to 40"),
        "{empty}"
    );
}
