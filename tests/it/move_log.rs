//! The move log: a move kept in a few dozen bytes (the throw, its events,
//! the state after it and the narration's plan), narrated when read, word
//! for word as it was when played; a database of the version before
//! (migrations 0001-0004, moves as JSON records with their narration) is
//! converted on opening and reads as it did.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{TestDb, get, post_json, send};
use serde_json::{Value, json};
use zohn_ahl::domain::{MoveRecord, Setup};
use zohn_ahl::narration::{self, Audience, MoveContext, Narration};
use zohn_ahl::rules;
use zohn_ahl::service::Service;
use zohn_ahl::store::Store;
use zohn_ahl::throws::{SeededThrows, ThrowSource};

/// Most bytes a stored move may cost.
const MOVE_BUDGET: u64 = 512;

/// A move's JSON text, for byte-for-byte comparisons.
fn text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

/// A game of the fixture as the version before kept it.
struct OldGame {
    id: String,
    setup: Setup,
    seed: String,
    seated: bool,
    told_facts: Vec<String>,
    state: rules::GameState,
    version: u32,
    moves: Vec<MoveRecord>,
}

async fn old_games(url: &str) -> Vec<OldGame> {
    use sqlx::Row;
    let pool = sqlx::SqlitePool::connect(url).await.unwrap();
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY 1")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(
        applied,
        [1, 2, 3, 4],
        "the fixture is of migrations 0001-0004"
    );
    let games = sqlx::query(
        "SELECT id, setup, seed, seated, told_facts, state, version FROM games ORDER BY id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut old = Vec::new();
    for g in &games {
        let id: String = g.get("id");
        let bodies: Vec<String> =
            sqlx::query_scalar("SELECT body FROM moves WHERE game_id = ? ORDER BY n")
                .bind(&id)
                .fetch_all(&pool)
                .await
                .unwrap();
        old.push(OldGame {
            setup: serde_json::from_str(g.get::<&str, _>("setup")).unwrap(),
            seed: g.get("seed"),
            seated: g.get::<i64, _>("seated") != 0,
            told_facts: serde_json::from_str(g.get::<&str, _>("told_facts")).unwrap(),
            state: serde_json::from_str(g.get::<&str, _>("state")).unwrap(),
            version: u32::try_from(g.get::<i64, _>("version")).unwrap(),
            moves: bodies
                .iter()
                .map(|b| serde_json::from_str(b).unwrap())
                .collect(),
            id,
        });
    }
    pool.close().await;
    old
}

/// Every move of a game read through `service`.
async fn read_moves(service: &Service, id: &str) -> Vec<MoveRecord> {
    let id = zohn_ahl::domain::GameId::parse(id).unwrap();
    service.moves(id, 0, u32::MAX).await.unwrap().1
}

/// The record as the log gives it back: the narration carries no memory
/// of the rules stated (the game keeps it).
fn without_memory(record: &MoveRecord) -> MoveRecord {
    let mut record = record.clone();
    record.narration.rules_stated.clear();
    record
}

/// The parts of a stored narration that the narration data's wording does
/// not decide: each segment's kind, rule and fact.
fn plan_view(record: &MoveRecord) -> Vec<Value> {
    let segments = serde_json::to_value(&record.narration).unwrap()["segments"]
        .as_array()
        .unwrap()
        .clone();
    // The plan is the rules, in order, and the fact; the events are told
    // from the move, the first move's framing from the game's options.
    // Where the fact stands among them is the data's presentation (the
    // first move's now follows the framing).
    // A fact the data no longer tells to the narration's audience (a
    // teacher's side note, told to adults only since) is left out, as a
    // move narrated again leaves it out.
    let audience = record.narration.audience;
    let told = |s: &&Value| s["fact"].as_str().is_none_or(|id| told_to(id, audience));
    ["rule", "context"]
        .iter()
        .flat_map(|kind| segments.iter().filter(move |s| s["kind"] == *kind))
        .filter(told)
        .map(|s| json!([s["kind"], s["rule"], s["fact"]]))
        .collect()
}

/// Whether the narration data tells fact `id` to `audience` now.
fn told_to(id: &str, audience: Audience) -> bool {
    zohn_ahl::narration::catalogue()
        .facts
        .iter()
        .find(|f| f.id == id)
        .is_some_and(|f| f.told_to(audience))
}

/// A record's JSON without its narration and caption (their words are the
/// narration data's).
fn without_words(record: &MoveRecord) -> Value {
    let mut value = serde_json::to_value(record).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("narration");
    object.remove("caption");
    value
}

/// Assert that `new` reads as `old` did: the record itself, the plan of its
/// narration, and, for every audience, the narration and caption word for
/// word as the narration data tells them now. The words stored in the
/// fixture are those of the data when it was written; after a correction
/// of the data, a converted game is told in the corrected words, as every
/// game is, so only the plan is compared with what was stored.
fn assert_reads_as(setup: &Setup, old: &MoveRecord, new: &MoveRecord, what: &str) {
    assert_eq!(
        without_words(new),
        without_words(&without_memory(old)),
        "{what}: move {}",
        old.n
    );
    assert_eq!(
        plan_view(new),
        plan_view(old),
        "{what}: move {} plan",
        old.n
    );
    for audience in Audience::ALL {
        if audience == old.narration.audience {
            // The stored audience's words are the old data's (compared by
            // plan above).
            continue;
        }
        let narration = |record: &MoveRecord| {
            let mut narration =
                record.narration_for(setup, audience, zohn_ahl::narration::Detail::Lesson);
            narration.rules_stated.clear();
            // Read from the stored audience's narration, a fact the data no
            // longer tells to that audience is not carried over.
            narration.segments.retain(|s| {
                s.fact
                    .as_deref()
                    .is_none_or(|id| told_to(id, old.narration.audience))
            });
            text(&narration)
        };
        assert_eq!(
            narration(new),
            narration(old),
            "{what}: move {} for {audience}",
            old.n
        );
        assert_eq!(
            new.caption(setup, audience),
            old.caption(setup, audience),
            "{what}: move {} caption for {audience}",
            old.n
        );
    }
}

/// The next move of an old game as the version before would have played
/// and narrated it (the server's throw; its narration from the last move's
/// and the game's memory).
fn next_move_as_before(old: &OldGame) -> Narration {
    let setup = &old.setup;
    let table = setup.table().unwrap();
    let n = old.version + 1;
    let seat = old.state.to_throw(&table);
    let throw = SeededThrows::new(&old.seed).throw(table.options().throw_table, n);
    let played = rules::play(&table, &old.state, &throw).unwrap();
    let cast = setup.cast();
    narration::narrate_move(&MoveContext {
        options: table.options(),
        cast: &cast,
        audience: setup.audience,
        move_number: n,
        detail: zohn_ahl::narration::Detail::Lesson,
        from: old.state.awl(seat.side),
        to: played.state.awl(seat.side),
        other_awl: played.state.awl(seat.side.other()),
        seat,
        throw: &throw,
        score: &played.score,
        events: &played.events,
        told: &old.told_facts,
        previous: old.moves.last().map(|m| &m.narration),
    })
}

/// A database of migrations 0001-0004 is converted when opened: every
/// move reads word for word as it did (for every audience, with its
/// caption), the games verify, a kept idempotency answer is replayed byte
/// for byte, and a game plays on narrated as the version before would have
/// narrated it; its moves then take a few dozen bytes each.
#[actix_web::test]
async fn a_database_of_version_0004_is_converted_and_reads_as_it_did() {
    let db = TestDb::with_fixture_0004();
    let old = old_games(&db.url).await;
    assert_eq!(old.len(), 15);
    let moves: usize = old.iter().map(|g| g.moves.len()).sum();
    assert!(moves > 400, "{moves} moves");
    // The kept answers were written when the fixture was made: bring them
    // within their lifetime, and take one of an open game to replay.
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    sqlx::query("UPDATE idempotency_keys SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')")
        .execute(&pool)
        .await
        .unwrap();
    let (key_game, key, kept): (String, String, Vec<u8>) = sqlx::query_as(
        "SELECT k.game_id, k.key, k.body FROM idempotency_keys k JOIN games g ON g.id = k.game_id
         WHERE g.seated = 0 ORDER BY k.game_id, k.key LIMIT 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    pool.close().await;

    let service = db.service().await;
    for game in &old {
        let new = read_moves(&service, &game.id).await;
        assert_eq!(new.len(), game.moves.len(), "game {}", game.id);
        for (o, n) in game.moves.iter().zip(&new) {
            assert_reads_as(&game.setup, o, n, &game.id);
        }
    }
    let (games, faults) = service.verify().await.unwrap();
    assert_eq!((games, faults), (15, Vec::<String>::new()));

    let app = common::spawn_server(service.clone());
    let replay = send(
        &app,
        actix_web::test::TestRequest::post()
            .uri(&format!("/v1/games/{key_game}/throws"))
            .insert_header(("Idempotency-Key", key.as_str())),
    )
    .await;
    assert_eq!(replay.status.as_u16(), 201);
    assert_eq!(
        &replay.body[..],
        kept.as_slice(),
        "the kept answer, byte for byte"
    );

    // Every open game in progress plays on, narrated from the converted
    // memory exactly as the version before would have narrated it.
    let mut played_on = 0;
    for game in old.iter().filter(|g| !g.seated && !g.state.is_finished()) {
        let expected = next_move_as_before(game);
        let r = send(
            &app,
            actix_web::test::TestRequest::post().uri(&format!("/v1/games/{}/throws", game.id)),
        )
        .await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        let new = read_moves(&service, &game.id).await;
        let last = new.last().unwrap();
        assert_eq!(last.n, game.version + 1);
        let mut expected = expected;
        expected.rules_stated.clear();
        assert_eq!(text(&last.narration), text(&expected), "game {}", game.id);
        played_on += 1;
    }
    assert!(played_on >= 5, "{played_on} games played on");

    // The old records are gone: the log's rows are small.
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let (rows, largest): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), MAX(length(body)) FROM moves")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(usize::try_from(rows).unwrap(), moves + played_on);
    assert!(largest < 200, "a stored move of {largest} bytes");
    pool.close().await;
}

/// Create a game over HTTP; its id.
async fn create(app: &common::Bound, body: &Value) -> String {
    let r = send(app, post_json("/v1/games", body)).await;
    assert_eq!(
        r.status.as_u16(),
        201,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let id = r.json()["id"].as_str().unwrap().to_owned();
    // The ruleset's odds solved before the first throw: a throw's answer
    // takes the odds solved by then (its `chances` and odds sentence),
    // where a read waits for them, so the two read alike only from here.
    let start = std::time::Instant::now();
    while send(app, get(&format!("/v1/games/{id}/odds")))
        .await
        .status
        .as_u16()
        == 503
    {
        assert!(start.elapsed() < std::time::Duration::from_secs(120));
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    id
}

/// Throw until the game is over (or `most` throws); the answers' bodies.
async fn play_out(app: &common::Bound, id: &str, most: usize) -> Vec<Value> {
    let mut answers = Vec::new();
    for _ in 0..most {
        let r = send(
            app,
            actix_web::test::TestRequest::post().uri(&format!("/v1/games/{id}/throws")),
        )
        .await;
        assert_eq!(
            r.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&r.body)
        );
        let answer = r.json();
        let over = answer["state"]["status"] != "in_progress";
        answers.push(answer);
        if over {
            break;
        }
    }
    answers
}

/// Every move of a game, page after page of the log.
async fn all_moves(app: &common::Bound, id: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor = String::new();
    loop {
        let page = send(
            app,
            get(&format!(
                "/v1/games/{id}/moves?limit={}{cursor}",
                zohn_ahl::http::MAX_PAGE
            )),
        )
        .await
        .json();
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => return items,
        }
    }
}

const PRESETS: [&str; 5] = ["composite", "culin1898", "ludii", "a4", "boxed"];

/// Every move of seeded games of every preset and audience, played to the
/// end, reads back (a page of the log, one move, each audience) exactly as
/// the answer to its throw told it, rendered then from the move as played.
#[actix_web::test]
async fn a_move_reads_back_word_for_word_as_its_throw_was_answered() {
    let (_db, app) = common::spawn_app().await;
    let app = std::rc::Rc::new(app);
    let mut cases = Vec::new();
    for preset in PRESETS {
        for audience in ["young", "general", "scholar"] {
            for seed in 0..2 {
                cases.push((preset, audience, seed));
            }
        }
    }
    // The games are played at once (the writer commits their throws
    // together), each read back once it is over.
    let games = cases.into_iter().map(|(preset, audience, seed)| {
        let app = std::rc::Rc::clone(&app);
        async move {
            let app = app.as_ref();
            let id = create(
                app,
                &json!({"ruleset": {"preset": preset}, "seed": format!("log-{preset}-{seed}"),
                    "narration": {"audience": audience}}),
            )
            .await;
            let answers = play_out(app, &id, 2_000).await;
            let items = &all_moves(app, &id).await;
            assert_eq!(items.len(), answers.len());
            for (answer, item) in answers.iter().zip(items) {
                let mut answer = answer.clone();
                answer.as_object_mut().unwrap().remove("state");
                assert_eq!(text(item), text(&answer), "{preset} {audience} {seed}");
            }
            // One move read alone, in every audience, as the page of that
            // audience shows it.
            let n = answers.len().div_ceil(2);
            for other in ["young", "general", "scholar"] {
                let one = send(
                    app,
                    get(&format!("/v1/games/{id}/moves/{n}?audience={other}")),
                )
                .await
                .json();
                let page = send(
                    app,
                    get(&format!(
                        "/v1/games/{id}/moves?limit=1&cursor={}&audience={other}",
                        n - 1
                    )),
                )
                .await
                .json();
                assert_eq!(text(&one), text(&page["items"][0]));
                if other == audience {
                    assert_eq!(text(&one), text(&items[n - 1]));
                }
            }
            answers.len()
        }
    });
    let moves: usize = futures_util::future::join_all(games).await.iter().sum();
    assert!(moves > 1_000, "{moves} moves");
}

/// Each item of the move log, and one move read alone, says how the game
/// stood right after it (as the throw's answer's `state` said then), read
/// when the game has long moved on: computed from the stored move, not
/// from the game as it is now.
#[actix_web::test]
async fn regression_the_move_log_lacked_the_game_state_after_each_move() {
    let (_db, app) = common::spawn_app().await;
    for preset in PRESETS {
        let id = create(
            &app,
            &json!({"ruleset": {"preset": preset}, "seed": format!("after-{preset}")}),
        )
        .await;
        let answers = play_out(&app, &id, 2_000).await;
        let items = all_moves(&app, &id).await;
        assert_eq!(items.len(), answers.len());
        for (answer, item) in answers.iter().zip(&items) {
            let expected = common::after_of(&answer["state"]);
            assert_eq!(item["after"], expected, "{preset} move {}", item["n"]);
            assert_eq!(answer["after"], expected);
            assert_eq!(item["after"]["version"], item["n"]);
        }
        let last = items.last().unwrap();
        assert_eq!(last["after"]["status"], "finished", "{preset}");
        assert!(last["after"]["to_throw"].is_null());
        let first = send(&app, get(&format!("/v1/games/{id}/moves/1")))
            .await
            .json();
        assert_eq!(first["after"], items[0]["after"]);
        assert_eq!(first["after"]["status"], "in_progress");
    }
}

/// A game whose writer restarts between throws (the game then read from
/// the database, its narration's memory from the game's row) is narrated
/// exactly as the same game played by one writer throughout.
#[actix_web::test]
async fn a_game_narrates_the_same_when_its_writer_restarts_between_throws() {
    for preset in PRESETS {
        let body = json!({"ruleset": {"preset": preset}, "seed": format!("restart-{preset}"),
            "narration": {"audience": "scholar"}});
        let (_db, app) = common::spawn_app().await;
        let id = create(&app, &body).await;
        let whole = play_out(&app, &id, 300).await;

        let db = TestDb::new();
        let mut app = common::spawn_server(db.service().await);
        let id = create(&app, &body).await;
        let mut parts = Vec::new();
        while parts.len() < whole.len() {
            parts.extend(play_out(&app, &id, 3).await);
            app = common::spawn_server(db.service().await);
        }
        assert_eq!(parts.len(), whole.len());
        for (a, b) in whole.iter().zip(&parts) {
            assert_eq!(
                text(&a["narration"]),
                text(&b["narration"]),
                "{preset} move {}",
                a["n"]
            );
        }
    }
}

/// A move costs at most 512 bytes stored: the database file (games,
/// moves, seats, indexes, every page) over the moves it holds, after 60
/// games of every preset played to the end by concurrent clients.
#[actix_web::test]
async fn a_stored_move_costs_at_most_512_bytes() {
    let db = TestDb::new();
    let store = Store::connect(&db.url).await.unwrap();
    let app = common::spawn_server(Service::new(store.clone()));
    let mut ids = Vec::new();
    for i in 0..60 {
        let preset = PRESETS[i % PRESETS.len()];
        let body = json!({"ruleset": {"preset": preset}, "seed": format!("size-{i}"),
            "sides": {"a": {"name": "Ama"}, "b": {"name": "Bea"}}, "seats": i % 4 == 0});
        let r = send(&app, post_json("/v1/games", &body)).await;
        assert_eq!(r.status.as_u16(), 201);
        let g = r.json();
        let id = g["id"].as_str().unwrap().to_owned();
        let host = g["host_token"].as_str().map(str::to_owned);
        ids.push((id, host));
    }
    let app = std::rc::Rc::new(app);
    let plays = ids.iter().map(|(id, host)| {
        let app = std::rc::Rc::clone(&app);
        async move {
            loop {
                let mut req =
                    actix_web::test::TestRequest::post().uri(&format!("/v1/games/{id}/throws"));
                if let Some(h) = host {
                    req = req.insert_header(("Authorization", format!("Bearer {h}")));
                }
                let r = send(app.as_ref(), req).await;
                assert_eq!(r.status.as_u16(), 201);
                if r.json()["state"]["status"] != "in_progress" {
                    break;
                }
            }
        }
    });
    futures_util::future::join_all(plays).await;
    store.close().await;

    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    let (pages, page_size, free): (i64, i64, i64) = sqlx::query_as(
        "SELECT page_count, page_size, freelist_count FROM pragma_page_count, pragma_page_size, pragma_freelist_count",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    let bytes = u64::try_from(pages * page_size).unwrap();
    let per_move = bytes / u64::try_from(moves).unwrap();
    println!(
        "{moves} moves in {bytes} bytes ({pages} pages of {page_size}, {free} free): {per_move} bytes a move"
    );
    assert!(moves > 5_000, "{moves} moves");
    assert!(
        per_move <= MOVE_BUDGET,
        "{per_move} bytes a move (budget {MOVE_BUDGET})"
    );
}
