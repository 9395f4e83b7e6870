//! The chart of the chances over a game (issue 26, point 4):
//! `GET /v1/games/{id}/chances.svg` and `chances.png` through the real
//! HTTP stack on a real SQLite file. Every number the chart plots and marks
//! is recomputed here from the move log (`GET /v1/games/{id}/moves`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{Bound, Reply, TestDb, get, post_empty, post_json, send, until_solved};
use serde_json::{Value, json};
use zohn_ahl::odds::{Settings, Solver};

/// A seeded game, its chain solved, played `throws` times (or to its end).
async fn played(app: &Bound, seed: &str, throws: usize) -> String {
    let created = send(
        app,
        post_json(
            "/v1/games",
            &json!({"seed": seed, "sides": {"a": {"name": "Hawks"}, "b": {"name": "Owls"}}}),
        ),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    until_solved(app, &format!("/v1/games/{id}/odds")).await;
    for _ in 0..throws {
        let r = send(app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        if r.status.as_u16() != 201 || r.json()["after"]["status"] == "finished" {
            break;
        }
    }
    id
}

/// Every move of the log, move 1 first.
async fn log(app: &Bound, id: &str) -> Vec<Value> {
    let mut items = Vec::new();
    loop {
        let path = format!("/v1/games/{id}/moves?limit=100&cursor={}", items.len());
        let page = send(app, get(&path)).await.json();
        let got = page["items"].as_array().unwrap().clone();
        if got.is_empty() {
            return items;
        }
        items.extend(got);
    }
}

/// The elements of `doc` whose class list has `class`.
fn with_class<'a>(
    doc: &'a roxmltree::Document<'a>,
    class: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'a>> {
    doc.descendants().filter(move |n| {
        n.attribute("class")
            .is_some_and(|c| c.split(' ').any(|k| k == class))
    })
}

fn number(node: roxmltree::Node<'_, '_>, attr: &str) -> f64 {
    node.attribute(attr).unwrap().parse().unwrap()
}

fn moves_marked(doc: &roxmltree::Document<'_>, class: &str) -> BTreeSet<u64> {
    with_class(doc, class)
        .map(|n| n.attribute("data-move").unwrap().parse().unwrap())
        .collect()
}

fn picture(r: &Reply, content_type: &str) -> String {
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(r.header("content-type").as_deref(), Some(content_type));
    assert_eq!(r.header("cache-control").as_deref(), Some("no-cache"));
    r.header("etag").expect("an ETag")
}

/// One point per move plus the start, each the move log's `chances.after`
/// (the start the first move's `chances.before`); the turning point is the
/// move of the largest swing in the log; the rare throws are exactly the
/// moves whose throw's probability is under 1 in 16.
#[actix_web::test]
async fn the_chart_plots_and_marks_what_the_move_log_says() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let id = played(&app, "chart-1", 400).await;
    let moves = log(&app, &id).await;
    assert!(moves.len() > 10, "{} moves", moves.len());
    let r = send(&app, get(&format!("/v1/games/{id}/chances.svg"))).await;
    picture(&r, "image/svg+xml");
    let text = String::from_utf8(r.body.clone()).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("role"), Some("img"));
    assert_eq!(root.attribute("data-chart"), Some("chances"));
    let desc = doc
        .descendants()
        .find(|n| n.has_tag_name("desc"))
        .and_then(|n| n.text())
        .unwrap()
        .to_owned();
    assert!(doc.descendants().any(|n| n.has_tag_name("title")));

    let points: Vec<_> = with_class(&doc, "point").collect();
    assert_eq!(
        points.len(),
        moves.len() + 1,
        "one point per move and the start"
    );
    let chance = |m: &Value, when: &str, side: &str| m["chances"][when][side].as_f64().unwrap();
    for (i, p) in points.iter().enumerate() {
        assert_eq!(number(*p, "data-move"), i as f64);
        let (a, b) = if i == 0 {
            (
                chance(&moves[0], "before", "a"),
                chance(&moves[0], "before", "b"),
            )
        } else {
            (
                chance(&moves[i - 1], "after", "a"),
                chance(&moves[i - 1], "after", "b"),
            )
        };
        assert_eq!(number(*p, "data-a"), a, "point {i}");
        assert_eq!(number(*p, "data-b"), b, "point {i}");
    }

    // The largest swing, recomputed (the earliest of equal ones).
    let mut best: Option<(u64, f64)> = None;
    for m in &moves {
        let swing = (chance(m, "after", "a") - chance(m, "before", "a")).abs();
        if best.is_none_or(|(_, s)| swing > s) {
            best = Some((m["n"].as_u64().unwrap(), swing));
        }
    }
    let turning = best.unwrap().0;
    assert_eq!(
        moves_marked(&doc, "turning-point"),
        BTreeSet::from([turning])
    );
    assert!(desc.contains(&format!("move {turning}:")), "{desc}");

    let rare: BTreeSet<u64> = moves
        .iter()
        .filter(|m| m["probability"]["decimal"].as_f64().unwrap() < 1.0 / 16.0)
        .map(|m| m["n"].as_u64().unwrap())
        .collect();
    assert_eq!(moves_marked(&doc, "rare-throw"), rare);
    // What did not happen is not said: no rare throw, no sentence and no
    // key for them.
    assert_eq!(
        rare.is_empty(),
        !desc.contains("rarer than 1 in 16"),
        "{desc}"
    );
    assert_eq!(rare.is_empty(), !text.contains("Rare throw"));
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    if game["status"] == "finished" {
        assert!(desc.contains(" won after "), "{desc}");
    }
    assert!(desc.contains("At the start"), "{desc}");
}

/// A game with no moves is one point: the opening's odds.
#[actix_web::test]
async fn a_game_without_moves_charts_only_the_start() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let id = played(&app, "chart-empty", 0).await;
    let odds = until_solved(&app, &format!("/v1/games/{id}/odds"))
        .await
        .json();
    let r = send(&app, get(&format!("/v1/games/{id}/chances.svg"))).await;
    picture(&r, "image/svg+xml");
    let text = String::from_utf8(r.body).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let points: Vec<_> = with_class(&doc, "point").collect();
    assert_eq!(points.len(), 1);
    assert_eq!(
        number(points[0], "data-a"),
        odds["sides"][0]["win_probability"].as_f64().unwrap()
    );
    assert!(moves_marked(&doc, "turning-point").is_empty());
}

/// The PNG decodes at the chart's size; both pictures answer 304 to their
/// own ETag, and the tag changes with the game.
#[actix_web::test]
async fn the_png_decodes_and_both_pictures_revalidate() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let id = played(&app, "chart-png", 5).await;
    let svg_path = format!("/v1/games/{id}/chances.svg");
    let png_path = format!("/v1/games/{id}/chances.png");
    let png = send(&app, get(&png_path)).await;
    let png_tag = picture(&png, "image/png");
    let image = resvg::tiny_skia::Pixmap::decode_png(&png.body).unwrap();
    assert_eq!(
        (image.width(), image.height()),
        (
            zohn_ahl::picture::CHART_WIDTH,
            zohn_ahl::picture::CHART_HEIGHT
        )
    );
    let svg_tag = picture(&send(&app, get(&svg_path)).await, "image/svg+xml");
    assert_eq!(png_tag[5..], svg_tag[5..], "both tags hash the same SVG");
    for (path, tag) in [(&svg_path, &svg_tag), (&png_path, &png_tag)] {
        let held = send(
            &app,
            get(path).insert_header(("if-none-match", tag.as_str())),
        )
        .await;
        assert_eq!(held.status.as_u16(), 304, "{path}");
        assert_eq!(held.header("etag").as_deref(), Some(tag.as_str()));
    }
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let after = send(
        &app,
        get(&svg_path).insert_header(("if-none-match", svg_tag.as_str())),
    )
    .await;
    assert_eq!(after.status.as_u16(), 200, "a new move, a new chart");
}

/// `?audience=` words the description; an unknown one is a 400 naming
/// the parameter; `?v=` (the lesson page's version) is ignored.
#[actix_web::test]
async fn the_description_is_in_the_audiences_words() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let id = played(&app, "chart-words", 12).await;
    let desc = |body: Vec<u8>| {
        let text = String::from_utf8(body).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        doc.descendants()
            .find(|n| n.has_tag_name("desc"))
            .and_then(|n| n.text())
            .unwrap()
            .to_owned()
    };
    let path = format!("/v1/games/{id}/chances.svg");
    let young = desc(
        send(&app, get(&format!("{path}?audience=young&v=13")))
            .await
            .body,
    );
    assert!(young.contains("about "), "{young}");
    assert!(!young.contains('%') || young.contains("100%"), "{young}");
    let general = desc(
        send(&app, get(&format!("{path}?audience=general")))
            .await
            .body,
    );
    assert!(general.contains('%'), "{general}");
    let p = send(&app, get(&format!("{path}?audience=nobody")))
        .await
        .problem(400);
    assert_eq!(p["errors"][0]["pointer"], "#/query/audience");
    send(&app, get("/v1/games/not-a-game/chances.png"))
        .await
        .problem(400);
    send(
        &app,
        get("/v1/games/00000000-0000-4000-8000-000000000000/chances.svg"),
    )
    .await
    .problem(404);
}

/// A ruleset too large to solve has no chart: 422, as its odds.
#[actix_web::test]
async fn a_ruleset_too_large_to_solve_is_422() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"options": {"counters_per_side": 15, "circuits_to_win": 10}}}),
        ),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    for ext in ["svg", "png"] {
        let p = send(&app, get(&format!("/v1/games/{id}/chances.{ext}")))
            .await
            .problem(422);
        assert_eq!(p["type"], "/problems/ruleset-too-large");
    }
}

/// A chain not solved within the budget is 503 odds-pending with
/// `Retry-After`, then the chart once it is solved.
#[actix_web::test]
async fn a_chain_being_solved_is_503_with_retry_after_then_the_chart() {
    let solver = Solver::new(Settings {
        budget: Duration::from_millis(1),
        ..Settings::default()
    });
    let (_db, app) = common::spawn_app_with_solver(&solver).await;
    // Ludii's coding with 4 counters and two teams of two: 45,050 states,
    // far more than a millisecond's solve.
    let g = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"preset": "ludii", "options": {"counters_per_side": 4}}}),
        ),
    )
    .await
    .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/games/{id}/chances.svg");
    let r = send(&app, get(&path)).await;
    let p = r.problem(503);
    assert_eq!(p["type"], "/problems/odds-pending");
    let retry: u32 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(retry >= 1);
    let r = until_solved(&app, &path).await;
    picture(&r, "image/svg+xml");
}
