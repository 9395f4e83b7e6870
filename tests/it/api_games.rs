//! The game resources through the real HTTP stack (actix test service) on
//! a real SQLite file with real migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashSet;

use common::{TestDb, get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

fn source_ids() -> HashSet<String> {
    zohn_ahl::narration::catalogue()
        .sources
        .iter()
        .map(|s| s.id().to_owned())
        .collect()
}

/// Check one throw response against the rules: counters conserved, awls on
/// the board, the move numbered in order, narration present and cited.
fn check_move(m: &Value, expected_n: u64, sources: &HashSet<String>) {
    assert_eq!(m["n"], expected_n);
    let a = m["counters"]["a"].as_u64().unwrap();
    let b = m["counters"]["b"].as_u64().unwrap();
    assert_eq!(a + b, 8, "counters conserved: {m}");
    for side in m["state"]["sides"].as_array().unwrap() {
        let space = side["awl"]["space"].as_u64().unwrap();
        assert!((1..=40).contains(&space), "awl on the board: {side}");
    }
    let sticks = m["sticks"].as_array().unwrap();
    assert_eq!(sticks.len(), 4);
    let flat = sticks.iter().filter(|f| *f == "flat").count() as u64;
    assert_eq!(m["flat_faces"], flat);
    let value = m["value"].as_u64().unwrap();
    assert!([1, 2, 3, 6, 10].contains(&value));
    assert!(!m["events"].as_array().unwrap().is_empty());
    let segments = m["narration"]["segments"].as_array().unwrap();
    assert!(
        segments.iter().any(|s| s["kind"] == "event"),
        "an event segment: {m}"
    );
    // A lesson states the turn's basics on the first move; later moves
    // state a rule only when it first acts, or is taught ahead.
    if expected_n == 1 {
        assert!(
            segments.iter().any(|s| s["kind"] == "rule"),
            "a rule segment: {m}"
        );
        assert!(
            segments.iter().any(|s| s["kind"] == "framing"),
            "the game's framing: {m}"
        );
    }
    for s in segments {
        assert!(!s["text"].as_str().unwrap().trim().is_empty());
        assert!(
            !s["text"].as_str().unwrap().contains('{'),
            "unfilled placeholder: {s}"
        );
        let cites = s["citations"].as_array().unwrap();
        assert!(!cites.is_empty(), "segment without citation: {s}");
        for c in cites {
            assert!(
                sources.contains(c["source"].as_str().unwrap()),
                "citation resolves: {c}"
            );
        }
    }
}

#[actix_web::test]
async fn create_game_returns_201_location_etag_and_state() {
    let (_db, app) = spawn_app().await;
    let r = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}}, "first": "B", "seed": "x"}),
        ),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let g = r.json();
    let id = g["id"].as_str().unwrap();
    assert_eq!(r.header("location").unwrap(), format!("/v1/games/{id}"));
    assert_eq!(r.header("etag").unwrap(), "\"0\"");
    assert_eq!(g["status"], "in_progress");
    assert_eq!(g["ruleset"]["preset"], "composite");
    assert_eq!(g["ruleset"]["options"]["counters_per_side"], 4);
    assert_eq!(g["sides"][0]["name"], "Hawks");
    assert_eq!(g["sides"][0]["awl"]["space"], 1);
    assert_eq!(g["sides"][0]["awl"]["feature"], "south_creek_far");
    assert_eq!(g["sides"][1]["awl"]["physical_index"], 39);
    assert_eq!(g["to_throw"]["side"], "B");
    assert_eq!(g["to_throw"]["name"], "Foxes");
    assert_eq!(g["seed"], "x", "the creator's own seed is shown");
    let unseeded = send(&app, post_empty("/v1/games")).await.json();
    assert_eq!(
        unseeded["seed"],
        Value::Null,
        "a server seed stays hidden while the game runs"
    );

    let again = send(&app, get(&format!("/v1/games/{id}"))).await;
    assert_eq!(again.status.as_u16(), 200);
    assert_eq!(again.header("etag").unwrap(), "\"0\"");
    // The read is the creation answer without the tokens and join codes
    // (none here).
    let mut without_tokens = g.clone();
    let fields = without_tokens.as_object_mut().unwrap();
    assert_eq!(fields.remove("seat_tokens"), Some(Value::Null));
    assert_eq!(fields.remove("host_token"), Some(Value::Null));
    assert_eq!(fields.remove("join_codes"), Some(Value::Null));
    assert_eq!(again.json(), without_tokens);
}

#[actix_web::test]
async fn empty_body_creates_a_default_game() {
    let (_db, app) = spawn_app().await;
    let r = send(&app, post_empty("/v1/games")).await;
    assert_eq!(
        r.status.as_u16(),
        201,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.json()["sides"][1]["name"], "Side B");
}

/// Play a seeded game to its end through HTTP, checking every response,
/// then the move log, a throw on the finished game, and the stored state
/// against a replay of the stored moves.
#[actix_web::test]
async fn a_seeded_game_plays_to_a_winner_through_http() {
    let db = TestDb::new();
    let service = db.service().await;
    let app = common::spawn_server(service.clone());
    let sources = source_ids();
    let g = send(&app, post_json("/v1/games", &json!({"seed": "end-to-end"})))
        .await
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let mut n = 0;
    let mut last = Value::Null;
    let mut facts_told = Vec::new();
    while n < 5000 {
        n += 1;
        let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(
            r.header("location").unwrap(),
            format!("/v1/games/{id}/moves/{n}")
        );
        assert_eq!(r.header("etag").unwrap(), format!("\"{n}\""));
        let m = r.json();
        check_move(&m, n, &sources);
        for s in m["narration"]["segments"].as_array().unwrap() {
            if let Some(f) = s["fact"].as_str() {
                facts_told.push(f.to_owned());
            }
        }
        last = m;
        if last["state"]["status"] == "finished" {
            break;
        }
    }
    let state = &last["state"];
    assert_eq!(state["status"], "finished");
    let winner = state["winner"].as_str().unwrap();
    let idx = if winner == "A" { 0 } else { 1 };
    assert_eq!(state["sides"][idx]["counters"], 8, "the winner holds all");
    assert_eq!(
        state["seed"], "end-to-end",
        "the seed is shown once finished"
    );
    assert!(
        last["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "won")
    );
    // Facts are not repeated until all have been told.
    let distinct: HashSet<_> = facts_told.iter().collect();
    let total = zohn_ahl::narration::catalogue().facts.len();
    assert_eq!(distinct.len(), facts_told.len().min(total));

    let over = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let p = over.problem(409);
    assert_eq!(p["type"], "/problems/game-over");

    // The move log, page by page, holds every move once, in order.
    let mut seen = 0u64;
    let mut cursor: Option<String> = None;
    loop {
        let uri = match &cursor {
            Some(c) => format!("/v1/games/{id}/moves?limit=7&cursor={c}"),
            None => format!("/v1/games/{id}/moves?limit=7"),
        };
        let page = send(&app, get(&uri)).await.json();
        for item in page["items"].as_array().unwrap() {
            seen += 1;
            assert_eq!(item["n"], seen);
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, n);
    let one = send(&app, get(&format!("/v1/games/{id}/moves/{n}"))).await;
    assert_eq!(one.status.as_u16(), 200);
    assert_eq!(one.json()["events"], last["events"]);

    // The stored state equals the replay of the stored moves.
    let gid = zohn_ahl::domain::GameId::parse(&id).unwrap();
    let game = service.game(gid).await.unwrap();
    let moves = service.moves(gid, 0, 10_000).await.unwrap().1;
    let table = game.setup.table().unwrap();
    let throws: Vec<_> = moves.iter().map(|m| m.throw).collect();
    let replayed = zohn_ahl::rules::replay(&table, &throws).unwrap();
    assert_eq!(replayed, game.state);
    assert_eq!(game.version.get() as usize, moves.len());
}

#[actix_web::test]
async fn games_survive_a_restart() {
    let db = TestDb::new();
    let (id, before) = {
        let app = common::spawn_server(db.service().await);
        let g = send(&app, post_json("/v1/games", &json!({"seed": "restart"})))
            .await
            .json();
        let id = g["id"].as_str().unwrap().to_owned();
        for _ in 0..5 {
            let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
            assert_eq!(r.status.as_u16(), 201);
        }
        let before = send(&app, get(&format!("/v1/games/{id}"))).await.json();
        let moves = send(&app, get(&format!("/v1/games/{id}/moves")))
            .await
            .json();
        (id, (before, moves))
    };
    // A new store and app on the same file: a restarted server.
    let app = common::spawn_server(db.service().await);
    let after = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    let moves = send(&app, get(&format!("/v1/games/{id}/moves")))
        .await
        .json();
    assert_eq!(after, before.0);
    assert_eq!(moves, before.1);
    // And play carries on where it stopped, with the seeded throws.
    let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    assert_eq!(r.json()["n"], 6);
}

async fn sticks_of(seed: &str, throws: usize) -> Vec<Value> {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_json("/v1/games", &json!({"seed": seed})))
        .await
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let mut out = Vec::new();
    for _ in 0..throws {
        let m = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
            .await
            .json();
        out.push(m["sticks"].clone());
    }
    out
}

#[actix_web::test]
async fn the_same_seed_gives_the_same_throws() {
    let first = sticks_of("same-seed", 12).await;
    let second = sticks_of("same-seed", 12).await;
    assert_eq!(first, second);
    let other = sticks_of("another-seed", 12).await;
    assert_ne!(first, other);
}

/// Pins the first throws of seed "pinned": a change of generator, key
/// derivation or stream use would change every seeded game, so it must show
/// here (ChaCha20 keyed by SHA-256 of the seed, stream = move number).
#[actix_web::test]
async fn seed_pinned_first_throws_never_change() {
    let faces = sticks_of("pinned", 6).await;
    let compact: Vec<String> = faces
        .iter()
        .map(|f| {
            f.as_array()
                .unwrap()
                .iter()
                .map(|x| if x == "flat" { 'F' } else { 'R' })
                .collect()
        })
        .collect();
    insta::assert_json_snapshot!("pinned_seed_first_six_throws", compact);
}

#[actix_web::test]
async fn a_reported_throw_is_scored_and_narrated_like_a_server_throw() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    // Three flat faces with the sahe among them: 3 and throw again (1/16 x 3).
    let r = send(
        &app,
        post_json(
            &format!("/v1/games/{id}/throws"),
            &json!({"sticks": ["flat", "flat", "round", "flat"]}),
        ),
    )
    .await;
    assert_eq!(r.status.as_u16(), 201);
    let m = r.json();
    assert_eq!(m["origin"], "reported");
    assert_eq!(m["value"], 3);
    assert_eq!(m["throws_again"], true);
    assert_eq!(m["probability"]["numerator"], 3);
    assert_eq!(m["probability"]["denominator"], 16);
    assert_eq!(m["from"], 1);
    assert_eq!(m["to"], 4);
    assert_eq!(m["state"]["extra_throw_pending"], true);
    assert_eq!(m["state"]["to_throw"]["side"], "A");
    check_move(&m, 1, &source_ids());

    let wrong = send(
        &app,
        post_json(
            &format!("/v1/games/{id}/throws"),
            &json!({"spinner": "six"}),
        ),
    )
    .await;
    let p = wrong.problem(422);
    assert_eq!(p["errors"][0]["pointer"], "/spinner");
}

#[actix_web::test]
async fn a_stale_if_match_is_refused_with_412_and_the_current_version() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    let ok = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("if-match", "\"0\"")),
    )
    .await;
    assert_eq!(ok.status.as_u16(), 201);
    let stale = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("if-match", "\"0\"")),
    )
    .await;
    let p = stale.problem(412);
    assert_eq!(p["current_version"], 1);
}

/// `If-Match: W/"0"` played a throw on a game at version 0: RFC 9110
/// (section 13.1.1) has If-Match compare strongly, and a weak tag never
/// matches. Now a weak tag is 412 with the current version, for a throw
/// and a stop alike, and the game is left as it was.
#[actix_web::test]
async fn regression_a_weak_etag_matched_if_match() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    for path in ["throws", "stop"] {
        let weak = send(
            &app,
            post_empty(&format!("/v1/games/{id}/{path}")).insert_header(("if-match", "W/\"0\"")),
        )
        .await;
        let p = weak.problem(412);
        assert_eq!(p["current_version"], 0, "{path}");
    }
    let game = send(&app, get(&format!("/v1/games/{id}"))).await;
    assert_eq!(game.json()["version"], 0);
    assert_eq!(game.json()["status"], "in_progress");
    // The same tag, strong, matches.
    let strong = send(
        &app,
        post_empty(&format!("/v1/games/{id}/throws")).insert_header(("if-match", "\"0\"")),
    )
    .await;
    assert_eq!(strong.status.as_u16(), 201);
}

#[actix_web::test]
async fn stopping_a_game_gives_the_win_to_more_counters_or_a_draw() {
    let (_db, app) = spawn_app().await;
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    let r = send(&app, post_empty(&format!("/v1/games/{id}/stop"))).await;
    assert_eq!(r.status.as_u16(), 200);
    let s = r.json();
    assert_eq!(s["state"]["status"], "finished");
    assert_eq!(s["state"]["result"], "draw");
    assert_eq!(s["state"]["winner"], Value::Null);
    assert!(!s["narration"]["segments"].as_array().unwrap().is_empty());
    send(&app, post_empty(&format!("/v1/games/{id}/stop")))
        .await
        .problem(409);
}

/// The service narrates exactly as the transcript does (the previous move's
/// narration is read back from the store), and a stored move is narrated
/// again for any audience on request, telling the same rules and fact in
/// that audience's words, the same on every request.
#[actix_web::test]
async fn moves_are_narrated_again_for_another_audience() {
    use zohn_ahl::narration::Audience;
    use zohn_ahl::rules::Preset;
    use zohn_ahl::transcript::narrated_game;

    let (_db, app) = spawn_app().await;
    let seed = "lesson-4";
    let g = send(&app, post_json("/v1/games", &json!({"seed": seed})))
        .await
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let expected = narrated_game(seed, Preset::Composite, Audience::General).unwrap();
    // With its odds sentences (issue 26): the chances looked up in the
    // ruleset's chain, solved here once, and waited for by the server
    // before the first throw.
    let table = zohn_ahl::rules::Table::new(
        Preset::Composite.options(),
        [1, 1],
        zohn_ahl::rules::Side::A,
    )
    .unwrap();
    let chances = zohn_ahl::service::ChanceTable::Solved(std::sync::Arc::new(
        zohn_ahl::odds::solve(&table).unwrap(),
    ));
    let told = |game: &zohn_ahl::transcript::NarratedGame,
                m: &zohn_ahl::domain::MoveRecord,
                audience: Audience| {
        let mut n = m.narration.clone();
        let c = chances.of_move(&table, m).unwrap();
        zohn_ahl::narration::add_odds(&mut n, &game.context(m, audience), &c);
        n.segments
            .into_iter()
            .map(|s| s.text)
            .collect::<Vec<String>>()
    };
    while send(&app, get(&format!("/v1/games/{id}/odds")))
        .await
        .status
        .as_u16()
        == 503
    {
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    for m in &expected.moves {
        let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        let texts: Vec<String> = r.json()["narration"]["segments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["text"].as_str().unwrap().to_owned())
            .collect();
        let want = told(&expected, m, Audience::General);
        assert_eq!(texts, want, "move {}", m.n);
    }
    for audience in ["young", "general", "scholar"] {
        let direct =
            narrated_game(seed, Preset::Composite, Audience::parse(audience).unwrap()).unwrap();
        let page = send(
            &app,
            get(&format!(
                "/v1/games/{id}/moves?limit=100&audience={audience}"
            )),
        )
        .await
        .json();
        let items = page["items"].as_array().unwrap();
        assert_eq!(items.len(), direct.moves.len());
        for (item, m) in items.iter().zip(&direct.moves) {
            assert_eq!(item["narration"]["audience"], audience);
            let texts: Vec<&str> = item["narration"]["segments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["text"].as_str().unwrap())
                .collect();
            let want = told(&direct, m, Audience::parse(audience).unwrap());
            assert_eq!(texts, want, "{audience} move {}", m.n);
        }
        // One move: the same fact id as stored, the same answer twice.
        let n = expected
            .moves
            .iter()
            .find(|m| m.narration.fact().is_some())
            .unwrap()
            .n;
        let uri = format!("/v1/games/{id}/moves/{n}?audience={audience}");
        let one = send(&app, get(&uri)).await;
        assert_eq!(one.status.as_u16(), 200);
        assert_eq!(one.body, send(&app, get(&uri)).await.body, "deterministic");
        let stored = send(&app, get(&format!("/v1/games/{id}/moves/{n}")))
            .await
            .json();
        let fact = |v: &Value| {
            v["narration"]["segments"]
                .as_array()
                .unwrap()
                .iter()
                .find_map(|s| s["fact"].as_str().map(str::to_owned))
        };
        assert_eq!(fact(&one.json()), fact(&stored));
        assert_eq!(one.json()["events"], stored["events"]);
    }
    for uri in [
        format!("/v1/games/{id}/moves/1?audience=toddler"),
        format!("/v1/games/{id}/moves?audience=Young"),
    ] {
        let p = send(&app, get(&uri)).await.problem(400);
        assert_eq!(p["errors"][0]["pointer"], "#/query/audience");
        let detail = p["errors"][0]["detail"].as_str().unwrap();
        assert!(
            detail.contains("young") && detail.contains("general") && detail.contains("scholar"),
            "{detail}"
        );
    }
}

/// The presence rule: every field is sent, `null` when it has no value; the
/// creation answer and the throw answer each have their own shape.
#[actix_web::test]
async fn absent_values_are_sent_as_null_and_each_answer_has_its_own_shape() {
    let (_db, app) = spawn_app().await;
    let created = send(&app, post_empty("/v1/games")).await;
    assert_eq!(created.status.as_u16(), 201);
    let g = created.json();
    for key in ["seat_tokens", "host_token", "winner", "result"] {
        assert_eq!(g.get(key), Some(&Value::Null), "{key}: {g}");
    }
    let id = g["id"].as_str().unwrap().to_owned();
    let read = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert!(read.get("seat_tokens").is_none() && read.get("host_token").is_none());
    let thrown = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
        .await
        .json();
    assert!(thrown["state"]["id"].is_string(), "{thrown}");
    assert_eq!(thrown.get("spinner"), Some(&Value::Null), "a stick game");
    for s in thrown["narration"]["segments"].as_array().unwrap() {
        assert!(s.get("rule").is_some() && s.get("fact").is_some(), "{s}");
    }
    let page = send(&app, get(&format!("/v1/games/{id}/moves")))
        .await
        .json();
    let logged = &page["items"][0];
    assert!(logged.get("state").is_none(), "{logged}");
    assert_eq!(logged.get("spinner"), Some(&Value::Null));
    assert_eq!(page.get("next_cursor"), Some(&Value::Null));
    // `cursor` takes the last page's `next_cursor` as it is: empty is the
    // first page.
    let again = send(&app, get(&format!("/v1/games/{id}/moves?cursor="))).await;
    assert_eq!(again.status.as_u16(), 200);
    assert_eq!(again.json()["items"], page["items"]);
    let missing = send(&app, get("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")).await;
    let p = missing.problem(404);
    assert_eq!(p["errors"], json!([]));
    assert_eq!(p["allowed"], json!([]));
    assert_eq!(p["current_version"], Value::Null);
}

/// The README says a client may pass the last page's `next_cursor` back as
/// it is, and that `null` is the same as leaving `cursor` out: the query
/// `?cursor=null` was refused with 400.
#[actix_web::test]
async fn regression_cursor_null_was_refused() {
    let (_db, app) = spawn_app().await;
    let id = send(&app, post_json("/v1/games", &json!({"seed": "lesson-4"})))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for _ in 0..3 {
        send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    }
    let first = send(&app, get(&format!("/v1/games/{id}/moves?limit=2")))
        .await
        .json();
    let null = send(
        &app,
        get(&format!("/v1/games/{id}/moves?limit=2&cursor=null")),
    )
    .await;
    assert_eq!(
        null.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&null.body)
    );
    let null = null.json();
    assert_eq!(null["items"], first["items"]);
    assert_eq!(null["items"].as_array().unwrap().len(), 2);
    // Anything else that is not a cursor is still refused, naming it.
    let p = send(&app, get(&format!("/v1/games/{id}/moves?cursor=nul")))
        .await
        .problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/query/cursor");
}

/// The server's throws scripted (ten, six, three: 1 to 11 to 17 to 20, each
/// of the first two throwing again): side A's awl stops on the deadly bank
/// of the north creek, falls in and pays a counter, and the answer says so
/// in its events and its narration.
#[actix_web::test]
async fn a_scripted_ten_six_three_drops_the_awl_into_the_north_creek() {
    use std::sync::Arc;
    use zohn_ahl::rules::{Face, Sticks, Throw};
    use zohn_ahl::service::{FeedLimits, MAX_BATCH, Service};
    use zohn_ahl::store::Store;
    use zohn_ahl::throws::ScriptedServerThrows;
    const F: Face = Face::Flat;
    const R: Face = Face::Round;
    let script = vec![
        Throw::Sticks(Sticks::new([R, R, R, R])),
        Throw::Sticks(Sticks::new([F, F, F, F])),
        Throw::Sticks(Sticks::new([F, F, F, R])),
    ];
    let db = TestDb::for_suite().await;
    let service = Service::with_throws(
        Store::connect(&db.url).await.unwrap(),
        MAX_BATCH,
        FeedLimits::default(),
        Arc::new(ScriptedServerThrows::new(script)),
    );
    let app = common::spawn_server(service);
    let g = send(&app, post_empty("/v1/games")).await.json();
    let id = g["id"].as_str().unwrap();
    let mut answers = Vec::new();
    for _ in 0..3 {
        let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        assert_eq!(r.status.as_u16(), 201);
        answers.push(r.json());
    }
    let steps: Vec<(u64, u64, u64, bool)> = answers
        .iter()
        .map(|m| {
            assert_eq!(m["origin"], "server");
            (
                m["value"].as_u64().unwrap(),
                m["from"].as_u64().unwrap(),
                m["to"].as_u64().unwrap(),
                m["throws_again"].as_bool().unwrap(),
            )
        })
        .collect();
    // The fall sends the awl back to its start.
    assert_eq!(
        steps,
        [(10, 1, 11, true), (6, 11, 17, true), (3, 17, 1, false)]
    );
    let fall = &answers[2];
    check_move(fall, 3, &source_ids());
    let kinds: Vec<&str> = fall["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["moved", "fell_into_creek", "counter_paid", "turn_passed"],
        "{fall}"
    );
    assert_eq!(fall["events"][1]["creek"], "north");
    assert_eq!(fall["events"][1]["space"], 20);
    assert_eq!(fall["counters"]["a"], 3);
    assert_eq!(fall["counters"]["b"], 5);
    assert_eq!(fall["state"]["to_throw"]["side"], "B");
    let told: Vec<&str> = fall["narration"]["segments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "event")
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert!(
        told.iter()
            .any(|t| t.contains("space 20") && t.contains("north creek") && t.contains("falls in")),
        "the narration tells the fall: {told:?}"
    );
}
