//! Detail levels through the real HTTP stack: a game keeps the level it
//! was created with, every read that narrates moves takes `?detail=` (the
//! move log, one move, the live feed), and an unknown level is a problem
//! naming `detail` and the levels there are.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

/// Moves played in each game of these tests.
const MOVES: usize = 12;

/// The kinds of a move view's narration segments, in order.
fn kinds(m: &Value) -> Vec<&str> {
    m["narration"]["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect()
}

/// A game created with `narration`, with [`MOVES`] throws played (fewer if
/// it ends first): its id and the throws' answers.
async fn played<T: common::Target>(app: &T, seed: &str, narration: Value) -> (String, Vec<Value>) {
    let created = send(
        app,
        post_json("/v1/games", &json!({"seed": seed, "narration": narration})),
    )
    .await;
    assert_eq!(
        created.status.as_u16(),
        201,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
    let id = created.json()["id"].as_str().unwrap().to_owned();
    let mut throws = Vec::new();
    for _ in 0..MOVES {
        let thrown = send(app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        if thrown.status.as_u16() != 201 {
            break;
        }
        throws.push(thrown.json());
    }
    (id, throws)
}

async fn moves<T: common::Target>(app: &T, id: &str, query: &str) -> Vec<Value> {
    let page = send(app, get(&format!("/v1/games/{id}/moves?limit=100{query}"))).await;
    assert_eq!(
        page.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&page.body)
    );
    page.json()["items"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn a_game_created_at_full_detail_is_told_in_full_and_read_at_any_level() {
    let (_db, app) = spawn_app().await;
    let (id, throws) = played(&app, "detail-full", json!({"detail": "full"})).await;
    assert!(throws.len() > 3, "a few moves were played");
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(game["detail"], "full");
    assert_eq!(game["audience"], "general");

    // The throw's answer and a read without `detail`: the game's own, full.
    let full = moves(&app, &id, "").await;
    assert_eq!(full.len(), throws.len());
    assert_eq!(moves(&app, &id, "&detail=full").await, full);
    for (m, thrown) in full.iter().zip(&throws) {
        assert!(
            kinds(m).contains(&"rule"),
            "move {} in full: {:?}",
            m["n"],
            kinds(m)
        );
        assert_eq!(m["narration"], thrown["narration"], "move {}", m["n"]);
    }

    // Brief: one sentence a move, what happened, the first after a
    // one-line framing.
    let brief = moves(&app, &id, "&detail=brief").await;
    assert_eq!(kinds(&brief[0]), ["framing", "event"], "move 1 brief");
    for m in &brief[1..] {
        assert_eq!(kinds(m), ["event"], "move {} brief", m["n"]);
    }

    // Lesson: the first move says what game is played.
    let lesson = moves(&app, &id, "&detail=lesson").await;
    assert!(
        kinds(&lesson[0]).contains(&"framing"),
        "{:?}",
        kinds(&lesson[0])
    );
    assert!(
        full.iter()
            .zip(&lesson)
            .any(|(f, l)| f["narration"] != l["narration"]),
        "full and lesson tell the game differently"
    );

    // One move at a level: the same as in the log, the same every time,
    // with the audience asked for too.
    for (level, log) in [("brief", &brief), ("lesson", &lesson), ("full", &full)] {
        let uri = format!("/v1/games/{id}/moves/1?detail={level}");
        let one = send(&app, get(&uri)).await;
        assert_eq!(one.status.as_u16(), 200);
        assert_eq!(one.json(), log[0], "{level}");
        assert_eq!(
            one.body,
            send(&app, get(&uri)).await.body,
            "{level}: deterministic"
        );
    }
    let young = send(
        &app,
        get(&format!(
            "/v1/games/{id}/moves/2?audience=young&detail=brief"
        )),
    )
    .await
    .json();
    assert_eq!(young["narration"]["audience"], "young");
    assert_eq!(kinds(&young), ["event"]);
}

#[actix_web::test]
async fn a_game_created_brief_answers_each_throw_in_one_sentence() {
    // The first opens with a one-line framing.
    let (_db, app) = spawn_app().await;
    let (id, throws) = played(
        &app,
        "detail-brief",
        json!({"detail": "brief", "audience": "young"}),
    )
    .await;
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(
        (game["detail"].as_str(), game["audience"].as_str()),
        (Some("brief"), Some("young"))
    );
    assert_eq!(kinds(&throws[0]), ["framing", "event"], "move 1");
    for thrown in &throws[1..] {
        assert_eq!(kinds(thrown), ["event"], "move {}", thrown["n"]);
    }
    for thrown in &throws {
        assert_eq!(thrown["narration"]["audience"], "young");
    }
    let lesson = moves(&app, &id, "&detail=lesson").await;
    assert!(
        kinds(&lesson[0]).contains(&"framing"),
        "{:?}",
        kinds(&lesson[0])
    );
}

#[actix_web::test]
async fn a_game_created_without_detail_is_told_as_a_lesson() {
    let (_db, app) = spawn_app().await;
    let (id, throws) = played(&app, "detail-default", json!({})).await;
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(game["detail"], "lesson");
    assert!(
        kinds(&throws[0]).contains(&"framing"),
        "{:?}",
        kinds(&throws[0])
    );
    assert_eq!(
        moves(&app, &id, "").await,
        moves(&app, &id, "&detail=lesson").await
    );
}

#[actix_web::test]
async fn the_feed_tells_each_move_at_the_detail_asked_for() {
    let (_db, app) = spawn_app().await;
    let (id, _) = played(&app, "detail-feed", json!({})).await;
    for level in ["brief", "full"] {
        let feed = send(
            &app,
            get(&format!(
                "/v1/games/{id}/events?detail={level}&since=0&follow=false"
            ))
            .insert_header(("accept", "application/x-ndjson")),
        )
        .await;
        assert_eq!(feed.status.as_u16(), 200);
        let lines: Vec<Value> = String::from_utf8(feed.body)
            .unwrap()
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .filter(|l: &Value| l["event"] == "move")
            .collect();
        assert!(!lines.is_empty());
        let log = moves(&app, &id, &format!("&detail={level}")).await;
        for line in &lines {
            let n = line["id"].as_u64().unwrap() as usize;
            assert_eq!(line["data"], log[n - 1], "{level} move {n}");
        }
    }
}

#[actix_web::test]
async fn an_unknown_detail_is_a_problem_naming_detail_and_the_levels() {
    let (_db, app) = spawn_app().await;
    let (id, _) = played(&app, "detail-bad", json!({})).await;
    for uri in [
        format!("/v1/games/{id}/moves?detail=nope"),
        format!("/v1/games/{id}/moves/1?detail=nope"),
        format!("/v1/games/{id}/moves/1?audience=young&detail=Brief"),
        format!("/v1/games/{id}/events?detail=nope&follow=false"),
    ] {
        let p = send(&app, get(&uri)).await.problem(400);
        assert_eq!(p["errors"][0]["pointer"], "#/query/detail", "{uri}");
        let detail = p["errors"][0]["detail"].as_str().unwrap();
        assert!(detail.contains("lesson, brief, full"), "{uri}: {detail}");
    }
    // Both wrong: both named.
    let p = send(
        &app,
        get(&format!("/v1/games/{id}/moves?audience=x&detail=y")),
    )
    .await
    .problem(400);
    let pointers: Vec<&str> = p["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["#/query/audience", "#/query/detail"]);
    // On creation, as a bad audience is.
    let created = send(
        &app,
        post_json("/v1/games", &json!({"narration": {"detail": "nope"}})),
    )
    .await;
    let p = created.problem(400);
    let pointer = p["errors"][0]["pointer"].as_str().unwrap();
    assert!(pointer.ends_with("/narration/detail"), "{p}");
}

/// Regression: a game told at `brief` never said what game it was or whose
/// rules it plays (only `lesson` and `full` had a framing), so a caption
/// or a chatbot's game began mid-play. Its first move now opens with one
/// line of framing, for every preset and audience, short, cited, and
/// saying that no Kiowa educator has reviewed the narration.
#[actix_web::test]
async fn regression_a_brief_game_had_no_framing() {
    let (_db, app) = spawn_app().await;
    for preset in ["composite", "culin1898", "ludii", "a4", "boxed"] {
        for audience in ["young", "general", "scholar"] {
            let created = send(
                &app,
                post_json(
                    "/v1/games",
                    &json!({
                        "seed": format!("brief-framing-{preset}"),
                        "ruleset": {"preset": preset},
                        "narration": {"detail": "brief", "audience": audience},
                    }),
                ),
            )
            .await;
            assert_eq!(created.status.as_u16(), 201, "{preset} {audience}");
            let id = created.json()["id"].as_str().unwrap().to_owned();
            let thrown = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
            assert_eq!(thrown.status.as_u16(), 201, "{preset} {audience}");
            let thrown = thrown.json();
            let framing = &thrown["narration"]["segments"][0];
            assert_eq!(framing["kind"], "framing", "{preset} {audience}");
            let text = framing["text"].as_str().unwrap();
            let words = text.split_whitespace().count();
            assert!(words <= 40, "{preset} {audience}: {words} words: {text}");
            assert!(text.contains("Kiowa"), "{preset} {audience}: {text}");
            let review = if audience == "young" {
                "No Kiowa teacher has checked this telling of the game."
            } else {
                "No Kiowa educator has reviewed this narration."
            };
            assert!(text.ends_with(review), "{preset} {audience}: {text}");
            assert!(
                !framing["citations"].as_array().unwrap().is_empty(),
                "{preset} {audience}"
            );
            if preset == "boxed" {
                // The boxed edition's own way to win is told before it decides.
                assert!(text.contains("four"), "{audience}: {text}");
            }
        }
    }
}
